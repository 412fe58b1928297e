#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: rxe
# timeout: 600
# The guest image carries what every scenario relies on: our rdma-core 56.1
# build (not bookworm's 44), both irdma providers, pyverbs and its tests,
# iproute2's rdma, perftest, kmod. rdma_rxe on the virtio-net port proves
# the user space works end to end: ibv_rc_pingpong with buffer validation.
. "$E810_LIB"

libdir=/usr/lib/x86_64-linux-gnu
expect_eq "libibverbs in use" "libibverbs.so.1.14.56.1" \
	"$(basename "$(readlink -f $libdir/libibverbs.so.1)")"
expect_eq "leftover rdma-core 44 libraries" 0 \
	"$(ls $libdir | grep -c '\.44\.0$')"
[ -f $libdir/libibverbs/libirdma-rdmav34.so ] && ok "stock irdma provider installed" ||
	fail "stock irdma provider missing"
[ -f $libdir/libibverbs/e810/libirdma-rdmav34.so ] && ok "our irdma provider installed" ||
	fail "our irdma provider missing"
for t in ibv_devinfo ibv_rc_pingpong ibv_ud_pingpong rping ib_write_bw ib_send_lat \
	 rdma ip modprobe dmesg python3; do
	command -v $t >/dev/null && ok "$t present" || fail "$t missing"
done
python3 -c 'import pyverbs.device, pyverbs.pd' && ok "pyverbs imports" ||
	fail "pyverbs does not import"
[ -f /usr/share/doc/rdma-core/tests/run_tests.py ] && ok "pyverbs tests installed" ||
	fail "pyverbs tests missing"
# Our provider is loadable by libibverbs (symbols resolve against 56.1).
python3 - <<'PY' && ok "our provider dlopens" || fail "our provider does not load"
import ctypes
ctypes.CDLL("/usr/lib/x86_64-linux-gnu/libibverbs/e810/libirdma-rdmav34.so")
PY

# rxe on the virtio-net port.
net=$(for n in /sys/class/net/*; do
	[ "$(basename "$(readlink -f "$n/device/driver" 2>/dev/null)")" = virtio_net ] &&
		basename "$n"; done | head -n 1)
[ -n "$net" ] || { modprobe virtio_net; sleep 1; net=$(ls /sys/class/net | grep -v lo | head -n 1); }
[ -n "$net" ] || { fail "no virtio-net interface"; finish; }
ip addr add 10.0.0.1/24 dev "$net" && ip link set "$net" up
modprobe rdma_rxe || fail "modprobe rdma_rxe"
rdma link add rxe0 type rxe netdev "$net" || fail "rdma link add rxe0"
expect_eq "rdma link shows rxe0 on $net" 1 "$(rdma link show | grep -c "rxe0/1 state ACTIVE.*netdev $net")"
expect_eq "ibv_devices lists rxe0" 1 "$(ibv_devices | grep -c '^ *rxe0 ')"
# GID 1 is the IPv4-mapped GID of 10.0.0.1 (index given explicitly: the
# sysfs scan of 1024 entries is slow under TCG).
ibv_rc_pingpong -d rxe0 -g 1 -n 20 -s 4096 -c >/tmp/srv.log 2>&1 &
srv=$!
sleep 1
if ibv_rc_pingpong -d rxe0 -g 1 -n 20 -s 4096 -c 127.0.0.1 >/tmp/cli.log 2>&1; then
	ok "ibv_rc_pingpong client over rxe0"
else
	fail "ibv_rc_pingpong client: $(tail -n 3 /tmp/cli.log)"
fi
wait $srv && ok "ibv_rc_pingpong server over rxe0" || fail "server: $(tail -n 3 /tmp/srv.log)"
expect_eq "bytes reported by the client" "163840 bytes" \
	"$(grep -o '^[0-9]* bytes' /tmp/cli.log)"
rdma link delete rxe0 || fail "rdma link delete rxe0"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
