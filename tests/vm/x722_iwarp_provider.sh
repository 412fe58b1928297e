#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: x722
# parent: i40e
# rdma-driver: ours
# timeout: 1800
# check: on-demand
# Our provider (provider-irdma) on GEN_1: iWARP between the X722's two
# functions, both ports in init_net routed to each other over the wire
# (guest-lib.sh iwarp_two_hosts), first under our irdma's GEN_1 (the
# run's driver), then under the stock irdma's GEN_1 (rmmod ours, insmod
# the guest kernel's own), every program with our provider
# (provider_env ours):
#  - pyverbs: a context opens (hw_rev 1), max_sge_rd 1; ibv_resize_cq
#    refused with EOPNOTSUPP (no CQ resize on GEN_1) and so is an
#    extended CQ (the stock provider refuses it on GEN_1 as well); an RC
#    QP of 3 SGEs, 48 inline bytes and 512 receive WRs created (the RQ's
#    2049 quanta exceed the SQ's 2048 limit but not GEN_1's 16384), one
#    of 49 inline bytes or 4 SGEs refused;
#  - rping -V of 64 B x 50, 4 KiB x 20, 64 KiB-1 x 10: both exit 0 with
#    every iteration on both sides, our provider mapped in rping;
#  - cm_data (the data-checking RDMA-CM program, 1 B .. 1 MiB, SEND,
#    WRITE, READ with 1 or 3 SGEs, a READ's within max_sge_rd) 2 rounds;
#  - perftest over rdma_cm (-R): ib_write_bw, ib_read_bw, ib_send_bw at
#    64 KiB x 200: exit 0, the rows parse, the engine sent size x iters;
#  - 2 % loss (QOM x-iwarp-drop-ppm on both functions): cm_data 1 round
#    and rping -V 64 B x 20, 16 KiB x 10, every payload right, drops and
#    retransmissions counted; the knob back to 0;
#  - after each part no offloaded connection, no irdma QP, empty tables;
#    no CRC error, bad checksum or Terminate; no DMA or HMC fault or bad
#    MMIO access; clean dmesg.
. "$E810_LIB"

PPM=${E810_LOSS_PPM:-20000}
mapfile -t devs < <(e810_pci_devs)
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 x722 functions, got ${#devs[@]}"; finish; }
[ -x /mnt/host/progs/cm_data ] || fail "progs/cm_data not built"
E810_PROVIDER=ours provider_env
[ -e "$RDMAV_DRIVERS-rdmav34.so" ] || [ -n "$(ls "$RDMAV_DRIVERS"* 2>/dev/null)" ] ||
	{ fail "our provider is not installed at $RDMAV_DRIVERS"; finish; }

qom_set() {
	host_qmp "{\"execute\":\"qom-set\",\"arguments\":{\"path\":\"/machine/peripheral/$1\",\"property\":\"$2\",\"value\":$3}}"
}
irdma_qps() { rdma resource show qp 2>/dev/null | grep -c 'link irdma'; }
iw_sum() { echo $(($(iw_stat "${devs[0]}" "$1") + $(iw_stat "${devs[1]}" "$1"))); }
conns_zero() {
	[ "$(iw_stat "${devs[0]}" conns)" = 0 ] && [ "$(iw_stat "${devs[1]}" conns)" = 0 ]
}
tables_empty() { iw_tables_empty "${devs[0]}" && iw_tables_empty "${devs[1]}"; }
all_gone() {
	if wait_for "[ \$(irdma_qps) = 0 ] && conns_zero && tables_empty" 60; then
		ok "$1: no connection in the engine, no irdma QP, tables empty"
	else
		fail "$1: conns $(iw_stat "${devs[0]}" conns)/$(iw_stat "${devs[1]}" conns), irdma QPs $(irdma_qps)"
		rdma resource show qp | sed 's/^/  /'
	fi
}
listening() {
	case ",$(iw_table "${devs[1]}" apbvt_ports)," in *",$1,"*) return 0 ;; esac
	return 1
}
T_SEC=$SECONDS
took() { echo "time: $1 $((SECONDS - T_SEC)) s"; T_SEC=$SECONDS; }

# up: both ib_devices iWARP and ACTIVE, the wire routed, ping crosses it.
up() {
	wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ] && [ -n \"\$(e810_ibdev_of ${devs[1]})\" ]" 60
	ib0=$(e810_ibdev_of "${devs[0]}") ib1=$(e810_ibdev_of "${devs[1]}")
	[ -n "$ib0" ] && [ -n "$ib1" ] || { fail "$K: ib_devices missing ($ib0/$ib1)"; return 1; }
	# the netdevs (i40e's) outlive an irdma reload: routed once
	if [ -z "${nd0:-}" ]; then
		nd0=$(e810_netdev_of "${devs[0]}") nd1=$(e810_netdev_of "${devs[1]}")
		iwarp_two_hosts "$nd0" "$nd1" ||
			{ fail "$K: could not set up the two hosts"; return 1; }
	fi
	rdma_wait_all_active 30 && ok "$K irdma: both ports ACTIVE" ||
		fail "$K irdma: ports not ACTIVE: $(rdma link show 2>&1 | tr '\n' ' ')"
	expect_eq "$K irdma, our provider: $ib0 transport" "iWARP (1)" "$(ibv_attr "$ib0" transport)"
	ping -c 2 -W 2 192.168.81.2 >/dev/null || fail "$K: no ping over the wire"
}

# verbs_gen1: the provider's GEN_1 paths through pyverbs (no connection).
verbs_gen1() {
	local out
	out=$(python3 - "$ib0" <<'PY' 2>&1
import errno, sys
import pyverbs.device as d
import pyverbs.enums as e
from pyverbs.cq import CQ, CQEX, CqInitAttrEx
from pyverbs.pd import PD
from pyverbs.qp import QP, QPCap, QPInitAttr
from pyverbs.pyverbs_error import PyverbsRDMAError
ctx = d.Context(name=sys.argv[1])
print('max_sge_rd', ctx.query_device().max_sge_rd)
cq = CQ(ctx, 16)
try:
    cq.resize(64)
    print('resize ok')
except PyverbsRDMAError as x:
    print('resize errno', x.error_code)
try:
    CQEX(ctx, CqInitAttrEx(cqe=16))
    print('cqex ok')
except PyverbsRDMAError as x:
    print('cqex errno', x.error_code)
pd = PD(ctx)
def qp(**cap):
    try:
        a = QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=QPCap(**cap))
        q = QP(pd, a)
        c = a.cap
        r = 'ok %d %d %d %d' % (c.max_send_wr, c.max_recv_wr, c.max_send_sge,
                                 c.max_inline_data)
        q.close()
        return r
    except PyverbsRDMAError as x:
        return 'errno %d' % x.error_code
print('qp3', qp(max_send_wr=256, max_recv_wr=512, max_send_sge=3,
                max_recv_sge=3, max_inline_data=48))
print('qp49', qp(max_send_wr=16, max_recv_wr=16, max_inline_data=49))
print('qp4', qp(max_send_wr=16, max_recv_wr=16, max_send_sge=4))
PY
)
	echo "$out" | sed "s/^/  $K pyverbs: /"
	expect_eq "$K: max_sge_rd" 1 "$(sed -n 's/^max_sge_rd //p' <<<"$out")"
	expect_eq "$K: ibv_resize_cq" "errno 95" "$(sed -n 's/^resize //p' <<<"$out")"
	expect_eq "$K: extended CQ" "errno 95" "$(sed -n 's/^cqex //p' <<<"$out")"
	case "$(sed -n 's/^qp3 //p' <<<"$out")" in
	"ok "*" 3 48") ok "$K: RC QP of 3 SGEs, 48 inline bytes, 512 receive WRs" ;;
	*) fail "$K: RC QP of 3 SGEs, 48 inline, 512 recv WRs: $(sed -n 's/^qp3 //p' <<<"$out")" ;;
	esac
	case "$(sed -n 's/^qp49 //p' <<<"$out") $(sed -n 's/^qp4 //p' <<<"$out")" in
	"errno "*" errno "*) ok "$K: QPs of 49 inline bytes and of 4 SGEs refused" ;;
	*) fail "$K: 49 inline bytes / 4 SGEs: $(grep '^qp4' <<<"$out" | tr '\n' ' ')" ;;
	esac
}

# listening_ours PORT: the listener is up on PORT; MAPPED is 1 when an
# rping process has our provider mapped.
listening_ours() {
	local p
	listening "$1" || return 1
	MAPPED=0
	for p in $(pgrep -x rping); do
		grep -q "libibverbs/e810/libirdma" "/proc/$p/maps" 2>/dev/null && MAPPED=1
	done
	return 0
}
rping_set() {
	local sc size n what=$1
	shift
	for sc in "$@"; do
		size=${sc%:*} n=${sc#*:}
		MAPPED=0
		rping_verified "$size" "$n" $PORT 192.168.81.2 "listening_ours $PORT"
		if [ "$RC_C $RC_S $N_C $N_S" = "0 0 $n $n" ]; then
			ok "$what rping -V -S $size -C $n: both exit 0, $n iterations each side"
		else
			fail "$what rping -V -S $size -C $n: exit $RC_C/$RC_S, iterations $N_C/$N_S"
			tail -n 3 /tmp/rping-[cs].log /tmp/rping-[cs].err | sed 's/^/  /'
		fi
		expect_eq "$what rping -S $size: our provider mapped in rping" 1 "$MAPPED"
		PORT=$((PORT + 1))
	done
}

declare -A before
loss_snap() {
	local d k
	for d in "${devs[@]}"; do
		for k in tx_segs tx_dropped_injected retransmits; do
			before[$d.$k]=$(iw_stat "$d" $k)
		done
	done
}
loss_counters() {
	local d segs drops rex
	for d in "${devs[@]}"; do
		segs=$(($(iw_stat "$d" tx_segs) - ${before[$d.tx_segs]}))
		drops=$(($(iw_stat "$d" tx_dropped_injected) - ${before[$d.tx_dropped_injected]}))
		rex=$(($(iw_stat "$d" retransmits) - ${before[$d.retransmits]}))
		echo "$1: $d: $segs segments, $drops dropped, $rex retransmits"
		[ "$drops" -gt 0 ] && [ "$rex" -gt 0 ] &&
			ok "$1: $d: $drops drops, $rex retransmits" ||
			fail "$1: $d: $drops drops, $rex retransmits ($segs segments)"
	done
}
set_loss() {
	local id reply
	for id in $(e810_qom_id "${devs[0]}") $(e810_qom_id "${devs[1]}"); do
		reply=$(qom_set "$id" x-iwarp-drop-ppm "$1") ||
			fail "qom-set $id x-iwarp-drop-ppm $1: $reply"
	done
	expect_eq "$K: drop_ppm" "$1 $1" "$(iw_stat "${devs[0]}" drop_ppm) $(iw_stat "${devs[1]}" drop_ppm)"
}

# one_set: everything above under the irdma now loaded ($K).
one_set() {
	up || return
	verbs_gen1
	all_gone "$K: after pyverbs"
	rping_set "$K:" 64:50 4096:20 65535:10
	all_gone "$K: after the rpings"
	took "$K rping"
	cm_data_run 192.168.81.2 192.168.81.1 $PORT 300 -r 2
	cm_data_check "$K irdma, our provider" 0 2
	PORT=$((PORT + 1))
	all_gone "$K: after cm_data"
	took "$K cm_data"
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		iw_bw_run $t 65536 200 192.168.81.2 "listening \$PORT" "iw_sum tx_bytes" "$K:"
	done
	all_gone "$K: after perftest"
	took "$K perftest"
	set_loss "$PPM"
	loss_snap
	cm_data_run 192.168.81.2 192.168.81.1 $PORT 300
	cm_data_check "$K irdma, our provider, $PPM ppm loss" 0 1
	PORT=$((PORT + 1))
	loss_counters "$K: cm_data under loss"
	loss_snap
	rping_set "$K under loss:" 64:20 16384:10
	loss_counters "$K: rping under loss"
	set_loss 0
	all_gone "$K: after the loss runs"
	took "$K loss"
	for d in "${devs[@]}"; do
		expect_eq "$K: $d: CRC errors, bad checksums, Terminates out/in" "0 0 0 0" \
			"$(iw_stat "$d" crc_errors) $(iw_stat "$d" rx_bad_csum) $(iw_stat "$d" terms_sent) $(iw_stat "$d" terms_rcvd)"
		expect_eq "$K: $d: DMA errors, HMC faults, bad MMIO accesses" "0 0 0" \
			"$(model_stat "$d" dma_errors) $(model_stat "$d" hmc_faults) $(model_stat "$d" mmio_bad_access)"
	done
}

PORT=7300
for K in ours stock; do
	if [ "$K" = stock ]; then
		# our irdma out, the guest kernel's own in (irdma_load's stock path)
		rmmod irdma || { fail "rmmod of our irdma"; break; }
		modprobe -a ib_uverbs rdma_ucm i40e &&
			E810_RDMA_DRIVER=stock irdma_load ||
			{ fail "loading the stock irdma failed"; break; }
	fi
	one_set
	PORT=$((PORT + 100))
done
if dmesg_clean >/dev/null; then
	ok "no oops, warning or leak in dmesg"
else
	fail "dmesg shows problems"
	dmesg_clean | head -20
fi
finish
