#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: x722
# parent: i40e
# rdma-driver: none
# timeout: 300
# boot: shared
# The two emulated X722 functions (docs/hw-model-x722.md) enumerate with
# the X722's identity and BAR layout, Debian's stock i40e probes both
# without a warning or an error of its own, each gets its netdev with the
# MAC the device was given, and the link comes up at 10 Gb/s; the same
# after two rmmod/modprobe cycles. The model's own counters (QMP x-stats)
# show no admin queue command it did not know.
. "$E810_LIB"

x722_pci_devs() {
	local d
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = 0x8086 ] && [ "$(cat "$d/device")" = 0x37d0 ] &&
			echo "${d##*/}"
	done
}

# x-stats counter $2 of device $1 (x722-0, x722-1), from QEMU over QMP.
x722_stat() {
	local reply
	reply=$(host_qmp "{\"execute\":\"qom-get\",\"arguments\":{\"path\":\"/machine/peripheral/$1\",\"property\":\"x-stats\"}}") ||
		return 1
	grep -o "\b$2=[0-9]*" <<<"$reply" | cut -d= -f2
}

mapfile -t devs < <(x722_pci_devs)
expect_eq "x722 functions on the bus" 2 "${#devs[@]}"
[ "${#devs[@]}" = 2 ] || finish
echo "--- i40e's log:"
dmesg | grep -E 'i40e' | head -60
for d in "${devs[@]}"; do
	[ "$(driver_of /sys/bus/pci/devices/$d)" = i40e ] ||
		{ fail "$d: i40e did not bind"; finish; }
done
wait_for "[ -n \"\$(e810_netdev_of ${devs[0]})\" ] && [ -n \"\$(e810_netdev_of ${devs[1]})\" ]" 30 ||
	fail "no netdevs after 30 s"
i=0
for d in "${devs[@]}"; do
	p=/sys/bus/pci/devices/$d
	expect_eq "$d revision" 0x09 "$(cat "$p/revision")"
	expect_eq "$d driver" i40e "$(driver_of "$p")"
	bar0=$(sed -n 1p "$p/resource")
	bar3=$(sed -n 4p "$p/resource")
	expect_eq "$d BAR0 size" $((16 << 20)) \
		$(( $(cut -d' ' -f2 <<<"$bar0") - $(cut -d' ' -f1 <<<"$bar0") + 1 ))
	expect_eq "$d BAR3 size" $((32 << 10)) \
		$(( $(cut -d' ' -f2 <<<"$bar3") - $(cut -d' ' -f1 <<<"$bar3") + 1 ))
	expect_eq "$d MSI-X capability" "Count=129" \
		"$(lspci -vv -s "$d" | grep -o 'MSI-X: Enable+ Count=[0-9]*' | cut -d' ' -f3)"
	nd=$(e810_netdev_of "$d")
	expect_eq "$d netdev MAC" "52:54:00:e8:10:0$i" "$(cat /sys/class/net/$nd/address)"
	ip link set "$nd" up
	if wait_carrier "$nd" 20; then
		ok "$nd carrier up"
	else
		fail "$nd no carrier"
	fi
	expect_eq "$nd speed" 10000 "$(cat /sys/class/net/$nd/speed 2>/dev/null)"
	i=$((i + 1))
done

# i40e's own warnings and errors (by log level, for these functions).
# Allowed, each for its reason:
#  - none so far.
bad=$(dmesg --level=emerg,alert,crit,err,warn | grep -E "i40e ($(IFS='|'; echo "${devs[*]}"))" )
if [ -z "$bad" ]; then
	ok "i40e logged no warning or error"
else
	fail "i40e warnings/errors:"
	echo "$bad"
fi
# Two unload/load cycles: i40e's remove (queue shutdown, LAN HMC torn
# down) and a fresh probe (PF reset) bring both ports back with their
# MACs and carrier.
for c in 1 2; do
	modprobe -r i40e || fail "cycle $c: rmmod i40e"
	[ -z "$(e810_netdev_of "${devs[0]}")$(e810_netdev_of "${devs[1]}")" ] ||
		fail "cycle $c: netdevs left after rmmod"
	modprobe i40e || fail "cycle $c: modprobe i40e"
	wait_for "[ -n \"\$(e810_netdev_of ${devs[0]})\" ] && [ -n \"\$(e810_netdev_of ${devs[1]})\" ]" 30 ||
		fail "cycle $c: no netdevs after 30 s"
	i=0
	for d in "${devs[@]}"; do
		nd=$(e810_netdev_of "$d")
		expect_eq "cycle $c: $d MAC" "52:54:00:e8:10:0$i" "$(cat /sys/class/net/$nd/address)"
		ip link set "$nd" up
		wait_carrier "$nd" 20 && ok "cycle $c: $nd carrier up" || fail "cycle $c: $nd no carrier"
		i=$((i + 1))
	done
done
bad=$(dmesg --level=emerg,alert,crit,err,warn | grep -E "i40e ($(IFS='|'; echo "${devs[*]}"))" )
[ -z "$bad" ] && ok "no i40e warning or error after the cycles" ||
	{ fail "i40e warnings/errors after the cycles:"; echo "$bad"; }

for q in x722-0 x722-1; do
	expect_eq "$q admin queue opcodes not modelled" 0 "$(x722_stat $q aq_unknown)"
	echo "$q: $(host_qmp "{\"execute\":\"qom-get\",\"arguments\":{\"path\":\"/machine/peripheral/$q\",\"property\":\"x-stats\"}}")"
done
if dmesg_clean; then
	ok "no oops, warning or leak in dmesg"
else
	fail "dmesg shows problems"
	dmesg | grep -B 3 -A 14 -E 'WARNING:|Call Trace:' | head -80
fi
finish
