#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite
# timeout: 300
# boot: shared
# Both parents on the same functions in one boot: each function is taken
# from ice_lite and handed to the stock ice with driver_override (ice
# finds the DDP package the first download left on the device, publishes
# ice.roce.<N> and passes traffic), then given back to ice_lite, which
# publishes ice_lite.roce.<N> again.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions" 2 "${#devs[@]}"

# rebind DRIVER: every e810 function from its current driver to DRIVER.
rebind() {
	local d p
	for d in "${devs[@]}"; do
		p=/sys/bus/pci/devices/$d
		[ -e "$p/driver" ] && echo "$d" >"$p/driver/unbind"
		echo "$1" >"$p/driver_override"
		echo "$d" >"/sys/bus/pci/drivers/$1/bind" ||
			fail "bind $d to $1"
		echo >"$p/driver_override"
	done
}

modprobe ice || fail "modprobe ice"
rebind ice
for d in "${devs[@]}"; do
	expect_eq "$d driver after the switch" ice "$(driver_of "/sys/bus/pci/devices/$d")"
	E810_PARENT=ice
	wait_for "[ -n \"\$(e810_aux_of $d)\" ]" 10 &&
		ok "$d published $(e810_aux_of "$d")" || fail "$d: no ice.roce device"
	# The package ice found active (downloaded now or left by the first
	# download): devlink's fw.app (ice_devlink_info_get()).
	expect_eq "$d: ice's DDP package (devlink fw.app)" 1.3.30.0 \
		"$(devlink dev info "pci/$d" | awk '$1 == "fw.app" { print $2; exit }')"
done
a=$(e810_netdev_of "${devs[0]}")
b=$(e810_netdev_of "${devs[1]}")
e810_two_hosts "$a" "$b" && ok "ice netdevs $a and $b up" || fail "ice netdevs not up"
out=$(ping -c 20 -i 0.05 -W 2 192.168.81.2 2>&1)
grep -q '20 packets transmitted, 20 received' <<<"$out" &&
	ok "ping over ice: $(grep 'packets transmitted' <<<"$out")" ||
	fail "ping over ice: $(tail -n 2 <<<"$out")"
ip netns del peer

rebind ice_lite
E810_PARENT=ice_lite
for d in "${devs[@]}"; do
	expect_eq "$d driver after the switch back" ice_lite \
		"$(driver_of "/sys/bus/pci/devices/$d")"
	wait_for "[ -n \"\$(e810_aux_of $d)\" ]" 10 &&
		ok "$d published $(e810_aux_of "$d") again" ||
		fail "$d: no ice_lite.roce device after the switch back"
done
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
