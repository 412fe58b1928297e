#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# rdma-protocol: iwarp
# timeout: 900
# check: on-demand
# share: tests/vm/module_cycles.sh
# module_cycles with our irdma in iWARP mode, the ports two hosts in
# init_net (iwarp_ours_pair): 4 cycles (E810_CYCLES) of rmmod irdma
# <parent> / modprobe <parent> irdma with module_cycles' own checks; the
# odd ones unload under live connections (an rping listener on each port,
# a verified rping between them carrying data): after the rmmod of irdma
# every rping ends within 30 s, rdma_cm keeps no id and no QP of theirs,
# neither engine keeps an offloaded connection (x-iwarp-stats conns=0),
# both functions' APBVT and quad hash are empty. After each modprobe of
# the parent both functions go back to iWARP (devlink) with their
# addresses; at the end a verified rping works, no connection node is
# left in either irdma, neither engine saw a CRC or stream error or a
# Terminate, and the kernel log is clean.
. /mnt/host/top/tests/vm/module_cycles.sh
