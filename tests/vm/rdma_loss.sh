#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# rdma-driver: ours stock
# timeout: 420
# boot: shared
# also-parent: ice
# RC under packet loss: the model's loss injector (QOM property
# x-roce-drop-ppm, set through host_qmp/qom-set) makes both e810-0 and
# e810-1 lose 2 % of the RoCE frames they send to the wire. Between
# irdma0 (root namespace) and irdma1 (namespace "peer"), with the stock
# provider and with ours: ibv_rc_pingpong -c (the server validates every
# received buffer) at 1 B, 4 KiB and 64 KiB, ib_write_bw and ib_read_bw
# at 64 KiB. Every run must exit 0 on both sides with the byte counts /
# a parseable non-zero bandwidth and no error completion; per provider the
# model's counters (qom-get x-xport-stats) must show injected drops and
# retransmissions on both devices and no retry/RNR exhaustion; no QP
# asynchronous error in the kernel log. The knob goes back to 0 at the
# end (and is checked to refuse values above 1000000).
. "$E810_LIB"

PPM=${E810_LOSS_PPM:-20000}
PORT=18515
PP_RUNS="1:200 4096:200 65536:40"       # size:iterations
BW_SIZE=65536
WRITE_N=200
READ_N=100

command -v ib_write_bw >/dev/null || { fail "perftest is not installed"; finish; }
rdma_two_ports || finish

dmesg_mark
# irdma reports a QP's asynchronous errors (retry exceeded, flush, ...)
# at debug level: switch those lines on to see a QP go to ERROR.
ddc=/sys/kernel/debug/dynamic_debug/control
if echo 'module irdma format "AE 0x" +p' >"$ddc" 2>/dev/null; then
	AE_LOGGED=1
else
	AE_LOGGED=0
	echo "note: no dynamic debug; QP errors seen only through the model's counters"
fi

# qom_set ID PROPERTY VALUE (JSON value)
qom_set() {
	host_qmp "{\"execute\":\"qom-set\",\"arguments\":{\"path\":\"/machine/peripheral/$1\",\"property\":\"$2\",\"value\":$3}}"
}
qom_get() {
	host_qmp "{\"execute\":\"qom-get\",\"arguments\":{\"path\":\"/machine/peripheral/$1\",\"property\":\"$2\"}}" |
		sed -n 's/.*"return": *\([^}]*\)}.*/\1/p' | tr -d ' "'
}

for id in e810-0 e810-1; do
	reply=$(qom_set "$id" x-roce-drop-ppm 1000001) &&
		fail "$id accepted x-roce-drop-ppm 1000001: $reply" ||
		ok "$id refuses x-roce-drop-ppm 1000001: $(grep -o '"desc": *"[^"]*"' <<<"$reply")"
	reply=$(qom_set "$id" x-roce-drop-ppm "$PPM") || fail "qom-set $id x-roce-drop-ppm: $reply"
	expect_eq "$id x-roce-drop-ppm" "$PPM" "$(qom_get "$id" x-roce-drop-ppm)"
done

# Counters of both devices into S0/S1 (the whole stats line each).
snap() {
	S0=$(e810_xport_stats e810-0) && [ -n "$S0" ] || fail "qom-get e810-0 x-xport-stats: '$S0'"
	S1=$(e810_xport_stats e810-1) && [ -n "$S1" ] || fail "qom-get e810-1 x-xport-stats: '$S1'"
}

# run_pp SIZE ITERS: ibv_rc_pingpong -c, server on $ib1 in "peer".
run_pp() {
	local size=$1 n=$2 want srv cli sp crc src t0
	want=$((size * n * 2))
	srv=$(mktemp) cli=$(mktemp)
	t0=$SECONDS
	ip netns exec peer timeout 70 ibv_rc_pingpong -d "$ib1" -g "$g1" -s "$size" \
		-n "$n" -c -m 1024 -p "$PORT" >"$srv" 2>&1 &
	sp=$!
	wait_for "ip netns exec peer ss -ltn | grep -q ':$PORT '" 20 ||
		echo "note: pingpong server not listening after 20 s"
	timeout 60 ibv_rc_pingpong -d "$ib0" -g "$g0" -s "$size" -n "$n" -c -m 1024 \
		-p "$PORT" 192.168.81.2 >"$cli" 2>&1
	crc=$?
	wait "$sp"
	src=$?
	if [ $crc -eq 0 ] && [ $src -eq 0 ] &&
	   grep -q "^$want bytes in" "$cli" && grep -q "^$want bytes in" "$srv" &&
	   ! bad_lines "$cli" >/dev/null && ! bad_lines "$srv" >/dev/null; then
		ok "$PROV: ibv_rc_pingpong -c -s $size -n $n: $want bytes each way, data valid ($((SECONDS - t0)) s)"
	else
		fail "$PROV: ibv_rc_pingpong -c -s $size -n $n (client rc $crc, server rc $src)"
		sed 's/^/  client: /' "$cli" | tail -5
		sed 's/^/  server: /' "$srv" | tail -5
	fi
	rm -f "$srv" "$cli"
}

# perf_once TOOL ITERS: one perftest_run, server on $ib1 ("peer"),
# client on $ib0. Sets ROW and WHY (empty: good) and ERRS (error lines
# seen: no second chance then).
perf_once() {
	local t=$1 n=$2
	perftest_run "$t" "$BW_SIZE" "$n" "$ib1" "$g1" "$ib0" "$g0" 192.168.81.2 peer
	ROW=$PT_CROW
	ERRS=$(bad_lines "$PT_CLI" "$PT_SRV")
	WHY=""
	if [ "$PT_CRC" -ne 0 ] || [ "$PT_SRC" -ne 0 ]; then
		WHY="client rc $PT_CRC, server rc $PT_SRC"
	elif [ -n "$ERRS" ]; then
		WHY="error completions"
	else
		WHY=$(perftest_bw_why "$BW_SIZE" "$n" "$ROW" client &&
			perftest_bw_why "$BW_SIZE" "$n" "$PT_SROW" server)
	fi
	[ -n "$WHY" ] && perftest_dump tail -12
	perftest_clean
	[ -z "$WHY" ]
}

# run_bw TOOL ITERS: like perftest.sh, one more try after a perftest
# failure that is not an error completion (TCG: its CPU frequency
# estimate or closing handshake fails about once in 40 runs).
run_bw() {
	local t=$1 n=$2 t0=$SECONDS
	if ! perf_once "$t" "$n"; then
		if [ -n "$ERRS" ]; then
			fail "$PROV: $t -s $BW_SIZE -n $n: $WHY"
			return
		fi
		echo "note: $PROV: $t: $WHY; once more"
		perf_once "$t" "$n" || { fail "$PROV: $t -s $BW_SIZE -n $n: $WHY (twice)"; return; }
	fi
	ok "$PROV: $t -s $BW_SIZE -n $n: $(cut -d' ' -f4 <<<"$ROW") MB/s under loss ($((SECONDS - t0)) s)"
}

# delta NAME: growth of counter NAME on e810-0 and e810-1 since the
# snapshot A0/A1, as "D0 D1".
delta() {
	local a0 a1 b0 b1
	a0=$(xport_stat "$A0" "$1") a1=$(xport_stat "$A1" "$1")
	b0=$(xport_stat "$S0" "$1") b1=$(xport_stat "$S1" "$1")
	echo $((${b0:-0} - ${a0:-0})) $((${b1:-0} - ${a1:-0}))
}

start_all=$SECONDS
for PROV in stock ours; do
	E810_PROVIDER=$PROV provider_env
	t_prov=$SECONDS
	snap
	A0=$S0 A1=$S1
	for r in $PP_RUNS; do
		run_pp "${r%:*}" "${r#*:}"
	done
	run_bw ib_write_bw "$WRITE_N"
	run_bw ib_read_bw "$READ_N"
	snap
	read -r d0 d1 <<<"$(delta tx_dropped_injected)"
	read -r r0 r1 <<<"$(delta retransmits)"
	read -r p0 p1 <<<"$(delta tx_packets)"
	read -r x0 x1 <<<"$(delta retry_exceeded)"
	read -r n0 n1 <<<"$(delta rnr_exceeded)"
	echo "$PROV: e810-0 sent $p0, dropped $d0, retransmitted $r0; e810-1 sent $p1, dropped $d1, retransmitted $r1 ($((SECONDS - t_prov)) s)"
	[ "$d0" -gt 0 ] && [ "$d1" -gt 0 ] &&
		ok "$PROV: frames dropped on both devices ($d0 / $d1)" ||
		fail "$PROV: injected drops e810-0 $d0, e810-1 $d1"
	[ "$r0" -gt 0 ] && [ "$r1" -gt 0 ] &&
		ok "$PROV: both requesters retransmitted ($r0 / $r1)" ||
		fail "$PROV: retransmissions e810-0 $r0, e810-1 $r1"
	# ~2 % of what was sent (0.5 .. 6 %: a loose bound on the generator)
	[ $((d0 * 200)) -gt "$p0" ] && [ $((d0 * 100)) -lt $((p0 * 6)) ] &&
		ok "$PROV: e810-0 lost $((d0 * 10000 / (p0 ? p0 : 1))) per 10^4 frames" ||
		fail "$PROV: e810-0 lost $d0 of $p0 frames, far from $PPM ppm"
	expect_eq "$PROV: retry/RNR exhaustion on e810-0 and e810-1" "0 0 0 0" "$x0 $x1 $n0 $n1"
done
unset RDMAV_DRIVERS
echo "time: $((SECONDS - start_all)) s for both providers"

for id in e810-0 e810-1; do
	qom_set "$id" x-roce-drop-ppm 0 >/dev/null || fail "qom-set $id x-roce-drop-ppm 0"
	expect_eq "$id x-roce-drop-ppm back to" 0 "$(qom_get "$id" x-roce-drop-ppm)"
done
echo "e810-0: $(e810_xport_stats e810-0)"
echo "e810-1: $(e810_xport_stats e810-1)"

# An asynchronous QP/CQ error would mean a QP went to ERROR.
aes=$(new_dmesg | grep -E ': AE 0x|FLUSH_WQES|MODIFY_QP .* failed')
[ -z "$aes" ] && ok "no QP or CQ asynchronous error in the kernel log (AE lines on: $AE_LOGGED)" ||
	fail "kernel log: $(head -3 <<<"$aes")"
[ "$AE_LOGGED" = 1 ] && echo 'module irdma format "AE 0x" -p' >"$ddc"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
