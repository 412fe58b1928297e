#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite i40e
# timeout: 600
# boot: shared
# PF reset and rebuild while a ping runs on port 0, three times, through
# the parent's own interface. The run under the stock ice (E810_PARENT=ice,
# `tools/vm run --parent ice`) is kept out of make check for now: in one
# of five runs a vCPU of the guest stopped taking timer interrupts after
# the second function reset (RCU stalls, QEMU idle, pings lost); see
# docs/testing.md. Otherwise: ice_lite's "ethtool --reset" (the path
# irdma's request_reset op takes: irdma gets WARN_RESET and is unbound),
# for the stock ice a function-level reset through sysfs, which ice's
# reset_prepare/reset_done handlers turn into a PF reset and rebuild
# (ice_pci_err_reset_prepare(), ice_pci_err_resume()), and for i40e on
# the X722 its own PF reset (debugfs "pfr", the reset its Tx hang
# recovery asks for: i40e_do_reset_safe()). The admin queue,
# VSI, link and rings come back with the same MTU and addresses, the
# parent's RDMA device is published again (and bound to irdma under
# ice_lite); then (under i40e from the first answered ping: its service
# task adds the MAC filters the reset emptied) 100 pings each way and a
# jumbo DF ping pass, and port 1 never lost its carrier.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "NIC functions" 2 "${#devs[@]}"
a=$(e810_netdev_of "${devs[0]}")
b=$(e810_netdev_of "${devs[1]}")
e810_jumbo_hosts "$a" "$b" || finish
b_changes=$(ip netns exec peer cat "/sys/class/net/$b/carrier_changes")
aux0=$(e810_aux_of "${devs[0]}")
aux1=$(e810_aux_of "${devs[1]}")

ping_ok "before: ping -s 8000 -M do" \
	"$(ping -c 5 -i 0.1 -W 2 -M do -s 8000 192.168.81.2 2>&1)" 5

# rebuilt: the reset is over. ice_lite counts its rebuilds (debugfs
# events); under the stock ice, the device has run a PF reset (QMP
# x-core-stats) and irdma has bound the function again.
d0=${devs[0]} d1=${devs[1]}
rebuilt() {
	if [ "$E810_PARENT" = ice ]; then
		[ "$(model_stat "$d0" pf_resets)" -gt "$pfr_before" ] &&
			[ "$(irdma_ev "$d0" binds)" -gt "$binds_before" ]
	elif [ "$E810_PARENT" = i40e ]; then
		# i40e takes the carrier down before the reset and up once
		# the VSI is rebuilt (i40e_down(), i40e_up_complete())
		[ "$(model_stat "$d0" pf_resets)" -gt "$pfr_before" ] &&
			[ "$(cat "/sys/class/net/$a/carrier_changes")" -ge $((cc_before + 2)) ] &&
			[ "$(cat "/sys/class/net/$a/carrier" 2>/dev/null)" = 1 ]
	else
		[ "$(ice_lite_ev "$d0" rebuilds)" -gt "$done_before" ]
	fi
}
resets0=$(irdma_ev "$d0" parent_resets) resets1=$(irdma_ev "$d1" parent_resets)

for round in 1 2 3; do
	done_before=$(ice_lite_ev "$d0" rebuilds)
	pfr_before=$(model_stat "$d0" pf_resets) binds_before=$(irdma_ev "$d0" binds)
	cc_before=$(cat "/sys/class/net/$a/carrier_changes")
	ping -i 0.01 -W 1 192.168.81.2 >/dev/null 2>&1 &
	ping_pid=$!
	sleep 0.5
	if [ "$E810_PARENT" = ice ]; then
		echo 1 >"/sys/bus/pci/devices/${devs[0]}/reset" &&
			ok "round $round: function reset of ${devs[0]}" ||
			fail "round $round: function reset of ${devs[0]} refused"
	elif [ "$E810_PARENT" = i40e ]; then
		echo pfr >"/sys/kernel/debug/i40e/${devs[0]}/command" &&
			ok "round $round: i40e PF reset of ${devs[0]}" ||
			fail "round $round: i40e PF reset of ${devs[0]} refused"
	else
		out=$(ethtool --reset "$a" irq dma filter offload 2>&1) &&
			ok "round $round: ethtool --reset $a irq dma filter offload" ||
			fail "round $round: ethtool --reset: $out"
	fi
	wait_for rebuilt 30 &&
		ok "round $round: ${devs[0]} reset and rebuilt" ||
		fail "round $round: no rebuild: ice_lite rebuilds $(ice_lite_ev "$d0" rebuilds), device PF resets $(model_stat "$d0" pf_resets), irdma binds $(irdma_ev "$d0" binds)"
	kill "$ping_pid"; wait "$ping_pid" 2>/dev/null

	aux=""
	wait_for "[ -n \"\$(e810_aux_of ${devs[0]})\" ]" 10 && aux=$(e810_aux_of "${devs[0]}")
	if [ "$E810_PARENT" = i40e ]; then
		# no irdma of this run binds i40e.iwarp.<N>
		[ -n "$aux" ] && ok "round $round: $aux there after the reset" ||
			fail "round $round: no RDMA auxiliary device after the reset"
	else
		[ -n "$aux" ] && wait_for "[ \"\$(module_of /sys/bus/auxiliary/devices/$aux)\" = irdma ]" 10 &&
			ok "round $round: $aux published again and bound to irdma" ||
			fail "round $round: no RDMA auxiliary device bound after the reset"
	fi
	expect_eq "round $round: $a MTU" 9000 "$(cat "/sys/class/net/$a/mtu")"
	expect_eq "round $round: $a address" 192.168.81.1/24 \
		"$(ip -br -4 addr show "$a" | awk '{ print $3 }')"
	wait_carrier "$a" 10 && ok "round $round: $a has a carrier" ||
		fail "round $round: $a has no carrier"
	if [ "$E810_PARENT" = i40e ]; then
		# A PF reset empties the function's MAC filters; i40e_rebuild()
		# marks its own as new and its service task adds them again
		# (i40e_sync_filters_subtask()) after the carrier is back, so
		# replies to eth0 are filtered (x-stats rx_filtered) until then.
		wait_for "ping -c 1 -W 1 192.168.81.2 >/dev/null 2>&1" 10 ||
			fail "round $round: no ping answered 10 s after the reset"
	fi
	f0=$(model_stat "$d0" rx_filtered) n0=$(model_stat "$d0" rx_no_desc)
	ping_ok "round $round: ping .1 -> .2" \
		"$(ping -c 100 -i 0.01 -W 2 192.168.81.2 2>&1)" 100 \
		"$d0 rx_filtered +$(($(model_stat "$d0" rx_filtered) - f0)), rx_no_desc +$(($(model_stat "$d0" rx_no_desc) - n0))"
	ping_ok "round $round: ping .2 -> .1" \
		"$(ip netns exec peer ping -c 100 -i 0.01 -W 2 192.168.81.1 2>&1)" 100
	ping_ok "round $round: ping -s 8000 -M do" \
		"$(ping -c 5 -i 0.1 -W 2 -M do -s 8000 192.168.81.2 2>&1)" 5
done

# ice_lite warns before each reset (WARN_RESET); the stock ice has no such
# event and withdraws the device first (irdma_ice_remove() counts that):
# irdma's debugfs events parent_resets.
if [ "$E810_PARENT" != i40e ]; then
	expect_eq "irdma saw the parent reset $aux0" $((resets0 + 3)) \
		"$(irdma_ev "$d0" parent_resets)"
	expect_eq "irdma parent resets on $aux1 (port 1)" "$resets1" \
		"$(irdma_ev "$d1" parent_resets)"
fi
expect_eq "$b carrier changes (port 1 untouched)" "$b_changes" \
	"$(ip netns exec peer cat "/sys/class/net/$b/carrier_changes")"
expect_eq "$a link detected" yes \
	"$(ethtool "$a" | sed -n 's/^[[:space:]]*Link detected: //p')"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
