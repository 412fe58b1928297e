#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 900
# also-parent: ice
# SMC-R between the two ports: a TCP application moved onto SMC-R through
# the socket API (smc_stream: socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC),
# what smc_run's preload does; smc-tools is not in Debian), the server in
# the root namespace on 192.168.81.1, the client in namespace "peer" on
# .2. Our device has RoCEv2 GIDs only, so SMC-Rv2 is the mode that
# applies (net/smc smc_ib_determine_gid(): a ROCE_UDP_ENCAP GID in the
# subnet of the connection, a route to the peer; no pnet table needed),
# and SMC-Rv2 wants a user-defined EID (UEID) in the kernel's table.
# SMC-R asks of the device: an IB_CA node, an RC QP with 2 send SGEs and
# 2 receive SGEs (v2), a 32766-entry CQ pair, FRWR (ib_alloc_mr,
# IB_WR_REG_MR) for its RMBs, SENDs for its CDC/LLC messages and RDMA
# WRITEs for the payload. Checks:
#   * the same program over plain TCP (AF_INET) between the same
#     addresses first: the baseline throughput, data checked;
#   * over AF_SMC 64 MiB of pseudo-random data each way at once: each
#     side checks every byte it receives against the peer's generator
#     and the checksums cross-match (one side's sent = the other's
#     received);
#   * smc_diag (sock_diag, what smcss reads) of each side's own socket
#     while it is open: mode SMC-R (not the TCP fallback; the fallback
#     reason is printed when it is one), the server's link on port 1 of
#     irdma on 192.168.81.1's function, the client's on the other;
#   * `rdma statistic` of both devices: IPv4 octets out and in grow by
#     at least the payload, RDMA WRITEs out and in grow;
#   * a reset of the client port's parent during a 64 MiB exchange: both
#     sides end (no hang), every received byte is right, and a new
#     16 MiB exchange after the device is back runs on SMC-R on it;
#   * irdma unloaded and loaded again: a 64 MiB exchange started with no
#     RDMA device falls back to TCP and stays right across the reload,
#     and the next exchange runs on SMC-R on the new devices;
#   * clean dmesg.
# Also: SMB Direct (cifs/ksmbd over RDMA) is reported as not testable
# with the reason read from the guest kernel's own configuration.
. "$E810_LIB"

BYTES=$((64 << 20))
PROG=/mnt/host/progs/smc_stream

# ---- SMB Direct: what the guest kernel was built with --------------------------
smb_direct_reason() {
	local cfg opts
	cfg=/boot/config-$(uname -r)
	if [ -r /proc/config.gz ]; then
		opts=$(zcat /proc/config.gz | grep -E 'CONFIG_(CIFS_SMB_DIRECT|SMB_SERVER_SMBDIRECT)[ =]')
		cfg=/proc/config.gz
	elif [ -r "$cfg" ]; then
		opts=$(grep -E 'CONFIG_(CIFS_SMB_DIRECT|SMB_SERVER_SMBDIRECT)[ =]' "$cfg")
	else
		echo "no kernel configuration in the guest (/boot/config-$(uname -r), /proc/config.gz)"
		return
	fi
	grep -q '=y' <<<"$opts" && return
	echo "$(tr '\n' ',' <<<"$opts" | sed 's/,$//; s/,/, /g') ($cfg)"
}
why=$(smb_direct_reason)
if [ -n "$why" ]; then
	echo "note: SMB Direct skipped: $why"
else
	echo "note: SMB Direct is built into this kernel but no scenario tests it yet"
fi

# ---- SMC-R ------------------------------------------------------------------------
[ -x "$PROG" ] || skip "no $PROG (make progs)"
modprobe smc || skip "modprobe smc failed: the guest kernel has no SMC (CONFIG_SMC)"
modprobe smc_diag || skip "modprobe smc_diag failed: no CONFIG_SMC_DIAG, cannot tell SMC-R from its TCP fallback"

# SMC-Rv2 is only proposed (and accepted) with an enterprise ID both
# sides know (net/smc smc_find_proposal_devices(): smc_clc_ueid_count());
# x86 has no system EID, so a user-defined one, as "smcr ueid add" sets.
# The table is the kernel's, shared by both namespaces.
if out=$("$PROG" ueid-add E810-SMCR-TEST 2>&1); then
	ok "UEID E810-SMCR-TEST in the kernel's table"
else
	fail "ueid-add: $out"
fi

rdma_two_ports || finish

# start_pair TAG MODE PORT BYTES: one smc_stream server of MODE (root
# namespace, 192.168.81.1) and its client (namespace peer) moving BYTES
# each way, in the background (SPID, CPID); their output in
# /tmp/smc-{server,client}-TAG.log. wait_pair: their exit statuses into
# SRC and CRC.
start_pair() {
	timeout 300 "$PROG" server "$2" 192.168.81.1 "$3" "$4" \
		>"/tmp/smc-server-$1.log" 2>&1 &
	SPID=$!
	ip netns exec peer timeout 300 "$PROG" client "$2" 192.168.81.1 "$3" "$4" \
		>"/tmp/smc-client-$1.log" 2>&1 &
	CPID=$!
}
wait_pair() {
	wait "$CPID"; CRC=$?
	wait "$SPID"; SRC=$?
}

# run_pair TAG MODE PORT BYTES: start_pair, wait_pair, both must exit 0.
run_pair() {
	start_pair "$@"
	wait_pair
	[ "$CRC" = 0 ] && [ "$SRC" = 0 ] && ok "$1: both sides exit 0" ||
		fail "$1: client exit $CRC, server exit $SRC: $(grep -v '^RESULT' "/tmp/smc-client-$1.log" "/tmp/smc-server-$1.log" | head -3 | tr '\n' ' ')"
}

# res SIDE TAG KEY: a RESULT value of one side's log.
res() { sed -n "s/^RESULT $3 //p" "/tmp/smc-$1-$2.log" | head -1; }

# check_data TAG BYTES: both directions complete, byte-checked and
# cross-summed.
check_data() {
	expect_eq "$1: bytes the client received" "$2" "$(res client "$1" recv_bytes)"
	expect_eq "$1: bytes the server received" "$2" "$(res server "$1" recv_bytes)"
	expect_eq "$1: client's data check" ok "$(res client "$1" data)"
	expect_eq "$1: server's data check" ok "$(res server "$1" data)"
	expect_eq "$1: checksum server -> client" "$(res server "$1" sent_sum)" \
		"$(res client "$1" recv_sum)"
	expect_eq "$1: checksum client -> server" "$(res client "$1" sent_sum)" \
		"$(res server "$1" recv_sum)"
	echo "  $1: $(res client "$1" ms) ms, $(res client "$1" mibps) MiB/s both ways together (client's clock)"
}

# counters TAG: octets and RDMA WRITEs of both devices into C_<TAG>_*.
counters() {
	local i ib
	for i in 0 1; do
		ib=ib$i
		eval "C_$1_oo$i=$(hw_counter "${!ib}" ip4OutOctets)"
		eval "C_$1_io$i=$(hw_counter "${!ib}" ip4InOctets)"
		eval "C_$1_ow$i=$(hw_counter "${!ib}" iwOutRdmaWrites)"
		eval "C_$1_iw$i=$(hw_counter "${!ib}" iwInRdmaWrites)"
	done
}
delta() { echo $(( $(eval echo "\${C_b_$1:-0}") - $(eval echo "\${C_a_$1:-0}") )); }

# ---- the two ports in one subnet: SMC's own limit ---------------------------
# A RoCEv2-only device (E810, like rxe) indicates no SMC-Rv1, and a
# v2-only proposal carries no MAC (smc_clc_send_proposal() fills lcl.mac
# for SMC-Rv1 only). For a peer in its own subnet the server takes that
# empty MAC as the next hop (smc_find_rdma_v2_device_serv()) and asks for
# RTR with destination MAC 00:00:00:00:00:00 (smc_ib_modify_qp_rtr()).
# Our irdma refuses that address vector (EINVAL; the stock irdma would
# put the zero MAC in its ARP cache and send to it), the server declines
# with SMC_CLC_DECL_ERR_RDYLNK and both sides fall back to TCP. Checked
# here with 4 MiB (the data must still be right), so a kernel that fixes
# it shows up.
run_pair direct smc 5100 $((4 << 20))
check_data direct $((4 << 20))
expect_eq "same subnet: server falls back (SMC_CLC_DECL_ERR_RDYLNK)" \
	"fallback 0x9990002" "$(res server direct mode) $(res server direct fallback_reason)"
expect_eq "same subnet: client falls back (peer declined, SMC_CLC_DECL_PEERDECL)" \
	"fallback 0x5000000" "$(res client direct mode) $(res client direct fallback_reason)"

# ---- routed: the next hop's MAC from the route ------------------------------
# The client moves to 192.168.82.2/24 and each side reaches the other's
# subnet through a gateway address whose permanent neighbour entry is
# the other port's MAC (a router that is just the wire). With a gateway
# SMC-Rv2 takes the next hop's MAC from the route's neighbour on both
# sides (smc_ib_find_route(), uses_gateway) and the link comes up.
mac0=$(cat "/sys/class/net/$nd0/address")
mac1=$(ip netns exec peer cat "/sys/class/net/$nd1/address")
ip -n peer addr del 192.168.81.2/24 dev "$nd1"
ip -n peer addr add 192.168.82.2/24 dev "$nd1"
ip neigh replace 192.168.81.254 lladdr "$mac1" dev "$nd0" nud permanent
ip route replace 192.168.82.0/24 via 192.168.81.254 dev "$nd0"
ip -n peer neigh replace 192.168.82.254 lladdr "$mac0" dev "$nd1" nud permanent
ip -n peer route replace 192.168.81.0/24 via 192.168.82.254 dev "$nd1"
if ip netns exec peer ping -c 2 -W 2 192.168.81.1 >/dev/null &&
   wait_for "roce_gid_index $ib1 192.168.82.2 >/dev/null" 10; then
	ok "routed: 192.168.82.2 (peer) reaches 192.168.81.1 through the gateways, RoCEv2 GID $(roce_gid_index "$ib1" 192.168.82.2)"
else
	fail "routed setup: no ping or no GID for 192.168.82.2"
fi

# The same program over TCP first: the baseline of these two ports.
run_pair tcp tcp 5101 "$BYTES"
check_data tcp "$BYTES"

dmesg_mark
counters a
run_pair smc smc 5102 "$BYTES"
counters b
check_data smc "$BYTES"

# smc_diag of each side's socket.
for side in server client; do
	mode=$(res "$side" smc mode)
	if [ "$mode" = smcr ]; then
		ok "$side: smc_diag mode SMC-R"
	else
		fail "$side: smc_diag mode '$mode', fallback reason $(res "$side" smc fallback_reason), peer diagnosis $(res "$side" smc peer_diagnosis)"
	fi
done
expect_eq "server's link device" "$ib0" "$(res server smc ib)"
expect_eq "client's link device" "$ib1" "$(res client smc ib)"
expect_eq "server's link port" 1 "$(res server smc ibport)"
expect_eq "client's link port" 1 "$(res client smc ibport)"
expect_eq "server's link group role" server "$(res server smc role)"
expect_eq "client's link group role" client "$(res client smc role)"
echo "  server: gid $(res server smc gid) peer $(res server smc peer_gid); $(res server smc sndbuf)"

# The payload crossed our devices.
for i in 0 1; do
	ib=ib$i
	for c in oo:out io:in; do
		d=$(delta "${c%:*}$i")
		[ "$d" -ge "$BYTES" ] && ok "${!ib} IPv4 octets ${c#*:} +$d (>= $BYTES)" ||
			fail "${!ib} IPv4 octets ${c#*:} +$d, less than the payload $BYTES"
	done
	[ "$(delta "ow$i")" -gt 0 ] && [ "$(delta "iw$i")" -gt 0 ] &&
		ok "${!ib} RDMA WRITEs out +$(delta "ow$i"), in +$(delta "iw$i")" ||
		fail "${!ib} RDMA WRITEs out +$(delta "ow$i"), in +$(delta "iw$i")"
done

echo "  throughput (both ways together): TCP $(res client tcp mibps) MiB/s, SMC-R $(res client smc mibps) MiB/s"

# ---- a reset of the client port's parent in the middle of an exchange --------
# The RDMA device under the client's only link goes away. SMC-R cannot
# move a connection off a link group that lost its last link (net/smc
# smcr_link_down() -> smc_lgr_terminate_sched()): the exchange may end
# early, but both sides must end (no hang), every byte either side did
# receive must be right, and a new connection once the device is back
# runs on SMC-R again, on the new device.
devs=($(e810_pci_devs))
old_idx=$(ibdev_index "$ib1")
start_pair reset smc 5103 "$BYTES"
# Reset once the exchange runs over RDMA (the client's RDMA WRITEs grow).
w0=$(hw_counter "$ib1" iwOutRdmaWrites)
wait_for "[ \"\$(hw_counter $ib1 iwOutRdmaWrites)\" -gt $w0 ]" 30 ||
	echo "note: no RDMA WRITE from $ib1 after 30 s: resetting anyway"
out=$(port_parent_reset "${devs[1]}" "$nd1" peer 2>&1) &&
	ok "parent reset ($E810_PARENT) of ${devs[1]} (client port) during the exchange" ||
	fail "parent reset of ${devs[1]}: $out"
wait_pair
[ "$CRC" != 124 ] && [ "$SRC" != 124 ] &&
	ok "reset: both sides ended (client exit $CRC, server exit $SRC; received $(res client reset recv_bytes) / $(res server reset recv_bytes) of $BYTES)" ||
	fail "reset: a side hung (client exit $CRC, server exit $SRC)"
expect_eq "reset: what the client received is right" ok "$(res client reset data)"
expect_eq "reset: what the server received is right" ok "$(res server reset data)"
if ib1=$(wait_ibdev_back "${devs[1]}" "$old_idx" 60) &&
   wait_for "roce_gid_index $ib1 192.168.82.2 >/dev/null" 20; then
	ok "the client port's RDMA device is back: $ib1 (index $old_idx -> $(ibdev_index "$ib1")), GID for 192.168.82.2"
else
	fail "no new RDMA device with a GID for 192.168.82.2 on ${devs[1]} after the reset"
fi
run_pair after smc 5104 $((16 << 20))
check_data after $((16 << 20))
expect_eq "after the reset: client's mode" smcr "$(res client after mode)"
expect_eq "after the reset: client's link device" "$ib1" "$(res client after ib)"

# ---- irdma unloaded and loaded again under a running exchange -------------------
# With no RDMA device SMC has nothing to propose: a connection made while
# irdma is out falls back to TCP (smc_diag gives the reason) and must
# carry its data right while irdma comes back underneath it; the next
# connection runs on SMC-R again, on the devices irdma registered anew.
old0=$(ibdev_index "$ib0") old1=$(ibdev_index "$ib1")
rmmod irdma && ok "rmmod irdma with SMC-R link groups gone or going" ||
	fail "rmmod irdma: $(lsmod | grep -w irdma)"
start_pair noib smc 5105 "$BYTES"
sleep 1
modprobe irdma && ok "modprobe irdma during the exchange" || fail "modprobe irdma"
wait_pair
[ "$CRC" = 0 ] && [ "$SRC" = 0 ] &&
	ok "no device: both sides exit 0 across the reload" ||
	fail "no device: client exit $CRC, server exit $SRC: $(grep -v '^RESULT' /tmp/smc-client-noib.log /tmp/smc-server-noib.log | head -3 | tr '\n' ' ')"
check_data noib "$BYTES"
expect_eq "no device: client's mode" fallback "$(res client noib mode)"
echo "  no device: fallback reason $(res client noib fallback_reason) (client), $(res server noib fallback_reason) (server)"
if ib0=$(wait_ibdev_back "${devs[0]}" "$old0" 60) &&
   ib1=$(wait_ibdev_back "${devs[1]}" "$old1" 60) &&
   wait_for "roce_gid_index $ib0 192.168.81.1 >/dev/null && roce_gid_index $ib1 192.168.82.2 >/dev/null" 20; then
	ok "irdma registered both devices again: $ib0, $ib1, GIDs for .81.1 and .82.2"
else
	fail "after modprobe irdma: no new devices with GIDs ($ib0/$ib1)"
fi
run_pair reload smc 5106 $((16 << 20))
check_data reload $((16 << 20))
expect_eq "after the reload: server's mode" smcr "$(res server reload mode)"
expect_eq "after the reload: client's mode" smcr "$(res client reload mode)"
expect_eq "after the reload: client's link device" "$ib1" "$(res client reload ib)"
# The kernel log is context for a failure, never a verdict.
[ "${E810_FAILS:-0}" -gt 0 ] &&
	new_dmesg | grep -iE 'smc|irdma' | tail -10 | sed 's/^/  dmesg: /'
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
