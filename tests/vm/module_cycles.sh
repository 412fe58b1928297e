#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice i40e
# timeout: 900
# boot: shared
# Ten cycles (E810_CYCLES) of rmmod irdma <parent> / modprobe <parent> irdma (parent
# ice_lite, the stock ice, or the stock i40e on the X722, whose iWARP
# auxiliary devices no irdma of this run binds): every cycle
# unbinds and rebinds both functions, gives back MSI-X vectors, BAR0 and
# the auxiliary ids, removes both netdevs and brings them back with their
# MAC addresses and a carrier (every other cycle unloads with both ports
# up and a ping flowing between them), and the kernel log stays free of
# oopses and leaks.
# In iWARP mode (E810_RDMA_PROTOCOL=iwarp, our irdma: iwarp_module_cycles.sh
# runs this script) the ports are two hosts in init_net (iwarp_ours_pair),
# the odd cycles also unload under live connections (iw_live_start,
# iw_live_end after the rmmod of irdma), each function goes back to
# iWARP with its address after the parent's modprobe (iwarp_rebound),
# and a verified rping runs at the end with nothing left behind.
. "$E810_LIB"

# Under i40e the guest library says iwarp too (the X722 has no other
# protocol), but no irdma of that run binds: the LAN cycles only.
IW=0
[ "$E810_RDMA_PROTOCOL" = iwarp ] && [ "$E810_PARENT" != i40e ] &&
	IW=1 && iwarp_ours_pair
live=0

mapfile -t devs < <(e810_pci_devs)
expect_eq "NIC functions" 2 "${#devs[@]}"
# New netdevs get their IPv6 link-local address at once (no DAD wait).
sysctl -qw net.ipv6.conf.default.accept_dad=0
declare -A mac
for d in "${devs[@]}"; do
	nd=$(e810_netdev_of "$d")
	mac[$d]=$(cat "/sys/class/net/$nd/address" 2>/dev/null)
	[ -n "${mac[$d]}" ] || fail "$d has no netdev before the cycles"
done
cycles=${E810_CYCLES:-$((IW ? 4 : 10))}
for cycle in $(seq 1 "$cycles"); do
	# Odd cycles unload with both ports up and an IPv6 ping running.
	if [ $((cycle % 2)) = 1 ]; then
		for d in "${devs[@]}"; do
			ip link set "$(e810_netdev_of "$d")" up
		done
		nd=$(e810_netdev_of "${devs[1]}")
		wait_carrier "$nd" 10 || fail "cycle $cycle: $nd has no carrier"
		rx=/sys/class/net/$nd/statistics/rx_packets
		rx0=$(cat "$rx")
		ping -c 1000 -i 0.01 -I "$(e810_netdev_of "${devs[0]}")" \
			"ff02::1%$(e810_netdev_of "${devs[0]}")" >/dev/null 2>&1 &
		wait_for "[ \$(cat $rx) -ge $((rx0 + 20)) ]" 10 ||
			fail "cycle $cycle: the ping does not reach $nd"
		[ $IW = 1 ] && iw_live_start "cycle $cycle" && live=$((live + 1))
	fi
	rmmod irdma || fail "cycle $cycle: rmmod irdma"
	[ $IW = 1 ] && iw_live_end "cycle $cycle"
	[ -d /sys/kernel/debug/irdma ] && fail "cycle $cycle: irdma debugfs left behind"
	rmmod "$E810_PARENT" || fail "cycle $cycle: rmmod $E810_PARENT"
	left=$(ls -d /sys/bus/auxiliary/devices/"$E810_PARENT".*.* 2>/dev/null | wc -l)
	[ "$left" = 0 ] || fail "cycle $cycle: $left auxiliary devices left after rmmod"
	for d in "${devs[@]}"; do
		p=/sys/bus/pci/devices/$d
		[ "$(driver_of "$p")" = none ] || fail "cycle $cycle: $d still bound"
		n=$(ls "$p/msi_irqs" 2>/dev/null | wc -l)
		[ "$n" = 0 ] || fail "cycle $cycle: $d keeps $n MSI-X vectors"
	done
	grep -q ": $E810_PARENT\$" /proc/iomem && fail "cycle $cycle: BAR0 still claimed"
	for d in "${devs[@]}"; do
		nds=$(ls "/sys/bus/pci/devices/$d/net" 2>/dev/null | xargs)
		[ -z "$nds" ] || fail "cycle $cycle: $d keeps netdev '$nds'"
	done
	wait	# the ping ends when its netdev goes away
	modprobe "$E810_PARENT" || fail "cycle $cycle: modprobe $E810_PARENT"
	for d in "${devs[@]}"; do
		nd=$(e810_netdev_of "$d")
		[ -n "$nd" ] || { fail "cycle $cycle: $d has no netdev"; continue; }
		got=$(cat "/sys/class/net/$nd/address")
		[ "$got" = "${mac[$d]}" ] ||
			fail "cycle $cycle: $nd has MAC $got, not ${mac[$d]}"
		ip link set "$nd" up
		wait_carrier "$nd" 10 || fail "cycle $cycle: $nd has no carrier"
		ip link set "$nd" down
		[ $IW = 1 ] && iwarp_rebound "$d"
	done
	modprobe irdma || fail "cycle $cycle: modprobe irdma"
	for d in "${devs[@]}"; do
		wait_for "[ -n \"\$(e810_aux_of $d)\" ]" 10 ||
			{ fail "cycle $cycle: $d has no auxiliary device"; continue; }
		aux=$(e810_aux_of "$d")
		[ "$E810_PARENT" = i40e ] && continue
		wait_for "[ \"\$(module_of /sys/bus/auxiliary/devices/$aux)\" = irdma ]" 10 ||
			fail "cycle $cycle: $aux not bound to irdma"
	done
	# Ids come from an IDA: a leak would make them grow across cycles.
	# ice 6.12 numbers from 1, ice_lite and i40e from 0.
	want_ids="0 1"
	[ "$E810_PARENT" = ice ] && want_ids="1 2"
	ids=$(ls /sys/bus/auxiliary/devices/ | sed -n "s/^$E810_PARENT\.$E810_RDMA_PROTOCOL\.//p" | sort -n | xargs)
	[ "$ids" = "$want_ids" ] || fail "cycle $cycle: auxiliary ids are '$ids'"
done
ok "$cycles unload/load cycles done"
if [ $IW = 1 ]; then
	expect_eq "cycles unloaded under a live connection" $(((cycles + 1) / 2)) "$live"
	rdma_wait_all_active 15 || fail "ports not ACTIVE after the cycles"
	iw_cycles_end
fi
expect_eq "netdevs after the cycles" "${mac[${devs[0]}]} ${mac[${devs[1]}]}" \
	"$(for d in "${devs[@]}"; do cat "/sys/class/net/$(e810_netdev_of "$d")/address"; done | xargs)"
expect_eq "$E810_PARENT bound after the cycles" "$E810_PARENT $E810_PARENT" \
	"$(for d in "${devs[@]}"; do driver_of /sys/bus/pci/devices/$d; done | xargs)"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
