#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# rdma-protocol: iwarp
# timeout: 1200
# check: on-demand
# share: tests/vm/nfs_rdma.sh
# nfs_rdma over iWARP with our irdma: both functions switched to iWARP,
# the same checks (64 MiB written and read back, the tree under diff -r,
# umount, knfsd stopped and unloaded under a waiting write, the client
# port's parent reset during a read and a write with xprtrdma
# reconnecting), the ports in the initial namespace (iwarp_ours_pair), and
# the iWARP checks nfs_rdma.sh adds in that mode: offloaded connections
# carrying the payload, no CRC or stream error and no Terminate, nothing
# left in either irdma or engine at the end. svcrdma's RDMA READs on
# iWARP register their sink with FRWR and read with invalidate
# (rdma_rw_init_mr_wrs(): IB_WR_RDMA_READ_WITH_INV).
. /mnt/host/top/tests/vm/nfs_rdma.sh
