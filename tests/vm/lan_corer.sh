#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# rdma-driver: ours stock
# timeout: 600
# share: tests/vm/kmod/ice_reset_req/ice_reset_req.ko
# A core reset of the card asked on function 0, then a global reset asked
# on function 1 (from 6.16, whose IIDC has no global reset, a second core
# reset), each recovered from by the stock ice of both functions.
# The test module tests/vm/kmod/ice_reset_req asks ice for them the way an
# RDMA driver does (ice_rdma_request_reset() with IIDC_CORER, IIDC_GLOBR):
# ice_do_reset() writes GLGEN_RTRIG.CORER (GLOBR). The model warns both
# functions of the card (PFINT_OICR.GRST, GLGEN_RSTAT, GLNVM_ULD:
# docs/hw-model.md "Resets"), ice_misc_intr() of each sets
# ICE_RESET_OICR_RECV and ice_reset_subtask() rebuilds after the reset.
# Checked for each: the model ran exactly one such reset on each function
# (QMP x-core-stats core_resets, global_resets) and no second one
# follows; both netdevs keep their MTU 9000 and addresses and get their
# carrier back; 100 pings each way and a jumbo DF ping pass with a ping
# running through the reset; both RDMA devices are registered again with
# port 1 ACTIVE. Then: the GLOBR counted no core reset, ice logged no
# failed reset or rebuild, the kernel log stays clean.
. "$E810_LIB"

KO=/mnt/host/top/tests/vm/kmod/ice_reset_req/ice_reset_req.ko
REQ=/sys/kernel/debug/ice_reset_req/request
[ -f "$KO" ] || { fail "no $KO: run 'make modules' on the host"; finish; }

mapfile -t devs < <(e810_pci_devs)
expect_eq "NIC functions" 2 "${#devs[@]}"
d0=${devs[0]} d1=${devs[1]}
a=$(e810_netdev_of "$d0")
b=$(e810_netdev_of "$d1")
e810_jumbo_hosts "$a" "$b" || finish

ping_ok "before: ping -s 8000 -M do" \
	"$(ping -c 5 -i 0.1 -W 2 -M do -s 8000 192.168.81.2 2>&1)" 5

rdma_wait_all_active 30 || fail "RDMA ports not ACTIVE before the reset"
declare -A idx=() before=()
insmod "$KO" || { fail "cannot load ice_reset_req"; finish; }
dmesg_mark

# iidc_has_globr: the kernel's IIDC request knows a global reset. From
# 6.16 (linux/net/intel/iidc_rdma_ice.h) it knows a function and a device
# reset only, which ice runs as a PF reset and a CORER; there the second
# reset is a CORER asked on function 1.
iidc_has_globr() {
	local r maj min
	r=$(uname -r) maj=${r%%.*} min=${r#*.}
	min=${min%%.*}
	[ "$maj" -lt 6 ] || { [ "$maj" = 6 ] && [ "$min" -lt 16 ]; }
}

# reset_done DEV NETDEV STAT [NETNS]: the model reset DEV (x-core-stats
# STAT moved) and ice has rebuilt it (NETDEV has its carrier).
reset_done() {
	local n ns=()
	[ -n "$4" ] && ns=(ip netns exec "$4")
	n=$(model_stat "$1" "$3")
	[ "${n:-0}" -gt "${before[$1]:-0}" ] &&
		[ "$("${ns[@]}" cat "/sys/class/net/$2/carrier" 2>/dev/null)" = 1 ]
}

# card_reset KIND DEV STAT: ice on DEV asks for a KIND (corer, globr)
# reset of the card with a ping running; both functions are reset by the
# model (x-core-stats STAT, one each: ice's own request is answered by
# the warning, not by a second trigger, ICE_CORER_REQ/ICE_GLOBR_REQ
# cleared by the rebuild) and rebuilt by their ice: carriers, RDMA
# devices, MTU, addresses and traffic back.
card_reset() {
	local kind=$1 req=$2 stat=$3 d ib ping_pid

	for d in "$d0" "$d1"; do
		ib=$(e810_ibdev_of "$d")
		[ -n "$ib" ] && idx[$d]=$(ibdev_index "$ib") ||
			fail "$d: no RDMA device before the $kind"
		before[$d]=$(model_stat "$d" "$stat")
	done
	ok "$kind: model $stat before: $d0 ${before[$d0]}, $d1 ${before[$d1]}"
	ping -i 0.01 -W 1 192.168.81.2 >/dev/null 2>&1 &
	ping_pid=$!
	sleep 0.5
	echo "$req $kind" >"$REQ" && ok "$kind: ice asked for it on $req" ||
		fail "$kind: ice refused the request on $req"
	wait_for "reset_done $d0 $a $stat" 60 &&
		ok "$kind: $d0 reset by the model, $a has a carrier" ||
		fail "$kind: $d0 $stat $(model_stat "$d0" "$stat"), carrier $(cat "/sys/class/net/$a/carrier" 2>/dev/null)"
	wait_for "reset_done $d1 $b $stat peer" 60 &&
		ok "$kind: $d1 reset by the model (the card's reset), $b has a carrier" ||
		fail "$kind: $d1 $stat $(model_stat "$d1" "$stat"), carrier $(ip netns exec peer cat "/sys/class/net/$b/carrier" 2>/dev/null)"
	kill "$ping_pid"; wait "$ping_pid" 2>/dev/null

	for d in "$d0" "$d1"; do
		ib=$(wait_ibdev_back "$d" "${idx[$d]}" 60) &&
			ok "$kind: $d RDMA device $ib registered again, port 1 ACTIVE" ||
			fail "$kind: $d no RDMA device back after the reset"
	done
	expect_eq "$kind: $a MTU" 9000 "$(cat "/sys/class/net/$a/mtu")"
	expect_eq "$kind: $b MTU" 9000 "$(ip netns exec peer cat "/sys/class/net/$b/mtu")"
	expect_eq "$kind: $a address" 192.168.81.1/24 \
		"$(ip -br -4 addr show "$a" | awk '{ print $3 }')"
	wait_for "ping -c 1 -W 1 192.168.81.2 >/dev/null 2>&1" 20 ||
		fail "$kind: no ping answered 20 s after the reset"
	ping_ok "$kind: after: ping .1 -> .2" \
		"$(ping -c 100 -i 0.01 -W 2 192.168.81.2 2>&1)" 100
	ping_ok "$kind: after: ping .2 -> .1" \
		"$(ip netns exec peer ping -c 100 -i 0.01 -W 2 192.168.81.1 2>&1)" 100
	ping_ok "$kind: after: ping -s 8000 -M do" \
		"$(ping -c 5 -i 0.1 -W 2 -M do -s 8000 192.168.81.2 2>&1)" 5
	sleep 5
	for d in "$d0" "$d1"; do
		expect_eq "$kind: $d model $stat" $((before[$d] + 1)) \
			"$(model_stat "$d" "$stat")"
	done
}

card_reset corer "$d0" core_resets
declare -A corer=([$d0]=${before[$d0]} [$d1]=${before[$d1]})
if iidc_has_globr; then
	card_reset globr "$d1" global_resets
	for d in "$d0" "$d1"; do
		expect_eq "$d: model core resets after the GLOBR" \
			$((corer[$d] + 1)) "$(model_stat "$d" core_resets)"
	done
else
	echo "$d1 globr" >"$REQ" 2>/dev/null &&
		fail "globr: asked on a kernel whose IIDC has no global reset" ||
		ok "globr: not in this kernel's IIDC (IIDC_DEV_RESET is a CORER)"
	card_reset corer "$d1" core_resets
	for d in "$d0" "$d1"; do
		expect_eq "$d: model core resets after both" \
			$((corer[$d] + 2)) "$(model_stat "$d" core_resets)"
	done
fi

log=$(new_dmesg)
bad=$(grep -E "reset .* failed|Global reset polling failed|Wait for Reset Done timed out|Rebuild failed|ice_rebuild.*fail" <<<"$log")
[ -z "$bad" ] && ok "ice logged no failed reset or rebuild" ||
	fail "ice: $bad"
rmmod ice_reset_req || fail "cannot unload ice_reset_req"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
