#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# rdma-protocol: iwarp
# timeout: 600
# check: on-demand
# share: tests/vm/nvme_rdma.sh
# nvme_rdma over iWARP with our irdma: both functions switched to iWARP,
# the ports set up by iwarp_ours_pair, the same connect, data and
# teardown checks, and those nvme_rdma.sh adds in that mode: one
# offloaded connection per queue in both engines and both irdmas, the
# payload in the engines' bytes, no CRC or stream error and no
# Terminate, nothing left in either irdma or engine at the end. The
# target's RDMA READs on iWARP go into an FRWR-registered sink, read
# with invalidate (rdma_rw_init_mr_wrs(): IB_WR_RDMA_READ_WITH_INV).
. /mnt/host/top/tests/vm/nvme_rdma.sh
