#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: rxe
# timeout: 1500
# also-parent: ice
# Interop with an independent RoCEv2 implementation: rdma_rxe on the
# virtio-net NIC that shares the QEMU hub with the e810. The e810 netdev
# lives in namespace "e810" (rxe's UDP socket is in the initial namespace
# on 6.12, so rxe stays there), so every RoCE frame between the two
# crosses the hub: the virtio-net packet counters must grow at least by
# what rxe counts as sent and received.
#
# Both directions (rxe client -> e810 server and e810 client -> rxe
# server), with the RoCEv2 GIDs of IPv4 and of IPv6 addresses:
#   ibv_rc_pingpong -c -m 1024, 1 B .. 64 KiB (multi-packet), data checked
#   ibv_ud_pingpong -c, data checked
#   ib_write_bw, 4 KiB and 64 KiB messages, MTU 1024
# A run fails unless both sides exit 0 and report the bytes moved. The
# whole scenario fails if rxe logs a bad ICRC or any other receive drop
# (dynamic debug of rxe_icrc.c/rxe_recv.c is switched on), if any rxe
# hw_counter other than the packet/message counts grows (out-of-sequence
# requests, sequence errors, RNR, retries, send errors), or if UDP in the
# initial namespace counts errors (checksum, no socket, buffer).
# Every run also fails unless no frame was lost on the way: the RoCE
# frames the model sent (QEMU's x-xport-stats) all reached rxe and all
# rxe sent reached the model.
# duplicate_request (retransmissions of ours rxe re-acknowledged) is only
# printed: under TCG on a busy host a retransmission is legitimate. So are
# out_of_seq_request and completer_retry_err. No frame is lost (checked),
# but QEMU's hub reorders a few in 64 KiB ib_write_bw bursts e810 -> rxe:
# when virtio-net runs out of receive buffers, the frame it refused waits
# in its own queue while newer ones wait at the hub port, and on refill
# QEMU flushes the hub first (qemu_flush_or_purge_queued_packets), so the
# newer frames overtake it and rxe NAKs a sequence gap. rxe's 67 ms ACK
# timer also fires on a loaded host. Retransmission recovers both and
# every payload is checked; see docs/testing.md.
# E810_PROVIDER=stock|ours selects the irdma provider (provider_env);
# INTEROP_PROVIDERS="stock ours" (the default) runs both.
. "$E810_LIB"

NS=e810
V4_E=192.168.83.1 V4_R=192.168.83.2
V6_E=fd00:83::1 V6_R=fd00:83::2
ITERS=50
RC_SIZES="1 4096 65536"
UD_SIZES="1 256 1000"
BW_SIZES="4096 65536"
BW_ITERS=100
# rxe hw_counters that count traffic, not trouble; "duplicate_request"
# (a retransmission of ours that rxe re-acknowledged) is no drop either,
# but is printed as a note when it grows.
TRAFFIC="rcvd_pkts sent_pkts rdma_sends rdma_recvs ack_deferred lifespan vnet_rx vnet_tx e810_tx e810_rx e810_retx udp_in"
NOTE="duplicate_request out_of_seq_request completer_retry_err"

sysctl -qw net.ipv6.conf.all.accept_dad=0
sysctl -qw net.ipv6.conf.default.accept_dad=0
dev=$(e810_pci_devs | head -1)
[ -n "$dev" ] || { fail "no e810 function"; finish; }
nd=$(e810_netdev_of "$dev")
vnet=$(virtio_netdev) || { fail "no virtio-net netdev"; finish; }
rdma_wait_all_active 15 || fail "e810 port not ACTIVE"
ib=$(e810_ibdev_of "$dev")
[ -n "$ib" ] && [ -n "$nd" ] || { fail "e810 netdev/ib_device missing"; finish; }

ip netns add "$NS" && ip link set "$nd" netns "$NS" || { fail "netns"; finish; }
ip -n "$NS" link set lo up
ip -n "$NS" addr add $V4_E/24 dev "$nd"
ip -n "$NS" addr add $V6_E/64 dev "$nd" nodad
ip -n "$NS" link set "$nd" up
ip addr add $V4_R/24 dev "$vnet"
ip addr add $V6_R/64 dev "$vnet" nodad
ip link set "$vnet" up
wait_carrier "$nd" 10 "$NS" && wait_carrier "$vnet" 10 || fail "no carrier"

modprobe rdma_rxe || { fail "modprobe rdma_rxe"; finish; }
rdma link add rxe0 type rxe netdev "$vnet" || { fail "rdma link add rxe0"; finish; }
RXE=rxe0
# rxe reports receive drops (bad ICRC, unknown QP, bad header) only
# through dynamic debug; switch those two files on.
dd=/sys/kernel/debug/dynamic_debug/control
if [ -w $dd ]; then
	echo 'file rxe_icrc.c +p' >$dd && echo 'file rxe_recv.c +p' >$dd &&
		ok "rxe receive-drop messages enabled"
else
	echo "note: no dynamic debug; only counters show rxe drops"
fi

# Index of the RoCE v2 GID $2 (full 8-group form) on $1.
gid_index() {
	local port=/sys/class/infiniband/$1/ports/1 i
	for i in $(ls "$port/gids" | sort -n); do
		[ "$(cat "$port/gids/$i")" = "$2" ] &&
			[ "$(cat "$port/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] &&
			{ echo "$i"; return 0; }
	done
	return 1
}
gid_of() {
	python3 -c 'import ipaddress, sys
a = ipaddress.ip_address(sys.argv[1])
if a.version == 4:
    a = ipaddress.IPv6Address("::ffff:" + sys.argv[1])
print(":".join(a.exploded.split(":")))' "$1"
}
declare -A GIDX
for f in 4 6; do
	eval "ae=\$V${f}_E ar=\$V${f}_R"
	wait_for "gid_index $ib $(gid_of "$ae") >/dev/null" 10 &&
		wait_for "gid_index $RXE $(gid_of "$ar") >/dev/null" 10 ||
		{ fail "no RoCE v2 GIDs for IPv$f"; continue; }
	GIDX[e$f]=$(gid_index "$ib" "$(gid_of "$ae")")
	GIDX[r$f]=$(gid_index "$RXE" "$(gid_of "$ar")")
	ok "IPv$f GIDs: $ib index ${GIDX[e$f]}, $RXE index ${GIDX[r$f]}"
done

# ---- counters -------------------------------------------------------------

HWC=/sys/class/infiniband/$RXE/ports/1/hw_counters
# The counter snapshots take only bash builtins (read from sysfs and
# /proc, parse in the shell): each run takes three or more, and under TCG
# every process started costs 20-30 ms (sixty of them made a third of a
# run's time).
# "name value" for each rxe hw_counter.
rxe_counters() {
	local c v
	for c in "$HWC"/*; do
		read -r v <"$c"
		echo "${c##*/} $v"
	done
}
# "name value" for the UDP/UDP6 error counters of the initial namespace,
# then "udp_in N": the datagrams UDP handed to a socket there (v4 and v6):
# rxe's tunnel socket counts there for every frame it consumed
# (udp_queue_rcv_one_skb() after encap_rcv), also for those rxe then drops
# without counting them.
udp_counters() {
	local l hdr=() val=() i k v in=0
	while read -r -a l; do
		[ "${l[0]}" = Udp: ] || continue
		if [ ${#hdr[@]} = 0 ]; then hdr=("${l[@]}"); else val=("${l[@]}"); fi
	done </proc/net/snmp
	for i in "${!hdr[@]}"; do
		case ${hdr[$i]} in
		*Errors|NoPorts) echo "Udp${hdr[$i]} ${val[$i]}" ;;
		InDatagrams) in=$((in + val[i])) ;;
		esac
	done
	while read -r k v; do
		case $k in
		Udp6InErrors|Udp6NoPorts|Udp6RcvbufErrors|Udp6InCsumErrors) echo "$k $v" ;;
		Udp6InDatagrams) in=$((in + v)) ;;
		esac
	done </proc/net/snmp6
	echo "udp_in $in"
}
# "vnet_rx N", "vnet_tx N": packets of the virtio-net netdev.
vnet_counters() {
	local v
	read -r v <"/sys/class/net/$vnet/statistics/rx_packets"
	echo "vnet_rx $v"
	read -r v <"/sys/class/net/$vnet/statistics/tx_packets"
	echo "vnet_tx $v"
}
# load_snap ARRAY TEXT: the "name value" lines of a snapshot into the
# associative array named ARRAY.
declare -A SA SB
load_snap() {
	local -n _snap=$1
	local k v
	_snap=()
	while read -r k v; do _snap[$k]=$v; done <<<"$2"
}

# Compares counter snapshots $2 (before) and $3 (after) for run $1: every
# rxe counter not in $EXTRA and every UDP error counter must stay put;
# rxe's packet counts and the virtio-net counters must show traffic.
check_counters() {
	local label=$1 name v1 bad="" note=""
	load_snap SB "$2"
	load_snap SA "$3"
	for name in "${!SA[@]}"; do
		v1=${SA[$name]}
		[ "$v1" = "${SB[$name]:-}" ] && continue
		case " $TRAFFIC " in *" $name "*) continue ;; esac
		case " $NOTE " in
		*" $name "*) note="$note $name +$((v1 - ${SB[$name]:-0}))" ;;
		*) bad="$bad $name:${SB[$name]:-}->$v1" ;;
		esac
	done
	[ -z "$bad" ] && ok "$label: no rxe/UDP error counter grew" ||
		fail "$label: error counters grew:$bad"
	[ -z "$note" ] || echo "note: $label:$note"
	local rs=$((SA[sent_pkts] - SB[sent_pkts])) rr=$((SA[rcvd_pkts] - SB[rcvd_pkts]))
	local vr=$((SA[vnet_rx] - SB[vnet_rx])) vt=$((SA[vnet_tx] - SB[vnet_tx]))
	if [ "$rr" -gt 0 ] && [ "$rs" -gt 0 ] && [ "$vr" -ge "$rr" ] &&
	   [ "$vt" -ge "$rs" ]; then
		ok "$label: rxe sent $rs / received $rr packets; virtio-net tx $vt / rx $vr"
	else
		fail "$label: traffic did not cross the hub: rxe sent $rs received $rr, virtio-net tx $vt rx $vr"
	fi
}
snapshot() {
	local kv st
	rxe_counters
	udp_counters
	vnet_counters
	# The model's RoCE frame counts, from QEMU (x-xport-stats).
	st=$(e810_xport_stats e810-0)
	for kv in $st; do
		case ${kv%%=*} in
		tx_packets) echo "e810_tx ${kv#*=}" ;;
		rx_packets) echo "e810_rx ${kv#*=}" ;;
		retransmits) echo "e810_retx ${kv#*=}" ;;
		esac
	done
}

# no_loss LABEL BEFORE AFTER: every RoCE frame the e810 sent between the
# snapshots reached rxe's UDP socket (udp_in; nothing else receives UDP in
# the initial namespace) and every frame rxe sent reached the e810's
# engine. rxe counts in rcvd_pkts the frames that passed its header and
# ICRC checks; hdr_check() in rxe_recv.c drops, uncounted, a frame for a
# QP that is gone or no longer ready: a retransmitted copy of ours that
# lands after the test closed its QP. So rcvd_pkts may fall short of
# udp_in by at most the e810's retransmissions of the same window, never
# by more. A frame still in flight (a late duplicate ACK) gets 3 s to land.
no_loss() {
	local label=$1 a=$3 et er rs rr ui rt i
	load_snap SB "$2"
	for i in $(seq 7); do
		[ "$i" = 1 ] || { nap 0.5; a=$(snapshot); }
		load_snap SA "$a"
		et=$((SA[e810_tx] - SB[e810_tx]))
		er=$((SA[e810_rx] - SB[e810_rx]))
		rt=$((SA[e810_retx] - SB[e810_retx]))
		rs=$((SA[sent_pkts] - SB[sent_pkts]))
		rr=$((SA[rcvd_pkts] - SB[rcvd_pkts]))
		ui=$((SA[udp_in] - SB[udp_in]))
		[ "$et" = "$ui" ] && [ "$et" = "$rr" ] && [ "$rs" = "$er" ] && break
	done
	if [ "$et" = "$ui" ] && [ "$rs" = "$er" ] && [ "$et" -gt 0 ] &&
	   [ "$rr" -le "$ui" ] && [ $((ui - rr)) -le "$rt" ]; then
		ok "$label: no frame lost: e810 sent $et = rxe's socket received $ui, rxe sent $rs = e810 received $er"
		[ "$rr" = "$ui" ] ||
			echo "note: $label: rxe dropped $((ui - rr)) late copies (e810 retransmitted $rt)"
	else
		fail "$label: frames lost: e810 sent $et, rxe's socket received $ui, rxe counted $rr (e810 retransmitted $rt); rxe sent $rs, e810 received $er"
	fi
}

# ---- runs -----------------------------------------------------------------

# run_pp LABEL DIR FAMILY TOOL SIZE [ARGS...]: DIR "rxe->e810" runs the
# server on the e810 and the client on rxe, "e810->rxe" the other way.
# ibverbs-utils tools must exit 0 and print SIZE * ITERS * 2 bytes on both
# sides; ib_write_bw must exit 0 and print its result line.
run_one() {
	local label=$1 dir=$2 fam=$3 tool=$4 size=$5 srv cli sp crc src
	shift 5
	local e_cmd=(ip netns exec "$NS" timeout 120 "$tool" -d "$ib")
	local r_cmd=(timeout 120 "$tool" -d "$RXE")
	local gopt=-g
	[ "$tool" = ib_write_bw ] && gopt=-x
	e_cmd+=("$gopt" "${GIDX[e$fam]}" "$@")
	r_cmd+=("$gopt" "${GIDX[r$fam]}" "$@")
	local s_cmd c_cmd peer s_ns=()
	if [ "$dir" = "rxe->e810" ]; then
		s_cmd=("${e_cmd[@]}") c_cmd=("${r_cmd[@]}") peer=$V4_E
		s_ns=(ip netns exec "$NS")
	else
		s_cmd=("${r_cmd[@]}") c_cmd=("${e_cmd[@]}") peer=$V4_R
	fi
	srv=$(mktemp) cli=$(mktemp)
	local before after
	before=$(snapshot)
	"${s_cmd[@]}" >"$srv" 2>&1 &
	sp=$!
	# All three tools listen on 18515 once their QP exists.
	wait_for "${s_ns[*]} ss -ltn | grep -q ':18515 '" 20 ||
		echo "note: $tool server not listening after 20 s"
	"${c_cmd[@]}" "$peer" >"$cli" 2>&1
	crc=$?
	wait "$sp"
	src=$?
	after=$(snapshot)
	local what="$label IPv$fam $dir: $tool $*" good=0
	if [ "$tool" = ib_write_bw ]; then
		local re="^ *$size +$BW_ITERS +[0-9.]+ +[0-9.]+"
		[ $crc -eq 0 ] && [ $src -eq 0 ] && grep -qE "$re" "$cli" &&
			grep -qE "$re" "$srv" && good=1
	else
		local want=$((size * ITERS * 2))
		[ $crc -eq 0 ] && [ $src -eq 0 ] && grep -q "^$want bytes in" "$cli" &&
			grep -q "^$want bytes in" "$srv" &&
			! grep -q 'invalid data' "$srv" "$cli" && good=1
	fi
	if [ $good = 1 ]; then
		ok "$what: client and server done, data valid"
	else
		fail "$what (client rc $crc, server rc $src)"
		sed 's/^/  client: /' "$cli" | tail -12
		sed 's/^/  server: /' "$srv" | tail -12
	fi
	check_counters "$what" "$before" "$after"
	no_loss "$what" "$before" "$after"
	rm -f "$srv" "$cli"
	[ $good = 1 ]
}

run_matrix() {
	local label=$1 fam dir s
	for fam in 4 6; do
		[ -n "${GIDX[e$fam]}" ] || continue
		for dir in "rxe->e810" "e810->rxe"; do
			for s in $RC_SIZES; do
				run_one "$label" "$dir" $fam ibv_rc_pingpong "$s" \
					-s "$s" -n $ITERS -m 1024 -c || break
			done
			for s in $UD_SIZES; do
				run_one "$label" "$dir" $fam ibv_ud_pingpong "$s" \
					-s "$s" -n $ITERS -c || break
			done
			for s in $BW_SIZES; do
				run_one "$label" "$dir" $fam ib_write_bw "$s" \
					-s "$s" -n $BW_ITERS -m 1024 -F || break
			done
		done
	done
}

for E810_PROVIDER in ${INTEROP_PROVIDERS:-stock ours}; do
	provider_env
	run_matrix "$E810_PROVIDER_NAME"
done
unset RDMAV_DRIVERS

# rxe logs receive drops with dynamic debug; any of them is a failure.
drops=$(dmesg | grep -iE 'icrc|rdma_rxe.*(drop|bad|invalid|no qp|failed)')
[ -z "$drops" ] && ok "dmesg: no rxe ICRC error or receive drop" || {
	fail "dmesg shows rxe receive errors"
	echo "$drops" | sort | uniq -c | sort -rn | head -10
}
echo "e810 model transport counters at the end:"
e810_xport_stats e810-0 | tr ' ' '\n' | grep -vE '=0$' | sed 's/^/  /'

# The e810 netdev counts only what its LAN queues carry (the TCP
# exchange of QP numbers): RoCE frames are consumed by the RDMA engine.
echo "e810 netdev (LAN queues only) and virtio-net at the end:"
ip -n "$NS" -s link show "$nd" | sed 's/^/  /'
ip -s link show "$vnet" | sed 's/^/  /'
echo "rxe hw_counters at the end:"
rxe_counters | sed 's/^/  /'
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
