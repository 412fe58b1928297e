#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The guests of Debian's other kernels (docs/testing.md, "The 6.1 guest"
# and "The 7.x guest"): the normal guest's user space under
#
#   6.1  bookworm's own kernel (linux-image-$KVER_OLD), the kernel a
#        Debian 12 host runs by default
#   7    the newest kernel, trixie-backports' $KVER_NEW (the third `make
#        lint` leg; its stock ice has the 6.16+ IIDC of iidc_rdma.h)
#
#   tools/mkguest-debian.sh 6.1|7
#
# The normal guest's root with that kernel's module tree instead of the
# 6.12 one, its stock irdma in /usr/lib/e810-stock/, our ice_lite and
# irdma built against its headers in updates/ (irdma with its binding to
# that kernel's stock ice: ice_if.c for exactly 6.1's ice.ko, ice_rdma_if.c
# on 7.x), and an initramfs with its virtio_blk and ext4. The normal guest
# (build/guest/) is only read.
#
#   build/guest-<K>-modules/  scratch copy of drivers/, include/ and lib/,
#                             our modules built there (for 7.x the copy is
#                             in tools/kroot.sh's trixie root, whose
#                             compiler and libc those headers need)
#   build/guest-<K>/          vmlinuz, initrd.cpio, rootfs.ext4 (and root/)
#
# The in-guest test modules (tests/vm/kmod/) are built there too, beside
# ours; tools/vm shares that build with a scenario booted on that kernel.
# No siw.ko (the iWARP wire peer is built for the 6.12 guest only).

. "$(dirname "$0")/lib.sh"
. "$TOP/tools/guest-modules.sh"

K=${1:-}
case "$K" in
6.1)	REL=$KVER_OLD ;;
7)	REL=$KVER_NEW
	"$TOP/tools/deps.sh" new ;;
*)	die "usage: $0 6.1|7" ;;
esac
KD=$CACHE/kernel-$REL
GDIR=$BUILD/guest-$K
ROOT=$GDIR/root
NROOT=$BUILD/guest/root
MODULE_DIRS=(drivers/net/ethernet/intel/ice_lite drivers/infiniband/hw/irdma)
# The in-guest test modules: every tests/vm/kmod/<name>/ with a Kbuild.
mapfile -t TEST_MODULE_DIRS < <(cd "$TOP" &&
	git ls-files 'tests/vm/kmod/*/Kbuild' | xargs -n1 dirname)
ICE_O=ice_if.o
if [ "$K" = 7 ]; then
	KROOT=$("$TOP/tools/kroot.sh")
	SRC_IN=$(guest7_src_in)
	SRC=$KROOT$SRC_IN
	HDR=$KROOT/usr/src/linux-headers-$REL
	ICE_O=ice_rdma_if.o
	# 7.x has no kernel CQ resize (ib_resize_cq() is gone; ib_device_ops
	# has resize_user_cq only): nothing for cq_resize_stress to call.
	mapfile -t TEST_MODULE_DIRS < <(printf '%s\n' "${TEST_MODULE_DIRS[@]}" |
		grep -vx tests/vm/kmod/cq_resize_stress)
else
	SRC=$(guest_modules_dir "$K")
	HDR=/usr/src/linux-headers-$REL
	ICE_DIR=$CACHE/linux-source-$REL/drivers/net/ethernet/intel/ice
	ICE_KO_FILE=$CACHE/ice-ko-$REL/ice.ko
fi

# Our modules and the test modules against that kernel, in a scratch copy
# so the checkout's objects (built for the 6.12 guest) stay.
# E810_REQUIRE_ICE: without the stock-ice binding the guest could not run
# our irdma under the stock ice (the test modules ignore these variables).
build_modules() {
	local d
	copy_sources "$SRC"
	(cd "$TOP" && git ls-files -z tests/vm/kmod |
		xargs -0 cp -p -u --parents -t "$SRC")
	for d in "${MODULE_DIRS[@]}" "${TEST_MODULE_DIRS[@]}"; do
		if [ "$K" = 7 ]; then
			"$TOP/tools/kroot.sh" run make -s -j"$(nproc_build)" \
				-C "/usr/src/linux-headers-$REL" M="$SRC_IN/$d" \
				E810_TOP="$SRC_IN" E810_REQUIRE_ICE=1 modules >/dev/null
		else
			make -s -j"$(nproc_build)" -C "$HDR" M="$SRC/$d" E810_TOP="$SRC" \
				ICE_SRC="$ICE_DIR" ICE_KO="$ICE_KO_FILE" \
				E810_REQUIRE_ICE=1 modules >/dev/null
		fi || die "building $d against $REL failed"
	done
	[ -f "$SRC/drivers/infiniband/hw/irdma/$ICE_O" ] ||
		die "irdma for $REL was built without $ICE_O"
}

build_root() {
	local mdir=$ROOT/lib/modules/$REL
	log "assembling the $K guest root in $ROOT"
	rm -rf "$ROOT"
	mkdir -p "$GDIR"
	cp -a "$NROOT" "$ROOT"
	rm -rf "$ROOT"/lib/modules/* "$ROOT"/boot/config-*
	cp -a "$KD/lib/modules/$REL" "$mdir"
	rm -f "$ROOT"/usr/lib/e810-stock/irdma.ko*
	mv "$mdir"/kernel/drivers/infiniband/hw/irdma/irdma.ko* \
	   "$ROOT/usr/lib/e810-stock/"
	mkdir -p "$mdir/updates"
	cp "$SRC/drivers/net/ethernet/intel/ice_lite/ice_lite.ko" \
	   "$SRC/drivers/infiniband/hw/irdma/irdma.ko" "$mdir/updates/"
	trim_modules "$ROOT" "$REL"
	depmod -b "$ROOT" "$REL"
	cp "$KD/boot/config-$REL" "$ROOT/boot/"
}

up_to_date() {
	local img=$GDIR/rootfs.ext4
	[ -f "$img" ] && [ -f "$GDIR/initrd.cpio" ] || return 1
	[ "$(cat "$GDIR/release" 2>/dev/null)" = "$REL" ] || return 1
	[ -z "$(find "$TOP/tools/guest" "$TOP/tools/mkguest-debian.sh" \
		"$TOP/tools/guest-modules.sh" "$KD/.extracted" \
		"$SRC/drivers/net/ethernet/intel/ice_lite/ice_lite.ko" \
		"$SRC/drivers/infiniband/hw/irdma/irdma.ko" \
		"$BUILD/guest/rootfs.ext4" -newer "$img" -print -quit 2>/dev/null)" ]
}

[ -f "$KD/.extracted" ] || die "$K guest kernel missing; run 'make deps'"
[ -f "$HDR/Module.symvers" ] || die "no headers in $HDR; run 'make deps'"
if [ "$K" = 6.1 ]; then
	[ -f "$ICE_DIR/ice.h" ] || die "no 6.1 ice source in $ICE_DIR; run 'make deps'"
	[ -f "$ICE_KO_FILE" ] || die "no 6.1 ice.ko in $ICE_KO_FILE; run 'make deps'"
fi
[ -f "$BUILD/guest/rootfs.ext4" ] && [ -d "$NROOT" ] ||
	die "no normal guest to start from; run 'make guest'"
build_modules
if up_to_date; then
	log "$K guest up to date ($REL)"
	exit 0
fi
build_root
make_initrd "$GDIR" "$ROOT" "$REL" "$KD/boot/vmlinuz-$REL"
make_image "$GDIR" "$ROOT"
echo "$REL" >"$GDIR/release"
log "ok: $GDIR/rootfs.ext4 ($REL, $(du -h "$GDIR/rootfs.ext4" | cut -f1))"
