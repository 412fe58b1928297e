#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 300
# boot: shared
# The CQP watchdog: the model's x-inject-cqp-stall knob freezes e810-0's
# control QP (WQEs no longer consumed). The next CQP command (a MANAGE_ARP
# for a new address) makes no progress; irdma declares the CQP hung,
# counts the timeout, asks ice_lite for a function reset, and comes back
# registered and ACTIVE with a working CQP (the address reaches the ARP
# cache after the re-probe). irdma1 is not touched. Each step is read from
# irdma's and ice_lite's debugfs counters (docs/debugging.md), not from
# the kernel log.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions" 2 "${#devs[@]}"
rdma_wait_all_active 15 || fail "ports not ACTIVE at start"
a=$(e810_netdev_of "${devs[0]}")
aux0=$(e810_aux_of "${devs[0]}")
aux1=$(e810_aux_of "${devs[1]}")
ib1_dev=$(readlink -f /sys/class/infiniband/irdma1/device)
arp() { cat "/sys/kernel/debug/irdma/$aux0/arp" 2>/dev/null; }

d0=${devs[0]} d1=${devs[1]}
# The counters of both functions before (irdma's debugfs "events").
hangs0=$(irdma_ev "$d0" cqp_hangs) req0=$(irdma_ev "$d0" reset_requests)
warn0=$(irdma_ev "$d0" parent_resets) binds0=$(irdma_ev "$d0" binds)
rebuilds0=$(ice_lite_ev "$d0" rebuilds)
ev1_before=$(xargs <"/sys/kernel/debug/irdma/events/$d1")
reply=$(host_qmp '{"execute":"qom-set","arguments":{"path":"/machine/peripheral/e810-0","property":"x-inject-cqp-stall","value":true}}') &&
	ok "qom-set x-inject-cqp-stall on e810-0: $reply" ||
	fail "qom-set x-inject-cqp-stall: $reply"

# A CQP command through the address notifier: it cannot complete now.
ip addr add 192.168.83.1/24 dev "$a" || fail "ip addr add"
t0=$SECONDS
wait_for "[ \"\$(irdma_ev $d0 cqp_hangs)\" = $((hangs0 + 1)) ]" 30 &&
	ok "watchdog: CQP declared hung after $((SECONDS - t0)) s (cqp_hangs $(irdma_ev "$d0" cqp_hangs))" ||
	fail "the watchdog did not declare the CQP hung (cqp_hangs $(irdma_ev "$d0" cqp_hangs), want $((hangs0 + 1)))"
wait_for "[ \"\$(irdma_ev $d0 reset_requests)\" = $((req0 + 1)) ]" 15 &&
	ok "irdma requested a function reset" || fail "irdma requested no reset"
wait_for "[ \"\$(irdma_ev $d0 parent_resets)\" = $((warn0 + 1)) ]" 30 &&
	ok "the parent reset the function (WARN_RESET)" || fail "no reset from the parent"

t0=$SECONDS
if wait_for "[ \"\$(irdma_ev $d0 binds)\" = $((binds0 + 1)) ] && [ \"\$(e810_ibdev_of $d0)\" = irdma0 ] && [ \"\$(rdma_port_state irdma0)\" = ACTIVE ]" 60; then
	ok "irdma0 registered again and ACTIVE after $((SECONDS - t0)) s"
else
	fail "irdma0 not back: binds $(irdma_ev "$d0" binds), '$(e810_ibdev_of "$d0")' '$(rdma_port_state irdma0)'"
fi
expect_eq "ice_lite rebuilds of $d0" $((rebuilds0 + 1)) "$(ice_lite_ev "$d0" rebuilds)"

# The CQP works again: the new address is in the ARP cache, and the new
# CQP instance has no errors or timeouts.
wait_for "arp | grep -q ' 192.168.83.1 .* local'" 15 &&
	ok "MANAGE_ARP completes after the reset" || fail "192.168.83.1 not in the ARP cache after the reset"
cqp=/sys/kernel/debug/irdma/$aux0/cqp
expect_eq "CQP timeouts after the reset" 0 "$(awk '$1 == "timeouts" { print $2 }' "$cqp")"
expect_eq "CQP errors after the reset" 0 "$(awk '$1 == "errors" { print $2 }' "$cqp")"
expect_eq "cqp_hangs after the reset" $((hangs0 + 1)) "$(irdma_ev "$d0" cqp_hangs)"
expect_eq "irdma1 is the same device" "$ib1_dev" "$(readlink -f /sys/class/infiniband/irdma1/device)"
expect_eq "$aux1: event counters unchanged" "$ev1_before" \
	"$(xargs <"/sys/kernel/debug/irdma/events/$d1")"
ip addr del 192.168.83.1/24 dev "$a"

echo "irdma events of $d0: $(tr '\n' ' ' <"/sys/kernel/debug/irdma/events/$d0")"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
