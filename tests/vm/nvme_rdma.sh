#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# also-parent: ice
# timeout: 600
# NVMe over Fabrics on RDMA between the two ports with our irdma, in
# RoCEv2 mode, and in iWARP mode when iwarp_nvme.sh runs it: nvmet with nvmet-rdma on 192.168.81.1
# (port 0) exporting a 40 MiB brd RAM disk as namespace 1 of a subsystem
# (configfs: port trtype rdma, adrfam ipv4, trsvcid 4420), nvme-rdma on
# 192.168.81.2 (port 1) connecting through /dev/nvme-fabrics (the guest
# has no nvme-cli; nvme_connect in the guest library). Both ULPs create
# their rdma_cm IDs in the initial namespace (nvme_rdma_alloc_queue(),
# nvmet_rdma_enable_port()), so both ports stay there, routed to each
# other across the hub (iwarp_two_hosts; in iWARP mode through
# iwarp_ours_pair, whose checks come first). The host's data path is
# nvme-rdma's: FRWR registrations (IB_WR_REG_MR, remote invalidation by
# the target's SEND_WITH_INV or LOCAL_INV), the target moves the data
# with RDMA READ (writes; on iWARP into an FRWR-registered sink, read
# with invalidate: rdma_rw_init_mr_wrs()) and RDMA WRITE (reads). Checks:
#   * the controller's transport is rdma and its address the target's;
#     one RC QP per queue (admin and I/O, sysfs queue_count) on each
#     device; in iWARP mode as many connections offloaded and live in
#     each function's engine (x-iwarp-stats conns) and both irdmas
#     (debugfs iwarp cm_offloads, no offload error);
#   * 32 MiB of pseudo-random data written with dd oflag=direct and read
#     back with iflag=direct have the source's sha256, and so have the
#     target's RAM disk's first 32 MiB;
#   * the data crossed the wire: during the write the host's device sent
#     at least 32 MiB (the target's RDMA READs answered), during the read
#     the target's (its RDMA WRITEs): the engine's payload bytes
#     (x-iwarp-stats tx_bytes) in iWARP mode, ip4OutOctets (rdma
#     statistic) in RoCE mode; in iWARP mode no CRC or stream error and
#     no Terminate either way;
#   * the controller deleted (delete_controller) and gone, the subsystem
#     and port removed, nvme-rdma and nvmet-rdma unloaded; then no RC QP
#     and no rdma_cm ID left on either device and, in iWARP mode, no
#     connection node in either irdma, no offloaded connection in either
#     engine, APBVT and quad hash empty (iwarp_ours_teardown);
#   * clean dmesg.
# Write and read throughput are printed.
. "$E810_LIB"

T=192.168.81.1
H=192.168.81.2
SVC=4420
NQN=nqn.2026-11.org.e810:nvme-rdma
MIB=32
BYTES=$((MIB << 20))
SRC=/tmp/nvme-src

# ---- the two ports -------------------------------------------------------------
if [ "$E810_RDMA_PROTOCOL" = iwarp ]; then
	iwarp_ours_pair
else
	routed_pair
	# iwarp_two_hosts' two routes in the main table too: rdma_cm's
	# passive side checks a RoCE request's route from its netdev
	# (validate_ipv4_net_dev(): a lookup with the netdev as oif, no
	# iif), which finds nothing in table 100 (iif lo) and only the other
	# port's local route, not out of that netdev.
	ip route add "$H" dev "$nd0" src "$T" &&
		ip route add "$T" dev "$nd1" src "$H" ||
		fail "main-table routes between the ports"
fi
ib0=$(e810_ibdev_of "$d0")
ib1=$(e810_ibdev_of "$d1")

# sent DEV IBDEV: bytes the function has sent so far: its engine's
# payload (iWARP), its RoCEv2 IPv4 octets (RoCE).
sent() {
	if [ "$E810_RDMA_PROTOCOL" = iwarp ]; then
		iw_stat "$1" tx_bytes
	else
		hw_counter "$2" ip4OutOctets
	fi
}
# rc_qps IBDEV: the RC QPs on port 1 of IBDEV.
rc_qps() {
	rdma resource show qp link "$1/1" 2>/dev/null | grep -c 'type RC'
}

# ---- the target (192.168.81.1) -------------------------------------------------
modprobe -a nvmet nvmet-rdma nvme-rdma || fail "modprobe nvmet nvmet-rdma nvme-rdma"
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config ||
	fail "mount configfs"
modprobe brd rd_nr=1 rd_size=$(((MIB + 8) * 1024)) || fail "modprobe brd"
if nvmet_export "$NQN" /dev/ram0 1 rdma "$T" "$SVC"; then
	ok "nvmet: $NQN, namespace 1 on /dev/ram0, port rdma $T:$SVC"
else
	fail "nvmet configuration through configfs"
fi
expect_eq "nvmet port transport" rdma "$(cat "$NVMET/ports/1/addr_trtype" 2>/dev/null)"

# ---- the host (192.168.81.2) ------------------------------------------------------
dmesg_mark
t0=$SECONDS
if dev=$(nvme_connect rdma "$T" "$SVC" "$H" "$NQN"); then
	ok "connected: $dev ($((SECONDS - t0)) s)"
else
	fail "nvme connect over rdma to $T:$SVC"
	new_dmesg | grep -Ei 'nvme|irdma' | tail -12 | sed 's/^/  dmesg: /'
fi
inst=$(cat /tmp/nvme-rdma.inst 2>/dev/null)
ctrl=/sys/class/nvme/nvme$inst
if [ -b "$dev" ]; then
	expect_eq "controller transport" rdma "$(cat "$ctrl/transport")"
	addr=$(cat "$ctrl/address")
	[[ ",$addr," == *",traddr=$T,"* ]] && [[ ",$addr," == *",trsvcid=$SVC,"* ]] &&
		ok "controller address: $addr" || fail "controller address: $addr"
	expect_eq "namespace size (bytes)" $(((MIB + 8) << 20)) "$(blockdev --getsize64 "$dev")"
	queues=$(cat "$ctrl/queue_count")
	[ "${queues:-0}" -ge 2 ] && ok "$queues queues (admin and I/O)" ||
		fail "queue_count '$queues'"
	expect_eq "$ib1 (host) RC QPs" "$queues" "$(rc_qps "$ib1")"
	expect_eq "$ib0 (target) RC QPs" "$queues" "$(rc_qps "$ib0")"
	# each queue's ID on both sides, and the target's listener
	n=$(rdma resource show cm_id 2>/dev/null | grep -c .)
	[ "$n" -gt $((2 * queues)) ] && ok "$n rdma_cm IDs while connected" ||
		fail "$n rdma_cm IDs while connected, want > $((2 * queues))"
	if [ "$E810_RDMA_PROTOCOL" = iwarp ]; then
		for d in "$d0" "$d1"; do
			expect_eq "$d: offloaded connections in the engine" "$queues" \
				"$(iw_stat "$d" conns)"
		done
		for a in "$a0" "$a1"; do
			expect_eq "$a: connections offloaded" "$queues" "$(iwdbg "$a" cm_offloads)"
			expect_eq "$a: offloads failed" 0 "$(iwdbg "$a" cm_offload_errors)"
		done
	fi
fi

# ---- data ---------------------------------------------------------------------------
# xfer DEV IBDEV DD_ARGS...: one dd of $MIB MiB with DD_ARGS; sets XFER_NS
# (its time) and XFER_SENT (what DEV sent meanwhile, see sent).
xfer() {
	local s0 t0
	s0=$(sent "$1" "$2")
	t0=$(date +%s%N)
	timeout 300 dd bs=1M count=$MIB status=none "${@:3}" || fail "dd ${*:3}"
	XFER_NS=$(($(date +%s%N) - t0))
	XFER_SENT=$(($(sent "$1" "$2") - s0))
}
if [ -b "$dev" ]; then
	head -c "$BYTES" /dev/urandom >"$SRC"
	sum=$(sha256sum <"$SRC" | cut -d' ' -f1)
	what=ip4OutOctets
	[ "$E810_RDMA_PROTOCOL" = iwarp ] && what="engine tx_bytes"
	# The write: the host's device answers the target's RDMA READs. The
	# read: the target's device sends its RDMA WRITEs. Into a file
	# first: hashing under TCG takes seconds.
	for step in "write $d1 $ib1 host if=$SRC of=$dev oflag=direct" \
		"read $d0 $ib0 target if=$dev of=$SRC.back iflag=direct"; do
		set -- $step
		xfer "$2" "$3" "${@:5}"
		eval "${1}_ns=$XFER_NS"
		[ "$XFER_SENT" -ge "$BYTES" ] &&
			ok "$2 ($4) $what +$XFER_SENT during the $1 (>= $MIB MiB)" ||
			fail "$2 ($4) $what +$XFER_SENT during the $1, want >= $BYTES"
	done
	expect_eq "sha256 of $MIB MiB read back with iflag=direct" "$sum" \
		"$(sha256sum <"$SRC.back" | cut -d' ' -f1)"
	expect_eq "sha256 of the target's RAM disk (first $MIB MiB)" "$sum" \
		"$(head -c "$BYTES" /dev/ram0 | sha256sum | cut -d' ' -f1)"
	rm -f "$SRC.back"
	awk -v w="$write_ns" -v r="$read_ns" -v b="$BYTES" 'BEGIN {
		printf "  %d MiB over nvme-rdma: write %.1f MB/s, read %.1f MB/s\n",
			b / 1048576, b * 1e3 / w, b * 1e3 / r }'
	[ "$E810_RDMA_PROTOCOL" = iwarp ] && iw_engines_quiet "after the data"
fi

# ---- teardown ------------------------------------------------------------------------
if [ -n "$inst" ] && [ -e "$ctrl" ]; then
	echo 1 >"$ctrl/delete_controller"
	wait_for "[ ! -e $ctrl ]" 30 && ok "controller nvme$inst deleted" ||
		fail "controller nvme$inst still there"
fi
nvmet_unexport "$NQN" 1 && ok "nvmet subsystem and port removed" ||
	fail "nvmet teardown"
if wait_for "modprobe -r nvme-rdma nvmet-rdma 2>/dev/null" 20; then
	ok "nvme-rdma and nvmet-rdma unloaded"
else
	fail "could not unload nvme-rdma/nvmet-rdma: $(lsmod | grep -E '^nvme_rdma|^nvmet_rdma' | tr '\n' ' ')"
fi
modprobe -r nvmet brd
for ib in "$ib0" "$ib1"; do
	wait_for "[ \"\$(rc_qps $ib)\" = 0 ]" 30 && ok "$ib: no RC QP left" ||
		fail "$ib: RC QPs left: $(rdma resource show qp link "$ib/1" | tr '\n' ' ')"
done
n=$(rdma resource show cm_id 2>/dev/null | grep -c .)
expect_eq "rdma_cm IDs left" 0 "$n"
[ "$E810_RDMA_PROTOCOL" = iwarp ] && iwarp_ours_teardown
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
[ "${E810_FAILS:-0}" -gt 0 ] &&
	new_dmesg | grep -Ei 'nvme|irdma' | tail -12 | sed 's/^/  dmesg: /'
finish
