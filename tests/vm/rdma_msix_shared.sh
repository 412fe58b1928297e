#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# smp: 4
# e810-props: msix-vectors=8
# timeout: 420
# RDMA on as few MSI-X vectors as a parent grants: 2 on a guest with 4
# CPUs, so that irdma serves the AEQ and CEQ 0 from one handler on vector
# entry 0 (upstream's irdma_save_msix_info() "msix_shared") and CEQ 1 on
# entry 1 (docs/irdma.md, "Interrupts").
#
# Each function has 8 MSI-X vectors (the model's msix-vectors property,
# docs/hw-model.md); the stock ice 6.12 then falls back to its minimum of
# ICE_MIN_RDMA_MSIX (2) for RDMA (ice_reduce_msix_usage()). ice_lite
# would give 5, so under it the scenario reloads ice_lite with
# max_rdma_msix=2, after a first reload with max_rdma_msix=1: irdma must
# refuse a single vector (upstream's IRDMA_MIN_MSIX) without an oops,
# the auxiliary devices left unbound and no ib_device.
#
# Checked with 2 vectors: both ib_devices ACTIVE, each with exactly the
# two irq lines aeqceq0 and ceq1 in /proc/interrupts (none for the AEQ
# alone); ibv_rc_pingpong -e (CQ events) with -c (payload checked) passes
# both ways, and the shared vector's interrupt count (/proc/interrupts)
# and CEQ 0's event count (debugfs cqp: ceq0_events) grew on both
# functions; a pingpong whose receive buffers are too small for the
# sender's messages makes each side's QP fail with an AE (aeq_events grew,
# again through the shared vector) and a normal pingpong after it passes;
# kernel log clean.
. "$E810_LIB"

ITERS=200

[ "$(nproc)" -ge 3 ] || fail "the guest has $(nproc) CPUs; 2 vectors are shared only with more than 2"

# reload_ice_lite N: ice_lite again with max_rdma_msix=N, then irdma.
reload_ice_lite() {
	rmmod irdma || fail "rmmod irdma"
	rmmod ice_lite || fail "rmmod ice_lite"
	modprobe ice_lite max_rdma_msix="$1" || fail "modprobe ice_lite max_rdma_msix=$1"
	irdma_load || fail "load irdma"
}

if [ "$E810_PARENT" = ice_lite ]; then
	dmesg_mark
	reload_ice_lite 1
	for d in $(e810_pci_devs); do
		wait_for "[ -n \"\$(e810_aux_of $d)\" ]" 20
		aux=$(e810_aux_of "$d")
		[ -n "$aux" ] || { fail "$d: no auxiliary device with 1 RDMA vector"; continue; }
		# 2 fixed vectors + 1 for RDMA
		expect_eq "$d: MSI-X vectors with max_rdma_msix=1" 3 \
			"$(ls "/sys/bus/pci/devices/$d/msi_irqs" | wc -l)"
		expect_eq "$d: $aux bound with 1 RDMA vector" none \
			"$(driver_of "/sys/bus/auxiliary/devices/$aux")"
		[ -z "$(e810_ibdev_of "$d")" ] && ok "$d: no ib_device with 1 RDMA vector" ||
			fail "$d: ib_device $(e810_ibdev_of "$d") with 1 RDMA vector"
	done
	grep -q '^irdma ' /proc/modules && ok "irdma still loaded" || fail "irdma gone"
	bad=$(new_dmesg | grep -E 'Oops:|BUG:|WARNING:|Call Trace:')
	[ -z "$bad" ] && ok "1 vector: refused without an oops" || fail "1 vector: $bad"
	reload_ice_lite 2
	for d in $(e810_pci_devs); do
		expect_eq "$d: MSI-X vectors with max_rdma_msix=2" 4 \
			"$(ls "/sys/bus/pci/devices/$d/msi_irqs" | wc -l)"
	done
fi

rdma_two_ports || finish
devs=($(e810_pci_devs))
aux0=$(e810_aux_of "${devs[0]}")
aux1=$(e810_aux_of "${devs[1]}")

# irq_lines AUX: the names of AUX's irdma irqs, sorted, on one line.
irq_lines() {
	awk -v p="irdma-$1-" '{ n = $NF } index(n, p) == 1 { print substr(n, length(p) + 1) }' \
		/proc/interrupts | sort | tr '\n' ' '
}

# irq_count AUX NAME: interrupts of irq irdma-AUX-NAME, summed over CPUs.
irq_count() {
	awk -v n="irdma-$1-$2" '$NF == n { s = 0; for (i = 2; i <= NF; i++) { if ($i !~ /^[0-9]+$/) break; s += $i } print s }' \
		/proc/interrupts
}

# eq_events AUX FIELD: ceq0_events or aeq_events from irdma's debugfs.
eq_events() {
	awk -v f="$2" '$1 == f { print $2 }' "/sys/kernel/debug/irdma/$1/cqp"
}

for a in "$aux0" "$aux1"; do
	expect_eq "$a: irdma irqs" "aeqceq0 ceq1 " "$(irq_lines "$a")"
done

declare -A irq0 ceq0 aeq0
snap() {
	local a
	for a in "$aux0" "$aux1"; do
		irq0[$a]=$(irq_count "$a" aeqceq0)
		ceq0[$a]=$(eq_events "$a" ceq0_events)
		aeq0[$a]=$(eq_events "$a" aeq_events)
	done
}

# pingpong SERVER_SIZE CLIENT_SIZE ITERS: ibv_rc_pingpong -e -c, $ib1
# (namespace peer) serving; succeeds when both sides report the iterations.
pingpong() {
	ip netns exec peer timeout 60 ibv_rc_pingpong -d "$ib1" -g "$g1" -e -c \
		-s "$1" -n "$3" >/tmp/pp-server.log 2>&1 &
	local spid=$! crc src
	wait_for "ip netns exec peer ss -ltn | grep -q ':18515 '" 20 ||
		echo "note: pingpong server not listening after 20 s"
	timeout 60 ibv_rc_pingpong -d "$ib0" -g "$g0" -e -c -s "$2" -n "$3" \
		192.168.81.2 >/tmp/pp-client.log 2>&1
	crc=$?
	wait "$spid"
	src=$?
	[ $crc = 0 ] && [ $src = 0 ] &&
		grep -q "$3 iters in" /tmp/pp-client.log &&
		grep -q "$3 iters in" /tmp/pp-server.log
}

snap
if pingpong 4096 4096 $ITERS; then
	ok "ibv_rc_pingpong -e -c: $ITERS x 4096 B"
else
	fail "ibv_rc_pingpong -e -c: $(tail -n 3 /tmp/pp-client.log /tmp/pp-server.log | tr '\n' ' ')"
fi
for a in "$aux0" "$aux1"; do
	i=$(irq_count "$a" aeqceq0)
	c=$(eq_events "$a" ceq0_events)
	echo "$a: aeqceq0 interrupts +$((i - irq0[$a])), CEQ 0 events +$((c - ceq0[$a]))"
	[ $((c - ceq0[$a])) -ge $((ITERS / 2)) ] &&
		ok "$a: completions through CEQ 0" ||
		fail "$a: CEQ 0 took $((c - ceq0[$a])) events for $ITERS round trips"
	[ $((i - irq0[$a])) -gt 0 ] && ok "$a: the shared vector fired" ||
		fail "$a: no interrupt on the shared vector"
done

# Receive buffers of 64 B against 4096-byte messages: the responder's QP
# fails (AE), the requester gets a NAK (AE); both programs fail.
snap
pingpong 64 4096 4 && fail "pingpong with receive buffers too small passed"
for a in "$aux0" "$aux1"; do
	i=$(irq_count "$a" aeqceq0)
	e=$(eq_events "$a" aeq_events)
	echo "$a: aeqceq0 interrupts +$((i - irq0[$a])), AEQ events +$((e - aeq0[$a]))"
	[ $((e - aeq0[$a])) -gt 0 ] && ok "$a: AEs delivered" ||
		fail "$a: no AE for the failed QP"
	[ $((i - irq0[$a])) -gt 0 ] && ok "$a: the shared vector fired for them" ||
		fail "$a: no interrupt on the shared vector"
done
pingpong 1024 1024 20 && ok "ibv_rc_pingpong after the AEs" ||
	fail "ibv_rc_pingpong after the AEs: $(tail -n 3 /tmp/pp-client.log | tr '\n' ' ')"

dmesg_clean >/dev/null && ok "kernel log clean" || fail "kernel log: $(dmesg_clean | head -n 5)"
finish
