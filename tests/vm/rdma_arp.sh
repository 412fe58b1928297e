#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 300
# boot: shared
# also-parent: ice
# The engine's ARP cache follows the netdev (irdma debugfs "arp"): each of
# its addresses has a "local" entry with the netdev's MAC once added, none
# once removed; a MAC change (ip link set address) rewrites the local MAC
# table entry (counted in debugfs events local_mac_updates) and every
# local ARP entry; rmmod deletes them all cleanly.
. "$E810_LIB"

sysctl -qw net.ipv6.conf.all.accept_dad=0
sysctl -qw net.ipv6.conf.default.accept_dad=0
d=$(e810_pci_devs | head -1)
nd=$(e810_netdev_of "$d")
aux=$(e810_aux_of "$d")
rdma_wait_all_active 15 || fail "ports not ACTIVE"
arp=/sys/kernel/debug/irdma/$aux/arp
[ -r "$arp" ] || { fail "$arp missing"; finish; }

mac() { cat "/sys/class/net/$nd/address"; }
# has_local IP MAC: a local entry for IP (as debugfs prints it) with MAC.
has_local() { grep -Eq "^ *[0-9]+ $1 $2 local refs 0$" "$arp"; }
n_local() { grep -c " local " "$arp"; }

base=$(n_local)
m0=$(mac)
ip addr add 192.168.82.1/24 dev "$nd" || fail "ip addr add IPv4"
ip addr add 2001:db8:82::1/64 dev "$nd" nodad || fail "ip addr add IPv6"
wait_for "has_local 192.168.82.1 $m0" 10 && ok "local ARP entry for 192.168.82.1 with $m0" ||
	fail "no local ARP entry for 192.168.82.1"
wait_for "has_local 2001:db8:82::1 $m0" 10 && ok "local ARP entry for 2001:db8:82::1" ||
	fail "no local ARP entry for 2001:db8:82::1"
sed 's/^/  /' "$arp"
expect_eq "local entries after adding two addresses" $((base + 2)) "$(n_local)"

# A MAC change moves every local entry to the new MAC.
m1=02:00:00:e8:10:77
macs0=$(irdma_ev "$d" local_mac_updates)
ip link set dev "$nd" address "$m1" || fail "ip link set address $m1"
wait_for "has_local 192.168.82.1 $m1 && has_local 2001:db8:82::1 $m1" 10 &&
	ok "local entries rewritten with $m1" || fail "local entries keep the old MAC"
grep -q " $m0 local" "$arp" && fail "an entry still has $m0" || ok "no entry with the old MAC"
expect_eq "local MAC table entry rewritten (irdma events local_mac_updates)" \
	$((macs0 + 1)) "$(irdma_ev "$d" local_mac_updates)"
ip link set dev "$nd" address "$m0" || fail "ip link set address $m0"
wait_for "has_local 192.168.82.1 $m0" 10 && ok "MAC restored in the ARP cache" ||
	fail "MAC not restored"
expect_eq "local MAC table entry restored" $((macs0 + 2)) "$(irdma_ev "$d" local_mac_updates)"

ip addr del 192.168.82.1/24 dev "$nd"
ip addr del 2001:db8:82::1/64 dev "$nd"
wait_for "[ \$(n_local) = $base ]" 10 && ok "local entries removed with the addresses" ||
	fail "local entries left: $(n_local), want $base"

# Teardown deletes every entry through the CQP without errors.
ip addr add 192.168.82.1/24 dev "$nd"
wait_for "has_local 192.168.82.1 $m0" 10 || fail "entry not re-added"
rmmod irdma || fail "rmmod irdma"
modprobe irdma || fail "modprobe irdma"
rdma_wait_all_active 15 || fail "ports not ACTIVE after modprobe"
aux=$(e810_aux_of "$d")
wait_for "has_local 192.168.82.1 $m0" 10 && ok "entry present again after modprobe" ||
	fail "address not in the ARP cache after modprobe"
ip addr del 192.168.82.1/24 dev "$nd"

dmesg | grep -q "ARP entry .* not deleted\|still has .* users" &&
	fail "ARP teardown problems in dmesg" || ok "ARP teardown clean"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
