#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# On-demand benchmark (not part of make check): perftest on the emulated
# E810 with the stock irdma provider and with ours, and on rdma_rxe, all
# in ONE guest boot (topology hub2), then docs/performance.md.
#
#   tools/bench-perf.sh [--reps N] [--out FILE] [--raw FILE] [--report-only]
#
# Every case runs N times (default 5) per device; the report gives the
# medians and the ratios ours/stock and e810/rxe, the small-message rate,
# ib_write_bw with 1/4/16 QPs, and two SVG charts (bandwidth and latency
# against message size, docs/perf-*.svg, drawn by gnuplot-nox, which
# "tools/deps.sh bench" installs from Debian's archive). The raw rows (one per
# run) go to build/bench/perf-raw.txt (--raw); --report-only rewrites the
# report from an existing raw file without booting a guest.
#
# The pairs:
#   e810  irdma0 (root namespace) <-> irdma1 (namespace "peer"): the
#         RoCEv2 traffic crosses the hub through the model's RDMA engine.
#         For each case and repetition the stock and our provider run
#         back to back, so host load drifts hit both alike.
#   rxe   afterwards in the same boot: irdma is unloaded (with it loaded
#         the model steers UDP 4791 to its RDMA engine, which would
#         swallow rxe's frames), both netdevs are in the root namespace
#         and rxe0/rxe1 sit on them. rdma_rxe of 6.12 only works in the
#         initial namespace and would hand a packet between two local
#         addresses to the loopback device, so policy routing sends
#         locally generated traffic for the peer address out of the other
#         port (table 100, consulted before "local" for iif lo) and
#         accept_local lets it in: rxe<->rxe crosses the same hub, over
#         the e810 LAN path (ice_lite + the model's LAN queues).
# The hub2 topology has no second virtio-net NIC, so rxe over virtio-net
# on both ends is not possible in one boot; rxe over the e810 LAN path
# is the like-for-like wire anyway.
. "$(dirname "$0")/lib.sh"

REPS=5
OUT=$TOP/docs/performance.md
RAW=$BUILD/bench/perf-raw.txt
ONLY_REPORT=0
while [ $# -gt 0 ]; do
	case "$1" in
	--report-only) ONLY_REPORT=1; shift ;;
	--reps) REPS=$2; shift 2 ;;
	--out) OUT=$2; shift 2 ;;
	--raw) RAW=$2; shift 2 ;;
	*) echo "usage: $0 [--reps N] [--out FILE] [--raw FILE] [--report-only]" >&2; exit 2 ;;
	esac
done
case "$REPS" in '' | *[!0-9]* | 0) die "--reps wants a positive number" ;; esac

mkdir -p "$BUILD/bench"
GUEST=$BUILD/bench/bench-guest.sh
LOG=$BUILD/bench/perf-run.log

# ---- the guest side ------------------------------------------------------
# Prints one line per run:
#   R <device> <test> <size> <iters> <rep> <value> <t_min>
# (value: BW average in MB/s, 2^20 B, or typical latency in us; t_min:
# the fastest round trip in us, or for bandwidth the message rate in
# Mpps), plus "I key value" lines describing the guest.
cat >"$GUEST" <<'GUEST_EOF'
#!/bin/bash
. "$E810_LIB"
REPS=@REPS@
# TEST:SIZE[:QPS]; the sizes are the charts' x axis, QPS (perftest -q,
# default 1) the multi-QP table.
CASES="ib_write_bw:64 ib_write_bw:256 ib_write_bw:1024 ib_write_bw:4096
ib_write_bw:16384 ib_write_bw:65536 ib_write_bw:65536:4 ib_write_bw:65536:16
ib_read_bw:4096 ib_read_bw:65536 ib_send_bw:64 ib_send_bw:4096 ib_send_bw:65536
ib_write_lat:8 ib_write_lat:64 ib_write_lat:256 ib_write_lat:1024
ib_write_lat:4096 ib_send_lat:8 ib_send_lat:4096"

iters() {
	case "$1:$2" in
	*_bw:64 | *_bw:256 | *_bw:1024) echo 2000 ;;
	*_bw:4096) echo 1000 ;;
	*_bw:*) echo 200 ;;
	*) echo 200 ;;
	esac
}

# one LABEL CASE REP SDEV SGID CDEV CGID NS: perftest_run (the runner of
# the perftest scenario, guest-lib.sh) of CASE (TEST:SIZE[:QPS]) with the
# server on SDEV (in namespace NS, or the root one if empty), client on
# CDEV; one R line, or an E line when perftest failed or printed garbage
# (retried once). With QPS > 1 the test is named TEST-qQPS in the rows
# (perftest then reports QPS times the iterations, all QPs together).
one() {
	local label=$1 t size q name extra rep=$3 n try row v m
	IFS=: read -r t size q <<<"$2"
	q=${q:-1} name=$t extra=
	[ "$q" = 1 ] || name=$t-q$q extra="-q $q"
	n=$(iters "$t" "$size")
	for try in 1 2; do
		# (-q only for several QPs: the latency tests refuse it at all)
		PERFTEST_EXTRA=$extra perftest_run "$t" "$size" "$n" "$4" "$5" \
			"$6" "$7" "$PEER_IP" "$8"
		row=$PT_CROW
		if [ "${t%_lat}" != "$t" ]; then
			v=$(cut -d' ' -f5 <<<"$row") m=$(cut -d' ' -f3 <<<"$row")
		else
			v=$(cut -d' ' -f4 <<<"$row") m=$(cut -d' ' -f5 <<<"$row")
		fi
		perftest_clean
		if [ "$PT_CRC" -eq 0 ] && [ "$PT_SRC" -eq 0 ] &&
		   [ "$(cut -d' ' -f1,2 <<<"$row")" = "$size $((n * q))" ] &&
		   [[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] && [ "$v" != 0.00 ] &&
		   [[ $m =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
			echo "R $label $name $size $n $rep $v $m"
			return 0
		fi
		echo "E $label $name $size $n $rep try$try rc=$PT_CRC/$PT_SRC row='$row'"
	done
	return 1
}

echo "I kernel $(uname -r)"
echo "I vcpus $(nproc)"
echo "I cpu $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)"
echo "I perftest $(ib_write_bw --version 2>&1 | awk '/Version/ { print $2; exit }')"

devs=($(e810_pci_devs))
nd0=$(e810_netdev_of "${devs[0]}")
nd1=$(e810_netdev_of "${devs[1]}")
ib0=$(e810_ibdev_of "${devs[0]}")
ib1=$(e810_ibdev_of "${devs[1]}")
rdma_wait_all_active 15 || { echo "X ports not ACTIVE"; exit 1; }
e810_two_hosts "$nd0" "$nd1" || { echo "X two hosts"; exit 1; }
wait_for "roce_gid_index $ib0 192.168.81.1 >/dev/null" 10
wait_for "roce_gid_index $ib1 192.168.81.2 >/dev/null" 10
g0=$(roce_gid_index "$ib0" 192.168.81.1)
g1=$(roce_gid_index "$ib1" 192.168.81.2)
[ -n "$g0" ] && [ -n "$g1" ] || { echo "X no RoCEv2 GIDs"; exit 1; }
PEER_IP=192.168.81.2
OURS=/usr/lib/x86_64-linux-gnu/libibverbs/e810/libirdma

t0=$SECONDS
for rep in $(seq "$REPS"); do
	for c in $CASES; do
		unset RDMAV_DRIVERS
		one stock "$c" "$rep" "$ib1" "$g1" "$ib0" "$g0" peer
		RDMAV_DRIVERS=$OURS one ours "$c" "$rep" "$ib1" "$g1" "$ib0" "$g0" peer
	done
done
unset RDMAV_DRIVERS
echo "I e810_seconds $((SECONDS - t0))"

# ---- rxe <-> rxe over the same hub ----
ip netns del peer
wait_for "[ -e /sys/class/net/$nd1 ]" 10 || { echo "X $nd1 did not come back"; exit 1; }
rmmod irdma || { echo "X rmmod irdma"; exit 1; }
ip addr flush dev "$nd1"
ip addr add 192.168.81.2/24 dev "$nd1"
ip link set "$nd1" up
for k in all "$nd0" "$nd1"; do
	sysctl -qw "net.ipv4.conf.$k.accept_local=1" "net.ipv4.conf.$k.rp_filter=0"
done
ip route add 192.168.81.2/32 dev "$nd0" table 100
ip route add 192.168.81.1/32 dev "$nd1" table 100
ip rule add pref 10 iif lo lookup 100
ip rule add pref 20 lookup local
ip rule del pref 0
wait_carrier "$nd1" 10
ping -c 2 -W 2 -I 192.168.81.1 192.168.81.2 >/dev/null ||
	{ echo "X no ping across the hub"; exit 1; }
modprobe rdma_rxe
rdma link add rxe0 type rxe netdev "$nd0" && rdma link add rxe1 type rxe netdev "$nd1" ||
	{ echo "X rdma link add"; exit 1; }
wait_for "roce_gid_index rxe0 192.168.81.1 >/dev/null" 10
wait_for "roce_gid_index rxe1 192.168.81.2 >/dev/null" 10
r0=$(roce_gid_index rxe0 192.168.81.1)
r1=$(roce_gid_index rxe1 192.168.81.2)
[ -n "$r0" ] && [ -n "$r1" ] || { echo "X no rxe GIDs"; exit 1; }
tx0=$(cat "/sys/class/net/$nd0/statistics/tx_bytes")
t0=$SECONDS
for rep in $(seq "$REPS"); do
	for c in $CASES; do
		one rxe "$c" "$rep" rxe1 "$r1" rxe0 "$r0" ""
	done
done
echo "I rxe_seconds $((SECONDS - t0))"
# proof that rxe's traffic went out of the port, not through loopback
echo "I rxe_tx_bytes $(($(cat "/sys/class/net/$nd0/statistics/tx_bytes") - tx0))"
rdma link delete rxe1
rdma link delete rxe0
dmesg_clean >/dev/null && echo "I dmesg clean" || echo "I dmesg NOT clean"
exit 0
GUEST_EOF
sed -i "s/@REPS@/$REPS/" "$GUEST"
chmod +x "$GUEST"

# ---- run it ---------------------------------------------------------------
if [ $ONLY_REPORT = 0 ]; then
	log "bench: $REPS repetitions per case and device, log in $LOG"
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	start=$(date +%s)
	"$TOP/tools/vm" run --name bench-perf --topology hub2 --timeout 3600 "$GUEST" \
		>"$LOG" 2>&1 ||
		{ tail -n 20 "$LOG"; die "the benchmark guest failed, see $LOG"; }
	grep -E '^(R|E|I|X) ' "$LOG" >"$RAW"
	echo "I wall_seconds $(($(date +%s) - start))" >>"$RAW"
	echo "I date $(date -u '+%Y-%m-%d %H:%M UTC')" >>"$RAW"
	echo "I commit $(git -C "$TOP" rev-parse --short HEAD)$(git -C "$TOP" diff --quiet HEAD -- 2>/dev/null || echo ' (with uncommitted changes)')" >>"$RAW"
	echo "I host_cores $(nproc)" >>"$RAW"
	echo "I host_load_before $load" >>"$RAW"
	echo "I host_cpu $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)" >>"$RAW"
fi
"$TOP/tools/deps.sh" bench || die "installing gnuplot-nox (tools/deps.sh bench)"
[ -s "$RAW" ] || die "no raw results in $RAW"
grep -q '^X ' "$RAW" && die "guest setup failed: $(grep '^X ' "$RAW")"
REPS=$(awk '$1 == "R" && $6 > n { n = $6 } END { print n + 0 }' "$RAW")

# ---- the report -----------------------------------------------------------
CHARTS=$BUILD/bench
python3 - "$RAW" "$OUT" "$REPS" "$CHARTS" <<'PY'
import statistics, sys
raw, out, reps, charts = sys.argv[1:5]
runs, mins, info, errs = {}, {}, {}, []
for line in open(raw):
    f = line.split()
    if f[0] == "R":
        runs.setdefault((f[2], int(f[3]), f[1]), []).append(float(f[6]))
        if len(f) > 7 and f[7] != "-":
            mins.setdefault((f[2], int(f[3]), f[1]), []).append(float(f[7]))
    elif f[0] == "I":
        info[f[1]] = " ".join(f[2:])
    elif f[0] == "E":
        errs.append(" ".join(f[1:]))
secs, date, rev = (info.get(k, "?") for k in ("wall_seconds", "date", "commit"))
hcores, hcpu = info.get("host_cores", "?"), info.get("host_cpu", "?")
cases = []
multi = {}
for (t, s, _d) in runs:
    if "-q" in t:
        multi.setdefault((t.split("-q")[0], s), set()).add(int(t.split("-q")[1]))
    elif (t, s) not in cases:
        cases.append((t, s))
order = ["ib_write_bw", "ib_read_bw", "ib_send_bw", "ib_write_lat", "ib_send_lat"]
cases.sort(key=lambda c: (order.index(c[0]) if c[0] in order else 99, c[1]))


def med(t, s, d, src=None):
    v = (src if src is not None else runs).get((t, s, d))
    return statistics.median(v) if v else None


def fmt(x):
    if x is None:
        return "-"
    return "%.0f" % x if x >= 100 else "%.2f" % x if x >= 1 else "%.3f" % x


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "-"
    return "%.2f" % (a / b) if a / b >= 0.1 else "%.3f" % (a / b)


def gmean_line(kind, src=None):
    """Geometric means of the three ratios over the cases of one kind."""
    parts = []
    for a, b in (("ours", "stock"), ("stock", "rxe"), ("ours", "rxe")):
        r = [med(t, s, a, src) / med(t, s, b, src) for t, s in cases
             if t.endswith(kind) and med(t, s, a, src) and med(t, s, b, src)]
        if r:
            g = 1.0
            for x in r:
                g *= x
            parts.append("%s/%s **%s**" % (a, b, ratio(g ** (1.0 / len(r)), 1.0)))
    return ", ".join(parts)


def spread(t, s, d):
    v = runs.get((t, s, d))
    return "%s-%s" % (fmt(min(v)), fmt(max(v))) if v else "-"


def size(s):
    return "%d KiB" % (s // 1024) if s >= 1024 else "%d B" % s


L = []
L.append("# Performance (perftest under TCG)\n")
L.append("Generated by `tools/bench-perf.sh` on %s from commit %s. "
         "Re-run it to refresh this page; it is not part of `make check` "
         "(the functional perftest run is the `perftest` scenario, "
         "[testing.md](testing.md)).\n" % (date, rev))
L.append("**These are emulation numbers, not hardware numbers.** QEMU runs the "
         "guest under TCG (no KVM) on a host with %s cores (%s) shared with other "
         "jobs; the guest has %s vCPUs and 1 GiB. Every byte the \"NIC\" moves is "
         "copied by the device model in QEMU's own threads, so the figures measure "
         "the cost of the emulated data path (model + driver + provider) and host "
         "scheduling, and only the ratios measured in the same boot mean anything.%s\n"
         % (hcores, hcpu, info.get("vcpus", "?"),
            " Host load average before the run: %s." % info["host_load_before"]
            if "host_load_before" in info else ""))
L.append("## Setup\n")
L.append("* One guest boot, topology `hub2`: two e810 functions on one QEMU hub, "
         "guest kernel %s, perftest %s." % (info.get("kernel", "?"), info.get("perftest", "?")))
L.append("* **e810**: `irdma0` (root namespace, 192.168.81.1) is the client, `irdma1` "
         "(namespace `peer`, 192.168.81.2) the server; RoCEv2 (GID of the IPv4 address, "
         "`-x`) and the TCP exchange both cross the hub. For each case and repetition the "
         "stock rdma-core irdma provider and ours (`RDMAV_DRIVERS=.../libibverbs/e810/libirdma`) "
         "run back to back.")
L.append("* **rxe**: afterwards, in the same boot, `irdma` is unloaded and `rdma_rxe` "
         "devices `rxe0`/`rxe1` are created on the same two netdevs, both in the root "
         "namespace, with policy routing that sends traffic for the other address out of "
         "the wire (rxe in 6.12 works only in the initial namespace). So rxe<->rxe "
         "crosses the same hub, through the e810 model's LAN queues and ice_lite: the "
         "comparison is RDMA offload in the model versus software RoCE over the same "
         "emulated wire. %s bytes left the client port during the rxe runs."
         % info.get("rxe_tx_bytes", "?"))
L.append("* Client pinned to vCPU 0, server to vCPU 1 (`taskset`; perftest times with "
         "rdtsc). Latency tests use `-I 96` (GEN_2 inlines at most 101 bytes; perftest's "
         "default of 220 makes QP creation fail on E810, as on real hardware), for every device.")
L.append("* %s repetitions per case and device; the tables give the median, the "
         "spread is min-max over the repetitions. Wall time: %s s in all (e810 both "
         "providers %s s, rxe %s s)." % (reps, secs, info.get("e810_seconds", "?"),
                                          info.get("rxe_seconds", "?")))
L.append("")
L.append("## Bandwidth (BW average, MB/s = 2^20 B/s; higher is better)\n")
L.append("| test | size | iters | stock | ours | rxe | ours/stock | stock/rxe | ours/rxe |")
L.append("|---|---|---|---|---|---|---|---|---|")
iters = {}
for line in open(raw):
    f = line.split()
    if f[0] == "R":
        iters[(f[2], int(f[3]))] = f[4]
for t, s in cases:
    if not t.endswith("_bw"):
        continue
    st, ou, rx = med(t, s, "stock"), med(t, s, "ours"), med(t, s, "rxe")
    L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        t, size(s), iters[(t, s)], fmt(st), fmt(ou), fmt(rx),
        ratio(ou, st), ratio(st, rx), ratio(ou, rx)))
L.append("")
L.append("Geometric mean of the ratios over these cases: %s.\n" % gmean_line("_bw"))
L.append("![ib_write_bw against message size](perf-bw.svg)\n")
L.append("### Small-message rate (perftest MsgRate, thousands of messages/s)\n")
L.append("| test | size | stock | ours | rxe | ours/stock | stock/rxe | ours/rxe |")
L.append("|---|---|---|---|---|---|---|---|")
for t, s in cases:
    if not t.endswith("_bw") or s > 256:
        continue
    st, ou, rx = (med(t, s, d, mins) for d in ("stock", "ours", "rxe"))
    st, ou, rx = (x * 1000 if x is not None else None for x in (st, ou, rx))
    L.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
        t, size(s), fmt(st), fmt(ou), fmt(rx), ratio(ou, st), ratio(st, rx),
        ratio(ou, rx)))
L.append("")
for (t, s), qs in sorted(multi.items()):
    L.append("### %s %s with several QPs (perftest -q, aggregate MB/s)\n" % (t, size(s)))
    L.append("| QPs | stock | ours | rxe | ours/stock | stock/rxe | ours/rxe | ours vs 1 QP |")
    L.append("|---|---|---|---|---|---|---|---|")
    base = med(t, s, "ours")
    for q in [1] + sorted(qs):
        name = t if q == 1 else "%s-q%d" % (t, q)
        st, ou, rx = (med(name, s, d) for d in ("stock", "ours", "rxe"))
        L.append("| %d | %s | %s | %s | %s | %s | %s | %s |" % (
            q, fmt(st), fmt(ou), fmt(rx), ratio(ou, st), ratio(st, rx),
            ratio(ou, rx), ratio(ou, base)))
    L.append("")
L.append("## Latency (t_typical, us; lower is better)\n")
L.append("| test | size | iters | stock | ours | rxe | ours/stock | stock/rxe | ours/rxe |")
L.append("|---|---|---|---|---|---|---|---|---|")
for t, s in cases:
    if not t.endswith("_lat"):
        continue
    st, ou, rx = med(t, s, "stock"), med(t, s, "ours"), med(t, s, "rxe")
    L.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        t, size(s), iters[(t, s)], fmt(st), fmt(ou), fmt(rx),
        ratio(ou, st), ratio(st, rx), ratio(ou, rx)))
L.append("")
L.append("Fastest round trip of each run (t_min, us), median over the repetitions:\n")
L.append("| test | size | stock | ours | rxe | ours/stock | stock/rxe | ours/rxe |")
L.append("|---|---|---|---|---|---|---|---|")
for t, s in cases:
    if not t.endswith("_lat"):
        continue
    st, ou, rx = (med(t, s, d, mins) for d in ("stock", "ours", "rxe"))
    L.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
        t, size(s), fmt(st), fmt(ou), fmt(rx), ratio(ou, st), ratio(st, rx),
        ratio(ou, rx)))
L.append("")
L.append("Geometric mean of the t_min ratios: %s.\n" % gmean_line("_lat", mins))
L.append("![ib_write_lat against message size](perf-lat.svg)\n")
L.append("For latency a ratio below 1 means the first device is faster "
         "(e.g. stock/rxe = 0.5: the e810 round trip takes half rxe's). "
         "On a busy host the typical latencies turn bimodal: a run is either "
         "mostly fast (tens of us) or mostly at multiples of 2-4 ms, the time "
         "the QEMU main-loop thread, which runs the device model, waits for a "
         "host core while both vCPUs busy-poll. Bandwidths then swing by 2-5x "
         "between repetitions too, and the medians of 5-7 runs no longer give "
         "stable ratios: check the spread table and re-run on a quiet host "
         "when it is wide. t_min is the least load-sensitive figure.\n")
L.append("## Spread (min-max over the repetitions)\n")
L.append("| test | size | stock | ours | rxe |")
L.append("|---|---|---|---|---|")
for t, s in cases:
    L.append("| %s | %s | %s | %s | %s |" % (t, size(s), spread(t, s, "stock"),
                                           spread(t, s, "ours"), spread(t, s, "rxe")))
L.append("")
L.append("Runs repeated because perftest failed or printed an unusable number "
         "(each run gets one second try): %d.\n" % len(errs))
for e in errs[:20]:
    L.append("    " + e)
if errs:
    L.append("")
L.append("## Reproduce\n")
L.append("    make all                      # QEMU, modules, rdma-core, guest image")
L.append("    tools/bench-perf.sh --reps %s   # ~%s min; writes docs/performance.md" % (
    reps, (int(secs) + 59) // 60 if secs.isdigit() else "?"))
L.append("")
L.append("The guest script it generates is `build/bench/bench-guest.sh`; the raw rows "
         "(`R device test size iters rep value t_min`) are in `build/bench/perf-raw.txt`. "
         "One run in the guest is, for example (server first, in the namespace):\n")
L.append("    ip netns exec peer taskset -c 1 ib_write_bw -d irdma1 -x <gid> -s 65536 -n 200 -p 18515 -F")
L.append("    taskset -c 0 ib_write_bw -d irdma0 -x <gid> -s 65536 -n 200 -p 18515 -F 192.168.81.2")
L.append("")
L.append("Guest kernel log after the run: %s.\n" % info.get("dmesg", "?"))
# The "ULPs" section is written by hand from the smc_r scenario's
# numbers: a regenerated page keeps it.
try:
    old = open(out).read()
except OSError:
    old = ""
keep = old[old.index("\n## ULPs"):] if "\n## ULPs" in old else ""
open(out, "w").write("\n".join(L) + keep)
# the charts' data: one row per size, median of stock, ours, rxe ("?" if
# missing; gnuplot skips those points)
for name, t, src in (("bw", "ib_write_bw", runs), ("lat", "ib_write_lat", runs),
                     ("latmin", "ib_write_lat", mins)):
    with open("%s/chart-%s.dat" % (charts, name), "w") as f:
        for s in sorted(x for (u, x) in cases if u == t):
            f.write("%d %s\n" % (s, " ".join(
                "%.3f" % v if v is not None else "?"
                for v in (med(t, s, d, src) for d in ("stock", "ours", "rxe")))))
PY
# SVG charts next to the page (gnuplot-nox, tools/deps.sh bench)
chart() { # NAME TITLE YLABEL DAT [DAT2]
	local svg
	svg=$(dirname "$OUT")/perf-$1.svg
	{
		echo "set terminal svg size 720,420 dynamic font 'sans,11'"
		echo "set output '$svg'"
		echo "set title '$2'"
		echo "set xlabel 'message size (bytes)'; set ylabel '$3'"
		echo "set logscale xy; set grid; set key top left; set datafile missing '?'"
		echo "set xtics (8,64,256,1024,4096,16384,65536)"
		echo -n "plot '$4' u 1:2 w lp t 'e810, stock provider', '$4' u 1:3 w lp t 'e810, our provider', '$4' u 1:4 w lp t 'rdma_rxe'"
		[ -n "${5:-}" ] && echo -n ", '$5' u 1:3 w lp dt 2 t 'e810, ours, t_min', '$5' u 1:4 w lp dt 2 t 'rxe, t_min'"
		echo
	} | gnuplot || die "gnuplot failed for $svg"
	# the SVG carries no date or path, so an unchanged run leaves it unchanged
}
chart bw "ib_write_bw (median of the runs)" "MB/s (2^20 B/s)" "$CHARTS/chart-bw.dat"
chart lat "ib_write_lat (median t_typical; dashed: t_min)" "microseconds" \
	"$CHARTS/chart-lat.dat" "$CHARTS/chart-latmin.dat"
log "bench: report in $OUT, raw rows in $RAW"
