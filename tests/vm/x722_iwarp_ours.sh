#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: x722
# parent: i40e
# rdma-driver: ours
# timeout: 600
# check: on-demand
# iWARP traffic on the X722 with our irdma's GEN_1 (docs/irdma.md
# "GEN_1") and the provider E810_PROVIDER names (default stock), both
# ports in init_net routed to each other over the wire
# (guest-lib.sh iwarp_two_hosts), as x722_iwarp runs the stock irdma:
#  - one rping: the handshake and the MPA exchange through both ILQs as
#    whole frames (the engine's ILQ counters: frames both ways, none
#    dropped, no send error), one offload per side, both exit 0 with the
#    ping data;
#  - rping -V of 50 x 64 B and 20 x 4 KiB: every iteration on both sides;
#  - after each part no offloaded connection, no irdma QP, empty tables;
#    the engine (x-pe-stats) back to its ILQ, the X722 (x-stats) without
#    a DMA or HMC fault or bad MMIO access; clean dmesg.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 x722 functions, got ${#devs[@]}"; finish; }
wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ] && [ -n \"\$(e810_ibdev_of ${devs[1]})\" ]" 60
ib0=$(e810_ibdev_of "${devs[0]}")
ib1=$(e810_ibdev_of "${devs[1]}")
[ -n "$ib0" ] && [ -n "$ib1" ] || { fail "ib_devices missing ($ib0/$ib1)"; finish; }
nd0=$(e810_netdev_of "${devs[0]}")
nd1=$(e810_netdev_of "${devs[1]}")
iwarp_hosts_ready "$nd0" "$nd1" || finish
E810_PROVIDER=${E810_PROVIDER:-stock} provider_env

irdma_qps() {
	rdma resource show qp 2>/dev/null | grep -c 'link irdma'
}
conns_zero() {
	[ "$(iw_stat "${devs[0]}" conns)" = 0 ] && [ "$(iw_stat "${devs[1]}" conns)" = 0 ]
}
tables_empty() {
	local d t ok=1
	for d in "${devs[@]}"; do
		t=" $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-tables) "
		case "$t" in
		*" mode=iwarp apbvt=0 qhash=0 "*) ;;
		*) ok=0 ;;
		esac
	done
	[ $ok = 1 ]
}
debug_dump() {
	local d
	for d in "${devs[@]}"; do
		echo "  $d tables: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-tables)"
		echo "  $d stats: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-stats)"
		echo "  $d pe: $(e810_qom_str "$(e810_qom_id "$d")" x-pe-stats)"
	done
	for d in /sys/kernel/debug/irdma/i40e.iwarp.*; do
		[ -r "$d/iwarp" ] && sed "s|^|  ${d##*/} |" "$d/iwarp" | head -40
	done
	dmesg | tail -30 | sed 's/^/  dmesg /'
}
all_gone() {
	if wait_for "[ \$(irdma_qps) = 0 ] && conns_zero && tables_empty" 60; then
		ok "$1: no connection in the engine, no irdma QP, tables empty"
	else
		fail "$1: conns $(iw_stat "${devs[0]}" conns)/$(iw_stat "${devs[1]}" conns), irdma QPs $(irdma_qps)"
		debug_dump
	fi
}

PORT=7174
timeout 120 rping -s -a 192.168.81.2 -p $PORT -v -C 1 >/tmp/rping-s.log 2>&1 &
spid=$!
wait_for "[ \"\$(iw_table ${devs[1]} apbvt_ports)\" = $PORT ]" 30 ||
	fail "listener: APBVT of ${devs[1]}: '$(iw_table "${devs[1]}" apbvt_ports)'"
timeout 60 rping -c -a 192.168.81.2 -p $PORT -v -C 1 >/tmp/rping-c.log 2>&1
expect_eq "rping client exit status" 0 "$?"
wait "$spid"
expect_eq "rping server exit status" 0 "$?"
pat='ping data: rdma-ping-0: ABCDEFGHIJKLMNOPQRSTUVWXYZ'
grep -q "$pat" /tmp/rping-c.log && ok "rping client: ping data" ||
	{ fail "rping client: no ping data"; sed 's/^/  /' /tmp/rping-c.log; debug_dump; }
grep -q "$pat" /tmp/rping-s.log && ok "rping server: ping data" ||
	{ fail "rping server: no ping data"; sed 's/^/  /' /tmp/rping-s.log; }
c_tx=$(iw_table "${devs[0]}" ilq_tx) c_rx=$(iw_table "${devs[0]}" ilq_rx)
s_tx=$(iw_table "${devs[1]}" ilq_tx) s_rx=$(iw_table "${devs[1]}" ilq_rx)
echo "ILQ: client sent $c_tx, received $c_rx; listener sent $s_tx, received $s_rx"
[ "${c_tx:-0}" -ge 2 ] && [ "${c_rx:-0}" -ge 1 ] && [ "${s_tx:-0}" -ge 1 ] &&
	[ "${s_rx:-0}" -ge 2 ] && ok "handshake and MPA exchange through both ILQs as frames" ||
	fail "ILQ frames: client $c_tx/$c_rx, listener $s_tx/$s_rx"
expect_eq "ILQ frames dropped, send errors (client, listener)" "0 0 0 0" \
	"$(iw_table "${devs[0]}" ilq_rx_dropped) $(iw_table "${devs[0]}" ilq_tx_errors) $(iw_table "${devs[1]}" ilq_rx_dropped) $(iw_table "${devs[1]}" ilq_tx_errors)"
expect_eq "connections offloaded (client, listener side)" "1 1" \
	"$(iw_stat "${devs[0]}" offloads) $(iw_stat "${devs[1]}" offloads)"
all_gone "after one rping"

PORT=7180
for sc in 64:50 4096:20; do
	size=${sc%:*} n=${sc#*:}
	rping_verified "$size" "$n" $PORT 192.168.81.2 \
		"[ \"\$(iw_table ${devs[1]} apbvt_ports)\" = $PORT ]"
	if [ "$RC_C $RC_S $N_C $N_S" = "0 0 $n $n" ]; then
		ok "rping -V -S $size -C $n: both exit 0, $n iterations each side"
	else
		fail "rping -V -S $size -C $n: exit $RC_C/$RC_S, iterations $N_C/$N_S"
		tail -n 3 /tmp/rping-[cs].log /tmp/rping-[cs].err | sed 's/^/  /'
	fi
	all_gone "after rping -V -S $size"
	PORT=$((PORT + 1))
done
for d in "${devs[@]}"; do
	expect_eq "$d: engine QPs (the ILQ)" 1 "$(pe_stat "$d" pe_qps)"
	expect_eq "$d: CQP errors but refused late closes" "$(iw_stat "$d" late_closes)" \
		"$(pe_stat "$d" pe_cqp_errors)"
	for s in dma_errors hmc_faults mmio_bad_access; do
		expect_eq "$d: $s" 0 "$(model_stat "$d" $s)"
	done
done
if dmesg_clean; then
	ok "no oops, warning or leak in dmesg"
else
	fail "dmesg shows problems"
	dmesg | grep -B 3 -A 14 -E 'WARNING:|Call Trace:' | head -80
fi
finish
