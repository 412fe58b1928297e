#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: x722
# parent: i40e
# rdma-driver: ours
# timeout: 1200
# check: on-demand
# The card's resets on the X722 with our irdma's GEN_1 bound on both
# functions (docs/irdma.md "GEN_1"), both ports in init_net routed to each
# other over the wire (guest-lib.sh iwarp_two_hosts), our provider. Three
# resets that reach both PFs (docs/hw-model-x722.md, "Registers"): a core
# reset asked on function 0 (i40e's debugfs "corer", i40e_do_reset():
# GLGEN_RTRIG.CORER) while an rping runs between the functions, a global
# reset asked on function 1 (debugfs "globr"), and the firmware's EMP
# reset (QMP x-empr on function 0; i40e cannot ask for one). Per reset:
#  - the model did it on both functions (x-stats core_resets,
#    global_resets, emp_resets), i40e warned both (PFINT_ICR0.GRST) and
#    closed our client on each (irdma's debugfs events parent_resets);
#  - both ib_devices registered again (a new rdma index each), ACTIVE,
#    the engine up again on both (x-pe-stats: CQP, one QP: the ILQ);
#  - rping -V of 4 KiB x 20 between the functions (every iteration on
#    both sides, one offload per side);
#  - no offloaded connection, no irdma QP, APBVT and quad hash empty,
#    `rdma resource` of the irdma devices as at the start.
# The rping under the core reset ends (the devices go under it) and
# leaves nothing. At the end `rmmod irdma` takes both engines back to
# nothing; no DMA or HMC fault or bad MMIO access; clean dmesg.
. "$E810_LIB"

mapfile -t devs < <(e810_pci_devs)
[ "${#devs[@]}" -eq 2 ] || { fail "want 2 x722 functions, got ${#devs[@]}"; finish; }
d0=${devs[0]} d1=${devs[1]}
wait_for "[ -n \"\$(e810_ibdev_of $d0)\" ] && [ -n \"\$(e810_ibdev_of $d1)\" ]" 60 ||
	{ fail "ib_devices missing"; finish; }
nd0=$(e810_netdev_of "$d0") nd1=$(e810_netdev_of "$d1")
iwarp_hosts_ready "$nd0" "$nd1" || finish
E810_PROVIDER=${X722_RESET_PROVIDER:-ours} provider_env

irdma_qps() { rdma resource show qp 2>/dev/null | grep -c 'link irdma'; }
# res_summary: the resource counts of the irdma devices (rdma resource),
# without their names and indexes
res_summary() {
	rdma resource show 2>/dev/null | grep ' irdma' | sed 's/^[0-9]*: [^:]*: //' |
		sort | tr '\n' ';'
}
clean() {
	[ "$(irdma_qps)" = 0 ] && iw_tables_empty "$d0" && iw_tables_empty "$d1" &&
		[ "$(iw_stat "$d0" conns)" = 0 ] && [ "$(iw_stat "$d1" conns)" = 0 ]
}
all_gone() {
	if wait_for clean 60; then
		ok "$1: no connection in the engines, no irdma QP, tables empty"
	else
		fail "$1: conns $(iw_stat "$d0" conns)/$(iw_stat "$d1" conns), irdma QPs $(irdma_qps)"
		for d in "$d0" "$d1"; do
			echo "  $d: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-tables)"
		done
	fi
	expect_eq "$1: rdma resource of the irdma devices" "$res0" "$(res_summary)"
}
PORT=7400
# rping_check SIZE N: one rping_verified f0 -> f1, judged.
rping_check() {
	local o0 o1
	o0=$(iw_stat "$d0" offloads) o1=$(iw_stat "$d1" offloads)
	rping_verified "$1" "$2" $PORT 192.168.81.2 \
		"case ,\$(iw_table $d1 apbvt_ports), in *,$PORT,*) true ;; *) false ;; esac"
	if [ "$RC_C $RC_S $N_C $N_S" = "0 0 $2 $2" ]; then
		ok "$3: rping -V -S $1 -C $2: both exit 0, $2 iterations each side"
	else
		fail "$3: rping -V -S $1 -C $2: exit $RC_C/$RC_S, iterations $N_C/$N_S"
		tail -n 3 /tmp/rping-[cs].log /tmp/rping-[cs].err | sed 's/^/  /'
	fi
	expect_eq "$3: connections offloaded (client, server)" "1 1" \
		"$(($(iw_stat "$d0" offloads) - o0)) $(($(iw_stat "$d1" offloads) - o1))"
	PORT=$((PORT + 1))
}

res0=$(res_summary)
echo "rdma resource at start: $res0"
rping_check 4096 20 "before the resets"
all_gone "before the resets"

# ---- the resets ------------------------------------------------------------------

T_SEC=$SECONDS
for r in "corer 0 core_resets" "globr 1 global_resets" "empr 0 emp_resets"; do
	set -- $r
	kind=$1 via=${devs[$2]} key=$3
	declare -A n0 idx0 ev0
	for d in "$d0" "$d1"; do
		n0[$d]=$(model_stat "$d" "$key")
		idx0[$d]=$(ibdev_index "$(e810_ibdev_of "$d")")
		ev0[$d]=$(irdma_ev "$d" parent_resets)
	done
	live=""
	if [ $kind = corer ]; then
		# an rping that outlasts the reset
		timeout 120 rping -s -a 192.168.81.2 -p $PORT -v -S 64 -C 1000000 \
			>/tmp/live-s.log 2>&1 &
		lsp=$!
		wait_for "case ,\$(iw_table $d1 apbvt_ports), in *,$PORT,*) true ;; *) false ;; esac" 20
		timeout 120 rping -c -a 192.168.81.2 -p $PORT -v -S 64 -C 1000000 \
			>/tmp/live-c.log 2>&1 &
		lcp=$!
		wait_for "[ \$(grep -c 'ping data' /tmp/live-c.log) -ge 20 ]" 60 &&
			live=1 || fail "$kind: the live rping did not start: $(tail -2 /tmp/live-c.log)"
		PORT=$((PORT + 1))
	fi
	t0=$SECONDS
	if [ $kind = empr ]; then
		reply=$(host_qmp "{\"execute\":\"qom-set\",\"arguments\":{\"path\":\"/machine/peripheral/$(e810_qom_id "$via")\",\"property\":\"x-empr\",\"value\":true}}")
		case "$reply" in
		*'"return"'*) ok "$kind: the firmware's EMP reset asked through $via (QMP x-empr)" ;;
		*) fail "$kind: qom-set x-empr: $reply" ;;
		esac
	else
		echo $kind >"/sys/kernel/debug/i40e/$via/command" &&
			ok "$kind: asked through i40e's debugfs of $via" ||
			fail "$kind: i40e's debugfs command of $via refused"
	fi
	for d in "$d0" "$d1"; do
		wait_for "[ \"\$(model_stat $d $key)\" = $((n0[$d] + 1)) ]" 30 &&
			ok "$kind: the model reset $d ($key +1)" ||
			fail "$kind: $d $key $(model_stat "$d" "$key"), want $((n0[$d] + 1))"
	done
	if [ -n "$live" ]; then
		wait "$lcp"
		rc_c=$?
		wait "$lsp"
		rc_s=$?
		echo "$kind: the live rping ended: client rc $rc_c after $(grep -c 'ping data' /tmp/live-c.log) pings, server rc $rc_s"
		[ $rc_c != 124 ] && [ $rc_s != 124 ] &&
			ok "$kind: the rping under the reset ended (rc $rc_c/$rc_s)" ||
			fail "$kind: the rping under the reset hung (rc $rc_c/$rc_s)"
	fi
	for d in "$d0" "$d1"; do
		wait_for "[ -n \"\$(e810_ibdev_of $d)\" ] && [ \"\$(ibdev_index \$(e810_ibdev_of $d))\" != ${idx0[$d]} ]" 90 &&
			ok "$kind: $d's ib_device registered again ($(e810_ibdev_of "$d"), index ${idx0[$d]} -> $(ibdev_index "$(e810_ibdev_of "$d")"))" ||
			fail "$kind: $d's ib_device '$(e810_ibdev_of "$d")' index $(ibdev_index "$(e810_ibdev_of "$d")"), was ${idx0[$d]}"
		expect_eq "$kind: irdma's parent_resets of $d" $((ev0[$d] + 1)) \
			"$(irdma_ev "$d" parent_resets)"
	done
	rdma_wait_all_active 60 && ok "$kind: both ports ACTIVE again ($((SECONDS - t0)) s)" ||
		fail "$kind: ports not ACTIVE: $(rdma link show 2>&1 | tr '\n' ' ')"
	for d in "$d0" "$d1"; do
		expect_eq "$kind: $d engine CQP, QPs (the ILQ)" "1 1" \
			"$(pe_counts "$d" pe_cqp pe_qps)"
	done
	wait_for "ping -c 1 -W 1 192.168.81.2 >/dev/null 2>&1" 30 ||
		fail "$kind: no ping over the wire after the reset"
	rping_check 4096 20 "after the $kind"
	all_gone "after the $kind"
	echo "time: $kind $((SECONDS - T_SEC)) s"
	T_SEC=$SECONDS
done

# ---- the end ---------------------------------------------------------------------

for d in "$d0" "$d1"; do
	expect_eq "$d: CQP errors but refused late closes" "$(iw_stat "$d" late_closes)" \
		"$(pe_stat "$d" pe_cqp_errors)"
	for s in dma_errors hmc_faults mmio_bad_access; do
		expect_eq "$d: $s" 0 "$(model_stat "$d" $s)"
	done
done
rmmod irdma || fail "rmmod irdma"
wait_for "[ \$(ls /sys/class/infiniband 2>/dev/null | wc -l) = 0 ]" 30
expect_eq "ib_devices after rmmod irdma" 0 "$(ls /sys/class/infiniband 2>/dev/null | wc -l)"
for d in "$d0" "$d1"; do
	expect_eq "$d after rmmod: CQP, CEQs, AEQ, CQs, QPs, MAC entries" \
		"0 0 0 0 0 0" \
		"$(pe_counts "$d" pe_cqp pe_ceqs pe_aeq pe_cqs pe_qps pe_loc_macs)"
done
dmesg_clean >/dev/null && ok "no oops, warning or leak in dmesg" ||
	{ fail "dmesg shows problems"; dmesg_clean | head -40; }
finish
