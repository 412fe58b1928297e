#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# rdma-protocol: iwarp
# timeout: 600
# Our irdma's iWARP connection manager through the MPA exchange to the
# hand-off (docs/irdma.md "iWARP mode", "Connections"): both functions in iWARP
# mode under our irdma, the two ports two hosts in init_net
# (iwarp_two_hosts). An rping server on port 1, a client on port 0:
#  - the client's connect goes through the ILQs as upstream irdma's does:
#    SYN, SYN-ACK, ACK, MPA Request (debugfs iwarp on each function:
#    cm_syn_sent, cm_synack_sent, cm_established_tcp on both ends,
#    cm_mpa_req_sent, cm_mpa_req_rcvd, no malformed segment, no MPA
#    frame refused, no ILQ send refused);
#  - the listener's side posts CONNECT_REQUEST (cm_connect_requests),
#    the server's accept hands the connection to its QP with the MPA
#    Reply, the client's side takes the Reply and hands its own over
#    (cm_offloads on both, no offload error), both QPs raise AE 0x050E
#    (cm_established): the connect's CONNECT_REPLY is 0 (no connect
#    error), one rping iteration passes (both exit 0);
#  - afterwards no connection node is left on either function and the
#    model's APBVT and quad hash are empty (the connection entries and
#    the client's port removed);
#  - no oops, warning or leak in the kernel log.
. "$E810_LIB"

iwarp_ours_pair

# ---- rping: handshake and MPA exchange ----------------------------------

PORT=7311
timeout 90 rping -s -a 192.168.81.2 -p $PORT -v -C 1 >/tmp/rping-s.log 2>&1 &
spid=$!
wait_for "[ \"\$(iw_table $d1 qhash)\" -ge 1 ]" 20 ||
	fail "$d1: listener not in the quad hash: $(cat /tmp/rping-s.log)"
timeout 60 rping -c -a 192.168.81.2 -p $PORT -v -C 1 >/tmp/rping-c.log 2>&1 &
cpid=$!
wait "$cpid"
crc=$?
wait "$spid"
src=$?
[ $crc -eq 0 ] && [ $src -eq 0 ] &&
	ok "rping client and server exit 0" ||
	fail "rping client/server: status $crc/$src: $(cat /tmp/rping-c.log)"
echo "rping client: $(tr '\n' ' ' </tmp/rping-c.log | cut -c1-300)"
echo "rping server: $(tr '\n' ' ' </tmp/rping-s.log | cut -c1-300)"
for a in "$a0" "$a1"; do
	echo "$a: $(grep '^cm_' "/sys/kernel/debug/irdma/$a/iwarp" | tr '\n' ' ')"
done

# ge AUX NAME MIN: counter NAME of AUX is at least MIN.
ge() {
	local v
	v=$(iwdbg "$1" "$2")
	[ "${v:-0}" -ge "$3" ] && ok "$1: $2 $v >= $3" ||
		fail "$1: $2 is '$v', want >= $3"
}
# client side (port 0)
ge "$a0" cm_syn_sent 1
ge "$a0" cm_established_tcp 1
ge "$a0" cm_mpa_req_sent 1
ge "$a0" cm_connect_replies 1
expect_eq "$a0: CONNECT_REPLY errors" 0 "$(iwdbg "$a0" cm_connect_errors)"
# listener side (port 1)
ge "$a1" cm_nodes_created 1
ge "$a1" cm_synack_sent 1
ge "$a1" cm_established_tcp 1
ge "$a1" cm_mpa_req_rcvd 1
ge "$a1" cm_connect_requests 1
for a in "$a0" "$a1"; do
	ge "$a" cm_offloads 1
	ge "$a" cm_established 1
	expect_eq "$a: offloads failed" 0 "$(iwdbg "$a" cm_offload_errors)"
	expect_eq "$a: malformed ILQ segments" 0 "$(iwdbg "$a" rx_malformed)"
	expect_eq "$a: MPA frames refused" 0 "$(iwdbg "$a" cm_mpa_bad)"
	expect_eq "$a: ILQ sends refused" 0 "$(iwdbg "$a" cm_tx_errors)"
	wait_for "[ \"\$(iwdbg $a cm_nodes)\" = 0 ]" 30 &&
		ok "$a: no connection node left" ||
		fail "$a: nodes left: $(grep '^conn ' "/sys/kernel/debug/irdma/$a/iwarp" | tr '\n' ' ')"
done
for d in "$d0" "$d1"; do
	wait_for "iw_tables_empty $d" 30 && ok "$d: APBVT and quad hash empty" ||
		fail "$d: left: $(iw_table "$d" apbvt_ports) / $(iw_table "$d" qhash_entries)"
done

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
