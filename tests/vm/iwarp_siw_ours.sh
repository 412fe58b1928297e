#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: pair
# parent: ice_lite
# rdma-driver: none
# rdma-protocol: iwarp
# timeout: 1500
# check: on-demand
# Our irdma's iWARP (docs/irdma.md "Connections", "Offload") against
# soft-iWARP (siw) on the other end of the wire, as iwarp_siw does for
# the stock irdma (guest library: iwsiw_*). Node 0 (192.168.90.1): our
# irdma (loaded here: rdma-driver none) on ice_lite in iWARP mode and our
# provider. Node 1 (192.168.90.2): siw (tools/build-siw.sh) on its e810
# netdev, no irdma.
#  - E810 client -> siw server, then siw client -> E810 server: rping -V -v
#    at 64 B, 1000 B, 4096 B, 9000 B and 65535 B (every iteration the
#    server READs the client's buffer and WRITEs it back, the client
#    compares, both sides count the iterations), ib_write_bw, ib_read_bw
#    and ib_send_bw -R 64 KiB x IWSO_BW_N (row, non-zero average). Per run
#    the model's engine counters on node 0 (x-iwarp-stats: stream bytes
#    each way, no CRC error, no Terminate, no bad checksum, no
#    out-of-order segment) and node 1's netdev bytes and kernel TCP
#    counters (nstat: no checksum error, nothing retransmitted).
#    siw's initiator asks MPA v2 without the peer-to-peer bit (siw_main.c
#    peer_to_peer false): our passive side accepts it without an RTR
#    (docs/irdma.md "MPA"), where the stock irdma resets (iwarp_siw).
#  - a listener destroyed while the connection it took lives (what
#    perftest -R's server does before it listens on the port again;
#    pyverbs, siw the client): the listen entry stays in the model's quad
#    hash, a kernel TCP SYN from node 1 to the port gets no answer (our
#    irdma drops it from the ILQ, rx_dropped) where the host stack would
#    reset it, a new listen on the port adopts the old listener without a
#    quad hash op and takes a second connection; when both close, the
#    listener and its entries are gone (docs/irdma.md "iWARP mode").
#  - node 0 at the end: our debugfs iwarp: an offload per connection, as
#    many established, no offload, connect or MPA error, no Terminate or
#    Terminate timeout, no connection node left; the model holds no
#    connection (conns 0), APBVT and quad hash empty.
#  - no kernel line from siw but attach/detach, clean dmesg on both.
# IWSO_RUNS (size:iterations list) and IWSO_BW_N shorten it.
. "$E810_LIB"

iwsiw_setup ours
RUNS=${IWSO_RUNS:-"64:100 1000:100 4096:100 9000:50 65535:50"}
BW_N=${IWSO_BW_N:-1000}
if [ $E810 = 1 ]; then
	aux=$(e810_aux_of "$dev")
	expect_eq "$aux: cm_nodes at start" 0 "$(iwdbg "$aux" cm_nodes)"
	iw_tables_empty "$dev" && ok "$dev: APBVT and quad hash empty at start" ||
		fail "$dev: tables at start: $(iw_table "$dev" apbvt_ports)"
fi

# ---- a listener destroyed while its connection lives -------------------
# The E810 serves (pyverbs' synchronous rdma_cm: rdma_create_ep), siw
# connects. Cues: the server's beacons on LPORT + 1000 (listening),
# + 1001 (listener destroyed), + 1002 (listening again).
LPORT=19990
cat >/tmp/iwso_cm.py <<'EOS'
import os, sys, time
from pyverbs.cmid import CMID, AddrInfo
from pyverbs.qp import QPCap, QPInitAttr
import pyverbs.cm_enums as ce
import pyverbs.enums as e

role, me, port = sys.argv[1], sys.argv[2], sys.argv[3]


def say(*a):
    print(*a, flush=True)


def cue(path, secs):
    for _ in range(secs * 5):
        if os.path.exists(path):
            return
        time.sleep(0.2)
    raise SystemExit('no cue ' + path)


def qp_attr():
    return QPInitAttr(qp_type=e.IBV_QPT_RC, cap=QPCap())


if role == 'server':
    def listen():
        ai = AddrInfo(src=me, src_service=port, port_space=ce.RDMA_PS_TCP,
                      flags=ce.RAI_PASSIVE)
        lid = CMID(creator=ai, qp_init_attr=qp_attr())
        lid.listen()
        return lid

    def serve(n, what):
        lid = listen()
        say(what)
        conn = lid.get_request()
        conn.accept()
        lid.close()
        say('accepted %d, listener destroyed' % n)
        return conn
    c1 = serve(1, 'listening')
    cue(sys.argv[4], 120)
    c2 = serve(2, 'listening again')
    cue(sys.argv[5], 120)
    say('done')
else:
    ai = AddrInfo(src=me, dst=sys.argv[4], dst_service=port,
                  port_space=ce.RDMA_PS_TCP)
    cid = CMID(creator=ai, qp_init_attr=qp_attr())
    cid.connect()
    say('connected')
    if len(sys.argv) > 5:
        cue(sys.argv[5], 120)
    else:
        time.sleep(1)
    cid.disconnect()
    cid.close()
    say('done')
EOS
if [ $E810 = 1 ]; then
	OUT=$(mktemp)
	rm -f /tmp/iwso_relisten /tmp/iwso_end
	IWSIW_SRV_TIMEOUT=300 iwsiw_serve $LPORT python3 /tmp/iwso_cm.py server \
		"$MY_IP" $LPORT /tmp/iwso_relisten /tmp/iwso_end
	wait_for "grep -q 'listener destroyed' $OUT" 120 ||
		fail "listener destroyed: no connection: $(tail -3 "$OUT")"
	expect_eq "$aux: destroyed listener kept for its connection" 1 \
		"$(grep -c "^listener port $LPORT .* conns 1 destroyed" "/sys/kernel/debug/irdma/$aux/iwarp")"
	case ",$(iw_table "$dev" qhash_entries)," in
	*",syn/$MY_IP:$LPORT/"*) ok "$dev: the listen entry of port $LPORT stays" ;;
	*) fail "$dev: no listen entry for port $LPORT: $(iw_table "$dev" qhash_entries)" ;;
	esac
	drops=$(iwdbg "$aux" rx_dropped)
	timeout 150 busybox nc -l -p $((LPORT + 1001)) </dev/null >/dev/null 2>&1 &
	# the probe's SYN and its retransmission 1 s later; the probe gives
	# up after 2 s, before the port is listened on again
	wait_for "[ \"\$(iwdbg $aux rx_dropped)\" -ge $((drops + 2)) ]" 120 &&
		ok "$aux: node 1's SYNs to the destroyed listener dropped from the ILQ" ||
		fail "$aux: SYNs dropped: $(($(iwdbg "$aux" rx_dropped) - drops)), want 2"
	nap 3
	adds=$(iw_table "$dev" qhash_adds)
	touch /tmp/iwso_relisten
	wait_for "grep -q 'listening again' $OUT" 60 ||
		fail "no second listen: $(tail -3 "$OUT")"
	expect_eq "$dev: quad hash adds for the second listen (adopted)" \
		"$adds" "$(iw_table "$dev" qhash_adds)"
	timeout 150 busybox nc -l -p $((LPORT + 1002)) </dev/null >/dev/null 2>&1 &
	wait_for "grep -q 'accepted 2' $OUT" 120 ||
		fail "no second connection: $(tail -3 "$OUT")"
	wait_for "[ \"\$(iwdbg $aux cm_nodes)\" = 0 ]" 120 ||
		fail "$aux: connections left: $(iwdbg "$aux" cm_nodes)"
	touch /tmp/iwso_end
	wait $SRV_PID
	rc=$?
	[ $rc = 0 ] && grep -q '^done' "$OUT" &&
		ok "pyverbs server: two connections on one port, listener destroyed under each" ||
		fail "pyverbs server: rc $rc: $(tail -3 "$OUT")"
	expect_eq "$aux: listeners after the connections closed" 0 \
		"$(iwdbg "$aux" listeners)"
	wait_for "iw_tables_empty $dev" 30 && ok "$dev: APBVT and quad hash empty" ||
		fail "$dev: left: $(iw_table "$dev" apbvt_ports) / $(iw_table "$dev" qhash_entries)"
	rm -f "$OUT"
else
	rm -f /tmp/iwso_done
	iwsiw_await "$E810_IP" $LPORT
	timeout 300 python3 /tmp/iwso_cm.py client "$MY_IP" $LPORT "$E810_IP" \
		/tmp/iwso_done >/tmp/iwso_c1.out 2>&1 &
	c1=$!
	iwsiw_await "$E810_IP" $((LPORT + 1))
	# a SYN the host stack of node 0 would reset at once
	timeout 2 bash -c "exec 3<>/dev/tcp/$E810_IP/$LPORT" 2>/dev/null
	rc=$?
	[ $rc = 124 ] &&
		ok "SYN to the destroyed listener unanswered (connect timed out)" ||
		fail "SYN to the destroyed listener: connect rc $rc (1: refused)"
	iwsiw_await "$E810_IP" $((LPORT + 2))
	timeout 120 python3 /tmp/iwso_cm.py client "$MY_IP" $LPORT "$E810_IP" \
		>/tmp/iwso_c2.out 2>&1
	rc=$?
	[ $rc = 0 ] && ok "second connection to the port listened on again" ||
		fail "second connection: rc $rc: $(tail -3 /tmp/iwso_c2.out)"
	touch /tmp/iwso_done
	wait $c1
	rc=$?
	[ $rc = 0 ] && ok "first connection ended cleanly" ||
		fail "first connection: rc $rc: $(tail -3 /tmp/iwso_c1.out)"
fi

IWSIW_CONNS=0
t0=$SECONDS
iwsiw_rpings siw 19300 "$RUNS"
iwsiw_perftests siw 19400 65536 "$BW_N"
echo "time: $((SECONDS - t0)) s of E810->siw traffic ($ROLE)"
t0=$SECONDS
iwsiw_rpings e810 19600 "$RUNS"
iwsiw_perftests e810 19700 65536 "$BW_N"
echo "time: $((SECONDS - t0)) s of siw->E810 traffic ($ROLE)"

if [ $E810 = 1 ]; then
	grep -E '^(cm_|terms_)' "/sys/kernel/debug/irdma/$aux/iwarp" | tr '\n' ' '
	echo
	wait_for "[ \"\$(iwdbg $aux cm_nodes)\" = 0 ]" 30 &&
		ok "$aux: no connection node left" ||
		fail "$aux: nodes left: $(grep '^conn ' "/sys/kernel/debug/irdma/$aux/iwarp" | tr '\n' ' ')"
	off=$(iwdbg "$aux" cm_offloads)
	[ "${off:-0}" -ge "$IWSIW_CONNS" ] &&
		ok "$aux: $off offloads for $IWSIW_CONNS connections" ||
		fail "$aux: $off offloads, want >= $IWSIW_CONNS"
	expect_eq "$aux: established = offloads" "$off" "$(iwdbg "$aux" cm_established)"
	for k in cm_offload_errors cm_connect_errors cm_mpa_bad terms_sent \
		terms_rcvd terms_timeouts; do
		expect_eq "$aux: $k" 0 "$(iwdbg "$aux" "$k")"
	done
	wait_for "[ \"\$(iw_stat $dev conns)\" = 0 ]" 30 &&
		ok "$dev: no offloaded connection left in the model" ||
		fail "$dev: model conns $(iw_stat "$dev" conns)"
	wait_for "iw_tables_empty $dev" 30 && ok "$dev: APBVT and quad hash empty" ||
		fail "$dev: left: $(iw_table "$dev" apbvt_ports) / $(iw_table "$dev" qhash_entries)"
fi
iwsiw_teardown
finish
