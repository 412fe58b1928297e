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
# RDMA, not the TCP control connection, carried them. Under our irdma
# with both providers, under the stock irdma with the stock one.
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

# fi_run PROV EP SIZE: one pingpong; sets WHY when it failed.
fi_run() {
	local prov=$1 ep=$2 size=$3 d0=$ib0 d1=$ib1 spid src crc row srow
	local a0 a1 b0 b1
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
	wait "$spid"
	src=$?
	a1=$(roce_out "$ib0") b1=$(roce_out "$ib1")
	row=$(fi_row /tmp/fi-cli.log)
	srow=$(fi_row /tmp/fi-srv.log)
	WHY=""
	if [ "$crc" -ne 0 ] || [ "$src" -ne 0 ]; then
		WHY="client exit $crc, server exit $src"
	elif ! awk -v r="$row" -v n="$FI_ITERS" 'BEGIN { split(r, a, " ");
		exit !(a[2] == n && a[3] == "=" n && a[6] + 0 > 0) }'; then
		WHY="client row '$row'"
	elif [ -z "$srow" ]; then
		WHY="no server row"
	elif [ $((a1 - a0)) -lt "$FI_ITERS" ] || [ $((b1 - b0)) -lt "$FI_ITERS" ]; then
		WHY="RoCE packets out $ib0 +$((a1 - a0)), $ib1 +$((b1 - b0)), fewer than $FI_ITERS round trips"
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
