#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 1200
# memory: 2G
# jobs: alone
# e810-props: hmc-sds=160
# Scale: 16382 RC QPs and 65536 MRs live at once on one e810 function,
# used and destroyed (progs/scale_qp_mr.c), then the same on rdma_rxe over
# the same netdev in the same boot for the time per object.
#
# The functions get 160 SDs of FPM space (hmc-sds, docs/hw-model.md), for
# which the upstream sizing (irdma_cfg_fpm_val(), limits_sel 7) commits
# 16384 QPs and more than 64K MRs; the guest gets 2 GiB for the ~230 MiB of
# HMC backing memory per function. 16382 is every QP a user can have then
# (QP 0 is unused and QP 1 is the GSI QP: max_qp). Checked: the model
# committed at least 16384 QPs and 65538 MRs; the program's own checks (every QP to RTS, every
# MR written through its own rkey and holding the right bytes, a SEND per
# QP pair with its completions and payload, everything freed without
# error); `rdma resource show` counts (pd, cq, qp, mr) of the device are
# back to what they were before; the same program passes on rxe; dmesg
# clean. Times per QP/MR (create, connect, register, deregister, destroy)
# are printed next to rxe's: reported, not checked.
# E810_SCALE_QPS / E810_SCALE_MRS (host environment) change the counts.
. "$E810_LIB"

NQP=${E810_SCALE_QPS:-16382}
NMR=${E810_SCALE_MRS:-65536}
PROG=/mnt/host/progs/scale_qp_mr

# res_counts IBDEV: "pd N cq N qp N mr N" from `rdma resource show`.
res_counts() {
	rdma resource show "$1" 2>/dev/null |
		awk '{ for (i = 1; i < NF; i++)
			if ($i ~ /^(pd|cq|qp|mr)$/) printf "%s %s ", $i, $(i + 1) }'
}

# run_scale LABEL IBDEV NQP NMR: the program; its timing lines are kept in
# /tmp/scale-LABEL.log.
run_scale() {
	local label=$1 log=/tmp/scale-$1.log t0=$SECONDS
	if "$PROG" "$2" 192.168.81.1 "$3" "$4" >"$log" 2>&1; then
		ok "$label: $3 QPs and $4 MRs created, used and destroyed ($(grep -c '^ok' "$log") checks, $((SECONDS - t0)) s)"
	else
		fail "$label: scale_qp_mr $3 QPs $4 MRs: $(grep '^FAIL' "$log" | head -n 5)"
	fi
	# the program's timing lines (vt_info: two spaces in front)
	sed -n "s/^  \(.* us\/.*\)/info: $label: \1/p; s/^  \(.* ms\)$/info: $label: \1/p" "$log"
}

# us_per LABEL WHAT: the microseconds per object of a timing line.
us_per() {
	sed -n "s/^  $2: \([0-9.]*\) us.*/\1/p" "/tmp/scale-$1.log"
}

rdma_two_ports || finish
d0=$(e810_pci_devs | head -n 1)
provider_env
hq=$(model_hmc_count "$d0" QP)
hm=$(model_hmc_count "$d0" MR)
[ "${hq:-0}" -ge $((NQP + 2)) ] && ok "model: $hq QPs committed (>= $NQP + 2)" ||
	fail "model: ${hq:-no} QPs committed, want >= $((NQP + 2))"
[ "${hm:-0}" -ge $((NMR + 2)) ] && ok "model: $hm MRs committed (>= $NMR + 2)" ||
	fail "model: ${hm:-no} MRs committed, want >= $((NMR + 2))"
# With this many QPs the multicast groups (FSIMC objects, at most 1024)
# are fewer than the QPs: max_mcast_grp is theirs, not the QP count.
hmg=$(model_hmc_count "$d0" FSIMC)
[ -n "$hmg" ] && [ "$hmg" -gt 0 ] && [ "$hmg" -lt "$hq" ] &&
	ok "model: $hmg multicast groups (FSIMC) for $hq QPs" ||
	fail "model: FSIMC count '$hmg', want 1..$((hq - 1))"
expect_eq "$ib0 max_mcast_grp = HMC FSIMC" "$hmg" "$(ibv_attr "$ib0" max_mcast_grp)"

before=$(res_counts "$ib0")
run_scale e810 "$ib0" "$NQP" "$NMR"
expect_eq "$ib0 resources after teardown (rdma resource show)" "$before" \
	"$(res_counts "$ib0")"

# rxe on the same netdev, irdma out of the way (its GIDs are the same).
rmmod irdma || fail "rmmod irdma"
if modprobe rdma_rxe && rdma link add rxe0 type rxe netdev "$nd0"; then
	wait_for "roce_gid_index rxe0 192.168.81.1 >/dev/null" 15 ||
		fail "rxe0: no RoCEv2 GID for 192.168.81.1"
	rmr=$(ibv_attr rxe0 max_mr)
	rqp=$(ibv_attr rxe0 max_qp)
	n=$NMR
	[ $((rmr - 2)) -lt "$n" ] && n=$((rmr - 2))
	q=$NQP
	[ "$rqp" -lt "$q" ] && q=$rqp
	run_scale rxe rxe0 "$q" "$n"
	for w in create_qp "modify_qp x3" reg_mr dereg_mr destroy_qp; do
		a=$(us_per e810 "$w")
		b=$(us_per rxe "$w")
		[ -n "$a" ] && [ -n "$b" ] &&
			echo "info: $w: e810 $a us, rxe $b us per object ($(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", a / b }') x rxe)"
	done
	rdma link delete rxe0 || fail "rdma link delete rxe0"
	modprobe -r rdma_rxe || fail "modprobe -r rdma_rxe"
else
	fail "could not create rxe0 on $nd0"
fi
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
