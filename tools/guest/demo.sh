#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# What `make run` shows inside the guest: the emulated E810 functions, the
# drivers bound to them, the auxiliary RDMA devices and the BAR0 registers
# irdma reads, then the RDMA devices ib_core knows about.

section() { printf '\n=== %s\n' "$*"; }

section "kernel $(uname -r), $(nproc) CPUs"
section "PCI: emulated E810 functions (lspci -nnk -d 8086:1592)"
lspci -nnk -d 8086:1592
section "auxiliary bus"
for a in /sys/bus/auxiliary/devices/*; do
	[ -e "$a" ] || { echo "(no auxiliary devices)"; break; }
	drv=none
	[ -e "$a/driver" ] && drv=$(basename "$(readlink -f "$a/driver")")
	echo "$(basename "$a")  parent $(basename "$(readlink -f "$a/..")")  driver $drv"
done
section "netdevs of the E810 functions (ip -br link, ethtool)"
. "$E810_LIB"
devs=($(e810_pci_devs))
nets=()
for d in "${devs[@]}"; do nets+=("$(e810_netdev_of "$d")"); done
ip -br link show | grep -E "^($(IFS='|'; echo "${nets[*]}")) "
ethtool -i "${nets[0]}" | head -n 3
ethtool "${nets[0]}" | grep -E 'Speed|Link detected'
if [ ${#nets[@]} = 2 ] && e810_two_hosts "${nets[0]}" "${nets[1]}"; then
	section "ping from ${nets[0]} (192.168.81.1) to ${nets[1]} (192.168.81.2, netns peer)"
	ping -c 5 -i 0.2 192.168.81.2 | tail -n 2
fi
section "modules"
grep -E '^(ice_lite|irdma|ib_core|ib_uverbs) ' /proc/modules | cut -d' ' -f1-3
for f in /sys/kernel/debug/irdma/*/regs; do
	[ -r "$f" ] || continue
	section "BAR0 through irdma: $f"
	cat "$f"
done
for f in /sys/kernel/debug/irdma/*/hmc; do
	[ -r "$f" ] || continue
	section "HMC committed by irdma: $f"
	head -n 30 "$f"
	break
done
modprobe ib_uverbs
section "rdma link"
rdma link 2>&1
section "ibv_devinfo -d irdma0 (stock irdma provider)"
ibv_devinfo -d irdma0 2>&1
exit 0
