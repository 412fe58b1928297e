#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 1200
# On demand, not in make check: where the time of an event-driven
# completion goes. ib_send_lat 8 B (irdma1 in namespace "peer" serves,
# irdma0 sends; EV_ITERS round trips, default 500) polled and with -e
# (both sides sleep in ibv_get_cq_event() for every completion), back to
# back, EV_REPS times (default 3), with the provider of this run. For
# each run: t_min and t_typical, and per round trip the guest's context
# switches and interrupts (/proc/stat "ctxt" and "intr" deltas) and the
# RDMA interrupts alone (/proc/interrupts lines of irdma).
#   tools/vm run --topology hub2 tests/bench/evlat.sh
#   E810_VM_APPEND=idle=poll tools/vm run --topology hub2 tests/bench/evlat.sh
# The second keeps the vCPUs out of HLT between events (the guest's idle
# loop spins): the -e round trip then no longer waits for a halted vCPU
# to be woken by the interrupt, and the two runs' difference is that
# wake-up's cost. docs/performance.md has the figures.
. "$E810_LIB"

REPS=${EV_REPS:-3}
ITERS=${EV_ITERS:-500}
# shellcheck disable=SC2034
PERFTEST_TIMEOUT=200

command -v ib_send_lat >/dev/null || { fail "perftest is not installed"; finish; }
rdma_two_ports || finish

stat_of() { awk -v k="$1" '$1 == k { print $2; exit }' /proc/stat; }
irdma_irqs() {
	awk '/irdma/ { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) n += $i }
	     END { print n + 0 }' /proc/interrupts
}

echo "idle: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo none)," \
	"cmdline: $(tr ' ' '\n' </proc/cmdline | grep -E '^idle=' || echo 'default idle')"
printf '%-4s %-7s %9s %11s %12s %12s %12s\n' rep mode t_min t_typical \
	ctxt/rt intr/rt irdma_irq/rt
for rep in $(seq "$REPS"); do
	for mode in polled event; do
		extra=""
		[ $mode = event ] && extra=-e
		c0=$(stat_of ctxt) i0=$(stat_of intr) q0=$(irdma_irqs)
		PERFTEST_EXTRA=$extra perftest_run ib_send_lat 8 "$ITERS" "$ib1" \
			"$g1" "$ib0" "$g0" 192.168.81.2 peer
		c1=$(stat_of ctxt) i1=$(stat_of intr) q1=$(irdma_irqs)
		if [ "$PT_CRC" -ne 0 ] || [ "$PT_SRC" -ne 0 ] || [ -z "$PT_CROW" ]; then
			fail "rep $rep $mode: client rc $PT_CRC, server rc $PT_SRC"
			perftest_dump head -20
		else
			read -r _ _ tmin _ ttyp _ <<<"$PT_CROW"
			awk -v r="$rep" -v m="$mode" -v a="$tmin" -v b="$ttyp" \
				-v c=$((c1 - c0)) -v i=$((i1 - i0)) -v q=$((q1 - q0)) \
				-v n="$ITERS" 'BEGIN { printf "%-4s %-7s %9s %11s %12.1f %12.1f %12.1f\n",
					r, m, a, b, c / n, i / n, q / n }'
			ok "rep $rep $mode: $ITERS round trips"
		fi
		perftest_clean
	done
done
finish
