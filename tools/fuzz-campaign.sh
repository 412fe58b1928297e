#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make fuzz-campaign: the long fuzzing campaign of the device model's
# harnesses (tests/fuzz), resumable across sessions.
#
#   tools/fuzz-campaign.sh [HARNESS...]      default: every harness
#
# Each harness is owed CAMPAIGN_CPU seconds of CPU time in all (default
# 3600); one call gives each unfinished harness at most CAMPAIGN_SLICE
# seconds (default 600) of wall time, niced, one at a time, so the
# campaign goes on over as many calls as the machine has quiet time for.
# What persists: in CACHE/fuzz-campaign/<harness>/ the working corpus
# (libFuzzer adds what grows coverage) and every crash input; in the
# checkout, tests/fuzz/campaign/<harness>.totals, the totals (executions,
# CPU seconds, wall seconds, slices), to be committed with what the slice
# found: a cache is lost with its machine, the account of what the
# campaign has given each harness must not be. After each slice
# the corpus is merged (-merge=1: only inputs that add coverage) into
# tests/fuzz/corpus-found/<harness>/ of the checkout, which make fuzz
# also starts from, so that what a campaign found stays in the tests.
# build/fuzz/campaign.txt gets the table:
#   harness executions cpu_s exec_per_cpu_s crashes corpus found done
# Exit status: 1 if any harness has a crash input, else 0.

. "$(dirname "$0")/lib.sh"
cd "$TOP"

CPU_GOAL=${CAMPAIGN_CPU:-3600}
SLICE=${CAMPAIGN_SLICE:-600}
OUT=$BUILD/fuzz
STATE=$CACHE/fuzz-campaign
TOTALS=$TOP/tests/fuzz/campaign
FOUND=$TOP/tests/fuzz/corpus-found

make -s -C tests/fuzz all
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] ||
	mapfile -t harnesses < <(cd tests/fuzz && ls fuzz_*.c | sed 's/\.c$//')

# total H FIELD: a field of harness H's totals (0 if none yet).
total() { sed -n "s/^$2=//p" "$TOTALS/$1.totals" 2>/dev/null | grep . || echo 0; }

run_slice() {
	local h=$1 d=$STATE/$1 f=$OUT/$1 left secs cpu execs t0 t
	mkdir -p "$d/corpus" "$d/crashes" "$FOUND/$h" "$TOTALS"
	# A fresh corpus starts from the seeds and what earlier campaigns found.
	if [ -z "$(ls -A "$d/corpus")" ]; then
		cp tests/fuzz/corpus/"$h"/* "$FOUND/$h"/* "$d/corpus/" 2>/dev/null || true
	fi
	left=$((CPU_GOAL - $(total "$h" cpu)))
	secs=$(( left < SLICE ? left : SLICE ))
	log "$h: $secs s of $left CPU seconds still owed"
	t0=$SECONDS
	TIMEFORMAT='%U %S'
	# -report_slow_units at the timeout: libFuzzer times an input in
	# wall seconds (10 by default), which a niced slice on a shared host
	# exceeds with inputs that take 0.3 s alone; what is really slow
	# still ends as a timeout artifact.
	t=$( { time nice -n 19 "$f" -max_total_time="$secs" -max_len=4096 \
		-timeout=60 -report_slow_units=60 -rss_limit_mb=2048 \
		-print_final_stats=1 \
		-artifact_prefix="$d/crashes/" "$d/corpus" \
		>"$OUT/$h.campaign.log" 2>&1; } 2>&1 ) || true
	cpu=$(awk '{ printf "%d", $1 + $2 }' <<<"$t")
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/$h.campaign.log")
	[ -n "$execs" ] || execs=$(grep -ao '^#[0-9]*' "$OUT/$h.campaign.log" | tail -n 1 | tr -d '#')
	{
		sed -n '/^#/p' "$TOTALS/$h.totals" 2>/dev/null || true
		echo "execs=$(( $(total "$h" execs) + ${execs:-0} ))"
		echo "cpu=$(( $(total "$h" cpu) + ${cpu:-0} ))"
		echo "wall=$(( $(total "$h" wall) + SECONDS - t0 ))"
		echo "slices=$(( $(total "$h" slices) + 1 ))"
	} >"$TOTALS/$h.totals.new"
	mv "$TOTALS/$h.totals.new" "$TOTALS/$h.totals"
	merge_found "$h" "$d"
}

# merge_found H D: the inputs of D/corpus that reach edges the seeds and
# the earlier finds do not (-merge=1 over a base of both; edges only,
# -use_counters=0, or every new hit count would be checked in) are added
# to FOUND/H.
merge_found() {
	local h=$1 d=$2 base=$OUT/$1.merge-base f
	rm -rf "$base" && mkdir -p "$base"
	cp tests/fuzz/corpus/"$h"/* "$FOUND/$h"/* "$base/" 2>/dev/null || true
	ls "$base" >"$base.before"
	if ! "$OUT/$h" -merge=1 -use_counters=0 -max_len=4096 -timeout=10 \
		-rss_limit_mb=2048 "$base" "$d/corpus" >"$OUT/$h.merge.log" 2>&1; then
		log "warning: $h: merge failed (log: $OUT/$h.merge.log)"
		return 0
	fi
	for f in $(ls "$base" | grep -vxF -f "$base.before"); do
		cp "$base/$f" "$FOUND/$h/"
	done
	rm -rf "$base" "$base.before"
}

for h in "${harnesses[@]}"; do
	[ -x "$OUT/$h" ] || die "no harness $h (tests/fuzz/$h.c)"
	[ "$(total "$h" cpu)" -ge "$CPU_GOAL" ] && continue
	run_slice "$h"
done

fail=0
echo "# harness executions cpu_s exec_per_cpu_s crashes corpus found done" >"$OUT/campaign.txt"
for h in "${harnesses[@]}"; do
	d=$STATE/$h
	cpu=$(total "$h" cpu) execs=$(total "$h" execs)
	crashes=$(ls "$d/crashes" 2>/dev/null | wc -l)
	[ "$crashes" = 0 ] || fail=1
	done_=no
	[ "$cpu" -ge "$CPU_GOAL" ] && done_=yes
	echo "$h $execs $cpu $(( execs / (cpu ? cpu : 1) )) $crashes" \
		"$(ls "$d/corpus" 2>/dev/null | wc -l) $(ls "$FOUND/$h" 2>/dev/null | wc -l) $done_" \
		>>"$OUT/campaign.txt"
done
column -t "$OUT/campaign.txt"
exit $fail
