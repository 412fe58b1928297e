#!/bin/bash
# topology: hub2
# timeout: 900
# also-parent: ice
# NFS over RDMA between the two ports: knfsd in the root namespace
# exporting a tmpfs (NFSv4.2, RDMA listener on 20049 through
# /proc/fs/nfsd/portlist), the client in namespace "peer" (port 1) mounting
# it with proto=rdma,port=20049, so every RPC crosses the emulated hub as
# RoCEv2: the client's xprtrdma registers its buffers with FRWR (alloc_mr,
# map_mr_sg, IB_WR_REG_MR, LOCAL_INV or remote invalidation by the
# server's SEND_WITH_INV), the server's svcrdma moves the payload with RDMA
# READ (client writes) and RDMA WRITE (client reads). Checks:
#   * the device attributes NFS/RDMA refuses a device without
#     (max_fast_reg_page_list_len, IB_DEVICE_MEM_MGT_EXTENSIONS): the mount
#     succeeds, and /proc/self/mountstats of the mount says "xprt: rdma";
#   * a 64 MiB file written through the mount and read back after a drop
#     of the client's caches (so the read goes to the server) has the
#     source's sha256, and so has the server's copy;
#   * a small tree (nested directories, files of 0 B to 300 KiB, a
#     symlink) copied in with cp -a compares equal with diff -r, read back
#     through the mount;
#   * umount exits 0 and the mount is gone; the kernel log stays clean.
# The server side needs nfs-kernel-server in the guest (tools/mkguest.sh).
. "$E810_LIB"

EXPORT=/srv/nfs
MNT=/mnt/nfs
SRC=/tmp/nfs-src
PORT=20049

command -v rpc.nfsd >/dev/null && command -v exportfs >/dev/null &&
	command -v mount.nfs >/dev/null ||
	skip "nfs-kernel-server is not in the guest image (make guest)"

rdma_two_ports || finish

# ---- the test data -------------------------------------------------------
mkdir -p "$SRC/tree/a/b/c" "$SRC/tree/d"
head -c $((64 << 20)) /dev/urandom >"$SRC/big" || fail "making the 64 MiB file"
src_sum=$(sha256sum <"$SRC/big" | cut -d' ' -f1)
for s in 0 1 511 4096 4097 65536 300000; do
	head -c "$s" /dev/urandom >"$SRC/tree/a/f$s"
	head -c "$s" /dev/urandom >"$SRC/tree/a/b/c/g$s"
done
echo "hello over rdma" >"$SRC/tree/d/readme"
ln -s ../a/f4096 "$SRC/tree/d/link"

# ---- the server (root namespace, 192.168.81.1) -------------------------------
modprobe -a nfsd rpcrdma || fail "modprobe nfsd rpcrdma"
mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd ||
	fail "mount nfsd"
mkdir -p "$EXPORT" /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery
mount -t tmpfs -o size=160m tmpfs "$EXPORT"
chmod 1777 "$EXPORT"
# The shortest grace period knfsd takes: no OPEN is served during it.
echo 10 >/proc/fs/nfsd/nfsv4leasetime
echo 10 >/proc/fs/nfsd/nfsv4gracetime
echo "$EXPORT 192.168.81.0/24(rw,sync,no_subtree_check,no_root_squash,insecure,fsid=1)" \
	>/etc/exports
rpcbind || fail "rpcbind"
exportfs -ra || fail "exportfs -ra"
rpc.mountd -N 2 -N 3 || fail "rpc.mountd"
rpc.nfsd -N 3 8 || fail "rpc.nfsd"
if echo "rdma $PORT" >/proc/fs/nfsd/portlist; then
	ok "knfsd listens on rdma $PORT"
else
	fail "echo 'rdma $PORT' >/proc/fs/nfsd/portlist"
	finish
fi
grep -q "^rdma $PORT" /proc/fs/nfsd/portlist ||
	fail "portlist has no rdma listener: $(tr '\n' ' ' </proc/fs/nfsd/portlist)"
# The grace period ends 10 s after nfsd started.
sleep 11

# ---- the client (namespace "peer", 192.168.81.2) ----------------------------
# One shell: "ip netns exec" gives its command a mount namespace of its
# own, so the mount lives and dies there.
ip netns exec peer bash -s "$MNT" "$SRC" "$src_sum" "$PORT" >/tmp/nfs-client.log 2>&1 <<'EOF'
MNT=$1 SRC=$2 SUM=$3 PORT=$4
say() { echo "$*"; }
mkdir -p "$MNT"
if ! timeout 120 mount -t nfs -o vers=4.2,proto=rdma,port=$PORT \
	192.168.81.1:/srv/nfs "$MNT"; then
	say "RESULT mount failed"
	exit 0
fi
say "RESULT mount ok"
awk -v m="$MNT" '$1 == "device" && $5 == m { on = 1; next }
	$1 == "device" { on = 0 }
	on && $1 == "xprt:" { print "RESULT xprt " $2; exit }' /proc/self/mountstats
grep -E "^[^ ]+ $MNT nfs4 " /proc/self/mounts | sed 's/^/RESULT mounts /'

t0=$(date +%s%N)
timeout 300 cp "$SRC/big" "$MNT/big" && sync || say "RESULT write failed"
t1=$(date +%s%N)
say "RESULT write_ms $(((t1 - t0) / 1000000))"
echo 3 >/proc/sys/vm/drop_caches
t0=$(date +%s%N)
say "RESULT read_sum $(timeout 300 sha256sum <"$MNT/big" | cut -d' ' -f1)"
t1=$(date +%s%N)
say "RESULT read_ms $(((t1 - t0) / 1000000))"

timeout 120 cp -a "$SRC/tree" "$MNT/tree" && sync || say "RESULT tree copy failed"
echo 3 >/proc/sys/vm/drop_caches
if out=$(timeout 120 diff -r "$SRC/tree" "$MNT/tree" 2>&1); then
	say "RESULT tree equal $(find "$MNT/tree" | wc -l)"
else
	say "RESULT tree differs: $(echo "$out" | head -3 | tr '\n' ' ')"
fi
[ "$(readlink "$MNT/tree/d/link")" = ../a/f4096 ] || say "RESULT symlink lost"

if timeout 60 umount "$MNT"; then
	say "RESULT umount ok"
else
	say "RESULT umount failed"
fi
grep -q " $MNT " /proc/self/mounts && say "RESULT still mounted"
exit 0
EOF
res() { sed -n "s/^RESULT $1 //p" /tmp/nfs-client.log | head -1; }

if grep -q '^RESULT mount ok' /tmp/nfs-client.log; then
	ok "mount -t nfs -o vers=4.2,proto=rdma,port=$PORT from namespace peer"
else
	fail "the NFS/RDMA mount failed:"
	sed 's/^/  client: /' /tmp/nfs-client.log | tail -8
fi
if grep -q '^RESULT mount ok' /tmp/nfs-client.log; then
	expect_eq "mountstats transport" rdma "$(res xprt)"
	grep -q '^RESULT write failed' /tmp/nfs-client.log &&
		fail "writing the 64 MiB file failed"
	expect_eq "sha256 of the 64 MiB file read back through NFS/RDMA" \
		"$src_sum" "$(res read_sum)"
	expect_eq "sha256 of the server's copy" "$src_sum" \
		"$(sha256sum <"$EXPORT/big" | cut -d' ' -f1)"
	echo "  write $(res write_ms) ms, read $(res read_ms) ms (64 MiB)"
	if n=$(res "tree equal"); [ -n "$n" ]; then
		ok "the copied tree compares equal with diff -r ($n entries)"
	else
		fail "tree: $(grep '^RESULT tree' /tmp/nfs-client.log)"
	fi
	grep -q '^RESULT symlink lost' /tmp/nfs-client.log &&
		fail "the symlink did not survive the copy"
	if diff -r "$SRC/tree" "$EXPORT/tree" >/dev/null 2>&1; then
		ok "the server's copy of the tree is equal too"
	else
		fail "the server's copy of the tree differs"
	fi
	if grep -q '^RESULT umount ok' /tmp/nfs-client.log &&
	   ! grep -q '^RESULT still mounted' /tmp/nfs-client.log; then
		ok "umount clean"
	else
		fail "umount: $(grep -E '^RESULT (umount|still)' /tmp/nfs-client.log)"
	fi
	res mounts | cut -d' ' -f1-4 | cut -c1-200 | sed 's/^/  mount: /'
	grep -v '^RESULT' /tmp/nfs-client.log | head -5 | sed 's/^/  client: /'
fi

# ---- teardown, and the kernel log ---------------------------------------------
rpc.nfsd 0 || fail "rpc.nfsd 0 (stopping knfsd)"
exportfs -ua
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
dmesg | grep -Ei 'rpcrdma|svcrdma|nfsd|irdma' | tail -12 | sed 's/^/  dmesg: /'
finish
