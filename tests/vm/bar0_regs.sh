#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 300
# boot: shared
# BAR0 read through irdma (debugfs) shows the documented reset values:
# PE ready, 8 MiB doorbell space, reset done, NVM loaded, firmware in normal
# mode, PF number equal to the PCI function, and the CQP irdma created
# (CCQPSTATUS done, CQPTAIL at the head the driver reports).
. "$E810_LIB"

# name -> documented value after reset (docs/hw-reference.md 1.1,
# docs/hw-reference-lan.md 1.1)
declare -A want=(
	[GLPE_CPUSTATUS0]=0x00000080 [GLPE_CPUSTATUS1]=0x00000080
	[GLPE_CPUSTATUS2]=0x00000080 [GLPCI_LBARCTRL]=0x00000020
	[GLGEN_RSTAT]=0x00000000 [GLNVM_ULD]=0x0000073b [GLNVM_FLA]=0x00000040
	[GL_MNG_FWSM]=0x00000000 [PFGEN_CTRL]=0x00000000
	[CCQPSTATUS]=0x00000001 [CQPERRCODES]=0x00000000
)
declare -A offset=(
	[GLPE_CPUSTATUS0]=0x0050ba5c [GLPCI_LBARCTRL]=0x0009de74
	[GLNVM_ULD]=0x000b6008 [PF_FUNC_RID]=0x0009e880 [CQPTAIL]=0x00500880
)

for d in $(e810_pci_devs); do
	aux=$(e810_aux_of "$d")
	f=/sys/kernel/debug/irdma/$aux/regs
	[ -r "$f" ] || { fail "$d: no $f"; continue; }
	declare -A got=() off=()
	while read -r name o v; do got[$name]=$v; off[$name]=$o; done <"$f"
	for r in "${!want[@]}"; do
		expect_eq "$aux $r" "${want[$r]}" "${got[$r]:-missing}"
	done
	for r in "${!offset[@]}"; do
		expect_eq "$aux $r offset" "${offset[$r]}" "${off[$r]:-missing}"
	done
	# PF_FUNC_RID.FUNC_NUM is the PCI function number of the parent.
	expect_eq "$aux PF_FUNC_RID" "$(printf '0x%08x' $((16#${d##*.})))" "${got[PF_FUNC_RID]:-missing}"
	# Every WQE irdma posted was consumed: CQPTAIL.WQTAIL = the SQ head.
	head=$(awk '$1 == "head" { print $2 }' "/sys/kernel/debug/irdma/$aux/cqp")
	expect_eq "$aux CQPTAIL" "$(printf '0x%08x' "${head:-0}")" "${got[CQPTAIL]:-missing}"
	unset got off
done
finish
