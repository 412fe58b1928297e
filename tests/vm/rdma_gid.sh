#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# timeout: 300
# boot: shared
# ib_core's RoCE GID management fills irdma's GID table from the netdev:
# after `ip addr add` the sysfs GID table holds the RoCEv2 GIDs of the
# IPv4 address (::ffff:a.b.c.d) and of the IPv6 address, next to the
# link-local one; removing the addresses removes the GIDs.
. "$E810_LIB"

sysctl -qw net.ipv6.conf.all.accept_dad=0
sysctl -qw net.ipv6.conf.default.accept_dad=0
d=$(e810_pci_devs | head -1)
nd=$(e810_netdev_of "$d")
rdma_wait_all_active 15 || fail "ports not ACTIVE"
ib=$(e810_ibdev_of "$d")
[ -n "$ib" ] || { fail "$d: no ib_device"; finish; }
port=/sys/class/infiniband/$ib/ports/1

# "gid type" lines of every non-zero GID of the table.
gids() {
	local i g
	for i in $(ls "$port/gids" | sort -n); do
		g=$(cat "$port/gids/$i")
		[ "$g" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
		echo "$g $(cat "$port/gid_attrs/types/$i" 2>/dev/null)"
	done
}
has_gid() { gids | grep -qx "$1 RoCE v2"; }

ip addr add 192.168.81.1/24 dev "$nd" || fail "ip addr add IPv4"
ip addr add 2001:db8:81::1/64 dev "$nd" nodad || fail "ip addr add IPv6"
v4=0000:0000:0000:0000:0000:ffff:c0a8:5101
v6=2001:0db8:0081:0000:0000:0000:0000:0001
wait_for "has_gid $v4" 10 && ok "IPv4 RoCEv2 GID $v4" || fail "no RoCEv2 GID for 192.168.81.1"
wait_for "has_gid $v6" 10 && ok "IPv6 RoCEv2 GID $v6" || fail "no RoCEv2 GID for 2001:db8:81::1"
ll=$(ip -6 addr show dev "$nd" scope link | sed -n 's/.*inet6 \(fe80[^/]*\).*/\1/p')
llgid=$(python3 -c "import ipaddress,sys; print(':'.join(ipaddress.IPv6Address(sys.argv[1]).exploded.split(':')))" "$ll")
has_gid "$llgid" && ok "link-local RoCEv2 GID $llgid" || fail "no RoCEv2 GID for $ll"
# Only RoCEv2 (UDP encapsulation) GIDs: no RoCE v1 entries.
gids | grep -q "IB/RoCE v1" && fail "RoCE v1 GIDs present" || ok "no RoCE v1 GIDs"
gids | sed 's/^/  /'

ip addr del 192.168.81.1/24 dev "$nd"
ip addr del 2001:db8:81::1/64 dev "$nd"
wait_for "! has_gid $v4 && ! has_gid $v6" 10 && ok "GIDs removed with the addresses" ||
	fail "GIDs left after ip addr del"

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
