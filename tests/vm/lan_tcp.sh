#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice i40e
# timeout: 600
# boot: shared
# 64 MiB of random data over TCP between the two ports (port 1 in a
# network namespace), once in each direction: the receiver pipes what it
# got through sha256sum and the checksum and byte count must match the
# file that was sent. The guest has no nc/socat; python3 sockets are the
# two ends. Under i40e (the X722) the model's counters (QMP x-stats) saw
# TSO and the frames, and nothing dropped or malformed.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "NIC functions" 2 "${#devs[@]}"
a=$(e810_netdev_of "${devs[0]}")
b=$(e810_netdev_of "${devs[1]}")
e810_two_hosts "$a" "$b" || { fail "cannot set up the two hosts"; finish; }
ok "$a 192.168.81.1 and $b 192.168.81.2 (netns peer) up"

work=$(mktemp -d)
head -c 64M /dev/urandom >"$work/data"
want_sum=$(sha256sum <"$work/data" | cut -d' ' -f1)
want_len=$(stat -c %s "$work/data")
expect_eq "file size" 67108864 "$want_len"

# Receiver: accept one connection on $1:5001, copy it to stdout, write the
# byte count to $2 and "ready" to $3 once listening.
recv_py='
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((sys.argv[1], 5001))
s.listen(1)
open(sys.argv[3], "w").close()
c, _ = s.accept()
n = 0
out = sys.stdout.buffer
while True:
    b = c.recv(1 << 16)
    if not b:
        break
    out.write(b)
    n += len(b)
out.flush()
open(sys.argv[2], "w").write("%d\n" % n)
'
# Sender: copy stdin to $1:5001, then close.
send_py='
import socket, sys
c = socket.create_connection((sys.argv[1], 5001), timeout=120)
while True:
    b = sys.stdin.buffer.read(1 << 16)
    if not b:
        break
    c.sendall(b)
c.shutdown(socket.SHUT_WR)
c.close()
'

# transfer NAME SENDER-NS RECEIVER-NS RECEIVER-IP (NS "" = root namespace)
transfer() {
	local name=$1 sns=() rns=() t0 t1 got_sum got_len
	[ -n "$2" ] && sns=(ip netns exec "$2")
	[ -n "$3" ] && rns=(ip netns exec "$3")
	rm -f "$work/ready" "$work/len" "$work/sum"
	"${rns[@]}" python3 -c "$recv_py" "$4" "$work/len" "$work/ready" |
		sha256sum >"$work/sum" &
	local rpid=$!
	wait_for "[ -e $work/ready ]" 10 || { fail "$name: receiver not listening"; return; }
	t0=$(date +%s.%N)
	"${sns[@]}" python3 -c "$send_py" "$4" <"$work/data" ||
		fail "$name: sender failed"
	wait "$rpid"
	t1=$(date +%s.%N)
	got_sum=$(cut -d' ' -f1 <"$work/sum")
	got_len=$(cat "$work/len" 2>/dev/null)
	expect_eq "$name: bytes received" "$want_len" "$got_len"
	expect_eq "$name: sha256 of what was received" "$want_sum" "$got_sum"
	echo "$name: $(python3 -c "print('%.1f MB/s' % ($want_len / 1e6 / ($t1 - $t0)))")"
}

transfer "192.168.81.1 -> .2" "" peer 192.168.81.2
transfer "192.168.81.2 -> .1" peer "" 192.168.81.1

# RSS: sixteen connections from different source ports spread over more
# than one Rx queue of the receiver (Toeplitz hash, LUT over its queues).
# ice fills its hash key at random on every probe, so which queue a flow
# lands on is a coin toss per flow: with two queues, eight flows all land
# on one of them once in 128 runs, sixteen once in 32768.
# ice_lite runs one queue pair, so only the stock ice and i40e are asked
# (their per-queue counters: ice's rx_queue_<N>_packets, i40e's
# rx-<N>.packets).
if [ "$E810_PARENT" != ice_lite ]; then
	rxq_counts() {
		ip netns exec peer ethtool -S "$b" |
			sed -n -e 's/^ *rx_queue_\([0-9]*\)_packets: //p' \
				-e 's/^ *rx-\([0-9]*\)\.packets: //p' | xargs
	}
	before=($(rxq_counts))
	head -c 512K /dev/urandom >"$work/small"
	for i in $(seq 1 16); do
		rm -f "$work/ready"
		ip netns exec peer python3 -c "$recv_py" 192.168.81.2 \
			"$work/len" "$work/ready" >/dev/null &
		wait_for "[ -e $work/ready ]" 10 || fail "RSS flow $i: no receiver"
		python3 -c "$send_py" 192.168.81.2 <"$work/small" ||
			fail "RSS flow $i: sender failed"
		wait
	done
	after=($(rxq_counts))
	used=0
	for i in "${!after[@]}"; do
		[ $(( after[i] - ${before[i]:-0} )) -gt 100 ] && used=$((used + 1))
	done
	[ "$used" -gt 1 ] && ok "16 flows spread over $used Rx queues of $b" ||
		fail "16 flows used $used Rx queue(s) of $b: before ${before[*]}, after ${after[*]}"
fi

for c in rx_errors tx_errors tx_dropped; do
	expect_eq "$a $c" 0 "$(cat "/sys/class/net/$a/statistics/$c")"
	expect_eq "$b $c" 0 "$(ip netns exec peer cat "/sys/class/net/$b/statistics/$c")"
done
rm -rf "$work"
# The X722 model's own view (QMP x-stats): nothing dropped, no malformed
# descriptor or context, no HMC or DMA fault, no admin queue command it
# does not know; TSO segments and frames both ways.
if [ "$E810_PARENT" = i40e ]; then
	for q in x722-0 x722-1; do
		st=$(e810_qom_str "$q" x-stats) || { fail "$q: no x-stats"; continue; }
		for c in tx_dropped tx_bad_desc bad_ctx hmc_faults dma_errors aq_unknown; do
			expect_eq "$q model $c" 0 "$(grep -o "\b$c=[0-9]*" <<<"$st" | cut -d= -f2)"
		done
		for c in tx_tso_segs rx_packets; do
			n=$(grep -o "\b$c=[0-9]*" <<<"$st" | cut -d= -f2)
			[ "${n:-0}" -gt 1000 ] && ok "$q model $c = $n" ||
				fail "$q model $c = '$n'"
		done
	done
fi
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
