#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# rdma-driver: stock
# rdma-protocol: iwarp
# timeout: 1800
# On demand, not in make check (tools/vm run tests/bench/iwarp_provider_ab.sh):
# our provider against the stock one over the stock irdma in iWARP mode, in
# one boot, between the two e810 ports of one guest routed over the wire
# (iwarp_two_hosts). IWAB_ROUNDS rounds (default 3), each the stock
# provider then ours: ib_write_bw -R 64 KiB x IWAB_BW_N (default 500) and
# ib_send_lat -R 64 B x IWAB_LAT_N (default 1000). Prints one line a run,
#   RATE <provider> write_bw <round> <MB/s>
#   LAT <provider> send_lat <round> <t_min> <t_typical> <t_avg>
# and the medians and ratios at the end. A run must exit 0 on both sides
# with a parseable non-zero figure.
. "$E810_LIB"

ROUNDS=${IWAB_ROUNDS:-3}
BW_N=${IWAB_BW_N:-500}
LAT_N=${IWAB_LAT_N:-1000}
PORT=19700

mapfile -t devs < <(e810_pci_devs)
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 e810 functions, got ${#devs[@]}"; finish; }
wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ] && [ -n \"\$(e810_ibdev_of ${devs[1]})\" ]" 30
rdma_wait_all_active 30 || { fail "ports not ACTIVE"; finish; }
nd0=$(e810_netdev_of "${devs[0]}")
nd1=$(e810_netdev_of "${devs[1]}")
iwarp_two_hosts "$nd0" "$nd1" || { fail "could not set up the two hosts"; finish; }

listening() {
	case ",$(iw_table "${devs[1]}" apbvt_ports)," in
	*",$1,"*) return 0 ;;
	esac
	return 1
}
# run TOOL SIZE N: one run, server on port 1, client on port 0; prints
# perftest's result row of the client, or nothing on failure.
run() {
	local srv cli sp crc src extra=()
	[ "$1" = ib_send_lat ] && extra=(-I "$PERFTEST_INLINE")
	srv=$(mktemp) cli=$(mktemp)
	PORT=$((PORT + 1))
	timeout 300 taskset -c 1 "$1" -R -F -s "$2" -n "$3" -p $PORT \
		"${extra[@]}" >"$srv" 2>&1 &
	sp=$!
	wait_for "listening $PORT" 20
	timeout 290 taskset -c 0 "$1" -R -F -s "$2" -n "$3" -p $PORT \
		"${extra[@]}" 192.168.81.2 >"$cli" 2>&1
	crc=$?
	wait "$sp"
	src=$?
	if [ "$crc $src" = "0 0" ]; then
		result_row "$cli"
	else
		echo "  $1 -s $2 -n $3: exit $crc/$src" >&2
		tail -n 5 "$cli" "$srv" | sed 's/^/  /' >&2
	fi
	rm -f "$srv" "$cli"
}

median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
declare -A bw lat
for r in $(seq 1 "$ROUNDS"); do
	for prov in stock ours; do
		E810_PROVIDER=$prov provider_env
		row=$(run ib_write_bw 65536 "$BW_N")
		v=$(cut -d' ' -f4 <<<"$row")
		if [[ "$v" =~ ^[0-9]+(\.[0-9]+)?$ ]] &&
		   awk -v v="$v" 'BEGIN { exit !(v > 0) }'; then
			echo "RATE $prov write_bw $r $v"
			bw[$prov]+="$v "
		else
			fail "$prov: ib_write_bw -R 64 KiB round $r: row '$row'"
		fi
		row=$(run ib_send_lat 64 "$LAT_N")
		read -r _ _ tmin _ ttyp tavg _ <<<"$row"
		if [[ "$ttyp" =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
			echo "LAT $prov send_lat $r $tmin $ttyp $tavg"
			lat[$prov]+="$ttyp "
		else
			fail "$prov: ib_send_lat -R 64 B round $r: row '$row'"
		fi
	done
done
for prov in stock ours; do
	echo "MEDIAN $prov write_bw $(median <<<"${bw[$prov]}") MB/s send_lat t_typical $(median <<<"${lat[$prov]}") us"
done
sb=$(median <<<"${bw[stock]}") ob=$(median <<<"${bw[ours]}")
sl=$(median <<<"${lat[stock]}") ol=$(median <<<"${lat[ours]}")
[ -n "$sb" ] && [ -n "$ob" ] && [ -n "$sl" ] && [ -n "$ol" ] &&
	echo "RATIO write_bw ours/stock $(awk -v a="$ob" -v b="$sb" 'BEGIN { printf "%.2f", a / b }') send_lat t_typical stock/ours $(awk -v a="$sl" -v b="$ol" 'BEGIN { printf "%.2f", a / b }')"
ok "A/B done: $ROUNDS rounds"
finish
