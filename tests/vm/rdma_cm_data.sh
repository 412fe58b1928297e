#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# rdma-driver: ours stock
# timeout: 600
# boot: shared
# progs/cm_data over RoCEv2 (docs/testing.md, "Compiled guest programs"):
# the RDMA-CM program iwarp_data runs on iWARP, here between irdma0 (root
# namespace) and irdma1 (namespace "peer"), once with the stock provider
# and once with ours. Per size of 1 B .. 1 MiB (10 sizes): SEND, SEND with
# immediate, RDMA WRITE, RDMA WRITE with immediate and RDMA READ, 1 or 3
# SGEs; the server checks every byte received and the guard bytes around
# it, the immediates and the receive completions (RECV /
# RECV_RDMA_WITH_IMM, byte_len), the client its own completions and every
# byte READ brought. Both exit 0 with 50 steps and every payload counted;
# no error in the kernel log.
. "$E810_LIB"

PORT=7200

[ -x /mnt/host/progs/cm_data ] || { fail "progs/cm_data not built"; finish; }
rdma_two_ports || finish
CM_DATA_NS=peer
for E810_PROVIDER in ${PROVIDERS_OVERRIDE:-stock ours}; do
	provider_env
	t0=$SECONDS
	cm_data_run 192.168.81.2 192.168.81.1 $PORT 180
	cm_data_check "RoCE, $E810_PROVIDER_NAME provider" 1 1
	echo "$E810_PROVIDER_NAME: cm_data in $((SECONDS - t0)) s"
	PORT=$((PORT + 1))
done
bad=$(dmesg_clean) && ok "kernel log clean" ||
	{ fail "kernel log:"; echo "$bad" | head -n 20 | sed 's/^/  /'; }
finish
