#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# rdma-driver: stock
# rdma-protocol: iwarp
# timeout: 1200
# check: on-demand
# The kill -9 cases of stock_iwarp's closing section in a loop, to catch
# the rare hang of one make check run (a killed program that never
# ended, AE 0x102 in the stock irdma's log); by hand also with ours at
# both ends (tools/vm run --rdma-driver ours; the stock provider either
# way; ours once left a surviving rping waiting for the flush of a
# receive it posted after the peer's RST, docs/irdma.md "Connections"):
# KILL9_ROUNDS (6) rounds of rping (-V, 4 KiB) and ib_write_bw -R
# (64 KiB) each killed with SIGKILL mid-transfer, client then server.
# Each time: data moved
# first, the killed program ends within 60 s (else the stacks of the
# blocked tasks, the dmesg tail, the QPs and the model's counters are
# printed and the scenario ends: the evidence for the hang), the other
# side ends by itself within 60 s (else the same evidence, then it is
# killed), no irdma QP and no offloaded connection left and the APBVT
# and quad hash empty; any "abnormal ae_id" line the stock irdma logged
# is printed. About 37 s a round. KILL9_CASES (victim:program, comma
# separated; default all four) narrows a round to the cases chased.
. "$E810_LIB"

devs=($(e810_pci_devs))
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 e810 functions, got ${#devs[@]}"; finish; }
wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ] && [ -n \"\$(e810_ibdev_of ${devs[1]})\" ]" 30
rdma_wait_all_active 30 || { fail "ports not ACTIVE"; finish; }
iwarp_two_hosts "$(e810_netdev_of "${devs[0]}")" "$(e810_netdev_of "${devs[1]}")" ||
	{ fail "could not set up the two hosts"; finish; }
export RDMAV_DRIVERS=irdma	# the stock provider
# Our irdma says each connection's states, its QPs' AEs and Terminates at
# debug level: the evidence of a hang.
[ "${E810_RDMA_DRIVER:-ours}" = ours ] &&
	echo 'module irdma +p' >/sys/kernel/debug/dynamic_debug/control

show() {
	local d
	for d in "${devs[@]}"; do
		echo "  $d: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-stats)"
		echo "  $d: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-tables)"
		# each connection the engine holds: its TCP state, the FIN,
		# what is unacknowledged or queued (a close that hangs)
		echo "  $d conns: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-conns)"
	done
}
gone() {
	local t d
	[ "$(rdma resource show qp 2>/dev/null | grep -c 'link irdma')" = 0 ] || return 1
	for d in "${devs[@]}"; do
		t=" $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-tables) "
		case "$t" in *" apbvt=0 qhash=0 "*) ;; *) return 1 ;; esac
		[ "$(iw_stat "$d" conns)" = 0 ] || return 1
	done
}
# evidence PID: the kernel stacks of PID's threads and its children's
# (rping waits in two: its main thread for the DISCONNECTED event, its
# CQ thread for a completion event), the blocked tasks, the dmesg tail,
# the QPs, our irdma's connections and the model's counters.
evidence() {
	local c t
	for c in $(pgrep -P "$1") "$1"; do
		echo "  pid $c ($(cat /proc/$c/comm 2>/dev/null)): state $(awk '{print $3}' /proc/$c/stat 2>/dev/null)"
		for t in /proc/$c/task/*; do
			echo "    thread ${t##*/} ($(cat $t/comm 2>/dev/null)): state $(awk '{print $3}' $t/stat 2>/dev/null)"
			sed 's/^/      /' $t/stack 2>/dev/null
		done
	done
	echo w >/proc/sysrq-trigger
	dmesg | tail -n 150 | sed 's/^/  dmesg: /'
	rdma resource show qp | sed 's/^/  /'
	for t in /sys/kernel/debug/irdma/*/iwarp; do
		[ -r "$t" ] && sed "s|^|  $t: |" "$t" | grep -E 'conn |cm_(disconnects|closes|rst|established)|terms_'
	done
	show
}
# ended PID WHAT: PID ends within 60 s, else the evidence and the end.
ended() {
	if wait_for "! kill -0 $1 2>/dev/null" 60; then
		wait "$1" 2>/dev/null
		return 0
	fi
	fail "$2: not ended after 60 s"
	evidence "$1"
	finish
}
PORT=7300
kill9() {
	local victim=$1 prog=$2 sp cp pid other f0 n0
	f0=$(iw_stat "${devs[0]}" fpdus_tx)
	if [ "$prog" = rping ]; then
		timeout 120 rping -s -a 192.168.81.2 -p $PORT -V -S 4096 >/tmp/k-s.log 2>&1 &
		sp=$!
		wait_for "[ \"\$(iw_table ${devs[1]} apbvt_ports)\" = $PORT ]" 20
		timeout 120 rping -c -a 192.168.81.2 -p $PORT -V -S 4096 >/tmp/k-c.log 2>&1 &
		cp=$!
	else
		timeout 120 ib_write_bw -R -F -s 65536 -n 1000000 -p $PORT >/tmp/k-s.log 2>&1 &
		sp=$!
		wait_for "case ,\$(iw_table ${devs[1]} apbvt_ports), in *,$PORT,*) true ;; *) false ;; esac" 20
		timeout 120 ib_write_bw -R -F -s 65536 -n 1000000 -p $PORT 192.168.81.2 >/tmp/k-c.log 2>&1 &
		cp=$!
	fi
	wait_for "[ \$((\$(iw_stat ${devs[0]} fpdus_tx) - $f0)) -ge 100 ]" 60 ||
		fail "$prog $victim (port $PORT): no data moved"
	if [ "$victim" = client ]; then pid=$cp other=$sp; else pid=$sp other=$cp; fi
	n0=$(dmesg | wc -l)
	kill -9 "$(pgrep -P "$pid" "$prog")"
	ended "$pid" "$prog $victim killed (port $PORT)"
	if ! wait_for "! kill -0 $other 2>/dev/null" 60; then
		# the survivor's own log: the client's is k-c.log
		if [ "$prog" = rping ] && iw_single_flush_hang \
			"/tmp/k-$([ "$victim" = client ] && echo s || echo c).log"; then
			echo "note: $prog $victim killed (port $PORT): the other side, DISCONNECTED and its connection closed in the engine, waits for a receive posted after the stock irdma's one flush (upstream, not the model)"
			show
		else
			fail "$prog $victim killed (port $PORT): the other side still runs after 60 s"
			evidence "$other"
		fi
		kill -9 "$(pgrep -P "$other" "$prog")"
	fi
	ended "$other" "$prog $victim killed (port $PORT), the other side"
	if wait_for gone 60; then
		ok "$prog $victim killed (port $PORT): both ended, nothing left"
	else
		fail "$prog $victim killed (port $PORT): QPs, connections or table entries left"
		rdma resource show qp | sed 's/^/  /'
		show
	fi
	dmesg | tail -n +$((n0 + 1)) | grep 'abnormal ae_id' | head -n 3 | sed 's/^/  irdma: /'
	PORT=$((PORT + 1))
}
KILL9_CASES=${KILL9_CASES:-client:rping,server:rping,client:ib_write_bw,server:ib_write_bw}
for r in $(seq 1 "${KILL9_ROUNDS:-6}"); do
	echo "round $r at $SECONDS s"
	for c in ${KILL9_CASES//,/ }; do
		kill9 "${c%%:*}" "${c#*:}"
	done
done
show
bad=$(dmesg_clean) && ok "kernel log clean" ||
	{ fail "kernel log:"; echo "$bad" | head -n 20 | sed 's/^/  /'; }
finish
