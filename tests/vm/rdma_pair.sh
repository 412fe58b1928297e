#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: pair
# rdma-driver: ours mixed
# timeout: 900
# RDMA between two guests (one e810 each, joined by a QEMU stream netdev):
# node 1 (192.168.90.2) runs the servers, node 0 (192.168.90.1) the
# clients. With the stock provider and then ours: ibv_rc_pingpong -c
# (every received buffer validated) at 1 B, 4 KiB and 64 KiB, and
# ib_write_bw at 64 KiB. Each run has its own TCP port, so the two nodes
# stay in step even when one side fails; the client retries while the
# server is not listening yet. Each node checks its own side: exit
# status 0, the byte counts (pingpong), a parseable non-zero bandwidth
# row (ib_write_bw; a run failed only by perftest's clock calibration
# is repeated, up to 3 runs), no error line; and through its QEMU (qom-get
# x-xport-stats) that its device sent and received RoCE frames in each
# provider's pass with none refused by the receive checks (ICRC, header
# parse). Both nodes end with a clean kernel log. Run "mixed", node 0 is
# the stock irdma on the stock ice and node 1 ours on ice_lite: the two
# drivers must agree on the wire.
. "$E810_LIB"

expect_eq "nodes in the topology" 2 "$E810_NODES"
SERVER=$((E810_NODE == 1))
MY_IP=192.168.90.$((E810_NODE + 1))
PEER_IP=192.168.90.$((2 - E810_NODE))
SERVER_IP=192.168.90.2
PP_RUNS="1:100 4096:100 65536:20"       # size:iterations
BW_SIZE=65536
BW_N=200
SRV_TIMEOUT=110         # a server gives up on its run after this (s)

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions in this guest" 1 "${#devs[@]}"
nd=$(e810_netdev_of "${devs[0]}")
ib=$(e810_ibdev_of "${devs[0]}")
[ -n "$nd" ] && [ -n "$ib" ] || { fail "netdev/ib_device missing ('$nd'/'$ib')"; finish; }
command -v ib_write_bw >/dev/null || { fail "perftest is not installed"; finish; }
ip addr add "$MY_IP/24" dev "$nd" || fail "ip addr add $MY_IP"
rdma_wait_all_active 30 || fail "$ib not ACTIVE"
wait_carrier "$nd" 10 || fail "$nd has no carrier"
wait_for "roce_gid_index $ib $MY_IP >/dev/null" 15 || fail "no RoCEv2 GID for $MY_IP"
gid=$(roce_gid_index "$ib" "$MY_IP")
[ -n "$gid" ] || finish
ok "node $E810_NODE: $nd $MY_IP, $ib GID index $gid"
# The other guest may still be booting: wait for it on the wire.
wait_for "ping -c 1 -W 1 $PEER_IP >/dev/null 2>&1" 120 &&
	ok "node $E810_NODE reaches $PEER_IP" || fail "$PEER_IP does not answer"

# client_retry PORT CMD...: runs CMD (output in $OUT) again while it
# fails only because nothing listens on PORT yet, for up to 150 s: longer
# than a server can take to give up on a failed run (SRV_TIMEOUT), so
# after a failure both nodes are in step again at the next run.
client_retry() {
	local port=$1 end=$((SECONDS + 150)) rc
	shift
	while :; do
		"$@" >"$OUT" 2>&1
		rc=$?
		[ $rc -eq 0 ] && return 0
		# refused before any exchange: the server is not up yet
		grep -qiE "couldn't connect|unable to open file descriptor|connection refused" "$OUT" ||
			return $rc
		[ $SECONDS -lt $end ] || return $rc
		sleep 1
	done
}

# pp SIZE ITERS PORT: one ibv_rc_pingpong -c run, this node's side.
pp() {
	local size=$1 n=$2 port=$3 want rc t0=$SECONDS
	want=$((size * n * 2))
	OUT=$(mktemp)
	if [ $SERVER = 1 ]; then
		timeout "$SRV_TIMEOUT" ibv_rc_pingpong -d "$ib" -g "$gid" -s "$size" -n "$n" -c \
			-m 1024 -p "$port" >"$OUT" 2>&1
		rc=$?
	else
		client_retry "$port" timeout 90 ibv_rc_pingpong -d "$ib" -g "$gid" \
			-s "$size" -n "$n" -c -m 1024 -p "$port" "$SERVER_IP"
		rc=$?
	fi
	if [ $rc -eq 0 ] && grep -q "^$want bytes in" "$OUT" && ! bad_lines "$OUT" >/dev/null; then
		ok "$PROV: ibv_rc_pingpong -c -s $size -n $n ($ROLE): $want bytes, $(grep -o '[0-9.]* Mbit/sec' "$OUT"), data valid ($((SECONDS - t0)) s)"
	else
		fail "$PROV: ibv_rc_pingpong -c -s $size -n $n ($ROLE): rc $rc"
		tail -6 "$OUT" | sed "s/^/  $ROLE: /"
	fi
	rm -f "$OUT"
}

# bw_once PORT: one ib_write_bw run, this node's side. Sets ROW and WHY
# (empty when it passed) and CALIB=1 when the run's only fault is a zero
# or "inf" bandwidth: perftest's clock calibration under TCG (see
# run_perf in perftest.sh), every completion good. The server prints the
# client's result row, so both nodes see the same row and agree on it.
bw_once() {
	local port=$1 rc
	OUT=$(mktemp)
	perftest_argv ib_write_bw "$ib" "$gid" "$BW_SIZE" "$BW_N" "$port"
	if [ $SERVER = 1 ]; then
		timeout "$SRV_TIMEOUT" taskset -c 1 "${PT_ARGV[@]}" >"$OUT" 2>&1
		rc=$?
	else
		client_retry "$port" timeout 100 taskset -c 1 "${PT_ARGV[@]}" "$SERVER_IP"
		rc=$?
	fi
	ROW=$(result_row "$OUT")
	CALIB=0
	if [ $rc -ne 0 ]; then
		WHY="rc $rc"
	elif bad_lines "$OUT" >/dev/null; then
		WHY="error lines: $(bad_lines "$OUT" | head -2)"
	else
		WHY=$(perftest_bw_why "$BW_SIZE" "$BW_N" "$ROW")
		[ -n "$WHY" ] && awk -v s="$BW_SIZE" -v n="$BW_N" -v r="$ROW" 'BEGIN {
			split(r, a, " ")
			exit !(a[1] == s && a[2] == n && a[4] ~ /^(inf|0+(\.0+)?)$/) }' &&
			CALIB=1
	fi
}

# bw PORT: ib_write_bw, this node's side; a run failed only by the clock
# calibration is repeated on the next port, up to 3 runs in all (both
# nodes take the same decision from the same row, so they stay in step;
# the caller moves to the next block of ten ports afterwards).
bw() {
	local port=$1 try=1 t0=$SECONDS
	while :; do
		bw_once "$port"
		[ -n "$WHY" ] && [ $CALIB = 1 ] && [ $try -lt 3 ] || break
		echo "note: $PROV: ib_write_bw ($ROLE): perftest clock calibration failed ($WHY); again"
		rm -f "$OUT"
		try=$((try + 1)) port=$((port + 1))
	done
	if [ -z "$WHY" ]; then
		ok "$PROV: ib_write_bw -s $BW_SIZE -n $BW_N ($ROLE): $(cut -d' ' -f4 <<<"$ROW") MB/s ($((SECONDS - t0)) s, $try run(s))"
	else
		fail "$PROV: ib_write_bw -s $BW_SIZE -n $BW_N ($ROLE): $WHY ($try run(s))"
		grep -vE '^ *$|^-+$' "$OUT" | tail -8 | sed "s/^/  $ROLE: /"
	fi
	rm -f "$OUT"
}

stat_delta() {
	local a b
	a=$(xport_stat "$1" "$3") b=$(xport_stat "$2" "$3")
	echo $((${b:-0} - ${a:-0}))
}

ROLE=client
[ $SERVER = 1 ] && ROLE=server
port=18600
start_all=$SECONDS
for PROV in stock ours; do
	E810_PROVIDER=$PROV provider_env
	t_prov=$SECONDS
	before=$(e810_xport_stats e810-0) || fail "qom-get x-xport-stats: $before"
	for r in $PP_RUNS; do
		port=$((port + 1))
		pp "${r%:*}" "${r#*:}" "$port"
	done
	port=$((port + 1))
	bw "$port"
	after=$(e810_xport_stats e810-0) || fail "qom-get x-xport-stats: $after"
	tx=$(stat_delta "$before" "$after" tx_packets)
	rx=$(stat_delta "$before" "$after" rx_packets)
	bad=$(stat_delta "$before" "$after" rx_parse_drops)
	rex=$(stat_delta "$before" "$after" retransmits)
	echo "$PROV: e810-0 of node $E810_NODE sent $tx, received $rx RoCE frames, $rex retransmitted ($((SECONDS - t_prov)) s)"
	[ "$tx" -gt 0 ] && [ "$rx" -gt 0 ] &&
		ok "$PROV: RoCE frames crossed the socket both ways" ||
		fail "$PROV: RoCE frames sent $tx, received $rx"
	expect_eq "$PROV: frames failing ICRC/header checks" 0 "$bad"
	port=$(((port / 10 + 1) * 10))
done
unset RDMAV_DRIVERS
echo "time: $((SECONDS - start_all)) s for both providers"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
