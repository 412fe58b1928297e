#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# rdma-driver: ours stock
# timeout: 600
# boot: shared
# UCX 1.13.1 (Debian's ucx-utils and libucx0) on the two ports, as a user
# runs it. `ucx_info -d` must finish (it once spun at 100 % CPU in the
# ud_verbs interface open: its receive pool could not register memory)
# and list the ud_verbs transport on irdma0:1 and irdma1:1. rc_verbs is
# not expected: UCX's RC transport wants an SRQ, which GEN_2 has not
# (the same on a real E810 with the stock stack). With UCX_PERFTEST=1
# also ucx_perftest over ud_verbs only (UCX_TLS=ud_verbs, so no TCP
# transport can stand in; open, see below and docs/testing.md):
# UCP tag_bw, tag_lat and ucp_put_bw (UD has no RDMA put: UCP emulates it
# over active messages) between irdma0 (client) and irdma1 (server in
# namespace "peer"). Each
# must exit 0 with its iterations in the "Final:" row and a positive
# bandwidth or latency, and the RoCEv2 packet counters (ip4OutPkts, `rdma
# statistic`) of the sending ports must grow by at least the messages,
# so RDMA, not the TCP control connection, carried them. Under our irdma
# with both providers, under the stock irdma with the stock one.
. "$E810_LIB"

N_BW=${UCX_N_BW:-2000}
N_LAT=${UCX_N_LAT:-500}

command -v ucx_info >/dev/null && command -v ucx_perftest >/dev/null ||
	{ fail "ucx-utils is not installed"; finish; }
rdma_two_ports || finish
export UCX_TLS=ud_verbs

# roce_out IBDEV: RoCEv2 packets the port has sent (ip4OutPkts +
# ip6OutPkts: libfabric's dgram endpoints address by the link-local GID).
roce_out() { echo $(($(hw_counter "$1" ip4OutPkts) + $(hw_counter "$1" ip6OutPkts))); }

TABLE=""
# ucx_row FILE: the "Final:" row of a ucx_perftest output, blanks squeezed.
ucx_row() { awk '$1 == "Final:" { $1 = $1; print; exit }' "$1"; }

# ucx_check PROV LABEL ITERS COUNTER_DELTA: checks the last client output
# (/tmp/ucx-cli.log, status UCX_RC) and records a table row.
ucx_check() {
	local prov=$1 label=$2 n=$3 d=$4 row why="" fig
	row=$(ucx_row /tmp/ucx-cli.log)
	# Final: iters, overhead 50%/avg/overall [us], bandwidth avg/overall
	# [MB/s], message rate avg/overall [msg/s]
	case "$label" in
	*lat*) fig=$(awk '{ print $4 }' <<<"$row") ;;
	*) fig=$(awk '{ print $7 }' <<<"$row") ;;
	esac
	if [ "$UCX_RC" -ne 0 ]; then
		why="exit $UCX_RC"
	elif [ "$(awk '{ print $2 }' <<<"$row")" != "$n" ]; then
		why="Final row '$row', want $n iterations"
	elif ! awk -v f="$fig" 'BEGIN { exit !(f + 0 > 0) }'; then
		why="no positive figure in '$row'"
	elif [ "$d" -lt "$n" ]; then
		why="RoCEv2 packets +$d, fewer than the $n messages"
	fi
	if [ -z "$why" ]; then
		ok "$prov: ucx_perftest $label: $row (RoCE packets out +$d)"
		TABLE+="$prov $label $fig $d"$'\n'
	else
		fail "$prov: ucx_perftest $label: $why"
		grep -E 'UCX +(ERROR|WARN)|[Ff]atal|Assert' /tmp/ucx-cli.log | head -n 6 | sed 's/^/  client: /'
		grep -v '^ *$' /tmp/ucx-cli.log | grep -v '^\[\|^ *[0-9]* .*0x' | tail -n 6 | sed 's/^/  client: /'
		[ -f /tmp/ucx-srv.log ] && grep -E 'UCX +(ERROR|WARN)|[Ff]atal|Assert' /tmp/ucx-srv.log | head -n 4 | sed 's/^/  server: /'
		TABLE+="$prov $label FAIL $d"$'\n'
	fi
}

# ucx_pair PROV TEST ITERS SIZE: a UCP test, server on irdma1 in "peer".
ucx_pair() {
	local prov=$1 t=$2 n=$3 size=$4 spid a0 a1 b0 b1
	a0=$(roce_out "$ib0") b0=$(roce_out "$ib1")
	UCX_NET_DEVICES=$ib1:1 ip netns exec peer timeout 100 ucx_perftest \
		>/tmp/ucx-srv.log 2>&1 &
	spid=$!
	wait_for "ip netns exec peer ss -ltn | grep -q ':13337 '" 20 ||
		echo "note: ucx_perftest server not listening after 20 s"
	UCX_NET_DEVICES=$ib0:1 timeout 90 ucx_perftest 192.168.81.2 -t "$t" \
		-s "$size" -n "$n" >/tmp/ucx-cli.log 2>&1
	UCX_RC=$?
	wait "$spid"
	a1=$(roce_out "$ib0") b1=$(roce_out "$ib1")
	# Both directions carry the test's messages (data one way, the
	# pings' replies or UD acknowledgements the other): the client's
	# port must have sent at least one packet a message.
	ucx_check "$prov" "$t -s $size" "$n" $((a1 - a0))
	echo "  $ib1 RoCE packets out +$((b1 - b0))"
	rm -f /tmp/ucx-srv.log
}

provs="stock ours"
[ "${E810_RDMA_DRIVER:-ours}" = stock ] && provs=stock
for prov in $provs; do
	E810_PROVIDER=$prov provider_env
	t0=$SECONDS
	timeout 120 ucx_info -d >/tmp/ucx-info.log 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$prov: ucx_info -d: exit $rc after $((SECONDS - t0)) s"
		tail -n 10 /tmp/ucx-info.log | sed 's/^/  /'
	else
		ok "$prov: ucx_info -d finished in $((SECONDS - t0)) s"
	fi
	for d in "$ib0" "$ib1"; do
		# A "Transport: ud_verbs" line followed by "Device: $d:1"
		if awk -v d="$d:1" '/Transport: / { t = $NF } /Device: / && $NF == d && t == "ud_verbs" { f = 1 } END { exit !f }' /tmp/ucx-info.log; then
			ok "$prov: ucx_info lists ud_verbs on $d:1"
		else
			fail "$prov: ucx_info has no ud_verbs on $d:1"
		fi
	done
	# Open: between the two ports of this guest every ucx_perftest run
	# over ud_verbs ends in UCX's "UD endpoint ...: unhandled timeout
	# error" (no datagram acknowledged), under the stock irdma as under
	# ours (2026-11-28). Until that is understood the runs are opt-in.
	[ "${UCX_PERFTEST:-0}" = 1 ] || continue
	ucx_pair "$prov" tag_bw "$N_BW" 4096
	ucx_pair "$prov" tag_lat "$N_LAT" 8
	ucx_pair "$prov" ucp_put_bw "$N_BW" 4096
done
printf '%s' "$TABLE"
finish
