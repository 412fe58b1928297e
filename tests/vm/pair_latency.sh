#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: pair
# timeout: 420
# Round-trip time between two guests against one guest's, in one run:
# node 0 alternates an RC pingpong (ibv_rc_pingpong -s 64, polled, the
# stock provider) between two QPs of its own device (both ends in this
# guest: the model's loopback, what one guest costs) with the same
# pingpong to node 1 (192.168.90.2, across the pair's netdev), three
# rounds; node 1 only serves, so both phases keep two vCPUs polling on
# the host. The median per-iteration time of the pair must be at most
# 3x the median of one guest (docs/performance.md, "Two guests"): the
# wire between the two QEMUs may add its hop, not a delay of its own.
# When a runner's TCP netdev held small frames for the peer's delayed
# ACK, every round trip took 40-55 ms against ~0.2 ms in one guest.
# Also: every run exits 0 with its iteration count, and both devices
# sent and received RoCE frames with none failing the receive checks.
. "$E810_LIB"

expect_eq "nodes in the topology" 2 "$E810_NODES"
SERVER=$((E810_NODE == 1))
MY_IP=192.168.90.$((E810_NODE + 1))
PEER_IP=192.168.90.$((2 - E810_NODE))
ROUNDS=3
ITERS=1000
SIZE=64
MAX_RATIO=3
RUN_TIMEOUT=60          # one run; 1000 round trips of 40 ms do not fit

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions in this guest" 1 "${#devs[@]}"
nd=$(e810_netdev_of "${devs[0]}")
ib=$(e810_ibdev_of "${devs[0]}")
[ -n "$nd" ] && [ -n "$ib" ] || { fail "netdev/ib_device missing ('$nd'/'$ib')"; finish; }
ip addr add "$MY_IP/24" dev "$nd" || fail "ip addr add $MY_IP"
rdma_wait_all_active 30 || fail "$ib not ACTIVE"
wait_carrier "$nd" 10 || fail "$nd has no carrier"
wait_for "roce_gid_index $ib $MY_IP >/dev/null" 15 || fail "no RoCEv2 GID for $MY_IP"
gid=$(roce_gid_index "$ib" "$MY_IP")
[ -n "$gid" ] || finish
wait_for "ping -c 1 -W 1 $PEER_IP >/dev/null 2>&1" 120 ||
	{ fail "$PEER_IP does not answer"; finish; }
ok "node $E810_NODE: $ib GID $gid, $PEER_IP answers"
STATS0=$(e810_xport_stats e810-0)

# usec_of LOG: the client's "N iters in S seconds = U usec/iter" value,
# when the run did all ITERS iterations.
usec_of() {
	sed -n "s/^$ITERS iters in .* = \([0-9.]*\) usec\/iter$/\1/p" "$1"
}

# pp PORT [HOST]: one polled pingpong; server without HOST. Output in $OUT.
pp() {
	local port=$1
	shift
	timeout "$RUN_TIMEOUT" ibv_rc_pingpong -d "$ib" -g "$gid" -s "$SIZE" \
		-n "$ITERS" -p "$port" "$@" >"$OUT" 2>&1
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

one=() two=()
for ((r = 0; r < ROUNDS; r++)); do
	port=$((19100 + 10 * r))
	OUT=/tmp/lat-$r.log
	if [ $SERVER = 1 ]; then
		# waits (not polling) while node 0 runs its one-guest phase
		OUT=/tmp/lat-$r.log RUN_TIMEOUT=$((3 * RUN_TIMEOUT)) pp "$port" ||
			fail "round $r: pingpong server: rc $? ($(tail -1 "$OUT"))"
		continue
	fi
	# one guest: server and client on this device
	OUT=/tmp/lat-$r-srv.log pp $((port + 1)) &
	spid=$!
	wait_for "ss -ltn | grep -q ':$((port + 1)) '" 20
	OUT=/tmp/lat-$r-one.log
	pp $((port + 1)) "$MY_IP" || fail "round $r: one-guest pingpong: rc $?"
	wait "$spid" || fail "round $r: one-guest server: rc $?"
	u=$(usec_of /tmp/lat-$r-one.log)
	[ -n "$u" ] && one+=("$u") ||
		{ fail "round $r: no time from the one-guest pingpong"; tail -3 /tmp/lat-$r-one.log; }
	# two guests: the server on node 1 waits on this round's port
	OUT=/tmp/lat-$r-two.log
	end=$((SECONDS + 60))
	until pp "$port" "$PEER_IP"; do
		grep -qiE "couldn't connect|connection refused" "$OUT" &&
			[ $SECONDS -lt $end ] || { fail "round $r: pair pingpong: $(tail -1 "$OUT")"; break; }
		sleep 1
	done
	u=$(usec_of "$OUT")
	[ -n "$u" ] && two+=("$u") ||
		{ fail "round $r: no time from the pair pingpong"; tail -3 "$OUT"; }
	echo "round $r: one guest ${one[-1]:-?} us/iter, two guests ${two[-1]:-?} us/iter"
done

STATS1=$(e810_xport_stats e810-0)
for k in tx_packets rx_packets; do
	d=$(($(xport_stat "$STATS1" $k) - $(xport_stat "$STATS0" $k)))
	[ "$d" -ge $((ROUNDS * ITERS)) ] && ok "$k grew by $d" ||
		fail "$k grew by $d, want >= $((ROUNDS * ITERS))"
done
expect_eq "RoCE frames refused by the receive checks" \
	"$(xport_stat "$STATS0" rx_parse_drops)" "$(xport_stat "$STATS1" rx_parse_drops)"

if [ $SERVER = 0 ] && [ ${#one[@]} = $ROUNDS ] && [ ${#two[@]} = $ROUNDS ]; then
	m1=$(median "${one[@]}") m2=$(median "${two[@]}")
	if awk -v a="$m2" -v b="$m1" -v k=$MAX_RATIO 'BEGIN { exit !(a <= k * b) }'; then
		ok "RC round trip: two guests $m2 us/iter, one guest $m1 us/iter (median of $ROUNDS; at most ${MAX_RATIO}x)"
	else
		fail "RC round trip: two guests $m2 us/iter, over ${MAX_RATIO}x one guest's $m1 us/iter"
	fi
fi
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
