#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: x722e810
# parent: i40e
# rdma-driver: ours
# timeout: 1200
# check: on-demand
# share: tests/vm/x722_e810.sh
# x722_e810 with our irdma on both functions (GEN_1 on the X722 through
# i40e_if.c, GEN_2 on the E810 switched to iWARP through ice_if.c) and
# our provider on both: the same rpings both ways, cm_data both ways,
# perftest -R both ways and the X722 against siw, with the same checks
# but one: siw's client (MPA v2 without the peer-to-peer bit) is accepted
# by our passive side, where the stock irdma resets it (docs/irdma.md
# "MPA"): one connection offloaded, the rping done.
X722_E810_PROVIDER=ours
. /mnt/host/top/tests/vm/x722_e810.sh
