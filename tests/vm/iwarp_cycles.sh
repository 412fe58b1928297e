#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# rdma-protocol: iwarp
# timeout: 900
# check: on-demand
# share: tests/vm/rdma_cycles.sh
# rdma_cycles with our irdma in iWARP mode, the ports two hosts in
# init_net (iwarp_ours_pair): 6 rmmod/modprobe cycles (E810_CYCLES), every
# other one under live connections: an rping listener on each port and a
# verified rping (-V) between them carrying data, as are the first two
# parent unbinds (the client's function, then the server's; the function
# switched back to iWARP and readdressed after its bind) and the parent
# reset. Each time every rping process ends within 30 s, rdma_cm keeps no
# id and no QP of theirs, neither engine keeps an offloaded connection
# (x-iwarp-stats conns=0) and both functions' APBVT and quad hash are
# empty; rdma_cycles' own checks (no valid SD left, clean teardowns,
# ACTIVE again) hold, a verified rping works at the end, no connection
# node is left in either irdma, neither engine saw a CRC or stream error
# or a Terminate, and the kernel log is clean.
. /mnt/host/top/tests/vm/rdma_cycles.sh
