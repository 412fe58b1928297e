#!/bin/bash
# topology: hub2
# timeout: 600
# memory: 2G
# e810-props: hmc-sds=160
. "$E810_LIB"
rdma_two_ports || finish
aux=$(e810_aux_of "$(e810_pci_devs | head -n 1)")
cat /sys/kernel/debug/irdma/$aux/cqp > /tmp/before
t0=$(date +%s%N)
/mnt/host/progs/scale_qp_mr "$ib0" 192.168.81.1 512 2 > /tmp/o 2>&1; echo "rc=$?"
cat /tmp/o
cat /sys/kernel/debug/irdma/$aux/cqp > /tmp/after
diff /tmp/before /tmp/after
finish
