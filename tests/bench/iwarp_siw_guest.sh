#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# rdma-driver: none
# rdma-protocol: iwarp
# timeout: 1800
# On demand, not in make check: the guest half of tests/bench/iwarp_siw.sh
# (make bench-iwarp-siw). ib_write_bw -R between the two e810 ports of one
# guest (stock ice in iWARP mode), in one boot and over the same wire:
#   e810  the stock irdma on both functions and the stock provider: the
#         model's iWARP engine at both ends (docs/hw-model.md, "iWARP
#         engine");
#   siw   irdma unloaded, soft-iWARP (siw0, siw1) on the two netdevs: the
#         guest kernel's TCP at both ends.
# Both in the root namespace with stock_iwarp.sh's policy routes (each
# address reached through the other port, over the wire). IWB_ROUNDS
# rounds (default 3) of IWB_SIZE (65536) x IWB_N (1000) per leg, e810
# first; each run prints "RATE leg round MB/s" and must have crossed the
# wire: the model's engine sent at least the payload (x-iwarp-stats
# tx_bytes, e810) or the client netdev's tx bytes grew by it (siw).
. "$E810_LIB"

ROUNDS=${IWB_ROUNDS:-3}
SIZE=${IWB_SIZE:-65536}
N=${IWB_N:-1000}
PORT=19600
payload=$((SIZE * N))

mapfile -t devs < <(e810_pci_devs)
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 e810 functions, got ${#devs[@]}"; finish; }
nd0=$(e810_netdev_of "${devs[0]}")
nd1=$(e810_netdev_of "${devs[1]}")

# Both ports in init_net, routed to each other over the wire
# (guest-lib.sh iwarp_two_hosts: why the stock irdma needs it).
iwarp_two_hosts "$nd0" "$nd1" || { fail "could not set up the two hosts"; finish; }
ping -c 2 -W 2 192.168.81.2 >/dev/null && ok "ping 192.168.81.2 over the wire" ||
	fail "no ping between the ports"

iws() {
	e810_qom_str "$(e810_qom_id "${devs[0]}")" x-iwarp-stats | tr ' ' '\n' |
		sed -n "s/^$1=//p"
}
# listening LEG PORT: the leg's server listens on PORT
listening() {
	if [ "$1" = e810 ]; then
		case ",$(iw_table "${devs[1]}" apbvt_ports)," in *",$2,"*) return 0 ;; esac
		return 1
	fi
	ss -ltn | grep -q ":$2 "
}

# leg NAME CLIENT_DEV SERVER_DEV: the rounds of one leg
leg() {
	local name=$1 cdev=$2 sdev=$3 r row why before after t0 so co
	for ((r = 1; r <= ROUNDS; r++)); do
		PORT=$((PORT + 1))
		so=$(mktemp) co=$(mktemp)
		if [ "$name" = e810 ]; then
			before=$(iws tx_bytes)
		else
			before=$(cat "/sys/class/net/$nd0/statistics/tx_bytes")
		fi
		timeout 300 ib_write_bw -R -d "$sdev" -s "$SIZE" -n "$N" -p $PORT -F \
			>"$so" 2>&1 &
		spid=$!
		wait_for "listening $name $PORT" 30 || echo "note: no listener on $PORT"
		t0=$SECONDS
		timeout 300 ib_write_bw -R -d "$cdev" -s "$SIZE" -n "$N" -p $PORT -F \
			192.168.81.2 >"$co" 2>&1
		crc=$?
		wait $spid
		if [ "$name" = e810 ]; then
			after=$(iws tx_bytes)
		else
			after=$(cat "/sys/class/net/$nd0/statistics/tx_bytes")
		fi
		row=$(result_row "$co")
		why=$(perftest_bw_why "$SIZE" "$N" "$row")
		if [ $crc = 0 ] && [ -z "$why" ] && ! bad_lines "$co" >/dev/null &&
			[ $((after - before)) -ge $payload ]; then
			ok "$name round $r: ib_write_bw -R $SIZE x $N: $(cut -d' ' -f4 <<<"$row") MB/s, $((after - before)) bytes out ($((SECONDS - t0)) s)"
			echo "RATE $name $r $(cut -d' ' -f4 <<<"$row")"
		else
			fail "$name round $r: rc $crc, $why, $((after - before)) bytes out"
			tail -5 "$co" "$so" | sed 's/^/  /'
		fi
		rm -f "$so" "$co"
	done
}

# ---- e810: the stock irdma at both ends -------------------------------------
modprobe -a ib_uverbs i40e && insmod /usr/lib/e810-stock/irdma.ko* ||
	{ fail "loading the stock irdma"; finish; }
wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ] && [ -n \"\$(e810_ibdev_of ${devs[1]})\" ]" 30
ib0=$(e810_ibdev_of "${devs[0]}")
ib1=$(e810_ibdev_of "${devs[1]}")
rdma_wait_all_active 30 || fail "ports not ACTIVE: $(rdma link show | tr '\n' ' ')"
RDMAV_DRIVERS=irdma leg e810 "$ib0" "$ib1"
rmmod irdma || fail "rmmod irdma"

# ---- siw on the same two netdevs ---------------------------------------------
dmesg_mark
modprobe siw || { fail "modprobe siw"; finish; }
rdma link add siw0 type siw netdev "$nd0" && rdma link add siw1 type siw netdev "$nd1" ||
	{ fail "rdma link add siw0/siw1"; finish; }
wait_for "rdma link show siw1/1 | grep -q 'state ACTIVE'" 10 || fail "siw1 not ACTIVE"
leg siw siw0 siw1
rdma link delete siw0
rdma link delete siw1
rmmod siw || fail "rmmod siw"
bad=$(new_dmesg | grep -iE 'siw|QP\[|MPA' |
	grep -vE 'SoftiWARP (attached|detached)|taints kernel|module verification failed')
[ -z "$bad" ] && ok "no kernel line from siw but attach/detach" ||
	{ fail "siw logged:"; head -5 <<<"$bad"; }
finish
