#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: x722
# parent: i40e
# rdma-driver: none
# timeout: 600
# boot: shared
# The two X722 ports under the stock i40e as two hosts (port 1 in a
# network namespace) on the QEMU hub: 100 pings each way without a loss
# (ping checks every reply's payload), ARP resolves each side to the
# other's MAC, then 16 MiB of random data over TCP in each direction
# (TSO and checksum offload as i40e enables them), the receiver's byte
# count and sha256 equal to the sender's; the netdev and model counters
# saw the traffic with no drops or malformed descriptors.
. "$E810_LIB"

x722_pci_devs() {
	local d
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = 0x8086 ] && [ "$(cat "$d/device")" = 0x37d0 ] &&
			echo "${d##*/}"
	done
}

x722_stat() {
	local reply
	reply=$(host_qmp "{\"execute\":\"qom-get\",\"arguments\":{\"path\":\"/machine/peripheral/$1\",\"property\":\"x-stats\"}}") ||
		return 1
	grep -o "\b$2=[0-9]*" <<<"$reply" | cut -d= -f2
}

mapfile -t devs < <(x722_pci_devs)
expect_eq "x722 functions" 2 "${#devs[@]}"
[ "${#devs[@]}" = 2 ] || finish
wait_for "[ -n \"\$(e810_netdev_of ${devs[0]})\" ] && [ -n \"\$(e810_netdev_of ${devs[1]})\" ]" 30
a=$(e810_netdev_of "${devs[0]}")
b=$(e810_netdev_of "${devs[1]}")
mac_a=$(cat "/sys/class/net/$a/address")
mac_b=$(cat "/sys/class/net/$b/address")
e810_two_hosts "$a" "$b" || { fail "cannot set up the two hosts"; finish; }
ok "$a 192.168.81.1 and $b 192.168.81.2 (netns peer) up"
echo "offloads of $a: $(ethtool -k "$a" 2>/dev/null | grep -E '^(tcp-segmentation-offload|tx-checksumming|rx-checksumming):' | tr '\n' ' ')"

nstat() { cat "/sys/class/net/$a/statistics/$1"; }
tx0=$(nstat tx_packets)
rx0=$(nstat rx_packets)

ping_ok() {
	if grep -q '^100 packets transmitted, 100 received, 0% packet loss' <<<"$2"; then
		ok "$1: $(grep 'packets transmitted' <<<"$2")"
	else
		fail "$1: $(grep 'packets transmitted' <<<"$2" || tail -n 3 <<<"$2")"
	fi
}
ping_ok "ping 192.168.81.1 -> .2" "$(ping -c 100 -i 0.01 -W 2 192.168.81.2 2>&1)"
ping_ok "ping 192.168.81.2 -> .1" \
	"$(ip netns exec peer ping -c 100 -i 0.01 -W 2 192.168.81.1 2>&1)"
expect_eq "neighbour .2 seen from $a" "$mac_b" \
	"$(ip neigh show 192.168.81.2 dev "$a" | awk '{ print $3 }')"
expect_eq "neighbour .1 seen from $b" "$mac_a" \
	"$(ip -n peer neigh show 192.168.81.1 dev "$b" | awk '{ print $3 }')"
tx=$(($(nstat tx_packets) - tx0))
rx=$(($(nstat rx_packets) - rx0))
[ "$tx" -ge 200 ] && ok "$a sent $tx packets" || fail "$a sent only $tx packets"
[ "$rx" -ge 200 ] && ok "$a received $rx packets" || fail "$a received only $rx packets"

work=$(mktemp -d)
head -c 16M /dev/urandom >"$work/data"
want_sum=$(sha256sum <"$work/data" | cut -d' ' -f1)
want_len=$(stat -c %s "$work/data")
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
	timeout 300 "${sns[@]}" python3 -c "$send_py" "$4" <"$work/data" ||
		fail "$name: sender failed"
	wait "$rpid"
	t1=$(date +%s.%N)
	got_sum=$(cut -d' ' -f1 <"$work/sum")
	got_len=$(cat "$work/len" 2>/dev/null)
	expect_eq "$name: bytes received" "$want_len" "$got_len"
	expect_eq "$name: sha256 of what was received" "$want_sum" "$got_sum"
	echo "$name: $(python3 -c "print('%.1f MB/s' % ($want_len / 1e6 / ($t1 - $t0)))")"
}
transfer "$a -> $b" "" peer 192.168.81.2
transfer "$b -> $a" peer "" 192.168.81.1

for c in rx_errors tx_errors tx_dropped; do
	expect_eq "$a $c" 0 "$(nstat $c)"
	expect_eq "$b $c" 0 "$(ip netns exec peer cat /sys/class/net/$b/statistics/$c)"
done
for q in x722-0 x722-1; do
	for c in tx_dropped tx_bad_desc bad_ctx hmc_faults dma_errors aq_unknown; do
		expect_eq "$q model $c" 0 "$(x722_stat $q $c)"
	done
	echo "$q: tso segments $(x722_stat $q tx_tso_segs), rx $(x722_stat $q rx_packets), tx $(x722_stat $q tx_packets)"
done
if dmesg_clean; then
	ok "no oops, warning or leak in dmesg"
else
	fail "dmesg shows problems"
	dmesg | grep -B 3 -A 14 -E 'WARNING:|Call Trace:' | head -80
fi
finish
