#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: pair
# rdma-driver: mixed
# rdma-protocol: iwarp
# timeout: 900
# Our irdma's iWARP against the stock irdma (docs/irdma.md
# "Connections"), on two guests joined by the pair's wire: node 0 runs
# the stock irdma on the stock ice, node 1 ours on ice_lite, both in
# iWARP mode (192.168.91.1 / .2). rping -V (the payload checked by rping
# itself) of 20 x 64 B and 20 x 4 KiB twice: node 1 serving (our passive
# side against the stock active side), then node 0 serving (ours
# active). Each node checks its own side: exit 0 and 20 verified
# iterations per run; our node also that each connection was handed
# over and established (debugfs iwarp cm_offloads, cm_established, no
# offload error, no MPA frame refused), closed (cm_closes), and nothing
# left (no connection node); both that the model's engine framed FPDUs
# with no CRC or stream error and holds no connection at the end
# (x-iwarp-stats), APBVT and quad hash empty; clean dmesg on both.
. "$E810_LIB"

export RDMAV_DRIVERS=irdma
expect_eq "nodes in the topology" 2 "$E810_NODES"
MY_IP=192.168.91.$((E810_NODE + 1))
PEER_IP=192.168.91.$((2 - E810_NODE))
OURS=$((E810_NODE == 1))

mapfile -t devs < <(e810_pci_devs)
expect_eq "e810 functions in this guest" 1 "${#devs[@]}"
d=${devs[0]}
wait_for "[ -n \"\$(e810_ibdev_of $d)\" ]" 30 || { fail "$d: no ib_device"; finish; }
nd=$(e810_netdev_of "$d")
ip addr add "$MY_IP/24" dev "$nd" || fail "ip addr add $MY_IP"
ip link set "$nd" up
rdma_wait_all_active 30 || fail "port not ACTIVE"
wait_for "ping -c 1 -W 1 $PEER_IP >/dev/null 2>&1" 120 &&
	ok "node $E810_NODE ($([ $OURS = 1 ] && echo ours || echo stock)) reaches $PEER_IP" ||
	fail "$PEER_IP does not answer"
expect_eq "$d: model mode" iwarp "$(iw_table "$d" mode)"

[ $OURS = 1 ] && aux=$(e810_aux_of "$d")

# run SERVER_NODE SIZE COUNT PORT: one verified rping, this node's side.
# The client tries again while nothing came back (the server may not
# listen yet), for up to 120 s.
run() {
	local srv=$1 size=$2 n=$3 port=$4 rc got end=$((SECONDS + 120)) role
	if [ "$E810_NODE" = "$srv" ]; then
		role=server
		timeout 200 rping -s -a "$MY_IP" -p "$port" -v -V -S "$size" -C "$n" \
			2>/tmp/rp.err | cut -c1-48 >/tmp/rp.log
		rc=${PIPESTATUS[0]}
	else
		role=client
		while :; do
			timeout 100 rping -c -a "$PEER_IP" -p "$port" -v -V -S "$size" \
				-C "$n" 2>/tmp/rp.err | cut -c1-48 >/tmp/rp.log
			rc=${PIPESTATUS[0]}
			[ $rc -eq 0 ] && break
			grep -q 'ping data' /tmp/rp.log && break
			[ $SECONDS -lt $end ] || break
			sleep 2
		done
	fi
	got=$(grep -o 'ping data: rdma-ping-[0-9]*:' /tmp/rp.log | sort -u | wc -l)
	[ $rc -eq 0 ] && [ "$got" = "$n" ] &&
		ok "rping -V -S $size -C $n, node $srv serving: $role exit 0, $n verified iterations" || {
		fail "rping -V -S $size -C $n, node $srv serving: $role rc $rc, $got iterations"
		tail -n 3 /tmp/rp.log /tmp/rp.err | sed 's/^/  /'
	}
}

PORT=7511
CONNS=0
for srv in 1 0; do
	for sz in 64 4096; do
		run "$srv" "$sz" 20 $PORT
		PORT=$((PORT + 1))
		CONNS=$((CONNS + 1))
	done
done

echo "$d: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-stats)"
expect_eq "$d: model offloads" "$CONNS" "$(iw_stat "$d" offloads)"
expect_eq "$d: CRC errors" 0 "$(iw_stat "$d" crc_errors)"
expect_eq "$d: stream errors" 0 "$(iw_stat "$d" stream_errors)"
if [ $OURS = 1 ]; then
	echo "$aux: $(grep '^cm_' "/sys/kernel/debug/irdma/$aux/iwarp" | tr '\n' ' ')"
	expect_eq "$aux: connections offloaded" "$CONNS" "$(iwdbg "$aux" cm_offloads)"
	expect_eq "$aux: connections established" "$CONNS" "$(iwdbg "$aux" cm_established)"
	expect_eq "$aux: offloads failed" 0 "$(iwdbg "$aux" cm_offload_errors)"
	expect_eq "$aux: MPA frames refused" 0 "$(iwdbg "$aux" cm_mpa_bad)"
	wait_for "[ \"\$(iwdbg $aux cm_closes)\" = $CONNS ]" 30 &&
		ok "$aux: CLOSE posted for each connection" ||
		fail "$aux: cm_closes '$(iwdbg "$aux" cm_closes)', want $CONNS"
	wait_for "[ \"\$(iwdbg $aux cm_nodes)\" = 0 ]" 30 &&
		ok "$aux: no connection node left" ||
		fail "$aux: nodes left: $(grep '^conn ' "/sys/kernel/debug/irdma/$aux/iwarp" | tr '\n' ' ')"
fi
wait_for "[ \"\$(iw_stat $d conns)\" = 0 ]" 30 &&
	ok "$d: no offloaded connection left in the model" ||
	fail "$d: model conns $(iw_stat "$d" conns)"
wait_for "[ \"\$(iw_table $d apbvt)\" = 0 ] && [ \"\$(iw_table $d qhash)\" = 0 ]" 30 &&
	ok "$d: APBVT and quad hash empty" ||
	fail "$d: left: $(iw_table "$d" apbvt_ports) / $(iw_table "$d" qhash_entries)"

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
