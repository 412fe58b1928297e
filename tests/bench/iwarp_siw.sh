#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench-iwarp-siw: ib_write_bw -R between the two e810 ports of one
# guest, the emulated E810 in iWARP mode with the stock irdma at both ends
# against soft-iWARP (siw) at both ends on the same netdevs and wire, in
# one boot. On demand, not in make check. The guest half is
# tests/bench/iwarp_siw_guest.sh; this boots it (tools/vm run, topology
# hub2, the stock ice), keeps its output in build/bench/iwarp_siw.log and
# turns its RATE lines into medians and the e810/siw ratio, printed and
# written to build/bench/iwarp_siw.txt:
#   # date commit host-load-before host-load-after size iterations rounds
#   e810_mbs siw_mbs ratio e810_runs siw_runs
# Knobs: IWB_ROUNDS (3), IWB_SIZE (65536), IWB_N (1000). Exit status: the
# guest run's.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
out=build/bench
mkdir -p "$out"
load() { cut -d' ' -f1-3 /proc/loadavg | tr ' ' /; }
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit+dirty"
date=$(date -u +%Y-%m-%dT%H:%MZ)
load0=$(load)
tools/vm run --name bench-iwarp-siw --topology hub2 --parent ice --timeout 1800 \
	tests/bench/iwarp_siw_guest.sh 2>&1 |
	tee "$out/iwarp_siw.log"
rc=${PIPESTATUS[0]}
load1=$(load)
grep -o 'RATE .*' "$out/iwarp_siw.log" | awk -v hdr="# $date $commit $load0 $load1 ${IWB_SIZE:-65536} ${IWB_N:-1000} ${IWB_ROUNDS:-3}" '
function median(k,   n, i, j, t, a) {
	n = split(v[k], a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	if (n == 0) return 0
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ v[$2] = v[$2] " " $4; c[$2]++ }
END {
	print hdr
	print "e810_mbs siw_mbs ratio e810_runs siw_runs"
	e = median("e810"); s = median("siw")
	r = "-"
	if (s > 0) r = sprintf("%.2f", e / s)
	printf "%.2f %.2f %s %d %d\n", e, s, r, c["e810"], c["siw"]
}' >"$out/iwarp_siw.txt"
cat "$out/iwarp_siw.txt"
exit "$rc"
