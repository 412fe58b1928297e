#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# rdma-driver: ours stock
# timeout: 600
# boot: shared
# qperf 0.4.11 (Debian's package) as a user runs it on RoCE: the server
# (`qperf`, TCP port 19765) on irdma1 in namespace "peer", the client on
# irdma0 with RDMA CM (-cm1), each test for QPERF_SECS seconds: RC
# bandwidth and latency of sends (rc_bw, rc_lat), RDMA WRITE and READ
# (rc_rdma_write_bw, rc_rdma_read_bw, rc_rdma_write_lat,
# rc_rdma_read_lat). Under our irdma with both providers, under the
# stock irdma with the stock one. Each run must exit 0 and report a
# positive rate or latency and a message rate; the RoCEv2 packet counters
# of the two ports (ip4OutPkts + ip6OutPkts, `rdma statistic`) must grow by at least
# the messages (rate x time, 10 % for rounding), so RDMA, not the TCP
# control connection, carried them. qperf's UD tests (ud_bw, ud_lat) do
# not use RDMA CM and address by LID without a GRH: on RoCE ib_core
# refuses their address handle (EINVAL) under any driver, so they must
# fail exactly that way (qperf_ud). A table of the figures follows.
. "$E810_LIB"

QPERF_SECS=${QPERF_SECS:-2}
# qperf gives each control message (the request, node information, the
# results) 5 seconds by default (-to, both sides). A guest under TCG on a
# host that runs several of them can take longer than that to open the
# device and set up a test's QP, CQ and MR, and the client then gives up
# ("failed to receive node information: timed out") for a reason that is
# not the driver's. QPERF_TIMEOUT is what a user gives qperf on a slow host.
QPERF_TIMEOUT=${QPERF_TIMEOUT:-30}
RC_TESTS="rc_bw rc_lat rc_rdma_write_bw rc_rdma_read_bw rc_rdma_write_lat rc_rdma_read_lat"
UD_TESTS="ud_bw ud_lat"
# Message sizes: 64 KiB for the bandwidth tests, qperf's default for
# latency (1 byte).
size_of() {
	case "$1" in
	rc_*_bw | rc_bw) echo 65536 ;;
	*) echo 1 ;;
	esac
}

command -v qperf >/dev/null || { fail "qperf is not installed"; finish; }
rdma_two_ports || finish

# qperf's -v value of NAME in file $1 (digits only: "37,650" -> 37650),
# and a value with its unit ("1.23 GB/sec").
qv() { awk -v k="$2" '$1 == k && $2 == "=" { gsub(",", "", $3); print $3; exit }' "$1"; }
qvu() { awk -v k="$2" '$1 == k && $2 == "=" { print $3 " " $4; exit }' "$1"; }

# roce_out IBDEV: RoCEv2 packets the port has sent (ip4OutPkts +
# ip6OutPkts); pkts: both ports'.
roce_out() { echo $(($(hw_counter "$1" ip4OutPkts) + $(hw_counter "$1" ip6OutPkts))); }
pkts() { echo $(($(roce_out "$ib0") + $(roce_out "$ib1"))); }

TABLE=""
# rate FILE: qperf's msg_rate in messages a second ("22.5 K/sec").
rate() {
	awk '$1 == "msg_rate" && $2 == "=" { m = 1; if ($4 ~ /^K/) m = 1e3;
		if ($4 ~ /^M/) m = 1e6; if ($4 ~ /^G/) m = 1e9; printf "%d", $3 * m; exit }' "$1"
}

# server_idle: the server forks a child for each client and accepts the
# next one only once that child has exited (qperf.c server()); a client
# that connects earlier waits in the listen backlog, on its own timeout.
server_idle() {
	wait_for "! pgrep -P $spid >/dev/null" "$QPERF_TIMEOUT" ||
		fail "qperf server still serving the previous test after ${QPERF_TIMEOUT}s"
}

# qperf_test PROVIDER TEST: one client run against the running server.
# The messages a test moved: its msg_rate times its time (-t).
qperf_test() {
	local prov=$1 t=$2 out=/tmp/qperf.out size n0 n1 rc msgs fig why=""
	size=$(size_of "$t")
	server_idle
	n0=$(pkts)
	timeout $((QPERF_SECS * 10 + QPERF_TIMEOUT * 3)) qperf 192.168.81.2 -cm1 \
		-to "$QPERF_TIMEOUT" -t "$QPERF_SECS" -m "$size" -v "$t" >"$out" 2>&1
	rc=$?
	n1=$(pkts)
	msgs=$(($(rate "$out") * QPERF_SECS))
	case "$t" in
	*_lat) fig=$(qvu "$out" latency) ;;
	*) fig=$(qvu "$out" bw) ;;
	esac
	if [ "$rc" -ne 0 ]; then
		why="exit $rc"
	elif ! awk -v f="${fig%% *}" 'BEGIN { exit !(f + 0 > 0) }'; then
		why="no positive figure ('$fig')"
	elif ! [ "$msgs" -gt 0 ]; then
		why="no message rate"
	elif [ $((n1 - n0)) -lt $((msgs * 9 / 10)) ]; then
		why="RoCE packets out of both ports +$((n1 - n0)), fewer than the ~$msgs messages"
	fi
	if [ -z "$why" ]; then
		ok "$prov: qperf $t -m $size: $fig, ~$msgs messages, RoCE packets out +$((n1 - n0))"
		TABLE+="$prov $t $size ${fig// /_} $msgs"$'\n'
	else
		fail "$prov: qperf $t -m $size: $why"
		grep -vE 'cpus|cost|use_cm' "$out" | sed 's/^/  /' | head -n 12
		TABLE+="$prov $t $size FAIL -"$'\n'
	fi
}

# qperf_ud PROVIDER TEST: qperf 0.4.11 runs its UD tests without RDMA CM
# (it warns that -cm1 is not used) and builds their address handles from
# LIDs, without a GRH, which ib_core refuses on RoCE (rdma_check_ah_attr():
# -EINVAL) whatever the driver: the test must fail exactly so. Whichever
# side creates its address handle first reports it: the client in its own
# output, the server in its log (the client then prints "server:" and
# may lose the text).
qperf_ud() {
	local prov=$1 t=$2 out=/tmp/qperf.out rc slog=/tmp/qperf-server.$1.log s0
	server_idle
	s0=$(wc -l <"$slog")
	timeout $((QPERF_TIMEOUT * 3)) qperf 192.168.81.2 -cm1 -to "$QPERF_TIMEOUT" \
		-t "$QPERF_SECS" -v "$t" >"$out" 2>&1
	rc=$?
	# The server's side of the refusal reaches its log when its child exits.
	server_idle
	if [ $rc -ne 0 ] && { cat "$out"; tail -n +$((s0 + 1)) "$slog"; } |
		grep -q 'failed to create address handle: Invalid argument'; then
		ok "$prov: qperf $t refused as on any RoCE device: no GRH (exit $rc, create_ah EINVAL)"
		TABLE+="$prov $t - refused(no_GRH) -"$'\n'
	else
		fail "$prov: qperf $t: exit $rc, not the RoCE refusal of a GRH-less AH"
		sed 's/^/  /' "$out" | head -n 12
		tail -n +$((s0 + 1)) "$slog" | sed 's/^/  server log: /' | head -n 6
		TABLE+="$prov $t - FAIL -"$'\n'
	fi
}

provs="stock ours"
[ "${E810_RDMA_DRIVER:-ours}" = stock ] && provs=stock
for prov in $provs; do
	E810_PROVIDER=$prov provider_env
	# The server serves one client at a time, test after test.
	ip netns exec peer qperf >"/tmp/qperf-server.$prov.log" 2>&1 &
	spid=$!
	wait_for "ip netns exec peer ss -ltn | grep -q ':19765 '" 20 ||
		fail "$prov: qperf server not listening"
	for t in $RC_TESTS; do
		qperf_test "$prov" "$t"
	done
	for t in $UD_TESTS; do
		qperf_ud "$prov" "$t"
	done
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
done
printf '%s' "$TABLE" | awk 'BEGIN { printf "%-6s %-18s %6s %-16s %s\n", "prov", "test", "bytes", "figure", "messages" }
	{ printf "%-6s %-18s %6s %-16s %s\n", $1, $2, $3, $4, $5 }'
finish
