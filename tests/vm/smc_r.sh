#!/bin/bash
# topology: hub2
# timeout: 900
# also-parent: ice
# SMC-R between the two ports: a TCP application moved onto SMC-R through
# the socket API (smc_stream: socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC),
# what smc_run's preload does; smc-tools is not in Debian), the server in
# the root namespace on 192.168.81.1, the client in namespace "peer" on
# .2. Our device has RoCEv2 GIDs only, so SMC-Rv2 is the mode that
# applies (net/smc smc_ib_determine_gid(): a ROCE_UDP_ENCAP GID in the
# subnet of the connection, a route to the peer; no pnet table needed).
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
#   * clean dmesg.
# Also: SMB Direct (cifs/ksmbd over RDMA) is reported as not testable
# with the reason read from the guest kernel's own configuration.
. "$E810_LIB"

BYTES=$((64 << 20))
PROG=/mnt/host/progs/smc_stream

# ---- SMB Direct: what the guest kernel was built with --------------------------
smb_direct_reason() {
	local cfg=/boot/config-$(uname -r) opts
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

rdma_two_ports || finish

# run_pair MODE PORT: one smc_stream server (root namespace) and client
# (namespace peer) of MODE; their output in /tmp/smc-{server,client}-MODE.log.
run_pair() {
	local spid crc src
	timeout 300 "$PROG" server "$1" 192.168.81.1 "$2" "$BYTES" \
		>"/tmp/smc-server-$1.log" 2>&1 &
	spid=$!
	ip netns exec peer timeout 300 "$PROG" client "$1" 192.168.81.1 "$2" "$BYTES" \
		>"/tmp/smc-client-$1.log" 2>&1
	crc=$?
	wait "$spid"
	src=$?
	[ "$crc" = 0 ] && [ "$src" = 0 ] && ok "$1: both sides exit 0" ||
		fail "$1: client exit $crc, server exit $src: $(grep -v '^RESULT' "/tmp/smc-client-$1.log" "/tmp/smc-server-$1.log" | head -3 | tr '\n' ' ')"
}

# res SIDE MODE KEY: a RESULT value of one side's log.
res() { sed -n "s/^RESULT $3 //p" "/tmp/smc-$1-$2.log" | head -1; }

# check_data MODE: both directions complete, byte-checked and cross-summed.
check_data() {
	expect_eq "$1: bytes the client received" "$BYTES" "$(res client "$1" recv_bytes)"
	expect_eq "$1: bytes the server received" "$BYTES" "$(res server "$1" recv_bytes)"
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

# The same program over TCP first: the baseline of these two ports.
run_pair tcp 5101
check_data tcp

dmesg_mark
counters a
run_pair smc 5102
counters b
check_data smc

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
new_dmesg | grep -i smc | tail -8 | sed 's/^/  dmesg: /'
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
