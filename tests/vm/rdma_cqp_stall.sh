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
# cache after the re-probe). irdma1 is not touched.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions" 2 "${#devs[@]}"
rdma_wait_all_active 15 || fail "ports not ACTIVE at start"
a=$(e810_netdev_of "${devs[0]}")
aux0=$(e810_aux_of "${devs[0]}")
aux1=$(e810_aux_of "${devs[1]}")
ib1_dev=$(readlink -f /sys/class/infiniband/irdma1/device)
arp() { cat "/sys/kernel/debug/irdma/$aux0/arp" 2>/dev/null; }

dmesg_mark
reply=$(host_qmp '{"execute":"qom-set","arguments":{"path":"/machine/peripheral/e810-0","property":"x-inject-cqp-stall","value":true}}') &&
	ok "qom-set x-inject-cqp-stall on e810-0: $reply" ||
	fail "qom-set x-inject-cqp-stall: $reply"

# A CQP command through the address notifier: it cannot complete now.
ip addr add 192.168.83.1/24 dev "$a" || fail "ip addr add"
t0=$SECONDS
wait_for "new_dmesg | grep -q '$aux0: CQP hung: MANAGE_ARP'" 30 &&
	ok "watchdog: $(new_dmesg | grep -m1 -o 'CQP hung: [A-Z_]* (request [0-9]*) not completed') after $((SECONDS - t0)) s" ||
	fail "the watchdog did not declare the CQP hung"
wait_for "new_dmesg | grep -q '$aux0: requesting a function reset: CQP hung'" 15 &&
	ok "irdma requested a function reset" || fail "irdma requested no reset"
wait_for "new_dmesg | grep -q '$aux0: reset warning'" 30 &&
	ok "the parent reset the function" || fail "no reset from the parent"

t0=$SECONDS
if wait_for "[ \"\$(e810_ibdev_of ${devs[0]})\" = irdma0 ] && [ \"\$(rdma_port_state irdma0)\" = ACTIVE ] && new_dmesg | grep -q 'irdma0: registered on $a'" 60; then
	ok "irdma0 registered again and ACTIVE after $((SECONDS - t0)) s"
else
	fail "irdma0 not back: '$(e810_ibdev_of "${devs[0]}")' '$(rdma_port_state irdma0)'"
fi

# The CQP works again: the new address is in the ARP cache, and the new
# CQP instance has no errors or timeouts.
wait_for "arp | grep -q ' 192.168.83.1 .* local'" 15 &&
	ok "MANAGE_ARP completes after the reset" || fail "192.168.83.1 not in the ARP cache after the reset"
cqp=/sys/kernel/debug/irdma/$aux0/cqp
expect_eq "CQP timeouts after the reset" 0 "$(awk '$1 == "timeouts" { print $2 }' "$cqp")"
expect_eq "CQP errors after the reset" 0 "$(awk '$1 == "errors" { print $2 }' "$cqp")"
expect_eq "irdma1 is the same device" "$ib1_dev" "$(readlink -f /sys/class/infiniband/irdma1/device)"
new_dmesg | grep -q "$aux1: reset warning\|$aux1: CQP hung" && fail "$aux1 was disturbed"
ip addr del 192.168.83.1/24 dev "$a"

echo "kernel log since the injection (excerpt):"
new_dmesg | grep -E 'hung|reset|registered|torn down' | sed 's/^/    /'
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
