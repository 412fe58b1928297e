#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# rdma-driver: stock
# rdma-protocol: iwarp
# timeout: 900
# The stock ice switched to iWARP through devlink (e810-init: enable_roce
# false, enable_iwarp true, as on a real host), the stock irdma bound to
# ice.iwarp.<N>, the stock provider, on the emulated E810 in iWARP mode
# (docs/hw-model.md, "iWARP mode"):
#  - each function: ice.iwarp.<N> bound to irdma, devlink enable_iwarp
#    true and enable_roce false (and RoCEv2 refused while iWARP is on);
#    the model runs iWARP (QMP x-iwarp-tables mode=iwarp) with empty
#    APBVT and quad hash tables; `ibv_devinfo` reports transport iWARP,
#    `rdma link` ACTIVE on both ports;
#  - an rping listener on port 1 and a client on port 0 (both in init_net,
#    routed to each other over the wire):
#    the listener's port is in the APBVT with a SYN entry; the handshake
#    and the MPA request go through the ILQs (the model's ILQ counters on
#    both functions: segments sent, received, one with payload on the
#    listener's side), then the offloaded connection (MODIFY_QP to RTS,
#    the model's iWARP engine) carries one rping iteration: the client
#    exits 0, both show the ping data; both tables are empty again;
#  - 3 x rmmod irdma / insmod: both ports ACTIVE in iWARP each time, the
#    tables empty;
#  - the kernel log: no oops or warning.
. "$E810_LIB"

devs=($(e810_pci_devs))
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 e810 functions, got ${#devs[@]}"; finish; }

# ---- selection -----------------------------------------------------------

for d in "${devs[@]}"; do
	aux=$(e810_aux_of "$d")
	case "$aux" in
	ice.iwarp.*) ok "$d: parent published $aux" ;;
	*) fail "$d: no ice.iwarp.<N> ('$aux'; roce: $(ls /sys/bus/auxiliary/devices | tr '\n' ' '))" ;;
	esac
	[ -n "$aux" ] && expect_eq "$d: $aux bound to" irdma \
		"$(module_of "/sys/bus/auxiliary/devices/$aux")"
	v=$(devlink dev param show "pci/$d" name enable_iwarp 2>/dev/null |
		sed -n 's/.*cmode runtime value \([a-z]*\).*/\1/p')
	expect_eq "$d: devlink enable_iwarp" true "$v"
	v=$(devlink dev param show "pci/$d" name enable_roce 2>/dev/null |
		sed -n 's/.*cmode runtime value \([a-z]*\).*/\1/p')
	expect_eq "$d: devlink enable_roce" false "$v"
done
# ice refuses RoCEv2 while iWARP is on (ice_devlink_enable_roce_validate())
if devlink dev param set "pci/${devs[0]}" name enable_roce value true \
	cmode runtime 2>/dev/null; then
	fail "${devs[0]}: RoCEv2 enabled next to iWARP"
else
	ok "${devs[0]}: RoCEv2 refused while iWARP is on"
fi

wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ] && [ -n \"\$(e810_ibdev_of ${devs[1]})\" ]" 30
ib0=$(e810_ibdev_of "${devs[0]}")
ib1=$(e810_ibdev_of "${devs[1]}")
[ -n "$ib0" ] && [ -n "$ib1" ] || { fail "ib_devices missing ($ib0/$ib1)"; finish; }
rdma_wait_all_active 30 && ok "rdma link: both ports ACTIVE" ||
	fail "ports not ACTIVE: $(rdma link show 2>&1 | tr '\n' ' ')"
for ib in "$ib0" "$ib1"; do
	expect_eq "$ib: ibv_devinfo transport" "iWARP (1)" "$(ibv_attr "$ib" transport)"
done
tables_empty() {
	local d ok=1
	for d in "${devs[@]}"; do
		[ "$(iw_table "$d" mode)" = iwarp ] &&
			[ "$(iw_table "$d" apbvt)" = 0 ] &&
			[ "$(iw_table "$d" qhash)" = 0 ] || ok=0
	done
	[ $ok = 1 ]
}
tables_show() {
	local d
	for d in "${devs[@]}"; do
		echo "  $d: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-tables)"
	done
}
tables_empty && ok "model in iWARP mode, APBVT and quad hash empty" ||
	{ fail "model tables after bring-up:"; tables_show; }

# ---- rping: handshake and MPA request through the ILQs ------------------------

nd0=$(e810_netdev_of "${devs[0]}")
nd1=$(e810_netdev_of "${devs[1]}")
# Both ports stay in init_net: the stock irdma resolves the passive side's
# neighbour with ip_route_output(&init_net, ...) (upstream
# irdma_addr_resolve_neigh()), so a listener in another namespace fails
# irdma_make_cm_node() ("ip_route_output fail") and never answers the SYN.
# Locally generated packets take table 100 (each address through the
# other port, over the wire) before the local table, so rdma_cm and irdma
# see two hosts; each port accepts the other's local source address.
iw_two_hosts() {
	local n
	for n in all "$1" "$2"; do
		sysctl -qw net.ipv4.conf.$n.accept_local=1 \
			net.ipv4.conf.$n.rp_filter=0 \
			net.ipv4.conf.$n.arp_ignore=1 \
			net.ipv4.conf.$n.arp_announce=2 || return 1
	done
	ip addr add 192.168.81.1/32 dev "$1" && ip link set "$1" up &&
		ip addr add 192.168.81.2/32 dev "$2" && ip link set "$2" up &&
		ip route add 192.168.81.2 dev "$1" src 192.168.81.1 table 100 &&
		ip route add 192.168.81.1 dev "$2" src 192.168.81.2 table 100 &&
		ip rule add pref 10 iif lo table 100 &&
		ip rule add pref 100 table local &&
		ip rule del pref 0 table local || return 1
	wait_carrier "$1" 10 && wait_carrier "$2" 10
}
iw_two_hosts "$nd0" "$nd1" || { fail "could not set up the two hosts"; finish; }
ping -c 2 -W 2 192.168.81.2 >/dev/null && ok "ping 192.168.81.2 over the wire" ||
	fail "no ping between the ports: $(ip -br addr; ip rule; ip neigh)"
export RDMAV_DRIVERS=irdma	# the stock provider
PORT=7174
timeout 120 rping -s -a 192.168.81.2 -p $PORT -v -C 1 \
	>/tmp/rping-s.log 2>&1 &
spid=$!
if wait_for "[ \"\$(iw_table ${devs[1]} apbvt_ports)\" = $PORT ]" 30; then
	ok "listener: port $PORT in the APBVT of ${devs[1]}"
else
	fail "listener: APBVT of ${devs[1]}: '$(iw_table "${devs[1]}" apbvt_ports)'"
fi
case "$(iw_table "${devs[1]}" qhash_entries)" in
*syn/192.168.81.2:$PORT/qp1*) ok "listener: SYN entry for 192.168.81.2:$PORT to the ILQ" ;;
*) fail "listener: quad hash '$(iw_table "${devs[1]}" qhash_entries)'" ;;
esac
tx0=$(iw_table "${devs[0]}" ilq_tx)
timeout 60 rping -c -a 192.168.81.2 -p $PORT -v -C 1 >/tmp/rping-c.log 2>&1 &
cpid=$!
# SYN, SYN-ACK, ACK + MPA request: the listener's ILQ got a segment with
# payload (the MPA request) once the handshake went through.
if wait_for "[ \"\$(iw_table ${devs[1]} ilq_rx_data)\" -ge 1 ]" 60; then
	ok "MPA request received on the listener's ILQ"
else
	fail "no segment with payload on the listener's ILQ"
fi
c_tx=$(($(iw_table "${devs[0]}" ilq_tx) - tx0))
c_rx=$(iw_table "${devs[0]}" ilq_rx)
s_tx=$(iw_table "${devs[1]}" ilq_tx)
s_rx=$(iw_table "${devs[1]}" ilq_rx)
echo "ILQ: client sent $c_tx, received $c_rx; listener sent $s_tx, received $s_rx"
[ "$c_tx" -ge 2 ] && ok "client ILQ sent SYN, ACK/MPA request ($c_tx segments)" ||
	fail "client ILQ sent $c_tx segments"
[ "${c_rx:-0}" -ge 1 ] && ok "client ILQ received the SYN-ACK ($c_rx segments)" ||
	fail "client ILQ received $c_rx segments"
[ "${s_tx:-0}" -ge 1 ] && ok "listener ILQ sent the SYN-ACK ($s_tx segments)" ||
	fail "listener ILQ sent $s_tx segments"
[ "${s_rx:-0}" -ge 2 ] && ok "listener ILQ received SYN and ACK/MPA ($s_rx segments)" ||
	fail "listener ILQ received $s_rx segments"
expect_eq "ILQ segments dropped (client, listener)" "0 0" \
	"$(iw_table "${devs[0]}" ilq_rx_dropped) $(iw_table "${devs[1]}" ilq_rx_dropped)"
# The offloaded connection (docs/hw-model.md, "iWARP engine") carries
# rping's one iteration: the client exits 0 and both sides show the data.
wait "$cpid"
expect_eq "rping client exit status" 0 "$?"
pat='ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ'
grep -q "$pat" /tmp/rping-c.log && ok "rping client: ping data" ||
	fail "rping client: no ping data"
grep -q "$pat" /tmp/rping-s.log && ok "rping server: ping data" ||
	fail "rping server: no ping data"
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
echo "rping client: $(tail -n 2 /tmp/rping-c.log | tr '\n' ' ')"
echo "rping server: $(tail -n 2 /tmp/rping-s.log | tr '\n' ' ')"
if wait_for tables_empty 60; then
	ok "APBVT and quad hash empty after the rpings ended"
else
	fail "tables after the rpings ended:"
	tables_show
fi

# ---- module cycles -------------------------------------------------------

cycles_ok=1
for cycle in 1 2 3; do
	rmmod irdma || { fail "cycle $cycle: rmmod irdma"; cycles_ok=0; break; }
	irdma_load || { fail "cycle $cycle: loading irdma"; cycles_ok=0; break; }
	wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ] && [ -n \"\$(e810_ibdev_of ${devs[1]})\" ]" 30
	rdma_wait_all_active 30 || { fail "cycle $cycle: ports not ACTIVE"; cycles_ok=0; break; }
	[ "$(ibv_attr "$(e810_ibdev_of "${devs[0]}")" transport)" = "iWARP (1)" ] ||
		{ fail "cycle $cycle: not iWARP"; cycles_ok=0; }
	tables_empty || { fail "cycle $cycle: tables not empty"; tables_show; cycles_ok=0; }
done
[ $cycles_ok = 1 ] && ok "3 rmmod/insmod cycles: ACTIVE, iWARP, tables empty"

bad=$(dmesg_clean) && ok "kernel log clean" ||
	{ fail "kernel log:"; echo "$bad" | head -n 20 | sed 's/^/  /'; }
finish
