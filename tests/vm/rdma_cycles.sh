#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# timeout: 900
# boot: shared
# irdma comes and goes without a trace: 20 cycles (E810_CYCLES, e.g.
# E810_CYCLES=100 tools/vm run --timeout 3600 ...) of rmmod irdma /
# modprobe irdma, every other one with a user context open on each device
# (disassociated by the unbind), 5 cycles of unbinding and rebinding the parent PCI
# function, and a parent-initiated function reset (ice_lite: ethtool
# --reset; ice, which has no ethtool reset: a PCI function-level reset,
# which ice handles in its reset_prepare/reset_done) each end with irdma0/irdma1 registered again and ACTIVE; every teardown leaves
# the device with zero valid SDs: the device model's own count (QMP
# x-core-stats valid_sds) after each rmmod and unbind, and irdma's count
# of teardowns it checked through PFHMC_SDCMD before destroying the CQP
# (debugfs events hmc_teardowns_clean / hmc_teardowns_leftover) while it
# stays loaded; the kernel log stays free of oopses, warnings and leaks.
# In iWARP mode (E810_RDMA_PROTOCOL=iwarp: iwarp_cycles.sh runs this
# script) the ports are two hosts in init_net (iwarp_ours_pair) and the
# contexts are live connections instead (iw_live_start).
. "$E810_LIB"

IW=0
[ "$E810_RDMA_PROTOCOL" = iwarp ] && IW=1
[ $IW = 1 ] && iwarp_ours_pair

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions" 2 "${#devs[@]}"
rdma_wait_all_active 15 || fail "ports not ACTIVE at start"

# valid_sds DEV: SDs of function DEV's HMC the device holds valid now.
valid_sds() { model_stat "$1" valid_sds; }
# Teardowns of DEV's HMC that irdma checked and found clean, or not.
clean_teardowns() { irdma_ev "$1" hmc_teardowns_clean; }
leaks() { echo $(($(irdma_ev "${devs[0]}" hmc_teardowns_leftover) + $(irdma_ev "${devs[1]}" hmc_teardowns_leftover))); }

# all_active WHAT: both ib_devices registered and ACTIVE, named irdma0/1.
all_active() {
	rdma_wait_all_active 15 || { fail "$1: ports not ACTIVE"; return; }
	names=$(for d in "${devs[@]}"; do e810_ibdev_of "$d"; done | sort | xargs)
	[ "$names" = "irdma0 irdma1" ] || fail "$1: ib_devices are '$names'"
}

cycles=${E810_CYCLES:-$((IW ? 6 : 20))}
ctx_cycles=0
for d in "${devs[@]}"; do
	n=$(valid_sds "$d")
	[ "${n:-0}" -gt 0 ] && ok "$d: $n valid SDs while irdma is bound" ||
		fail "$d: the device reports '$n' valid SDs while irdma is bound"
done
for cycle in $(seq 1 "$cycles"); do
	# Even cycles: a pingpong server per device (context, PD, CQ, QP, MRs)
	# waits for a client while irdma goes away under it.
	pids=()
	if [ $IW = 1 ] && [ $((cycle % 2)) = 0 ]; then
		iw_live_start "cycle $cycle" && ctx_cycles=$((ctx_cycles + 1))
	elif [ $((cycle % 2)) = 0 ]; then
		for ib in irdma0 irdma1; do
			ibv_rc_pingpong -d "$ib" -p $((18515 + ${ib#irdma})) \
				>/dev/null 2>&1 &
			pids+=($!)
		done
		if wait_for "[ \$(rdma res show qp | grep -c 'comm ibv_rc_pingpong') = 2 ]" 15; then
			ctx_cycles=$((ctx_cycles + 1))
		else
			fail "cycle $cycle: the user contexts did not come up"
		fi
	fi
	rmmod irdma || fail "cycle $cycle: rmmod irdma"
	for pid in "${pids[@]}"; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	[ $IW = 1 ] && iw_live_end "cycle $cycle"
	[ -d /sys/class/infiniband/irdma0 ] && fail "cycle $cycle: irdma0 left after rmmod"
	[ -d /sys/kernel/debug/irdma ] && fail "cycle $cycle: irdma debugfs left behind"
	for d in "${devs[@]}"; do
		n=$(valid_sds "$d")
		[ "$n" = 0 ] || fail "cycle $cycle: $d: the device has '$n' valid SDs after rmmod"
	done
	modprobe irdma || fail "cycle $cycle: modprobe irdma"
	all_active "cycle $cycle"
done
ok "$cycles rmmod/modprobe cycles, $ctx_cycles of them with user contexts open"
ctx_cycles=0
expect_eq "QPs left after the cycles" 0 "$(rdma res show qp | grep -c 'comm ibv_rc_pingpong')"

for cycle in $(seq 1 5); do
	d=${devs[$(((cycle - 1) % 2))]}
	before=$(clean_teardowns "$d")
	# iWARP: each function unbound once under a live connection
	[ $IW = 1 ] && [ "$cycle" -le 2 ] && iw_live_start "unbind $cycle" &&
		ctx_cycles=$((ctx_cycles + 1))
	echo "$d" >/sys/bus/pci/drivers/$E810_PARENT/unbind || fail "unbind $d"
	[ -z "$(e810_ibdev_of "$d")" ] || fail "unbind $cycle: $d keeps its ib_device"
	expect_eq "unbind $cycle: clean teardowns of $d" $((before + 1)) "$(clean_teardowns "$d")"
	expect_eq "unbind $cycle: valid SDs of $d" 0 "$(valid_sds "$d")"
	echo "$d" >/sys/bus/pci/drivers/$E810_PARENT/bind || fail "bind $d"
	if [ $IW = 1 ]; then
		iw_live_end "unbind $cycle" "${devs[$((cycle % 2))]}"
		iwarp_rebound "$d"
	fi
	all_active "rebind $cycle"
done
ok "5 unbind/bind cycles of the parent"

# A function reset through the parent: irdma is removed (clean teardown)
# and probed again on the rebuilt function.
d=${devs[0]}
nd=$(e810_netdev_of "$d")
before=$(clean_teardowns "$d")
warn0=$(irdma_ev "$d" parent_resets)
[ $IW = 1 ] && iw_live_start "reset" && ctx_cycles=$((ctx_cycles + 1))
if [ "$E810_PARENT" = ice_lite ]; then
	ethtool --reset "$nd" irq dma filter offload >/dev/null 2>&1 || fail "ethtool --reset $nd"
else
	echo 1 >"/sys/bus/pci/devices/$d/reset" || fail "FLR of $d"
fi
wait_for "[ \$(clean_teardowns $d) -ge $((before + 1)) ]" 15 && ok "reset: irdma torn down cleanly" ||
	fail "reset: no clean teardown"
sleep 1
[ $IW = 1 ] && iw_live_end "reset"
all_active "after reset"
# ice_lite announces its resets with IIDC_EVENT_WARN_RESET first.
if [ "$E810_PARENT" = ice_lite ]; then
	expect_eq "reset: WARN_RESET events of $d" $((warn0 + 1)) "$(irdma_ev "$d" parent_resets)"
fi

# iWARP: the device works after all that (a verified rping), the live
# connections all ran, and nothing is left in either irdma or engine.
if [ $IW = 1 ]; then
	expect_eq "unbind and reset cycles with a live connection" 3 "$ctx_cycles"
	iw_cycles_end
fi
expect_eq "teardowns leaving valid SDs since the last modprobe" 0 "$(leaks)"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
