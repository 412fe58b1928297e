#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make check: dependencies, host unit tests, the fuzz run, build, VM
# scenarios. Ends with
# one line "N passed, N failed" (skips are reported on the line before) and
# exits non-zero on any failure.

. "$(dirname "$0")/lib.sh"
cd "$TOP"
t0=$SECONDS
pass=0 fail=0 skip=0

# "<label>: P passed, F failed[, S skipped]" -> adds to the totals.
add_counts() {
	local line=$1 p f s
	p=$(sed -n 's/.* \([0-9][0-9]*\) passed.*/\1/p' <<<"$line")
	f=$(sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p' <<<"$line")
	s=$(sed -n 's/.* \([0-9][0-9]*\) skipped.*/\1/p' <<<"$line")
	pass=$((pass + ${p:-0})) fail=$((fail + ${f:-1})) skip=$((skip + ${s:-0}))
}

tools/deps.sh
echo "== unit tests"
# compile jobs: one per CPU (the tests themselves run one at a time)
J=$(nproc)
make -s -j"$J" -C tests/unit check || true
add_counts "$(cat build/unit/summary 2>/dev/null || echo 'unit: 0 passed, 1 failed')"
make -s -j"$J" -C tests/provider check || true
add_counts "$(cat build/provider-tests/summary 2>/dev/null || echo 'provider: 0 passed, 1 failed')"
# Real-host installation staged into build/install-test/ (tests/install/):
# make install/uninstall, install-provider, dkms-source and dkms's build.
tests/install/run.sh || true
add_counts "$(cat build/install-test/summary 2>/dev/null || echo 'install: 0 passed, 1 failed')"
echo "== unit tests done in $((SECONDS - t0)) s"

# 50000 runs per harness here (about a minute in all); `make fuzz` alone
# runs 200000.
echo "== fuzz (device model, fixed number of runs)"
if make -s fuzz RUNS=50000; then
	add_counts "fuzz: 1 passed, 0 failed"
else
	add_counts "fuzz: 0 passed, 1 failed"
fi

echo "== build (QEMU, rdma-core, modules, guest image, guest test programs)"
if make -s all progs; then
	echo "== build done at $((SECONDS - t0)) s"
	# The device under -accel qtest with the QEMU just built (seconds).
	make -s -j"$J" -C tests/qtest check || true
	add_counts "$(cat build/qtest/summary 2>/dev/null || echo 'qtest: 0 passed, 1 failed')"
	# The device as a QEMU patch series, applied to the clean source and
	# built on the QEMU build just made (tools/qemu-patches.sh --check,
	# about a minute).
	if tools/qemu-patches.sh --check; then
		add_counts "qemu-patches: 1 passed, 0 failed"
	else
		add_counts "qemu-patches: 0 passed, 1 failed"
	fi
	# The runner's helpers, with the QEMU just built (tests/tools/);
	# seconds, bounded so that no helper left waiting can hold the run.
	timeout -k 10 600 tests/tools/run.sh || true
	add_counts "$(cat build/tools-test/summary 2>/dev/null || echo 'tools: 0 passed, 1 failed')"
	echo "== VM scenarios"
	tools/vm check || true
	add_counts "vm: $(tail -n 1 build/vm/results 2>/dev/null || echo '0 passed, 1 failed')"
else
	echo "build failed: VM scenarios not run"
	fail=$((fail + 1))
fi
echo "== make check took $((SECONDS - t0)) s; $skip skipped"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
