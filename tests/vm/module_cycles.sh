#!/bin/bash
# topology: hub2
# timeout: 900
# Ten cycles of rmmod irdma ice_lite / modprobe ice_lite irdma: every cycle
# unbinds and rebinds both functions, gives back MSI-X vectors, BAR0 and
# the auxiliary ids, and the kernel log stays free of oopses and leaks.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions" 2 "${#devs[@]}"
for cycle in $(seq 1 10); do
	rmmod irdma || fail "cycle $cycle: rmmod irdma"
	[ -d /sys/kernel/debug/irdma ] && fail "cycle $cycle: irdma debugfs left behind"
	rmmod ice_lite || fail "cycle $cycle: rmmod ice_lite"
	left=$(ls -d /sys/bus/auxiliary/devices/ice_lite.roce.* 2>/dev/null | wc -l)
	[ "$left" = 0 ] || fail "cycle $cycle: $left auxiliary devices left after rmmod"
	for d in "${devs[@]}"; do
		p=/sys/bus/pci/devices/$d
		[ "$(driver_of "$p")" = none ] || fail "cycle $cycle: $d still bound"
		n=$(ls "$p/msi_irqs" 2>/dev/null | wc -l)
		[ "$n" = 0 ] || fail "cycle $cycle: $d keeps $n MSI-X vectors"
	done
	grep -q ice_lite /proc/iomem && fail "cycle $cycle: BAR0 still claimed"
	modprobe ice_lite || fail "cycle $cycle: modprobe ice_lite"
	modprobe irdma || fail "cycle $cycle: modprobe irdma"
	for d in "${devs[@]}"; do
		wait_for "[ -n \"\$(e810_aux_of $d)\" ]" 10 ||
			{ fail "cycle $cycle: $d has no auxiliary device"; continue; }
		aux=$(e810_aux_of "$d")
		wait_for "[ \"\$(module_of /sys/bus/auxiliary/devices/$aux)\" = irdma ]" 10 ||
			fail "cycle $cycle: $aux not bound to irdma"
	done
	# Ids come from an IDA: a leak would make them grow across cycles.
	ids=$(ls /sys/bus/auxiliary/devices/ | sed -n 's/^ice_lite\.roce\.//p' | sort -n | xargs)
	[ "$ids" = "0 1" ] || fail "cycle $cycle: auxiliary ids are '$ids'"
done
ok "10 unload/load cycles done"
expect_eq "ice_lite bound after the cycles" "ice_lite ice_lite" \
	"$(for d in "${devs[@]}"; do driver_of /sys/bus/pci/devices/$d; done | xargs)"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
