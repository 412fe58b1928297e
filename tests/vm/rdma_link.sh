#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# rdma-driver: ours stock
# timeout: 300
# boot: shared
# kernel: 6.1 7
# irdma registers one RoCEv2 ib_device per function, irdma0 and irdma1,
# on the function's netdev; `rdma link` shows them ACTIVE once the netdevs
# are up, and `ibv_devinfo -v` (our rdma-core build, stock provider) shows
# an ACTIVE Ethernet port and the GEN_2 attributes upstream reports:
# limits of icrdma_init_hw(), object counts from the HMC the driver
# committed as the device model saw it (QMP x-hmc-counts), the firmware
# version the device reports, one completion vector per CPU (CEQs), no
# atomics or SRQ; an MTU change reaches the port. Under the stock irdma
# (rdma-driver stock) the same checks hold with its own accounting:
# irdma_query_device() subtracts the objects it reserves at probe, and it
# advertises memory windows.
. "$E810_LIB"

modprobe ib_uverbs || fail "modprobe ib_uverbs"
# Which irdma runs: ours is out of tree (taint O), the stock one is signed
# and in-tree (no taint).
if [ "$E810_RDMA_DRIVER" = stock ]; then
	expect_eq "irdma taint (stock module)" "" "$(cat /sys/module/irdma/taint)"
else
	t=$(cat /sys/module/irdma/taint)
	[[ $t == *O* ]] && ok "irdma taint '$t': ours, out of tree" ||
		fail "irdma taint '$t': want O (ours, out of tree)"
fi
mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions" 2 "${#devs[@]}"
rdma_wait_all_active 15 || fail "ports not ACTIVE"

expect_eq "uverbs ABI versions" 5 "$(cat /sys/class/infiniband_verbs/uverbs*/abi_version | sort -u | xargs)"
names=$(for d in "${devs[@]}"; do e810_ibdev_of "$d"; done | xargs)
expect_eq "ib_devices of the functions" "irdma0 irdma1" "$names"
# The run's irdma is bound to the parent's auxiliary devices: ice_lite
# and ice 6.1 number them from 0 (ida_alloc()), ice 6.12 from 1
# (xa_alloc() from 1 in ice_init_rdma()). Ours is the one depmod finds
# (updates/); the stock one was loaded by path.
[ "$E810_RDMA_DRIVER" = ours ] &&
	expect_eq "irdma module" updates "$(modinfo -n irdma | grep -o /updates/ | tr -d /)"
want_aux="$E810_PARENT.roce.0 $E810_PARENT.roce.1"
[ "$E810_PARENT" = ice ] && [[ $(uname -r) != 6.1.* ]] &&
	want_aux="ice.roce.1 ice.roce.2"
expect_eq "auxiliary devices" "$want_aux" \
	"$(for d in "${devs[@]}"; do e810_aux_of "$d"; done | xargs)"
expect_eq "bound to irdma" "irdma irdma" \
	"$(for d in "${devs[@]}"; do module_of "/sys/bus/auxiliary/devices/$(e810_aux_of "$d")"; done | xargs)"

for d in "${devs[@]}"; do
	ib=$(e810_ibdev_of "$d")
	nd=$(e810_netdev_of "$d")
	aux=$(e810_aux_of "$d")
	[ -n "$ib" ] || { fail "$d: no ib_device"; continue; }
	line=$(rdma link show "$ib/1")
	expect_eq "$ib rdma link" "link $ib/1 state ACTIVE physical_state LINK_UP netdev $nd" "$(echo $line)"
	expect_eq "$ib node_type" "1: CA" "$(cat /sys/class/infiniband/$ib/node_type)"
	expect_eq "$ib link_layer (sysfs)" Ethernet "$(cat /sys/class/infiniband/$ib/ports/1/link_layer)"

	out=$(ibv_devinfo -v -d "$ib" 2>&1) || fail "$ib: ibv_devinfo: $out"
	expect_eq "$ib port state" "PORT_ACTIVE (4)" "$(ibv_attr "$ib" state)"
	expect_eq "$ib link_layer" Ethernet "$(ibv_attr "$ib" link_layer)"
	expect_eq "$ib vendor_id" 0x8086 "$(ibv_attr "$ib" vendor_id)"
	expect_eq "$ib vendor_part_id" 5522 "$(ibv_attr "$ib" vendor_part_id)"
	expect_eq "$ib hw_ver" 0x2 "$(ibv_attr "$ib" hw_ver)"
	expect_eq "$ib fw_ver" 1.74 "$(ibv_attr "$ib" fw_ver)"
	# GUID: the netdev's MAC as EUI-64.
	mac=$(cat "/sys/class/net/$nd/address")
	IFS=: read -r m0 m1 m2 m3 m4 m5 <<<"$mac"
	guid=$(printf '%02x%s:%s%s:%s%s:%s%s' $((16#$m0 ^ 2)) "$m1" "$m2" ff fe "$m3" "$m4" "$m5")
	expect_eq "$ib node_guid" "$guid" "$(ibv_attr "$ib" node_guid)"
	# Counts from the committed HMC, as the model saw them. The stock
	# irdma reserves QP 0-2 and CQ 0-2 (GSI, ILQ, IEQ), MR index 0 and
	# PD 0-2 at probe and reports what is left; ours keeps QP 0-1 (GSI),
	# CQ 0 (CCQ), MR index 0, AH 0 and PD 0 back and reports the rest.
	hq=$(model_hmc_count "$d" QP)
	[ -n "$hq" ] && [ "$hq" -gt 0 ] || fail "$d: no HMC QP count from the model: '$hq'"
	rq=2 rc=1 rm=1 ra=1 rp=1
	[ "$E810_RDMA_DRIVER" = stock ] && rq=3 rc=3 rm=1 ra=0 rp=3
	expect_eq "$ib max_qp = HMC QP - $rq" $((hq - rq)) "$(ibv_attr "$ib" max_qp)"
	expect_eq "$ib max_cq = HMC CQ - $rc" $(($(model_hmc_count "$d" CQ) - rc)) "$(ibv_attr "$ib" max_cq)"
	expect_eq "$ib max_mr = HMC MR - $rm" $(($(model_hmc_count "$d" MR) - rm)) "$(ibv_attr "$ib" max_mr)"
	expect_eq "$ib max_ah = HMC FSIAV - $ra" $(($(model_hmc_count "$d" FSIAV) - ra)) "$(ibv_attr "$ib" max_ah)"
	# A multicast group is an FSIMC object: ours reports their count; the
	# stock irdma reports its QP count (upstream's max_mcg = max_qp).
	if [ "$E810_RDMA_DRIVER" = stock ]; then
		expect_eq "$ib max_mcast_grp = HMC QP" "$hq" "$(ibv_attr "$ib" max_mcast_grp)"
	else
		hmg=$(model_hmc_count "$d" FSIMC)
		# Equal to the QP count with the default 32 SDs; rdma_scale
		# checks a layout where they differ.
		[ -n "$hmg" ] && [ "$hmg" -gt 0 ] ||
			fail "$d: no HMC FSIMC count from the model: '$hmg'"
		expect_eq "$ib max_mcast_grp = HMC FSIMC" "$hmg" "$(ibv_attr "$ib" max_mcast_grp)"
		expect_eq "$ib max_total_mcast_qp_attach = FSIMC x 8" $((hmg * 8)) \
			"$(ibv_attr "$ib" max_total_mcast_qp_attach)"
	fi
	expect_eq "$ib max_pd" $((262144 - rp)) "$(ibv_attr "$ib" max_pd)"
	if [ "$E810_RDMA_DRIVER" = ours ]; then
		expect_eq "$ib HMC QP: debugfs = model" "$hq" "$(hmc_count "$aux" QP)"
		expect_eq "$ib HMC PBLE: debugfs = model" "$(model_hmc_count "$d" PBLE)" "$(hmc_count "$aux" PBLE)"
	fi
	# GEN_2 limits (docs/hw-reference.md 2.7).
	expect_eq "$ib max_qp_wr" 4063 "$(ibv_attr "$ib" max_qp_wr)"
	expect_eq "$ib max_sge" 13 "$(ibv_attr "$ib" max_sge)"
	expect_eq "$ib max_sge_rd" 13 "$(ibv_attr "$ib" max_sge_rd)"
	# max_hw_cq_size - 1; its ring, (cqe + 1) x 2 entries, fits CQSIZE.
	expect_eq "$ib max_cqe" 1048574 "$(ibv_attr "$ib" max_cqe)"
	expect_eq "$ib max_mr_size" 0x200000000000 "$(ibv_attr "$ib" max_mr_size)"
	expect_eq "$ib max_qp_rd_atom (IRD)" 127 "$(ibv_attr "$ib" max_qp_rd_atom)"
	expect_eq "$ib max_qp_init_rd_atom (ORD)" 255 "$(ibv_attr "$ib" max_qp_init_rd_atom)"
	expect_eq "$ib max_mcast_qp_attach" 8 "$(ibv_attr "$ib" max_mcast_qp_attach)"
	expect_eq "$ib max_pkeys" 1 "$(ibv_attr "$ib" max_pkeys)"
	# Not supported on this device: not advertised.
	expect_eq "$ib atomic_cap" "ATOMIC_NONE (0)" "$(ibv_attr "$ib" atomic_cap)"
	expect_eq "$ib max_srq" 0 "$(ibv_attr "$ib" max_srq)"
	# memory windows (= max_mr), MEM_MGT_EXTENSIONS, RC_RNR_NAK_GEN; ours
	# also MEM_WINDOW_TYPE_2B (type 2 windows, which the stock one binds
	# but ib_core does not let it allocate). The stock irdma with GEN_3
	# code (the one that links against idpf: 7.x) allocates windows on
	# GEN_3 only (irdma_gen3_dev_ops) and reports max_mw 0 here, the
	# capability flag unchanged (irdma_query_device()).
	mw=$(ibv_attr "$ib" max_mr)
	[ "$E810_RDMA_DRIVER" = stock ] &&
		modinfo -F depends /usr/lib/e810-stock/irdma.ko* | grep -qw idpf &&
		mw=0
	expect_eq "$ib max_mw" "$mw" "$(ibv_attr "$ib" max_mw)"
	if [ "$E810_RDMA_DRIVER" = stock ]; then
		expect_eq "$ib device_cap_flags" 0x00221000 "$(ibv_attr "$ib" device_cap_flags)"
	else
		expect_eq "$ib device_cap_flags" 0x01221000 "$(ibv_attr "$ib" device_cap_flags)"
	fi
	# Port: MTU follows the netdev (1500 -> 1024), 4096 at most.
	expect_eq "$ib max_mtu" "4096 (5)" "$(ibv_attr "$ib" max_mtu)"
	expect_eq "$ib active_mtu" "1024 (3)" "$(ibv_attr "$ib" active_mtu)"
	# One completion vector per CPU (upstream: one CEQ per MSI-X vector
	# beyond the AEQ's, at most one per CPU); ours shows its CEQs.
	expect_eq "$ib num_comp_vectors" "$(nproc)" "$(ibv_attr "$ib" num_comp_vectors)"
	if [ "$E810_RDMA_DRIVER" = ours ]; then
		expect_eq "$ib CEQs" "$(nproc)" "$(awk '$1 == "ceqs" { print $2 }' /sys/kernel/debug/irdma/$aux/cqp)"
	fi
	expect_eq "$ib gid table length" 32 "$(ls /sys/class/infiniband/$ib/ports/1/gids | wc -l)"
done

# The MTU follows the netdev: 4200 -> 4096.
nd=$(e810_netdev_of "${devs[0]}")
ib=$(e810_ibdev_of "${devs[0]}")
mtu_after0=$(irdma_ev "${devs[0]}" mtu_after)
ip link set "$nd" mtu 4200 || fail "mtu 4200"
expect_eq "$ib active_mtu at mtu 4200" "4096 (5)" "$(ibv_attr "$ib" active_mtu)"
if [ "$E810_RDMA_DRIVER" = ours ]; then
	# irdma's debugfs events: one more AFTER_MTU_CHANGE, carrying 4200
	# (the stock ice sends it later, from its service task).
	wait_for "[ \"\$(irdma_ev ${devs[0]} mtu_after)\" = $((mtu_after0 + 1)) ]" 10 &&
		ok "$ib saw the MTU event" || fail "$ib: no MTU event counted"
	expect_eq "$ib: MTU of the last MTU event" 4200 "$(irdma_ev "${devs[0]}" mtu)"
fi
ip link set "$nd" mtu 1500

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
