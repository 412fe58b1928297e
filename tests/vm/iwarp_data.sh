#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# rdma-driver: stock
# rdma-protocol: iwarp
# timeout: 900
# Payloads through the model's iWARP engine, every byte checked: the stock
# ice switched to iWARP (devlink, as stock_iwarp), the stock irdma, the
# stock provider and then ours for the cm_data rounds and for each run
# under loss (provider_env), both ports in init_net routed to each other
# over the wire (iwarp_two_hosts). progs/cm_data (docs/testing.md, "Compiled guest
# programs") connects through RDMA-CM (MPA request and reply with our
# private data: the buffers' address and rkey) and runs, per size of 1 B
# .. 1 MiB (10 sizes), a SEND, an RDMA WRITE and an RDMA READ with 1 or 3
# SGEs: the server checks every byte it received and the guard bytes
# around, each side every completion's status, opcode and byte_len;
# 4 rounds. No immediate forms: RDMAP has none. Then:
#  - the counts of both sides (30 steps a round, send/write/read 10 each)
#    and the byte totals;
#  - the model's iWARP counters (QMP x-iwarp-stats) on both functions:
#    FPDUs both ways, at least the payload bytes sent, and no Terminate,
#    CRC error, injected drop or RST;
#  - the checks can fail: with -X the client flips one bit of a WRITE's
#    payload (the server must report that byte, both exit 1) and of what
#    a READ brought (the client must);
#  - then under 2 % loss: the model's iWARP loss injector (QOM
#    x-iwarp-drop-ppm, docs/hw-model.md "iWARP engine") makes both
#    functions (e810-0 and e810-1; x722-0 and x722-1 under i40e) each
#    lose 2 % of the TCP segments their engine sends to the wire (data,
#    ACKs, READ requests and responses, FINs; never the ILQ's frames of
#    the driver's CM; 1000001 refused); the engine's
#    retransmission must recover every one: cm_data (1 round) as above
#    with every payload and completion right, and rping -V (the client
#    checks each echo) at 64 B x 20 and 16 KiB x 10, both sides exit 0
#    with every "ping data" line; per device x-iwarp-stats shows injected
#    drops (near 2 % of the segments sent) and retransmissions, no
#    Terminate, CRC error or RST; the time of each run is printed (a loss
#    the fast retransmit does not repair costs an RTO of 200 ms); the knob
#    back to 0;
#  - APBVT and quad hash empty after the connections end; clean dmesg.
. "$E810_LIB"

ROUNDS=4
PORT=7180
PPM=${E810_LOSS_PPM:-20000}

# qom_set ID PROPERTY VALUE (JSON value)
qom_set() {
	host_qmp "{\"execute\":\"qom-set\",\"arguments\":{\"path\":\"/machine/peripheral/$1\",\"property\":\"$2\",\"value\":$3}}"
}

devs=($(e810_pci_devs))
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 e810 functions, got ${#devs[@]}"; finish; }
[ -x /mnt/host/progs/cm_data ] || { fail "progs/cm_data not built"; finish; }
wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ] && [ -n \"\$(e810_ibdev_of ${devs[1]})\" ]" 30
ib0=$(e810_ibdev_of "${devs[0]}")
ib1=$(e810_ibdev_of "${devs[1]}")
[ -n "$ib0" ] && [ -n "$ib1" ] || { fail "ib_devices missing ($ib0/$ib1)"; finish; }
rdma_wait_all_active 30 || fail "ports not ACTIVE"
for ib in "$ib0" "$ib1"; do
	expect_eq "$ib: ibv_devinfo transport" "iWARP (1)" "$(ibv_attr "$ib" transport)"
done
nd0=$(e810_netdev_of "${devs[0]}")
nd1=$(e810_netdev_of "${devs[1]}")
iwarp_two_hosts "$nd0" "$nd1" || { fail "could not set up the two hosts"; finish; }
ping -c 2 -W 2 192.168.81.2 >/dev/null ||
	fail "no ping between the ports: $(ip -br addr; ip rule)"

declare -A before
# Each provider, the stock one first (provider_env; PROVIDERS_OVERRIDE picks
# one for a development run), on a port of its own.
sum=$((1 + 3 + 64 + 1000 + 4096 + 4097 + 65536 + 65537 + 262144 + 1048576))
port=$PORT
for E810_PROVIDER in ${PROVIDERS_OVERRIDE:-stock ours}; do
	provider_env
	p=$E810_PROVIDER_NAME
	for d in "${devs[@]}"; do
		for k in fpdus_tx fpdus_rx tx_bytes; do
			before[$d.$k]=$(iw_stat "$d" $k)
		done
	done
	t0=$SECONDS
	cm_data_run 192.168.81.2 192.168.81.1 $port 180 -r $ROUNDS
	t=$((SECONDS - t0))
	cm_data_check "iWARP, $p provider" 0 $ROUNDS
	echo "$p provider: cm_data: $ROUNDS rounds in $t s"

	# The engine's own view: FPDUs both ways, nothing terminated or lost.
	for d in "${devs[@]}"; do
		echo "$d: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-stats)"
		for k in fpdus_tx fpdus_rx; do
			v=$(($(iw_stat "$d" $k) - ${before[$d.$k]:-0}))
			[ "$v" -gt 0 ] && ok "$p provider: $d: $k +$v" || fail "$p provider: $d: $k +$v"
		done
		for k in terms_sent terms_rcvd crc_errors tx_dropped_injected rx_rst tx_rst; do
			expect_eq "$p provider: $d: $k" 0 "$(iw_stat "$d" $k)"
		done
	done
	# The client's port carried the SENDs and WRITEs, the server's the READ
	# responses: each at least its payload bytes.
	v=$(($(iw_stat "${devs[0]}" tx_bytes) - ${before[${devs[0]}.tx_bytes]:-0}))
	[ "$v" -ge $((ROUNDS * sum * 2)) ] && ok "$p provider: ${devs[0]}: $v bytes sent (payload $((ROUNDS * sum * 2)))" ||
		fail "$p provider: ${devs[0]}: $v bytes sent, payload $((ROUNDS * sum * 2))"
	v=$(($(iw_stat "${devs[1]}" tx_bytes) - ${before[${devs[1]}.tx_bytes]:-0}))
	[ "$v" -ge $((ROUNDS * sum)) ] && ok "$p provider: ${devs[1]}: $v bytes sent (READ payload $((ROUNDS * sum)))" ||
		fail "$p provider: ${devs[1]}: $v bytes sent, READ payload $((ROUNDS * sum))"
	port=$((port + 10))
done
# The -X runs check cm_data itself: the stock provider.
E810_PROVIDER=stock provider_env

# The checks can fail: one bit flipped in step 13 (the WRITE of 4096 B)
# before the client sends it, and in step 17 (the READ of 4097 B) after
# the READ brought it: the server, then the client, must say so. (Which
# byte is flipped depends on the step's SGEs: a READ has 1 on GEN_1.)
cm_data_run 192.168.81.2 192.168.81.1 $((PORT + 1)) 30 -X 13
if [ "$cmd_crc" != 0 ] && [ "$cmd_src" != 0 ] &&
   grep -q 'FAIL: cm_data server: step 13 write 4096 B: payload byte 2048 is' /tmp/cm_data-s.log &&
   grep -q 'FAIL: cm_data client: server: step 13 failed' /tmp/cm_data-c.log; then
	ok "cm_data -X 13: the server found the flipped byte of the WRITE, both exit 1"
else
	fail "cm_data -X 13: client rc $cmd_crc, server rc $cmd_src"
	grep -h FAIL /tmp/cm_data-s.log /tmp/cm_data-c.log | head -n 5 | sed 's/^/  /'
fi
cm_data_run 192.168.81.2 192.168.81.1 $((PORT + 2)) 30 -X 17
if [ "$cmd_crc" != 0 ] &&
   grep -qE 'FAIL: cm_data client: step 17 read 4097 B: payload byte [0-9]+ is' /tmp/cm_data-c.log; then
	ok "cm_data -X 17: the client found the flipped byte of the READ (server rc $cmd_src)"
else
	fail "cm_data -X 17: client rc $cmd_crc, server rc $cmd_src"
	grep -h FAIL /tmp/cm_data-s.log /tmp/cm_data-c.log | head -n 5 | sed 's/^/  /'
fi

# ---- under loss ------------------------------------------------------------
# (the -X runs above end in an abortive close: judge from here on)
declare -A base
for d in "${devs[@]}"; do
	for k in terms_sent terms_rcvd crc_errors rx_rst tx_rst; do
		base[$d.$k]=$(iw_stat "$d" $k)
	done
done
for id in $(e810_qom_id "${devs[0]}") $(e810_qom_id "${devs[1]}"); do
	reply=$(qom_set "$id" x-iwarp-drop-ppm 1000001) &&
		fail "$id accepted x-iwarp-drop-ppm 1000001: $reply" ||
		ok "$id refuses x-iwarp-drop-ppm 1000001"
	reply=$(qom_set "$id" x-iwarp-drop-ppm "$PPM") ||
		fail "qom-set $id x-iwarp-drop-ppm: $reply"
done
for d in "${devs[@]}"; do
	expect_eq "$d: drop_ppm" "$PPM" "$(iw_stat "$d" drop_ppm)"
done
declare -A before
snap() {
	local d k
	for d in "${devs[@]}"; do
		for k in tx_segs tx_dropped_injected retransmits fast_retransmits timeouts; do
			before[$d.$k]=$(iw_stat "$d" $k)
		done
	done
}
# counters LABEL: the drops and retransmissions since snap, judged.
counters() {
	local d segs drops rex fast to
	for d in "${devs[@]}"; do
		segs=$(($(iw_stat "$d" tx_segs) - ${before[$d.tx_segs]}))
		drops=$(($(iw_stat "$d" tx_dropped_injected) - ${before[$d.tx_dropped_injected]}))
		rex=$(($(iw_stat "$d" retransmits) - ${before[$d.retransmits]}))
		fast=$(($(iw_stat "$d" fast_retransmits) - ${before[$d.fast_retransmits]}))
		to=$(($(iw_stat "$d" timeouts) - ${before[$d.timeouts]}))
		echo "$1: $d: $segs segments, $drops dropped, $rex retransmits ($fast fast), $to timeouts"
		[ "$drops" -gt 0 ] && [ "$rex" -gt 0 ] &&
			ok "$1: $d: $drops drops, $rex retransmits" ||
			fail "$1: $d: $drops drops, $rex retransmits ($segs segments)"
		# 2 %: loose bounds (a few hundred draws)
		if [ "$segs" -ge 1000 ]; then
			[ $((drops * 1000)) -gt $((segs * PPM / 2000)) ] &&
			[ $((drops * 1000)) -lt $((segs * PPM * 2 / 1000)) ] &&
				ok "$1: $d: loss rate $((drops * 10000 / segs)) / 10000" ||
				fail "$1: $d: $drops drops of $segs segments"
		fi
	done
}

# Each provider in turn (ours on ports 10 up).
lport=$PORT
for E810_PROVIDER in ${PROVIDERS_OVERRIDE:-stock ours}; do
	provider_env
	p=$E810_PROVIDER_NAME
	# ---- cm_data ---------------------------------------------------------
	snap
	t0=$SECONDS
	cm_data_run 192.168.81.2 192.168.81.1 $((lport + 3)) 300
	t=$((SECONDS - t0))
	cm_data_check "iWARP under $PPM ppm loss, $p provider" 0 1
	echo "$p provider: cm_data under loss: $t s"
	counters "$p provider: cm_data"

	# ---- rping -----------------------------------------------------------
	snap
	t0=$SECONDS
	for run in 64:20 16384:10; do
		size=${run%:*} n=${run#*:}
		timeout 300 rping -s -a 192.168.81.2 -p $((lport + 4)) -C "$n" -S "$size" \
			>/tmp/rping-s.log 2>&1 &
		spid=$!
		wait_for "ss -ltn 2>/dev/null | grep -q ':$((lport + 4)) ' || [ \"\$(iw_table ${devs[1]} apbvt_ports)\" = $((lport + 4)) ]" 20
		timeout 300 rping -c -a 192.168.81.2 -p $((lport + 4)) -C "$n" -S "$size" \
			-v -V >/tmp/rping-c.log 2>&1
		crc=$?
		wait "$spid"
		src=$?
		got=$(grep -c 'ping data: rdma-ping-' /tmp/rping-c.log)
		if [ "$crc" = 0 ] && [ "$src" = 0 ] && [ "$got" = "$n" ]; then
			ok "$p provider: rping -V -S $size -C $n under loss: $got pings checked"
		else
			fail "$p provider: rping -S $size (client rc $crc, server rc $src, $got of $n ping lines)"
			tail -n 5 /tmp/rping-c.log /tmp/rping-s.log | sed 's/^/  /'
		fi
	done
	echo "$p provider: rping under loss: $((SECONDS - t0)) s"
	counters "$p provider: rping"
	lport=$((lport + 10))
done

for d in "${devs[@]}"; do
	echo "$d: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-stats)"
	for k in terms_sent terms_rcvd crc_errors rx_rst tx_rst; do
		expect_eq "$d: $k under loss" 0 "$(($(iw_stat "$d" $k) - ${base[$d.$k]}))"
	done
done
for id in $(e810_qom_id "${devs[0]}") $(e810_qom_id "${devs[1]}"); do
	qom_set "$id" x-iwarp-drop-ppm 0 >/dev/null || fail "qom-set $id x-iwarp-drop-ppm 0"
done
expect_eq "drop_ppm back to 0" "0 0" "$(iw_stat "${devs[0]}" drop_ppm) $(iw_stat "${devs[1]}" drop_ppm)"
tables_empty() {
	local d
	for d in "${devs[@]}"; do
		[ "$(iw_table "$d" apbvt)" = 0 ] && [ "$(iw_table "$d" qhash)" = 0 ] ||
			return 1
	done
}
wait_for tables_empty 60 && ok "APBVT and quad hash empty after the connection" ||
	fail "tables: $(iw_table "${devs[0]}" apbvt_ports) / $(iw_table "${devs[1]}" qhash_entries)"
bad=$(dmesg_clean) && ok "kernel log clean" ||
	{ fail "kernel log:"; echo "$bad" | head -n 20 | sed 's/^/  /'; }
finish
