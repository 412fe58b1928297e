#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# rdma-driver: stock
# rdma-protocol: iwarp
# timeout: 1200
# share: tests/vm/stock_iwarp.sh
# stock_iwarp with its closing cases (IWARP_CLOSING=1): kill -9 of either
# side of rping and of ib_write_bw mid-transfer, the listener side closing
# first (ucmatose), with the stock provider and then with ours
# (IWARP_CLOSING_PROVIDERS). make check runs this one, which holds all of
# stock_iwarp; stock_iwarp alone is on demand. Each closing case is
# bounded (60 s, then the guest's blocked tasks are dumped: sysrq-w).
IWARP_CLOSING=1
IWARP_CLOSING_PROVIDERS="stock ours"
. /mnt/host/top/tests/vm/stock_iwarp.sh
