#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 300
# boot: shared
# also-parent: ice
# The port follows the netdev: `ip link set down` moves port 1 to DOWN
# (physical state DISABLED), `up` back to ACTIVE (LINK_UP), and each
# change reaches user space as an asynchronous event (IB_EVENT_PORT_ERR,
# IB_EVENT_PORT_ACTIVE; ibv_asyncwatch prints them as IBV_EVENT_*). The
# other function's port is not disturbed.
. "$E810_LIB"

modprobe ib_uverbs || fail "modprobe ib_uverbs"
mapfile -t devs < <(e810_pci_devs)
rdma_wait_all_active 15 || fail "ports not ACTIVE"
nd=$(e810_netdev_of "${devs[0]}")
ib=$(e810_ibdev_of "${devs[0]}")
other=$(e810_ibdev_of "${devs[1]}")
[ -n "$ib" ] && [ -n "$other" ] || { fail "no ib_devices"; finish; }

ev=/tmp/asyncwatch.$ib
stdbuf -oL ibv_asyncwatch -d "$ib" >"$ev" 2>&1 &
watch=$!
wait_for "grep -q 'async event FD' $ev" 10 || sleep 1

for round in 1 2; do
	ip link set "$nd" down
	wait_port_state "$ib" DOWN 10 && ok "round $round: $ib DOWN after link down" ||
		fail "round $round: $ib is $(rdma_port_state "$ib") after link down"
	expect_eq "round $round: $ib physical state" DISABLED \
		"$(rdma link show "$ib/1" | sed -n 's/.*physical_state \([A-Z_]*\).*/\1/p')"
	expect_eq "round $round: $ib ibv_devinfo state" "PORT_DOWN (1)" "$(ibv_attr "$ib" state)"
	expect_eq "round $round: $other undisturbed" ACTIVE "$(rdma_port_state "$other")"
	wait_for "[ \$(grep -c 'IBV_EVENT_PORT_ERR' $ev) -ge $round ]" 10 &&
		ok "round $round: PORT_ERR event delivered" || fail "round $round: no PORT_ERR event"
	ip link set "$nd" up
	wait_carrier "$nd" 10 || fail "round $round: $nd has no carrier"
	wait_port_state "$ib" ACTIVE 10 && ok "round $round: $ib ACTIVE after link up" ||
		fail "round $round: $ib is $(rdma_port_state "$ib") after link up"
	expect_eq "round $round: $ib ibv_devinfo state" "PORT_ACTIVE (4)" "$(ibv_attr "$ib" state)"
	wait_for "[ \$(grep -c 'IBV_EVENT_PORT_ACTIVE' $ev) -ge $round ]" 10 &&
		ok "round $round: PORT_ACTIVE event delivered" || fail "round $round: no PORT_ACTIVE event"
done
kill "$watch" 2>/dev/null
wait "$watch" 2>/dev/null
sed 's/^/  /' "$ev"
dmesg | grep -q "$ib: port 1 DOWN" && ok "$ib logged the port change" || fail "no port change in dmesg"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
