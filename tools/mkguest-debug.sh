#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The debug guest (docs/testing.md, "Debug kernel"): the normal guest's root
# with the debug kernel's module tree instead of Debian's, our modules built
# against the debug kernel, and an initramfs without modules (virtio_blk
# and ext4 are built in: tools/guest-modules.sh's make_initrd finds none).
# The normal guest (build/guest/) is only read.
#
#   build/debug-modules/      scratch copy of drivers/ and include/, our
#                             modules built there against the debug kernel
#   build/guest-debug/        vmlinuz, initrd.cpio, rootfs.ext4 (and root/)
#
# The stock irdma of the debug kernel takes the place of Debian's in
# /usr/lib/e810-stock/ (e810-init loads it for --rdma-driver stock); the
# stock ice stays in the module tree (--parent ice).

. "$(dirname "$0")/lib.sh"
. "$TOP/tools/guest-modules.sh"

KD=$("$TOP/tools/build-debug-kernel.sh")
REL=$(cat "$KD/release")
SRC=$BUILD/debug-modules
GDIR=$BUILD/guest-debug
ROOT=$GDIR/root
NROOT=$BUILD/guest/root
MODULE_DIRS=(drivers/net/ethernet/intel/ice_lite drivers/infiniband/hw/irdma)

# Our modules against the debug tree, in a scratch copy so the checkout's
# objects (built for Debian's kernel) stay. Copies keep their mtimes, so
# an unchanged file is not rebuilt. -g: line numbers for the reports.
build_modules() {
	local d
	copy_sources "$SRC"
	# The binding to the stock ice records that kernel's ice.ko build id.
	for d in "${MODULE_DIRS[@]}"; do
		nice -n 10 make -s -C "$KD/build" M="$SRC/$d" E810_TOP="$SRC" \
			ICE_SRC="$KD/src/drivers/net/ethernet/intel/ice" \
			ICE_KO="$KD/lib/modules/$REL/kernel/drivers/net/ethernet/intel/ice/ice.ko" \
			E810_REQUIRE_ICE=1 KCFLAGS=-g W=1 modules ||
			die "building $d against $REL failed"
	done
}

build_root() {
	local mdir=$ROOT/lib/modules/$REL
	log "assembling the debug guest root in $ROOT"
	rm -rf "$ROOT"
	mkdir -p "$GDIR"
	cp -a "$NROOT" "$ROOT"
	rm -rf "$ROOT"/lib/modules/*
	cp -a "$KD/lib/modules/$REL" "$mdir"
	rm -f "$ROOT"/usr/lib/e810-stock/irdma.ko*
	mv "$mdir/kernel/drivers/infiniband/hw/irdma/irdma.ko" \
	   "$ROOT/usr/lib/e810-stock/"
	mkdir -p "$mdir/updates"
	cp "$SRC/drivers/net/ethernet/intel/ice_lite/ice_lite.ko" \
	   "$SRC/drivers/infiniband/hw/irdma/irdma.ko" "$mdir/updates/"
	depmod -b "$ROOT" "$REL"
	# The kernel's configuration where scenarios look for it (what a
	# kernel is built without, e.g. provider_pingpong's udmabuf).
	cp "$KD/build/.config" "$ROOT/boot/config-$REL"
}

up_to_date() {
	local img=$GDIR/rootfs.ext4
	[ -f "$img" ] && [ -f "$GDIR/initrd.cpio" ] || return 1
	[ "$(cat "$GDIR/kernel" 2>/dev/null)" = "$KD" ] || return 1
	[ -z "$(find "$TOP/tools/guest" "$TOP/tools/mkguest-debug.sh" \
		"$SRC/drivers/net/ethernet/intel/ice_lite/ice_lite.ko" \
		"$SRC/drivers/infiniband/hw/irdma/irdma.ko" \
		"$BUILD/guest/rootfs.ext4" -newer "$img" -print -quit 2>/dev/null)" ]
}

[ -f "$BUILD/guest/rootfs.ext4" ] && [ -d "$NROOT" ] ||
	die "no normal guest to start from; run 'make all'"
build_modules
if up_to_date; then
	log "debug guest up to date ($REL)"
	exit 0
fi
build_root
make_initrd "$GDIR" "$ROOT" "$REL" "$KD/vmlinuz"
make_image "$GDIR" "$ROOT"
echo "$KD" >"$GDIR/kernel"
log "ok: $GDIR/rootfs.ext4 ($REL, $(du -h "$GDIR/rootfs.ext4" | cut -f1))"
