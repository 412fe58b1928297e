# SPDX-License-Identifier: GPL-2.0-only
# Helpers for VM scenarios; tools/vm puts this file in every guest's share
# and scenarios source it with: . "$E810_LIB"
#
# A scenario records each check with ok/fail/expect_eq and ends with finish,
# which exits 1 if any check failed. skip exits 77 with a reason.

E810_FAILS=0

ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; E810_FAILS=$((E810_FAILS + 1)); }
skip() { echo "SKIP: $*"; exit 77; }

# expect_eq WHAT WANT GOT
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1 = $3"; else fail "$1: want '$2', got '$3'"; fi
}

finish() {
	if [ "$E810_FAILS" -gt 0 ]; then
		echo "$E810_FAILS check(s) failed"
		exit 1
	fi
	echo "all checks passed"
	exit 0
}

# PCI addresses of this run's emulated NIC functions, sorted: the E810
# (8086:1592), or the X722 (8086:37d0) when i40e is the parent (a two-port
# scenario then boots the x722 topology, tools/vm run_topology).
e810_pci_devs() {
	local d id=0x1592
	[ "$E810_PARENT" = i40e ] && id=0x37d0
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = 0x8086 ] && [ "$(cat "$d/device")" = $id ] &&
			echo "${d##*/}"
	done
}

# The parent driver of this run (tools/vm --parent, "# parent:" header).
E810_PARENT=${E810_PARENT:-ice_lite}

# The RDMA protocol of this run (tools/vm --rdma-protocol): roce or iwarp.
# The X722 has iWARP only: i40e publishes i40e.iwarp.<N>.
E810_RDMA_PROTOCOL=${E810_RDMA_PROTOCOL:-roce}
[ "$E810_PARENT" = i40e ] && E810_RDMA_PROTOCOL=iwarp

# The auxiliary RDMA device the parent published for PCI function $1 (none
# if absent): ice_lite.roce.<N>, or ice.roce.<N> under the stock ice;
# <parent>.iwarp.<N> in iWARP mode.
e810_aux_of() {
	local a
	for a in /sys/bus/auxiliary/devices/"$E810_PARENT.$E810_RDMA_PROTOCOL".*; do
		[ -e "$a" ] || continue
		[ "$(basename "$(readlink -f "$a/..")")" = "$1" ] && basename "$a"
	done
}

# Name of the netdev of PCI function $1 in this network namespace (none
# if it has none, or it lives in another namespace).
e810_netdev_of() {
	local n
	for n in "/sys/bus/pci/devices/$1/net/"*; do
		[ -e "$n" ] && basename "$n"
	done
}

# Waits up to $2 seconds (default 10) for netdev $1 to report a carrier;
# $3 names a network namespace to look in.
wait_carrier() {
	local ns=()
	[ -n "$3" ] && ns=(ip netns exec "$3")
	wait_for "[ \"\$(${ns[*]} cat /sys/class/net/$1/carrier 2>/dev/null)\" = 1 ]" "${2:-10}"
}

# ping_ok WHAT OUTPUT COUNT [WHERE]: ping's OUTPUT says all COUNT pings
# were answered; WHERE (e.g. the model's drop counters) goes with a
# failure.
ping_ok() {
	if grep -q "^$3 packets transmitted, $3 received, 0% packet loss" <<<"$2"; then
		ok "$1: $(grep 'packets transmitted' <<<"$2")"
	else
		fail "$1: $(grep 'packets transmitted' <<<"$2" || tail -n 3 <<<"$2")${4:+ ($4)}"
	fi
}

# Makes the two ports of a hub2 guest two hosts: port 0 ($1) stays in the
# root namespace as 192.168.81.1/24, port 1 ($2) moves into namespace
# "peer" as 192.168.81.2/24. Both are up with a carrier on return, or it
# fails.
e810_two_hosts() {
	# Set up before in this boot (a scenario that reloads irdma asks
	# again): the namespace and its port are still there.
	[ -e /run/netns/peer ] && return 0
	ip netns add peer || return 1
	ip link set "$2" netns peer || return 1
	ip addr add 192.168.81.1/24 dev "$1" || return 1
	ip link set "$1" up || return 1
	ip -n peer link set lo up || return 1
	ip -n peer addr add 192.168.81.2/24 dev "$2" || return 1
	ip -n peer link set "$2" up || return 1
	wait_carrier "$1" 10 && wait_carrier "$2" 10 peer
}

# e810_jumbo_hosts A B: e810_two_hosts A B, both at MTU 9000 with a
# carrier; records a failure, and returns 1 when the hosts cannot be set up.
e810_jumbo_hosts() {
	e810_two_hosts "$1" "$2" || { fail "cannot set up the two hosts"; return 1; }
	ip link set "$1" mtu 9000 && ip -n peer link set "$2" mtu 9000 ||
		fail "cannot set MTU 9000"
	wait_carrier "$1" 10 && wait_carrier "$2" 10 peer ||
		fail "no carrier at MTU 9000"
	ok "$1 192.168.81.1 and $2 192.168.81.2 (netns peer) up at MTU 9000"
}

# rdma_two_ports: the start of a scenario between the two e810 functions.
# Sets nd0/nd1 and ib0/ib1 (their netdevs and ib_devices), waits for both
# ports ACTIVE, makes them two hosts (e810_two_hosts: 192.168.81.1 here,
# .2 in namespace "peer") and sets g0/g1 to their RoCEv2 IPv4 GID
# indexes. Records a failure and returns 1 when any of it is missing.
rdma_two_ports() {
	local devs
	rdma_skip_unbindable
	devs=($(e810_pci_devs))
	[ "${#devs[@]}" -eq 2 ] ||
		{ fail "want 2 e810 functions, got ${#devs[@]}"; return 1; }
	# The RDMA driver may still be registering (the stock irdma on a
	# loaded host takes seconds after e810-init loaded it).
	wait_for "[ -n \"\$(e810_ibdev_of ${devs[0]})\" ] && [ -n \"\$(e810_ibdev_of ${devs[1]})\" ]" 30
	nd0=$(e810_netdev_of "${devs[0]}")
	nd1=$(e810_netdev_of "${devs[1]}")
	ib0=$(e810_ibdev_of "${devs[0]}")
	ib1=$(e810_ibdev_of "${devs[1]}")
	[ -n "$ib0" ] && [ -n "$ib1" ] ||
		{ fail "ib_devices missing ($ib0/$ib1)"; return 1; }
	rdma_wait_all_active 15 || fail "ports not ACTIVE"
	e810_two_hosts "$nd0" "$nd1" ||
		{ fail "could not set up the two hosts"; return 1; }
	wait_for "roce_gid_index $ib0 192.168.81.1 >/dev/null" 10 ||
		fail "no RoCEv2 GID for 192.168.81.1"
	wait_for "roce_gid_index $ib1 192.168.81.2 >/dev/null" 10 ||
		fail "no RoCEv2 GID for 192.168.81.2"
	g0=$(roce_gid_index "$ib0" 192.168.81.1)
	g1=$(roce_gid_index "$ib1" 192.168.81.2)
	[ -n "$g0" ] && [ -n "$g1" ] || return 1
	ok "GID indexes: $ib0 $g0, $ib1 $g1"
}

# rc_pingpong SIZE ITERS: ibv_rc_pingpong -c (payload checked) from $ib0
# to $ib1 (namespace peer; set by rdma_two_ports), with the provider the
# environment selects; succeeds when both sides report the iterations.
# Logs: /tmp/pp-client.log, /tmp/pp-server.log.
rc_pingpong() {
	ip netns exec peer timeout 60 ibv_rc_pingpong -d "$ib1" -g "$g1" -n "$2" \
		-s "$1" -c >/tmp/pp-server.log 2>&1 &
	local spid=$! crc src
	# The server listens once its QP exists: a slow (debug) kernel takes
	# more than a second.
	wait_for "ip netns exec peer ss -ltn | grep -q ':18515 '" 20 ||
		echo "note: pingpong server not listening after 20 s"
	timeout 60 ibv_rc_pingpong -d "$ib0" -g "$g0" -n "$2" -s "$1" -c \
		192.168.81.2 >/tmp/pp-client.log 2>&1
	crc=$?
	wait "$spid"
	src=$?
	[ $crc = 0 ] && [ $src = 0 ] &&
		grep -q "$2 iters in" /tmp/pp-client.log &&
		grep -q "$2 iters in" /tmp/pp-server.log
}

# Name of the driver bound to device path $1, or "none".
driver_of() {
	if [ -e "$1/driver" ]; then basename "$(readlink -f "$1/driver")"; else echo none; fi
}

# Name of the module of the driver bound to device path $1, or "none".
module_of() {
	if [ -e "$1/driver/module" ]; then
		basename "$(readlink -f "$1/driver/module")"
	else
		echo none
	fi
}

# nap SECONDS: sleeps without starting a process: read's timeout on a
# pipe nobody writes to (the descriptor holds its write end too, so it
# never sees end of file). Under TCG starting /bin/sleep costs 20-30 ms.
exec {E810_NAP_FD}<> <(:)
nap() {
	read -r -t "$1" -u "$E810_NAP_FD" _ || true
}

# Waits up to $2 seconds (default 10) for command $1 to succeed.
wait_for() {
	local i
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		eval "$1" && return 0
		nap 0.1
	done
	return 1
}

# The kernel log without what the debug kernel (tools/vm --kernel debug)
# prints that is not a report of ours: its boot banners, which name
# kmemleak, lockdep and use-after-free checks, and dma-debug's EEXIST
# warning for one buffer mapped by ib_umem_get() for several MRs (see
# tools/guest/debug-kernel.suppress), from its line to its end of trace.
# A scenario may also set E810_KNOWN_WARN to an extended regex naming the
# site of a warning that is a known bug of another subsystem, fixed
# upstream after the guest's kernel (the scenario says which commit, and
# prints how often it was seen): that warning's block is left out too.
# Arguments go to dmesg (e.g. --level=err,warn).
kernel_log() {
	dmesg "$@" | awk -v known="${E810_KNOWN_WARN:-}" '
		# A KASAN report is held until its closing rule: the debug
		# kernel'"'"'s early-boot one (an interrupt while the boot CPU
		# identifies itself, under start_kernel()'"'"'s
		# arch_cpu_finalize_init(), before init and any module) and
		# the stock irdma'"'"'s use-after-free of the MAD QP freed by
		# ib_mad_port_close() through a completion its timer-queued
		# flush work generated (both in
		# tools/guest/debug-kernel.suppress) are dropped, any other
		# printed whole.
		held != "" {
			held = held "\n" $0
			if (/^(\[ *[0-9.]+\])? +arch_cpu_finalize_init\+0x/) early = 1
			if (/^(\[ *[0-9.]+\])? +ib_mad_port_close\+0x/) madclose = 1
			if (/^(\[ *[0-9.]+\])? +call_timer_fn\+0x/) timerwork = 1
			if (/=================================================/) {
				if (!early && !(cqeuaf && madclose && timerwork))
					print held
				held = ""; early = cqeuaf = madclose = timerwork = 0
			}
			next
		}
		/BUG: KASAN: wild-memory-access in do_raw_spin_lock/ {
			held = $0; next
		}
		/BUG: KASAN: slab-use-after-free in irdma_process_cqe\+0x[0-9a-f]+\/0x[0-9a-f]+ \[irdma\]/ {
			held = $0; cqeuaf = 1; next
		}
		known != "" && /WARNING: / && $0 ~ known { skip = 1 }
		/DMA-API: .*cacheline tracking EEXIST, overlapping mappings/ { skip = 1 }
		skip { if (/---\[ end trace/) skip = 0; next }
		/kmemleak: Kernel memory leak detector initialized/ { next }
		/RCU callback double-\/use-after-free debug is enabled/ { next }
		/RCU lockdep checking is enabled/ { next }
		{ print }
		END { if (held != "") print held }'
}

# Lines of the kernel log that mean a bug: oopses, warnings, leaks, memory
# corruption reports. Prints them; succeeds when there are none.
dmesg_clean() {
	local bad log
	log=$(kernel_log)
	bad=$(grep -E 'Oops:|BUG:|WARNING:|Call Trace:|general protection fault|unreferenced object|refcount_t:|use-after-free|KASAN|UBSAN|list_(add|del) corruption|double free|sleeping function called|kobject.*already|sysfs: cannot create duplicate' <<<"$log"
	      grep -i 'leak' <<<"$log")
	[ -z "$bad" ] && return 0
	echo "$bad"
	return 1
}

# dmesg_mark: remembers how long the kernel log is now; new_dmesg then
# prints the lines logged after that.
dmesg_mark() {
	E810_DMESG_MARK=$(dmesg | wc -l)
}

new_dmesg() {
	dmesg | tail -n +$((${E810_DMESG_MARK:-0} + 1))
}

# ---- RDMA (irdma) -------------------------------------------------------

# Loads the irdma of this run (E810_RDMA_DRIVER): ours from updates/, or
# the guest kernel's own, kept outside the module tree (tools/mkguest.sh),
# after what it links against (its modinfo depends: i40e, idpf from 7.x).
irdma_load() {
	if [ "${E810_RDMA_DRIVER:-ours}" = stock ]; then
		# shellcheck disable=SC2046
		modprobe -a ib_uverbs $(modinfo -F depends \
			/usr/lib/e810-stock/irdma.ko* | tr , ' ') &&
			insmod /usr/lib/e810-stock/irdma.ko*
	else
		modprobe irdma
	fi
}

# Name of the ib_device of PCI function $1 (none if it has none).
e810_ibdev_of() {
	local i
	for i in "/sys/bus/pci/devices/$1/infiniband/"*; do
		[ -e "$i" ] && basename "$i"
	done
}

# ib_device index of $1 (rdma dev show's "N:"): a new registration of a
# device gets a new index, also under the same name.
ibdev_index() {
	rdma dev show "$1" 2>/dev/null | sed -n '1s/^\([0-9]*\): .*/\1/p'
}

# port_parent_reset PCI NETDEV [NETNS]: resets the parent of one e810
# function the way its driver offers: the stock ice through the PCI
# function reset (sysfs), ice_lite through ethtool --reset. The RDMA
# device of the function goes away and, asynchronously, comes back.
port_parent_reset() {
	local ns=()
	[ -n "$3" ] && ns=(ip netns exec "$3")
	if [ "$E810_PARENT" = ice ]; then
		echo 1 >"/sys/bus/pci/devices/$1/reset"
	else
		"${ns[@]}" ethtool --reset "$2" irq dma filter offload
	fi
}

# wait_ibdev_back PCI OLD_INDEX SECONDS: waits until PCI function PCI has
# an ib_device registered after the one of index OLD_INDEX, port 1
# ACTIVE; prints its name.
wait_ibdev_back() {
	local name
	wait_for "name=\$(e810_ibdev_of $1) && [ -n \"\$name\" ] &&
		[ \"\$(ibdev_index \$name)\" != '$2' ] &&
		[ \"\$(rdma_port_state \$name)\" = ACTIVE ]" "$3" || return 1
	echo "$name"
}

# State word of port 1 of ib_device $1 as `rdma link` shows it (ACTIVE,
# DOWN, ...), or empty.
rdma_port_state() {
	rdma link show "$1/1" 2>/dev/null | sed -n 's/.* state \([A-Z_]*\) .*/\1/p'
}

# Waits up to $3 seconds (default 10) for port 1 of $1 to be in state $2.
wait_port_state() {
	wait_for "[ \"\$(rdma_port_state $1)\" = $2 ]" "${3:-10}"
}

# Value of field $2 of ib_device $1 in `ibv_devinfo -v` (first match).
ibv_attr() {
	ibv_devinfo -v -d "$1" 2>/dev/null |
		awk -v k="$2:" '$1 == k { $1 = ""; sub(/^ +/, ""); print; exit }'
}

# Committed count of HMC object $2 of auxiliary device $1 (irdma debugfs).
hmc_count() {
	awk -v o="$2" '$1 == o && NF >= 7 { print $3; exit }' \
		"/sys/kernel/debug/irdma/$1/hmc"
}

# Skips (77) the scenario when our irdma cannot bind to the parent: under
# the stock ice, an irdma built without its binding (Kbuild found no ice
# source: drivers/infiniband/hw/irdma/Kbuild, ICE_SRC).
rdma_skip_unbindable() {
	[ "${E810_PARENT:-ice_lite}" = ice ] &&
		[ "${E810_RDMA_DRIVER:-ours}" = ours ] || return 0
	modinfo -F alias irdma 2>/dev/null | grep -qx 'auxiliary:ice\.roce' ||
		skip "our irdma was built without the stock-ice binding (no ice source at build time)"
}

# Waits until both functions have an ib_device whose port is ACTIVE
# (brings the netdevs up first). Fails after $1 seconds (default 15).
rdma_wait_all_active() {
	local d nd ib
	rdma_skip_unbindable
	for d in $(e810_pci_devs); do
		nd=$(e810_netdev_of "$d")
		[ -n "$nd" ] && ip link set "$nd" up
	done
	for d in $(e810_pci_devs); do
		wait_for "[ -n \"\$(e810_ibdev_of $d)\" ]" "${1:-15}" || return 1
		ib=$(e810_ibdev_of "$d")
		wait_port_state "$ib" ACTIVE "${1:-15}" || return 1
	done
}

# ---- NVMe over Fabrics ---------------------------------------------------
# The target is nvmet configured through configfs, the host connects
# through /dev/nvme-fabrics with the option string nvme-cli would write
# (drivers/nvme/host/fabrics.c, nvmf_dev_write()): the guest has no
# nvme-cli.

NVMET=/sys/kernel/config/nvmet

# nvmet_export NQN DEVICE PORTID TRTYPE TRADDR TRSVCID: subsystem NQN (any
# host allowed) with namespace 1 on block device DEVICE, linked to a new
# nvmet port PORTID of transport TRTYPE (rdma, tcp) at IPv4 TRADDR:TRSVCID.
nvmet_export() {
	local s=$NVMET/subsystems/$1 p=$NVMET/ports/$3
	mkdir "$s" && echo 1 >"$s/attr_allow_any_host" &&
		mkdir "$s/namespaces/1" &&
		echo "$2" >"$s/namespaces/1/device_path" &&
		echo 1 >"$s/namespaces/1/enable" &&
		mkdir "$p" && echo "$4" >"$p/addr_trtype" &&
		echo ipv4 >"$p/addr_adrfam" && echo "$5" >"$p/addr_traddr" &&
		echo "$6" >"$p/addr_trsvcid" &&
		ln -s "$s" "$p/subsystems/$1"
}

# nvmet_unexport NQN PORTID: removes what nvmet_export made (the port
# first: nvmet then stops listening on it).
nvmet_unexport() {
	rm -f "$NVMET/ports/$2/subsystems/$1" && rmdir "$NVMET/ports/$2" &&
		echo 0 >"$NVMET/subsystems/$1/namespaces/1/enable" &&
		rmdir "$NVMET/subsystems/$1/namespaces/1" "$NVMET/subsystems/$1"
}

# nvme_connect TRANSPORT TRADDR TRSVCID HOST_TRADDR NQN: connects a
# controller to subsystem NQN at TRADDR:TRSVCID from local address
# HOST_TRADDR, keeps its instance number in /tmp/nvme-TRANSPORT.inst
# (for /sys/class/nvme/nvme<N>/delete_controller) and prints the block
# device of namespace 1 once it exists (20 s at most); fails otherwise.
nvme_connect() {
	local line inst d i
	exec 5<>/dev/nvme-fabrics || return 1
	printf "transport=%s,traddr=%s,trsvcid=%s,host_traddr=%s,nqn=%s" \
		"$1" "$2" "$3" "$4" "$5" >&5 || { exec 5<&-; return 1; }
	read -r line <&5
	exec 5<&-
	inst=$(sed -n 's/.*instance=\([0-9]*\).*/\1/p' <<<"$line")
	[ -n "$inst" ] || return 1
	echo "$inst" >"/tmp/nvme-$1.inst"
	for ((i = 0; i < 100; i++)); do
		# nvmeXnY without multipath, nvmeXcZnY (a path of head nvmeXnY) with
		for d in /sys/class/nvme/nvme$inst/nvme*n*; do
			[ -e "$d" ] || continue
			d=$(basename "$d" | sed 's/c[0-9]*n/n/')
			[ -b "/dev/$d" ] && { echo "/dev/$d"; return 0; }
		done
		nap 0.2
	done
	return 1
}

# ---- host requests -------------------------------------------------------

# host_qmp JSON [TIMEOUT]: has the runner send QMP command JSON to this
# guest's QEMU (e.g. qom-set on /machine/peripheral/e810-0) and prints
# QEMU's reply. Fails if no reply arrives within TIMEOUT seconds (default
# 20) or the reply is an error.
host_qmp() {
	local share=/mnt/host reply i
	rm -f "$share/qmp-reply"
	printf '%s\n' "$1" >"$share/qmp-request.tmp" || return 1
	mv "$share/qmp-request.tmp" "$share/qmp-request" || return 1
	# the relay answers within milliseconds (tools/vm-qmp-relay.py)
	for ((i = 0; i < ${2:-20} * 100; i++)); do
		[ -f "$share/qmp-reply" ] && break
		nap 0.01
	done
	[ -f "$share/qmp-reply" ] || {
		echo "host_qmp: no reply within ${2:-20}s"
		return 1
	}
	reply=$(<"$share/qmp-reply")
	rm -f "$share/qmp-reply"
	echo "$reply"
	case "$reply" in *'"return"'*) return 0 ;; esac
	return 1
}

# ---- rdma_rxe peer ------------------------------------------------------

# Name of the virtio-net netdev (topology rxe), loading virtio_net first:
# the guest only autoloads our modules. Empty if none shows up in 10 s.
virtio_netdev() {
	local n i
	modprobe virtio_net 2>/dev/null
	for i in $(seq 50); do
		for n in /sys/class/net/*; do
			[ "$(basename "$(readlink -f "$n/device/driver" 2>/dev/null)")" = virtio_net ] &&
				{ basename "$n"; return 0; }
		done
		sleep 0.2
	done
	return 1
}

# ---- provider choice ------------------------------------------------------

# Selects the rdma-core irdma provider for what the script runs next:
# E810_PROVIDER=stock (default) is rdma-core's own, "ours" is
# provider-irdma (installed in <provider dir>/e810/). Sets
# E810_PROVIDER_NAME for messages.
provider_env() {
	case "${E810_PROVIDER:-stock}" in
	ours)
		export RDMAV_DRIVERS=/usr/lib/x86_64-linux-gnu/libibverbs/e810/libirdma
		E810_PROVIDER_NAME=ours
		;;
	*)
		unset RDMAV_DRIVERS
		E810_PROVIDER_NAME=stock
		;;
	esac
}

# ---- RoCE helpers shared by scenarios --------------------------------------

# roce_gid_index IBDEV IPV4: index of the RoCEv2 GID of IPv4 address IPV4
# (its ::ffff: mapped form) on port 1 of IBDEV; fails if there is none.
roce_gid_index() {
	local want port=/sys/class/infiniband/$1/ports/1 i
	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' ${2//./ })
	for i in $(ls "$port/gids" 2>/dev/null | sort -n); do
		[ "$(cat "$port/gids/$i" 2>/dev/null)" = "$want" ] &&
			[ "$(cat "$port/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] &&
			{ echo "$i"; return 0; }
	done
	return 1
}

# e810_xport_stats QOM_ID: the model's RoCE transport counters of device
# QOM_ID (e810-0, e810-1) through qom-get x-xport-stats, as
# "name=value name=value ..."; fails if QEMU does not answer.
e810_xport_stats() {
	e810_qom_str "$1" x-xport-stats
}

# e810_qom_str ID PROPERTY: a string property of QEMU device ID (e810-0,
# e810-1), read over QMP from the host; fails if QEMU refuses.
e810_qom_str() {
	local reply
	reply=$(host_qmp "{\"execute\":\"qom-get\",\"arguments\":{\"path\":\"/machine/peripheral/$1\",\"property\":\"$2\"}}") ||
		return 1
	sed -n 's/.*"return": *"\([^"]*\)".*/\1/p' <<<"$reply"
}

# The QEMU id of PCI function $1: e810-<its position among the e810s>
# (x722-<N> under i40e).
e810_qom_id() {
	local i=0 d kind=e810
	[ "$E810_PARENT" = i40e ] && kind=x722
	for d in $(e810_pci_devs); do
		[ "$d" = "$1" ] && { echo "$kind-$i"; return; }
		i=$((i + 1))
	done
}

# model_hmc_count DEV TYPE: the count of HMC object TYPE (QP, CQ, MR,
# FSIAV, PBLE) the driver of PCI function DEV committed, as the device
# model saw COMMIT_FPM_VAL (whatever the driver says about itself).
model_hmc_count() {
	e810_qom_str "$(e810_qom_id "$1")" x-hmc-counts | tr ' ' '\n' |
		sed -n "s/^$2=//p"
}

# pe_stat DEV NAME: field NAME (pe_cqp, pe_qps, pe_cqp_errors, ...) of the
# X722's RDMA protocol engine of PCI function DEV (QMP x-pe-stats,
# docs/hw-model-x722.md).
pe_stat() {
	e810_qom_str "$(e810_qom_id "$1")" x-pe-stats | tr ' ' '\n' |
		sed -n "s/^$2=//p"
}

# pe_counts DEV NAME...: the fields NAME... of pe_stat, space-separated.
pe_counts() {
	local s k out=()
	s=$(e810_qom_str "$(e810_qom_id "$1")" x-pe-stats | tr ' ' '\n')
	shift
	for k in "$@"; do out+=("$(sed -n "s/^$k=//p" <<<"$s")"); done
	echo "${out[*]}"
}

# model_stat DEV NAME: the device's own counter or state NAME (pf_resets,
# valid_sds, ...: QMP x-core-stats) of PCI function DEV, read from the host.
model_stat() {
	local prop=x-core-stats
	[ "$E810_PARENT" = i40e ] && prop=x-stats	# the X722's counters
	e810_qom_str "$(e810_qom_id "$1")" $prop | tr ' ' '\n' |
		sed -n "s/^$2=//p"
}

# iw_table DEV NAME: field NAME (mode, apbvt, qhash, rx_to_ilq, ilq_tx,
# apbvt_ports, qhash_entries, ...) of the device model's iWARP tables of
# PCI function DEV (QMP x-iwarp-tables, docs/hw-model.md).
iw_table() {
	e810_qom_str "$(e810_qom_id "$1")" x-iwarp-tables | tr ' ' '\n' |
		sed -n "s/^$2=//p"
}

# irdma_ev DEV NAME: event counter NAME of PCI function DEV in our irdma's
# debugfs (drivers/infiniband/hw/irdma/events.c, docs/debugging.md); kept
# from the function's first bind until irdma unloads. Empty without the
# file (no irdma, or the stock one).
irdma_ev() {
	local k v
	[ -r "/sys/kernel/debug/irdma/events/$1" ] || return 0
	while read -r k v; do
		[ "$k" = "$2" ] && { echo "$v"; return 0; }
	done <"/sys/kernel/debug/irdma/events/$1"
}

# ice_lite_ev DEV NAME: counter NAME of PCI function DEV in ice_lite's
# debugfs "events" (ice_lite_debugfs.c); empty without the file.
ice_lite_ev() {
	local k v
	[ -r "/sys/kernel/debug/ice_lite/$1/events" ] || return 0
	while read -r k v; do
		[ "$k" = "$2" ] && { echo "$v"; return 0; }
	done <"/sys/kernel/debug/ice_lite/$1/events"
}

# xport_stat STATS NAME: the value of NAME in an e810_xport_stats line
# (empty if absent).
xport_stat() {
	tr ' ' '\n' <<<"$1" | sed -n "s/^$2=\([0-9]*\)\$/\1/p"
}

# wait_sending PID QOM_ID STALL_S: waits for PID (a traffic program started
# in the background) as long as device QOM_ID keeps sending: the model's
# tx_packets must grow at least once in every STALL_S seconds. A loaded
# host makes a TCG round trip 20-40 times slower than a calibration taken
# a moment earlier, so a fixed time limit cannot tell slow from stuck;
# this can. Returns PID's exit status, or 125 after killing PID when
# nothing was sent for STALL_S seconds (WAIT_STALLED=1 then).
wait_sending() {
	local pid=$1 dev=$2 stall=$3 last="" now since=$SECONDS
	WAIT_STALLED=0
	while kill -0 "$pid" 2>/dev/null; do
		now=$(xport_stat "$(e810_xport_stats "$dev")" tx_packets)
		# no answer from QEMU: no verdict either
		if [ -z "$now" ] || [ "$now" != "$last" ]; then
			last=$now since=$SECONDS
		elif ((SECONDS - since >= stall)); then
			WAIT_STALLED=1
			kill "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			return 125
		fi
		nap 2
	done
	wait "$pid"
}

# hw_counter IBDEV NAME: one hardware counter of port 1 (rdma statistic).
# The stock irdma of 7.x names the TCP and iWARP counters without their
# "tcp" and "iw" prefixes (OutSegs, InRdmaReads, ...; its
# irdma_hw_stat_descs): a name missing is looked up that way too.
hw_counter() {
	rdma statistic show link "$1/1" | tr ' ' '\n' |
		awk -v k="$2" -v k2="$(sed 's/^\(tcp\|iw\)\([A-Z]\)/\2/' <<<"$2")" '
			f { print; exit } $0 == k { f = 1; next }
			$0 == k2 { g = 1; next }
			g { v = $0; g = 0 }
			END { if (!f && v != "") print v }'
}

# hw_counters_snap TAG: counters of both ports and both models into
# HC_<TAG>_*.
hw_counters_snap() {
	local i ib st
	for i in 0 1; do
		ib=ib$i
		st=$(e810_xport_stats "e810-$i")
		eval "HC_$1_out$i=$(hw_counter "${!ib}" ip4OutPkts)"
		eval "HC_$1_in$i=$(hw_counter "${!ib}" ip4InPkts)"
		eval "HC_$1_oct$i=$(hw_counter "${!ib}" ip4OutOctets)"
		eval "HC_$1_snd$i=$(hw_counter "${!ib}" iwOutRdmaSends)"
		eval "HC_$1_rsnd$i=$(hw_counter "${!ib}" iwInRdmaSends)"
		eval "HC_$1_mtx$i=$(xport_stat "$st" tx_packets)"
		eval "HC_$1_mrx$i=$(xport_stat "$st" rx_packets)"
	done
}

# hw_counters_check: `rdma statistic show` (GATHER_STATS) of both ports
# moves with an RC pingpong of 100 x 4 KiB and agrees with the model's
# own transport counters (QMP x-xport-stats): IPv4 packets sent and
# received per port, at least the payload in IPv4 octets, and exactly the
# SEND messages the test made. Needs rdma_two_ports.
hw_counters_check() {
	local i ib d_out d_mtx d_in d_mrx
	hc_delta() { echo $(( $(eval echo "\$HC_b_$1") - $(eval echo "\$HC_a_$1") )); }
	[ -n "$(hw_counter "$ib0" ip4OutPkts)" ] && ok "$ib0 has hardware counters" ||
		fail "$ib0: no ip4OutPkts in rdma statistic show: $(rdma statistic show link "$ib0/1" 2>&1 | head -c 300)"
	hw_counters_snap a
	rc_pingpong 4096 100 && ok "pingpong 4 KiB x 100 with payload checks" ||
		fail "pingpong 4 KiB x 100: $(tail -n 2 /tmp/pp-client.log) / $(tail -n 2 /tmp/pp-server.log)"
	hw_counters_snap b
	for i in 0 1; do
		ib=ib$i
		d_out=$(hc_delta out$i) d_mtx=$(hc_delta mtx$i)
		[ "$d_out" -gt 100 ] && [ "$d_out" = "$d_mtx" ] &&
			ok "${!ib} ip4OutPkts +$d_out = model tx_packets +$d_mtx" ||
			fail "${!ib} ip4OutPkts +$d_out, model tx_packets +$d_mtx"
		d_in=$(hc_delta in$i) d_mrx=$(hc_delta mrx$i)
		[ "$d_in" -gt 100 ] && [ "$d_in" = "$d_mrx" ] &&
			ok "${!ib} ip4InPkts +$d_in = model rx_packets +$d_mrx" ||
			fail "${!ib} ip4InPkts +$d_in, model rx_packets +$d_mrx"
		[ "$(hc_delta oct$i)" -ge $((100 * 4096)) ] &&
			ok "${!ib} ip4OutOctets +$(hc_delta oct$i) (>= 100 x 4 KiB)" ||
			fail "${!ib} ip4OutOctets +$(hc_delta oct$i), less than 100 x 4 KiB"
		expect_eq "${!ib} iwOutRdmaSends (100 SENDs)" 100 "$(hc_delta snd$i)"
		expect_eq "${!ib} iwInRdmaSends (100 SENDs)" 100 "$(hc_delta rsnd$i)"
	done
}

# ---- tool output ----------------------------------------------------------

# bad_lines FILE...: the lines of an ibverbs-utils or perftest output that
# mean a work request or the data failed: an error completion ("Failed
# status ..." from the pingpongs, "Completion with error" from perftest),
# a flush, retry/RNR exhaustion, or a pingpong -c payload mismatch. Any
# other failure of these tools shows in their exit status, so a word like
# "fail" alone is not taken. Succeeds when there is at least one.
bad_lines() {
	grep -iE 'failed status|completion with error|flush|retry|exceeded|invalid data' "$@"
}

# ---- perftest -------------------------------------------------------------

# The TCP port of every run, and the inline size of the latency tests:
# perftest's defaults (220/236 B) exceed GEN_2's 101-byte inline limit
# and QP creation fails with EINVAL, exactly as on a real E810
# (github.com/linux-rdma/perftest/issues/139).
PERFTEST_PORT=18515
PERFTEST_INLINE=96

# result_row FILE: the result row of a perftest output, the line after
# its "#bytes" header, with runs of blanks/tabs squeezed.
result_row() {
	awk '/^ *#bytes/ { getline; $1 = $1; print; exit }' "$1"
}

# perftest_argv TEST DEV GID SIZE ITERS PORT: sets PT_ARGV to one side's
# command line: TEST (ib_write_bw, ib_send_lat, ...) on ib_device DEV with
# RoCE GID index GID, -F (no CPU frequency check), -I for latency tests,
# then the words of PERFTEST_EXTRA (both sides, e.g. "-q 4": four QPs).
perftest_argv() {
	PT_ARGV=("$1" -d "$2" -x "$3" -s "$4" -n "$5" -p "$6" -F)
	if [ "${1%_lat}" != "$1" ]; then
		PT_ARGV+=(-I "$PERFTEST_INLINE")
	fi
	# shellcheck disable=SC2206 # word splitting is the point
	[ -n "${PERFTEST_EXTRA:-}" ] && PT_ARGV+=($PERFTEST_EXTRA)
	return 0
}

# perftest_run TEST SIZE ITERS SDEV SGID CDEV CGID SERVER_IP [NS]: one
# perftest run on PERFTEST_PORT: the server on SDEV (GID index SGID) in
# network namespace NS (the root one if none), the client on CDEV (GID
# index CGID) connecting to SERVER_IP. The client is pinned to vCPU 0 and
# the server to vCPU 1: perftest times with rdtsc, and the guest marks its
# TSCs unstable under TCG. The client gets PERFTEST_TIMEOUT seconds
# (default 110), the server 10 more. Sets PT_CRC and PT_SRC (the exit
# statuses), PT_MS (the wall time in ms), PT_CROW and PT_SROW (the result
# rows) and PT_CLI and PT_SRV (the output files; perftest_clean removes
# them).
# shellcheck disable=SC2034
perftest_run() {
	local ns=() t0 sp to=${PERFTEST_TIMEOUT:-110}
	[ -n "$9" ] && ns=(ip netns exec "$9")
	PT_SRV=$(mktemp) PT_CLI=$(mktemp)
	t0=$(date +%s%N)
	perftest_argv "$1" "$4" "$5" "$2" "$3" "$PERFTEST_PORT"
	"${ns[@]}" timeout $((to + 10)) taskset -c 1 "${PT_ARGV[@]}" >"$PT_SRV" 2>&1 &
	sp=$!
	wait_for "${ns[*]} ss -ltn | grep -q ':$PERFTEST_PORT '" 20 ||
		echo "note: perftest server not listening after 20 s"
	perftest_argv "$1" "$6" "$7" "$2" "$3" "$PERFTEST_PORT"
	timeout "$to" taskset -c 0 "${PT_ARGV[@]}" "$8" >"$PT_CLI" 2>&1
	PT_CRC=$?
	wait "$sp"
	PT_SRC=$?
	PT_MS=$((($(date +%s%N) - t0) / 1000000))
	PT_CROW=$(result_row "$PT_CLI")
	PT_SROW=$(result_row "$PT_SRV")
}

# perftest_iw_run TEST SIZE ITERS SERVER_IP LISTENING: one perftest run
# over rdma_cm (-R, iWARP: no GID) on PERFTEST_PORT, the words of
# PERFTEST_EXTRA on both sides: the server listens on every address, the
# client starts once shell command LISTENING succeeds (an iWARP listener
# has no socket: e.g. the port in the model's APBVT) and connects to
# SERVER_IP. Pinned, timed and reported as perftest_run (PT_CRC, PT_SRC,
# PT_MS, PT_CROW, PT_SROW, PT_CLI, PT_SRV). With one CPU online both on
# CPU 0.
# shellcheck disable=SC2034
perftest_iw_run() {
	local t0 sp to=${PERFTEST_TIMEOUT:-110} argv
	# shellcheck disable=SC2206 # word splitting is the point
	argv=("$1" -R -F -s "$2" -n "$3" -p "$PERFTEST_PORT" ${PERFTEST_EXTRA:-})
	PT_SRV=$(mktemp) PT_CLI=$(mktemp)
	t0=$(date +%s%N)
	timeout $((to + 10)) taskset -c $((1 % $(nproc))) "${argv[@]}" >"$PT_SRV" 2>&1 &
	sp=$!
	wait_for "$5" 20 || echo "note: no $1 listener on port $PERFTEST_PORT after 20 s"
	timeout "$to" taskset -c 0 "${argv[@]}" "$4" >"$PT_CLI" 2>&1
	PT_CRC=$?
	wait "$sp"
	PT_SRC=$?
	PT_MS=$((($(date +%s%N) - t0) / 1000000))
	PT_CROW=$(result_row "$PT_CLI")
	PT_SROW=$(result_row "$PT_SRV")
}

# perftest_dump CMD...: both outputs of the last perftest_run without
# blank and ruler lines, each through CMD (head -40, tail -12), prefixed
# with its side. perftest's errors go to stderr, unbuffered, so they land
# above its buffered stdout in the file, not at the end.
perftest_dump() {
	grep -vE '^ *$|^-+$' "$PT_CLI" | "$@" | sed 's/^/  client: /'
	grep -vE '^ *$|^-+$' "$PT_SRV" | "$@" | sed 's/^/  server: /'
}

perftest_clean() {
	rm -f "$PT_SRV" "$PT_CLI"
}

# perftest_bw_why SIZE ITERS ROW [SIDE]: prints why bandwidth result row
# ROW (of side SIDE, "client" or "server") is wrong and fails, or
# succeeds: it must be for SIZE bytes and ITERS iterations, with a plain
# decimal, non-zero BW average (perftest prints "inf" when its cycle
# arithmetic goes wrong).
perftest_bw_why() {
	awk -v s="$1" -v n="$2" -v r="$3" -v w="${4:-result}" '
	BEGIN {
		split(r, a, " ")
		if (a[1] != s || a[2] != n) { print w " row \"" r "\""; exit 1 }
		if (a[4] !~ /^[0-9]+(\.[0-9]+)?$/ || !(a[4] > 0)) {
			print w ": zero or unparseable bandwidth: " r; exit 1 }
	}'
}

# iwarp_two_hosts ND0 ND1: both ports stay in init_net as 192.168.81.1
# (ND0) and .2 (ND1), routed to each other over the wire: the stock irdma
# resolves a listener's neighbour in init_net only (upstream
# irdma_addr_resolve_neigh()), so iWARP scenarios cannot use e810_two_hosts'
# namespace. Locally generated packets take table 100 (each address
# through the other port) before the local table, so rdma_cm and irdma see
# two hosts; each port accepts the other's local source. The rules stay
# until the guest powers off: scenarios using this boot alone (no
# "boot: shared").
iwarp_two_hosts() {
	iwarp_host_port all && iwarp_host_port "$1" 192.168.81.1 192.168.81.2 &&
		iwarp_host_port "$2" 192.168.81.2 192.168.81.1 &&
		ip rule add pref 10 iif lo table 100 &&
		ip rule add pref 100 table local &&
		ip rule del pref 0 table local || return 1
	wait_carrier "$1" 10 && wait_carrier "$2" 10
}

# iwarp_hosts_ready ND0 ND1: iwarp_two_hosts, then both ports ACTIVE and a
# ping across the wire, each judged; returns 1 (after a fail) when the two
# hosts could not be set up.
iwarp_hosts_ready() {
	iwarp_two_hosts "$1" "$2" || { fail "could not set up the two hosts"; return 1; }
	rdma_wait_all_active 30 && ok "rdma link: both ports ACTIVE" ||
		fail "ports not ACTIVE: $(rdma link show 2>&1 | tr '\n' ' ')"
	ping -c 2 -W 2 192.168.81.2 >/dev/null && ok "ping 192.168.81.2 over the wire" ||
		fail "no ping between the ports"
}

# iwarp_host_port ND [ADDR PEER]: netdev ND (or "all") as one host of
# iwarp_two_hosts: its sysctls, and with ADDR its address, up, and its
# route to PEER in table 100; again for a netdev that came back (a parent
# unbound and bound, reloaded) while the rules stay.
iwarp_host_port() {
	sysctl -qw net.ipv4.conf.$1.accept_local=1 \
		net.ipv4.conf.$1.rp_filter=0 \
		net.ipv4.conf.$1.arp_ignore=1 \
		net.ipv4.conf.$1.arp_announce=2 || return 1
	[ -z "${2:-}" ] && return 0
	ip addr add "$2/32" dev "$1" && ip link set "$1" up &&
		ip route add "$3" dev "$1" src "$2" table 100
}

# iwdbg AUX NAME: field NAME of our irdma's debugfs "iwarp" of AUX.
iwdbg() {
	awk -v k="$2" '$1 == k { print $2 }' "/sys/kernel/debug/irdma/$1/iwarp"
}

# iw_tables_empty DEV: no APBVT port and no quad hash entry left in the
# model's iWARP tables of PCI function DEV.
iw_tables_empty() {
	[ "$(iw_table "$1" apbvt)" = 0 ] && [ "$(iw_table "$1" qhash)" = 0 ]
}

# routed_pair: the set-up of the scenarios that connect the two
# functions of one guest under our irdma with both ports in init_net:
# d0/d1 (PCI), nd0/nd1 (netdevs) set, both ib_devices there, the ports
# two hosts (iwarp_two_hosts) with both links ACTIVE and a ping through.
# Ends the scenario when it cannot set up.
routed_pair() {
	local devs d
	export RDMAV_DRIVERS=irdma
	rdma_skip_unbindable
	devs=($(e810_pci_devs))
	[ "${#devs[@]}" -eq 2 ] ||
		{ fail "want 2 e810 functions, got ${#devs[@]}"; finish; }
	d0=${devs[0]} d1=${devs[1]}
	for d in "$d0" "$d1"; do
		wait_for "[ -n \"\$(e810_ibdev_of $d)\" ]" 30 ||
			{ fail "$d: no ib_device"; finish; }
	done
	nd0=$(e810_netdev_of "$d0")
	nd1=$(e810_netdev_of "$d1")
	iwarp_two_hosts "$nd0" "$nd1" ||
		{ fail "could not set up the two hosts"; finish; }
	rdma_wait_all_active 30 && ok "both ports ACTIVE" ||
		fail "ports not ACTIVE: $(rdma link show 2>&1 | tr '\n' ' ')"
	ping -c 2 -W 2 192.168.81.2 >/dev/null &&
		ok "ping 192.168.81.2 over the wire" ||
		fail "no ping between the ports"
}

# iwarp_ours_pair: routed_pair in iWARP mode, and a0/a1 (auxiliary
# devices) set, the model in iWARP mode with empty tables and no
# connection node in either irdma (our irdma's debugfs iwarp; the stock
# irdma, E810_RDMA_DRIVER=stock, has no such file).
iwarp_ours_pair() {
	local d a
	routed_pair
	a0=$(e810_aux_of "$d0")
	a1=$(e810_aux_of "$d1")
	for d in "$d0" "$d1"; do
		expect_eq "$d: model mode" iwarp "$(iw_table "$d" mode)"
		iw_tables_empty "$d" && ok "$d: APBVT and quad hash empty at start" ||
			fail "$d: tables at start: $(iw_table "$d" apbvt_ports) / $(iw_table "$d" qhash_entries)"
	done
	[ "${E810_RDMA_DRIVER:-ours}" = stock ] && return 0
	for a in "$a0" "$a1"; do
		expect_eq "$a: cm_nodes at start" 0 "$(iwdbg "$a" cm_nodes)"
	done
}

# iwarp_ours_teardown: the end of a scenario set up by iwarp_ours_pair:
# within 30 s no connection node is left in either irdma (debugfs
# iwarp; under the stock irdma: no irdma QP), no offloaded connection in
# either function's model (conns), APBVT and quad hash empty.
iwarp_ours_teardown() {
	local a d
	if [ "${E810_RDMA_DRIVER:-ours}" = stock ]; then
		wait_for "! rdma resource show qp 2>/dev/null | grep -q 'link irdma'" 30 &&
			ok "no irdma QP left" ||
			fail "irdma QPs left: $(rdma resource show qp | grep 'link irdma' | tr '\n' ' ')"
	else
		for a in "$a0" "$a1"; do
			wait_for "[ \"\$(iwdbg $a cm_nodes)\" = 0 ]" 30 &&
				ok "$a: no connection node left" ||
				fail "$a: nodes left: $(grep '^conn ' "/sys/kernel/debug/irdma/$a/iwarp" | tr '\n' ' ')"
		done
	fi
	for d in "$d0" "$d1"; do
		wait_for "[ \"\$(iw_stat $d conns)\" = 0 ]" 30 &&
			ok "$d: no offloaded connection left in the model" ||
			fail "$d: model conns $(iw_stat "$d" conns)"
		wait_for "iw_tables_empty $d" 30 && ok "$d: APBVT and quad hash empty" ||
			fail "$d: left: $(iw_table "$d" apbvt_ports) / $(iw_table "$d" qhash_entries)"
	done
}

# iw_engines_quiet WHEN: neither function's engine ($d0, $d1) counted a
# CRC error, an error in a peer's stream or a Terminate either way
# (x-iwarp-stats, counters that only grow); WHEN ends each check's name.
iw_engines_quiet() {
	local d k st
	for d in "$d0" "$d1"; do
		st=$(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-stats | tr ' ' '\n')
		for k in crc_errors stream_errors terms_sent terms_rcvd; do
			expect_eq "$d: $k $1" 0 "$(sed -n "s/^$k=//p" <<<"$st")"
		done
	done
}

# iw_single_flush_hang LOG: an rping whose peer was killed still runs
# only because of upstream irdma's single flush. Under the stock irdma,
# irdma_cm_disconn_true() flushes the QP once when its connection ends;
# a receive rping's CQ thread posts after that flush never completes, and
# its main thread waits for that thread forever (docs/testing.md,
# stock_iwarp_kill9). Judged from what rping and the model show: rping
# logged the DISCONNECTED event (in LOG), and no function's engine holds
# a connection in a TCP state but CLOSED (x-iwarp-conns: tcp=1). Our
# irdma flushes such a QP again (docs/irdma.md "Connections"), so under
# it nothing is excused.
iw_single_flush_hang() {
	local d
	[ "${E810_RDMA_DRIVER:-ours}" = stock ] || return 1
	grep -q 'DISCONNECT EVENT' "$1" || return 1
	for d in $(e810_pci_devs); do
		e810_qom_str "$(e810_qom_id "$d")" x-iwarp-conns | tr ';' '\n' |
			grep ' tcp=' | grep -qv ' tcp=1 ' && return 1
	done
	return 0
}

# iw_stat DEV NAME: the iWARP engine's counter NAME (tx_segs,
# tx_dropped_injected, retransmits, timeouts, terms_sent, ...; QMP
# x-iwarp-stats, docs/hw-model.md) of PCI function DEV.
iw_stat() {
	e810_qom_str "$(e810_qom_id "$1")" x-iwarp-stats | tr ' ' '\n' |
		sed -n "s/^$2=//p"
}

# iw_live_start WHAT: on the ports of iwarp_ours_pair, an rping listener
# on each and a verified rping (-V, 64 B) between them that runs until
# its device goes; succeeds once the client checked 20 iterations and
# both engines hold the offloaded connection (then the device may be
# taken away: rmmod, unbind, reset). WHAT starts each fail line.
live_pids=() live_port=7500
iw_live_start() {
	local port=$((live_port += 1)) n d
	rping -s -a 192.168.81.1 -p $port >/dev/null 2>&1 &
	live_pids=($!)
	rping -s -a 192.168.81.2 -p $port -v -V -S 64 -C 100000000 \
		>/tmp/live-s.log 2>&1 &
	live_pids+=($!)
	wait_for "[ \"\$(iw_table $d0 qhash)\" -ge 1 ] && [ \"\$(iw_table $d1 qhash)\" -ge 1 ]" 20 ||
		fail "$1: listeners not in both quad hashes"
	rping -c -a 192.168.81.2 -p $port -v -V -S 64 -C 100000000 \
		>/tmp/live-c.log 2>&1 &
	live_pids+=($!)
	wait_for "[ \$(grep -c 'ping data: rdma-ping' /tmp/live-c.log) -ge 20 ]" 30 || {
		fail "$1: no verified rping data: $(tail -n 2 /tmp/live-c.log | tr '\n' ' ')"
		return 1
	}
	for d in "$d0" "$d1"; do
		n=$(iw_stat "$d" conns)
		[ "${n:-0}" -ge 1 ] ||
			{ fail "$1: $d: model conns '$n' under a live rping"; return 1; }
	done
	ok "$1: listeners on both ports, a verified rping running (conns $(iw_stat "$d0" conns)/$(iw_stat "$d1" conns))"
}

# live_alive: one of the processes of iw_live_start still runs.
live_alive() {
	local p
	for p in "${live_pids[@]}"; do
		kill -0 "$p" 2>/dev/null && return 0
	done
	return 1
}

# iw_live_end WHAT [KEPT]: after the device of the connections of
# iw_live_start went: every rping ends within 30 s (killed after) but the
# listener on function KEPT ($d0, when only $d1 went: it is stopped
# first), rdma_cm keeps no id and no QP of theirs, neither engine keeps
# an offloaded connection (conns) and both functions' APBVT and quad
# hash are empty.
iw_live_end() {
	local p d
	if [ ${#live_pids[@]} -gt 0 ]; then
		[ "${2:-}" = "$d0" ] && kill "${live_pids[0]}" 2>/dev/null
		wait_for "! live_alive" 30 && ok "$1: the rping processes ended" || {
			fail "$1: rping processes still running 30 s later: $(pgrep -a rping | tr '\n' ' ')"
			kill -9 "${live_pids[@]}" 2>/dev/null
		}
		for p in "${live_pids[@]}"; do wait "$p" 2>/dev/null; done
		live_pids=()
	fi
	expect_eq "$1: rdma_cm ids left" 0 "$(rdma res show cm_id 2>/dev/null | grep -c 'comm rping')"
	expect_eq "$1: QPs left" 0 "$(rdma res show qp 2>/dev/null | grep -c 'comm rping')"
	for d in "$d0" "$d1"; do
		wait_for "[ \"\$(iw_stat $d conns)\" = 0 ]" 10 ||
			fail "$1: $d: model conns $(iw_stat "$d" conns)"
		wait_for "iw_tables_empty $d" 10 ||
			fail "$1: $d: left: $(iw_table "$d" apbvt_ports) / $(iw_table "$d" qhash_entries)"
	done
}

# iwarp_rebound DEV: function DEV, bound again to its parent, back in iWARP
# mode (tools/guest/e810-init's devlink switch) and its port readdressed.
iwarp_rebound() {
	local nd
	wait_for "[ -n \"\$(e810_netdev_of $1)\" ]" 10 || fail "$1: no netdev after bind"
	devlink dev param set "pci/$1" name enable_roce value false cmode runtime &&
		devlink dev param set "pci/$1" name enable_iwarp value true cmode runtime ||
		fail "$1: switching to iWARP again"
	nd=$(e810_netdev_of "$1")
	if [ "$1" = "$d0" ]; then
		iwarp_host_port "$nd" 192.168.81.1 192.168.81.2
	else
		iwarp_host_port "$nd" 192.168.81.2 192.168.81.1
	fi || fail "$1: addressing $nd again"
	wait_carrier "$nd" 10 || fail "$nd: no carrier after bind"
}

# iw_cycles_end: the end of the cycle scenarios in iWARP mode: the ports
# still carry a verified rping (20 iterations of 64 B), and nothing is
# left (iwarp_ours_teardown, the auxiliary devices looked up again) nor
# went wrong in either engine (iw_engines_quiet).
iw_cycles_end() {
	rping_verified 64 20 7600 192.168.81.2 "[ \"\$(iw_table $d1 qhash)\" -ge 1 ]"
	[ "$RC_C/$RC_S/$N_C/$N_S" = 0/0/20/20 ] && ok "a verified rping after the cycles" ||
		fail "rping after the cycles: exit $RC_C/$RC_S, iterations $N_C/$N_S"
	a0=$(e810_aux_of "$d0") a1=$(e810_aux_of "$d1")
	iwarp_ours_teardown
	iw_engines_quiet "after the cycles"
}

# rping_verified SIZE COUNT PORT SERVER_IP WAIT: a verified rping (-V)
# of COUNT iterations of SIZE bytes, the server on SERVER_IP, the client
# started once shell command WAIT succeeds (an iWARP listener has no
# socket: e.g. its port in the model's APBVT). Sets RC_C, RC_S (exit
# statuses) and N_C, N_S (the distinct iterations each side printed).
rping_verified() {
	local sp
	(timeout 200 rping -s -a "$4" -p "$3" -v -V -S "$1" -C "$2" \
		2>/tmp/rping-s.err | cut -c1-48 >/tmp/rping-s.log
	exit "${PIPESTATUS[0]}") &
	sp=$!
	wait_for "$5" 20 || echo "note: no listener on port $3 after 20 s"
	timeout 180 rping -c -a "$4" -p "$3" -v -V -S "$1" -C "$2" \
		2>/tmp/rping-c.err | cut -c1-48 >/tmp/rping-c.log
	RC_C=${PIPESTATUS[0]}
	wait "$sp"
	RC_S=$?
	N_C=$(grep -o 'ping data: rdma-ping-[0-9]*:' /tmp/rping-c.log | sort -u | wc -l)
	N_S=$(grep -o 'ping data: rdma-ping-[0-9]*:' /tmp/rping-s.log | sort -u | wc -l)
}

# iw_bw_run TEST SIZE ITERS SERVER_IP WAIT MOVED WHAT: one perftest
# bandwidth run over rdma_cm (perftest_iw_run on PORT, which it then
# advances), judged: both exit 0, the rows are SIZE x ITERS with a
# bandwidth, and shell command MOVED (the bytes the sending engine moved
# since the run began: it is evaluated before and after) grew by at
# least SIZE x ITERS; ok/fail lines start with WHAT.
iw_bw_run() {
	local b0 moved why
	b0=$(eval "$6")
	PERFTEST_PORT=$PORT perftest_iw_run "$1" "$2" "$3" "$4" "$5"
	moved=$(($(eval "$6") - b0))
	if [ $PT_CRC != 0 ] || [ $PT_SRC != 0 ]; then
		why="exit $PT_CRC/$PT_SRC"
	else
		why=$(perftest_bw_why "$2" "$3" "$PT_CROW" client ||
			perftest_bw_why "$2" "$3" "$PT_SROW" server)
	fi
	[ -z "$why" ] && [ "$moved" -lt $(($2 * $3)) ] &&
		why="the sending engine moved $moved bytes, want >= $(($2 * $3))"
	if [ -z "$why" ]; then
		ok "$7 $1 -R -s $2 -n $3: $(cut -d' ' -f4 <<<"$PT_CROW") MB/s"
	else
		fail "$7 $1 -R -s $2 -n $3: $why"
		perftest_dump tail -n 12
	fi
	perftest_clean
	PORT=$((PORT + 1))
}

# cm_data_run SERVER_ADDR CLIENT_ADDR PORT TIMEOUT [CLIENT_ARGS...]: the
# data-checking RDMA-CM pair (progs/cm_data, docs/testing.md): a server
# on SERVER_ADDR (in namespace $CM_DATA_NS when set), a client from
# CLIENT_ADDR. Sets cmd_srv/cmd_cli to their summary lines and
# cmd_src/cmd_crc to their exit statuses; logs in /tmp/cm_data-{s,c}.log.
cm_data_run() {
	local saddr=$1 caddr=$2 port=$3 t=$4 spid ns=()
	shift 4
	[ -n "${CM_DATA_NS:-}" ] && ns=(ip netns exec "$CM_DATA_NS")
	"${ns[@]}" timeout "$t" /mnt/host/progs/cm_data -s -a "$saddr" \
		-p "$port" -T "$t" >/tmp/cm_data-s.log 2>&1 &
	spid=$!
	wait_for "grep -q listening /tmp/cm_data-s.log" 20 ||
		echo "note: cm_data server not listening after 20 s"
	timeout "$t" /mnt/host/progs/cm_data -c -a "$saddr" -b "$caddr" \
		-p "$port" -T "$t" "$@" >/tmp/cm_data-c.log 2>&1
	cmd_crc=$?
	wait "$spid"
	cmd_src=$?
	cmd_srv=$(grep '^cm_data server: transport=' /tmp/cm_data-s.log)
	cmd_cli=$(grep '^cm_data client: transport=' /tmp/cm_data-c.log)
}

# cm_data_field LINE NAME: field NAME of a cm_data summary line.
cm_data_field() {
	tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"
}

# cm_data_check LABEL IMM ROUNDS SIZES: judges the last cm_data_run with
# the default size list or SIZES (comma-separated, as -S), ROUNDS rounds,
# immediate forms on (IMM 1, RoCE) or off (0, iWARP): both exit 0, no
# error, every step done, and each side counted every payload it checked
# (the client: all it sent and every READ; the server: every SEND and
# WRITE it received), byte totals equal to the sizes'.
cm_data_check() {
	local label=$1 imm=$2 rounds=$3 sizes=${4:-1,3,64,1000,4096,4097,65536,65537,262144,1048576}
	local n sum=0 s ops want o f
	n=$(tr ',' '\n' <<<"$sizes" | grep -c .)
	for s in ${sizes//,/ }; do sum=$((sum + s)); done
	ops=3; [ "$imm" = 1 ] && ops=5
	if [ "$cmd_crc" = 0 ] && [ "$cmd_src" = 0 ] &&
	   [ -n "$cmd_cli" ] && [ -n "$cmd_srv" ]; then
		ok "$label: cm_data client and server exit 0"
	else
		fail "$label: cm_data client rc $cmd_crc, server rc $cmd_src"
		grep -E 'FAIL|cm_data' /tmp/cm_data-c.log /tmp/cm_data-s.log | head -n 20 | sed 's/^/  /'
		return 1
	fi
	f=0
	want="steps=$((rounds * n * ops)) errors=0"
	for o in send write; do want="$want $o=$((rounds * n))"; done
	for o in send_imm write_imm; do want="$want $o=$((rounds * n * imm))"; done
	for w in $want "read=$((rounds * n))" "bytes=$((rounds * sum * ops))"; do
		[ "$(cm_data_field "$cmd_cli" "${w%%=*}")" = "${w#*=}" ] ||
			{ fail "$label: client $w wanted: $cmd_cli"; f=1; }
	done
	for w in $want "read=0" "bytes=$((rounds * sum * (ops - 1)))"; do
		[ "$(cm_data_field "$cmd_srv" "${w%%=*}")" = "${w#*=}" ] ||
			{ fail "$label: server $w wanted: $cmd_srv"; f=1; }
	done
	[ $f = 0 ] && ok "$label: every payload checked: $cmd_cli; $cmd_srv"
	return $f
}

# ---- an E810 against soft-iWARP over the pair's wire ------------------------
# (iwarp_siw: the stock irdma; iwarp_siw_ours: ours.) Node 0 is the E810
# (192.168.90.1) in iWARP mode, node 1 runs siw (tools/build-siw.sh) on
# its e810 netdev with no irdma bound (192.168.90.2).

# iwsiw_setup DRIVER: this node's side, DRIVER (stock|ours) the irdma
# node 0 loads. Sets E810 (1 on node 0), ROLE, MY_IP, PEER_IP, E810_IP,
# SIW_IP, dev, nd, ibd; both RNICs iWARP and ACTIVE, the peer answers.
iwsiw_setup() {
	local devs t aux
	expect_eq "nodes in the topology" 2 "$E810_NODES"
	E810=$((E810_NODE == 0))
	ROLE=siw
	[ $E810 = 1 ] && ROLE=e810
	MY_IP=192.168.90.$((E810_NODE + 1))
	PEER_IP=192.168.90.$((2 - E810_NODE))
	E810_IP=192.168.90.1
	SIW_IP=192.168.90.2
	mapfile -t devs < <(e810_pci_devs)
	expect_eq "e810 functions in this guest" 1 "${#devs[@]}"
	dev=${devs[0]}
	nd=$(e810_netdev_of "$dev")
	[ -n "$nd" ] || { fail "no netdev for $dev"; finish; }
	for t in rping ib_write_bw ib_read_bw ib_send_bw ibv_devinfo rdma nstat python3; do
		command -v $t >/dev/null || fail "$t is not installed"
	done
	ip addr add "$MY_IP/24" dev "$nd" || fail "ip addr add $MY_IP"
	ip link set "$nd" up
	wait_carrier "$nd" 10 || fail "$nd has no carrier"
	dmesg_mark
	if [ $E810 = 1 ]; then
		aux=$(e810_aux_of "$dev")
		case "$aux" in
		*.iwarp.*) ok "parent published $aux" ;;
		*) fail "no <parent>.iwarp.<N> ('$aux')" ;;
		esac
		E810_RDMA_DRIVER=$1 irdma_load ||
			{ fail "loading the $1 irdma"; finish; }
		wait_for "[ -n \"\$(e810_ibdev_of $dev)\" ]" 30
		ibd=$(e810_ibdev_of "$dev")
		[ -n "$ibd" ] || { fail "no ib_device on $dev"; finish; }
		rdma_wait_all_active 30 || fail "$ibd not ACTIVE: $(rdma link show)"
		export RDMAV_DRIVERS=irdma
	else
		ibd=siw0
		modprobe siw || { fail "modprobe siw"; finish; }
		rdma link add siw0 type siw netdev "$nd" ||
			{ fail "rdma link add siw0 type siw netdev $nd"; finish; }
		wait_for "rdma link show siw0/1 | grep -q 'state ACTIVE'" 10 ||
			fail "siw0/1 not ACTIVE: $(rdma link show siw0/1)"
	fi
	expect_eq "$ibd ibv_devinfo transport" "iWARP (1)" "$(ibv_attr "$ibd" transport)"
	wait_for "ping -c 1 -W 1 $PEER_IP >/dev/null 2>&1" 120 &&
		ok "node $E810_NODE reaches $PEER_IP" || fail "$PEER_IP does not answer"
}

IWSIW_IWS_KEYS="offloads tx_segs tx_bytes rx_segs rx_bytes fpdus_tx fpdus_rx
	retransmits timeouts fast_retransmits rx_bad_csum rx_ooo rx_dup
	crc_errors terms_sent terms_rcvd tx_rst rx_rst read_reqs read_resps"
IWSIW_NSTAT_KEYS="TcpOutSegs TcpInSegs TcpRetransSegs TcpInCsumErrors TcpInErrs
	TcpExtTCPLostRetransmit TcpExtTCPTimeouts TcpExtTCPOFOQueue
	TcpExtTCPSynRetrans"
declare -A IWSIW_C0
iwsiw_bytes() { cat "/sys/class/net/$nd/statistics/$1_bytes"; }
# iwsiw_snap: the counters of this side now (the model's engine on the
# E810, the kernel's TCP on siw's node, the netdev's bytes on both)
iwsiw_snap() {
	local k s
	IWSIW_C0[tx]=$(iwsiw_bytes tx) IWSIW_C0[rx]=$(iwsiw_bytes rx)
	if [ $E810 = 1 ]; then
		s=$(e810_qom_str "$(e810_qom_id "$dev")" x-iwarp-stats)
		for k in $IWSIW_IWS_KEYS; do
			IWSIW_C0[$k]=$(tr ' ' '\n' <<<"$s" | sed -n "s/^$k=//p")
		done
	else
		for k in $IWSIW_NSTAT_KEYS; do
			IWSIW_C0[$k]=$(nstat -az "$k" | awk -v k="$k" '$1 == k { print $2 }')
		done
	fi
}
# iwsiw_delta NAME: how much counter NAME grew since iwsiw_snap
iwsiw_delta() {
	local now
	case $1 in
	tx|rx) now=$(iwsiw_bytes "$1") ;;
	Tcp*) now=$(nstat -az "$1" | awk -v k="$1" '$1 == k { print $2 }') ;;
	*) now=$(iw_stat "$dev" "$1") ;;
	esac
	echo $((now - ${IWSIW_C0[$1]:-0}))
}
# iwsiw_account WHAT OUT IN: the frames of a run, this side: at least OUT
# payload bytes went out and IN came in, nothing was lost or rejected.
iwsiw_account() {
	local what=$1 out=$2 in=$3 k d line=""
	if [ $E810 = 1 ]; then
		for k in $IWSIW_IWS_KEYS; do
			d=$(iwsiw_delta "$k")
			line+=" $k=$d"
			eval "D_$k=$d"
		done
		echo "  model ($what):$line"
		[ "$D_tx_bytes" -ge "$out" ] && [ "$D_rx_bytes" -ge "$in" ] &&
			ok "$what: model sent $D_tx_bytes >= $out, received $D_rx_bytes >= $in stream bytes" ||
			fail "$what: model sent $D_tx_bytes (want >= $out), received $D_rx_bytes (want >= $in)"
		expect_eq "$what: model CRC errors, Terminates out/in, bad checksums, out-of-order" \
			"0 0 0 0 0" "$D_crc_errors $D_terms_sent $D_terms_rcvd $D_rx_bad_csum $D_rx_ooo"
		# A retransmission is not a loss: the engine's RTO is a fixed
		# 200 ms (docs/hw-model.md, "iWARP engine"), which a TCG
		# guest's delayed ACK can outlast. Loss shows on the receiving
		# side (siw's kernel: out-of-order queue, below).
		[ "$D_retransmits" = 0 ] ||
			echo "note: $what: the model retransmitted $D_retransmits segment(s) ($D_timeouts timeout(s), $D_fast_retransmits fast)"
	else
		for k in $IWSIW_NSTAT_KEYS; do
			d=$(iwsiw_delta "$k")
			line+=" $k=$d"
			eval "D_$k=$d"
		done
		echo "  kernel TCP ($what):$line"
		d=$(iwsiw_delta tx)
		[ "$d" -ge "$out" ] && ok "$what: $nd tx bytes +$d >= $out" ||
			fail "$what: $nd tx bytes +$d, want >= $out"
		d=$(iwsiw_delta rx)
		[ "$d" -ge "$in" ] && ok "$what: $nd rx bytes +$d >= $in" ||
			fail "$what: $nd rx bytes +$d, want >= $in"
		expect_eq "$what: TCP checksum and input errors" "0 0" \
			"$D_TcpInCsumErrors $D_TcpInErrs"
		# A SYN retransmitted is no data lost: a server that is
		# between two listens (perftest -R's second connection) has
		# its SYN dropped, as upstream irdma drops a SYN no listener
		# takes (irdma_receive_ilq()).
		expect_eq "$what: TCP data segments retransmitted, out-of-order queued" \
			"0 0" "$((D_TcpRetransSegs - D_TcpExtTCPSynRetrans)) $D_TcpExtTCPOFOQueue"
		[ "$D_TcpExtTCPSynRetrans" = 0 ] ||
			echo "note: $what: $D_TcpExtTCPSynRetrans SYN(s) retransmitted"
	fi
}

# The server opens a beacon on PORT + 1000 once it listens (busybox nc,
# one connection); the client connects when the beacon answers (rping's
# client does not exit after a refused connect).
# iwsiw_listening PORT: the server of this side listens on PORT: siw on
# a kernel TCP socket, the E810 in its APBVT (irdma's listener).
iwsiw_listening() {
	if [ $E810 = 1 ]; then
		case ",$(iw_table "$dev" apbvt_ports)," in *",$1,"*) return 0 ;; esac
		return 1
	fi
	ss -ltn | grep -q ":$1 "
}
# iwsiw_serve PORT CMD...: CMD in the background (IWSIW_SRV_TIMEOUT,
# output in $OUT, pid SRV_PID), the beacon once it listens on PORT.
iwsiw_serve() {
	local port=$1
	shift
	timeout "${IWSIW_SRV_TIMEOUT:-150}" "$@" >"$OUT" 2>&1 &
	SRV_PID=$!
	wait_for "iwsiw_listening $port" 30 ||
		echo "note: no listener on port $port after 30 s ($ROLE)"
	timeout 150 busybox nc -l -p $((port + 1000)) </dev/null >/dev/null 2>&1 &
}
# iwsiw_await IP PORT: until the beacon of the server at IP, PORT answers
iwsiw_await() {
	wait_for "(exec 3<>/dev/tcp/$1/$(($2 + 1000))) 2>/dev/null" 150 ||
		echo "note: no beacon for port $2 from $1 after 150 s"
}

# iwsiw_serves SERVER: this node is the server (SERVER: e810 or siw)
iwsiw_serves() {
	[ "$1" = "$ROLE" ]
}
# iwsiw_label SERVER: "E810->siw" (the E810 the client) or "siw->E810"
iwsiw_label() {
	[ "$1" = siw ] && echo "E810->siw" || echo "siw->E810"
}

# iwsiw_rpings SERVER PORT RUNS: rping -V -v of each SIZE:ITERATIONS of
# RUNS on ports PORT + 1, ..., the server on SERVER's node: every
# iteration the server READs the client's buffer and WRITEs it back, the
# client compares (both directions of the data checked), both sides count
# the iterations; then iwsiw_account (SIZE x ITERATIONS each way).
# IWSIW_CONNS counts the connections.
iwsiw_rpings() {
	local srv=$1 port=$2 r size n rc cnt t0 what sip
	sip=$E810_IP
	[ "$srv" = siw ] && sip=$SIW_IP
	for r in $3; do
		size=${r%:*} n=${r#*:}
		port=$((port + 1))
		OUT=$(mktemp)
		iwsiw_snap
		t0=$SECONDS
		if iwsiw_serves "$srv"; then
			iwsiw_serve "$port" rping -s -a "$MY_IP" -p "$port" -S "$size" -V -v
			wait $SRV_PID
			rc=$?
			cnt=$(grep -c '^server ping data: rdma-ping-' "$OUT")
		else
			iwsiw_await "$sip" "$port"
			timeout 120 rping -c -a "$sip" -p "$port" -S "$size" -C "$n" \
				-V -v >"$OUT" 2>&1
			rc=$?
			cnt=$(grep -c '^ping data: rdma-ping-' "$OUT")
		fi
		IWSIW_CONNS=$((${IWSIW_CONNS:-0} + 1))
		what="$(iwsiw_label "$srv") rping -V -S $size -C $n"
		if [ $rc -eq 0 ] && [ "$cnt" = "$n" ] && ! grep -qiE 'mismatch|error' "$OUT"; then
			ok "$what ($ROLE): $cnt iterations, data valid ($((SECONDS - t0)) s)"
		else
			fail "$what ($ROLE): rc $rc, $cnt of $n iterations"
			grep -v 'ping data' "$OUT" | tail -5 | sed "s/^/  $ROLE: /"
		fi
		rm -f "$OUT"
		iwsiw_account "$what" $((size * n)) $((size * n))
	done
}

# iwsiw_perftests SERVER PORT SIZE N: ib_write_bw, ib_read_bw, ib_send_bw
# -R of N x SIZE on ports PORT + 10, + 20, + 30, the server on SERVER's
# node: exit 0, the row for the size and iterations with a non-zero
# average, then iwsiw_account (the payload in the direction it flows:
# READ the server's buffer to the client, else the client's to the
# server). Prints a "figure:" line for the E810's side of ib_write_bw.
iwsiw_perftests() {
	local srv=$1 port=$2 size=$3 n=$4 t argv t0 rc row why payload sip lbl sends
	payload=$((size * n))
	sip=$E810_IP
	[ "$srv" = siw ] && sip=$SIW_IP
	lbl=$(iwsiw_label "$srv")
	for t in ib_write_bw ib_read_bw ib_send_bw; do
		port=$((port + 10))
		OUT=$(mktemp)
		iwsiw_snap
		argv=("$t" -R -d "$ibd" -s "$size" -n "$n" -p "$port" -F)
		t0=$SECONDS
		if iwsiw_serves "$srv"; then
			iwsiw_serve "$port" "${argv[@]}"
			wait $SRV_PID
			rc=$?
		else
			iwsiw_await "$sip" "$port"
			timeout 150 "${argv[@]}" "$sip" >"$OUT" 2>&1
			rc=$?
		fi
		IWSIW_CONNS=$((${IWSIW_CONNS:-0} + 1))
		row=$(result_row "$OUT")
		why=
		if [ $rc -ne 0 ]; then
			why="rc $rc"
		elif bad_lines "$OUT" >/dev/null; then
			why="error lines: $(bad_lines "$OUT" | head -2)"
		else
			why=$(perftest_bw_why "$size" "$n" "$row")
		fi
		if [ -z "$why" ]; then
			ok "$lbl $t -R -s $size -n $n ($ROLE): $(cut -d' ' -f4 <<<"$row") MB/s ($((SECONDS - t0)) s)"
			[ "$t" = ib_write_bw ] && [ $E810 = 1 ] &&
				echo "figure: $lbl ib_write_bw -R $size B x $n: $(cut -d' ' -f4 <<<"$row") MB/s"
		else
			fail "$lbl $t -R ($ROLE): $why"
			grep -vE '^ *$|^-+$' "$OUT" | tail -8 | sed "s/^/  $ROLE: /"
		fi
		rm -f "$OUT"
		# this node sends the payload when it is the client (WRITE,
		# SEND) or the server (READ)
		sends=0
		iwsiw_serves "$srv" && sends=1
		[ "$t" = ib_read_bw ] || sends=$((1 - sends))
		if [ $sends = 1 ]; then
			iwsiw_account "$t" "$payload" 0
		else
			iwsiw_account "$t" 0 "$payload"
		fi
	done
}

# iwsiw_teardown: siw's node: no QP left on siw0, siw0 deleted, siw
# unloaded, no kernel line from siw but attach/detach; both: clean dmesg.
iwsiw_teardown() {
	local bad
	if [ $E810 = 0 ]; then
		wait_for "[ -z \"\$(rdma resource show qp link siw0/1 2>/dev/null)\" ]" 10 ||
			fail "siw0 still holds QPs: $(rdma resource show qp link siw0/1)"
		rdma link delete siw0 || fail "rdma link delete siw0"
		rmmod siw && ok "siw unloads" || fail "rmmod siw"
		# (siw may be the first out-of-tree module of the boot: the taint)
		bad=$(new_dmesg | grep -iE 'siw|QP\[|MPA' |
			grep -vE 'SoftiWARP (attached|detached)|taints kernel|module verification failed')
		[ -z "$bad" ] && ok "no kernel line from siw but attach/detach" ||
			{ fail "siw logged:"; head -10 <<<"$bad"; }
	fi
	dmesg_clean >/dev/null && ok "no oops, warning or leak in dmesg" ||
		{ fail "dmesg shows problems"; dmesg_clean | head -10; }
}
