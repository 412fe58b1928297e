#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make check-debug: the scenarios named on the command line on the debug
# guest kernel (tools/vm check --kernel debug), resumable. The list needs
# more quiet host time than one sitting leaves, so a scenario that passed
# is recorded in CACHE/check-debug/<key>/ and skipped by the next run with
# the same key: the tracked files (and uncommitted changes) of what such a
# run tests and runs with: the modules, the shared headers, the model,
# the provider, the scenarios and the runner, the guest and debug-kernel
# recipes. Any change there starts the list afresh. A failed scenario is
# run again next time. E810_CHECK_DEBUG_FRESH=1 ignores earlier passes.
#
#   tools/check-debug.sh SCENARIO...
#
# Prints each verdict as tools/vm does, then one line
# "check-debug: N passed (M in earlier runs), F failed, L left" and fails
# unless the whole list has passed.

. "$(dirname "$0")/lib.sh"
cd "$TOP"

[ $# -gt 0 ] || die "usage: $0 SCENARIO..."
PATHS=(drivers include lib qemu-device provider-irdma tests/vm tools/vm
       tools/lib.sh tools/guest tools/mkguest.sh tools/mkguest-debug.sh
       tools/build-debug-kernel.sh)
KEY=$( { git ls-files -s -- "${PATHS[@]}"; git diff HEAD -- "${PATHS[@]}"; } |
	sha256sum | cut -c1-16)
DONE=$CACHE/check-debug/$KEY
mkdir -p "$DONE"
[ "${E810_CHECK_DEBUG_FRESH:-0}" = 1 ] && rm -f "$DONE"/*.pass

todo=() earlier=0
for s in "$@"; do
	s=$(basename "$s" .sh)
	if [ -f "$DONE/$s.pass" ]; then
		printf 'PASS vm/%s (debug, in an earlier run: %s)\n' "$s" "$(cat "$DONE/$s.pass")"
		earlier=$((earlier + 1))
	else
		todo+=("$s")
	fi
done
log "key $KEY: ${#todo[@]} to run, $earlier passed in earlier runs"

# verbs_abi's loop of 256 MiB MRs takes over an hour of KASAN at its
# default 1000 iterations; 100 give the allocator the same paths.
export E810_VA_ITERS=${E810_VA_ITERS:-100}

# One scenario at a time (the debug kernel boots each run alone anyway),
# each recorded as soon as it is over: a run stopped half-way keeps the
# passes it had.
# A scenario passes when every run of it (NAME, NAME@parent, ...) passed.
now=0 failed=0 left=0
for s in "${todo[@]}"; do
	tools/vm check --kernel debug "$s" || true
	lines=$(grep -E "^(PASS|FAIL|SKIP) +vm/$s(@[a-z_0-9.]+)* " "$BUILD/vm/results" 2>/dev/null || true)
	if [ -z "$lines" ]; then
		left=$((left + 1))
	elif grep -q '^FAIL' <<<"$lines"; then
		failed=$((failed + 1))
	elif grep -q '^PASS' <<<"$lines"; then
		date -u '+%Y-%m-%d %H:%M UTC' >"$DONE/$s.pass"
		now=$((now + 1))
	else
		left=$((left + 1))
	fi
done
echo "check-debug: $((now + earlier)) passed ($earlier in earlier runs), $failed failed, $left left"
[ "$failed" = 0 ] && [ "$left" = 0 ]
