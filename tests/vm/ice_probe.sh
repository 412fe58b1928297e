#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# timeout: 400
# boot: shared
# kernel: 6.1 7
# The guest kernel's stock ice drives both emulated E810 functions: it
# probes them with the DDP package from /lib/firmware loaded (no Safe
# Mode), reports the firmware, NVM and package versions the model gives
# (ethtool -i, devlink dev info), publishes its RDMA auxiliary device
# ice.roce.<N> for each function, and logs no error or warning except the
# allowlisted ones below.
. "$E810_LIB"

# ice lines at KERN_ERR/KERN_WARNING that a real E810 without the feature
# would also print, one reason each. Everything else fails the scenario.
ICE_ALLOW=(
	# The guest's /lib/firmware has the package under its generic name
	# only; ice tries the per-serial-number file first, as on any host.
	'firmware: failed to load intel/ice/ddp/ice-'
)

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions" 2 "${#devs[@]}"
for d in "${devs[@]}"; do
	p=/sys/bus/pci/devices/$d
	expect_eq "$d driver" ice "$(driver_of "$p")"
	# The active DDP package as ice reports it (ice_devlink_info_get():
	# fw.app.name, fw.app); in Safe Mode there is none.
	dl=$(devlink dev info "pci/$d" 2>&1)
	expect_eq "$d DDP package (devlink fw.app.name)" "ICE OS Default Package" \
		"$(awk '$1 == "fw.app.name" { $1 = ""; sub(/^ /, ""); print; exit }' <<<"$dl")"
	expect_eq "$d DDP package version (devlink fw.app)" 1.3.30.0 \
		"$(awk '$1 == "fw.app" { print $2; exit }' <<<"$dl")"
	dmesg | grep "ice $d" | grep -qi 'safe mode' &&
		fail "$d entered Safe Mode" || ok "$d is not in Safe Mode"

	aux=$(e810_aux_of "$d")
	[ -n "$aux" ] && ok "$d published $aux" || fail "$d published no ice.roce device"
	[[ $aux =~ ^ice\.roce\.[0-9]+$ ]] || fail "aux device name '$aux'"

	nd=$(e810_netdev_of "$d")
	[ -n "$nd" ] || { fail "$d has no netdev"; continue; }
	info=$(ethtool -i "$nd")
	expect_eq "$nd ethtool driver" ice "$(sed -n 's/^driver: //p' <<<"$info")"
	expect_eq "$nd bus-info" "$d" "$(sed -n 's/^bus-info: //p' <<<"$info")"
	# "<NVM major>.<minor> 0x<eetrack> <orom major>.<build>.<patch>"
	fw=$(sed -n 's/^firmware-version: //p' <<<"$info")
	[[ $fw =~ ^[0-9a-f]+\.[0-9]{2}\ 0x[0-9a-f]{8}\ [0-9]+\.[0-9]+\.[0-9]+$ ]] &&
		ok "$nd firmware-version '$fw'" || fail "$nd firmware-version '$fw'"

	grep -q 'fw.mgmt ' <<<"$dl" && ok "devlink: $(grep -m1 'fw.mgmt ' <<<"$dl" | xargs)" ||
		fail "devlink dev info pci/$d: $(head -n 3 <<<"$dl")"
done

bad=$(dmesg --level=err,warn | grep -E '^(\[[ 0-9.]+\] )?ice ' |
      grep -v -F "$(printf '%s\n' "${ICE_ALLOW[@]}")")
[ -z "$bad" ] && ok "no ice error or warning in dmesg" ||
	fail "ice errors/warnings: $(head -n 8 <<<"$bad")"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
