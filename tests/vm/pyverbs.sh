#!/bin/bash
# topology: hub2
# timeout: 900
# rdma-core 56.1's own test suite (pyverbs, tests/run_tests.py) against
# irdma0 through a provider (E810_PROVIDER=stock, the default, or ours).
# Every test must pass or be skipped for a reason in the list below
# (features the E810 does not have; docs/testing.md says why for each).
# Zero failures, zero errors, zero unlisted skips.
. "$E810_LIB"

tests=/usr/share/doc/rdma-core/tests
[ -f "$tests/run_tests.py" ] || skip "rdma-core tests not installed in the guest"
# Skip reasons (Python regexes) that mean "the E810 lacks this".
allow=/tmp/pyverbs-allowed-skips
cat >"$allow" <<'EOF'
EOF
mapfile -t devs < <(e810_pci_devs)
rdma_wait_all_active 15 || fail "ports not ACTIVE"
a=$(e810_netdev_of "${devs[0]}")
b=$(e810_netdev_of "${devs[1]}")
# The RDMA-CM tests need an address on the port (the suite picks it up).
e810_two_hosts "$a" "$b" || { fail "cannot set up the two hosts"; finish; }
wait_port_state irdma0 ACTIVE 15 || fail "irdma0 not ACTIVE"

provider_env
out=/tmp/pyverbs.out
t0=$SECONDS
(cd "$tests" && timeout 780 python3 run_tests.py --dev irdma0 -v) >"$out" 2>&1
rc=$?
echo "run_tests.py: exit $rc after $((SECONDS - t0)) s ($E810_PROVIDER_NAME provider)"

summary=$(grep -E '^Ran [0-9]+ tests' "$out")
[ -n "$summary" ] || { tail -n 30 "$out"; fail "no summary from run_tests.py"; finish; }
result=$(grep -E '^(OK|FAILED)' "$out" | tail -n 1)
echo "$summary: $result"
ran=$(awk '/^Ran [0-9]+ tests/ { print $2 }' "$out")
# "name (module.Class.name) ... verdict" lines; docstrings may put the
# verdict on the next line, so join them first.
python3 - "$out" "$allow" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
allow = [l.rstrip("\n").split("\t", 1)[0] for l in open(sys.argv[2])
         if l.strip() and not l.startswith("#")]
res = re.findall(r"^(test\w+) \(([\w.]+)\)(?:\n[^\n]*?)? \.\.\. (ok|skipped .*|FAIL|ERROR|expected failure|unexpected success)$",
                 text, re.M)
counts = {"ok": 0, "skipped": 0, "FAIL": 0, "ERROR": 0}
unlisted = []
for name, where, verdict in res:
    kind = verdict.split(" ", 1)[0]
    counts[kind] = counts.get(kind, 0) + 1
    if kind == "skipped":
        reason = verdict[len("skipped "):].strip("'\"")
        if not any(re.search(p, reason) for p in allow):
            unlisted.append("%s: %s" % (where, reason))
    elif kind in ("FAIL", "ERROR", "unexpected"):
        print("  %s %s" % (kind, where))
print("pyverbs: %d passed, %d skipped, %d failed, %d errors" %
      (counts["ok"], counts["skipped"], counts["FAIL"], counts["ERROR"]))
for u in unlisted:
    print("  unlisted skip: " + u)
open("/tmp/pyverbs.counts", "w").write("%d %d %d %d %d\n" % (
    counts["ok"], counts["skipped"], counts["FAIL"], counts["ERROR"],
    len(unlisted)))
PY
read -r pass skipped failed errors unlisted </tmp/pyverbs.counts
expect_eq "tests parsed = tests run" "$ran" "$((pass + skipped + failed + errors))"
expect_eq "pyverbs failures" 0 "$failed"
expect_eq "pyverbs errors" 0 "$errors"
expect_eq "skips not explained by a missing E810 feature" 0 "$unlisted"
[ "$pass" -gt 0 ] && ok "$pass pyverbs tests passed" || fail "no pyverbs test passed"
if [ "$failed" != 0 ] || [ "$errors" != 0 ]; then
	grep -A 12 -E '^(FAIL|ERROR):' "$out" | head -n 80
fi
echo "skip reasons:"
grep -oE "\.\.\. skipped .*" "$out" | sort | uniq -c | sort -rn | sed 's/^/  /'
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
