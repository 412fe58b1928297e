#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice i40e
# timeout: 300
# boot: shared
# MTU 1500 -> 9000 -> 1500 on both ports while they run (ice_lite restarts
# the rings with Rx buffers sized for the new MTU; ice and i40e rebuild
# their VSIs): at 9000 an 8972-byte
# ping with DF (a 9000-byte IP packet) crosses both ways and 8973 bytes is
# refused locally; a jumbo frame sent to a port already back at 1500 is
# dropped by that port's Rx queue; at 1500 the 8000-byte DF ping fails and
# a 1472-byte one works. Out-of-range MTUs are refused. irdma counts the
# BEFORE/AFTER MTU events the parent sends for every change, on both aux
# devices, and the MTU they carried (debugfs events); ice_lite counts the
# changes it applied.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
expect_eq "NIC functions" 2 "${#devs[@]}"
a=$(e810_netdev_of "${devs[0]}")
b=$(e810_netdev_of "${devs[1]}")
e810_two_hosts "$a" "$b" || { fail "cannot set up the two hosts"; finish; }
ok "$a 192.168.81.1 and $b 192.168.81.2 (netns peer) up"

# The MTU events irdma counted (debugfs events) for each function, and the
# changes ice_lite applied, from here on. The stock ice sends AFTER only,
# later, from its service task (ice_service_task()).
declare -A mb0 ma0 mc0
for d in "${devs[@]}"; do
	mb0[$d]=$(irdma_ev "$d" mtu_before) ma0[$d]=$(irdma_ev "$d" mtu_after)
	mc0[$d]=$(ice_lite_ev "$d" mtu_changes)
done
# mtu_events DEV: "BEFORE AFTER MTU": events since the start, last MTU.
mtu_events() {
	echo "$(($(irdma_ev "$1" mtu_before) - ${mb0[$1]})) $(($(irdma_ev "$1" mtu_after) - ${ma0[$1]})) $(irdma_ev "$1" mtu)"
}
# check_mtu_events LABEL CHANGES MTU: each function saw CHANGES changes,
# the last one to MTU.
check_mtu_events() {
	local d want
	# No irdma on i40e here: nothing counts the MTU events.
	[ "$E810_PARENT" = i40e ] && return 0
	for d in "${devs[@]}"; do
		want="$2 $2 $3"
		[ "$E810_PARENT" = ice ] && want="0 $2 $3"
		wait_for "[ \"\$(mtu_events $d)\" = \"$want\" ]" 5
		expect_eq "$1: irdma MTU events of $d (before after mtu)" "$want" "$(mtu_events "$d")"
		[ "$E810_PARENT" = ice_lite ] &&
			expect_eq "$1: ice_lite MTU changes of $d" $((mc0[$d] + $2)) "$(ice_lite_ev "$d" mtu_changes)"
	done
}

# set_mtu MTU: both ports, then both must have it and a carrier again.
set_mtu() {
	ip link set "$a" mtu "$1" || fail "ip link set $a mtu $1"
	ip -n peer link set "$b" mtu "$1" || fail "ip -n peer link set $b mtu $1"
	expect_eq "$a MTU" "$1" "$(cat "/sys/class/net/$a/mtu")"
	expect_eq "$b MTU" "$1" "$(ip netns exec peer cat "/sys/class/net/$b/mtu")"
	wait_carrier "$a" 10 && wait_carrier "$b" 10 peer &&
		ok "carrier on both ports at MTU $1" ||
		fail "no carrier after the change to MTU $1"
}

# df_ping WHAT EXPECT SIZE [peer]: EXPECT is "works" or "fails".
df_ping() {
	local out st ns=() dst=192.168.81.2
	[ "$4" = peer ] && { ns=(ip netns exec peer); dst=192.168.81.1; }
	out=$("${ns[@]}" ping -c 3 -i 0.2 -W 2 -M do -s "$3" "$dst" 2>&1)
	st=$?
	if [ "$2" = works ]; then
		grep -q '3 packets transmitted, 3 received, 0% packet loss' <<<"$out" &&
			ok "$1: $(grep 'packets transmitted' <<<"$out")" ||
			fail "$1: $(tail -n 2 <<<"$out")"
	else
		[ $st != 0 ] && ! grep -q ' 0% packet loss' <<<"$out" &&
			ok "$1 fails: $(grep -m 1 -E 'error|packets transmitted' <<<"$out")" ||
			fail "$1 should fail: $(tail -n 2 <<<"$out")"
	fi
}

df_ping "1500: ping -s 1472 -M do" works 1472
df_ping "1500: ping -s 8000 -M do" fails 8000

set_mtu 9000
check_mtu_events "at 9000" 1 9000
df_ping "9000: ping -s 8000 -M do" works 8000
df_ping "9000: ping -s 8972 -M do" works 8972
df_ping "9000: ping -s 8972 -M do from the peer" works 8972 peer
df_ping "9000: ping -s 8973 -M do" fails 8973

# The peer's Rx queue now takes frames of at most its 1536-byte buffers.
# i40e sizes its queues' largest frame from the Rx buffer chain, not the
# MTU (i40e_max_vsi_frame_size(): 9728), so an X722 port takes it.
ip -n peer link set "$b" mtu 1500 || fail "ip -n peer link set $b mtu 1500"
[ "$E810_PARENT" = i40e ] ||
	df_ping "9000 to a peer at 1500: ping -s 8000 -M do" fails 8000

set_mtu 1500
df_ping "1500 again: ping -s 8000 -M do" fails 8000
df_ping "1500 again: ping -s 1472 -M do" works 1472
df_ping "1500 again: ping -s 1472 -M do from the peer" works 1472 peer

ip link set "$a" mtu 9703 2>/dev/null && fail "MTU 9703 accepted" || ok "MTU 9703 refused"
ip link set "$a" mtu 67 2>/dev/null && fail "MTU 67 accepted" || ok "MTU 67 refused"
expect_eq "$a MTU after refused changes" 1500 "$(cat "/sys/class/net/$a/mtu")"

# Each change counted once more; 1500 -> 9000 -> 1500 on both.
check_mtu_events "back at 1500" 2 1500
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
