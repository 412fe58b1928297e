#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice i40e
# timeout: 300
# boot: shared
# The two ports as two hosts (port 1 in a network namespace), on the QEMU
# hub: 100 pings each way at 10 ms intervals without a single loss (ping
# also checks every reply's payload), ARP resolves each side to the
# other's MAC, and the netdev counters saw the traffic without errors.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "NIC functions" 2 "${#devs[@]}"
a=$(e810_netdev_of "${devs[0]}")
b=$(e810_netdev_of "${devs[1]}")
mac_a=$(cat "/sys/class/net/$a/address")
mac_b=$(cat "/sys/class/net/$b/address")
e810_two_hosts "$a" "$b" || { fail "cannot set up the two hosts"; finish; }
ok "$a 192.168.81.1 and $b 192.168.81.2 (netns peer) up"

stat() { cat "/sys/class/net/$a/statistics/$1"; }
tx0=$(stat tx_packets)
rx0=$(stat rx_packets)

ping_ok "ping 192.168.81.1 -> .2" \
	"$(ping -c 100 -i 0.01 -W 2 192.168.81.2 2>&1)" 100
ping_ok "ping 192.168.81.2 -> .1" \
	"$(ip netns exec peer ping -c 100 -i 0.01 -W 2 192.168.81.1 2>&1)" 100

expect_eq "neighbour .2 seen from $a" "$mac_b" \
	"$(ip neigh show 192.168.81.2 dev "$a" | awk '{ print $3 }')"
expect_eq "neighbour .1 seen from $b" "$mac_a" \
	"$(ip -n peer neigh show 192.168.81.1 dev "$b" | awk '{ print $3 }')"

# 100 requests and 100 replies each way, plus ARP and IPv6 chatter.
tx=$(($(stat tx_packets) - tx0))
rx=$(($(stat rx_packets) - rx0))
[ "$tx" -ge 200 ] && ok "$a sent $tx packets" || fail "$a sent only $tx packets"
[ "$rx" -ge 200 ] && ok "$a received $rx packets" || fail "$a received only $rx packets"
for c in rx_errors tx_errors tx_dropped; do
	expect_eq "$a $c" 0 "$(stat $c)"
	expect_eq "$b $c" 0 "$(ip netns exec peer cat /sys/class/net/$b/statistics/$c)"
done
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
