#!/bin/bash
# topology: hub2
# parent: ice
# rdma-driver: stock
# timeout: 400
# The guest kernel's stock irdma, bound to the stock ice's ice.roce.<N>,
# with rdma-core's stock provider, on the emulated E810: both ports come
# up ACTIVE on their netdevs, and ibv_rc_pingpong (1 B, 4 KiB, 64 KiB)
# passes with payload checks (-c) in both directions between the two
# ports. Code we did not write judges the model's CQP, HMC, queue and
# completion formats here. Not yet: ibv_ud_pingpong, whose server side
# never sees its last send completions with the stock irdma (the client
# side completes); see docs/hw-model.md, "The stock irdma as judge".
. "$E810_LIB"

# The stock module is in-tree and signed: no out-of-tree taint.
expect_eq "irdma taint flags (stock module)" "" "$(cat /sys/module/irdma/taint)"
for d in $(e810_pci_devs); do
	aux=$(e810_aux_of "$d")
	expect_eq "$d: $aux bound to" irdma \
		"$(module_of "/sys/bus/auxiliary/devices/$aux")"
done
rdma_two_ports || finish
export RDMAV_DRIVERS=irdma	# the stock provider

# pp TOOL SIZE DIR: a pingpong of 100 iterations with payload checks;
# DIR "fwd" serves on port 1 (netns peer), "rev" on port 0.
pp() {
	local tool=$1 size=$2 dir=$3 sdev=$ib1 sg=$g1 cdev=$ib0 cg=$g0
	local sns=(ip netns exec peer) cns=() dst=192.168.81.2 out
	if [ "$dir" = rev ]; then
		sdev=$ib0 sg=$g0 cdev=$ib1 cg=$g1 sns=() dst=192.168.81.1
		cns=(ip netns exec peer)
	fi
	"${sns[@]}" timeout 90 "$tool" -d "$sdev" -g "$sg" -n 100 -s "$size" -c \
		>/tmp/pp-server.log 2>&1 &
	local spid=$!
	sleep 1
	out=$("${cns[@]}" timeout 90 "$tool" -d "$cdev" -g "$cg" -n 100 -s "$size" \
		-c "$dst" 2>&1)
	local crc=$?
	wait "$spid"
	local src=$?
	if [ $crc = 0 ] && [ $src = 0 ] &&
	   grep -q "100 iters in" <<<"$out" &&
	   grep -q "100 iters in" /tmp/pp-server.log; then
		ok "$tool -s $size $dir: $(grep 'bytes in' <<<"$out")"
	else
		fail "$tool -s $size $dir: client $crc, server $src: $(tail -n 2 <<<"$out") / $(tail -n 2 /tmp/pp-server.log)"
	fi
}

for dir in fwd rev; do
	for s in 1 4096 65536; do
		pp ibv_rc_pingpong "$s" "$dir"
	done
done

bad=$(dmesg --level=err,warn | grep -E 'irdma' | grep -v 'module verification')
[ -z "$bad" ] && ok "no irdma error or warning in dmesg" ||
	fail "irdma errors/warnings: $(head -n 5 <<<"$bad")"
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
