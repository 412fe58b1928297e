#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice i40e
# timeout: 300
# boot: shared
# The two emulated NIC functions enumerate with the real identity and BAR
# layout, and the parent (ice_lite or the stock ice on the E810, the stock
# i40e on the X722) binds to both with its MSI-X vectors.
. "$E810_LIB"

# Identity and layout: the E810-C QSFP (rev 02) or the X722 for 10GbE
# backplane (rev 09): device id, revision, subsystem, BAR0 and BAR3 sizes
# and the MSI-X table size.
if [ "$E810_PARENT" = i40e ]; then
	id=37d0 rev=09 subsys=0x8086:0x0001 bar0_size=$((16 << 20))
	bar3_size=$((32 << 10)) msix=129
	# i40e claims every memory BAR (pci_request_mem_regions()), ice
	# and ice_lite BAR0 only.
	claims=2
else
	id=1592 rev=02 subsys=0x8086:0x0002 bar0_size=$((32 << 20))
	bar3_size=$((64 << 10)) msix=1024 claims=1
fi
mapfile -t devs < <(e810_pci_devs)
expect_eq "NIC functions on the bus" 2 "${#devs[@]}"
expect_eq "lspci -nn lines for 8086:$id" 2 \
	"$(lspci -nn -d 8086:$id | grep -c "Ethernet controller \[0200\].*\[8086:$id\] (rev $rev)")"

cpus=$(nproc)
for d in "${devs[@]}"; do
	p=/sys/bus/pci/devices/$d
	expect_eq "$d subsystem" "$subsys" \
		"$(cat "$p/subsystem_vendor"):$(cat "$p/subsystem_device")"
	expect_eq "$d driver" "$E810_PARENT" "$(driver_of "$p")"
	expect_eq "$d lspci -k driver in use" "$E810_PARENT" \
		"$(lspci -k -s "$d" | sed -n 's/.*Kernel driver in use: //p')"
	# resource: one "start end flags" line per BAR.
	bar0=$(sed -n 1p "$p/resource")
	bar3=$(sed -n 4p "$p/resource")
	expect_eq "$d BAR0 size" "$bar0_size" \
		$(( $(cut -d' ' -f2 <<<"$bar0") - $(cut -d' ' -f1 <<<"$bar0") + 1 ))
	expect_eq "$d BAR3 size" "$bar3_size" \
		$(( $(cut -d' ' -f2 <<<"$bar3") - $(cut -d' ' -f1 <<<"$bar3") + 1 ))
	expect_eq "$d MSI-X capability" "Count=$msix" \
		"$(lspci -vv -s "$d" | grep -o 'MSI-X: Enable+ Count=[0-9]*' | cut -d' ' -f3)"
	nvec=$(ls "$p/msi_irqs" | wc -l)
	if [ "$E810_PARENT" = ice_lite ]; then
		# misc + LAN + RDMA (one per CPU plus one, at least two).
		rdma=$((cpus + 1 > 2 ? cpus + 1 : 2))
		expect_eq "$d MSI-X vectors allocated" $((2 + rdma)) "$nvec"
	else
		# ice allocates as it goes (ice_ena_msix_range()): at least
		# the misc vector, one per CPU for LAN and the RDMA share;
		# i40e likewise (i40e_init_msix(): misc, LAN queue pairs,
		# iWARP CPUs + 1).
		[ "$nvec" -ge $((1 + 2 * cpus)) ] && [ "$nvec" -le "$msix" ] &&
			ok "$d MSI-X vectors allocated: $nvec" ||
			fail "$d MSI-X vectors allocated: $nvec"
	fi
	# /proc/iomem: the BAR line, then the driver's claim nested under it.
	expect_eq "$d BARs claimed by $E810_PARENT" "$claims" \
		"$(grep -A1 ": $d\$" /proc/iomem | grep -c ": $E810_PARENT\$")"
done
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
