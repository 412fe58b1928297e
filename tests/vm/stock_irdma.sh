#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# rdma-driver: stock
# timeout: 600
# boot: shared
# The guest kernel's stock irdma, bound to the stock ice's ice.roce.<N>,
# with rdma-core's stock provider, on the emulated E810: what the shared
# scenarios (rdma_link, provider_pingpong, rdma_cm, perftest, rdma_loss,
# pyverbs, each also run @stock) do not cover.
#  - Hardware counters: `rdma statistic show` (read through GATHER_STATS)
#    moves with an ibv_rc_pingpong and agrees with the model's own
#    transport counters (QMP x-xport-stats): IPv4 packets sent and
#    received per port, and exactly the SEND messages the test made.
#  - 10 x rmmod irdma / insmod: both ports back ACTIVE each time, traffic
#    passes after the last.
#  - A parent reset (PCI FLR: ice rebuilds and re-plugs its RDMA device)
#    while a pingpong runs: both ports back ACTIVE, traffic passes again.
#  - Device attributes (`ibv_devinfo -v`): our irdma, loaded in place of
#    the stock one on the same model, reports what the stock one does,
#    but the counts that follow each driver's HMC sizing.
#  - The kernel log: no oops, warning or leak, no irdma error but the
#    retry exhaustion of the QP whose peer was reset.
. "$E810_LIB"

# The stock module is in-tree and signed: no out-of-tree taint.
expect_eq "irdma taint flags (stock module)" "" "$(cat /sys/module/irdma/taint)"
for d in $(e810_pci_devs); do
	aux=$(e810_aux_of "$d")
	expect_eq "$d: $aux bound to" irdma \
		"$(module_of "/sys/bus/auxiliary/devices/$aux")"
done
rdma_two_ports || finish
export RDMAV_DRIVERS=irdma	# the stock provider

# ---- counters ------------------------------------------------------------

hw_counters_check

# ---- module cycles -------------------------------------------------------

cycles_ok=1
for cycle in $(seq 1 10); do
	rmmod irdma || { fail "cycle $cycle: rmmod irdma"; cycles_ok=0; break; }
	n=$(ls /sys/class/infiniband 2>/dev/null | wc -l)
	[ "$n" = 0 ] || { fail "cycle $cycle: $n ib_devices left after rmmod"; cycles_ok=0; }
	irdma_load || { fail "cycle $cycle: loading irdma"; cycles_ok=0; break; }
	rdma_wait_all_active 20 || { fail "cycle $cycle: ports not ACTIVE"; cycles_ok=0; break; }
done
[ $cycles_ok = 1 ] && ok "10 rmmod/insmod cycles, ports ACTIVE after each"
rdma_two_ports || finish
rc_pingpong 1024 50 && ok "pingpong after the module cycles" ||
	fail "pingpong after the module cycles: $(tail -n 2 /tmp/pp-client.log)"

# ---- parent reset under traffic -------------------------------------------

ip netns exec peer timeout 60 ibv_rc_pingpong -d "$ib1" -g "$g1" -n 100000 \
	-s 4096 >/dev/null 2>&1 &
spid=$!
sleep 1
timeout 60 ibv_rc_pingpong -d "$ib0" -g "$g0" -n 100000 -s 4096 \
	192.168.81.2 >/dev/null 2>&1 &
cpid=$!
sleep 3
dev0=$(e810_pci_devs | head -n 1)
pfr0=$(model_stat "$dev0" pf_resets)
echo 1 >"/sys/bus/pci/devices/$dev0/reset" && ok "FLR of $dev0 under traffic" ||
	fail "FLR of $dev0 refused"
# The pingpong loses its QPs with the reset: it ends with an error.
wait "$cpid"
wait "$spid"
# The device itself ran the function reset (QMP x-core-stats).
n=$(model_stat "$dev0" pf_resets)
[ "${n:-0}" -gt "${pfr0:-0}" ] && ok "the device reset $dev0 ($((n - pfr0)) PF resets)" ||
	fail "the device saw no reset of $dev0 (pf_resets '$pfr0' -> '$n')"
rdma_wait_all_active 60 && ok "both ports ACTIVE after the reset" ||
	fail "ports not ACTIVE after the reset"
rdma_two_ports || finish
rc_pingpong 4096 50 && ok "pingpong after the reset" ||
	fail "pingpong after the reset: $(tail -n 2 /tmp/pp-client.log) / $(tail -n 2 /tmp/pp-server.log)"

# Allowed: the pingpong QP whose peer was reset runs out of retries
# (AE 0x50a, LLP_TOO_MANY_RETRIES), which the stock irdma logs as an error;
# and the second flush of that QP (its AE handler flushed it, then the
# exiting pingpong's move to ERR asks again): irdma_sc_qp_flush_wqes()
# refuses it with -EALREADY before any CQP WQE is written (so maj and min
# are 0) and irdma_handle_cqp_op() logs that as a "Flush QP Cmd Error".
# The log is kernel_log's: without the debug kernel's reports that are
# not ours (tools/guest/debug-kernel.suppress).
bad=$(kernel_log --level=err,warn | grep -E 'irdma' | grep -v 'module verification' |
	grep -v 'abnormal ae_id = 0x50a ' |
	grep -vE '\[Flush QP Cmd Error\]\[op_code=18\] status=-114 .* maj=0x0 min=0x0$')
[ -z "$bad" ] && ok "no irdma error or warning in dmesg" ||
	fail "irdma errors/warnings: $(head -n 5 <<<"$bad")"

# ---- device attributes: ours against the stock irdma ------------------------

# Every attribute `ibv_devinfo -v` shows for the first function's
# ib_device (the drivers may name the two functions in another order), as
# "name value" lines (the stock provider reads them for both drivers).
devattrs() {
	ibv_devinfo -v -d "$(e810_ibdev_of "$(e810_pci_devs | head -n 1)")" | awk -F: '
		/^[ \t]+[a-z_]+:/ { k = $1; gsub(/[ \t]/, "", k); v = $0
			sub(/^[^:]*:[ \t]*/, "", v); gsub(/[ \t]+/, " ", v); print k, v }'
}
devattrs >/tmp/attrs-stock
rmmod irdma || fail "rmmod the stock irdma"
modprobe irdma && rdma_wait_all_active 20 || fail "our irdma not ACTIVE"
devattrs >/tmp/attrs-ours
echo "ibv_devinfo -v of the first function, stock irdma | ours (differences):"
diff <(sort /tmp/attrs-stock) <(sort /tmp/attrs-ours) | sed -n 's/^[<>]/    &/p'

# Allowed (rdma_link.sh checks each against its own rule): the counts that
# follow each driver's HMC sizing and reserved objects (the stock irdma
# reserves QPs/CQs 0-2, MR 0 and PDs 0-2; ours PD 0, and max_mw with
# max_mr). device_cap_flags: ours are the stock irdma's plus
# MEM_WINDOW_TYPE_2B: the E810 binds type 2 windows (IBV_WR_BIND_MW),
# which ib_core refuses to allocate without that flag.
allowed='^(max_qp|max_cq|max_mr|max_pd|max_mw|max_ah|max_mcast_grp|max_total_mcast_qp_attach) '
n=0
while read -r k v; do
	o=$(awk -v k="$k" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' /tmp/attrs-ours)
	case $k in device_cap_flags*)
		# IB_DEVICE_MEM_WINDOW_TYPE_2B
		v=$(printf '0x%x' $((v | 0x1000000))) o=$(printf '0x%x' $((o)))
	esac
	n=$((n + 1))
	[ "$o" = "$v" ] && continue
	grep -qE "$allowed" <<<"$k " && continue
	fail "device attribute $k: stock '$v', ours '$o'"
done </tmp/attrs-stock
[ "$n" -gt 40 ] && ok "$n device and port attributes: ours equal the stock irdma's (but HMC counts and type 2 windows)" ||
	fail "only $n attributes read from ibv_devinfo -v"

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
