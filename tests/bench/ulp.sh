#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench-ulp: kernel ULPs over RDMA against the same ULPs over TCP on
# the same two e810 ports in one boot (nvme-rdma/nvme-tcp, iSER/iSCSI-TCP,
# NFS/RDMA against NFS/TCP, SMC-R against TCP), our irdma under the run's
# parent (ice_lite unless ULP_PARENT says otherwise). On demand, not
# in make check. The guest half is tests/bench/ulp_guest.sh (what it
# does, what it checks); this boots it (tools/vm run, topology hub2),
# keeps its output in build/bench/ulp.log and turns its RATE lines into
# a table of medians and RDMA/TCP ratios, printed and written to
# build/bench/ulp.txt:
#   # date commit host-load-before host-load-after mib rounds parent mtu=N
#   ulp dir rdma_mibps tcp_mibps ratio rdma_runs tcp_runs
# Knobs: ULP_MIB (MiB per leg, 32), ULP_ROUNDS (3), ULP_LIST ("nvme iser
# nfs smc"), ULP_MTU (both netdevs; default 1500), ULP_PARENT (ice_lite), ULP_PERF=1 (host perf record of the
# QEMU process during each leg of round 1: build/bench/perf/ULP-DIR-LEG.data,
# e.g. perf report -i ... --no-children --sort dso,sym; round 1 is then
# left out of the medians, so give one round more). Exit status: the
# guest run's.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
out=build/bench
mkdir -p "$out"
load() { cut -d' ' -f1-3 /proc/loadavg | tr ' ' /; }
parent=${ULP_PARENT:-ice_lite}
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit+dirty"
date=$(date -u +%Y-%m-%dT%H:%MZ)
load0=$(load)

# sampler SHARE: while the guest runs, the CPU time QEMU's threads spent
# in each leg (the guest writes "START|END ulp dir leg round" to its
# share's ulp-mark around each one): "LEGCPU ulp dir leg round wall_s
# vcpu_s main_s other_s", vcpu = the TCG vCPU threads (guest code: the
# ULPs, TCP/IP, the drivers), main = QEMU's main loop, where the device
# model runs (doorbells' bottom half, its timer, the wire).
cpu_snap() {
	local t comm rest
	for t in /proc/"$1"/task/*; do
		read -r comm rest <<<"$(sed 's/^[0-9]* (\(.*\)) /\1\t/; s/ /_/g; s/\t/ /' "$t/stat" 2>/dev/null)" || continue
		# rest: state ppid ... utime (13th after comm) stime (14th)
		set -- ${rest//_/ }
		echo "${t##*/} $comm $((${12} + ${13}))"
	done
}
sampler() {
	local share=$1 pid="" mark last="" snap0="" t0=0 hz ppid=""
	hz=$(getconf CLK_TCK)
	while :; do
		[ -n "$pid" ] || pid=$(pgrep -f -- "path=$share,security_model" | head -1)
		mark=$(cat "$share/ulp-mark" 2>/dev/null)
		if [ -n "$pid" ] && [ -n "$mark" ] && [ "$mark" != "$last" ]; then
			last=$mark
			case "$mark" in
			START*)
				snap0=$(cpu_snap "$pid"); t0=$(date +%s%N)
				# ULP_PERF=1: a host profile of QEMU for each leg of round 1
				if [ "${ULP_PERF:-0}" = 1 ] && [ "${mark##* }" = 1 ]; then
					set -- ${mark#START }
					perf record -q -F 999 -g -p "$pid" \
						-o "$out/perf/$1-$2-$3.data" >/dev/null 2>&1 &
					ppid=$!
				fi ;;
			END*)
				[ -n "$ppid" ] && kill -INT "$ppid" 2>/dev/null && wait "$ppid"
				ppid=""
				[ -n "$snap0" ] &&
					join <(sort <<<"$snap0") <(cpu_snap "$pid" | sort) |
					awk -v m="${mark#END }" -v pid="$pid" -v hz="$hz" \
						-v w=$(($(date +%s%N) - t0)) '
					{ d = ($5 - $3) / hz
					  if ($1 == pid) mn += d; else v += d }
					END { printf "LEGCPU %s %.2f %.2f %.2f\n", m, w / 1e9, v, mn }'
				snap0="" ;;
			esac
		fi
		sleep 0.1
	done
}
share=$top/build/vm/bench-ulp/node0/share
rm -f "$share/ulp-mark"
[ "${ULP_PERF:-0}" = 1 ] && rm -rf "$out/perf" && mkdir -p "$out/perf"
sampler "$share" >"$out/ulp-cpu.txt" &
spid=$!
tools/vm run --name bench-ulp --parent "$parent" tests/bench/ulp_guest.sh 2>&1 |
	tee "$out/ulp.log"
rc=${PIPESTATUS[0]}
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
load1=$(load)

# medians of the RATE lines ("RATE ulp dir leg round MiB/s")
# (with ULP_PERF=1 round 1 ran under perf record and is left out)
grep -o 'RATE .*' "$out/ulp.log" | awk -v skip="${ULP_PERF:-0}" -v hdr="# $date $commit $load0 $load1 ${ULP_MIB:-32} ${ULP_ROUNDS:-3} $parent mtu=${ULP_MTU:-1500}" '
function median(k,   n, i, j, t, a) {
	n = split(v[k], a, " ")
	for (i = 1; i <= n; i++)
		for (j = i + 1; j <= n; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	if (n == 0) return ""
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
skip == 1 && $5 == 1 { next }
{
	k = $2 " " $3 " " $4
	v[k] = v[k] " " $6
	cnt[k]++
	if (!($2 " " $3 in seen)) { seen[$2 " " $3] = 1; order[++n] = $2 " " $3 }
}
END {
	print hdr
	for (i = 1; i <= n; i++) {
		r = median(order[i] " rdma"); t = median(order[i] " tcp")
		q = "-"
		if (r != "" && t + 0 > 0) q = sprintf("%.2f", r / t)
		if (r == "") r = "-"
		if (t == "") t = "-"
		printf "%s %s %s %s %d %d\n", order[i], r, t, q,
			cnt[order[i] " rdma"], cnt[order[i] " tcp"]
	}
}' >"$out/ulp.txt"

echo
echo "ULP throughput, RDMA against TCP (MiB/s, medians; $(sed -n '1s/^# //p' "$out/ulp.txt"))"
printf '%-6s %-6s %10s %10s %7s %6s\n' ulp dir rdma tcp ratio runs
awk 'NR > 1 { printf "%-6s %-6s %10s %10s %7s %3d/%d\n", $1, $2, $3, $4, $5, $6, $7 }' "$out/ulp.txt"
# the host CPU per leg, medians by ULP, direction and leg
if [ -s "$out/ulp-cpu.txt" ]; then
	echo
	echo "QEMU threads' CPU per leg (s, medians): wall, vCPUs (guest), main thread (model)"
	sort -k2,4 "$out/ulp-cpu.txt" | awk '
	function med(s,   n, a, i, j, t) { n = split(s, a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
			if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
	{ k = $2 " " $3 " " $4; if (!(k in w)) o[++n] = k
	  w[k] = w[k] " " $6; v[k] = v[k] " " $7; m[k] = m[k] " " $8 }
	END { for (i = 1; i <= n; i++) { k = o[i]; split(k, f, " ")
		printf "%-6s %-6s %-5s %6.2f %6.2f %6.2f\n", f[1], f[2], f[3],
			med(w[k]), med(v[k]), med(m[k]) } }'
fi
echo "(build/bench/ulp.txt; per leg: LEGSTAT in build/bench/ulp.log, LEGCPU in build/bench/ulp-cpu.txt)"
exit "$rc"
