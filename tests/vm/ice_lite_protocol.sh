#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 300
# boot: shared
# ice_lite chooses the RDMA protocol as the stock ice does, with the
# generic devlink runtime parameters enable_roce / enable_iwarp
# (ice_lite_devlink.c; docs/parent-contract.md, "Protocol"):
#  - at probe: enable_roce true, enable_iwarp false, ice_lite.roce.<N>
#    bound to irdma; iWARP refused (-EOPNOTSUPP) while RoCEv2 is on, any
#    cmode but runtime refused (iproute2 reads the cmodes from the
#    parameter); setting the current value changes nothing;
#  - function 0: enable_roce false withdraws ice_lite.roce.<N> (its
#    ib_device goes); enable_iwarp true publishes ice_lite.iwarp.<N> with
#    the same <N> and protocol IWARP; our irdma binds it (an RNIC
#    ib_device); RoCEv2 refused while iWARP is on; a PF reset publishes
#    ice_lite.iwarp.<N> again and irdma binds it again;
#  - back: enable_iwarp false, enable_roce true: ice_lite.roce.<N> bound
#    to irdma, port ACTIVE in `rdma link`; enable_roce true once more
#    changes nothing (same ib_device);
#  - function 1 keeps its RoCEv2 device ACTIVE throughout;
#  - the kernel log: no oops or warning.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 e810 functions, got ${#devs[@]}"; finish; }
d0=${devs[0]} d1=${devs[1]}
rdma_wait_all_active 30 || fail "ports not ACTIVE at start"

param() {
	devlink dev param show "pci/$1" name "$2" 2>/dev/null |
		sed -n 's/.*cmode runtime value \([a-z]*\).*/\1/p'
}

# set_param DEV NAME VALUE [CMODE]: the devlink set; its stderr in
# /tmp/dl.err.
set_param() {
	devlink dev param set "pci/$1" name "$2" value "$3" \
		cmode "${4:-runtime}" 2>/tmp/dl.err
}

# Auxiliary devices below PCI function $1 (any protocol).
aux_below() {
	local a
	for a in /sys/bus/auxiliary/devices/ice_lite.*; do
		[ -e "$a" ] || continue
		[ "$(basename "$(readlink -f "$a/..")")" = "$1" ] && basename "$a"
	done
}

# refused DEV NAME VALUE [CMODE]: the set fails, with EOPNOTSUPP from
# the kernel (runtime) or iproute2's refusal of a cmode the parameter
# does not list.
refused() {
	local why='Operation not supported'
	[ "${4:-runtime}" = runtime ] || why='Configuration mode not supported'
	if set_param "$@"; then
		fail "$1: $2=$3 ${4:-runtime} accepted"
	elif grep -q "$why" /tmp/dl.err; then
		ok "$1: $2=$3 ${4:-runtime} refused: $why"
	else
		fail "$1: $2=$3 ${4:-runtime} refused otherwise: $(cat /tmp/dl.err)"
	fi
}

# unchanged DEV NAME VALUE: setting a parameter to its current value;
# iproute2 sends nothing then (the kernel would refuse it as ice does,
# for the other protocol's parameter): succeeds, nothing changes.
unchanged() {
	local before
	before=$(aux_below "$1")
	set_param "$1" "$2" "$3" && ok "$1: $2=$3 (current value) accepted" ||
		fail "$1: $2=$3 (current value): $(cat /tmp/dl.err)"
	expect_eq "$1: auxiliary device after $2=$3" "$before" "$(aux_below "$1")"
}

# ---- at probe --------------------------------------------------------------

aux0=$(aux_below "$d0")
n0=${aux0##*.}
for d in "$d0" "$d1"; do
	expect_eq "$d: enable_roce" true "$(param "$d" enable_roce)"
	expect_eq "$d: enable_iwarp" false "$(param "$d" enable_iwarp)"
	a=$(aux_below "$d")
	case "$a" in
	ice_lite.roce.*) ok "$d publishes $a" ;;
	*) fail "$d: want ice_lite.roce.<N>, got '$a'" ;;
	esac
	expect_eq "$d: $a driver" irdma.ice_lite \
		"$(driver_of "/sys/bus/auxiliary/devices/$a")"
done
ib1=$(e810_ibdev_of "$d1")
ib1_idx=$(ibdev_index "$ib1")

refused "$d0" enable_iwarp true
unchanged "$d0" enable_iwarp false
refused "$d0" enable_roce true driverinit
refused "$d0" enable_roce false permanent
expect_eq "$d0: still" "$aux0" "$(aux_below "$d0")"

# ---- RoCEv2 -> iWARP ---------------------------------------------------------

set_param "$d0" enable_roce false && ok "$d0: enable_roce false" ||
	fail "$d0: enable_roce false: $(cat /tmp/dl.err)"
expect_eq "$d0: auxiliary devices after enable_roce false" "" "$(aux_below "$d0")"
expect_eq "$d0: ib_device after enable_roce false" "" "$(e810_ibdev_of "$d0")"
expect_eq "$d0: enable_roce" false "$(param "$d0" enable_roce)"
expect_eq "$d0: enable_iwarp" false "$(param "$d0" enable_iwarp)"

set_param "$d0" enable_iwarp true && ok "$d0: enable_iwarp true" ||
	fail "$d0: enable_iwarp true: $(cat /tmp/dl.err)"
expect_eq "$d0: auxiliary device in iWARP mode" "ice_lite.iwarp.$n0" \
	"$(aux_below "$d0")"
a=/sys/bus/auxiliary/devices/ice_lite.iwarp.$n0
expect_eq "$d0: modalias" auxiliary:ice_lite.iwarp "$(sed -n 's/^MODALIAS=//p' "$a/uevent" 2>/dev/null)"
expect_eq "$d0: enable_iwarp" true "$(param "$d0" enable_iwarp)"
expect_eq "$d0: enable_roce" false "$(param "$d0" enable_roce)"
# Our irdma binds ice_lite.iwarp in iWARP mode (docs/irdma.md "iWARP
# mode"): an RNIC ib_device.
expect_eq "$d0: ice_lite.iwarp.$n0 driver" irdma.ice_lite "$(driver_of "$a")"
wait_for "[ -n \"\$(e810_ibdev_of $d0)\" ]" 30
ibw=$(e810_ibdev_of "$d0")
[ -n "$ibw" ] && ok "$d0: ib_device $ibw in iWARP mode" ||
	fail "$d0: no ib_device in iWARP mode"
[ -n "$ibw" ] && expect_eq "$d0: $ibw node_type" "4: RNIC" \
	"$(cat "/sys/class/infiniband/$ibw/node_type")"
refused "$d0" enable_roce true
unchanged "$d0" enable_roce false

# The mode survives a PF reset: the device comes back as iWARP.
reb=$(ice_lite_ev "$d0" rebuilds)
port_parent_reset "$d0" "$(e810_netdev_of "$d0")"
wait_for "[ \"\$(ice_lite_ev $d0 rebuilds)\" = $((reb + 1)) ]" 60 &&
	ok "$d0: PF reset and rebuild" || fail "$d0: no rebuild after the reset"
wait_for "[ -e $a ]" 10
expect_eq "$d0: auxiliary device after the reset" "ice_lite.iwarp.$n0" \
	"$(aux_below "$d0")"
wait_for "[ \"\$(driver_of $a)\" = irdma.ice_lite ] &&
	[ -n \"\$(e810_ibdev_of $d0)\" ]" 30 &&
	ok "$d0: irdma bound again in iWARP mode after the reset" ||
	fail "$d0: after the reset: driver '$(driver_of "$a")', ib_device '$(e810_ibdev_of "$d0")'"

# ---- iWARP -> RoCEv2 ---------------------------------------------------------

set_param "$d0" enable_iwarp false && ok "$d0: enable_iwarp false" ||
	fail "$d0: enable_iwarp false: $(cat /tmp/dl.err)"
expect_eq "$d0: auxiliary devices after enable_iwarp false" "" "$(aux_below "$d0")"
set_param "$d0" enable_roce true && ok "$d0: enable_roce true" ||
	fail "$d0: enable_roce true: $(cat /tmp/dl.err)"
expect_eq "$d0: auxiliary device back in RoCEv2" "$aux0" "$(aux_below "$d0")"
expect_eq "$d0: $aux0 driver" irdma.ice_lite \
	"$(driver_of "/sys/bus/auxiliary/devices/$aux0")"
ip link set "$(e810_netdev_of "$d0")" up
wait_for "[ -n \"\$(e810_ibdev_of $d0)\" ]" 30
ib0=$(e810_ibdev_of "$d0")
wait_port_state "$ib0" ACTIVE 30 && ok "$d0: $ib0 ACTIVE in rdma link" ||
	fail "$d0: $ib0 port is '$(rdma_port_state "$ib0")'"
idx0=$(ibdev_index "$ib0")
set_param "$d0" enable_roce true && ok "$d0: enable_roce true again" ||
	fail "$d0: enable_roce true again: $(cat /tmp/dl.err)"
expect_eq "$d0: auxiliary devices after the second enable_roce" "$aux0" \
	"$(aux_below "$d0")"
expect_eq "$d0: ib_device index after the second enable_roce" "$idx0" \
	"$(ibdev_index "$(e810_ibdev_of "$d0")")"

# ---- the other function ----------------------------------------------------

expect_eq "$d1: ib_device index throughout" "$ib1_idx" "$(ibdev_index "$ib1")"
expect_eq "$d1: $ib1 port" ACTIVE "$(rdma_port_state "$ib1")"
expect_eq "$d1: enable_roce" true "$(param "$d1" enable_roce)"

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
