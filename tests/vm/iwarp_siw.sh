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

iwsiw_setup stock
RPING_RUNS="64:100 1000:100 4096:100 9000:50 65535:50"	# size:iterations

start_all=$SECONDS
iwsiw_rpings siw 19300 "$RPING_RUNS"
iwsiw_perftests siw 19400 65536 1000
echo "time: $((SECONDS - start_all)) s of E810->siw traffic ($ROLE)"

# ---- siw client -> E810 server ---------------------------------------------------
# The stock irdma accepts an MPA v2 request only with the peer-to-peer bit
# in its IRD word (irdma_negotiate_mpa_v2_ird_ord() returns -EOPNOTSUPP
# without IETF_PEER_TO_PEER); irdma_recv_mpa() / irdma_cm_event_handler
# then reset the connection (irdma_passive_open_err(..., true): an RST).
# siw's initiator sets MPA_V2_PEER_TO_PEER only when its compile-time
# peer_to_peer is true (siw_connect()); it is false (siw_main.c).
port=19500
IWSIW_SRV_TIMEOUT=90
if [ $E810 = 1 ]; then
	OUT=$(mktemp)
	iwsiw_serve "$port" rping -s -a "$MY_IP" -p "$port" -S 64 -V -v
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
	iwsiw_await "$E810_IP" "$port"
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

iwsiw_teardown
finish
