#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# timeout: 300
# boot: shared
# A critical error reported by the device ends in a parent reset and a
# re-probe: the model's x-inject-pe-criterr knob on e810-0 (QMP qom-set
# through the runner) sets GLPE_CRITERR and PFINT_OICR.PE_CRITERR; the
# parent (ice_lite, or the stock ice) forwards CRIT_ERR, irdma counts it
# and requests a function reset, and within 60 s irdma0 is registered again and
# ACTIVE. A user context with a QP, CQs and MRs is open on irdma0 at the
# time: its memory and the function's rings and HMC pages are held (not
# freed) while the engine may still reach them, and freed when irdma binds
# the reset function again. irdma1 on the other
# function stays registered and ACTIVE throughout, the LAN still pings
# between the ports, and the kernel log stays clean. Every step is read
# from the drivers' debugfs counters (docs/debugging.md), not the log.
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

d0=${devs[0]} d1=${devs[1]}
# Counters before the injection: irdma's per-function events, ice_lite's.
ev() { irdma_ev "$d0" "$1"; }
crit0=$(ev crit_errors) req0=$(ev reset_requests) pres0=$(ev parent_resets)
binds0=$(ev binds) qb0=$(ev quarantined_bufs) qr0=$(ev quarantine_released)
lcrit0=$(ice_lite_ev "$d0" crit_errors)
ev1_before=$(cat "/sys/kernel/debug/irdma/events/$d1")
reply=$(host_qmp '{"execute":"qom-set","arguments":{"path":"/machine/peripheral/e810-0","property":"x-inject-pe-criterr","value":true}}') &&
	ok "qom-set x-inject-pe-criterr on e810-0: $reply" ||
	fail "qom-set x-inject-pe-criterr: $reply"

# ice forwards it without a counter of its own (ice_misc_intr() sets
# ICE_AUX_ERR_PENDING, ice_service_task() sends the event).
if [ "$E810_PARENT" = ice_lite ]; then
	wait_for "[ \"\$(ice_lite_ev $d0 crit_errors)\" = $((lcrit0 + 1)) ]" 15 &&
		ok "ice_lite forwarded the critical error (crit_errors $((lcrit0 + 1)))" ||
		fail "ice_lite did not forward the critical error (crit_errors $(ice_lite_ev "$d0" crit_errors))"
fi
wait_for "[ \"\$(ev crit_errors)\" = $((crit0 + 1)) ]" 15 &&
	ok "irdma took the CRIT_ERR event" || fail "irdma did not count the CRIT_ERR event"
wait_for "[ \"\$(ev reset_requests)\" = $((req0 + 1)) ]" 15 &&
	ok "irdma requested a function reset" || fail "irdma requested no reset"
# ice_lite warns (WARN_RESET); ice withdraws the device for its reset.
wait_for "[ \"\$(ev parent_resets)\" = $((pres0 + 1)) ]" 30 &&
	ok "the parent reset the function (parent_resets $((pres0 + 1)))" ||
	fail "no parent reset (parent_resets $(ev parent_resets))"

# Back within 60 s: removed, bound again on function 0, port ACTIVE.
t0=$SECONDS
if wait_for "[ \"\$(ev binds)\" = $((binds0 + 1)) ] && [ \"\$(e810_ibdev_of $d0)\" = irdma0 ] && [ \"\$(rdma_port_state irdma0)\" = ACTIVE ]" 60; then
	ok "irdma0 registered again and ACTIVE after $((SECONDS - t0)) s"
else
	fail "irdma0 not back: binds $(ev binds), ib_device '$(e810_ibdev_of "$d0")', state '$(rdma_port_state irdma0)'"
fi
rdma link show irdma0/1 | grep -q "state ACTIVE.*netdev $a" &&
	ok "rdma link: $(rdma link show irdma0/1)" ||
	fail "rdma link: $(rdma link show irdma0/1 2>&1)"
expect_eq "aux device of $d0 after the reset" "$aux0" "$(e810_aux_of "$d0")"
expect_eq "aux device of $d1" "$aux1" "$(e810_aux_of "$d1")"

# Teardown during the reset (drivers/infiniband/hw/irdma/quarantine.c):
# the unbind ran before the parent's reset, so it held the memory the
# engine could still reach, and the bind after the reset freed all of it.
held=$(($(ev quarantined_bufs) - qb0))
freed=$(($(ev quarantine_released) - qr0))
[ "$held" -gt 0 ] && ok "unbind during the reset held $held buffers" ||
	fail "the unbind during the reset held no memory"
expect_eq "buffers freed after the reset" "$held" "$freed"
expect_eq "buffers still held" 0 "$(qrn_val held_bufs)"
expect_eq "user memory still held" 0 "$(qrn_val held_umems)"
expect_eq "buffers released by the quarantine" "$((released0 + held))" "$(qrn_val released)"
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
# No reset warning, critical error, rebind or anything else on function 1.
expect_eq "$aux1: event counters unchanged" "$(xargs <<<"$ev1_before")" \
	"$(xargs <"/sys/kernel/debug/irdma/events/$d1")"

wait_carrier "$a" 15 || fail "$a has no carrier after the reset"
out=$(ping -c 20 -i 0.2 -W 2 192.168.81.2 2>&1)
grep -q "20 packets transmitted, 20 received" <<<"$out" &&
	ok "ping $a -> $b: $(grep 'packets transmitted' <<<"$out")" ||
	fail "ping $a -> $b: $(grep 'packets transmitted' <<<"$out" || tail -n 2 <<<"$out")"
out=$(ip netns exec peer ping -c 20 -i 0.2 -W 2 192.168.81.1 2>&1)
grep -q "20 packets transmitted, 20 received" <<<"$out" &&
	ok "ping $b -> $a: $(grep 'packets transmitted' <<<"$out")" ||
	fail "ping $b -> $a: $(grep 'packets transmitted' <<<"$out" || tail -n 2 <<<"$out")"

echo "irdma events of $d0: $(xargs <"/sys/kernel/debug/irdma/events/$d0")"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
