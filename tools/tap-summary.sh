#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs cmocka test programs that print TAP and sums them up; the check
# target of tests/unit and tests/provider.
#
#   tools/tap-summary.sh LABEL SUMMARY PROGRAM...
#
# Each PROGRAM's output goes to PROGRAM.tap. Printed: every "not ok" line
# and every "# SKIP" line, prefixed with the program's name, "crashed:
# PROGRAM" for a program that stopped early, then one line
# "LABEL: P passed, F failed, S skipped", also written to SUMMARY. Exits
# non-zero when a case failed.
#
# A case marked "# SKIP" counts as skipped whether cmocka printed it as
# "ok" or "not ok". A program that printed fewer results than its plan
# ("1..N") stopped early: its missing cases count as failed; without a
# plan and without any result it counts as one failed case.

[ $# -ge 2 ] || { echo "usage: $0 LABEL SUMMARY PROGRAM..." >&2; exit 2; }
label=$1 summary=$2
shift 2

pass=0 fail=0 skip=0
for t in "$@"; do
	tap=$t.tap
	"$t" >"$tap" 2>&1
	p=$(grep '^ok ' "$tap" | grep -vc '# SKIP')
	f=$(grep '^not ok ' "$tap" | grep -vc '# SKIP')
	s=$(grep -c '^\(not \)\?ok .*# SKIP' "$tap")
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tap" | head -n 1)
	[ -n "$plan" ] || plan=$((p + f + s > 0 ? p + f + s : 1))
	if [ $((p + f + s)) -lt "$plan" ]; then
		f=$((plan - p - s))
		echo "crashed: $t"
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	grep '^not ok' "$tap" | grep -v '# SKIP' | sed "s|^|${t##*/}: |"
	grep '# SKIP' "$tap" | sed "s|^|${t##*/}: |"
done
echo "$label: $pass passed, $fail failed, $skip skipped" | tee "$summary"
[ "$fail" -eq 0 ]
