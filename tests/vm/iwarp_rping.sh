#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# rdma-protocol: iwarp
# timeout: 900
# Our irdma's iWARP offload end to end (docs/irdma.md "iWARP mode",
# "Connections", "Offload"): both functions in iWARP mode under our
# irdma, the two ports two hosts in init_net (iwarp_two_hosts), an rping
# server on port 1 and a client on port 0:
#  - the handshake and MPA Request through the ILQs, then the hand-off on
#    both sides: the passive QP sends the MPA Reply as its LSMM, the
#    active QP its RTR, each raises AE 0x050E (debugfs iwarp on each
#    function: cm_offloads, cm_established, no offload error), the
#    model's engine owns both (x-iwarp-stats offloads);
#  - rping -V (the payload checked by rping itself) of N iterations at
#    64 B and 4 KiB: both ends exit 0, each counted N iterations of ping
#    data, the engines framed and took FPDUs (x-iwarp-stats fpdus_tx,
#    fpdus_rx >= 3 N per side: the client's two SENDs and READ response,
#    the server's READ request, WRITE and two SENDs) with no CRC error
#    and no stream error;
#  - cm_data (sizes 1 B to 64 KiB + 1): the server's buffer and rkey reach
#    the client as the private data of the MPA Reply, in its ESTABLISHED
#    event; SENDs, WRITEs and READs, every payload checked by both sides;
#  - teardown: each client's rdma_disconnect closes both ends
#    (cm_closes on both functions = connections), no connection node, no
#    offloaded connection in the model (conns=0), APBVT and quad hash
#    empty;
#  - no oops, warning or leak in the kernel log.
. "$E810_LIB"

iwarp_ours_pair

# rping_run SIZE COUNT PORT: a verified rping (-V) of COUNT iterations of
# SIZE bytes; RC_C/RC_S exit codes, N_C/N_S the iterations each side saw.
rping_run() {
	(timeout 200 rping -s -a 192.168.81.2 -p "$3" -v -V -S "$1" -C "$2" \
		2>/tmp/rping-s.err | cut -c1-48 >/tmp/rping-s.log
	 echo "${PIPESTATUS[0]}" >/tmp/rping-s.rc) &
	local spid=$!
	wait_for "[ \"\$(iw_table $d1 qhash)\" -ge 1 ]" 20 ||
		fail "$d1: listener not in the quad hash"
	timeout 180 rping -c -a 192.168.81.2 -p "$3" -v -V -S "$1" -C "$2" \
		2>/tmp/rping-c.err | cut -c1-48 >/tmp/rping-c.log
	RC_C=${PIPESTATUS[0]}
	wait "$spid"
	RC_S=$(cat /tmp/rping-s.rc)
	N_C=$(grep -o 'ping data: rdma-ping-[0-9]*:' /tmp/rping-c.log | sort -u | wc -l)
	N_S=$(grep -o 'ping data: rdma-ping-[0-9]*:' /tmp/rping-s.log | sort -u | wc -l)
}

# ge AUX NAME MIN: counter NAME of AUX is at least MIN.
ge() {
	local v
	v=$(iwdbg "$1" "$2")
	[ "${v:-0}" -ge "$3" ] && ok "$1: $2 $v >= $3" ||
		fail "$1: $2 is '$v', want >= $3"
}

PORT=7411
CONNS=0
for run in "64 20" "4096 20"; do
	set -- $run
	fx0=$(iw_stat "$d0" fpdus_tx); fr0=$(iw_stat "$d0" fpdus_rx)
	fx1=$(iw_stat "$d1" fpdus_tx); fr1=$(iw_stat "$d1" fpdus_rx)
	t0=$(date +%s)
	rping_run "$1" "$2" $PORT
	CONNS=$((CONNS + 1))
	echo "rping -S $1 -C $2: $(( $(date +%s) - t0 )) s, client $RC_C/$N_C, server $RC_S/$N_S"
	[ "$RC_C" = 0 ] && [ "$RC_S" = 0 ] && [ "$N_C" = "$2" ] && [ "$N_S" = "$2" ] &&
		ok "rping -V -S $1 -C $2: both exit 0, $2 verified iterations each side" || {
		fail "rping -V -S $1 -C $2: exit $RC_C/$RC_S, iterations $N_C/$N_S"
		tail -n 3 /tmp/rping-[cs].log /tmp/rping-[cs].err | sed 's/^/  /'
	}
	# Per iteration each side sends and takes at least 3 FPDUs (the
	# client two SENDs and the READ response, the server the READ
	# request, the WRITE and two SENDs).
	for d in "$d0" "$d1"; do
		case $d in
		"$d0") ftx=$fx0 frx=$fr0 ;;
		*) ftx=$fx1 frx=$fr1 ;;
		esac
		tx=$(( $(iw_stat "$d" fpdus_tx) - ftx ))
		rx=$(( $(iw_stat "$d" fpdus_rx) - frx ))
		[ "$tx" -ge $(( 3 * $2 )) ] && [ "$rx" -ge $(( 3 * $2 )) ] &&
			ok "$d: $tx FPDUs sent, $rx taken for -S $1" ||
			fail "$d: $tx FPDUs sent, $rx taken for -S $1 (want >= $(( 3 * $2 )))"
	done
	PORT=$((PORT + 1))
done

# cm_data: rdma_cm private data both ways (the server's buffer address
# and rkey travel in the MPA Reply to the client's ESTABLISHED event),
# then SENDs, WRITEs and READs with every payload checked.
[ -x /mnt/host/progs/cm_data ] || fail "progs/cm_data not built"
cm_data_run 192.168.81.2 192.168.81.1 $PORT 180 -r 1 -S 1,64,4096,65537
CONNS=$((CONNS + 1))
cm_data_check "cm_data between our irdma" 0 1 1,64,4096,65537

for a in "$a0" "$a1"; do
	echo "$a: $(grep '^cm_' "/sys/kernel/debug/irdma/$a/iwarp" | tr '\n' ' ')"
done
for d in "$d0" "$d1"; do
	echo "$d: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-stats)"
done

# Both sides handed each connection over and saw it established.
for a in "$a0" "$a1"; do
	expect_eq "$a: connections offloaded" "$CONNS" "$(iwdbg "$a" cm_offloads)"
	expect_eq "$a: connections established (AE 0x050E)" "$CONNS" "$(iwdbg "$a" cm_established)"
	expect_eq "$a: offloads failed" 0 "$(iwdbg "$a" cm_offload_errors)"
	expect_eq "$a: MPA frames refused" 0 "$(iwdbg "$a" cm_mpa_bad)"
	expect_eq "$a: malformed ILQ segments" 0 "$(iwdbg "$a" rx_malformed)"
done
expect_eq "$a0: CONNECT_REPLY errors" 0 "$(iwdbg "$a0" cm_connect_errors)"
for d in "$d0" "$d1"; do
	expect_eq "$d: model offloads" "$CONNS" "$(iw_stat "$d" offloads)"
	expect_eq "$d: CRC errors" 0 "$(iw_stat "$d" crc_errors)"
	expect_eq "$d: stream errors" 0 "$(iw_stat "$d" stream_errors)"
done

# ---- teardown ------------------------------------------------------------
for a in "$a0" "$a1"; do
	wait_for "[ \"\$(iwdbg $a cm_closes)\" = $CONNS ]" 30 &&
		ok "$a: CLOSE posted for each connection" ||
		fail "$a: cm_closes '$(iwdbg "$a" cm_closes)', want $CONNS"
done
iwarp_ours_teardown

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
