#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# rdma-driver: ours stock
# timeout: 300
# boot: shared
# The verbs real applications use, as they use them (progs/app_verbs.c):
# the MR access flags of qperf, UCX's memory domain and libfabric's verbs
# provider (REMOTE_ATOMIC among them, which upstream irdma takes and
# ignores on GEN_2), each MR then written and read through its rkey; the
# QP shapes of qperf (no send or no receive WRs), libfabric's inline-size
# bisection (GEN_2's 101 bytes) and endpoint QPs; UCX's ud_verbs
# interface: create_qp_ex, INIT/RTR/RTS, receives posted in chained lists
# of 16, 256 datagrams inline and in two SGEs with every 64th send
# signaled, each payload compared. Once with each provider, under our
# irdma and under the stock irdma (the judge: what it accepts, ours
# must). The clients themselves run in apps_qperf, apps_ucx and
# apps_fabric.
. "$E810_LIB"

rdma_two_ports || finish
for prov in stock ours; do
	E810_PROVIDER=$prov provider_env
	log=/tmp/app_verbs.$prov.log
	if timeout 120 /mnt/host/progs/app_verbs "$ib0" 192.168.81.1 >"$log" 2>&1; then
		ok "$E810_PROVIDER_NAME provider: app_verbs, $(grep -c '^ok' "$log") checks passed"
	else
		fail "$E810_PROVIDER_NAME provider: app_verbs failed (status $?), $(grep -c '^ok' "$log") checks passed:"
		grep -v '^ok' "$log" | head -n 20 | sed 's/^/  /'
	fi
done
finish
