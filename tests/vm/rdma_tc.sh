#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# timeout: 900
# boot: shared
# Traffic-class change under RDMA traffic: while ibv_rc_pingpong -c runs
# between irdma0 and irdma1 (port 1 in namespace "peer"), `dcb ets set`
# on port 0's netdev changes ETS. ice_lite sends BEFORE_TC_CHANGE, irdma
# suspends every active QP (SUSPEND_QP, AE 0x0900 each), ice_lite stores
# the new QoS, AFTER_TC_CHANGE makes irdma resume them. Checked: the run
# completes with rc 0 and valid data on both sides (a run that stops
# sending for 30 s is stuck: a slow host only makes it longer), debugfs
# "tc" counts suspends == suspend AEs == resumes == the QPs that were
# active, both events are counted (irdma's debugfs events), `dcb ets show` and the driver's QoS
# show the new setting. Every QP holds the RDMA qset of its priority's
# traffic class: pingpong's RC QP carries (restrack drv_qs_handle /
# drv_tc) the non-zero QS handle debugfs "tc" lists for TC up2tc[0], a
# new one of the new TC after the change, and the old TC's qset is gone
# with its last QP. Once with the stock provider and once with ours.
# Then invalid settings (bandwidth not adding up to 100, non-contiguous
# TCs, TC 9) sent straight over rtnetlink are refused with EINVAL (and
# counted by ice_lite), send no event and leave the setting alone; dcb's own refusals change
# nothing either; the same setting again sends no event.
. "$E810_LIB"

SIZE=4096
# How long each pingpong should last. The calibration runs on a host
# whose load changes: a run calibrated while other guests were busy went
# 2x faster once they were done, and ended during the change itself
# (10 s was too short for that); 20 s leaves room for a 4x speed-up.
RUN_S=20
# A pingpong's time limit: 20x its calibrated length, as a loaded host
# can slow a round trip that much; a stuck run is caught much sooner by
# wait_sending (no packet from port 0 in STALL_S seconds).
PP_LIMIT=$((RUN_S * 20 + 30))
STALL_S=30

modprobe ib_uverbs || fail "modprobe ib_uverbs"
command -v dcb >/dev/null || skip "no dcb tool (iproute2) in the guest"
rdma_two_ports || finish
d0=$(e810_pci_devs | head -n 1)
aux0=$(e810_aux_of "$d0")
qom0=$(e810_qom_id "$(e810_pci_devs | head -n 1)")
tcf=/sys/kernel/debug/irdma/$aux0/tc
[ -r "$tcf" ] || { fail "no $tcf"; finish; }

# tcval KEY: a one-value line of debugfs "tc"; tcline KEY: all its values.
tcval() { awk -v k="$1" '$1 == k { print $2 }' "$tcf"; }
tcline() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "$tcf"; }
# ets_show WHAT: "dcb ets show" of one attribute on port 0, one line.
ets_show() { dcb ets show dev "$nd0" "$1" | tr -s ' ' | sed 's/ *$//'; }
# BEFORE_TC_CHANGE / AFTER_TC_CHANGE events irdma counted (debugfs events).
nbefore() { irdma_ev "$d0" tc_before; }
# qset_of TC: the QS handle of TC's RDMA qset in debugfs "tc" (none: empty).
qset_of() { awk -v t="$1" '$1 == "qset" && $3 == t { print $5 }' "$tcf"; }
# pp_qs: "TC QS_HANDLE" of ibv_rc_pingpong's RC QP on port 0 (restrack).
pp_qs() {
	rdma -j -dd resource show qp link "$ib0/1" 2>/dev/null | python3 -c '
import json, sys
for q in json.load(sys.stdin):
    if q.get("type") == "RC" and q.get("comm", "").startswith("ibv_rc_pingpong"):
        print(q.get("drv_tc"), q.get("drv_qs_handle"))
        break'
}
# check_qs LABEL WANT_TC QS: pingpong's QP is on TC WANT_TC with the
# non-zero QS handle of that TC's qset; prints the handle.
check_qs() {
	local label=$1 want=$2 got=$3 qs
	qs=$(qset_of "$want")
	if [ "${got% *}" = "$want" ] && [ -n "$qs" ] && [ "$qs" != 0 ] &&
	   [ "${got#* }" = "$qs" ]; then
		ok "$label: pingpong's QP on TC $want, QS handle $qs" >&2
	else
		fail "$label: pingpong's QP has TC/QS handle '$got', TC $want's qset '$qs'" >&2
	fi
}
nafter() { irdma_ev "$d0" tc_after; }

expect_eq "default prio-tc" "prio-tc 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0" "$(ets_show prio-tc)"
expect_eq "default num_tc in irdma" 1 "$(tcval num_tc)"
expect_eq "dcbx mode" "host ieee" "$(dcb dcbx show dev "$nd0" | sed 's/^dcbx //' | tr -s ' ' | sed 's/ *$//')"

# pp_time N: milliseconds of one N-iteration run (calibration).
pp_time() {
	local t0 t1
	ip netns exec peer timeout 60 ibv_rc_pingpong -d "$ib1" -g "$g1" -s "$SIZE" \
		-n "$1" -c >/dev/null 2>&1 &
	local sp=$!
	sleep 1
	t0=$(date +%s%N)
	timeout 60 ibv_rc_pingpong -d "$ib0" -g "$g0" -s "$SIZE" -n "$1" -c \
		192.168.81.2 >/dev/null 2>&1
	local rc=$?
	t1=$(date +%s%N)
	wait "$sp"
	[ $rc -eq 0 ] || return 1
	echo $(((t1 - t0) / 1000000))
}

# round LABEL BW PRIO WANT_NUM_TC WANT_UP2TC: a pingpong with an ETS
# change in its middle, and every check listed at the top.
round() {
	local label=$1 bw=$2 prio=$3 want_ntc=$4 want_up2tc=$5
	local ms ms2 per n want srv cli sp cp crc src nq
	local c0 s0 a0 r0 t0 b0 f0 ds da dr old_tc qs_before qs_after

	provider_env
	label="$label ($E810_PROVIDER_NAME)"
	# Two lengths, so connection set-up does not count as round trips.
	ms=$(pp_time 500) && ms2=$(pp_time 3000) ||
		{ fail "$label: calibration run failed"; return; }
	per=$((ms2 > ms ? ms2 - ms : 1))
	# TCG timing is noisy: never less than half of what the long run
	# alone says (a slow short run once gave 1 ms and a million trips).
	((per < ms2 * 5 / 12)) && per=$((ms2 * 5 / 12))
	n=$((2500 * RUN_S * 1000 / per))
	((n < 5000)) && n=5000
	((n > 1000000)) && n=1000000
	ok "$label: 2500 round trips took $per ms, running $n"

	c0=$(tcval changes) s0=$(tcval suspends) a0=$(tcval suspend_aes)
	r0=$(tcval resumes) t0=$(tcval timeouts) b0=$(nbefore) f0=$(nafter)
	srv=$(mktemp) cli=$(mktemp)
	# A calibration slowed by the host (another guest booting) can give
	# a run that is over before the change: such a run proves nothing
	# either way, so it is repeated 4x longer (at most twice more).
	local attempt
	for attempt in 1 2 3; do
		ip netns exec peer timeout $PP_LIMIT ibv_rc_pingpong -d "$ib1" \
			-g "$g1" -s "$SIZE" -n "$n" -c >"$srv" 2>&1 &
		sp=$!
		sleep 1
		timeout $PP_LIMIT ibv_rc_pingpong -d "$ib0" -g "$g0" -s "$SIZE" \
			-n "$n" -c 192.168.81.2 >"$cli" 2>&1 &
		cp=$!
		sleep 3
		kill -0 "$cp" 2>/dev/null && break
		wait "$cp"
		crc=$?
		wait "$sp"
		src=$?
		if [ $crc != 0 ] || [ $src != 0 ]; then
			fail "$label: pingpong without a change (client rc $crc, server rc $src)"
			sed 's/^/  client: /' "$cli" | tail -5
			sed 's/^/  server: /' "$srv" | tail -5
			break
		fi
		[ $attempt = 3 ] && break
		n=$((n * 4))
		echo "  $label: $((n / 4)) round trips ended within 3 s; again with $n"
	done
	want=$((SIZE * n * 2))
	if ! kill -0 "$cp" 2>/dev/null; then
		fail "$label: the pingpong ended before the change"
	fi
	# The QPs that may transmit on $ib0 now: the GSI QP and pingpong's.
	nq=$(rdma res show qp link "$ib0/1" | grep -cE ' state (RTR|RTS|SQD) ')
	old_tc=$(tcval rdma_tc)
	qs_before=$(pp_qs)
	check_qs "$label: before" "$old_tc" "$qs_before"
	if dcb ets set dev "$nd0" tc-tsa all:ets tc-bw $bw prio-tc $prio; then
		ok "$label: dcb ets set tc-bw $bw prio-tc $prio"
	else
		fail "$label: dcb ets set refused"
	fi
	kill -0 "$cp" 2>/dev/null && ok "$label: pingpong still running after the change" ||
		fail "$label: pingpong no longer running right after the change"
	qs_after=$(pp_qs)
	check_qs "$label: after" "${want_up2tc%% *}" "$qs_after"
	[ "${qs_after#* }" != "${qs_before#* }" ] &&
		ok "$label: QS handle ${qs_before#* } -> ${qs_after#* }" ||
		fail "$label: QS handle unchanged (${qs_before#* })"
	expect_eq "$label: TC $old_tc's qset gone with its QPs" "" "$(qset_of "$old_tc")"
	wait_sending "$cp" "$qom0" "$STALL_S"
	crc=$?
	((WAIT_STALLED)) && kill "$sp" 2>/dev/null
	wait "$sp"
	src=$?
	if [ $crc -eq 0 ] && [ $src -eq 0 ] &&
	   grep -q "^$want bytes in" "$cli" && grep -q "^$want bytes in" "$srv" &&
	   ! grep -q 'invalid data' "$srv" "$cli"; then
		ok "$label: $n round trips of $SIZE B across the change, data valid"
	elif ((WAIT_STALLED)); then
		fail "$label: pingpong stuck: port 0 sent nothing for $STALL_S s (client killed, server rc $src)"
	else
		fail "$label: pingpong across the change (client rc $crc, server rc $src)"
		sed 's/^/  client: /' "$cli" | tail -5
		sed 's/^/  server: /' "$srv" | tail -5
	fi
	rm -f "$srv" "$cli"

	ds=$(($(tcval suspends) - s0))
	da=$(($(tcval suspend_aes) - a0))
	dr=$(($(tcval resumes) - r0))
	expect_eq "$label: TC changes seen by irdma" $((c0 + 1)) "$(tcval changes)"
	((ds >= 1)) && [ "$ds" = "$da" ] && [ "$ds" = "$dr" ] &&
		ok "$label: $ds suspends, $da suspend AEs, $dr resumes" ||
		fail "$label: suspends $ds, suspend AEs $da, resumes $dr"
	expect_eq "$label: suspends == active QPs" "$nq" "$ds"
	expect_eq "$label: suspend timeouts" "$t0" "$(tcval timeouts)"
	expect_eq "$label: change pending" 0 "$(tcval pending)"
	expect_eq "$label: BEFORE_TC_CHANGE events" $((b0 + 1)) "$(nbefore)"
	expect_eq "$label: AFTER_TC_CHANGE events" $((f0 + 1)) "$(nafter)"
	expect_eq "$label: dcb ets show prio-tc" "prio-tc $prio" "$(ets_show prio-tc)"
	expect_eq "$label: dcb ets show tc-bw" "tc-bw $bw" "$(ets_show tc-bw)"
	expect_eq "$label: irdma num_tc" "$want_ntc" "$(tcval num_tc)"
	expect_eq "$label: irdma up2tc" "$want_up2tc" "$(tcline up2tc)"
	expect_eq "$label: irdma rdma_tc" "${want_up2tc%% *}" "$(tcval rdma_tc)"
}

E810_PROVIDER=stock round "2 TCs" "0:50 1:50 2:0 3:0 4:0 5:0 6:0 7:0" \
	"0:1 1:0 2:0 3:0 4:0 5:0 6:0 7:0" 2 "1 0 0 0 0 0 0 0"
if [ "$E810_PARENT" = ice ]; then
	# ice needs a Rx queue per TC: the guest's 2 CPUs give it 2
	# ("Trying to use more Rx queues (3), than were allocated (2)!").
	E810_PROVIDER=ours round "2 TCs swapped" "0:40 1:60 2:0 3:0 4:0 5:0 6:0 7:0" \
		"0:0 1:1 2:0 3:0 4:0 5:0 6:0 7:0" 2 "0 1 0 0 0 0 0 0"
else
	E810_PROVIDER=ours round "3 TCs" "0:30 1:30 2:40 3:0 4:0 5:0 6:0 7:0" \
		"0:2 1:1 2:0 3:0 4:0 5:0 6:0 7:0" 3 "2 1 0 0 0 0 0 0"
fi

# ets_nl PRIO BW: sends one IEEE ETS setting (8 comma-separated TCs per
# priority, 8 bandwidths; TSA ETS) for port 0 straight over rtnetlink, as
# dcb would without its own checks, and prints the errno the driver gave
# (0 on success). iproute2 6.1's dcb neither shows nor returns it.
ets_nl() {
	python3 - "$nd0" "$1" "$2" <<'EOF'
import socket, struct, sys
RTM_SETDCB, DCB_CMD_IEEE_SET, DCB_ATTR_IFNAME, DCB_ATTR_IEEE = 79, 20, 1, 13
DCB_ATTR_IEEE_ETS, NLMSG_ERROR, TSA_ETS = 1, 2, 2

def attr(kind, payload):
    n = 4 + len(payload)
    return struct.pack("=HH", n, kind) + payload + bytes(-n % 4)

prio = bytes(int(x) for x in sys.argv[2].split(","))
bw = bytes(int(x) for x in sys.argv[3].split(","))
tsa = bytes([TSA_ETS] * 8)
# struct ieee_ets: willing, ets_cap, cbs, tx_bw, rx_bw, tsa, prio_tc,
# reco_bw, reco_tsa, reco_prio_tc
ets = bytes([0, 8, 0]) + bw + bytes(8) + tsa + prio + bw + tsa + prio
body = struct.pack("=BBH", 0, DCB_CMD_IEEE_SET, 0)
body += attr(DCB_ATTR_IFNAME, sys.argv[1].encode() + b"\0")
body += attr(DCB_ATTR_IEEE, attr(DCB_ATTR_IEEE_ETS, ets))
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
s.bind((0, 0))
s.send(struct.pack("=IHHII", 16 + len(body), RTM_SETDCB, 1, 1, 0) + body)
msg = s.recv(65536)
length, kind = struct.unpack_from("=IH", msg)
if kind == NLMSG_ERROR:
    print(struct.unpack_from("=i", msg, 16)[0])
    sys.exit(0)
off = 16 + 4
while off + 4 <= length:
    n, t = struct.unpack_from("=HH", msg, off)
    if t == DCB_ATTR_IEEE and n == 5:
        print(struct.unpack_from("=b", msg, off + 4)[0])
        sys.exit(0)
    off += (n + 3) & ~3
print("no reply attribute")
sys.exit(1)
EOF
}

# bad_nl LABEL PRIO BW: the driver refuses with -EINVAL (-22, as ice
# does), counts the refusal (ice_lite's debugfs events ets_refused), sends
# no event and keeps the setting.
bad_nl() {
	local label=$1 c0 b0 e0 prio bw r
	shift
	c0=$(tcval changes) b0=$(nbefore) e0=$(ice_lite_ev "$d0" ets_refused)
	prio=$(ets_show prio-tc) bw=$(ets_show tc-bw)
	r=$(ets_nl "$1" "$2")
	expect_eq "$label: errno from ieee_setets" -22 "$r"
	expect_eq "$label: ice_lite refusals" $((e0 + 1)) "$(ice_lite_ev "$d0" ets_refused)"
	expect_eq "$label: no TC change in irdma" "$c0" "$(tcval changes)"
	expect_eq "$label: no BEFORE_TC_CHANGE" "$b0" "$(nbefore)"
	expect_eq "$label: prio-tc unchanged" "$prio" "$(ets_show prio-tc)"
	expect_eq "$label: tc-bw unchanged" "$bw" "$(ets_show tc-bw)"
}

# ice_lite's own checks and messages; the stock ice validates differently
# (it accepts TCs that are not contiguous and answers TC 9 with -EIO).
if [ "$E810_PARENT" = ice_lite ]; then
	bad_nl "bandwidth 150%" 0,0,0,0,0,0,0,1 100,50,0,0,0,0,0,0
	bad_nl "TCs 0 and 2 without 1" 2,0,0,0,0,0,0,0 50,0,50,0,0,0,0,0
	bad_nl "priority 3 to TC 9" 0,0,0,9,0,0,0,0 100,0,0,0,0,0,0,0
fi

# The dcb tool refuses these itself (rc 1); nothing reaches the driver.
for args in "tc-bw 0:100 1:50 2:0 3:0 4:0 5:0 6:0 7:0" "prio-tc 0:9"; do
	c0=$(tcval changes)
	prio=$(ets_show prio-tc)
	out=$(dcb ets set dev "$nd0" $args 2>&1) &&
		fail "dcb ets set $args accepted" ||
		ok "dcb ets set $args refused: $(tr '\n' ' ' <<<"$out")"
	expect_eq "dcb $args: no TC change" "$c0" "$(tcval changes)"
	expect_eq "dcb $args: prio-tc unchanged" "$prio" "$(ets_show prio-tc)"
done

# A valid setting over netlink is applied (the helper itself works).
r=$(ets_nl 0,0,0,0,0,0,0,0 100,0,0,0,0,0,0,0)
expect_eq "netlink: back to one TC" 0 "$r"
expect_eq "netlink: irdma num_tc" 1 "$(tcval num_tc)"
expect_eq "netlink: dcb ets show prio-tc" "prio-tc 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0" \
	"$(ets_show prio-tc)"
# Only the GSI QP is left: one qset, TC 0's.
expect_eq "netlink: qsets left" "0" "$(awk '$1 == "qset" { print $3 }' "$tcf" | tr '\n' ' ' | sed 's/ $//')"

# An unchanged setting is applied without an event (as ice).
c0=$(tcval changes)
dcb ets set dev "$nd0" prio-tc 0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 &&
	expect_eq "same setting again: no TC change" "$c0" "$(tcval changes)" ||
	fail "same setting again refused"

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
