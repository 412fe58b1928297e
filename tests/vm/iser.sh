#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 600
# rdma-driver: ours stock
# iSER between the two ports: a LIO target (target_core_mod, configfs,
# ib_isert) on 192.168.81.1 (port 0) exporting a 40 MiB fileio LUN on a
# tmpfs file, and open-iscsi's initiator with the iser transport
# (ib_iser) on 192.168.81.2 (port 1). Both ULPs create their rdma_cm IDs
# in the initial network namespace (iser_connect(), isert_setup_id()), so
# unlike nfs_rdma both ports stay in the root namespace; policy routes
# (the local table moved behind two rules for locally sent packets, and
# permanent neighbours) send the initiator's connection out of port 1 to
# port 0's MAC, so the RDMA traffic crosses the emulated hub instead of
# looping back inside one function. The initiator's data path is iSER's:
# ib_iser registers each command's pages with FRWR (IB_WR_REG_MR with the
# key bits above the STag index that ib_inc_rkey() turns), the target
# moves the data with RDMA READ (writes) and RDMA WRITE (reads). Checks:
#   * login over the iser iface, iscsiadm -m session -P 1 says
#     "Iface Transport: iser", and a SCSI disk appears for the session;
#   * 32 MiB of pseudo-random data written with dd oflag=direct and read
#     back with iflag=direct have the source's sha256, and so has the
#     first 32 MiB of the target's backing file;
#   * the RDMA counters (rdma statistic, ip4OutOctets) of the initiator's
#     port grew by at least 32 MiB during the write (the target's RDMA
#     READs answered by it) and those of the target's port during the read
#     (its RDMA WRITEs): the data went over RoCEv2 between the two
#     functions, not over TCP and not looped back;
#   * logout, the LIO configuration removed, ib_isert and ib_iser
#     unloaded; clean dmesg.
# Write and read throughput are printed. The guest needs open-iscsi
# (tools/mkguest.sh); targetcli is not used: it wants targetclid on a
# D-Bus system bus, which the guest has not, so LIO is configured through
# /sys/kernel/config/target directly.
. "$E810_LIB"

IQN=iqn.2026-11.org.e810:iser
INIT_IQN=iqn.2026-11.org.e810:initiator
T=192.168.81.1
I=192.168.81.2
PORT=3260
LIO=/sys/kernel/config/target
IMG_DIR=/tmp/iser-backing
IMG=$IMG_DIR/lun0.img
BYTES=$((32 << 20))
SRC=/tmp/iser-src

command -v iscsiadm >/dev/null && command -v iscsid >/dev/null ||
	skip "open-iscsi is not in the guest image (make guest)"

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

# ---- two hosts in one namespace ----------------------------------------------
mac0=$(cat "/sys/class/net/$nd0/address")
mac1=$(cat "/sys/class/net/$nd1/address")
ip addr add "$T/24" dev "$nd0"
ip addr add "$I/24" dev "$nd1"
ip link set "$nd0" up
ip link set "$nd1" up
wait_carrier "$nd0" 10 && wait_carrier "$nd1" 10 || fail "no carrier"
for k in all default "$nd0" "$nd1"; do
	sysctl -qw "net.ipv4.conf.$k.rp_filter=0" "net.ipv4.conf.$k.accept_local=1"
done
# Locally sent packets to one port's address leave through the other
# port; everything else (received packets) meets the local table as
# before, only later.
ip rule add pref 10 to "$T" iif lo lookup 81
ip rule add pref 11 to "$I" iif lo lookup 82
ip route add "$T" dev "$nd1" src "$I" table 81
ip route add "$I" dev "$nd0" src "$T" table 82
ip rule add pref 100 lookup local
ip rule del pref 0 lookup local
ip neigh replace "$T" lladdr "$mac0" dev "$nd1" nud permanent
ip neigh replace "$I" lladdr "$mac1" dev "$nd0" nud permanent
if [ "$(ip -o route get "$T" | grep -o "dev [^ ]*")" = "dev $nd1" ] &&
   [ "$(ip -o route get "$I" | grep -o "dev [^ ]*")" = "dev $nd0" ]; then
	ok "routes: $T via $nd1, $I via $nd0"
else
	fail "routes: $(ip -o route get "$T") / $(ip -o route get "$I")"
fi
wait_for "roce_gid_index $ib0 $T >/dev/null && roce_gid_index $ib1 $I >/dev/null" 10 ||
	fail "no RoCEv2 GIDs for $T on $ib0 and $I on $ib1"
timeout 20 ping -c 2 -W 5 "$T" >/dev/null &&
	ok "ping $T crosses the hub ($nd1 -> $nd0)" || fail "ping $T"

# ---- the target -------------------------------------------------------------
modprobe -a target_core_mod target_core_file iscsi_target_mod ib_isert ||
	fail "modprobe the LIO modules and ib_isert"
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
mkdir -p "$IMG_DIR"
mount -t tmpfs -o size=48m tmpfs "$IMG_DIR"
truncate -s $((40 << 20)) "$IMG"
B=$LIO/core/fileio_0/lun0
TPG=$LIO/iscsi/$IQN/tpgt_1
NP=$TPG/np/$T:$PORT
lio_setup() {
	mkdir -p "$B" &&
		echo "fd_dev_name=$IMG,fd_dev_size=$((40 << 20))" >"$B/control" &&
		echo 1 >"$B/enable" &&
		mkdir -p "$TPG/lun/lun_0" &&
		ln -s "$B" "$TPG/lun/lun_0/lun0" &&
		mkdir "$NP" && echo 1 >"$NP/iser" &&
		echo 0 >"$TPG/attrib/authentication" &&
		echo 1 >"$TPG/attrib/generate_node_acls" &&
		echo 1 >"$TPG/attrib/cache_dynamic_acls" &&
		echo 0 >"$TPG/attrib/demo_mode_write_protect" &&
		echo 1 >"$TPG/enable"
}
if lio_setup; then
	ok "LIO: fileio LUN on $IMG, target $IQN, iSER portal $T:$PORT"
else
	fail "LIO configuration through configfs"
fi
expect_eq "the portal's iser attribute" 1 "$(cat "$NP/iser" 2>/dev/null)"

# ---- the initiator ----------------------------------------------------------
# sd_mod binds the session's LUN to a block device; the guest has no
# udevd running to load it from the scsi device's modalias.
modprobe -a ib_iser sd_mod || fail "modprobe ib_iser sd_mod"
mkdir -p /etc/iscsi /run/lock/iscsi
echo "InitiatorName=$INIT_IQN" >/etc/iscsi/initiatorname.iscsi
# its own session: iscsid's SIGTERM handler signals its process group
setsid iscsid -f >/tmp/iscsid.log 2>&1 &
iscsid_pid=$!
nap 2
kill -0 "$iscsid_pid" || fail "iscsid: $(tr '\n' ' ' </tmp/iscsid.log)"
iscsiadm -m iface -I iser -o show 2>/dev/null | grep -q 'iface.transport_name = iser' ||
	fail "open-iscsi has no iser iface: $(iscsiadm -m iface 2>&1 | tr '\n' ' ')"
# SendTargets discovery over TCP (the same routes), then a node over iser.
if timeout 60 iscsiadm -m discovery -t st -p "$T:$PORT" -I iser >/tmp/iser-disc.log 2>&1 &&
   grep -q "$IQN" /tmp/iser-disc.log; then
	ok "discovery: $(head -1 /tmp/iser-disc.log)"
else
	fail "discovery: $(tr '\n' ' ' </tmp/iser-disc.log)"
	iscsiadm -m node -o new -T "$IQN" -p "$T:$PORT" -I iser >/dev/null
fi
iscsiadm -m node -T "$IQN" -p "$T:$PORT" -I iser -o update \
	-n iface.transport_name -v iser || fail "iscsiadm -o update transport iser"
hw_out() { hw_counter "$1" ip4OutOctets; }
dmesg_mark
t0=$SECONDS
if timeout 120 iscsiadm -m node -T "$IQN" -p "$T:$PORT" -I iser --login \
	>/tmp/iser-login.log 2>&1; then
	ok "login over iser ($((SECONDS - t0)) s)"
else
	fail "login: $(tr '\n' ' ' </tmp/iser-login.log)"
fi
iscsiadm -m session -P 1 >/tmp/iser-session.log 2>&1
grep -q 'Iface Transport: iser' /tmp/iser-session.log &&
	ok "session transport: iser" ||
	fail "session: $(grep -E 'Transport|State' /tmp/iser-session.log | tr '\n' ' ')"
disk_of_session() {
	iscsiadm -m session -P 3 2>/dev/null |
		awk '/Attached scsi disk/ { print $4; exit }'
}
wait_for "[ -n \"\$(disk_of_session)\" ] && [ -b /dev/\$(disk_of_session) ]" 60
disk=$(disk_of_session)
if [ -n "$disk" ] && [ -b "/dev/$disk" ]; then
	ok "disk /dev/$disk, $(blockdev --getsize64 "/dev/$disk") bytes"
else
	fail "no disk for the session"
	new_dmesg | grep -Ei 'iser|isert|irdma|iscsi' | tail -12 | sed 's/^/  dmesg: /'
fi

# ---- data ------------------------------------------------------------------------
if [ -n "$disk" ] && [ -b "/dev/$disk" ]; then
	head -c "$BYTES" /dev/urandom >"$SRC"
	sum=$(sha256sum <"$SRC" | cut -d' ' -f1)
	w0=$(hw_out "$ib1")
	t0=$(date +%s%N)
	timeout 300 dd if="$SRC" of="/dev/$disk" bs=1M count=32 oflag=direct \
		status=none || fail "dd oflag=direct to /dev/$disk"
	t1=$(date +%s%N)
	w1=$(hw_out "$ib1")
	r0=$(hw_out "$ib0")
	# Into a file first: hashing 32 MiB under TCG takes seconds, which a
	# pipe to sha256sum would count as read time.
	t2=$(date +%s%N)
	timeout 300 dd if="/dev/$disk" of="$SRC.back" bs=1M count=32 \
		iflag=direct status=none || fail "dd iflag=direct from /dev/$disk"
	t3=$(date +%s%N)
	r1=$(hw_out "$ib0")
	got=$(sha256sum <"$SRC.back" | cut -d' ' -f1)
	rm -f "$SRC.back"
	expect_eq "sha256 of 32 MiB read back with iflag=direct" "$sum" "$got"
	expect_eq "sha256 of the target's backing file (first 32 MiB)" "$sum" \
		"$(head -c "$BYTES" "$IMG" | sha256sum | cut -d' ' -f1)"
	if [ $((w1 - w0)) -ge "$BYTES" ]; then
		ok "$ib1 (initiator) ip4OutOctets +$((w1 - w0)) during the write (>= 32 MiB)"
	else
		fail "$ib1 (initiator) ip4OutOctets +$((w1 - w0)) during the write, want >= $BYTES"
	fi
	if [ $((r1 - r0)) -ge "$BYTES" ]; then
		ok "$ib0 (target) ip4OutOctets +$((r1 - r0)) during the read (>= 32 MiB)"
	else
		fail "$ib0 (target) ip4OutOctets +$((r1 - r0)) during the read, want >= $BYTES"
	fi
	awk -v w=$((t1 - t0)) -v r=$((t3 - t2)) 'BEGIN {
		printf "  32 MiB over iSER: write %.1f MB/s, read %.1f MB/s\n",
			33.554432e9 / w, 33.554432e9 / r }'
fi

# ---- teardown ----------------------------------------------------------------------
if timeout 60 iscsiadm -m node -T "$IQN" -p "$T:$PORT" -I iser --logout >/dev/null 2>&1 &&
   ! iscsiadm -m session >/dev/null 2>&1; then
	ok "logout, no session left"
else
	fail "logout: $(iscsiadm -m session 2>&1 | tr '\n' ' ')"
fi
iscsiadm -m node -o delete -T "$IQN" >/dev/null 2>&1
kill "$iscsid_pid" 2>/dev/null
wait "$iscsid_pid" 2>/dev/null
lio_teardown() {
	echo 0 >"$TPG/enable"
	rmdir "$NP" &&
		rm "$TPG/lun/lun_0/lun0" && rmdir "$TPG/lun/lun_0" &&
		rmdir "$TPG" && rmdir "$LIO/iscsi/$IQN" &&
		rmdir "$B" && rmdir "$LIO/core/fileio_0"
}
lio_teardown && ok "LIO configuration removed" || fail "LIO teardown"
if wait_for "modprobe -r ib_isert ib_iser 2>/dev/null" 20; then
	ok "ib_isert and ib_iser unloaded"
else
	fail "could not unload ib_isert/ib_iser: $(lsmod | grep -E '^ib_i?ser' | tr '\n' ' ')"
fi
umount "$IMG_DIR"
# Debian's 6.12 scsi_transport_iscsi can warn at logout when its
# WQ_MEM_RECLAIM session workqueue flushes the pm workqueue
# (check_flush_dependency() from __iscsi_unbind_session()): the
# initiator's SCSI teardown, not RDMA, and only when runtime-PM work is
# pending. That one warning is let pass; anything else fails.
if bad=$(dmesg_clean); then
	ok "no oops, warning or leak in dmesg"
elif [ "$(grep -c 'WARNING:' <<<"$bad")" = 1 ] &&
     grep -q 'WARNING:.*check_flush_dependency' <<<"$bad" &&
     dmesg | grep -q 'WQ_MEM_RECLAIM iscsi_ctrl_[0-9:]*__iscsi_unbind_session .* is flushing !WQ_MEM_RECLAIM' &&
     ! grep -qiE 'Oops:|BUG:|KASAN|UBSAN|leak|refcount_t:|use-after-free' <<<"$bad"; then
	ok "dmesg: only scsi_transport_iscsi's flush-dependency warning at logout"
else
	fail "dmesg shows problems"
	printf '%s\n' "$bad" | head -n 10 | sed 's/^/  /'
fi
new_dmesg | grep -Ei 'iser|isert|iscsi' | tail -8 | sed 's/^/  dmesg: /'
finish
