#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# rdma-protocol: iwarp
# timeout: 600
# Our irdma in iWARP mode (docs/irdma.md "iWARP mode"): both functions'
# parents switched to iWARP (e810-init, devlink), our irdma bound to
# <parent>.iwarp.<N>:
#  - the ib_devices: node type RNIC, ibv_devinfo transport iWARP, link
#    layer Ethernet, `rdma link` ACTIVE, one GID: the MAC;
#  - the model runs the function in iWARP mode (QMP x-iwarp-tables
#    mode=iwarp) and our ILQ exists (debugfs iwarp: QP 1, CQ 1);
#  - listeners (rping -s): on one address, the port in the APBVT and one
#    listen entry (syn/ADDR:PORT/qp1) in the model's quad hash of that
#    function only; on the wildcard address, an entry for each function's
#    address, following addresses added and removed later; both gone
#    when the listener goes; a TCP SYN from the other
#    port's host stack reaches the listener through the ILQ (debugfs
#    rx_listen_syns) and parses (rx_malformed 0);
#  - rmmod irdma with a listener: the module goes, the model's tables are
#    empty; modprobe brings both devices back ACTIVE in iWARP mode;
#  - no oops, warning or leak in the kernel log.
. "$E810_LIB"

export RDMAV_DRIVERS=irdma
rdma_skip_unbindable

devs=($(e810_pci_devs))
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 e810 functions, got ${#devs[@]}"; finish; }
d0=${devs[0]} d1=${devs[1]}

# check_devices: everything the bring-up must show, for both functions.
check_devices() {
	local d a ib mac gid nd
	for d in "$d0" "$d1"; do
		nd=$(e810_netdev_of "$d")
		[ -n "$nd" ] && ip link set "$nd" up
	done
	for d in "$d0" "$d1"; do
		a=$(e810_aux_of "$d")
		case "$a" in
		"$E810_PARENT".iwarp.*) ok "$d publishes $a" ;;
		*) fail "$d: want $E810_PARENT.iwarp.<N>, got '$a'"; continue ;;
		esac
		expect_eq "$d: $a driver" "irdma.$E810_PARENT" \
			"$(driver_of "/sys/bus/auxiliary/devices/$a")"
		wait_for "[ -n \"\$(e810_ibdev_of $d)\" ]" 30
		ib=$(e810_ibdev_of "$d")
		[ -n "$ib" ] || { fail "$d: no ib_device"; continue; }
		expect_eq "$ib: node_type" "4: RNIC" \
			"$(cat "/sys/class/infiniband/$ib/node_type")"
		expect_eq "$ib: ibv_devinfo transport" "iWARP (1)" \
			"$(ibv_attr "$ib" transport)"
		expect_eq "$ib: link_layer" Ethernet \
			"$(ibv_attr "$ib" link_layer)"
		wait_port_state "$ib" ACTIVE 30 && ok "$ib: port ACTIVE" ||
			fail "$ib: port is '$(rdma_port_state "$ib")'"
		mac=$(cat "/sys/class/net/$(e810_netdev_of "$d")/address")
		gid=$(cat "/sys/class/infiniband/$ib/ports/1/gids/0")
		expect_eq "$ib: GID 0 is the MAC" \
			"$(tr -d : <<<"$mac")00000000000000000000" \
			"$(tr -d : <<<"$gid")"
		expect_eq "$d: model mode" iwarp "$(iw_table "$d" mode)"
		expect_eq "$a: ILQ QP" 1 "$(iwdbg "$a" ilq_qp)"
		expect_eq "$a: ILQ CQ" 1 "$(iwdbg "$a" ilq_cq)"
	done
}

# has_entry DEV FIELD ITEM: ITEM is in the comma list FIELD of iw_table.
has_entry() {
	tr , '\n' <<<"$(iw_table "$1" "$2")" | grep -qxF "$3"
}

check_devices
nd0=$(e810_netdev_of "$d0")
nd1=$(e810_netdev_of "$d1")
iwarp_two_hosts "$nd0" "$nd1" || { fail "could not set up the two hosts"; finish; }
for d in "$d0" "$d1"; do
	iw_tables_empty "$d" && ok "$d: APBVT and quad hash empty at start" ||
		fail "$d: tables at start: $(iw_table "$d" apbvt_ports) / $(iw_table "$d" qhash_entries)"
done

# ---- a listener on one address ---------------------------------------------

rping -s -a 192.168.81.1 -p 7301 -C 1 >/tmp/rping-l1.log 2>&1 &
pid=$!
wait_for "has_entry $d0 qhash_entries syn/192.168.81.1:7301/qp1" 20 &&
	ok "$d0: listen entry syn/192.168.81.1:7301/qp1" ||
	fail "$d0: quad hash: '$(iw_table "$d0" qhash_entries)'; rping: $(cat /tmp/rping-l1.log)"
has_entry "$d0" apbvt_ports 7301 && ok "$d0: port 7301 in the APBVT" ||
	fail "$d0: APBVT: '$(iw_table "$d0" apbvt_ports)'"
expect_eq "$d0: quad hash entries" 1 "$(iw_table "$d0" qhash)"
expect_eq "$d1: quad hash entries (other address)" 0 "$(iw_table "$d1" qhash)"
# A TCP SYN from the host stack of the other port reaches the listener's
# ILQ through the listen entry, and our irdma takes it as a connection
# request (our SYN-ACK completes the host's connect; its close then ends
# the connection before any MPA Request: iwarp_cm.sh tests connections).
a0=$(e810_aux_of "$d0")
syns=$(iwdbg "$a0" rx_listen_syns)
ilq_rx=$(iw_table "$d0" ilq_rx)
timeout 3 bash -c 'exec 3<>/dev/tcp/192.168.81.1/7301' 2>/dev/null
wait_for "[ \$(iwdbg $a0 rx_listen_syns) -gt $syns ]" 10 &&
	ok "$a0: the SYN reached the listener through the ILQ" ||
	fail "$a0: rx_listen_syns $syns -> $(iwdbg "$a0" rx_listen_syns), model ilq_rx $ilq_rx -> $(iw_table "$d0" ilq_rx), malformed $(iwdbg "$a0" rx_malformed)"
expect_eq "$a0: malformed ILQ segments" 0 "$(iwdbg "$a0" rx_malformed)"
kill "$pid"; wait "$pid" 2>/dev/null
for d in "$d0" "$d1"; do
	wait_for "iw_tables_empty $d" 20 && ok "$d: tables empty after the listener" ||
		fail "$d: left: $(iw_table "$d" apbvt_ports) / $(iw_table "$d" qhash_entries)"
done

# ---- a wildcard listener ---------------------------------------------------

rping -s -a 0.0.0.0 -p 7302 -C 1 >/tmp/rping-l2.log 2>&1 &
pid=$!
wait_for "has_entry $d0 qhash_entries syn/192.168.81.1:7302/qp1 &&
	has_entry $d1 qhash_entries syn/192.168.81.2:7302/qp1" 20 &&
	ok "wildcard: a listen entry per function's address" ||
	fail "wildcard: '$(iw_table "$d0" qhash_entries)' / '$(iw_table "$d1" qhash_entries)'; rping: $(cat /tmp/rping-l2.log)"
for d in "$d0" "$d1"; do
	has_entry "$d" apbvt_ports 7302 && ok "$d: port 7302 in the APBVT" ||
		fail "$d: APBVT: '$(iw_table "$d" apbvt_ports)'"
done
# The wildcard listener follows the netdev's addresses.
ip addr add 192.168.81.11/32 dev "$nd0"
wait_for "has_entry $d0 qhash_entries syn/192.168.81.11:7302/qp1" 20 &&
	ok "$d0: an address added: its listen entry follows" ||
	fail "$d0: after adding 192.168.81.11: '$(iw_table "$d0" qhash_entries)'"
ip addr del 192.168.81.11/32 dev "$nd0"
wait_for "! has_entry $d0 qhash_entries syn/192.168.81.11:7302/qp1" 20 &&
	ok "$d0: the address removed: its listen entry goes" ||
	fail "$d0: after removing 192.168.81.11: '$(iw_table "$d0" qhash_entries)'"
has_entry "$d0" qhash_entries syn/192.168.81.1:7302/qp1 &&
	ok "$d0: the other entry stays" ||
	fail "$d0: lost syn/192.168.81.1:7302: '$(iw_table "$d0" qhash_entries)'"
kill "$pid"; wait "$pid" 2>/dev/null
for d in "$d0" "$d1"; do
	wait_for "iw_tables_empty $d" 20 && ok "$d: tables empty after the wildcard listener" ||
		fail "$d: left: $(iw_table "$d" apbvt_ports) / $(iw_table "$d" qhash_entries)"
done

# ---- rmmod with a listener ---------------------------------------------------

rping -s -a 192.168.81.2 -p 7303 -C 1 >/tmp/rping-l3.log 2>&1 &
pid=$!
wait_for "has_entry $d1 qhash_entries syn/192.168.81.2:7303/qp1" 20 ||
	fail "$d1: listener 7303 not in the quad hash"
if timeout 60 rmmod irdma; then
	ok "rmmod irdma with a listener"
else
	fail "rmmod irdma with a listener failed"
fi
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
for d in "$d0" "$d1"; do
	iw_tables_empty "$d" && ok "$d: tables empty after rmmod" ||
		fail "$d: left after rmmod: $(iw_table "$d" apbvt_ports) / $(iw_table "$d" qhash_entries)"
	expect_eq "$d: no ib_device after rmmod" "" "$(e810_ibdev_of "$d")"
done
irdma_load || fail "irdma does not load again"
check_devices

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
