#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: pair
# parent: ice_lite
# rdma-driver: none
# rdma-protocol: iwarp
# timeout: 1500
# check: on-demand
# Our irdma's iWARP (docs/irdma.md "Connections", "Offload") against
# soft-iWARP (siw) on the other end of the wire, as iwarp_siw does for
# the stock irdma (guest library: iwsiw_*). Node 0 (192.168.90.1): our
# irdma (loaded here: rdma-driver none) on ice_lite in iWARP mode and our
# provider. Node 1 (192.168.90.2): siw (tools/build-siw.sh) on its e810
# netdev, no irdma.
#  - E810 client -> siw server, then siw client -> E810 server: rping -V -v
#    at 64 B, 1000 B, 4096 B, 9000 B and 65535 B (every iteration the
#    server READs the client's buffer and WRITEs it back, the client
#    compares, both sides count the iterations), ib_write_bw, ib_read_bw
#    and ib_send_bw -R 64 KiB x IWSO_BW_N (row, non-zero average). Per run
#    the model's engine counters on node 0 (x-iwarp-stats: stream bytes
#    each way, no CRC error, no Terminate, no bad checksum, no
#    out-of-order segment) and node 1's netdev bytes and kernel TCP
#    counters (nstat: no checksum error, nothing retransmitted).
#    siw's initiator asks MPA v2 without the peer-to-peer bit (siw_main.c
#    peer_to_peer false): our passive side accepts it without an RTR
#    (docs/irdma.md "MPA"), where the stock irdma resets (iwarp_siw).
#  - node 0 at the end: our debugfs iwarp: an offload per connection, as
#    many established, no offload, connect or MPA error, no Terminate or
#    Terminate timeout, no connection node left; the model holds no
#    connection (conns 0), APBVT and quad hash empty.
#  - no kernel line from siw but attach/detach, clean dmesg on both.
# IWSO_RUNS (size:iterations list) and IWSO_BW_N shorten it.
. "$E810_LIB"

iwsiw_setup ours
RUNS=${IWSO_RUNS:-"64:100 1000:100 4096:100 9000:50 65535:50"}
BW_N=${IWSO_BW_N:-1000}
if [ $E810 = 1 ]; then
	aux=$(e810_aux_of "$dev")
	expect_eq "$aux: cm_nodes at start" 0 "$(iwdbg "$aux" cm_nodes)"
	iw_tables_empty "$dev" && ok "$dev: APBVT and quad hash empty at start" ||
		fail "$dev: tables at start: $(iw_table "$dev" apbvt_ports)"
fi

IWSIW_CONNS=0
t0=$SECONDS
iwsiw_rpings siw 19300 "$RUNS"
iwsiw_perftests siw 19400 65536 "$BW_N"
echo "time: $((SECONDS - t0)) s of E810->siw traffic ($ROLE)"
t0=$SECONDS
iwsiw_rpings e810 19600 "$RUNS"
iwsiw_perftests e810 19700 65536 "$BW_N"
echo "time: $((SECONDS - t0)) s of siw->E810 traffic ($ROLE)"

if [ $E810 = 1 ]; then
	grep -E '^(cm_|terms_)' "/sys/kernel/debug/irdma/$aux/iwarp" | tr '\n' ' '
	echo
	wait_for "[ \"\$(iwdbg $aux cm_nodes)\" = 0 ]" 30 &&
		ok "$aux: no connection node left" ||
		fail "$aux: nodes left: $(grep '^conn ' "/sys/kernel/debug/irdma/$aux/iwarp" | tr '\n' ' ')"
	off=$(iwdbg "$aux" cm_offloads)
	[ "${off:-0}" -ge "$IWSIW_CONNS" ] &&
		ok "$aux: $off offloads for $IWSIW_CONNS connections" ||
		fail "$aux: $off offloads, want >= $IWSIW_CONNS"
	expect_eq "$aux: established = offloads" "$off" "$(iwdbg "$aux" cm_established)"
	for k in cm_offload_errors cm_connect_errors cm_mpa_bad terms_sent \
		terms_rcvd terms_timeouts; do
		expect_eq "$aux: $k" 0 "$(iwdbg "$aux" "$k")"
	done
	wait_for "[ \"\$(iw_stat $dev conns)\" = 0 ]" 30 &&
		ok "$dev: no offloaded connection left in the model" ||
		fail "$dev: model conns $(iw_stat "$dev" conns)"
	wait_for "iw_tables_empty $dev" 30 && ok "$dev: APBVT and quad hash empty" ||
		fail "$dev: left: $(iw_table "$dev" apbvt_ports) / $(iw_table "$dev" qhash_entries)"
fi
iwsiw_teardown
finish
