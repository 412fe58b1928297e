#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 600
# boot: shared
# also-parent: ice
# The uverbs fuzzer: tests/vm/progs/uverbs_fuzz run as an
# unprivileged user (nobody) against irdma0, with /dev/infiniband/uverbs*
# opened to everyone as rdma-core's udev rules do.
#  fuzz  a boundary pass (requests that must be refused, and their
#        accepted neighbours) and a random pass of E810_UF_ITERS raw
#        write()/ioctl() commands and mmaps from seed E810_UF_SEED; every
#        errno must be a refusal a driver gives;
#  race  concurrent RESIZE_CQ on one CQ, then traffic on
#        it with every completion checked.
# Afterwards: no oops, warning, lockdep, KASAN, kmemleak or hung-task line
# in the kernel log; every `rdma resource show` count back to its value
# before; an RC pingpong with its data checked still works; irdma unloads
# with rmmod returning 0 and no leak or "still in use" line.
# By hand, `--rdma-driver stock` runs it against Debian's irdma with -S
# (the cases only our driver's hardening refuses are notes there). It is
# not in make check: upstream irdma_create_cq() frees the CQ number of a
# create that failed before irdma_uk_cq_init() as cq_uk.cq_id, i.e. 0, so
# the fuzzer's refused creates leak CQ numbers and later hand out CQ 0 (the
# CCQ's), which the device refuses ("CQ 0 exists", EIO): in two of three
# runs the race and the pingpong afterwards could create no CQ at all.
. "$E810_LIB"

UF_ITERS=${E810_UF_ITERS:-20000}
# A fixed seed by default, so make check is repeatable; E810_UF_SEED=random
# draws one (printed, so a failure can be replayed).
UF_SEED=${E810_UF_SEED:-20261124}
[ "$UF_SEED" = random ] && UF_SEED=$(( (RANDOM << 15 | RANDOM) + 1 ))
UF_RACE_ITERS=${E810_UF_RACE_ITERS:-150}
LOCAL=192.168.81.1
PEER=192.168.81.2

modprobe ib_uverbs || fail "modprobe ib_uverbs"
prog=/tmp/uverbs_fuzz
cp /mnt/host/progs/uverbs_fuzz "$prog" 2>/dev/null ||
	{ fail "no /mnt/host/progs/uverbs_fuzz: run 'make progs' on the host"; finish; }
chmod 755 "$prog"
rdma_two_ports || finish
stock=
[ "${E810_RDMA_DRIVER:-ours}" = stock ] && stock=-S
# The permanent neighbours make the kernel's MAC resolution for RTR
# immediate on both sides.
mac0=$(cat "/sys/class/net/$nd0/address")
mac1=$(ip netns exec peer cat "/sys/class/net/$nd1/address")
ip neigh replace "$PEER" lladdr "$mac1" dev "$nd0" nud permanent
ip -n peer neigh replace "$LOCAL" lladdr "$mac0" dev "$nd1" nud permanent
# What rdma-core's udev rule (90-rdma-umad/uverbs: MODE="0666") gives.
chmod 666 /dev/infiniband/uverbs*
as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

res_counts() {
	rdma -j resource show | python3 -c '
import json, sys
for e in json.load(sys.stdin):
    if e.get("ifname") == sys.argv[1]:
        print(" ".join("%s=%s" % (k, e.get(k, "?")) for k in ("pd", "cq", "qp", "cm_id", "mr", "ctx")))' "$1"
}
klog_bad() {
	kernel_log | grep -E 'Oops|BUG:|WARNING:|Call Trace:|general protection|KASAN|UBSAN|lockdep|possible (recursive|circular) locking|unreferenced object|kmemleak|blocked for more than|hung_task|refcount_t:|use-after-free|list_(add|del) corruption|double free|sleeping function called'
}
rc_pingpong 4096 20 && ok "RC pingpong before the fuzzer" ||
	{ fail "RC pingpong before the fuzzer"; tail -n 5 /tmp/pp-client.log /tmp/pp-server.log; }
base0=$(res_counts "$ib0") base1=$(res_counts "$ib1")
echo "baseline: $ib0 $base0; $ib1 $base1"
[ -z "$(klog_bad)" ] || fail "kernel log not clean before the fuzzer: $(klog_bad | head -5)"

t0=$SECONDS
as_user "$prog" -d "$ib0" -g "$g0" $stock --seed "$UF_SEED" --iters "$UF_ITERS" fuzz >/tmp/fuzz.out 2>&1
st=$?
grep -v '^ok:' /tmp/fuzz.out | head -150
echo "fuzz: $(grep -c '^ok:' /tmp/fuzz.out) ok lines, $((SECONDS - t0)) s (seed $UF_SEED)"
expect_eq "uverbs_fuzz fuzz exit status (seed $UF_SEED)" 0 "$st"

t0=$SECONDS
as_user "$prog" -d "$ib0" -D "$ib1" -l "$LOCAL" -p "$PEER" $stock \
	--iters "$UF_RACE_ITERS" race >/tmp/race.out 2>&1
st=$?
cat /tmp/race.out | head -80
echo "race: $((SECONDS - t0)) s"
expect_eq "uverbs_fuzz race exit status" 0 "$st"

# uverbs releases a closed context's objects at once (no deferred work).
expect_eq "rdma resource show $ib0 after the fuzzer" "$base0" "$(res_counts "$ib0")"
expect_eq "rdma resource show $ib1 after the fuzzer" "$base1" "$(res_counts "$ib1")"
bad=$(klog_bad)
[ -z "$bad" ] && ok "no oops, warning, lockdep, KASAN, kmemleak or hung task in dmesg" ||
	fail "kernel log: $(echo "$bad" | head -20)"

rc_pingpong 4096 200 && ok "RC pingpong (4 KiB x 200, data checked) after the fuzzer" ||
	{ fail "RC pingpong after the fuzzer"; tail -n 5 /tmp/pp-client.log /tmp/pp-server.log; }

dmesg_mark
rmmod irdma
expect_eq "rmmod irdma" 0 "$?"
after=$(new_dmesg)
echo "$after" | grep -iE 'leak|still in use|Oops|WARNING:|BUG:' &&
	fail "kernel log while irdma unloaded" || ok "irdma unloaded without a leak or warning line"
finish
