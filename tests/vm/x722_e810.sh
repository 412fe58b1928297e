#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: x722e810
# parent: i40e
# rdma-driver: none
# timeout: 1200
# check: on-demand
# The two generations on one wire, in iWARP, and the X722 against
# soft-iWARP: one guest with an X722 function (i40e, the stock irdma's
# GEN_1, 192.168.81.1) and an E810 function (the stock ice switched to
# iWARP, the stock irdma's GEN_2, 192.168.81.2), both in init_net routed
# to each other over the wire (guest-lib.sh iwarp_two_hosts), the stock
# provider:
#  - both ib_devices iWARP and ACTIVE, both engines' tables empty;
#  - rping -V (payload verified) at 64 B, 4 KiB and 64 KiB-1 with the
#    X722 as client and as server: both exit 0 with every iteration, each
#    engine sent at least 2 x size x iterations (a READ and a WRITE per
#    iteration), one offloaded connection per run on each side;
#  - cm_data (the data-checking RDMA-CM program: private data both ways,
#    SEND, WRITE, READ of 1 B to 64 KiB+1, every payload checked by both
#    sides) both ways;
#  - ib_write_bw, ib_read_bw (-o 63: the X722's IRD, below), ib_send_bw -R
#    at 64 KiB both ways: exit 0, the result rows parse, the sending engine
#    moved size x iterations;
#  - then the E810 function leaves irdma and carries siw instead (the
#    kernel's TCP on the ice netdev): X722 client -> siw server rping -V
#    at 64 B and 64 KiB-1, cm_data and ib_write_bw -R, the same checks on
#    the X722's engine and siw's kernel TCP counters (no checksum error,
#    no out-of-order segment); siw's client -> the X722's listener is
#    refused as upstream irdma refuses it (an MPA v2 request without the
#    peer-to-peer bit: irdma_negotiate_mpa_v2_ird_ord()), no connection
#    offloaded;
#  - after each part no offloaded connection, no irdma QP, empty tables;
#    over the run no CRC error, bad checksum, out-of-order segment or
#    Terminate in either engine, no DMA or HMC fault; clean dmesg.
. "$E810_LIB"

# pci_of DEVICE_ID: the PCI function of Intel device DEVICE_ID.
pci_of() {
	local d
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = 0x8086 ] && [ "$(cat "$d/device")" = "$1" ] &&
			{ echo "${d##*/}"; return; }
	done
}
X=$(pci_of 0x37d0) E=$(pci_of 0x1592)
[ -n "$X" ] && [ -n "$E" ] || { fail "want an x722 and an e810 function: '$X' '$E'"; finish; }
XQ=x722-0 EQ=e810-0	# their QEMU ids (tools/vm, topology x722e810)
XIP=192.168.81.1 EIP=192.168.81.2

modprobe -a ib_uverbs rdma_ucm i40e ice || { fail "loading i40e and ice"; finish; }
# aux_on PREFIX: the function $E has an auxiliary device PREFIX.<N>.
aux_on() {
	local a
	for a in "/sys/bus/pci/devices/$E/$1".*; do [ -e "$a" ] && return 0; done
	return 1
}
wait_for "aux_on ice.roce" 60 || fail "ice published no ice.roce.<N> on $E"
# RoCEv2 off, then iWARP on (ice's runtime devlink parameters); ice
# re-plugs its auxiliary device as ice.iwarp.<N>.
devlink dev param set "pci/$E" name enable_roce value false cmode runtime &&
	devlink dev param set "pci/$E" name enable_iwarp value true cmode runtime ||
	fail "switching $E to iWARP"
wait_for "aux_on ice.iwarp" 30 || fail "ice published no ice.iwarp.<N> on $E"
if [ "${E810_RDMA_DRIVER:-none}" = ours ]; then
	# Our irdma (the runner loaded it after i40e) binds both: the
	# X722's i40e.iwarp.<N> as GEN_1 (i40e_if.c) and, once switched,
	# the E810's ice.iwarp.<N> as GEN_2 (ice_if.c).
	:
else
	# The guest kernel's own irdma with what it links against.
	# shellcheck disable=SC2046
	modprobe -a $(modinfo -F depends /usr/lib/e810-stock/irdma.ko* | tr , ' ') &&
		/sbin/insmod /usr/lib/e810-stock/irdma.ko* ||
		{ fail "loading the stock irdma failed"; finish; }
fi
wait_for "[ -n \"\$(e810_ibdev_of $X)\" ] && [ -n \"\$(e810_ibdev_of $E)\" ]" 60
ibx=$(e810_ibdev_of "$X") ibe=$(e810_ibdev_of "$E")
[ -n "$ibx" ] && [ -n "$ibe" ] || { fail "ib_devices missing ($ibx/$ibe)"; finish; }
ndx=$(e810_netdev_of "$X") nde=$(e810_netdev_of "$E")
iwarp_two_hosts "$ndx" "$nde" || { fail "could not set up the two hosts"; finish; }
rdma_wait_all_active 30 && ok "rdma link: X722 ($ibx) and E810 ($ibe) ACTIVE" ||
	fail "ports not ACTIVE: $(rdma link show 2>&1 | tr '\n' ' ')"
for ib in "$ibx" "$ibe"; do
	expect_eq "$ib: ibv_devinfo transport" "iWARP (1)" "$(ibv_attr "$ib" transport)"
done
ping -c 2 -W 2 $EIP >/dev/null && ok "ping from the X722 to the E810 over the wire" ||
	fail "no ping between the ports: $(ip -br addr; ip rule; ip neigh)"
# X722_E810_PROVIDER: set by x722_e810_ours (our provider on both).
E810_PROVIDER=${X722_E810_PROVIDER:-stock} provider_env

# ---- the engines' counters ---------------------------------------------------

# qv QEMU_ID PROP KEY: field KEY of QOM property PROP of device QEMU_ID.
qv() { e810_qom_str "$1" "$2" | tr ' ' '\n' | sed -n "s/^$3=//p"; }
iws() { qv "$1" x-iwarp-stats "$2"; }
iwt() { qv "$1" x-iwarp-tables "$2"; }
tables_empty() {
	local q
	for q in "$@"; do
		[ "$(iwt "$q" apbvt)" = 0 ] && [ "$(iwt "$q" qhash)" = 0 ] || return 1
	done
}
irdma_qps() { rdma resource show qp 2>/dev/null | grep -c 'link irdma'; }
# all_gone WHAT QEMU_ID...: no offloaded connection, no irdma QP, empty
# tables in the engines named.
all_gone() {
	local what=$1 q c=0
	shift
	if wait_for "[ \$(irdma_qps) = 0 ] && tables_empty $*" 60; then
		for q in "$@"; do c=$((c + $(iws "$q" conns))); done
		[ $c = 0 ] && { ok "$what: no connection in the engines, no irdma QP, tables empty"; return; }
	fi
	fail "$what: irdma QPs $(irdma_qps), conns/tables:"
	for q in "$@"; do echo "  $q: conns $(iws "$q" conns) $(e810_qom_str "$q" x-iwarp-tables)"; done
}
tables_empty $XQ $EQ && ok "both engines in iWARP mode with empty tables" ||
	fail "tables after bring-up: $(e810_qom_str $XQ x-iwarp-tables) / $(e810_qom_str $EQ x-iwarp-tables)"
# listening QEMU_ID PORT: PORT is in the engine's APBVT (irdma's listener).
listening() {
	case ",$(iwt "$1" apbvt_ports)," in *",$2,"*) return 0 ;; esac
	return 1
}
T_SEC=$SECONDS
took() { echo "time: $1 $((SECONDS - T_SEC)) s"; T_SEC=$SECONDS; }

# ---- rping -V both ways ------------------------------------------------------

# rping_check WHAT SIZE COUNT: judges the last rping_verified.
rping_check() {
	if [ "$RC_C $RC_S $N_C $N_S" = "0 0 $3 $3" ]; then
		ok "$1 rping -V -S $2 -C $3: both exit 0, $3 iterations each side"
	else
		fail "$1 rping -V -S $2 -C $3: exit $RC_C/$RC_S, iterations $N_C/$N_S"
		tail -n 3 /tmp/rping-[cs].log /tmp/rping-[cs].err | sed 's/^/  /'
	fi
}
PORT=7200
for dir in x2e e2x; do
	if [ $dir = x2e ]; then
		what="X722->E810" sip=$EIP sq=$EQ cq=$XQ
	else
		what="E810->X722" sip=$XIP sq=$XQ cq=$EQ
	fi
	for sc in 64:50 4096:30 65535:10; do
		size=${sc%:*} n=${sc#*:}
		bc=$(iws $cq tx_bytes) bs=$(iws $sq tx_bytes)
		oc=$(iws $cq offloads) os=$(iws $sq offloads)
		t0=$SECONDS
		rping_verified "$size" "$n" $PORT "$sip" "listening $sq $PORT"
		rping_check "$what" "$size" "$n"
		mc=$(($(iws $cq tx_bytes) - bc)) ms=$(($(iws $sq tx_bytes) - bs))
		echo "$what -S $size -C $n: $((SECONDS - t0)) s, client engine sent $mc, server engine $ms bytes"
		# per iteration the server READs the client's buffer (the
		# client's engine sends it) and WRITEs it back
		[ "$mc" -ge $((size * n)) ] && [ "$ms" -ge $((size * n)) ] &&
			ok "$what -S $size: each engine sent >= $((size * n)) bytes" ||
			fail "$what -S $size: engines sent $mc (client) and $ms (server), want >= $((size * n)) each"
		expect_eq "$what -S $size: connections offloaded (client, server)" "1 1" \
			"$(($(iws $cq offloads) - oc)) $(($(iws $sq offloads) - os))"
		PORT=$((PORT + 1))
	done
done
all_gone "after the rpings" $XQ $EQ
took "rping both ways"

# ---- cm_data both ways -------------------------------------------------------

SIZES=1,64,4096,65537
[ -x /mnt/host/progs/cm_data ] || fail "progs/cm_data not built"
cm_data_run $EIP $XIP $PORT 180 -r 1 -S $SIZES
cm_data_check "cm_data X722 client, E810 server" 0 1 $SIZES
PORT=$((PORT + 1))
cm_data_run $XIP $EIP $PORT 180 -r 1 -S $SIZES
cm_data_check "cm_data E810 client, X722 server" 0 1 $SIZES
PORT=$((PORT + 1))
all_gone "after cm_data" $XQ $EQ
took "cm_data both ways"

# ---- perftest -R both ways -----------------------------------------------------

# bw_run TEST SIZE ITERS SERVER_IP WAIT SENDER_QEMU_ID WHAT: guest-lib's
# iw_bw_run, the sender's engine moving SIZE x ITERS.
bw_run() { iw_bw_run "$1" "$2" "$3" "$4" "$5" "iws $6 tx_bytes" "$7"; }
# ib_read_bw offers each side's own IRD as both its IRD and ORD (perftest's
# out_reads: the device's max_qp_rd_atom), 63 on the X722 (GEN_1) and 127
# on the E810: the initiator then refuses a responder ORD above its IRD
# (upstream irdma_negotiate_mpa_v2_ird_ord(), -EINVAL) and perftest
# crashes on its error path. Real hardware does the same; the two
# generations together take the smaller one.
for t in ib_write_bw ib_read_bw ib_send_bw; do
	# READ: the server's engine sends the data
	sx=$XQ se=$EQ PERFTEST_EXTRA=
	[ $t = ib_read_bw ] && sx=$EQ se=$XQ PERFTEST_EXTRA="-o 63"
	bw_run $t 65536 200 $EIP "listening $EQ \$PORT" $sx "X722->E810"
	bw_run $t 65536 200 $XIP "listening $XQ \$PORT" $se "E810->X722"
done
all_gone "after perftest" $XQ $EQ
took "perftest both ways"

# ---- the X722 against siw ------------------------------------------------------

# The E810 function leaves irdma; siw takes its netdev (the kernel's TCP).
ea=$(basename "$(ls -d /sys/bus/pci/devices/$E/ice.iwarp.* 2>/dev/null | head -1)")
drv=$(readlink -f "/sys/bus/auxiliary/devices/$ea/driver")
if [ -n "$ea" ] && [ -d "$drv" ] && echo "$ea" >"$drv/unbind"; then
	ok "$ea unbound from $(basename "$drv")"
else
	fail "could not unbind the E810's '$ea' from irdma"; finish
fi
modprobe siw && rdma link add siw0 type siw netdev "$nde" ||
	{ fail "siw on $nde"; finish; }
wait_for "rdma link show siw0/1 | grep -q 'state ACTIVE'" 10 ||
	fail "siw0/1 not ACTIVE: $(rdma link show siw0/1)"
NSTAT_KEYS="TcpInCsumErrors TcpInErrs TcpExtTCPOFOQueue"
nsnap() { nstat -az $NSTAT_KEYS | awk 'NF == 3 && $1 != "#kernel" { printf "%s ", $2 }'; }
tcp0=$(nsnap)
[ "$(wc -w <<<"$tcp0")" = 3 ] || fail "nstat gave '$tcp0' for $NSTAT_KEYS"
siw_listening() { ss -ltn | grep -q ":$1 "; }
for sc in 64:50 65535:10; do
	size=${sc%:*} n=${sc#*:}
	b0=$(iws $XQ tx_bytes)
	rping_verified "$size" "$n" $PORT $EIP "siw_listening $PORT"
	rping_check "X722->siw" "$size" "$n"
	moved=$(($(iws $XQ tx_bytes) - b0))
	[ "$moved" -ge $((size * n)) ] && ok "X722->siw -S $size: the X722 sent $moved bytes" ||
		fail "X722->siw -S $size: the X722 sent $moved bytes, want >= $((size * n))"
	PORT=$((PORT + 1))
done
cm_data_run $EIP $XIP $PORT 180 -r 1 -S $SIZES
cm_data_check "cm_data X722 client, siw server" 0 1 $SIZES
PORT=$((PORT + 1))
PERFTEST_EXTRA=
bw_run ib_write_bw 65536 200 $EIP "siw_listening \$PORT" $XQ "X722->siw"
expect_eq "siw's kernel TCP: checksum errors, input errors, out-of-order queued" \
	"$tcp0" "$(nsnap)"
# siw's client -> the X722's listener: refused (siw sends MPA v2 without
# the peer-to-peer bit; upstream irdma resets such a connection).
o0=$(iws $XQ offloads)
timeout 60 rping -s -a $XIP -p $PORT -v -C 1 >/tmp/rping-s.log 2>&1 &
sp=$!
wait_for "listening $XQ $PORT" 20
timeout 30 rping -c -a $XIP -p $PORT -v -C 1 >/tmp/rping-c.log 2>&1
rc=$?
kill "$sp" 2>/dev/null
wait "$sp" 2>/dev/null
n=$(grep -c 'ping data' /tmp/rping-c.log)
if [ "${E810_RDMA_DRIVER:-none}" = ours ]; then
	# our passive side accepts it without an RTR (docs/irdma.md "MPA")
	[ $rc = 0 ] && [ "$n" = 1 ] && ok "siw->X722: accepted by our irdma (rping rc 0, 1 iteration)" ||
		fail "siw->X722: rping rc $rc, $n iterations"
	expect_eq "siw->X722: connections the X722 offloaded" 1 $(($(iws $XQ offloads) - o0))
else
	[ $rc != 0 ] && [ "$n" = 0 ] && ok "siw->X722: refused (rping rc $rc, no data)" ||
		fail "siw->X722: rping rc $rc, $n iterations"
	expect_eq "siw->X722: connections the X722 offloaded" 0 $(($(iws $XQ offloads) - o0))
fi
wait_for "[ -z \"\$(rdma resource show qp link siw0/1 2>/dev/null)\" ]" 20 ||
	fail "siw0 still holds QPs: $(rdma resource show qp link siw0/1)"
rdma link delete siw0 && rmmod siw || fail "removing siw"
all_gone "after siw" $XQ
took "the X722 against siw"

# ---- the whole run -------------------------------------------------------------

for q in $XQ $EQ; do
	echo "  $q iwarp: $(e810_qom_str $q x-iwarp-stats)"
	expect_eq "$q: CRC errors, bad checksums, out-of-order, Terminates out/in" \
		"0 0 0 0 0" "$(iws $q crc_errors) $(iws $q rx_bad_csum) $(iws $q rx_ooo) $(iws $q terms_sent) $(iws $q terms_rcvd)"
done
expect_eq "X722: DMA errors, HMC faults, bad MMIO accesses" "0 0 0" \
	"$(qv $XQ x-stats dma_errors) $(qv $XQ x-stats hmc_faults) $(qv $XQ x-stats mmio_bad_access)"
expect_eq "E810: DMA errors, HMC faults" "0 0" \
	"$(qv $EQ x-core-stats dma_errors) $(qv $EQ x-core-stats hmc_faults)"
if dmesg_clean >/dev/null; then
	ok "no oops, warning or leak in dmesg"
else
	fail "dmesg shows problems"
	dmesg_clean | head -20
fi
finish
