#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# rdma-driver: stock ours
# rdma-protocol: iwarp
# timeout: 900
# rdma-core 56.1's own RDMA-CM tests (tests/run_tests.py -k rdmacm, as
# pyverbs runs the whole suite) against irdma0 in iWARP mode: the stock ice
# switched to iWARP (devlink), the stock irdma or ours, with the stock
# provider and then with ours (provider_env; as pyverbs.sh, one verdict
# each), the port with an address in init_net (the suite connects a
# passive and an active rdma_cm_id on that one address: the irdma's CM
# pairs them as a loopback connection and the model's engine carries the
# traffic back to the same port). Zero failures and errors bar the known one
# (listed, a test that expects IB's event flow); every skip's reason in
# the list below for that test (docs/testing.md "pyverbs" says why for
# each); the connection, reject, READ and WRITE tests run and pass.
# run_tests.py gets --port 1 --gid 0 (see below).
. "$E810_LIB"

tests=/usr/share/doc/rdma-core/tests
[ -f "$tests/run_tests.py" ] || skip "rdma-core tests not installed in the guest"
# Allowed skips: a test-name regex, a tab, a reason regex, a tab, why.
allow=/tmp/pyverbs-allowed-skips
cat >"$allow" <<'EOS'
.	^Can not run the test over irdma device$	the suite itself excludes irdma from test_rdmacm_async_traffic
.	^Could not open mlx5 context \(This is not an MLX5 device\)$	other vendor's direct-verbs test
.	^Can not run the test over non (MLX5|EFA) device$	other vendor's direct-verbs test
^test_rdmacm_async_(ex_)?(leave_)?multicast_traffic$|^test_rdmacm_async_udp_traffic$	^SkipTest occurred on (active|passive) side$	RDMA_PS_UDP needs UD QPs, which iWARP has not: a side got EOPNOTSUPP (checked below: ibv_create_qp of a UD QP on the device fails with EOPNOTSUPP)
^test_rdmacm_async_(ex_)?(leave_)?multicast_traffic$	^Multicast is not supported on this device$	our irdma on GEN_1 (X722) reports max_mcast_grp 0, its count of FSIMC objects, which GEN_1 has none of; iWARP has no multicast (the stock irdma reports max_qp and the test skips later, on the UD QP)
EOS
# Errors explained by the test, not the stack: the test name, a tab, why.
known=/tmp/pyverbs-known-errors
cat >"$known" <<'EOS'
test_rdmacm_async_traffic_external_qp	the test waits for RDMA_CM_EVENT_CONNECT_RESPONSE, which the kernel's rdma_cm gives only on IB/RoCE for a cm_id without a QP (cma_ib_handler()); on iWARP cma_iw_handler() turns the connect reply into RDMA_CM_EVENT_ESTABLISHED whatever the QP ("Expected this event: 5, got this event: RDMA_CM_EVENT_ESTABLISHED")
EOS
# Tests that must run and pass (not be skipped).
must="test_rdmacm_sync_traffic test_rdmacm_async_reject_traffic test_rdmacm_async_read test_rdmacm_async_write"

devs=($(e810_pci_devs))
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 e810 functions, got ${#devs[@]}"; finish; }
wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ]" 30
ib0=$(e810_ibdev_of "${devs[0]}")
[ -n "$ib0" ] || { fail "no ib_device"; finish; }
rdma_wait_all_active 30 || fail "ports not ACTIVE"
expect_eq "$ib0: ibv_devinfo transport" "iWARP (1)" "$(ibv_attr "$ib0" transport)"
nd0=$(e810_netdev_of "${devs[0]}")
ip addr add 192.168.81.1/24 dev "$nd0" && ip link set "$nd0" up &&
	wait_carrier "$nd0" 10 || { fail "no address on $nd0"; finish; }

# Both providers, the stock one first (provider_env; PROVIDERS_OVERRIDE
# picks one for a development run): the suite and the UD refusal each.
for E810_PROVIDER in ${PROVIDERS_OVERRIDE:-stock ours}; do
	provider_env
	p=$E810_PROVIDER_NAME
	out=/tmp/pyverbs-iwarp-$E810_PROVIDER_NAME.out
	t0=$SECONDS
	# --port 1 --gid 0: without them the suite picks no port at all
	# (RDMATestCase._add_gids_per_port() takes a GID whose last 8 bytes are
	# zero for an empty entry, and an iWARP port's only GID is its MAC
	# followed by zeros), and every test skips with "No supported port is
	# up"; with them it takes that GID as it is.
	(cd "$tests" && timeout 600 python3 run_tests.py --dev "$ib0" --port 1 --gid 0 \
		-v -k rdmacm) >"$out" 2>&1
	rc=$?
	echo "$p provider: run_tests.py -k rdmacm: exit $rc after $((SECONDS - t0)) s"
	python3 - "$out" "$allow" "$known" <<'PY' >/tmp/pyverbs-iwarp-$E810_PROVIDER_NAME.verdict
import re, sys
text = open(sys.argv[1], errors="replace").read()
allow = [tuple(re.compile(x) for x in l.split("\t")[:2])
         for l in open(sys.argv[2]) if l.strip()]
known = dict(l.rstrip("\n").split("\t", 1) for l in open(sys.argv[3]) if l.strip())
ran = re.findall(r"^Ran (\d+) tests? in ", text, re.M)
verdict = re.findall(r"^(OK|FAILED)(?: \((.*)\))?$", text, re.M)
if not ran or not verdict:
    print("counts 0 0 0 0 0 1")
    sys.exit(0)
f = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", verdict[-1][1] or ""))
ran = int(ran[-1])
failed = f.get("failures", 0) + f.get("unexpected_successes", 0)
errors, skipped = f.get("errors", 0), f.get("skipped", 0)
passed = ran - failed - errors - skipped
nknown = 0
name, reasons = "?", []
for line in text.splitlines():
    m = re.match(r"(test\w+) \(([\w.]+)\)", line)
    if m:
        name = m.group(1)
    m = re.search(r"(?:\.\.\. |^)skipped (['\"])(.*)\1$", line)
    if m:
        reasons.append((name, m.group(2)))
bad = [r for r in reasons
       if not any(n.search(r[0]) and p.search(r[1]) for n, p in allow)]
for n, why in reasons:
    print("skip %s: %s%s" % (n, why, "" if (n, why) not in bad else " (UNEXPLAINED)"))
for kind in ("FAIL", "ERROR"):
    for n in re.findall(r"^%s: (test\w+) " % kind, text, re.M):
        if n in known:
            print("known %s %s: %s" % (kind, n, known[n]))
            nknown += 1
            if kind == "FAIL":
                failed -= 1
            else:
                errors -= 1
        else:
            print("%s %s" % (kind, n))
oks = re.findall(r"^(test\w+) \([\w.]+\)[^\n]*?\.\.\. ok$", text, re.M)
for n in oks:
    print("pass %s" % n)
print("counts %d %d %d %d %d %d %d" % (ran, passed, skipped, failed, errors,
      len(bad) + abs(skipped - len(reasons)), nknown))
PY
	cat /tmp/pyverbs-iwarp-$E810_PROVIDER_NAME.verdict | grep -v '^counts' | sed 's/^/  /'
	read -r _ ran pass skipped failed errors unexpl nknown < <(grep '^counts' /tmp/pyverbs-iwarp-$E810_PROVIDER_NAME.verdict)
	echo "$p provider: pyverbs rdmacm on iWARP: ran $ran: $pass passed, $skipped skipped, $nknown known errors, $failed other failures, $errors other errors"
	[ "$ran" -gt 0 ] || { tail -n 30 "$out"; fail "$p provider: no tests ran"; continue; }
	expect_eq "$p provider: pyverbs rdmacm failures" 0 "$failed"
	expect_eq "$p provider: pyverbs rdmacm errors" 0 "$errors"
	expect_eq "$p provider: skips not explained" 0 "$unexpl"
	for t in $must; do
		grep -qx "pass $t" /tmp/pyverbs-iwarp-$E810_PROVIDER_NAME.verdict && ok "$p provider: $t ran and passed" ||
			fail "$p provider: $t did not run and pass: $(grep -m1 "^$t " "$out")"
	done
	if [ "$failed" != 0 ] || [ "$errors" != 0 ]; then
		grep -A 24 -E '^(FAIL|ERROR):' "$out" | head -n 120
	fi
	# The UDP port-space tests' skip: no UD QP on an iWARP device.
	ud=$(python3 - "$ib0" <<'PY' 2>&1
import sys
import pyverbs.device as d, pyverbs.pd as p, pyverbs.cq as c, pyverbs.qp as q
import pyverbs.enums as e
ctx = d.Context(name=sys.argv[1])
pd, cq = p.PD(ctx), c.CQ(ctx, 8)
cap = q.QPCap(max_send_wr=1, max_recv_wr=1, max_send_sge=1, max_recv_sge=1)
try:
    q.QP(pd, q.QPInitAttr(qp_type=e.IBV_QPT_UD, scq=cq, rcq=cq, cap=cap))
    print("created")
except Exception as ex:
    print("errno %s" % getattr(ex, "error_code", "?"))
PY
	)
	expect_eq "$p provider: $ib0: ibv_create_qp(UD) on iWARP" "errno 95" "$ud"
done
for d in "${devs[@]}"; do
	echo "$d: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-stats)"
done
bad=$(dmesg_clean) && ok "kernel log clean" ||
	{ fail "kernel log:"; echo "$bad" | head -n 20 | sed 's/^/  /'; }
finish
