#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 2400
# On demand, not in make check: the guest half of tests/bench/ulp.sh
# (make bench-ulp). Kernel ULPs over RDMA against the same ULP over TCP
# between the two e810 ports of one guest, in one boot:
#   nvme   nvme-rdma against nvme-tcp: nvmet (configfs) exports two brd
#          RAM disks, one subsystem on an rdma port (4420), one on a tcp
#          port (4421); the initiator connects both through
#          /dev/nvme-fabrics (no nvme-cli in the guest);
#   iser   iSER against iSCSI/TCP: LIO exports two more RAM disks (iblock),
#          one target with an iSER portal (3260), one with a plain one
#          (3261); open-iscsi logs in to both;
#   nfs    NFSv4.2 proto=rdma against proto=tcp: knfsd exports a tmpfs,
#          the client (namespace peer) mounts it both ways;
#   smc    SMC-R against TCP: smc_stream one way at a time (AF_SMC, then
#          AF_INET), on smc_r's routed setup.
# ULP_MTU sets both netdevs' MTU (default: theirs, 1500, so RoCE runs
# at path MTU 1024 and TCP at 1500-byte frames).
# Block and NFS legs move ULP_MIB MiB (default 32) with dd bs=1M and
# O_DIRECT (write: oflag=direct from a tmpfs file, read: iflag=direct to
# /dev/null); SMC moves the same amount per direction. ULP_ROUNDS rounds
# (default 3), each leg RDMA then TCP back to back, so both see the same
# host load; the summary gives the median of each leg and their ratio.
# Both legs of a ULP go through the same two ports: nvme and iser in the
# root namespace with iser.sh's policy routes (their rdma_cm IDs live in
# init_net), nfs and smc between the root namespace and "peer", as
# nfs_rdma.sh and smc_r.sh set them up. Each leg must have crossed the
# wire the way it claims: an RDMA leg moves at least the payload in the
# devices' RoCE octets (rdma statistic ip4OutOctets), a TCP leg moves it
# in the netdevs' tx_bytes with less than a tenth of it in RoCE octets;
# a leg that does not is a failure and its rate is not counted.
# Output: "RATE ulp dir leg round MiB/s" per leg and "LEGSTAT ..." with
# the guest's busy CPU share and the model's transport counters (both
# devices, x-xport-stats) per leg; ulp.sh makes the medians and ratios.
# Each leg's start and end go to /mnt/host/ulp-mark, where ulp.sh's
# sampler of the QEMU threads' CPU time (host side) picks them up.
. "$E810_LIB"

MIB=${ULP_MIB:-32}
ROUNDS=${ULP_ROUNDS:-3}
ULPS=${ULP_LIST:-nvme iser nfs smc}
MTU=${ULP_MTU:-}        # both netdevs' MTU; empty: the default, 1500
BYTES=$((MIB << 20))
T=192.168.81.1
I=192.168.81.2
SRC=/tmp/ulp-src
XSTATS="tx_packets acks_sent retransmits timeouts rnr_naks_rcvd seq_naks_rcvd loopback rx_busy rx_deferred"

rdma_skip_unbindable
devs=($(e810_pci_devs))
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 e810 functions, got ${#devs[@]}"; finish; }
wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ] && [ -n \"\$(e810_ibdev_of ${devs[1]})\" ]" 30
nd0=$(e810_netdev_of "${devs[0]}")
nd1=$(e810_netdev_of "${devs[1]}")
ib0=$(e810_ibdev_of "${devs[0]}")
ib1=$(e810_ibdev_of "${devs[1]}")
[ -n "$ib0" ] && [ -n "$ib1" ] || { fail "ib_devices missing ($ib0/$ib1)"; finish; }
rdma_wait_all_active 15 || fail "ports not ACTIVE"
echo "note: $MIB MiB per leg, $ROUNDS rounds, ULPs: $ULPS, parent $E810_PARENT, rdma driver $E810_RDMA_DRIVER, mtu ${MTU:-default}"

mkdir -p /tmp/ulp
mount -t tmpfs -o size=$((MIB + 8))m tmpfs /tmp/ulp
SRC=/tmp/ulp/src
head -c "$BYTES" /dev/urandom >"$SRC" || fail "making the $MIB MiB source"

# ---- accounting --------------------------------------------------------------
# roce_out: RoCE octets both devices sent; lan_out: bytes both netdevs
# sent (port 1's netdev may live in namespace peer).
roce_out() {
	echo $(( $(hw_counter "$ib0" ip4OutOctets) + $(hw_counter "$ib1" ip4OutOctets) ))
}
lan_out() {
	local a b
	a=$(cat "/sys/class/net/$nd0/statistics/tx_bytes")
	if [ -e "/sys/class/net/$nd1" ]; then
		b=$(cat "/sys/class/net/$nd1/statistics/tx_bytes")
	else
		b=$(ip netns exec peer cat "/sys/class/net/$nd1/statistics/tx_bytes")
	fi
	echo $((a + b))
}
# cpu_busy: "busy total" jiffies of all guest CPUs (/proc/stat).
cpu_busy() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= NF; i++) t += $i
		print t - $5 - $6, t; exit }' /proc/stat
}
# xstats: the model's transport counters (x-xport-stats) of both
# devices summed, as "name=value ..." for the names in XSTATS.
xstats() {
	{ e810_xport_stats e810-0; e810_xport_stats e810-1; } 2>/dev/null |
		tr ' ' '\n' | awk -F= -v want="$XSTATS" '
		BEGIN { n = split(want, w, " ") } { v[$1] += $2 }
		END { for (i = 1; i <= n; i++) printf "%s=%d ", w[i], v[w[i]] }'
}
# xdelta BEFORE AFTER: AFTER - BEFORE per name.
xdelta() {
	awk -v a="$1" -v b="$2" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) { split(x[i], p, "="); split(y[i], q, "=")
			printf "%s=%d ", p[1], q[2] - p[2] } }'
}

# leg ULP DIR LEG ROUND CMD...: runs CMD (one transfer of BYTES), checks
# it crossed the wire as LEG (rdma or tcp) says, prints RATE and LEGSTAT.
leg() {
	local ulp=$1 dir=$2 kind=$3 round=$4 r0 l0 x0 c0 t0 t1 r1 l1 x1 c1 rc
	shift 4
	r0=$(roce_out) l0=$(lan_out) x0=$(xstats) c0=$(cpu_busy)
	# for ulp.sh's sampler of QEMU's threads on the host
	echo "START $ulp $dir $kind $round" >/mnt/host/ulp-mark
	t0=$(date +%s%N)
	"$@" >/tmp/ulp-leg.log 2>&1
	rc=$?
	t1=$(date +%s%N)
	echo "END $ulp $dir $kind $round" >/mnt/host/ulp-mark
	r1=$(roce_out) l1=$(lan_out) x1=$(xstats) c1=$(cpu_busy)
	local roce=$((r1 - r0)) lan=$((l1 - l0)) why=""
	[ $rc = 0 ] || why="exit $rc: $(tail -2 /tmp/ulp-leg.log | tr '\n' ' ')"
	if [ -z "$why" ] && [ "$kind" = rdma ]; then
		[ "$roce" -ge "$BYTES" ] || why="RoCE octets +$roce, less than the payload"
		# looped back inside one function instead of crossing the hub
		[[ " $(xdelta "$x0" "$x1")" == *" loopback=0 "* ]] ||
			why="the model looped RoCE packets back: $(xdelta "$x0" "$x1")"
	fi
	if [ -z "$why" ] && [ "$kind" = tcp ]; then
		[ "$lan" -ge "$BYTES" ] || why="netdev tx_bytes +$lan, less than the payload"
		[ "$roce" -lt $((BYTES / 10)) ] || why="RoCE octets +$roce on a TCP leg"
	fi
	if [ -n "$why" ]; then
		fail "$ulp $dir $kind round $round: $why"
		return 1
	fi
	echo "RATE $ulp $dir $kind $round $(awk -v b="$BYTES" -v ns=$((t1 - t0)) \
		'BEGIN { printf "%.2f", b * 1e9 / ns / 1048576 }')"
	# busy share of the guest's CPUs, RoCE and LAN bytes, transport deltas
	echo "LEGSTAT $ulp $dir $kind $round ms=$(((t1 - t0) / 1000000))" \
		"guest_busy=$(awk -v a="$c0" -v b="$c1" 'BEGIN { split(a, x); split(b, y)
			printf "%.0f%%", 100 * (y[1] - x[1]) / (y[2] - x[2] + 1e-9) }')" \
		"roce=$roce lan=$lan $(xdelta "$x0" "$x1")"
}

# blk_write DEV, blk_read DEV: one O_DIRECT transfer of BYTES.
blk_write() {
	timeout 600 dd if="$SRC" of="$1" bs=1M count="$MIB" oflag=direct status=none
}
blk_read() {
	timeout 600 dd if="$1" of=/dev/null bs=1M count="$MIB" iflag=direct status=none
}

# run_legs ULP RDMA_TARGET TCP_TARGET WRITER READER: the rounds.
run_legs() {
	local r
	for ((r = 1; r <= ROUNDS; r++)); do
		leg "$1" write rdma "$r" "$4" "$2"
		leg "$1" write tcp "$r" "$4" "$3"
		leg "$1" read rdma "$r" "$5" "$2"
		leg "$1" read tcp "$r" "$5" "$3"
	done
}

# same_data A B: the first BYTES of A equal the source.
same_data() {
	cmp -n "$BYTES" "$SRC" "$1" >/dev/null 2>&1
}

want() { [[ " $ULPS " == *" $1 "* ]]; }

# ---- phase 1: one namespace, routed across the hub (iser.sh) ----------------
mac0=$(cat "/sys/class/net/$nd0/address")
mac1=$(cat "/sys/class/net/$nd1/address")
root_routes() {
	if [ -n "$MTU" ]; then
		ip link set "$nd0" mtu "$MTU" && ip link set "$nd1" mtu "$MTU" ||
			fail "mtu $MTU"
	fi
	ip addr add "$T/24" dev "$nd0"
	ip addr add "$I/24" dev "$nd1"
	ip link set "$nd0" up
	ip link set "$nd1" up
	wait_carrier "$nd0" 10 && wait_carrier "$nd1" 10 || fail "no carrier"
	for k in all default "$nd0" "$nd1"; do
		sysctl -qw "net.ipv4.conf.$k.rp_filter=0" "net.ipv4.conf.$k.accept_local=1"
	done
	ip rule add pref 10 to "$T" iif lo lookup 81
	ip rule add pref 11 to "$I" iif lo lookup 82
	ip route add "$T" dev "$nd1" src "$I" table 81
	ip route add "$I" dev "$nd0" src "$T" table 82
	ip rule add pref 100 lookup local
	ip rule del pref 0 lookup local
	ip neigh replace "$T" lladdr "$mac0" dev "$nd1" nud permanent
	ip neigh replace "$I" lladdr "$mac1" dev "$nd0" nud permanent
	[ "$(ip -o route get "$T" | grep -o "dev [^ ]*")" = "dev $nd1" ] &&
		[ "$(ip -o route get "$I" | grep -o "dev [^ ]*")" = "dev $nd0" ] ||
		fail "routes: $(ip -o route get "$T") / $(ip -o route get "$I")"
	wait_for "roce_gid_index $ib0 $T >/dev/null && roce_gid_index $ib1 $I >/dev/null" 10 ||
		fail "no RoCEv2 GIDs for $T on $ib0 and $I on $ib1"
	timeout 20 ping -c 2 -W 5 "$T" >/dev/null || fail "ping $T"
}
root_routes
modprobe configfs 2>/dev/null
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config ||
	fail "mount configfs"
# Four RAM disks: nvme-rdma, nvme-tcp, iser, iscsi-tcp.
modprobe brd rd_nr=4 rd_size=$(((MIB + 4) * 1024)) || fail "modprobe brd"

# ---- nvme-rdma against nvme-tcp ---------------------------------------------------
NQN=nqn.2026-11.org.e810:ulp
if want nvme; then
	modprobe -a nvmet nvmet-rdma nvmet-tcp nvme-rdma nvme-tcp ||
		fail "modprobe nvmet nvmet-rdma nvmet-tcp nvme-rdma nvme-tcp"
	n=0
	for t in rdma:4420 tcp:4421; do
		tr=${t%:*} svc=${t#*:}
		nvmet_export "$NQN-$tr" "/dev/ram$n" $((n + 1)) "$tr" "$T" "$svc" ||
			fail "nvmet: subsystem $NQN-$tr on $tr $T:$svc"
		n=$((n + 1))
	done
	nv_rdma=$(nvme_connect rdma "$T" 4420 "$I" "$NQN-rdma") || fail "nvme connect rdma"
	nv_tcp=$(nvme_connect tcp "$T" 4421 "$I" "$NQN-tcp") || fail "nvme connect tcp"
	if [ -b "$nv_rdma" ] && [ -b "$nv_tcp" ] && [ "$nv_rdma" != "$nv_tcp" ]; then
		ok "nvme: rdma $nv_rdma ($(cat /sys/class/nvme/nvme$(cat /tmp/nvme-rdma.inst)/transport)), tcp $nv_tcp ($(cat /sys/class/nvme/nvme$(cat /tmp/nvme-tcp.inst)/transport))"
		run_legs nvme "$nv_rdma" "$nv_tcp" blk_write blk_read
		same_data /dev/ram0 && same_data /dev/ram1 &&
			ok "nvme: both targets' RAM disks hold the source" ||
			fail "nvme: a target's RAM disk differs from the source"
	fi
	for t in rdma tcp; do
		[ -s "/tmp/nvme-$t.inst" ] &&
			echo 1 >"/sys/class/nvme/nvme$(cat "/tmp/nvme-$t.inst")/delete_controller"
	done
	nvmet_unexport "$NQN-rdma" 1
	nvmet_unexport "$NQN-tcp" 2
fi

# ---- iSER against iSCSI/TCP ----------------------------------------------------------
LIO=/sys/kernel/config/target
IQN=iqn.2026-11.org.e810:ulp
INIT_IQN=iqn.2026-11.org.e810:ulp-initiator
# disk_of IQN: the SCSI disk of the session to target IQN.
disk_of() {
	iscsiadm -m session -P 3 2>/dev/null | awk -v t="$1" '
		$1 == "Target:" { on = ($2 == t) }
		on && /Attached scsi disk/ { print $4; exit }'
}
if want iser; then
	modprobe -a target_core_mod target_core_iblock iscsi_target_mod ib_isert \
		ib_iser iscsi_tcp sd_mod ||
		fail "modprobe LIO, ib_isert, ib_iser, iscsi_tcp, sd_mod"
	n=2
	for t in iser:3260 tcp:3261; do
		tr=${t%:*} port=${t#*:}
		B=$LIO/core/iblock_$n/lun0
		TPG=$LIO/iscsi/$IQN-$tr/tpgt_1
		NP=$TPG/np/$T:$port
		mkdir -p "$B" && echo "udev_path=/dev/ram$n" >"$B/control" &&
			echo 1 >"$B/enable" && mkdir -p "$TPG/lun/lun_0" &&
			ln -s "$B" "$TPG/lun/lun_0/lun0" && mkdir "$NP" &&
			{ [ "$tr" = tcp ] || echo 1 >"$NP/iser"; } &&
			echo 0 >"$TPG/attrib/authentication" &&
			echo 1 >"$TPG/attrib/generate_node_acls" &&
			echo 1 >"$TPG/attrib/cache_dynamic_acls" &&
			echo 0 >"$TPG/attrib/demo_mode_write_protect" &&
			echo 1 >"$TPG/enable" || fail "LIO: $IQN-$tr on /dev/ram$n, portal $T:$port"
		n=$((n + 1))
	done
	mkdir -p /etc/iscsi /run/lock/iscsi
	echo "InitiatorName=$INIT_IQN" >/etc/iscsi/initiatorname.iscsi
	setsid iscsid -f >/tmp/iscsid.log 2>&1 &
	iscsid_pid=$!
	nap 2
	timeout 60 iscsiadm -m discovery -t st -p "$T:3260" -I iser >/dev/null 2>&1 ||
		iscsiadm -m node -o new -T "$IQN-iser" -p "$T:3260" -I iser >/dev/null
	iscsiadm -m node -T "$IQN-iser" -p "$T:3260" -I iser -o update \
		-n iface.transport_name -v iser >/dev/null
	timeout 60 iscsiadm -m discovery -t st -p "$T:3261" >/dev/null 2>&1 ||
		iscsiadm -m node -o new -T "$IQN-tcp" -p "$T:3261" >/dev/null
	timeout 120 iscsiadm -m node -T "$IQN-iser" -p "$T:3260" -I iser --login \
		>/tmp/ulp-login.log 2>&1 || fail "iser login: $(tr '\n' ' ' </tmp/ulp-login.log)"
	timeout 120 iscsiadm -m node -T "$IQN-tcp" -p "$T:3261" --login \
		>/tmp/ulp-login.log 2>&1 || fail "iscsi/tcp login: $(tr '\n' ' ' </tmp/ulp-login.log)"
	wait_for "[ -n \"\$(disk_of $IQN-iser)\" ] && [ -n \"\$(disk_of $IQN-tcp)\" ]" 60
	d_iser=/dev/$(disk_of "$IQN-iser") d_tcp=/dev/$(disk_of "$IQN-tcp")
	tr_of() {
		iscsiadm -m session -P 1 2>/dev/null | awk -v t="$1" '
			$1 == "Target:" { on = ($2 == t) }
			on && /Iface Transport:/ { print $3; exit }'
	}
	if [ -b "$d_iser" ] && [ -b "$d_tcp" ] && [ "$(tr_of "$IQN-iser")" = iser ] &&
	   [ "$(tr_of "$IQN-tcp")" = tcp ]; then
		ok "iscsi: iser $d_iser, tcp $d_tcp"
		run_legs iser "$d_iser" "$d_tcp" blk_write blk_read
		same_data /dev/ram2 && same_data /dev/ram3 &&
			ok "iscsi: both targets' RAM disks hold the source" ||
			fail "iscsi: a target's RAM disk differs from the source"
	else
		fail "iscsi sessions: iser '$d_iser' ($(tr_of "$IQN-iser")), tcp '$d_tcp' ($(tr_of "$IQN-tcp"))"
	fi
	timeout 60 iscsiadm -m node --logoutall=all >/dev/null 2>&1
	kill "$iscsid_pid" 2>/dev/null
	wait "$iscsid_pid" 2>/dev/null
fi

# ---- phase 2: port 1 in namespace peer (nfs_rdma.sh, smc_r.sh) -----------------
ip rule del pref 11 2>/dev/null
ip route flush table 82 2>/dev/null
ip neigh del "$I" dev "$nd0" 2>/dev/null
ip netns add peer && ip link set "$nd1" netns peer &&
	ip -n peer link set lo up &&
	ip -n peer addr add "$I/24" dev "$nd1" && ip -n peer link set "$nd1" up &&
	wait_carrier "$nd1" 10 peer || fail "port 1 into namespace peer"
wait_for "roce_gid_index $ib1 $I >/dev/null" 10 || fail "no RoCEv2 GID for $I in peer"
wait_for "ip netns exec peer ping -c 1 -W 1 $T >/dev/null" 20 ||
	fail "peer does not reach $T"

# ---- NFS/RDMA against NFS/TCP -----------------------------------------------------
EXPORT=/srv/nfs
if want nfs; then
	modprobe -a nfsd rpcrdma || fail "modprobe nfsd rpcrdma"
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
	mkdir -p "$EXPORT" /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery /mnt/nfs-rdma /mnt/nfs-tcp
	mount -t tmpfs -o size=$((2 * MIB + 16))m tmpfs "$EXPORT"
	chmod 1777 "$EXPORT"
	echo 10 >/proc/fs/nfsd/nfsv4leasetime
	echo 10 >/proc/fs/nfsd/nfsv4gracetime
	echo "$EXPORT 192.168.81.0/24(rw,sync,no_subtree_check,no_root_squash,insecure,fsid=1)" \
		>/etc/exports
	rpcbind && exportfs -ra && rpc.mountd -N 2 -N 3 && rpc.nfsd -N 3 8 &&
		echo "rdma 20049" >/proc/fs/nfsd/portlist || fail "knfsd with an rdma listener"
	sleep 11        # the grace period
	# One mount per leg, made just before it and taken down after: with
	# both mounted at once the second mount (proto=tcp) shares the
	# first's NFSv4.1 client (the server owner is the same; client
	# trunking, fs/nfs/nfs4client.c nfs41_walk_client_list()) and runs on
	# RDMA too, which the accounting of a TCP leg catches. The mount is
	# in the peer namespace's network, the root mount namespace.
	nfs_mount() {
		nsenter --net=/run/netns/peer timeout 120 mount -t nfs \
			-o "vers=4.2,$1" "$T:$EXPORT" "$2" &&
			[ "$(awk -v m="$2" '$2 == m' /proc/mounts | grep -o 'proto=[a-z]*')" = "proto=$3" ]
	}
	nfs_write() { timeout 600 dd if="$SRC" of="$1" bs=1M count="$MIB" oflag=direct status=none; }
	nfs_read() { blk_read "$@"; }
	for ((r = 1; r <= ROUNDS; r++)); do
		for op in write read; do
			for kind in rdma tcp; do
				o=proto=tcp
				[ $kind = rdma ] && o=proto=rdma,port=20049
				if nfs_mount "$o" "/mnt/nfs-$kind" "$kind"; then
					[ "$r$op$kind" = 1writerdma ] && ok "nfs: $(grep ' /mnt/nfs-rdma ' /proc/mounts | cut -d' ' -f4 | cut -c1-160)"
					[ "$r$op$kind" = 1writetcp ] && ok "nfs: $(grep ' /mnt/nfs-tcp ' /proc/mounts | cut -d' ' -f4 | cut -c1-160)"
					leg nfs $op $kind "$r" nfs_$op "/mnt/nfs-$kind/f-$kind"
				else
					fail "nfs: mount $o: $(grep " /mnt/nfs-$kind " /proc/mounts | cut -d' ' -f4)"
				fi
				! mountpoint -q "/mnt/nfs-$kind" || umount "/mnt/nfs-$kind" ||
					fail "nfs: umount /mnt/nfs-$kind"
			done
		done
	done
	same_data "$EXPORT/f-rdma" && same_data "$EXPORT/f-tcp" &&
		ok "nfs: both files on the server hold the source" ||
		fail "nfs: a server file differs from the source"
	rpc.nfsd 0
	exportfs -ua
fi

# ---- SMC-R against TCP -----------------------------------------------------------------
PROG=/mnt/host/progs/smc_stream
# smc_pair MODE PORT DIR: one one-way stream of BYTES; the receiver's rate.
smc_pair() {
	timeout 600 "$PROG" server "$1" "$T" "$2" "$BYTES" "$3" >/tmp/smc-s.log 2>&1 &
	local spid=$! crc src
	ip netns exec peer timeout 600 "$PROG" client "$1" "$T" "$2" "$BYTES" "$3" \
		>/tmp/smc-c.log 2>&1
	crc=$?
	wait $spid
	src=$?
	[ $crc = 0 ] && [ $src = 0 ] || return 1
	# AF_SMC must be on SMC-R, not its TCP fallback
	[ "$1" = tcp ] || grep -q '^RESULT mode smcr' /tmp/smc-c.log || {
		echo "not SMC-R: $(grep -E 'RESULT (mode|fallback)' /tmp/smc-c.log | tr '\n' ' ')"
		return 1
	}
}
if want smc; then
	if [ -x "$PROG" ] && modprobe -a smc smc_diag && "$PROG" ueid-add E810-SMCR-TEST >/dev/null; then
		# smc_r.sh's routed setup: a gateway on each side whose MAC is
		# the other port's, so SMC-Rv2 has a next hop
		ip -n peer addr del "$I/24" dev "$nd1"
		ip -n peer addr add 192.168.82.2/24 dev "$nd1"
		ip neigh replace 192.168.81.254 lladdr "$mac1" dev "$nd0" nud permanent
		ip route replace 192.168.82.0/24 via 192.168.81.254 dev "$nd0"
		ip -n peer neigh replace 192.168.82.254 lladdr "$mac0" dev "$nd1" nud permanent
		ip -n peer route replace 192.168.81.0/24 via 192.168.82.254 dev "$nd1"
		wait_for "roce_gid_index $ib1 192.168.82.2 >/dev/null" 10 &&
			ip netns exec peer ping -c 2 -W 2 "$T" >/dev/null ||
			fail "smc: routed setup"
		port=5200
		for ((r = 1; r <= ROUNDS; r++)); do
			for d in to-server:write to-client:read; do
				leg smc "${d#*:}" rdma "$r" smc_pair smc $((port++)) "${d%:*}"
				leg smc "${d#*:}" tcp "$r" smc_pair tcp $((port++)) "${d%:*}"
			done
		done
		# The same with SMC's send buffer and RMB at 1 MiB instead of
		# the 64 KiB defaults (net.smc.wmem, net.smc.rmem): at 64 KiB the
		# sender waits for the peer's consumer-cursor update (a CDC
		# message) every 64 KiB, where TCP's autotuned window is larger.
		if sysctl -qw net.smc.wmem=1048576 net.smc.rmem=1048576 2>/dev/null; then
			for ((r = 1; r <= ROUNDS; r++)); do
				for d in to-server:write to-client:read; do
					leg smc1m "${d#*:}" rdma "$r" smc_pair smc $((port++)) "${d%:*}"
					leg smc1m "${d#*:}" tcp "$r" smc_pair tcp $((port++)) "${d%:*}"
				done
			done
		else
			echo "note: no net.smc.wmem/rmem sysctls: no 1 MiB SMC run"
		fi
	else
		fail "smc: no smc_stream, no SMC modules or no UEID"
	fi
fi

dmesg_clean >/dev/null && ok "dmesg clean" || echo "note: dmesg: $(dmesg_clean | head -3 | tr '\n' ' ')"
finish
