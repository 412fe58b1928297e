#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: pair
# parent: ice
# rdma-driver: none
# rdma-protocol: iwarp
# timeout: 1200
# check: on-demand
# The emulated E810 in iWARP mode against soft-iWARP (siw) on the other
# end of the wire. Node 0 (192.168.90.1): the stock ice switched to iWARP,
# the stock irdma (loaded here: rdma-driver none) and the stock provider.
# Node 1 (192.168.90.2): siw (tools/build-siw.sh) on its e810 netdev (the
# stock ice, no irdma bound; the function's TCP is the kernel's).
#  - E810 client -> siw server: rping -V -v at 64 B, 1000 B, 4096 B,
#    9000 B and 65535 B (every iteration the server READs the client's
#    buffer and WRITEs it back, the client compares: both directions of
#    data checked, both sides count the iterations), then ib_write_bw,
#    ib_read_bw and ib_send_bw -R at 64 KiB (row, non-zero average). The
#    frames accounted: the model's engine counters on node 0 (x-iwarp-stats:
#    FPDUs and bytes both ways, no CRC error, no Terminate either way, no
#    bad checksum, no out-of-order segment), the e810 netdev byte counters
#    and the kernel's TCP counters (nstat) on node 1 (no checksum error,
#    nothing retransmitted is reported), no kernel line from siw (its
#    pr_warn()s are CRC, TERMINATE and DDP/RDMAP errors).
#  - siw client -> E810 server: what the wire shows (a packet socket on
#    node 1 records the connection's segments): siw's MPA v2 request goes
#    out without the peer-to-peer bit, and the stock irdma answers it
#    with an RST and no MPA reply; the siw client never connects and the
#    E810 listener sees no connection.
# Prints the E810-to-siw ib_write_bw -R figure.
. "$E810_LIB"

expect_eq "nodes in the topology" 2 "$E810_NODES"
E810=$((E810_NODE == 0))
ROLE=siw
[ $E810 = 1 ] && ROLE=e810
MY_IP=192.168.90.$((E810_NODE + 1))
PEER_IP=192.168.90.$((2 - E810_NODE))
E810_IP=192.168.90.1
SIW_IP=192.168.90.2
RPING_RUNS="64:100 1000:100 4096:100 9000:50 65535:50"	# size:iterations
BW_SIZE=65536
BW_N=1000
SRV_TIMEOUT=150

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions in this guest" 1 "${#devs[@]}"
dev=${devs[0]}
nd=$(e810_netdev_of "$dev")
[ -n "$nd" ] || { fail "no netdev for $dev"; finish; }
for t in rping ib_write_bw ib_read_bw ib_send_bw ibv_devinfo rdma nstat python3; do
	command -v $t >/dev/null || fail "$t is not installed"
done
ip addr add "$MY_IP/24" dev "$nd" || fail "ip addr add $MY_IP"
ip link set "$nd" up
wait_carrier "$nd" 10 || fail "$nd has no carrier"
dmesg_mark

# ---- the RDMA device of each side ---------------------------------------
if [ $E810 = 1 ]; then
	aux=$(e810_aux_of "$dev")
	case "$aux" in
	ice.iwarp.*) ok "parent published $aux" ;;
	*) fail "no ice.iwarp.<N> ('$aux')" ;;
	esac
	# The guest kernel's own irdma (outside the module tree, mkguest.sh).
	modprobe -a ib_uverbs i40e && insmod /usr/lib/e810-stock/irdma.ko* ||
		{ fail "loading the stock irdma"; finish; }
	wait_for "[ -n \"\$(e810_ibdev_of $dev)\" ]" 30
	ibd=$(e810_ibdev_of "$dev")
	[ -n "$ibd" ] || { fail "no ib_device on $dev"; finish; }
	rdma_wait_all_active 30 || fail "$ibd not ACTIVE: $(rdma link show)"
	export RDMAV_DRIVERS=irdma	# the stock provider
else
	ibd=siw0
	modprobe siw || { fail "modprobe siw"; finish; }
	rdma link add siw0 type siw netdev "$nd" ||
		{ fail "rdma link add siw0 type siw netdev $nd"; finish; }
	wait_for "rdma link show siw0/1 | grep -q 'state ACTIVE'" 10 ||
		fail "siw0/1 not ACTIVE: $(rdma link show siw0/1)"
fi
expect_eq "$ibd ibv_devinfo transport" "iWARP (1)" "$(ibv_attr "$ibd" transport)"
wait_for "ping -c 1 -W 1 $PEER_IP >/dev/null 2>&1" 120 &&
	ok "node $E810_NODE reaches $PEER_IP" || fail "$PEER_IP does not answer"

# ---- counters ----------------------------------------------------------------
bytes() { cat "/sys/class/net/$nd/statistics/$1_bytes"; }
# iws NAME: the model's iWARP engine counter NAME (QMP x-iwarp-stats, node 0)
iws() {
	e810_qom_str "$(e810_qom_id "$dev")" x-iwarp-stats | tr ' ' '\n' |
		sed -n "s/^$1=//p"
}
IWS_KEYS="offloads tx_segs tx_bytes rx_segs rx_bytes fpdus_tx fpdus_rx
	retransmits timeouts fast_retransmits rx_bad_csum rx_ooo rx_dup
	crc_errors terms_sent terms_rcvd tx_rst rx_rst read_reqs read_resps"
NSTAT_KEYS="TcpOutSegs TcpInSegs TcpRetransSegs TcpInCsumErrors TcpInErrs
	TcpExtTCPLostRetransmit TcpExtTCPTimeouts TcpExtTCPOFOQueue"
declare -A C0
# snap: the counters of this side now
snap() {
	local k s
	C0[tx]=$(bytes tx) C0[rx]=$(bytes rx)
	if [ $E810 = 1 ]; then
		s=$(e810_qom_str "$(e810_qom_id "$dev")" x-iwarp-stats)
		for k in $IWS_KEYS; do
			C0[$k]=$(tr ' ' '\n' <<<"$s" | sed -n "s/^$k=//p")
		done
	else
		for k in $NSTAT_KEYS; do
			C0[$k]=$(nstat -az "$k" | awk -v k="$k" '$1 == k { print $2 }')
		done
	fi
}
# delta NAME: how much counter NAME grew since snap
delta() {
	local now
	case $1 in
	tx|rx) now=$(bytes "$1") ;;
	Tcp*) now=$(nstat -az "$1" | awk -v k="$1" '$1 == k { print $2 }') ;;
	*) now=$(iws "$1") ;;
	esac
	echo $((now - ${C0[$1]:-0}))
}
# account WHAT OUT IN: the frames of a run, this side: at least OUT
# payload bytes went out and IN came in, nothing was lost or rejected.
account() {
	local what=$1 out=$2 in=$3 k d line=""
	if [ $E810 = 1 ]; then
		for k in $IWS_KEYS; do
			d=$(delta "$k")
			line+=" $k=$d"
			eval "D_$k=$d"
		done
		echo "  model ($what):$line"
		[ "$D_tx_bytes" -ge "$out" ] && [ "$D_rx_bytes" -ge "$in" ] &&
			ok "$what: model sent $D_tx_bytes >= $out, received $D_rx_bytes >= $in stream bytes" ||
			fail "$what: model sent $D_tx_bytes (want >= $out), received $D_rx_bytes (want >= $in)"
		expect_eq "$what: model CRC errors, Terminates out/in, bad checksums, out-of-order" \
			"0 0 0 0 0" "$D_crc_errors $D_terms_sent $D_terms_rcvd $D_rx_bad_csum $D_rx_ooo"
		# A retransmission is not a loss: the engine's RTO is a fixed
		# 200 ms (docs/hw-model.md, "iWARP engine"), which a TCG
		# guest's delayed ACK can outlast. Loss shows on the receiving
		# side (siw's kernel: out-of-order queue, below).
		[ "$D_retransmits" = 0 ] ||
			echo "note: $what: the model retransmitted $D_retransmits segment(s) ($D_timeouts timeout(s), $D_fast_retransmits fast)"
	else
		for k in $NSTAT_KEYS; do
			d=$(delta "$k")
			line+=" $k=$d"
			eval "D_$k=$d"
		done
		echo "  kernel TCP ($what):$line"
		d=$(delta tx)
		[ "$d" -ge "$out" ] && ok "$what: $nd tx bytes +$d >= $out" ||
			fail "$what: $nd tx bytes +$d, want >= $out"
		d=$(delta rx)
		[ "$d" -ge "$in" ] && ok "$what: $nd rx bytes +$d >= $in" ||
			fail "$what: $nd rx bytes +$d, want >= $in"
		expect_eq "$what: TCP checksum and input errors" "0 0" \
			"$D_TcpInCsumErrors $D_TcpInErrs"
		expect_eq "$what: TCP segments retransmitted, out-of-order queued" \
			"0 0" "$D_TcpRetransSegs $D_TcpExtTCPOFOQueue"
	fi
}

# The server opens a beacon on PORT + 1000 once it listens (busybox nc,
# one connection); the client connects when the beacon answers (rping's
# client does not exit after a refused connect).
# listening PORT: the server of this side listens on PORT. siw listens on
# a kernel TCP socket; the E810 in its APBVT (irdma's listener).
listening() {
	if [ $E810 = 1 ]; then
		case ",$(iw_table "$dev" apbvt_ports)," in *",$1,"*) return 0 ;; esac
		return 1
	fi
	ss -ltn | grep -q ":$1 "
}
serve() {
	local port=$1
	shift
	timeout "$SRV_TIMEOUT" "$@" >"$OUT" 2>&1 &
	SRV_PID=$!
	wait_for "listening $port" 30 ||
		echo "note: no listener on port $port after 30 s ($ROLE)"
	timeout 150 busybox nc -l -p $((port + 1000)) </dev/null >/dev/null 2>&1 &
}
await() {
	wait_for "(exec 3<>/dev/tcp/$1/$(($2 + 1000))) 2>/dev/null" 150 ||
		echo "note: no beacon for port $2 from $1 after 150 s"
}

# ---- E810 client -> siw server: rping -V -------------------------------------
port=19300
start_all=$SECONDS
for r in $RPING_RUNS; do
	size=${r%:*} n=${r#*:}
	port=$((port + 1))
	OUT=$(mktemp)
	snap
	t0=$SECONDS
	if [ $E810 = 0 ]; then
		serve "$port" rping -s -a "$MY_IP" -p "$port" -S "$size" -V -v
		wait $SRV_PID
		rc=$?
		cnt=$(grep -c '^server ping data: rdma-ping-' "$OUT")
	else
		await "$SIW_IP" "$port"
		timeout 120 rping -c -a "$SIW_IP" -p "$port" -S "$size" -C "$n" \
			-V -v >"$OUT" 2>&1
		rc=$?
		cnt=$(grep -c '^ping data: rdma-ping-' "$OUT")
	fi
	what="E810->siw rping -V -S $size -C $n"
	if [ $rc -eq 0 ] && [ "$cnt" = "$n" ] && ! grep -qiE 'mismatch|error' "$OUT"; then
		ok "$what ($ROLE): $cnt iterations, data valid ($((SECONDS - t0)) s)"
	else
		fail "$what ($ROLE): rc $rc, $cnt of $n iterations"
		grep -v 'ping data' "$OUT" | tail -5 | sed "s/^/  $ROLE: /"
	fi
	rm -f "$OUT"
	# The client's buffer goes to the server (READ responses), the
	# server's WRITE comes back: SIZE bytes each way per iteration.
	account "$what" $((size * n)) $((size * n))
done

# ---- E810 client -> siw server: perftest -R --------------------------------------
port=19400
payload=$((BW_SIZE * BW_N))
for t in ib_write_bw ib_read_bw ib_send_bw; do
	port=$((port + 10))
	OUT=$(mktemp)
	snap
	argv=("$t" -R -d "$ibd" -s "$BW_SIZE" -n "$BW_N" -p "$port" -F)
	t0=$SECONDS
	if [ $E810 = 0 ]; then
		serve "$port" "${argv[@]}"
		wait $SRV_PID
		rc=$?
	else
		await "$SIW_IP" "$port"
		timeout 150 "${argv[@]}" "$SIW_IP" >"$OUT" 2>&1
		rc=$?
	fi
	row=$(result_row "$OUT")
	why=
	if [ $rc -ne 0 ]; then
		why="rc $rc"
	elif bad_lines "$OUT" >/dev/null; then
		why="error lines: $(bad_lines "$OUT" | head -2)"
	else
		why=$(perftest_bw_why "$BW_SIZE" "$BW_N" "$row")
	fi
	if [ -z "$why" ]; then
		ok "E810->siw $t -R -s $BW_SIZE -n $BW_N ($ROLE): $(cut -d' ' -f4 <<<"$row") MB/s ($((SECONDS - t0)) s)"
		[ "$t" = ib_write_bw ] && [ $E810 = 1 ] &&
			echo "figure: E810-to-siw ib_write_bw -R $BW_SIZE B x $BW_N: $(cut -d' ' -f4 <<<"$row") MB/s"
	else
		fail "E810->siw $t -R ($ROLE): $why"
		grep -vE '^ *$|^-+$' "$OUT" | tail -8 | sed "s/^/  $ROLE: /"
	fi
	rm -f "$OUT"
	# READ: the server's buffer to the client; else client to server.
	if [ "$t" = ib_read_bw ]; then
		[ $E810 = 1 ] && account "$t" 0 "$payload" || account "$t" "$payload" 0
	else
		[ $E810 = 1 ] && account "$t" "$payload" 0 || account "$t" 0 "$payload"
	fi
done
echo "time: $((SECONDS - start_all)) s of E810->siw traffic ($ROLE)"

# ---- siw client -> E810 server ---------------------------------------------------
# The stock irdma accepts an MPA v2 request only with the peer-to-peer bit
# in its IRD word (irdma_negotiate_mpa_v2_ird_ord() returns -EOPNOTSUPP
# without IETF_PEER_TO_PEER); irdma_recv_mpa() / irdma_cm_event_handler
# then reset the connection (irdma_passive_open_err(..., true): an RST).
# siw's initiator sets MPA_V2_PEER_TO_PEER only when its compile-time
# peer_to_peer is true (siw_connect()); it is false (siw_main.c).
port=19500
SRV_TIMEOUT=90
if [ $E810 = 1 ]; then
	OUT=$(mktemp)
	serve "$port" rping -s -a "$MY_IP" -p "$port" -S 64 -V -v
	# The listener stays up until the siw client gave up (or timeout).
	wait $SRV_PID
	cnt=$(grep -c '^server ping data' "$OUT")
	expect_eq "siw->E810: iterations the E810 server served" 0 "$cnt"
	grep -v 'ping data' "$OUT" | tail -4 | sed 's/^/  e810 server: /'
	rm -f "$OUT"
else
	cap=$(mktemp)
	# A packet socket on the netdev records the segments of the port.
	timeout 90 python3 - "$nd" "$port" >"$cap" 2>&1 <<'EOF' &
import socket, struct, sys
nd, port = sys.argv[1], int(sys.argv[2])
# ETH_P_ALL: a socket of one protocol does not see outgoing frames
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind((nd, 0))
while True:
    f = s.recv(65535)
    ip = f[14:]
    if f[12:14] != b'\x08\x00' or ip[9] != 6:
        continue
    ihl = (ip[0] & 15) * 4
    tcp = ip[ihl:]
    sp, dp = struct.unpack('!HH', tcp[:4])
    if port not in (sp, dp):
        continue
    flags = tcp[13]
    data = tcp[(tcp[12] >> 4) * 4:struct.unpack('!H', ip[2:4])[0] - ihl]
    names = ''.join(n for b, n in ((2, 'S'), (16, 'A'), (8, 'P'), (1, 'F'),
                                   (4, 'R')) if flags & b)
    line = '%s:%d>%s:%d %s len %d' % (socket.inet_ntoa(ip[12:16]), sp,
                                      socket.inet_ntoa(ip[16:20]), dp,
                                      names, len(data))
    if data[:16] in (b'MPA ID Req Frame', b'MPA ID Rep Frame'):
        mflags, rev, pdlen = data[16], data[17], struct.unpack('!H', data[18:20])[0]
        line += ' %s rev %d flags 0x%02x pd %d' % (data[:16].decode(), rev,
                                                   mflags, pdlen)
        if rev == 2 and mflags & 0x10 and len(data) >= 24:
            ird, ord_ = struct.unpack('!HH', data[20:24])
            line += ' ird 0x%04x ord 0x%04x p2p %d' % (ird, ord_, ird >> 15)
    print(line, flush=True)
EOF
	cpid=$!
	sleep 2
	await "$E810_IP" "$port"
	OUT=$(mktemp)
	t0=$SECONDS
	timeout 60 rping -c -a "$E810_IP" -p "$port" -S 64 -C 5 -V -v >"$OUT" 2>&1
	rc=$?
	cnt=$(grep -c '^ping data' "$OUT")
	echo "siw->E810 rping client: rc $rc after $((SECONDS - t0)) s, $cnt iteration(s)"
	grep -v 'ping data' "$OUT" | tail -4 | sed 's/^/  siw client: /'
	sleep 2
	kill "$cpid" 2>/dev/null
	wait "$cpid" 2>/dev/null
	echo "siw->E810 on the wire (node 1's packet socket):"
	sed 's/^/  /' "$cap" | head -20
	[ "$rc" -ne 0 ] && [ "$cnt" = 0 ] &&
		ok "siw->E810: the siw client did not connect (rc $rc)" ||
		fail "siw->E810: the siw client connected (rc $rc, $cnt iterations)"
	grep -qE "^$SIW_IP:[0-9]+>$E810_IP:$port .*MPA ID Req Frame rev 2 flags 0x[0-9a-f]+ pd [0-9]+ ird 0x[0-9a-f]+ ord 0x[0-9a-f]+ p2p 0" "$cap" &&
		ok "siw->E810: siw sent an MPA v2 request without the peer-to-peer bit" ||
		fail "siw->E810: no MPA v2 request without P2P seen"
	grep -q "MPA ID Rep Frame" "$cap" &&
		fail "siw->E810: the E810 sent an MPA reply" ||
		ok "siw->E810: no MPA reply from the E810"
	grep -qE "^$E810_IP:$port>$SIW_IP:[0-9]+ [SAPF]*R" "$cap" &&
		ok "siw->E810: the E810 reset the connection (RST)" ||
		fail "siw->E810: no RST from the E810"
	rm -f "$OUT" "$cap"
fi

# ---- teardown and the kernel log -----------------------------------------------
if [ $E810 = 0 ]; then
	wait_for "[ -z \"\$(rdma resource show qp link siw0/1 2>/dev/null)\" ]" 10 ||
		fail "siw0 still holds QPs: $(rdma resource show qp link siw0/1)"
	rdma link delete siw0 || fail "rdma link delete siw0"
	rmmod siw && ok "siw unloads" || fail "rmmod siw"
	# (siw may be the first out-of-tree module of the boot: the taint)
	bad=$(new_dmesg | grep -iE 'siw|QP\[|MPA' |
		grep -vE 'SoftiWARP (attached|detached)|taints kernel|module verification failed')
	[ -z "$bad" ] && ok "no kernel line from siw but attach/detach" ||
		{ fail "siw logged:"; head -10 <<<"$bad"; }
fi
dmesg_clean >/dev/null && ok "no oops, warning or leak in dmesg" ||
	{ fail "dmesg shows problems"; dmesg_clean | head -10; }
finish
