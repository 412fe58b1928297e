#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# timeout: 300
# boot: shared
# The two emulated E810 functions enumerate with the real identity and BAR
# layout, and the parent (ice_lite, or the stock ice) binds to both with
# its MSI-X vectors.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions on the bus" 2 "${#devs[@]}"
expect_eq "lspci -nn lines for 8086:1592" 2 \
	"$(lspci -nn -d 8086:1592 | grep -c 'Ethernet controller \[0200\].*\[8086:1592\] (rev 02)')"

cpus=$(nproc)
for d in "${devs[@]}"; do
	p=/sys/bus/pci/devices/$d
	expect_eq "$d subsystem" "0x8086:0x0002" \
		"$(cat "$p/subsystem_vendor"):$(cat "$p/subsystem_device")"
	expect_eq "$d driver" "$E810_PARENT" "$(driver_of "$p")"
	expect_eq "$d lspci -k driver in use" "$E810_PARENT" \
		"$(lspci -k -s "$d" | sed -n 's/.*Kernel driver in use: //p')"
	# resource: one "start end flags" line per BAR.
	bar0=$(sed -n 1p "$p/resource")
	bar3=$(sed -n 4p "$p/resource")
	expect_eq "$d BAR0 size" $((32 << 20)) \
		$(( $(cut -d' ' -f2 <<<"$bar0") - $(cut -d' ' -f1 <<<"$bar0") + 1 ))
	expect_eq "$d BAR3 size" $((64 << 10)) \
		$(( $(cut -d' ' -f2 <<<"$bar3") - $(cut -d' ' -f1 <<<"$bar3") + 1 ))
	expect_eq "$d MSI-X capability" "Count=1024" \
		"$(lspci -vv -s "$d" | grep -o 'MSI-X: Enable+ Count=[0-9]*' | cut -d' ' -f3)"
	nvec=$(ls "$p/msi_irqs" | wc -l)
	if [ "$E810_PARENT" = ice_lite ]; then
		# misc + LAN + RDMA (one per CPU plus one, at least two).
		rdma=$((cpus + 1 > 2 ? cpus + 1 : 2))
		expect_eq "$d MSI-X vectors allocated" $((2 + rdma)) "$nvec"
	else
		# ice allocates as it goes (ice_ena_msix_range()): at least
		# the misc vector, one per CPU for LAN and the RDMA share.
		[ "$nvec" -ge $((1 + 2 * cpus)) ] && [ "$nvec" -le 1024 ] &&
			ok "$d MSI-X vectors allocated: $nvec" ||
			fail "$d MSI-X vectors allocated: $nvec"
	fi
	# /proc/iomem: the BAR line, then the driver's claim nested under it.
	expect_eq "$d BARs claimed by $E810_PARENT" 1 \
		"$(grep -A1 ": $d\$" /proc/iomem | grep -c ": $E810_PARENT\$")"
done
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
