#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice i40e
# timeout: 300
# boot: shared
# Each NIC function has an Ethernet netdev of the parent (ice_lite, the
# stock ice, or the stock i40e on the X722): the MAC address the
# firmware reports (manage MAC read = QEMU's mac property) as current and
# permanent address, a carrier and 100 Gb/s (X722: 10 Gb/s) full duplex
# from the firmware's link status, the MTU range of a 9728-byte MAC frame
# (every parent's limit), and
# "ethtool -i" naming ice_lite with the firmware/API version and the bus
# address of the function; ice_lite's debugfs counters saw the link come up.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "NIC functions" 2 "${#devs[@]}"
port=0
for d in "${devs[@]}"; do
	mac=52:54:00:e8:10:$(printf '%02x' $((E810_NODE * 16 + port)))
	port=$((port + 1))
	nd=$(e810_netdev_of "$d")
	[ -n "$nd" ] || { fail "$d has no netdev"; continue; }
	ok "$d has netdev $nd"
	expect_eq "$nd parent device" "$d" \
		"$(basename "$(readlink -f "/sys/class/net/$nd/device")")"
	expect_eq "$nd address (ip link)" "$mac" \
		"$(ip -br link show "$nd" | awk '{ print $3 }')"
	expect_eq "$nd permanent address" "$mac" \
		"$(ethtool -P "$nd" | awk '{ print $3 }')"
	expect_eq "$nd MTU range" "68-9702" \
		"$(ip -d link show "$nd" | sed -n 's/.*minmtu \([0-9]*\) maxmtu \([0-9]*\).*/\1-\2/p')"

	ip link set "$nd" up || fail "ip link set $nd up"
	wait_carrier "$nd" 10 && ok "$nd has a carrier" ||
		fail "$nd has no carrier"
	# The operational state follows the carrier through linkwatch.
	wait_for "[ \"\$(cat /sys/class/net/$nd/operstate)\" = up ]" 5
	expect_eq "$nd operstate" up "$(cat "/sys/class/net/$nd/operstate")"
	ip link show "$nd" | grep -q 'state UP' && ok "ip link shows $nd UP" ||
		fail "ip link does not show $nd UP: $(ip -br link show "$nd")"

	info=$(ethtool -i "$nd")
	expect_eq "$nd driver" "$E810_PARENT" "$(sed -n 's/^driver: //p' <<<"$info")"
	expect_eq "$nd bus-info" "$d" "$(sed -n 's/^bus-info: //p' <<<"$info")"
	fw=$(sed -n 's/^firmware-version: //p' <<<"$info")
	# ice_lite: firmware and API version; ice: NVM version, EETRACK and
	# Option ROM version (__ice_get_drvinfo()); i40e: NVM version,
	# EETRACK and OEM version (i40e_nvm_version_str()), the same shape.
	fw_re='^fw [0-9]+\.[0-9]+\.[0-9]+ api 1\.[0-9]+\.[0-9]+$'
	[ "$E810_PARENT" != ice_lite ] &&
		fw_re='^[0-9a-f]+\.[0-9]{2} 0x[0-9a-f]{8} [0-9]+\.[0-9]+\.[0-9]+$'
	if [[ $fw =~ $fw_re ]]; then
		ok "$nd firmware-version '$fw'"
	else
		fail "$nd firmware-version '$fw'"
	fi

	settings=$(ethtool "$nd")
	speed=100000Mb/s
	[ "$E810_PARENT" = i40e ] && speed=10000Mb/s
	expect_eq "$nd speed" $speed \
		"$(sed -n 's/^[[:space:]]*Speed: //p' <<<"$settings")"
	expect_eq "$nd duplex" Full \
		"$(sed -n 's/^[[:space:]]*Duplex: //p' <<<"$settings")"
	expect_eq "$nd link detected" yes \
		"$(sed -n 's/^[[:space:]]*Link detected: //p' <<<"$settings")"
	# ice_lite's own view (debugfs events): the link came up, at 100G.
	if [ "$E810_PARENT" = ice_lite ]; then
		n=$(ice_lite_ev "$d" link_up)
		[ "${n:-0}" -ge 1 ] && ok "$d: ice_lite counted $n link-up events" ||
			fail "$d: ice_lite counted no link-up event ('$n')"
		expect_eq "$d ice_lite link" up "$(ice_lite_ev "$d" link)"
		expect_eq "$d ice_lite link speed" 100000 "$(ice_lite_ev "$d" link_speed_mbps)"
	fi
done
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
