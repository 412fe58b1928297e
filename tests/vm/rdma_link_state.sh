#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 300
# boot: shared
# also-parent: ice
# The port follows the netdev: `ip link set down` moves port 1 to DOWN
# (physical state DISABLED), `up` back to ACTIVE (LINK_UP), and each
# change reaches user space as an asynchronous event (IB_EVENT_PORT_ERR,
# IB_EVENT_PORT_ACTIVE; ibv_asyncwatch prints them as IBV_EVENT_*) and is
# counted in irdma's debugfs events. The other function's port is not
# disturbed.
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

down0=$(irdma_ev "${devs[0]}" port_down) up0=$(irdma_ev "${devs[0]}" port_up)
odown0=$(irdma_ev "${devs[1]}" port_down) oup0=$(irdma_ev "${devs[1]}" port_up)
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
# irdma's debugfs events: two port changes each way on this function,
# none on the other.
expect_eq "$ib port changes counted (down up)" "$((down0 + 2)) $((up0 + 2))" \
	"$(irdma_ev "${devs[0]}" port_down) $(irdma_ev "${devs[0]}" port_up)"
expect_eq "$other port changes counted (down up)" "$odown0 $oup0" \
	"$(irdma_ev "${devs[1]}" port_down) $(irdma_ev "${devs[1]}" port_up)"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
