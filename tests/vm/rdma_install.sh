#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice
# rdma-driver: none
# timeout: 600
# share: Makefile dkms.conf tools/lib.sh tools/host-install.sh drivers/infiniband/hw/irdma/irdma.ko build/rdma-core/lib/e810/libirdma-rdmav34.so build/install-test/@KREL@/dkms-irdma.ko.xz
# The installation of docs/real-hosts.md on a guest made to look like a
# Debian host with the stock ice: the kernel's irdma.ko.xz back in
# kernel/drivers/infiniband/hw/irdma/, nothing in updates/, rdma-core's
# stock provider only. Our real install code (tools/host-install.sh, what
# 'make install' runs; the guest has no make and no compiler, so with
# KRELEASE: the irdma.ko built for this kernel on the host, copied as it
# is; under tools/vm --kernel 6.1 or 7 the runner shares that kernel's
# build of it) then:
#  - install: updates/irdma.ko byte for byte, in modules.dep, modinfo
#    names it (our description, this kernel's vermagic); install-provider:
#    irdma.driver names ours, the stock file saved byte for byte;
#  - modprobe irdma loads ours (its build-id is the installed file's, our
#    limits_sel parameter, taint O), bound to both functions' ice.roce.<N>
#    (the names the kernel's ice gives, read from sysfs) as irdma.ice,
#    both ports ACTIVE, ibv_devinfo through OUR provider (the library
#    libibverbs maps, LD_DEBUG=files), an RC pingpong with payload checks;
#  - the same module with another ice build id recorded (the ice.ko it
#    would have been built against) loads but binds neither function
#    (before 6.16; from 6.16 the binding is ice's public IIDC and the
#    module records no ice build id);
#  - uninstall-provider: irdma.driver restored byte for byte, the stock
#    provider loads again; uninstall: updates/ gone, modinfo names the
#    kernel's file again, modprobe loads it (build-id of the in-tree file,
#    no taint), bound to both functions by a driver of module irdma that
#    is not ours (irdma before 6.16, irdma.gen_2 after), both ports
#    ACTIVE, a pingpong passes;
#  - dkms: the module Debian's dkms built and installed on the host for
#    this kernel (tests/install/run.sh; for 6.1 'tests/install/run.sh
#    dkms 6.1', for 7.x 'tests/install/run.sh dkms 7', trixie's dkms in
#    tools/kroot.sh's trixie root) in updates/dkms/, as dkms leaves it:
#    modprobe loads it, it binds both functions, a pingpong passes;
#  - dmesg clean.
. "$E810_LIB"

K=/mnt/host/top			# the files of the checkout ("# share:")
REL=$(uname -r)
M=/lib/modules/$REL
INTREE=kernel/drivers/infiniband/hw/irdma
LIBDIR=/usr/lib/x86_64-linux-gnu
DRIVER_FILE=/etc/libibverbs.d/irdma.driver
# ours, as the module the host built says (not the stock irdma's)
OURS_DESC=$(modinfo -F description "$K/drivers/infiniband/hw/irdma/irdma.ko")
[ -n "$OURS_DESC" ] || fail "the built irdma.ko has no description"

# hi STEP: tools/host-install.sh STEP for this kernel, as 'make install
# KRELEASE=$(uname -r)' (or uninstall, install-provider, ...) runs it; its
# log in /tmp/hi-STEP.log.
hi() {
	KRELEASE=$REL bash "$K/tools/host-install.sh" "$1" >"/tmp/hi-$1.log" 2>&1
}
hi_log() { tail -n 3 "/tmp/hi-$1.log" | tr '\n' ' '; }

# build_id FILE: the GNU build-id of a module file (.ko or .ko.xz);
# build_id /sys/module/M: the one of the loaded module M.
build_id() {
	python3 - "$1" <<'EOF'
import lzma, struct, sys
p = sys.argv[1]
def note_id(b):
    namesz, descsz, _ = struct.unpack_from("<III", b, 0)
    off = 12 + ((namesz + 3) & ~3)
    return b[off:off + descsz].hex()
if p.startswith("/sys/module/"):
    print(note_id(open(p + "/notes/.note.gnu.build-id", "rb").read()))
    sys.exit(0)
b = open(p, "rb").read()
if p.endswith(".xz"):
    b = lzma.decompress(b)
shoff, = struct.unpack_from("<Q", b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)
def sh(i):
    return struct.unpack_from("<IIQQQQ", b, shoff + i * shentsize)
stroff = sh(shstrndx)[4]
for i in range(shnum):
    name, _, _, _, off, size = sh(i)
    if b[stroff + name:b.index(b"\0", stroff + name)] == b".note.gnu.build-id":
        print(note_id(b[off:off + size]))
EOF
}

# bound_drivers: the driver each ice.roce.<N> is bound to, in order.
bound_drivers() {
	local a
	for a in /sys/bus/auxiliary/devices/ice.roce.*; do
		driver_of "$a"
	done | xargs
}

# bound_modules: the module of the driver bound to each ice.roce.<N>.
bound_modules() {
	local a
	for a in /sys/bus/auxiliary/devices/ice.roce.*; do
		module_of "$a"
	done | xargs
}

# ge_6_16: true when this kernel is 6.16 or newer (ice's public IIDC,
# include/linux/net/intel/iidc_rdma.h; our irdma binds through
# ice_rdma_if.c and records no ice build id).
ge_6_16() {
	[ "$(printf '%s\n' 6.16 "${REL%%-*}" | sort -V | head -n 1)" = 6.16 ]
}

# provider_of IBDEV: the irdma provider library ibv_devinfo loads.
provider_of() {
	LD_DEBUG=files ibv_devinfo -d "$1" 2>&1 >/dev/null |
		sed -n 's/.*file=\(\/[^ ]*libirdma-rdmav34\.so\).*dynamically loaded.*/\1/p' |
		head -n 1
}

# ---- a stock host --------------------------------------------------------
# The image keeps the stock irdma out of the module tree and ours in
# updates/ (tools/mkguest.sh); a real host has it the other way round.
if [ -d /sys/module/irdma ]; then
	echo "note: the runner loaded an irdma (run without --rdma-driver none?): unloading it"
	rmmod irdma || fail "rmmod irdma"
fi
mkdir -p "$M/$INTREE"
mv /usr/lib/e810-stock/irdma.ko* "$M/$INTREE/"
rm -rf "$M/updates" "$LIBDIR/libibverbs/e810"
depmod "$REL"
STOCK_KO=$(ls "$M/$INTREE"/irdma.ko*)
STOCK_ID=$(build_id "$STOCK_KO")
OUR_KO=$K/drivers/infiniband/hw/irdma/irdma.ko
OUR_ID=$(build_id "$OUR_KO")
[ -n "$STOCK_ID" ] && [ -n "$OUR_ID" ] && [ "$STOCK_ID" != "$OUR_ID" ] &&
	ok "build-ids: stock $STOCK_ID, ours $OUR_ID" ||
	fail "build-ids: stock '$STOCK_ID', ours '$OUR_ID'"

expect_eq "before: modinfo -n irdma (in-tree)" "$STOCK_KO" "$(modinfo -n irdma)"
expect_eq "before: irdma description" "Intel(R) Ethernet Protocol Driver for RDMA" \
	"$(modinfo -F description irdma)"
expect_eq "before: ice.roce.<N> unbound" "none none" "$(bound_drivers)"
DRIVER_SUM=$(sha256sum <"$DRIVER_FILE")
STOCK_SO_SUM=$(sha256sum <"$LIBDIR/libibverbs/libirdma-rdmav34.so")
expect_eq "before: irdma.driver" "driver irdma" "$(cat "$DRIVER_FILE")"

# ---- install -------------------------------------------------------------
hi modules && ok "install (KRELEASE=$REL)" || fail "install: $(hi_log modules)"
expect_eq "updates/ holds" irdma.ko "$(ls "$M/updates" | xargs)"
cmp -s "$OUR_KO" "$M/updates/irdma.ko" && ok "updates/irdma.ko is the built file" ||
	fail "updates/irdma.ko differs from the built file"
# depmod keeps one module of a name, the one in updates/.
expect_eq "depmod ran: irdma in modules.dep" "updates/irdma.ko" \
	"$(grep -o '^[^:]*/irdma\.ko[^:]*' "$M/modules.dep" | xargs)"
expect_eq "modinfo -n irdma" "$M/updates/irdma.ko" "$(modinfo -n irdma)"
expect_eq "modinfo irdma: description" "$OURS_DESC" "$(modinfo -F description irdma)"
expect_eq "modinfo irdma: vermagic release" "$REL" \
	"$(modinfo -F vermagic irdma | awk '{ print $1 }')"
modinfo -F alias irdma | grep -qx 'auxiliary:ice_lite.roce' &&
	ok "modinfo irdma: our ice_lite.roce alias" || fail "modinfo irdma: no ice_lite.roce alias"

hi provider && ok "install-provider" || fail "install-provider: $(hi_log provider)"
expect_eq "irdma.driver names ours" "driver $LIBDIR/libibverbs/e810/libirdma" \
	"$(grep -v '^#' "$DRIVER_FILE")"
cmp -s "$K/build/rdma-core/lib/e810/libirdma-rdmav34.so" \
	"$LIBDIR/libibverbs/e810/libirdma-rdmav34.so" &&
	ok "our provider installed as built" || fail "e810/libirdma-rdmav34.so differs from the build"
expect_eq "stock irdma.driver saved" "$DRIVER_SUM" \
	"$(sha256sum <"$LIBDIR/libibverbs/e810/irdma.driver.stock")"

# ---- ours, loaded the way a host loads it ------------------------------
modprobe irdma || fail "modprobe irdma"
expect_eq "loaded irdma build-id = updates/irdma.ko" "$OUR_ID" "$(build_id /sys/module/irdma)"
[ -e /sys/module/irdma/parameters/limits_sel ] && ok "our limits_sel parameter" ||
	fail "no /sys/module/irdma/parameters/limits_sel"
t=$(cat /sys/module/irdma/taint)
[[ $t == *O* ]] && ok "irdma taint '$t': out of tree" || fail "irdma taint '$t': want O"
wait_for '[ "$(bound_drivers)" = "irdma.ice irdma.ice" ]' 30
expect_eq "ice.roce.<N> bound to" "irdma.ice irdma.ice" "$(bound_drivers)"
# One RDMA aux device per function, as this kernel's ice names them.
AUX=$(cd /sys/bus/auxiliary/devices && ls -d ice.roce.* 2>/dev/null | xargs)
expect_eq "auxiliary devices of the two functions" "$AUX" \
	"$(for d in $(e810_pci_devs); do e810_aux_of "$d"; done | sort | xargs)"
expect_eq "ice.roce.<N> count" 2 "$(wc -w <<<"$AUX")"
rdma_two_ports || finish
for ib in "$ib0" "$ib1"; do
	expect_eq "$ib rdma link" ACTIVE "$(rdma_port_state "$ib")"
done
expect_eq "$ib0 port state (ibv_devinfo)" "PORT_ACTIVE (4)" "$(ibv_attr "$ib0" state)"
expect_eq "$ib0 provider (irdma.driver)" "$LIBDIR/libibverbs/e810/libirdma-rdmav34.so" \
	"$(provider_of "$ib0")"
rc_pingpong 4096 50 && ok "RC pingpong 4 KiB x 50 (our provider, our irdma)" ||
	fail "RC pingpong: $(tail -n 2 /tmp/pp-client.log) / $(tail -n 2 /tmp/pp-server.log)"

# ---- built for another ice ---------------------------------------------
# ice_if.c reads struct ice_pf through a private header of one ice build:
# the module records that ice.ko's build id (modinfo ice_build_id) and
# binds only to it. The same module with another id recorded (bytes
# replaced in a copy, as a rebuild against another ice would have it)
# must load and leave both functions alone.
ICE_ID=$(build_id /sys/module/ice)
if ge_6_16; then
	expect_eq "$REL: no ice build id recorded (public IIDC)" "" \
		"$(modinfo -F ice_build_id "$OUR_KO")"
	echo "note: built for another ice: not applicable on $REL"
else
expect_eq "recorded ice build id = running ice's" "$ICE_ID" "$(modinfo -F ice_build_id "$OUR_KO")"
# The id with its first digit changed.
[ "${ICE_ID:0:1}" = 0 ] && OTHER_ID=1${ICE_ID:1} || OTHER_ID=0${ICE_ID:1}
n=$(python3 - "$OUR_KO" /tmp/irdma-other-ice.ko "$ICE_ID" "$OTHER_ID" <<'EOF2'
import sys
src, dst, old, new = sys.argv[1:]
b = open(src, "rb").read()
open(dst, "wb").write(b.replace(old.encode(), new.encode()))
print(b.count(old.encode()))
EOF2
)
# At least twice: the modinfo entry and the string the probe compares.
[ "$n" -ge 2 ] && ok "ice build id replaced $n times in the copy" ||
	fail "ice build id found $n times in $OUR_KO"
expect_eq "other-ice module records" "$OTHER_ID" "$(modinfo -F ice_build_id /tmp/irdma-other-ice.ko)"
rmmod irdma || fail "rmmod irdma"
/sbin/insmod /tmp/irdma-other-ice.ko || fail "insmod the other-ice irdma"
sleep 2
expect_eq "built for another ice: ice.roce.<N> unbound" "none none" "$(bound_drivers)"
expect_eq "built for another ice: no RDMA device" "" "$(ls /sys/class/infiniband 2>/dev/null | xargs)"
rmmod irdma || fail "rmmod the other-ice irdma"
modprobe irdma || fail "modprobe irdma again"
wait_for '[ "$(bound_drivers)" = "irdma.ice irdma.ice" ]' 30
expect_eq "ours again: ice.roce.<N> bound to" "irdma.ice irdma.ice" "$(bound_drivers)"
fi

# ---- uninstall -----------------------------------------------------------
hi uninstall-provider && ok "uninstall-provider" ||
	fail "uninstall-provider: $(hi_log uninstall-provider)"
expect_eq "irdma.driver restored (sha256)" "$DRIVER_SUM" "$(sha256sum <"$DRIVER_FILE")"
expect_eq "stock provider untouched (sha256)" "$STOCK_SO_SUM" \
	"$(sha256sum <"$LIBDIR/libibverbs/libirdma-rdmav34.so")"
[ ! -e "$LIBDIR/libibverbs/e810" ] && ok "libibverbs/e810 removed" ||
	fail "left: $(ls "$LIBDIR/libibverbs/e810")"
expect_eq "$ib0 provider (stock again)" "$LIBDIR/libibverbs/libirdma-rdmav34.so" \
	"$(provider_of "$ib0")"

# As docs/real-hosts.md has it: make uninstall, then rmmod and modprobe.
hi uninstall-modules && ok "uninstall (KRELEASE=$REL)" ||
	fail "uninstall: $(hi_log uninstall-modules)"
grep -q 'irdma is still loaded' "/tmp/hi-uninstall-modules.log" &&
	ok "uninstall says irdma is still loaded" || fail "no 'still loaded' hint: $(hi_log uninstall-modules)"
[ ! -e "$M/updates" ] && ok "updates/ removed" || fail "updates/ left: $(ls "$M/updates")"
expect_eq "depmod ran: irdma in modules.dep" "${STOCK_KO#"$M"/}" \
	"$(grep -o '^[^:]*/irdma\.ko[^:]*' "$M/modules.dep" | xargs)"
expect_eq "after: modinfo -n irdma (in-tree)" "$STOCK_KO" "$(modinfo -n irdma)"
rmmod irdma || fail "rmmod irdma"
modprobe irdma || fail "modprobe irdma (stock)"
expect_eq "loaded irdma build-id = in-tree file" "$STOCK_ID" "$(build_id /sys/module/irdma)"
expect_eq "stock irdma taint" "" "$(cat /sys/module/irdma/taint)"
[ ! -e /sys/module/irdma/parameters/limits_sel ] && ok "no limits_sel: not ours" ||
	fail "limits_sel present: ours still loaded"
wait_for '[ "$(bound_modules)" = "irdma irdma" ]' 30
expect_eq "ice.roce.<N> bound by module (stock)" "irdma irdma" "$(bound_modules)"
STOCK_DRV=$(driver_of "/sys/bus/auxiliary/devices/${AUX%% *}")
[ "$STOCK_DRV" != irdma.ice ] && [ "$STOCK_DRV" != none ] &&
	ok "stock irdma's driver: $STOCK_DRV" || fail "stock irdma's driver: '$STOCK_DRV'"
expect_eq "ice.roce.<N> bound to (stock)" "$STOCK_DRV $STOCK_DRV" "$(bound_drivers)"
rdma_two_ports || finish
for ib in "$ib0" "$ib1"; do
	expect_eq "$ib rdma link (stock)" ACTIVE "$(rdma_port_state "$ib")"
done
rc_pingpong 4096 50 && ok "RC pingpong 4 KiB x 50 (stock provider, stock irdma)" ||
	fail "RC pingpong (stock): $(tail -n 2 /tmp/pp-client.log) / $(tail -n 2 /tmp/pp-server.log)"

# ---- dkms ----------------------------------------------------------------
# What 'dkms install' put in the host's install tree for this kernel.
DKMS_KO=$K/build/install-test/$REL/dkms-irdma.ko.xz
if [ -f "$DKMS_KO" ]; then
	# dkms compresses as the kernel's own modules are (6.1's are not);
	# tests/install/run.sh keeps the module xz-compressed.
	mkdir -p "$M/updates/dkms"
	case $STOCK_KO in
	*.xz) DKMS_INST=$M/updates/dkms/irdma.ko.xz
	      cp "$DKMS_KO" "$DKMS_INST" ;;
	*)    DKMS_INST=$M/updates/dkms/irdma.ko
	      python3 -c 'import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' \
		"$DKMS_KO" >"$DKMS_INST" ;;
	esac
	depmod "$REL"
	expect_eq "dkms: modinfo -n irdma" "$DKMS_INST" "$(modinfo -n irdma)"
	if ge_6_16; then
		expect_eq "dkms: no ice build id recorded (public IIDC)" "" \
			"$(modinfo -F ice_build_id irdma)"
	else
		expect_eq "dkms: recorded ice build id = running ice's" \
			"$(build_id /sys/module/ice)" "$(modinfo -F ice_build_id irdma)"
	fi
	rmmod irdma || fail "rmmod the stock irdma"
	modprobe irdma || fail "modprobe the dkms irdma"
	expect_eq "dkms: loaded irdma build-id = updates/dkms file" \
		"$(build_id "$DKMS_INST")" "$(build_id /sys/module/irdma)"
	wait_for '[ "$(bound_drivers)" = "irdma.ice irdma.ice" ]' 30
	expect_eq "dkms: ice.roce.<N> bound to" "irdma.ice irdma.ice" "$(bound_drivers)"
	rdma_two_ports || finish
	for ib in "$ib0" "$ib1"; do
		expect_eq "dkms: $ib rdma link" ACTIVE "$(rdma_port_state "$ib")"
	done
	rc_pingpong 4096 50 && ok "RC pingpong 4 KiB x 50 (dkms irdma)" ||
		fail "RC pingpong (dkms): $(tail -n 2 /tmp/pp-client.log) / $(tail -n 2 /tmp/pp-server.log)"
	rmmod irdma || fail "rmmod the dkms irdma"
	rm -rf "$M/updates"
	depmod "$REL"
else
	fail "no dkms-built module for $REL ($DKMS_KO: tests/install/run.sh makes it, 'tests/install/run.sh dkms 6.1' for 6.1, 'dkms 7' for 7.x)"
fi

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
