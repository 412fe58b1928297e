#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 1200
# share: tests/vm/nfs_rdma.sh
# On demand, not in make check: the nfs_rdma scenario with its rate step,
# 64 MiB through NFSv4.2 over RDMA and over TCP between the same two ports
# (each copy checked by sha256), the figures docs/performance.md quotes.
#   tools/vm run tests/bench/nfs_rates.sh
NFS_RDMA_RATES=1
. /mnt/host/top/tests/vm/nfs_rdma.sh
