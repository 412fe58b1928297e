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

# PCI addresses of the emulated E810 functions, sorted.
e810_pci_devs() {
	local d
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor")" = 0x8086 ] && [ "$(cat "$d/device")" = 0x1592 ] &&
			echo "${d##*/}"
	done
}

# The auxiliary RDMA device published for PCI function $1 (none if absent).
e810_aux_of() {
	local a
	for a in /sys/bus/auxiliary/devices/ice_lite.roce.*; do
		[ -e "$a" ] || continue
		[ "$(basename "$(readlink -f "$a/..")")" = "$1" ] && basename "$a"
	done
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

# Waits up to $2 seconds (default 10) for command $1 to succeed.
wait_for() {
	local i
	for ((i = 0; i < ${2:-10} * 10; i++)); do
		eval "$1" && return 0
		sleep 0.1
	done
	return 1
}

# Lines of the kernel log that mean a bug: oopses, warnings, leaks, memory
# corruption reports. Prints them; succeeds when there are none.
dmesg_clean() {
	local bad
	bad=$(dmesg | grep -E 'Oops:|BUG:|WARNING:|Call Trace:|general protection fault|unreferenced object|refcount_t:|use-after-free|KASAN|UBSAN|list_(add|del) corruption|double free|sleeping function called|kobject.*already|sysfs: cannot create duplicate'
	      dmesg | grep -i 'leak')
	[ -z "$bad" ] && return 0
	echo "$bad"
	return 1
}
