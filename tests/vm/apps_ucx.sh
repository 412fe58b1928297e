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
# (the same on a real E810 with the stock stack). Then ucx_perftest over
# ud_verbs only (UCX_TLS=ud_verbs, so no TCP transport can stand in):
# UCP tag_bw, tag_lat and ucp_put_bw (UD has no RDMA put: UCP emulates it
# over active messages) between irdma0 (client) and irdma1 (server in
# namespace "peer"), with UCX_UD_VERBS_ETH_DGID_CHECK=n (UCX 1.13 drops
# every IPv4 RoCEv2 datagram on non-mlx5 devices, see below and
# docs/testing.md), and tag_lat once more with the check on over the
# ports' IPv6 link-local RoCEv2 GIDs, which UCX 1.13 checks right. Each
# must exit 0 with its iterations in the "Final:" row and a positive
# bandwidth or latency; the RoCEv2 packet counters (ip4OutPkts +
# ip6OutPkts, `rdma statistic`) of the client's port must grow by at
# least the messages and, for the bandwidth tests, its octet counters by
# at least the payload bytes, so RDMA, not the TCP control connection,
# carried them. Under our irdma with both providers, under the stock
# irdma with the stock one. UCX_PERFTEST=0 in the guest environment
# skips the ucx_perftest runs.
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
# roce_out_bytes IBDEV: octets of those packets.
roce_out_bytes() { echo $(($(hw_counter "$1" ip4OutOctets) + $(hw_counter "$1" ip6OutOctets))); }

# v6_gid_index IBDEV: index of the RoCEv2 GID of the port's IPv6
# link-local address.
v6_gid_index() {
	local g p=/sys/class/infiniband/$1/ports/1
	for g in "$p"/gids/*; do
		case "$(cat "$g"):$(cat "$p/gid_attrs/types/${g##*/}" 2>/dev/null)" in
		fe80:*"RoCE v2") echo "${g##*/}"; return 0 ;;
		esac
	done
	return 1
}

TABLE=""
# ucx_row FILE: the "Final:" row of a ucx_perftest output, blanks squeezed.
ucx_row() { awk '$1 == "Final:" { $1 = $1; print; exit }' "$1"; }

# ucx_check PROV LABEL ITERS COUNTER_DELTA MIN_BYTES BYTES_DELTA: checks
# the last client output (/tmp/ucx-cli.log, status UCX_RC) and records a
# table row.
ucx_check() {
	local prov=$1 label=$2 n=$3 d=$4 minb=$5 db=$6 row why="" fig
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
	elif [ "$db" -lt "$minb" ]; then
		why="RoCEv2 octets +$db, fewer than the $minb payload bytes"
	fi
	if [ -z "$why" ]; then
		ok "$prov: ucx_perftest $label: $row (RoCE out +$d packets, +$db octets)"
		TABLE+="$prov $label $fig $d $db"$'\n'
	else
		fail "$prov: ucx_perftest $label: $why"
		grep -E 'UCX +(ERROR|WARN)|[Ff]atal|Assert' /tmp/ucx-cli.log | head -n 6 | sed 's/^/  client: /'
		grep -v '^ *$' /tmp/ucx-cli.log | grep -v '^\[\|^ *[0-9]* .*0x' | tail -n 6 | sed 's/^/  client: /'
		[ -f /tmp/ucx-srv.log ] && grep -E 'UCX +(ERROR|WARN)|[Ff]atal|Assert' /tmp/ucx-srv.log | head -n 4 | sed 's/^/  server: /'
		TABLE+="$prov $label FAIL $d"$'\n'
	fi
}

# ucx_pair PROV TEST ITERS SIZE [GID_INDEX0 GID_INDEX1]: a UCP test,
# server on irdma1 in "peer"; with GID indexes, over those GIDs and with
# UCX's destination GID check on.
ucx_pair() {
	local prov=$1 t=$2 n=$3 size=$4 spid a0 a1 b0 b1 o0 o1 minb=0
	local e0=("UCX_NET_DEVICES=$ib0:1") e1=("UCX_NET_DEVICES=$ib1:1") label="$2 -s $4"
	if [ $# -ge 6 ]; then
		e0+=("UCX_IB_GID_INDEX=$5") e1+=("UCX_IB_GID_INDEX=$6")
		label+=" (IPv6 GID, DGID check)"
	else
		e0+=(UCX_UD_VERBS_ETH_DGID_CHECK=n)
		e1+=(UCX_UD_VERBS_ETH_DGID_CHECK=n)
	fi
	case "$t" in *bw) minb=$((n * size)) ;; esac
	a0=$(roce_out "$ib0") b0=$(roce_out "$ib1") o0=$(roce_out_bytes "$ib0")
	env "${e1[@]}" ip netns exec peer timeout 100 ucx_perftest \
		>/tmp/ucx-srv.log 2>&1 &
	spid=$!
	wait_for "ip netns exec peer ss -ltn | grep -q ':13337 '" 20 ||
		echo "note: ucx_perftest server not listening after 20 s"
	env "${e0[@]}" timeout 90 ucx_perftest 192.168.81.2 -t "$t" \
		-s "$size" -n "$n" >/tmp/ucx-cli.log 2>&1
	UCX_RC=$?
	wait "$spid"
	a1=$(roce_out "$ib0") b1=$(roce_out "$ib1") o1=$(roce_out_bytes "$ib0")
	# Both directions carry the test's messages (data one way, the
	# pings' replies or UD acknowledgements the other): the client's
	# port must have sent at least one packet a message and, for the
	# bandwidth tests, at least the payload bytes.
	ucx_check "$prov" "$label" "$n" $((a1 - a0)) "$minb" $((o1 - o0))
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
	[ "${UCX_PERFTEST:-1}" = 1 ] || continue
	# UCX 1.13's ud_verbs takes the receive's L3 type from wc.sl, as
	# mlx5 encodes it (2: IPv4); irdma's providers report sl 0, so for
	# an IPv4 datagram UCX compares bytes 24-39 of the GRH area (IPv4
	# header bytes 4-19 there) with its GIDs and drops it: every run
	# over the default, IPv4, GID ends in "unhandled timeout error",
	# also on a real E810. UCX 1.19 reads the type from the GRH area.
	ucx_pair "$prov" tag_bw "$N_BW" 4096
	ucx_pair "$prov" tag_lat "$N_LAT" 8
	ucx_pair "$prov" ucp_put_bw "$N_BW" 4096
	if v0=$(v6_gid_index "$ib0") && v1=$(v6_gid_index "$ib1"); then
		ucx_pair "$prov" tag_lat "$N_LAT" 8 "$v0" "$v1"
	else
		fail "$prov: no IPv6 link-local RoCEv2 GID on $ib0/$ib1"
	fi
done
printf '%s' "$TABLE"
finish
