#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: x722
# parent: i40e
# rdma-driver: ours
# timeout: 400
# Our irdma on the X722 (GEN_1, iWARP only; docs/irdma.md "GEN_1"): it
# binds i40e's auxiliary devices i40e.iwarp.N, i40e opens our client and
# the engine comes up on the model's GEN_1 protocol engine: the CQP, the
# HMC from the SD after the LAN's, the CCQ, the CEQs, the AEQ, the local
# MAC table entry and the ILQ (its CQ and UDA QP), with no CQP error, up
# to an iWARP ib_device (RNIC) per function whose port is ACTIVE with its
# netdev. `ibv_devinfo -v` shows the GEN_1 limits upstream's
# i40iw_init_hw() sets and the counts of the HMC the driver committed as
# the model saw them. Unloading irdma empties the engine (QMP
# x-pe-stats); loading it again brings both devices back ACTIVE; dmesg
# stays clean.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "x722 functions" 2 "${#devs[@]}"
t=$(cat /sys/module/irdma/taint 2>/dev/null)
[[ $t == *O* ]] && ok "irdma taint '$t': ours, out of tree" ||
	fail "irdma taint '$t': want O (ours, out of tree)"

# The engine's state of PCI function $1: field $2 of QMP x-pe-stats.
# Our client opens from i40e's service task, once a second.
rdma_wait_all_active 60 || fail "ports not ACTIVE: $(rdma link show 2>&1 | tr '\n' ' ')"
for a in /sys/bus/auxiliary/devices/i40e.iwarp.*; do
	[ -e "$a" ] || { fail "no i40e.iwarp auxiliary device"; continue; }
	expect_eq "${a##*/} bound to" irdma "$(module_of "$a")"
done

check_engine() {
	local d=$1
	expect_eq "$d: CQP created" 1 "$(pe_stat "$d" pe_cqp)"
	expect_eq "$d: CQP errors" 0 "$(pe_stat "$d" pe_cqp_errors)"
	expect_eq "$d: HMC committed" 1 "$(pe_stat "$d" pe_hmc_committed)"
	expect_eq "$d: first PE SD" 16 "$(pe_stat "$d" pe_first_sd)"
	expect_eq "$d: AEQ" 1 "$(pe_stat "$d" pe_aeq)"
	expect_eq "$d: local MAC entries" 1 "$(pe_stat "$d" pe_loc_macs)"
	# the CCQ and the ILQ's CQ; the ILQ (ours makes no IEQ)
	expect_eq "$d: CQs" 2 "$(pe_stat "$d" pe_cqs)"
	expect_eq "$d: QPs" 1 "$(pe_stat "$d" pe_qps)"
	[ "$(pe_stat "$d" pe_ceqs)" -ge 1 ] 2>/dev/null &&
		ok "$d: $(pe_stat "$d" pe_ceqs) CEQs" ||
		fail "$d: CEQs: $(pe_stat "$d" pe_ceqs)"
}

for d in "${devs[@]}"; do
	echo "--- the engine of $d: $(e810_qom_str "$(e810_qom_id "$d")" x-pe-stats)"
	check_engine "$d"
	ib=$(e810_ibdev_of "$d")
	nd=$(e810_netdev_of "$d")
	[ -n "$ib" ] || { fail "$d: no ib_device"; continue; }
	expect_eq "$ib rdma link" "link $ib/1 state ACTIVE physical_state LINK_UP netdev $nd" \
		"$(echo $(rdma link show "$ib/1"))"
	expect_eq "$ib node_type" "4: RNIC" "$(cat "/sys/class/infiniband/$ib/node_type")"
	out=$(ibv_devinfo -v -d "$ib" 2>&1) || fail "$ib: ibv_devinfo: $out"
	expect_eq "$ib transport" "iWARP (1)" "$(ibv_attr "$ib" transport)"
	expect_eq "$ib port state" "PORT_ACTIVE (4)" "$(ibv_attr "$ib" state)"
	expect_eq "$ib vendor_part_id" 14288 "$(ibv_attr "$ib" vendor_part_id)"
	# No QUERY_RDMA_FEATURES on GEN_1: upstream's default, 0.2.
	expect_eq "$ib fw_ver" 0.2 "$(ibv_attr "$ib" fw_ver)"
	# Counts from the HMC as the model saw COMMIT_FPM_VAL: ours keeps
	# QP 0-1, CQ 0 (CCQ) and MR index 0 back.
	hq=$(pe_stat "$d" QP)
	[ -n "$hq" ] && [ "$hq" -gt 0 ] || fail "$d: no HMC QP count from the model: '$hq'"
	expect_eq "$ib max_qp = HMC QP - 2" $((hq - 2)) "$(ibv_attr "$ib" max_qp)"
	expect_eq "$ib max_cq = HMC CQ - 1" $(($(pe_stat "$d" CQ) - 1)) "$(ibv_attr "$ib" max_cq)"
	expect_eq "$ib max_mr = HMC MR - 1" $(($(pe_stat "$d" MR) - 1)) "$(ibv_attr "$ib" max_mr)"
	# GEN_1 limits (upstream i40iw_hw.h, i40iw_init_hw()).
	expect_eq "$ib max_qp_wr ((2048 - 258) / 2)" 895 "$(ibv_attr "$ib" max_qp_wr)"
	expect_eq "$ib max_sge" 3 "$(ibv_attr "$ib" max_sge)"
	expect_eq "$ib max_sge_rd" 1 "$(ibv_attr "$ib" max_sge_rd)"
	expect_eq "$ib max_qp_rd_atom (IRD)" 63 "$(ibv_attr "$ib" max_qp_rd_atom)"
	expect_eq "$ib max_qp_init_rd_atom (ORD)" 127 "$(ibv_attr "$ib" max_qp_init_rd_atom)"
	expect_eq "$ib max_pd" 32767 "$(ibv_attr "$ib" max_pd)"
	expect_eq "$ib max_cqe" 1048574 "$(ibv_attr "$ib" max_cqe)"
	# Neither address handles nor multicast groups on GEN_1.
	expect_eq "$ib max_ah" 0 "$(ibv_attr "$ib" max_ah)"
	expect_eq "$ib max_mcast_grp" 0 "$(ibv_attr "$ib" max_mcast_grp)"
	expect_eq "$ib atomic_cap" "ATOMIC_NONE (0)" "$(ibv_attr "$ib" atomic_cap)"
done

# Unload: the engine empties; load again: both devices come back.
rmmod irdma || fail "rmmod irdma"
expect_eq "ib_devices after rmmod irdma" 0 "$(ls /sys/class/infiniband 2>/dev/null | wc -l)"
for d in "${devs[@]}"; do
	echo "--- after rmmod, $d: $(e810_qom_str "$(e810_qom_id "$d")" x-pe-stats)"
	for s in pe_cqp pe_ceqs pe_aeq pe_cqs pe_qps pe_loc_macs pe_cqp_errors; do
		expect_eq "$d: $s after rmmod" 0 "$(pe_stat "$d" $s)"
	done
done
modprobe irdma || fail "modprobe irdma"
rdma_wait_all_active 60 && ok "both ports ACTIVE after reloading irdma" ||
	fail "ports not ACTIVE after reload: $(rdma link show 2>&1 | tr '\n' ' ')"
for d in "${devs[@]}"; do
	check_engine "$d"
done
rmmod irdma || fail "rmmod irdma (second)"
for d in "${devs[@]}"; do
	expect_eq "$d: QPs after the second rmmod" 0 "$(pe_stat "$d" pe_qps)"
	expect_eq "$d: CQP errors after the second rmmod" 0 "$(pe_stat "$d" pe_cqp_errors)"
done
echo "--- the model: $(e810_qom_str "$(e810_qom_id "${devs[0]}")" x-stats)"
if dmesg_clean; then
	ok "no oops, warning or leak in dmesg"
else
	fail "dmesg shows problems"
	dmesg | grep -B 3 -A 14 -E 'WARNING:|Call Trace:' | head -80
fi
finish
