#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# rdma-driver: ours stock
# timeout: 900
# boot: shared
# jobs: alone
# also-parent: ice
# perftest between irdma0 (client, root namespace) and irdma1 (server,
# namespace "peer", so both the TCP exchange and the RoCEv2 traffic cross
# the emulated hub): ib_write_bw, ib_read_bw, ib_send_bw, ib_send_lat and
# ib_write_lat at 8 B, 4 KiB, 64 KiB and 1 MiB, once with the stock irdma
# provider and once with ours. Each run must exit 0 on both sides and
# print a result row that parses: the size and iteration count asked for,
# a non-zero average bandwidth whose message rate agrees with it (bytes
# moved = size * iterations over the measured time), or latencies with
# 0 < t_min <= t_typical, t_avg <= t_max. A compact table follows.
# It runs alone ("jobs: alone"): beside another guest on a 2-CPU host the
# 8 B latency of our provider once had t_min 350 us and t_typical 4 ms
# (a guest scheduler tick at HZ=250) while 64 KiB had 44 us, which fails
# the latency shape below; alone it has not (docs/testing.md).
#
# ib_send_lat 8 B also runs event-driven (-e: both sides sleep in
# ibv_get_cq_event() for every completion) right after the polled 8 B
# run; the ratio of its typical latency to the polled one is printed, not
# asserted. The aim is 2x (a completion event costs one interrupt and one
# wake-up of the waiter); with the CEQs drained in tasklets it was 5-6x
# under TCG (make check, 2026-11-28: stock 107 us against 18.6 us polled,
# ours 85 against 17.5), and 60x in a run beside other host load: a
# guest's wake-up from idle waits for a host core, so no bound holds on a
# shared host (docs/performance.md "Event-driven completions").
#
# perftest never looks at the payload: data integrity is what the
# pingpong -c runs of provider_pingpong check. This scenario is about the
# verbs perftest uses (RDMA read with 127 outstanding reads, deep send
# queues, 1 MiB messages, inline sends) working at volume.
#
# Iteration counts are sized for TCG (each provider's pass ~2 min, see
# docs/testing.md). The latency tests run with -I 96 (perftest_argv in
# guest-lib.sh: GEN_2's inline limit). The runs are perftest_run's, the
# same as tools/bench-perf.sh's.
. "$E810_LIB"

TESTS="ib_write_bw ib_read_bw ib_send_bw ib_send_lat ib_write_lat"
SIZES="8 4096 65536 1048576"
# perftest_run's limit for the client in s (the server gets 10 more)
# shellcheck disable=SC2034
PERFTEST_TIMEOUT=80

# iters TEST SIZE: iteration count for TCG (the model moves ~300 MB/s of
# RDMA writes, a latency round trip costs ~1 ms).
iters() {
	case "$1:$2" in
	*_bw:8 | *_bw:4096) echo 1000 ;;
	*_bw:65536) echo 200 ;;
	*_bw:*) echo 20 ;;
	*_lat:8 | *_lat:4096) echo 200 ;;
	*_lat:65536) echo 50 ;;
	*) echo 10 ;;
	esac
}

command -v ib_write_bw >/dev/null || { fail "perftest is not installed"; finish; }
rdma_two_ports || finish

# check_row KIND SIZE ITERS CLIENT_ROW SERVER_ROW: prints why the rows
# are wrong and fails, or succeeds. Every field used must be a plain
# decimal number (perftest prints "inf" when its cycle arithmetic goes
# wrong). bw rows: #bytes #iterations BW_peak BW_avg[MB/s of 2^20 B]
# MsgRate[Mpps], where the rate must equal avg * 2^20 / size, i.e. the
# bytes moved are size * iterations over the measured time (the BW has 2
# decimals and the rate 6: their rounding + 1 % is allowed). lat rows:
# #bytes #iterations t_min t_max t_typical t_avg ... [usec], with
# 0 < t_min <= t_typical, t_avg <= t_max.
check_row() {
	awk -v k="$1" -v s="$2" -v n="$3" -v c="$4" -v sv="$5" '
	function num(x) { return x ~ /^[0-9]+(\.[0-9]+)?$/ }
	BEGIN {
		split(c, a, " "); split(sv, b, " ")
		if (a[1] != s || a[2] != n) { print "client row \"" c "\""; exit 1 }
		if (b[1] != s || b[2] != n) { print "server row \"" sv "\""; exit 1 }
		if (k == "bw") {
			if (!num(a[4]) || !num(a[5]) || !num(b[4]) || !(a[4] > 0) ||
			    !(a[5] > 0) || !(b[4] > 0)) {
				print "zero or unparseable bandwidth: " c " / " sv; exit 1 }
			bw = a[5] * 1e6 * s / 1048576
			d = bw - a[4]; if (d < 0) d = -d
			if (d > a[4] / 100 + 0.005 + 0.5 * s / 1048576 + 1e-9) {
				print "BW " a[4] " MB/s but rate " a[5] " Mpps (= " bw " MB/s)"; exit 1 }
		} else {
			for (i = 3; i <= 6; i++)
				if (!num(a[i])) { print "unparseable latency: " c; exit 1 }
			if (!(a[3] > 0) || a[3] > a[5] || a[5] > a[4] || a[3] > a[6] || a[6] > a[4]) {
				print "latencies out of order: " c; exit 1 }
		}
	}'
}

# perf_once PROVIDER TEST SIZE ITERS [EXTRA]: one run (perftest_run),
# server on $ib1 in "peer", client on $ib0, EXTRA (e.g. -e) added on both
# sides. Sets CROW (the client's result row), MS (wall time) and, when it
# fails, WHY.
perf_once() {
	local t=$2 size=$3 n=$4
	PERFTEST_EXTRA=$5 perftest_run "$t" "$size" "$n" "$ib1" "$g1" "$ib0" \
		"$g0" 192.168.81.2 peer
	MS=$PT_MS
	CROW=$PT_CROW
	WHY=""
	# perftest's clock calibration (a fit of rdtsc against the wall
	# clock) fails when a vCPU is descheduled between samples; the run
	# then reports 0 or inf even though every completion was good.
	CALIB=0
	[ "$PT_CRC" -eq 0 ] && [ "$PT_SRC" -eq 0 ] &&
		grep -q 'Correlation coefficient r^2' "$PT_CLI" "$PT_SRV" && CALIB=1
	if [ "$PT_CRC" -ne 0 ] || [ "$PT_SRC" -ne 0 ] || [ -z "$CROW" ]; then
		WHY="client rc $PT_CRC, server rc $PT_SRC"
	else
		WHY=$(check_row "${t##*_}" "$size" "$n" "$CROW" "$PT_SROW")
	fi
	[ -n "$WHY" ] && perftest_dump head -40
	perftest_clean
	[ -z "$WHY" ]
}

TABLE=""
RETRIES=0
CALIB_RETRIES=0

# run_perf PROVIDER TEST SIZE [EXTRA]: a failed run is repeated and
# counted. With EXTRA (perftest options for both sides) the table names
# the test TEST EXTRA without blanks (ib_send_lat-e).
# Seen under TCG, with the transfer itself complete: perftest's CPU
# frequency estimate came out 0 (it prints "Correlation coefficient r^2
# ... < 0.9"; every latency "inf", every bandwidth 0.00), and its closing
# TCP handshake failed ("Couldn't read remote address"), each about once
# in 40 runs on a quiet host, in runs of several on a loaded one. A run
# whose only fault is the calibration is repeated up to 4 times in all;
# any other failure once. The case fails when its tries are used up.
run_perf() {
	local prov=$1 t=$2 size=$3 extra=${4:-} n try=0 label res unit other=0
	local name=$2${4// /} to0 to1 tos=-
	n=$(iters "$t" "$size")
	label="$prov $t${extra:+ $extra} -s $size -n $n"
	while :; do
		try=$((try + 1))
		to0=$(xport_sum timeouts)
		perf_once "$prov" "$t" "$size" "$n" "$extra" && break
		if [ $CALIB = 1 ] && [ $try -lt 4 ]; then
			echo "note: $label: perftest clock calibration failed ($WHY); again"
			CALIB_RETRIES=$((CALIB_RETRIES + 1))
		elif [ $CALIB = 0 ] && [ $other = 0 ] && [ $try -lt 4 ]; then
			other=1
			echo "note: $label: $WHY; once more"
			RETRIES=$((RETRIES + 1))
		else
			fail "$label: $WHY ($try tries)"
			TABLE+="$prov $name $size $n FAIL - ${MS}ms"$'\n'
			return 1
		fi
	done
	to1=$(xport_sum timeouts)
	[ -n "$to0" ] && [ -n "$to1" ] && tos=$((to1 - to0))
	local tmin=-
	if [ "${t%_lat}" != "$t" ]; then
		res=$(cut -d' ' -f5 <<<"$CROW") unit=us_typ
		tmin=$(cut -d' ' -f3 <<<"$CROW")
	else
		res=$(cut -d' ' -f4 <<<"$CROW") unit=MB/s
	fi
	ok "$label: $res $unit"
	TABLE+="$prov $name $size $n $res $unit ${MS}ms $tmin $tos"$'\n'
}

# xport_sum NAME: counter NAME of the model's RoCE transport (QMP
# x-xport-stats) summed over both functions; empty if QEMU does not
# answer.
xport_sum() {
	local i v s=0
	for i in 0 1; do
		v=$(xport_stat "$(e810_xport_stats "e810-$i")" "$1")
		[ -n "$v" ] || return 0
		s=$((s + v))
	done
	echo "$s"
}

# table_row PROV TEST SIZE: the last TABLE row of that run (a repeated
# run adds a row).
table_row() {
	awk -v p="$1" -v t="$2" -v s="$3" '$1 == p && $2 == t && $3 == s { r = $0 }
		END { print r }' <<<"$TABLE"
}

for prov in stock ours; do
	E810_PROVIDER=$prov provider_env
	start=$SECONDS
	for t in $TESTS; do
		for s in $SIZES; do
			run_perf "$prov" "$t" "$s"
			[ "$t:$s" = ib_send_lat:8 ] && run_perf "$prov" "$t" "$s" -e
		done
	done
	echo "time: $prov provider, $((SECONDS - start)) s for all cases"
done
unset RDMAV_DRIVERS

# The shape every run must have: an 8-byte round trip is quicker than a
# 64 KiB one (64 packets each way) measured in the same boot. Under TCG
# 4 KiB costs only ~10 % more than 8 B (the fixed cost dominates), too
# close to hold in every run; 64 KiB is 2.5x. A 100x slower small message
# (a retransmission timeout per message, as before e810_xport_receive()
# deferred re-entrant frames) breaks it, every round trip the fastest
# included then taking the timeout (t_min 0.2-2.6 ms); that is asserted
# directly as well: the model's transport counted fewer retransmission
# timeouts in the 8 B run than half its round trips (none in a clean
# run). Compared on t_min, the figure a loaded host moves least. It
# still moves: each side of a round trip waits for its vCPU to see the
# completion and ring the next doorbell, and a guest whose two vCPUs
# busy-poll leaves QEMU's main loop (the device model) a third runnable
# thread on a 2-CPU host; in stretches of seconds every such wait then
# takes 0.3-3 ms whichever provider and irdma run (the model's own steps,
# doorbell to fetch and fetch to the peer's CQE, stay under 30 us;
# docs/testing.md "7.x runs"). So a failed comparison without timeouts
# runs the 8 B case again, up to four times, each after a 3 s pause to
# leave such a stretch, and is counted. A slow small-message path fails
# every try: all of them.
SHAPE_RETRIES=0
for prov in stock ours; do
	for t in ib_send_lat ib_write_lat; do
		try=1
		while :; do
			read -r _ _ _ n8 typ8 _ _ min8 to8 <<<"$(table_row $prov $t 8)"
			read -r _ _ _ _ typ64k _ _ min64k _ <<<"$(table_row $prov $t 65536)"
			[ -n "$min8" ] && [ -n "$min64k" ] && [ "$min8" != - ] && [ "$min64k" != - ] || break
			if [ -n "$to8" ] && [ "$to8" != - ] && [ $((to8 * 2)) -ge "$n8" ]; then
				fail "$prov $t: 8 B run had $to8 retransmission timeouts in $n8 round trips (t_min $min8 us)"
				break
			fi
			if awk -v a="$min8" -v b="$min64k" 'BEGIN { exit !(a < b) }'; then
				ok "$prov $t: 8 B t_min ($min8 us) below 64 KiB t_min ($min64k us); t_typical $typ8 / $typ64k us; ${to8:--} timeouts"
				break
			fi
			if [ $try -ge 5 ]; then
				fail "$prov $t: 8 B t_min $min8 us, 64 KiB t_min $min64k us (t_typical $typ8 / $typ64k, $try tries): small messages are slow"
				break
			fi
			echo "note: $prov $t: 8 B t_min $min8 us, 64 KiB t_min $min64k us, ${to8:--} timeouts; 8 B again"
			SHAPE_RETRIES=$((SHAPE_RETRIES + 1))
			try=$((try + 1))
			sleep 3
			E810_PROVIDER=$prov provider_env
			run_perf "$prov" "$t" 8 || break
		done
	done
done
unset RDMAV_DRIVERS

# Event-driven against polled, same provider, same boot: the ratio of
# ib_send_lat 8 B t_typical with -e to polled, reported (see the top).
for prov in stock ours; do
	read -r _ _ _ _ poll _ <<<"$(table_row $prov ib_send_lat 8)"
	read -r _ _ _ _ ev _ <<<"$(table_row $prov ib_send_lat-e 8)"
	[ -n "$poll" ] && [ -n "$ev" ] && [ "$poll" != FAIL ] && [ "$ev" != FAIL ] || continue
	r=$(awk -v e="$ev" -v p="$poll" 'BEGIN { printf "%.1f", e / p }')
	echo "figure: $prov ib_send_lat 8 B: event-driven t_typical $ev us, ${r}x polled $poll us (aim 2x)"
done

printf '%s' "$TABLE" | awk 'BEGIN { printf "%-6s %-13s %8s %6s %10s %-7s %8s\n",
	"prov", "test", "bytes", "iters", "result", "unit", "wall" }
	NF { printf "%-6s %-13s %8s %6s %10s %-7s %8s\n", $1, $2, $3, $4, $5, $6, $7 }'

echo "runs repeated after a perftest failure: $RETRIES; after a clock calibration failure: $CALIB_RETRIES; 8 B latency runs repeated for the shape: $SHAPE_RETRIES"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
