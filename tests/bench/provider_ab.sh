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
. "$E810_LIB"

SIZES=${AB_SIZES:-64 256}
REPS=${AB_REPS:-4}
ITERS=${AB_ITERS:-20000}
COUNTERS="tx_packets acks_sent retransmits timeouts rx_psn_dup seq_naks_rcvd rnr_naks_rcvd"

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
			logsum=$(awk -v l="$logsum" -v r="$r" 'BEGIN { print l + log(r) }')
			pairs=$((pairs + 1))
			echo "pair $rep $size B: ours/stock MsgRate $r"
		fi
	done
done
if [ "$pairs" -gt 0 ]; then
	ok "ours/stock small-message rate, geometric mean of $pairs pairs: $(awk -v l="$logsum" -v n="$pairs" 'BEGIN { printf "%.2f", exp(l / n) }')"
else
	fail "no pair of good runs"
fi
finish
