#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: x722
# parent: i40e
# rdma-driver: none
# timeout: 300
# The X722's RDMA in make check (docs/testing.md, the matrix): the part
# of x722_iwarp (on demand) that proves most per second, plus
# x722_rdma_handoff's unload. The stock irdma's GEN_1 and the stock
# provider on the model's GEN_1 engine, both ports in init_net routed to
# each other over the wire (guest-lib.sh iwarp_two_hosts):
#  - both ib_devices iWARP and ACTIVE, the engine's tables empty;
#  - one rping -V of 50 x 4 KiB (the handshake and MPA exchange through
#    both ILQs, then the offloaded connection): both exit 0 with every
#    iteration, one offload per side, the engine sent at least
#    2 x 4 KiB x 50; the ports' hw_counters (the engine's GLPES_PF*
#    statistics): IPv4 octets out and in at least that, TCP segments out
#    and in at least 100, 50 RDMA READs out of the listener and into the
#    client, 50 RDMA WRITEs the same;
#  - then no connection, irdma QP or table entry; no retransmission, bad
#    checksum, CRC error or Terminate; per function the engine's 2 QPs
#    (ILQ, IEQ) and CQP errors only the refused late closes; no DMA
#    error, HMC fault or bad MMIO access;
#  - rmmod irdma: no ib_device, the engine back to nothing (no CQP, CEQ,
#    AEQ, CQ, QP or MAC entry);
#  - a core reset of function 0 and a global reset of function 1 through
#    i40e's debugfs (GLGEN_RTRIG): the model did each on both functions
#    (x-stats; the card's reset), i40e recovers on both and ping crosses
#    the wire after each; clean dmesg.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 x722 functions, got ${#devs[@]}"; finish; }
# The guest kernel's own irdma after what its modinfo names (ice and
# i40e; idpf too on 7.x): irdma_load's stock path.
modprobe -a ib_uverbs rdma_ucm i40e &&
	E810_RDMA_DRIVER=stock irdma_load ||
	{ fail "loading the stock irdma failed"; finish; }
wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ] && [ -n \"\$(e810_ibdev_of ${devs[1]})\" ]" 60
ib0=$(e810_ibdev_of "${devs[0]}")
ib1=$(e810_ibdev_of "${devs[1]}")
[ -n "$ib0" ] && [ -n "$ib1" ] || { fail "ib_devices missing ($ib0/$ib1)"; finish; }
nd0=$(e810_netdev_of "${devs[0]}")
nd1=$(e810_netdev_of "${devs[1]}")
iwarp_two_hosts "$nd0" "$nd1" || { fail "could not set up the two hosts"; finish; }
rdma_wait_all_active 30 && ok "rdma link: both ports ACTIVE" ||
	fail "ports not ACTIVE: $(rdma link show 2>&1 | tr '\n' ' ')"
for ib in "$ib0" "$ib1"; do
	expect_eq "$ib: ibv_devinfo transport" "iWARP (1)" "$(ibv_attr "$ib" transport)"
done
E810_PROVIDER=stock provider_env

tables_empty() {
	local d
	for d in "${devs[@]}"; do
		case " $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-tables) " in
		*" mode=iwarp apbvt=0 qhash=0 "*) ;;
		*) return 1 ;;
		esac
	done
}
iw_sum() {
	echo $(($(iw_stat "${devs[0]}" "$1") + $(iw_stat "${devs[1]}" "$1")))
}
irdma_qps() {
	rdma resource show qp 2>/dev/null | grep -c 'link irdma'
}
hwc() {
	local ib=ib$1
	hw_counter "${!ib}" "$2"
}
tables_empty && ok "engine in iWARP mode, APBVT and quad hash empty" ||
	fail "engine tables after bring-up"

# ---- one verified rping ------------------------------------------------------

SIZE=4096 N=50 PORT=7180
b0=$(iw_sum tx_bytes)
declare -A A B
for i in 0 1; do
	for k in ip4OutOctets ip4InOctets tcpOutSegs tcpInSegs iwOutRdmaReads \
		iwInRdmaReads iwOutRdmaWrites iwInRdmaWrites; do
		A[$k$i]=$(hwc $i $k)
	done
done
t0=$SECONDS
rping_verified $SIZE $N $PORT 192.168.81.2 \
	"[ \"\$(iw_table ${devs[1]} apbvt_ports)\" = $PORT ]"
moved=$(($(iw_sum tx_bytes) - b0))
echo "rping -V -S $SIZE -C $N: $((SECONDS - t0)) s, the engine sent $moved bytes"
if [ "$RC_C $RC_S $N_C $N_S" = "0 0 $N $N" ]; then
	ok "rping -V -S $SIZE -C $N: both exit 0, $N iterations each side"
else
	fail "rping -V -S $SIZE -C $N: exit $RC_C/$RC_S, iterations $N_C/$N_S"
	tail -n 3 /tmp/rping-[cs].log /tmp/rping-[cs].err | sed 's/^/  /'
fi
expect_eq "connections offloaded (client, listener side)" "1 1" \
	"$(iw_stat "${devs[0]}" offloads) $(iw_stat "${devs[1]}" offloads)"
[ "$moved" -ge $((2 * SIZE * N)) ] &&
	ok "the engine sent $moved bytes (>= $((2 * SIZE * N)))" ||
	fail "the engine sent $moved bytes, want >= $((2 * SIZE * N))"

# The hw_counters: irdma's GEN_1 reads the GLPES_PF* registers for them.
for i in 0 1; do
	for k in ip4OutOctets ip4InOctets tcpOutSegs tcpInSegs iwOutRdmaReads \
		iwInRdmaReads iwOutRdmaWrites iwInRdmaWrites; do
		B[$k$i]=$(( $(hwc $i $k) - ${A[$k$i]:-0} ))
	done
	echo "hw_counters of port $i over the rping:" \
		"$(for k in ip4OutOctets ip4InOctets tcpOutSegs tcpInSegs iwOutRdmaReads iwInRdmaReads iwOutRdmaWrites iwInRdmaWrites; do echo -n "$k +${B[$k$i]} "; done)"
done
out=$((B[ip4OutOctets0] + B[ip4OutOctets1])) in=$((B[ip4InOctets0] + B[ip4InOctets1]))
[ "$out" -ge "$moved" ] && [ "$in" -ge "$moved" ] &&
	ok "ip4OutOctets +$out, ip4InOctets +$in (>= the $moved bytes sent)" ||
	fail "ip4OutOctets +$out, ip4InOctets +$in, the engine sent $moved bytes"
segs=$((B[tcpOutSegs0] + B[tcpOutSegs1])) rsegs=$((B[tcpInSegs0] + B[tcpInSegs1]))
[ "$segs" -ge $((2 * N)) ] && [ "$rsegs" -ge $((2 * N)) ] &&
	ok "tcpOutSegs +$segs, tcpInSegs +$rsegs (>= $((2 * N)))" ||
	fail "tcpOutSegs +$segs, tcpInSegs +$rsegs, want >= $((2 * N)) each"
expect_eq "iwOutRdmaReads (listener), iwInRdmaReads (client)" "$N $N" \
	"${B[iwOutRdmaReads1]} ${B[iwInRdmaReads0]}"
expect_eq "iwOutRdmaWrites (listener), iwInRdmaWrites (client)" "$N $N" \
	"${B[iwOutRdmaWrites1]} ${B[iwInRdmaWrites0]}"

if wait_for "[ \$(irdma_qps) = 0 ] && [ \$(iw_sum conns) = 0 ] && tables_empty" 60; then
	ok "no connection in the engine, no irdma QP, tables empty"
else
	fail "after the rping: conns $(iw_sum conns), irdma QPs $(irdma_qps)"
fi
expect_eq "retransmits, bad checksums, CRC errors, Terminates" "0 0 0 0" \
	"$(iw_sum retransmits) $(iw_sum rx_bad_csum) $(iw_sum crc_errors) $(iw_sum terms_sent)"
for d in "${devs[@]}"; do
	expect_eq "$d: engine CQP errors (= late closes), QPs (ILQ, IEQ)" \
		"$(iw_stat "$d" late_closes) 2" \
		"$(pe_stat "$d" pe_cqp_errors) $(pe_stat "$d" pe_qps)"
	expect_eq "$d: X722 DMA errors, HMC faults, bad MMIO accesses" "0 0 0" \
		"$(model_stat "$d" dma_errors) $(model_stat "$d" hmc_faults) $(model_stat "$d" mmio_bad_access)"
done

# ---- unload -----------------------------------------------------------------

rmmod irdma || fail "rmmod irdma"
wait_for "[ \$(ls /sys/class/infiniband 2>/dev/null | wc -l) = 0 ]" 30
expect_eq "ib_devices after rmmod irdma" 0 "$(ls /sys/class/infiniband 2>/dev/null | wc -l)"
for d in "${devs[@]}"; do
	expect_eq "$d after rmmod: CQP, CEQs, AEQ, CQs, QPs, MAC entries" \
		"0 0 0 0 0 0" \
		"$(pe_counts "$d" pe_cqp pe_ceqs pe_aeq pe_cqs pe_qps pe_loc_macs)"
done
# ---- core and global resets, then LAN traffic --------------------------------

# i40e's debugfs "corer" / "globr" (i40e_do_reset(): GLGEN_RTRIG); the
# model warns and resets every function of the card (docs/hw-model-x722.md,
# "Registers"); i40e recovers on each (i40e_reset_subtask()) and the ports
# carry traffic again.
for r in "0 corer core_resets" "1 globr global_resets"; do
	set -- $r
	d=${devs[$1]}
	cmd=/sys/kernel/debug/i40e/$d/command
	[ -w "$cmd" ] || { fail "no i40e debugfs command file for $d"; continue; }
	echo "$2" >"$cmd"
	# the card's reset: both functions (docs/hw-model-x722.md)
	for f in "${devs[@]}"; do
		if wait_for "[ \"\$(model_stat $f $3)\" = 1 ]" 30; then
			ok "$d's $2: done by the model on $f (x-stats $3 1)"
		else
			fail "$d's $2: $f x-stats $3 '$(model_stat "$f" "$3")'"
		fi
	done
	wait_for "ip link show $nd0 | grep -q LOWER_UP && ip link show $nd1 | grep -q LOWER_UP && ping -c 1 -W 1 192.168.81.2 >/dev/null" 60
	ping -c 5 -i 0.2 -W 2 192.168.81.2 >/tmp/ping.log 2>&1 &&
		ok "ping over the wire after the $2 of $d" ||
		fail "no ping after the $2 of $d: $(tail -n 2 /tmp/ping.log)"
done

if dmesg_clean; then
	ok "no oops, warning or leak in dmesg"
else
	fail "dmesg shows problems"
	dmesg | grep -B 3 -A 14 -E 'WARNING:|Call Trace:' | head -80
fi
finish
