#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The scenario under the debug kernel (tools/vm --kernel debug): runs the
# real one (/mnt/host/scenario-main), then unloads the RDMA driver and the
# parent (their remove paths under KASAN, lockdep and the DMA API checks;
# what no longer holds a reference shows up as a leak), scans for leaks
# twice (kmemleak reports an object only once it was unreferenced in two
# scans) and leaves the kernel log and kmemleak's list in the share for
# tools/debug-reports.py. The scenario's status is the script's.
bash /mnt/host/scenario-main
status=$?
echo "debug kernel: scenario exit status $status; unloading, scanning for leaks"
for m in rdma_rxe irdma ice_lite ice; do
	grep -q "^$m " /proc/modules && { rmmod "$m" || echo "debug kernel: rmmod $m failed"; }
done
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 5
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak >/mnt/host/kmemleak
else
	echo "debug kernel: no kmemleak"
fi
dmesg >/mnt/host/dmesg
exit $status
