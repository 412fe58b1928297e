#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 300
# boot: shared
# ice_lite publishes one auxiliary device ice_lite.roce.N per function, a
# child of that PCI function, and irdma binds to each.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions" 2 "${#devs[@]}"
ids=()
for d in "${devs[@]}"; do
	aux=$(e810_aux_of "$d")
	[ -n "$aux" ] || { fail "$d has no auxiliary device"; continue; }
	ok "$d publishes $aux"
	ids+=("${aux##*.}")
	# The driver is irdma's auxiliary driver for the ice_lite parent.
	expect_eq "$aux driver" irdma.ice_lite "$(driver_of "/sys/bus/auxiliary/devices/$aux")"
	expect_eq "$aux driver module" irdma "$(module_of "/sys/bus/auxiliary/devices/$aux")"
	expect_eq "$aux modalias" "auxiliary:ice_lite.roce" \
		"$(sed -n 's/^MODALIAS=//p' "/sys/bus/auxiliary/devices/$aux/uevent")"
	[ -r "/sys/kernel/debug/irdma/$aux/regs" ] && ok "$aux debugfs regs present" ||
		fail "$aux has no debugfs regs file"
done
expect_eq "auxiliary device ids" "0 1" "$(printf '%s\n' "${ids[@]}" | sort -n | xargs)"
expect_eq "aux devices on the bus" 2 "$(ls -d /sys/bus/auxiliary/devices/ice_lite.roce.* | wc -l)"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
