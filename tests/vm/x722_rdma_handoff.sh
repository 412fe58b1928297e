#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: x722
# parent: i40e
# rdma-driver: none
# timeout: 300
# check: on-demand
# The RDMA hand-off of the X722 (docs/hw-model-x722.md, "RDMA"): with
# the iWARP capability and 2 vCPUs the stock i40e publishes one
# auxiliary device i40e.iwarp.N per function, the stock irdma's GEN_1
# driver binds them and its open runs on the model's GEN_1 protocol
# engine: the control QP, the HMC from the SD after the LAN's, the CCQ,
# CEQs, the AEQ and the local MAC table, up to an iWARP ib_device per
# function whose port follows its netdev. Unloading irdma tears all of
# it down again (the engine's state, read over QMP, back to nothing).
. "$E810_LIB"

x722_pci_devs() {
	local d
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = 0x8086 ] && [ "$(cat "$d/device")" = 0x37d0 ] &&
			echo "${d##*/}"
	done
}

mapfile -t devs < <(x722_pci_devs)
expect_eq "x722 functions" 2 "${#devs[@]}"
# The guest kernel's own irdma (outside the module tree) after what its
# modinfo names (ice and i40e; idpf too on 7.x): irdma_load's stock path.
modprobe -a ib_uverbs i40e &&
	E810_RDMA_DRIVER=stock irdma_load ||
	fail "loading the stock irdma failed"
wait_for "[ \$(ls -d /sys/bus/auxiliary/devices/i40e.iwarp.* 2>/dev/null | wc -l) = 2 ]" 30
aux=$(ls -d /sys/bus/auxiliary/devices/i40e.iwarp.* 2>/dev/null | wc -l)
expect_eq "i40e.iwarp auxiliary devices" 2 "$aux"
for a in /sys/bus/auxiliary/devices/i40e.iwarp.*; do
	[ -e "$a" ] || continue
	drv=none
	[ -e "$a/driver" ] && drv=$(basename "$(readlink -f "$a/driver")")
	echo "${a##*/}: parent $(basename "$(readlink -f "$a/..")"), driver $drv"
done
# The engine's state of function $1 (0, 1): field $2 of QMP x-pe-stats.
pe_stat() {
	e810_qom_str "x722-$1" x-pe-stats | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# irdma's GEN_1 open runs from i40e's service task, once a second.
wait_for "[ \$(ls /sys/class/infiniband 2>/dev/null | wc -l) = 2 ]" 60
echo "--- irdma and i40e client log:"
dmesg | grep -E 'irdma|i40iw|iwarp|client' | head -40
for f in 0 1; do
	echo "--- the engine of x722-$f: $(e810_qom_str "x722-$f" x-pe-stats)"
done
ibdevs=()
for d in /sys/class/infiniband/*; do
	[ -e "$d" ] || continue
	# the ib_device's parent: the PCI function (or its aux device)
	p=$(readlink -f "$d/device")
	case "${p##*/}" in i40e.iwarp.*) p=${p%/*} ;; esac
	p=${p##*/}
	case " ${devs[*]} " in *" $p "*) ibdevs+=("${d##*/}") ;; esac
	echo "${d##*/}: on $p, node_type $(cat "$d/node_type"), link_layer $(cat "$d/ports/1/link_layer")"
done
expect_eq "ib_devices on the X722 functions" 2 "${#ibdevs[@]}"
for ib in "${ibdevs[@]}"; do
	case "$(cat "/sys/class/infiniband/$ib/node_type")" in
	*RNIC*) ok "$ib is an iWARP RNIC" ;;
	*) fail "$ib node_type $(cat "/sys/class/infiniband/$ib/node_type")" ;;
	esac
done
for f in 0 1; do
	expect_eq "x722-$f CQP created" 1 "$(pe_stat $f pe_cqp)"
	expect_eq "x722-$f CQP errors" 0 "$(pe_stat $f pe_cqp_errors)"
	expect_eq "x722-$f HMC committed" 1 "$(pe_stat $f pe_hmc_committed)"
	expect_eq "x722-$f first PE SD" 16 "$(pe_stat $f pe_first_sd)"
	expect_eq "x722-$f AEQ" 1 "$(pe_stat $f pe_aeq)"
	expect_eq "x722-$f local MAC entries" 1 "$(pe_stat $f pe_loc_macs)"
	# the CCQ and the ILQ's and IEQ's CQs; the ILQ and IEQ UDA QPs
	expect_eq "x722-$f CQs" 3 "$(pe_stat $f pe_cqs)"
	expect_eq "x722-$f QPs" 2 "$(pe_stat $f pe_qps)"
	[ "$(pe_stat $f pe_ceqs)" -ge 1 ] 2>/dev/null &&
		ok "x722-$f has $(pe_stat $f pe_ceqs) CEQs" ||
		fail "x722-$f CEQs: $(pe_stat $f pe_ceqs)"
done
rdma link show
links=$(rdma link show 2>/dev/null | grep -c ' netdev ')
expect_eq "rdma links with a netdev" 2 "$links"
# The port follows its netdev: ACTIVE once it is up with a carrier.
for ib in "${ibdevs[@]}"; do
	nd=$(rdma link show "$ib/1" | sed -n 's/.* netdev \([^ ]*\).*/\1/p')
	ip link set "$nd" up
	wait_carrier "$nd" 10
	if wait_port_state "$ib" ACTIVE 20; then
		ok "$ib/1 ACTIVE with $nd up"
	else
		fail "$ib/1 is $(rdma_port_state "$ib") with $nd up"
	fi
done
# Unload: irdma destroys what it created and the CQP itself.
rmmod irdma || fail "rmmod irdma"
wait_for "[ \$(ls /sys/class/infiniband 2>/dev/null | wc -l) = 0 ]" 30
expect_eq "ib_devices after rmmod irdma" 0 "$(ls /sys/class/infiniband 2>/dev/null | wc -l)"
for f in 0 1; do
	echo "--- after rmmod, x722-$f: $(e810_qom_str "x722-$f" x-pe-stats)"
	expect_eq "x722-$f CQP after rmmod" 0 "$(pe_stat $f pe_cqp)"
	expect_eq "x722-$f CEQs after rmmod" 0 "$(pe_stat $f pe_ceqs)"
	expect_eq "x722-$f AEQ after rmmod" 0 "$(pe_stat $f pe_aeq)"
	expect_eq "x722-$f CQs after rmmod" 0 "$(pe_stat $f pe_cqs)"
	expect_eq "x722-$f QPs after rmmod" 0 "$(pe_stat $f pe_qps)"
	expect_eq "x722-$f local MAC entries after rmmod" 0 "$(pe_stat $f pe_loc_macs)"
	expect_eq "x722-$f CQP errors after rmmod" 0 "$(pe_stat $f pe_cqp_errors)"
done
echo "--- the model: $(e810_qom_str x722-0 x-stats)"
if dmesg_clean; then
	ok "no oops, warning or leak in dmesg"
else
	fail "dmesg shows problems"
	dmesg | grep -B 3 -A 14 -E 'WARNING:|Call Trace:' | head -80
fi
finish
