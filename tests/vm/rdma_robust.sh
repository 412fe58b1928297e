#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# timeout: 400
# boot: shared
# Robustness with user space in the way:
#  1. Killing both ends of running RC traffic (ib_send_bw, SIGKILL) leaves
#     nothing behind: `rdma resource show` counts go back to the baseline,
#     and a new pingpong works.
#  2. Unbinding the parent (ice_lite or ice) while a process holds an irdma0
#     context does not hang or oops: ib_uverbs disassociates the context,
#     the process gets IBV_EVENT_DEVICE_FATAL, the unbind completes, and
#     after a rebind irdma0 is back ACTIVE.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
rdma_wait_all_active 15 || fail "ports not ACTIVE"
a=$(e810_netdev_of "${devs[0]}")
b=$(e810_netdev_of "${devs[1]}")
e810_two_hosts "$a" "$b" || { fail "cannot set up the two hosts"; finish; }
wait_port_state irdma1 ACTIVE 15 || fail "irdma1 not ACTIVE"

wait_for "roce_gid_index irdma0 192.168.81.1 >/dev/null && roce_gid_index irdma1 192.168.81.2 >/dev/null" 15 ||
	fail "RoCEv2 IPv4 GIDs missing"
g0=$(roce_gid_index irdma0 192.168.81.1)
g1=$(roce_gid_index irdma1 192.168.81.2)

# "qp cq mr pd" object counts of irdma0 and irdma1 together.
res_counts() {
	local t n out=""
	for t in qp cq mr pd; do
		n=$(rdma resource show "$t" 2>/dev/null | grep -cE "(dev|link) irdma[01][ /]")
		out="$out $n"
	done
	echo $out
}
base=$(res_counts)
echo "baseline (qp cq mr pd): $base"

# ---- 1. SIGKILL in the middle of traffic --------------------------------
ip netns exec peer ib_send_bw -F -d irdma1 -x "$g1" -s 4096 -n 5000000 >/tmp/srv.out 2>&1 &
srv=$!
sleep 2
ib_send_bw -F -d irdma0 -x "$g0" -s 4096 -n 5000000 192.168.81.2 >/tmp/cli.out 2>&1 &
cli=$!
# Both ends hold RC QPs (they then stream for minutes; the QP's
# reported PSN is the one it was given, so it cannot show progress).
wait_for "[ \$(rdma resource show qp | grep -c 'link irdma[01]/1 .*type RC') -ge 2 ]" 30 &&
	ok "RC QPs of the two ends exist" || fail "no RC QPs during the test"
sleep 4
kill -0 "$cli" "$srv" && ok "both ends still running when killed" ||
	fail "an end had already exited"
kill -9 "$cli" "$srv"
wait "$cli" "$srv" 2>/dev/null
wait_for "[ \"\$(res_counts)\" = \"$base\" ]" 20 &&
	ok "resources back to the baseline after SIGKILL: $(res_counts)" ||
	fail "resources left after SIGKILL: $(res_counts), baseline $base"
out=$(ip netns exec peer timeout 60 ibv_rc_pingpong -d irdma1 -g "$g1" -c -n 50 2>&1 &
      sleep 1; timeout 60 ibv_rc_pingpong -d irdma0 -g "$g0" -c -n 50 192.168.81.2 2>&1; wait)
grep -q "50 iters" <<<"$out" && ok "a new pingpong works after the kill" ||
	fail "pingpong after the kill: $(tail -n 3 <<<"$out")"

# ---- 2. parent unbind with an open context ------------------------------
ev=/tmp/asyncwatch.irdma0
stdbuf -oL ibv_asyncwatch -d irdma0 >"$ev" 2>&1 &
aw=$!
wait_for "grep -q 'async event FD' $ev" 10 || fail "ibv_asyncwatch did not start"
t0=$SECONDS
if timeout 60 sh -c "echo ${devs[0]} > /sys/bus/pci/drivers/$E810_PARENT/unbind"; then
	ok "parent unbind with an open context completed in $((SECONDS - t0)) s"
else
	fail "parent unbind hung or failed with an open context"
fi
wait_for "grep -q IBV_EVENT_DEVICE_FATAL $ev" 10 && ok "process got IBV_EVENT_DEVICE_FATAL" ||
	fail "no DEVICE_FATAL: $(cat "$ev")"
# The context is dead but the process is not stuck in the kernel: it dies
# on SIGKILL like any other.
kill -9 "$aw"
wait_for "! kill -0 $aw 2>/dev/null" 10 && ok "the process holding the context exits on SIGKILL" ||
	fail "the process holding the dead context does not die"
wait "$aw" 2>/dev/null
echo "${devs[0]}" > /sys/bus/pci/drivers/$E810_PARENT/bind || fail "rebind"
wait_for "[ \"\$(e810_ibdev_of ${devs[0]})\" = irdma0 ]" 30 || fail "irdma0 not registered again"
a=$(e810_netdev_of "${devs[0]}")
ip addr add 192.168.81.1/24 dev "$a" 2>/dev/null; ip link set "$a" up
wait_port_state irdma0 ACTIVE 30 && ok "irdma0 ACTIVE after the rebind" ||
	fail "irdma0 is '$(rdma_port_state irdma0)' after the rebind"

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
