#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# timeout: 300
# boot: shared
# A critical error reported by the device ends in a parent reset and a
# re-probe: the model's x-inject-pe-criterr knob on e810-0 (QMP qom-set
# through the runner) sets GLPE_CRITERR and PFINT_OICR.PE_CRITERR; the
# parent (ice_lite, or the stock ice) forwards CRIT_ERR, irdma logs it and
# requests a function reset, and within 60 s irdma0 is registered again and
# ACTIVE. A user context with a QP, CQs and MRs is open on irdma0 at the
# time: its memory and the function's rings and HMC pages are held (not
# freed) while the engine may still reach them, and freed when irdma binds
# the reset function again. irdma1 on the other
# function stays registered and ACTIVE throughout, the LAN still pings
# between the ports, and the kernel log stays clean.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions" 2 "${#devs[@]}"
rdma_wait_all_active 15 || fail "ports not ACTIVE at start"
ib0=$(e810_ibdev_of "${devs[0]}")
ib1=$(e810_ibdev_of "${devs[1]}")
expect_eq "ib_device of ${devs[0]}" irdma0 "$ib0"
expect_eq "ib_device of ${devs[1]}" irdma1 "$ib1"
a=$(e810_netdev_of "${devs[0]}")
b=$(e810_netdev_of "${devs[1]}")
aux0=$(e810_aux_of "${devs[0]}")
aux1=$(e810_aux_of "${devs[1]}")
e810_two_hosts "$a" "$b" || { fail "cannot set up the two hosts"; finish; }
ok "$a 192.168.81.1 and $b 192.168.81.2 (netns peer) up"
wait_port_state irdma0 ACTIVE 15 && ok "irdma0 ACTIVE" ||
	fail "irdma0 is '$(rdma_port_state irdma0)' before the injection"
wait_port_state irdma1 ACTIVE 15 && ok "irdma1 ACTIVE" ||
	fail "irdma1 is '$(rdma_port_state irdma1)' before the injection"
ping -c 3 -W 2 192.168.81.2 >/dev/null && ok "ping before the injection" ||
	fail "no ping before the injection"
ib1_dev=$(readlink -f "/sys/class/infiniband/irdma1/device")

# Watch irdma1 while the other function goes through its reset: one line
# per sample that is not ACTIVE.
watch=/tmp/irdma1-watch
: >"$watch"
(
	while [ ! -f /tmp/watch-stop ]; do
		s=$(rdma_port_state irdma1)
		[ "$s" = ACTIVE ] || echo "irdma1 '$s' at $(date +%s.%N)" >>"$watch"
		sleep 0.2
	done
) &
watcher=$!

# A user context on irdma0 through the reset: an RC pingpong server that
# waits for a client, with its QP, CQ, MR and queue buffers registered.
qrn=/sys/kernel/debug/irdma/quarantine
qrn_val() { awk -v k="$1" '$1 == k { print $2 }' "$qrn"; }
released0=$(qrn_val released)
expect_eq "held buffers before the injection" 0 "$(qrn_val held_bufs)"
g0=$(roce_gid_index irdma0 192.168.81.1)
ibv_rc_pingpong -d irdma0 -g "$g0" -p 18515 >/tmp/pp-held.log 2>&1 &
pp_pid=$!
wait_for "rdma res show qp | grep -q 'irdma0.*pid $pp_pid'" 15 &&
	ok "user QP on irdma0: $(rdma res show qp | grep -m1 "pid $pp_pid")" ||
	fail "the pingpong server has no QP on irdma0"

dmesg_mark	# new_dmesg: kernel log lines since the injection
reply=$(host_qmp '{"execute":"qom-set","arguments":{"path":"/machine/peripheral/e810-0","property":"x-inject-pe-criterr","value":true}}') &&
	ok "qom-set x-inject-pe-criterr on e810-0: $reply" ||
	fail "qom-set x-inject-pe-criterr: $reply"

# ice forwards it without a log line of its own (ice_misc_intr() sets
# ICE_AUX_ERR_PENDING, ice_service_task() sends the event).
if [ "$E810_PARENT" = ice_lite ]; then
	wait_for "new_dmesg | grep -q 'ice_lite ${devs[0]}: critical RDMA error, OICR 0x1'" 15 &&
		ok "ice_lite: $(new_dmesg | grep -m1 -o 'critical RDMA error.*')" ||
		fail "ice_lite did not report the critical error"
fi
wait_for "new_dmesg | grep -q '$aux0: critical error: OICR 0x1'" 15 &&
	ok "irdma: $(new_dmesg | grep -m1 -o 'critical error: OICR.*')" ||
	fail "irdma did not log the CRIT_ERR event"
wait_for "new_dmesg | grep -q '$aux0: requesting a function reset: critical error'" 15 &&
	ok "irdma requested a function reset" || fail "irdma requested no reset"
# ice_lite warns (WARN_RESET); ice withdraws the device before its reset.
warn_line="$aux0: reset warning"
[ "$E810_PARENT" = ice ] && warn_line="$aux0: ice resets the function"
wait_for "new_dmesg | grep -q '$warn_line'" 30 &&
	ok "the parent reset the function ($warn_line)" || fail "no '$warn_line'"

# Back within 60 s: removed, registered again on function 0 (a new
# "registered on" line), port ACTIVE.
t0=$SECONDS
if wait_for "new_dmesg | grep -q 'irdma0: registered on $a' && [ \"\$(e810_ibdev_of ${devs[0]})\" = irdma0 ] && [ \"\$(rdma_port_state irdma0)\" = ACTIVE ]" 60; then
	ok "irdma0 registered again and ACTIVE after $((SECONDS - t0)) s"
else
	fail "irdma0 not back: ib_device '$(e810_ibdev_of "${devs[0]}")', state '$(rdma_port_state irdma0)'"
fi
rdma link show irdma0/1 | grep -q "state ACTIVE.*netdev $a" &&
	ok "rdma link: $(rdma link show irdma0/1)" ||
	fail "rdma link: $(rdma link show irdma0/1 2>&1)"
expect_eq "aux device of ${devs[0]} after the reset" "$aux0" "$(e810_aux_of "${devs[0]}")"
expect_eq "aux device of ${devs[1]}" "$aux1" "$(e810_aux_of "${devs[1]}")"

# Teardown during the reset (drivers/infiniband/hw/irdma/quarantine.c):
# the unbind ran before the parent's reset, so it held the memory the
# engine could still reach, and the bind after the reset freed all of it.
held=$(new_dmesg | sed -n "s/.*$aux0: unbound before a function reset: \([0-9]*\) buffers.*/\1/p" | head -n 1)
freed=$(new_dmesg | sed -n "s/.*$aux0: no engine state left: freed \([0-9]*\) held buffers.*/\1/p" | head -n 1)
[ "${held:-0}" -gt 0 ] &&
	ok "unbind during the reset held $held buffers: $(new_dmesg | grep -m1 -o 'unbound before a function reset.*')" ||
	fail "the unbind during the reset held no memory"
expect_eq "buffers freed after the reset" "${held:-none}" "${freed:-none}"
expect_eq "buffers still held" 0 "$(qrn_val held_bufs)"
expect_eq "user memory still held" 0 "$(qrn_val held_umems)"
expect_eq "buffers released by the quarantine" "$((released0 + ${held:-0}))" "$(qrn_val released)"
expect_eq "buffers lost" 0 "$(qrn_val lost)"
kill "$pp_pid" 2>/dev/null
wait "$pp_pid" 2>/dev/null

touch /tmp/watch-stop
wait "$watcher"
if [ -s "$watch" ]; then
	fail "irdma1 left ACTIVE: $(head -n 3 "$watch" | xargs)"
else
	ok "irdma1 stayed ACTIVE throughout"
fi
expect_eq "irdma1 is the same device" "$ib1_dev" "$(readlink -f /sys/class/infiniband/irdma1/device)"
new_dmesg | grep -q "$aux1: reset warning" && fail "$aux1 got a reset warning"
new_dmesg | grep -q "$aux1: ice resets the function" && fail "$aux1 was reset"
new_dmesg | grep -q "$aux1: critical error" && fail "$aux1 got a critical error"

wait_carrier "$a" 15 || fail "$a has no carrier after the reset"
out=$(ping -c 20 -i 0.2 -W 2 192.168.81.2 2>&1)
grep -q "20 packets transmitted, 20 received" <<<"$out" &&
	ok "ping $a -> $b: $(grep 'packets transmitted' <<<"$out")" ||
	fail "ping $a -> $b: $(grep 'packets transmitted' <<<"$out" || tail -n 2 <<<"$out")"
out=$(ip netns exec peer ping -c 20 -i 0.2 -W 2 192.168.81.1 2>&1)
grep -q "20 packets transmitted, 20 received" <<<"$out" &&
	ok "ping $b -> $a: $(grep 'packets transmitted' <<<"$out")" ||
	fail "ping $b -> $a: $(grep 'packets transmitted' <<<"$out" || tail -n 2 <<<"$out")"

echo "kernel log since the injection (excerpt):"
new_dmesg | grep -E 'critical|reset|registered|torn down|held|freed' | sed 's/^/    /'
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
