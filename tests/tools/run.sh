#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Host tests of the VM runner's helpers (tools/lib.sh, tools/vm) that a
# guest boot would only show as "no status from the guest":
#  * qmp_sock: a checkout deep in a file system still gets a QMP socket
#    path a unix socket can hold (at most 107 bytes), one per node
#    directory; a runtime directory too long for any socket is refused
#    with a message that says so;
#  * the QEMU we built really listens on that socket and answers QMP when
#    its node directory is ~300 bytes deep (skipped before the build);
#  * the scenario lists, the debug-report filter and vcpu_stopped (below).
# Ends with "tools: N passed, M failed[, S skipped]" (also in
# build/tools-test/summary).

. "$(dirname "$0")/../../tools/lib.sh"
cd "$TOP"

T=$BUILD/tools-test
QEMU=$BUILD/qemu-system-x86_64
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); printf 'FAIL: %s\n' "$*"; }
rm -rf "$T"
mkdir -p "$T"

# A node directory as a clone under a deep path would have it.
deep=$T
while [ "${#deep}" -lt 300 ]; do deep=$deep/a-rather-long-directory-name; done
node=$deep/build/vm/rdma_link/node0
mkdir -p "$node"

sock=$(qmp_sock "$node")
if [ -n "$sock" ] && [ "${#sock}" -le 107 ]; then ok; else
	bad "qmp_sock for a ${#node}-byte node directory: '$sock' (${#sock} bytes)"
fi
[ "$(qmp_sock "$node")" = "$sock" ] && ok || bad "qmp_sock is not stable for one directory"
[ "$(qmp_sock "${node%0}1")" != "$sock" ] && ok ||
	bad "qmp_sock gives node0 and node1 the same socket"
[ -d "$(dirname "$sock")" ] && [ "$(stat -c %a "$(dirname "$sock")")" = 700 ] && ok ||
	bad "runtime directory $(dirname "$sock") missing or not private"

long_rt=$T/$(printf 'r%.0s' $(seq 1 120))
if out=$(XDG_RUNTIME_DIR=$long_rt qmp_sock "$node" 2>&1); then
	bad "qmp_sock accepted a runtime directory of ${#long_rt} bytes: $out"
elif grep -q 'over the 107 of a unix socket: set XDG_RUNTIME_DIR' <<<"$out"; then
	ok
else
	bad "qmp_sock's refusal does not say why: $out"
fi
[ ! -e "$long_rt" ] && ok || bad "qmp_sock created $long_rt although it refused it"

if [ -x "$QEMU" ]; then
	rm -f "$sock"
	# QEMU waits at -S for ever: if the client below fails, the bound
	# of `timeout` is what ends it, never the CI run's own limit.
	timeout -k 5 120 "$QEMU" -M none -display none -nodefaults -S \
		-qmp "unix:$sock,server=on,wait=off" >"$T/qemu.log" 2>&1 &
	qpid=$!
	reply=$(timeout -k 5 90 python3 - "$sock" 2>"$T/qmp-client.log" <<-'PY'
	import json, socket, sys, time
	deadline = time.monotonic() + 60
	while True:
	    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
	    s.settimeout(20)
	    try:
	        s.connect(sys.argv[1])
	        break
	    except OSError as e:
	        s.close()
	        if time.monotonic() > deadline:
	            sys.exit("no QMP socket after 60 s: %s" % e)
	        time.sleep(0.1)
	f = s.makefile("rw")
	greeting = json.loads(f.readline())
	f.write('{"execute": "qmp_capabilities"}\n'); f.flush()
	f.readline()
	f.write('{"execute": "query-status"}\n'); f.flush()
	status = json.loads(f.readline())
	f.write('{"execute": "quit"}\n'); f.flush()
	print(greeting["QMP"]["version"]["qemu"]["major"], status["return"]["status"])
	PY
	)
	[ -n "$reply" ] || kill "$qpid" 2>/dev/null || true
	wait "$qpid" || true
	if [ "$reply" = "${QEMU_UPSTREAM%%.*} prelaunch" ]; then ok; else
		bad "QMP from a ${#node}-byte node directory: '$reply' ($(tail -n 2 "$T/qmp-client.log" "$T/qemu.log"))"
	fi
	[ ! -e "$sock" ] && ok || bad "QEMU left $sock behind"
else
	skip=$((skip + 1))
	echo "skip: QMP through the socket: no $QEMU yet (make qemu)"
fi

# The runs tools/vm check makes of the scenario header lines, per kernel
# (E810_VM_LIST=1: names only, nothing boots). A "# kernel: 6.1" line
# adds the scenario's stock-ice runs under 6.1 (and 7 those under 7.x);
# --kernel 6.1 or 7 tags every run; the debug kernel ignores the line.
cat >"$T/k61.sh" <<'EOF2'
# topology: hub2
# parent: ice_lite ice
# rdma-driver: ours stock
# kernel: 6.1
EOF2
sed '/^# kernel:/d' "$T/k61.sh" >"$T/k612.sh"
runs() { E810_VM_LIST=1 timeout -k 5 120 tools/vm check "$@" 2>&1 | xargs; }
want="k61@ice_lite k61@ice k61@stock k61@ice@6.1 k61@stock@6.1"
got=$(runs "$T/k61.sh")
[ "$got" = "$want" ] && ok || bad "runs of a '# kernel: 6.1' scenario: '$got', want '$want'"
want="k612@ice_lite k612@ice k612@stock"
got=$(runs "$T/k612.sh")
[ "$got" = "$want" ] && ok || bad "runs without a '# kernel:' line: '$got', want '$want'"
want="k61@ice_lite@6.1 k61@ice@6.1 k61@stock@6.1"
got=$(runs --kernel 6.1 "$T/k61.sh")
[ "$got" = "$want" ] && ok || bad "runs under --kernel 6.1: '$got', want '$want'"
want="k61@ice_lite k61@ice k61@stock"
got=$(runs --kernel debug "$T/k61.sh")
[ "$got" = "$want" ] && ok || bad "runs under --kernel debug: '$got', want '$want'"
# both other kernels on one line; --kernel 7 as --kernel 6.1
sed 's/^# kernel: 6.1/# kernel: 6.1 7/' "$T/k61.sh" >"$T/k7.sh"
want="k7@ice_lite k7@ice k7@stock k7@ice@6.1 k7@stock@6.1 k7@ice@7 k7@stock@7"
got=$(runs "$T/k7.sh")
[ "$got" = "$want" ] && ok || bad "runs of a '# kernel: 6.1 7' scenario: '$got', want '$want'"
want="k7@ice_lite@7 k7@ice@7 k7@stock@7"
got=$(runs --kernel 7 "$T/k7.sh")
[ "$got" = "$want" ] && ok || bad "runs under --kernel 7: '$got', want '$want'"
sed 's/^# kernel: 6.1/# kernel: 5.10/' "$T/k61.sh" >"$T/kbad.sh"
got=$(runs "$T/kbad.sh" || true)
grep -q 'unknown kernel.*5\.10' <<<"$got" && ok ||
	bad "an unknown kernel in '# kernel:' is not refused: '$got'"

# The debug kernel's early-boot KASAN report (an interrupt while the boot
# CPU identifies itself, two real logs: RIP in identify_cpu() and in
# get_cpu_cap()) is let pass by tools/debug-reports.py and by the guest
# library's kernel_log; the same report from anywhere else is not.
early=tests/tools/data/early-boot-kasan.dmesg
sed 's/arch_cpu_finalize_init/irdma_process_aeq/' "$early" >"$T/late-kasan.dmesg"
supp=tools/guest/debug-kernel.suppress
out=$(python3 tools/debug-reports.py "$supp" "$early") &&
	grep -q '^0 kernel report(s), 2 suppressed' <<<"$out" && ok ||
	bad "debug-reports.py on the early-boot KASAN reports: $(tail -n 1 <<<"$out")"
out=$(python3 tools/debug-reports.py "$supp" "$T/late-kasan.dmesg") &&
	bad "debug-reports.py let a KASAN report outside early boot pass" ||
	{ grep -q '^2 kernel report(s), 0 suppressed' <<<"$out" && ok ||
		bad "debug-reports.py on a late KASAN report: $(tail -n 1 <<<"$out")"; }
klog() {
	bash -c 'f=$1; dmesg() { cat "$f"; }
		eval "$(sed -n "/^kernel_log()/,/^}/p" tests/vm/lib/guest-lib.sh)"
		kernel_log' klog "$1" | grep -c 'BUG: KASAN'
}
[ "$(klog "$early")" = 0 ] && ok ||
	bad "kernel_log keeps the early-boot KASAN reports"
[ "$(klog "$T/late-kasan.dmesg")" = 2 ] && ok ||
	bad "kernel_log drops a KASAN report outside early boot"

# tools/vm runs a timed-out scenario once more when a vCPU of its guest
# stopped (vcpu_stopped: an RCU stall on an idle CPU whose timer never
# fired; the console of the 2026-11-30 case); a stall on a CPU that is
# busy (dynticks nesting not 0: a driver spinning there) is a failure.
stopped=tests/tools/data/vcpu-stopped.console
sed 's|idle=\([0-9a-f]*\)/0/0x0|idle=\1/1/0x4000000000000000|' "$stopped" >"$T/busy.console"
vstop() { bash -c 'eval "$(sed -n "/^vcpu_stopped()/,/^}/p" tools/vm)"; vcpu_stopped "$1"' vstop "$1"; }
got=$(vstop "$stopped") && [ "$got" = "vCPU 1 stopped while idle (RCU stall, its timer never fired)" ] &&
	ok || bad "vcpu_stopped on a stopped vCPU's console: '$got'"
got=$(vstop "$T/busy.console") && bad "vcpu_stopped took a busy CPU's stall for a stopped vCPU: '$got'" || ok
got=$(vstop tests/tools/data/early-boot-kasan.dmesg) && bad "vcpu_stopped on a log without a stall: '$got'" || ok

echo "tools: $pass passed, $fail failed, $skip skipped" | tee "$T/summary"
[ "$fail" = 0 ]
