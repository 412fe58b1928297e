#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 1200
# On demand, not in make check: our provider against the stock rdma-core
# irdma provider on the small-message rate, A/B in one boot. For each
# size (AB_SIZES, default "64 256") and repetition (AB_REPS, default 4)
# ib_write_bw -n AB_ITERS (default 20000) runs with the stock provider
# and with ours back to back (irdma1 in namespace peer serves, irdma0
# sends), so each pair sees the same host load; it prints each pair's
# MsgRate ratio ours/stock, the geometric mean over all pairs, and the
# model's transport counters of each run (packets, ACKs, retransmissions,
# timeouts: the two providers must cost the wire the same).
#   tools/vm run tests/bench/provider_ab.sh
# Each run must exit 0 on both sides with a result row for its size and
# count; a run that does not is reported and left out of the mean.
# Then latency, A/B the same way: per repetition ib_write_lat and
# ib_send_lat at 8 B (-n LAT_ITERS, 1000), stock then ours, and the
# geometric means of stock/ours for t_min and for t_typical (above 1:
# ours is faster). A row must have 0 < t_min <= t_typical.
. "$E810_LIB"

SIZES=${AB_SIZES:-64 256}
REPS=${AB_REPS:-4}
ITERS=${AB_ITERS:-20000}
LAT_TESTS="ib_write_lat ib_send_lat"
LAT_SIZE=8
LAT_ITERS=1000
COUNTERS="tx_packets acks_sent retransmits timeouts rx_psn_dup seq_naks_rcvd rnr_naks_rcvd"

# geo_add SUM RATIO: SUM + ln(RATIO); geo_mean SUM N: exp(SUM / N).
geo_add() { awk -v l="$1" -v r="$2" 'BEGIN { print l + log(r) }'; }
geo_mean() { awk -v l="$1" -v n="$2" 'BEGIN { printf "%.2f", exp(l / n) }'; }

rdma_two_ports || finish
g0=$(roce_gid_index "$ib0" 192.168.81.1)
g1=$(roce_gid_index "$ib1" 192.168.81.2)

# one_run PROVIDER SIZE: MsgRate (Mpps) of one run in RATE, empty if bad.
one_run() {
	local a0 a1 b0 b1 k line=""
	E810_PROVIDER=$1 provider_env
	a0=$(e810_xport_stats e810-0) a1=$(e810_xport_stats e810-1)
	perftest_run ib_write_bw "$2" "$ITERS" "$ib1" "$g1" "$ib0" "$g0" 192.168.81.2 peer
	b0=$(e810_xport_stats e810-0) b1=$(e810_xport_stats e810-1)
	for k in $COUNTERS; do
		line+=" $k=$(($(xport_stat "$b0" "$k") - $(xport_stat "$a0" "$k")))/$(($(xport_stat "$b1" "$k") - $(xport_stat "$a1" "$k")))"
	done
	RATE=""
	if [ "$PT_CRC" = 0 ] && [ "$PT_SRC" = 0 ] &&
	   why=$(perftest_bw_why "$2" "$ITERS" "$PT_CROW" client); then
		RATE=$(awk '{ print $5 }' <<<"$PT_CROW")
		echo "  $1 $2 B: $PT_CROW (client -> server counters:$line)"
	else
		echo "  $1 $2 B: bad run (exit $PT_CRC/$PT_SRC) $why"
	fi
	perftest_clean
}

logsum=0 pairs=0
for rep in $(seq "$REPS"); do
	for size in $SIZES; do
		one_run stock "$size"; s=$RATE
		one_run ours "$size"; o=$RATE
		if [ -n "$s" ] && [ -n "$o" ]; then
			r=$(awk -v o="$o" -v s="$s" 'BEGIN { printf "%.3f", o / s }')
			logsum=$(geo_add "$logsum" "$r")
			pairs=$((pairs + 1))
			echo "pair $rep $size B: ours/stock MsgRate $r"
		fi
	done
done
if [ "$pairs" -gt 0 ]; then
	ok "ours/stock small-message rate, geometric mean of $pairs pairs: $(geo_mean "$logsum" "$pairs")"
else
	fail "no pair of good runs"
fi

# lat_run PROVIDER TEST: "t_min t_typical" (us) of one run in LAT, empty
# if the run failed or its row is not a latency row of this size.
lat_run() {
	E810_PROVIDER=$1 provider_env
	perftest_run "$2" "$LAT_SIZE" "$LAT_ITERS" "$ib1" "$g1" "$ib0" "$g0" \
		192.168.81.2 peer
	LAT=$(awk -v s="$LAT_SIZE" -v n="$LAT_ITERS" \
		'$1 == s && $2 == n && $3 > 0 && $3 <= $5 { print $3, $5 }' <<<"$PT_CROW")
	if [ "$PT_CRC" = 0 ] && [ "$PT_SRC" = 0 ] && [ -n "$LAT" ]; then
		echo "  $1 $2 $LAT_SIZE B: t_min t_typical $LAT us"
	else
		LAT=""
		echo "  $1 $2 $LAT_SIZE B: bad run (exit $PT_CRC/$PT_SRC) row '$PT_CROW'"
	fi
	perftest_clean
}

lmin=0 ltyp=0 lpairs=0
for rep in $(seq "$REPS"); do
	for t in $LAT_TESTS; do
		lat_run stock "$t"; s=$LAT
		lat_run ours "$t"; o=$LAT
		[ -n "$s" ] && [ -n "$o" ] || continue
		read -r rmin rtyp < <(awk -v s="$s" -v o="$o" 'BEGIN {
			split(s, a, " "); split(o, b, " ")
			printf "%.3f %.3f\n", a[1] / b[1], a[2] / b[2] }')
		lmin=$(geo_add "$lmin" "$rmin")
		ltyp=$(geo_add "$ltyp" "$rtyp")
		lpairs=$((lpairs + 1))
		echo "pair $rep $t: stock/ours t_min $rmin, t_typical $rtyp"
	done
done
if [ "$lpairs" -gt 0 ]; then
	ok "stock/ours 8 B latency, geometric mean of $lpairs pairs: t_min $(geo_mean "$lmin" "$lpairs"), t_typical $(geo_mean "$ltyp" "$lpairs")"
else
	fail "no pair of good latency runs"
fi
finish
