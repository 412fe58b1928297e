#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 300
# boot: shared
# also-parent: ice
# share: tests/vm/kmod/cq_resize_stress/cq_resize_stress.ko
# Kernel CQs resized under traffic. The test module
# tests/vm/kmod/cq_resize_stress (built by 'make modules' against the
# guest kernel) connects an RC QP on irdma0 to one on irdma1 (kernel PDs,
# CQs, fast-registered MRs; the RoCEv2 GIDs of 192.168.81.1/.2) and for
# E810_CQR_MS ms (default 20000) both sides send each other SENDs, RDMA
# WRITEs and RDMA WRITEs with immediate, every WR signalled, while a
# kernel thread resizes the four CQs without a pause between 1 and 16
# times the smallest size that holds what can be outstanding. Read back
# from the module's debugfs "result": every posted WR completed exactly
# once, in order and successfully, every receive-consuming message
# arrived exactly once with its payload (the plain WRITEs' payloads too),
# nothing completed after the end, no CQ or QP async event, no stall (10
# s without a completion), every resize succeeded and at least
# CQR_MIN_RESIZES of them ran; the kernel log stays clean.
. "$E810_LIB"

KO=/mnt/host/top/tests/vm/kmod/cq_resize_stress/cq_resize_stress.ko
D=/sys/kernel/debug/cq_resize_stress
CQR_MS=${E810_CQR_MS:-20000}
CQR_MIN_RESIZES=${E810_CQR_MIN_RESIZES:-500}
CQR_MIN_WRS=${E810_CQR_MIN_WRS:-10000}

[ -f "$KO" ] || { fail "no $KO: run 'make modules' on the host"; finish; }
rdma_two_ports || finish
insmod "$KO" dev0="$ib0" dev1="$ib1" gid0="$g0" gid1="$g1" \
	duration_ms="$CQR_MS" || { fail "insmod cq_resize_stress"; finish; }

t0=$SECONDS
echo 1 >"$D/run"
st=$?
echo "run: $((SECONDS - t0)) s"
cat "$D/result"
declare -A r
while read -r k v; do r[$k]=$v; done <"$D/result"
expect_eq "run status" 0 "$st"
expect_eq "setup_err" 0 "${r[setup_err]}"
for k in wr_lost wr_bad_status wr_unexpected rx_lost rx_bad_status \
	 rx_unexpected payload_bad post_err extra async_err stalled resize_err; do
	expect_eq "$k" 0 "${r[$k]:-missing}"
done
expect_eq "wr_ok = wr_posted" "${r[wr_posted]:-missing}" "${r[wr_ok]:-none}"
if [ "${r[wr_posted]:-0}" -ge "$CQR_MIN_WRS" ]; then
	ok "${r[wr_posted]} WRs posted (>= $CQR_MIN_WRS)"
else
	fail "${r[wr_posted]:-no} WRs posted, want >= $CQR_MIN_WRS"
fi
if [ "${r[resize_ok]:-0}" -ge "$CQR_MIN_RESIZES" ]; then
	ok "${r[resize_ok]} resizes (>= $CQR_MIN_RESIZES)"
else
	fail "${r[resize_ok]:-no} resizes, want >= $CQR_MIN_RESIZES"
fi
rmmod cq_resize_stress || fail "rmmod cq_resize_stress"
dmesg_clean >/tmp/bad || { fail "kernel log:"; cat /tmp/bad; }
finish
