#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# rdma-driver: ours stock
# timeout: 600
# boot: shared
# also-parent: ice
# RDMA CM over RoCEv2 between irdma0 and irdma1 (port 1 in namespace
# "peer", so every MAD and data packet crosses the emulated hub). Needs the
# GSI QP: ib_mad must have opened port 1 of both devices at registration
# (no "Couldn't create ib_mad QP1" / "Couldn't open port" in the log, a
# kernel QP 1 of type GSI in `rdma resource show qp`). Then, once with the
# stock provider and once with ours (E810_PROVIDER, provider_env):
#   * rping -v -V -C 20 at two sizes: both sides exit 0, the client prints
#     exactly 20 "ping data" lines and each is the pattern rping writes for
#     its ping number (checked here independently of rping's own -V);
#   * ucmatose: 3 connections x 10 messages, both sides exit 0 and report
#     "data transfers complete" and "return status 0";
#   * udaddy (UD through SIDR): 3 "connections" x 10 messages, same checks.
# Then, under our irdma, a send error on QP 1 of e810-0 (the model's x-inject-ud-send-error
# knob fails ib_mad's next MAD send as a bad lkey would): ib_mad moves QP 1
# SQE -> RTS (ib_mad_send_error()), QP 1 is in RTS again and an rping
# connection set up afterwards works (the connection whose CM REQ failed
# may fail, it is not judged).
# The kernel log must stay clean. MAD traffic needs kernel AHs created
# and destroyed without sleeping (ib_cm holds spinlocks) and STag 0 on
# privileged QPs (ib_mad's buffers use the local DMA lkey): see
# build/notes/requests-K3.md.
. "$E810_LIB"

RPING_COUNT=20
RPING_SIZES="64 4000"
CM_CONN=3
CM_MSGS=10

devs=($(e810_pci_devs))
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 e810 functions, got ${#devs[@]}"; finish; }
nd0=$(e810_netdev_of "${devs[0]}")
nd1=$(e810_netdev_of "${devs[1]}")
ib0=$(e810_ibdev_of "${devs[0]}")
ib1=$(e810_ibdev_of "${devs[1]}")
[ -n "$ib0" ] && [ -n "$ib1" ] || { fail "ib_devices missing ($ib0/$ib1)"; finish; }
rdma_wait_all_active 15 || fail "ports not ACTIVE"

# ---- the GSI QP --------------------------------------------------------
bad=$(dmesg | grep -E "ib_mad|Couldn't (create|open)")
if [ -z "$bad" ]; then
	ok "ib_mad opened port 1 of $ib0 and $ib1 (no ib_mad error)"
else
	fail "ib_mad errors at registration:"
	echo "$bad" | sed 's/^/  /'
fi
for ib in "$ib0" "$ib1"; do
	line=$(rdma resource show qp link "$ib/1" lqpn 1 2>/dev/null)
	if echo "$line" | grep -q 'type GSI' && echo "$line" | grep -q 'state RTS'; then
		ok "$ib: QP 1 is a GSI QP in RTS"
	else
		fail "$ib: no GSI QP 1 in RTS: '$line'"
	fi
done

for m in ib_uverbs rdma_ucm; do
	modprobe "$m" || fail "modprobe $m"
done
e810_two_hosts "$nd0" "$nd1" || { fail "could not set up the two hosts"; finish; }
# The peer must be reachable over the hub before the CM resolves it.
ping -c 2 -W 2 192.168.81.2 >/dev/null || fail "no IP path to 192.168.81.2"

# listening PORT: waits until an RDMA-CM id listens on 192.168.81.2:PORT
# (rdma_cm's restrack entry, state LISTEN), at most 10 s. A client
# started before its server listens gets a REJ (a SIDR REP "unsupported",
# RDMA_CM_EVENT_UNREACHABLE, for udaddy) and fails; a fixed sleep lost
# that race on a loaded host.
listening() {
	local i
	for ((i = 0; i < 100; i++)); do
		rdma resource show cm_id 2>/dev/null | grep 'state LISTEN' |
			grep -Eq "192\.168\.81\.2:$1( |\$)" && return 0
		nap 0.1
	done
	echo "no RDMA-CM listener on port $1 after 10 s"
}

# Expected rping client lines for COUNT pings of SIZE bytes: the message
# "rdma-ping-N: " then letters from 'A' + N (wrapping 'z' -> 'A'), SIZE - 1
# bytes in all (rping ends the buffer with NUL).
rping_expect() {
	python3 - "$1" "$2" <<'EOF'
import sys
count, size = int(sys.argv[1]), int(sys.argv[2])
start = 65
for n in range(count):
    b = bytearray(("rdma-ping-%d: " % n).encode())
    c = start
    while len(b) < size - 1:
        b.append(c)
        c = 65 if c >= 122 else c + 1
    start = 65 if start >= 122 else start + 1
    print("ping data: " + b[:size - 1].decode())
EOF
}

# run_rping SIZE: server in "peer" on 192.168.81.2, client from the init
# namespace. Both exit 0, data printed and equal to the pattern.
run_rping() {
	local size=$1 srv cli sp crc src exp got
	srv=$(mktemp) cli=$(mktemp) exp=$(mktemp)
	# stderr apart: rping's unbuffered event messages would land inside
	# the (buffered) data lines.
	ip netns exec peer timeout 40 rping -s -a 192.168.81.2 -p 7174 \
		-C "$RPING_COUNT" -S "$size" -v -V >"$srv" 2>"$srv.err" &
	sp=$!
	listening 7174
	timeout 30 rping -c -a 192.168.81.2 -p 7174 -C "$RPING_COUNT" \
		-S "$size" -v -V >"$cli" 2>"$cli.err"
	crc=$?
	wait "$sp"
	src=$?
	rping_expect "$RPING_COUNT" "$size" >"$exp"
	got=$(grep -c '^ping data: ' "$cli")
	if [ $crc -eq 0 ] && [ $src -eq 0 ] && [ "$got" -eq "$RPING_COUNT" ] &&
	   diff -q <(grep '^ping data: ' "$cli") "$exp" >/dev/null &&
	   [ "$(grep -c '^server ping data: ' "$srv")" -eq "$RPING_COUNT" ]; then
		ok "$E810_PROVIDER_NAME: rping -C $RPING_COUNT -S $size: $got pings, data equal to the pattern on both sides"
	else
		fail "$E810_PROVIDER_NAME: rping -S $size (client rc $crc, server rc $src, $got ping lines)"
		[ "$got" -gt 0 ] &&
			diff <(grep '^ping data: ' "$cli") "$exp" | cut -c1-160 |
			head -6 | sed 's/^/  diff: /'
		cat "$cli.err" "$cli" | cut -c1-160 | tail -4 | sed 's/^/  client: /'
		cat "$srv.err" "$srv" | cut -c1-160 | tail -4 | sed 's/^/  server: /'
	fi
	rm -f "$srv" "$cli" "$exp" "$srv.err" "$cli.err"
}

# run_cm TOOL PORT: TOOL (ucmatose or udaddy, listening on PORT: their
# fixed ports) server in "peer", client here;
# CM_CONN connections of CM_MSGS messages each way.
run_cm() {
	local tool=$1 port=$2 srv cli sp crc src
	srv=$(mktemp) cli=$(mktemp)
	ip netns exec peer timeout 50 "$tool" -b 192.168.81.2 -c "$CM_CONN" \
		-C "$CM_MSGS" >"$srv" 2>&1 &
	sp=$!
	listening "$port"
	timeout 40 "$tool" -s 192.168.81.2 -b 192.168.81.1 -c "$CM_CONN" \
		-C "$CM_MSGS" >"$cli" 2>&1
	crc=$?
	wait "$sp"
	src=$?
	if [ $crc -eq 0 ] && [ $src -eq 0 ] &&
	   grep -q '^data transfers complete' "$cli" &&
	   grep -q '^data transfers complete' "$srv" &&
	   grep -q '^return status 0' "$cli" && grep -q '^return status 0' "$srv"; then
		ok "$E810_PROVIDER_NAME: $tool -c $CM_CONN -C $CM_MSGS: both sides complete, status 0"
	else
		fail "$E810_PROVIDER_NAME: $tool (client rc $crc, server rc $src)"
		cut -c1-160 "$cli" | tail -5 | sed 's/^/  client: /'
		cut -c1-160 "$srv" | tail -5 | sed 's/^/  server: /'
	fi
	rm -f "$srv" "$cli"
}

for E810_PROVIDER in ${PROVIDERS_OVERRIDE:-stock ours}; do
	provider_env
	for s in $RPING_SIZES; do
		run_rping "$s"
	done
	run_cm ucmatose 7471
	run_cm udaddy 7174
done

# ---- a send error on QP 1: ib_mad's SQE -> RTS recovery ---------------
gsi_send_error() {
	local srv cli sp crc src reply line got
	srv=$(mktemp) cli=$(mktemp)
	reply=$(host_qmp '{"execute":"qom-set","arguments":{"path":"/machine/peripheral/e810-0","property":"x-inject-ud-send-error","value":1}}') ||
		{ fail "qom-set x-inject-ud-send-error: $reply"; return; }
	ip netns exec peer timeout 90 rping -s -a 192.168.81.2 -p 7175 \
		-C "$RPING_COUNT" -S 64 -v >"$srv" 2>&1 &
	sp=$!
	listening 7175
	# The CM REQ of this one is the MAD that fails.
	timeout 30 rping -c -a 192.168.81.2 -p 7175 -C "$RPING_COUNT" -S 64 \
		-v >/dev/null 2>&1
	crc=$?
	echo "rping with the failing MAD: rc $crc"
	if [ $crc -eq 0 ]; then
		# another MAD failed: this server is done, start the next one
		wait "$sp"
		ip netns exec peer timeout 60 rping -s -a 192.168.81.2 -p 7175 \
			-C "$RPING_COUNT" -S 64 -v >"$srv" 2>&1 &
		sp=$!
		listening 7175
	fi
	reply=$(host_qmp '{"execute":"qom-get","arguments":{"path":"/machine/peripheral/e810-0","property":"x-inject-ud-send-error"}}')
	case "$reply" in
	*'"return": 0'*) ok "the injected QP 1 send error happened" ;;
	*) fail "the injected QP 1 send error did not happen: $reply" ;;
	esac
	wait_for "rdma resource show qp link $ib0/1 lqpn 1 | grep -q 'state RTS'" 10
	line=$(rdma resource show qp link "$ib0/1" lqpn 1 2>/dev/null)
	if echo "$line" | grep -q 'state RTS'; then
		ok "$ib0: QP 1 back in RTS after the send error"
	else
		fail "$ib0: QP 1 not in RTS after the send error: '$line'"
	fi
	timeout 40 rping -c -a 192.168.81.2 -p 7175 -C "$RPING_COUNT" -S 64 \
		-v >"$cli" 2>&1
	crc=$?
	wait "$sp"
	src=$?
	got=$(grep -c '^ping data: ' "$cli")
	if [ $crc -eq 0 ] && [ $src -eq 0 ] && [ "$got" -eq "$RPING_COUNT" ]; then
		ok "rping connection after the QP 1 send error: $got pings, both sides exit 0"
	else
		fail "rping after the QP 1 send error (client rc $crc, server rc $src, $got ping lines)"
		tail -4 "$cli" | sed 's/^/  client: /'
		tail -4 "$srv" | sed 's/^/  server: /'
	fi
	rm -f "$srv" "$cli"
}
# the stock irdma.ko moves QP 1 to ERR on the AE (upstream's
# irdma_process_aeq()), so ib_mad cannot recover it there: ours only
[ "${E810_RDMA_DRIVER:-ours}" = stock ] || gsi_send_error

bad=$(dmesg | grep -E 'on MAD QP|ib_mad_send_error|CQP hung')
if [ -z "$bad" ]; then
	ok "no MAD QP errors or CQP hangs logged"
else
	fail "MAD/QP errors in the kernel log:"
	echo "$bad" | head -10 | sed 's/^/  /'
fi
if out=$(dmesg_clean); then
	ok "kernel log clean"
else
	fail "kernel log:"
	echo "$out" | sed 's/^/  /'
fi
# The kernel log is context for a failure, never a verdict.
[ "${E810_FAILS:-0}" -gt 0 ] &&
	dmesg | grep -E 'irdma|ib_mad|ib_cm|rdma_cm' | tail -15 | sed 's/^/  dmesg: /'
finish
