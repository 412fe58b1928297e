#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# rdma-driver: ours stock
# timeout: 600
# boot: shared
# libfabric 1.17 (Debian's libfabric-bin and libfabric1) on the two
# ports, as a user runs it: fi_pingpong -p verbs with each endpoint type,
# msg (verbs RC through RDMA CM), rdm (ofi_rxm over verbs msg) and dgram
# (verbs UD), the server on irdma1 in namespace "peer", the client on
# irdma0, FI_ITERS round trips of each size in FI_SIZES with -c (every
# received buffer checked). Each run must exit 0 on both sides and print
# its result row (the size, the iterations sent and acknowledged, a
# positive rate), and the RoCEv2 packet counters (ip4OutPkts, `rdma
# statistic`) of both ports must grow by at least the round trips, so
# RDMA, not the TCP control connection, carried them. A run that did
# every round trip and then lost fi_pingpong's own teardown race (see
# fi_attempt) is run once more, with a note. Under our irdma with both
# providers, under the stock irdma with the stock one.
. "$E810_LIB"

FI_ITERS=${FI_ITERS:-200}
FI_SIZES=${FI_SIZES:-"64 1000"}

command -v fi_pingpong >/dev/null || { fail "libfabric-bin is not installed"; finish; }
rdma_two_ports || finish

# roce_out IBDEV: RoCEv2 packets the port has sent (ip4OutPkts +
# ip6OutPkts: libfabric's dgram endpoints address by the link-local GID).
roce_out() { echo $(($(hw_counter "$1" ip4OutPkts) + $(hw_counter "$1" ip6OutPkts))); }

TABLE=""
# fi_row FILE: the result row of a fi_pingpong output (after the "bytes"
# header): bytes #sent #ack total time MB/sec usec/xfer Mxfers/sec.
fi_row() { awk '$1 == "bytes" && $2 == "#sent" { getline; $1 = $1; print; exit }' "$1"; }

# fi_attempt EP SIZE: one pingpong; sets WHY when it failed, RACE when
# the only failure is the finalize race below, and row, a0..b1 for fi_run.
fi_attempt() {
	local ep=$1 size=$2 d0=$ib0 d1=$ib1 spid src crc srow
	[ "$ep" = dgram ] && d0=$ib0-dgram d1=$ib1-dgram
	a0=$(roce_out "$ib0") b0=$(roce_out "$ib1")
	ip netns exec peer timeout 100 fi_pingpong -p verbs -e "$ep" -d "$d1" \
		-I "$FI_ITERS" -S "$size" -c >/tmp/fi-srv.log 2>&1 &
	spid=$!
	wait_for "ip netns exec peer ss -ltn | grep -q ':47592 '" 20 ||
		echo "note: fi_pingpong server not listening after 20 s"
	timeout 90 fi_pingpong -p verbs -e "$ep" -d "$d0" -I "$FI_ITERS" \
		-S "$size" -c 192.168.81.2 >/tmp/fi-cli.log 2>&1
	crc=$?
	# The server ends right after the client unless it lost the race
	# below; timeout(1) passes the TERM on and exits 128 + 15.
	wait_for "! fi_running $spid" 30 || kill -TERM "$spid" 2>/dev/null
	wait "$spid"
	src=$?
	a1=$(roce_out "$ib0") b1=$(roce_out "$ib1")
	row=$(fi_row /tmp/fi-cli.log)
	srow=$(fi_row /tmp/fi-srv.log)
	WHY="" RACE=""
	if [ "$crc" -ne 0 ] || [ "$src" -ne 0 ]; then
		WHY="client exit $crc, server exit $src"
		# libfabric's pp_finalize() (util/pingpong.c): after the
		# round trips each side sends "fin", waits for that send's
		# completion and for the peer's fin, and exits with no
		# further sync, so the client may disconnect while the
		# server still waits for its send's completion. ofi_rxm
		# polls its connection events when its CQ is found empty
		# (rxm_ep_do_progress()); taking the shutdown first, it
		# closes the connection and the send comes back flushed (our
		# reading; seen in CI under the stock irdma and provider on a
		# loaded host). When the completion it loses is the client's
		# fin arriving, the flush of that receive is not reported
		# (rxm drops flushed receives no application receive was
		# matched to) and the server waits for ever: seen once in
		# 320 rounds by hand, with the model's frame and ACK counts
		# the same as in the rounds that passed. Only that is
		# excused, once: both sides did every round trip (show_perf()
		# printed all iterations acknowledged, so the failure came
		# after) and the server's one error is a flush, or it hung
		# with none.
		if [ "$crc" -eq 0 ] && fi_full_row "$row" && fi_full_row "$srow"; then
			case "$src,$(grep -c '\[error\]' /tmp/fi-srv.log)" in
			143,0) RACE="the server still waiting 30 s after the client ended" ;;
			143,*) ;;
			*,1) grep -q 'cq_readerr: Work Request Flushed Error' /tmp/fi-srv.log &&
				RACE="the server's fin send flushed" ;;
			esac
		fi
	elif ! fi_full_row "$row"; then
		WHY="client row '$row'"
	elif [ -z "$srow" ]; then
		WHY="no server row"
	elif [ $((a1 - a0)) -lt "$FI_ITERS" ] || [ $((b1 - b0)) -lt "$FI_ITERS" ]; then
		WHY="RoCE packets out $ib0 +$((a1 - a0)), $ib1 +$((b1 - b0)), fewer than $FI_ITERS round trips"
	fi
}

# fi_running PID: PID is alive and not a zombie.
fi_running() {
	local st
	st=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)
	[ -n "$st" ] && [ "$st" != Z ]
}

# fi_full_row ROW: ROW has FI_ITERS sent, all acknowledged, a positive rate.
fi_full_row() {
	awk -v r="$1" -v n="$FI_ITERS" 'BEGIN { split(r, a, " ");
		exit !(a[2] == n && a[3] == "=" n && a[6] + 0 > 0) }'
}

# fi_run PROV EP SIZE: one pingpong, once more after the finalize race.
fi_run() {
	local prov=$1 ep=$2 size=$3 row a0 a1 b0 b1

	fi_attempt "$ep" "$size"
	if [ -n "$RACE" ]; then
		echo "note: $prov: fi_pingpong -e $ep -S $size: every round trip done, then $RACE (pp_finalize race); once more"
		sed 's/^/  server: /' /tmp/fi-srv.log | grep -F '[error]'
		fi_attempt "$ep" "$size"
	fi
	if [ -z "$WHY" ]; then
		ok "$prov: fi_pingpong -e $ep -S $size -I $FI_ITERS -c: $row (RoCE packets out +$((a1 - a0))/+$((b1 - b0)))"
		TABLE+="$prov $ep $size $(awk '{ print $6 " " $7 }' <<<"$row")"$'\n'
	else
		fail "$prov: fi_pingpong -e $ep -S $size: $WHY"
		tail -n 8 /tmp/fi-cli.log | sed 's/^/  client: /'
		tail -n 8 /tmp/fi-srv.log | sed 's/^/  server: /'
		TABLE+="$prov $ep $size FAIL"$'\n'
	fi
}

provs="stock ours"
[ "${E810_RDMA_DRIVER:-ours}" = stock ] && provs=stock
for prov in $provs; do
	E810_PROVIDER=$prov provider_env
	for ep in msg rdm dgram; do
		for size in $FI_SIZES; do
			fi_run "$prov" "$ep" "$size"
		done
	done
done
echo "prov ep bytes MB/s usec/xfer"
printf '%s' "$TABLE"
finish
