#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# rdma-driver: stock
# rdma-protocol: iwarp
# timeout: 900
# check: on-demand
# share: tests/vm/stock_iwarp.sh
# stock_iwarp with its closing cases (IWARP_CLOSING=1): kill -9 of either
# side of rping and of ib_write_bw mid-transfer, the listener side closing
# first (ucmatose), with the stock provider and then with ours
# (IWARP_CLOSING_PROVIDERS). On demand because one make check run hung
# after the rping client's kill (stock_iwarp.sh, "closing"); run it with
#   tools/vm check stock_iwarp_close
IWARP_CLOSING=1
IWARP_CLOSING_PROVIDERS="stock ours"
. /mnt/host/top/tests/vm/stock_iwarp.sh
