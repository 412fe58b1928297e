#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: x722
# parent: i40e
# rdma-driver: none
# timeout: 300
# check: on-demand
# The RDMA hand-off of the X722 (docs/hw-model-x722.md, "RDMA"): with
# the iWARP capability and 2 vCPUs the stock i40e publishes one
# auxiliary device i40e.iwarp.N per function, and the stock irdma's
# GEN_1 driver binds them. The protocol engine is not modelled yet, so
# irdma cannot create its control QP: this scenario records how far it
# gets (its log, and what the model saw as unimplemented) for the next
# step, and asserts only the hand-off.
. "$E810_LIB"

x722_pci_devs() {
	local d
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = 0x8086 ] && [ "$(cat "$d/device")" = 0x37d0 ] &&
			echo "${d##*/}"
	done
}

mapfile -t devs < <(x722_pci_devs)
expect_eq "x722 functions" 2 "${#devs[@]}"
# The guest kernel's own irdma (outside the module tree, e810-init's
# "stock" path) imports ice's symbols too: load ice first.
modprobe -a ib_uverbs ice i40e &&
	/sbin/insmod /usr/lib/e810-stock/irdma.ko* ||
	fail "loading the stock irdma failed"
wait_for "[ \$(ls -d /sys/bus/auxiliary/devices/i40e.iwarp.* 2>/dev/null | wc -l) = 2 ]" 30
aux=$(ls -d /sys/bus/auxiliary/devices/i40e.iwarp.* 2>/dev/null | wc -l)
expect_eq "i40e.iwarp auxiliary devices" 2 "$aux"
for a in /sys/bus/auxiliary/devices/i40e.iwarp.*; do
	[ -e "$a" ] || continue
	drv=none
	[ -e "$a/driver" ] && drv=$(basename "$(readlink -f "$a/driver")")
	echo "${a##*/}: parent $(basename "$(readlink -f "$a/..")"), driver $drv"
done
# irdma's GEN_1 open runs from i40e's service task, once a second.
sleep 30
echo "--- irdma and i40e client log:"
dmesg | grep -E 'irdma|i40iw|iwarp|client' | head -60
echo "--- the model: $(host_qmp '{"execute":"qom-get","arguments":{"path":"/machine/peripheral/x722-0","property":"x-stats"}}')"
echo "--- ib devices: $(ls /sys/class/infiniband 2>/dev/null | tr '\n' ' ')"
if dmesg_clean; then
	ok "no oops, warning or leak in dmesg"
else
	fail "dmesg shows problems"
	dmesg | grep -B 3 -A 14 -E 'WARNING:|Call Trace:' | head -80
fi
finish
