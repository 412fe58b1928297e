#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The 6.1 guest (docs/testing.md, "The 6.1 guest"): bookworm's own kernel
# (linux-image-$KVER_OLD, Linux 6.1, the kernel a Debian 12 host runs by
# default) under the normal guest's user space. The normal guest's root
# with Debian's 6.1 module tree instead of the 6.12 one, the 6.1 stock
# irdma in /usr/lib/e810-stock/, our ice_lite and irdma built against the
# 6.1 headers (irdma with its 6.1 binding to the stock ice, ice_if.c, for
# exactly that kernel's ice.ko) in updates/, and an initramfs with the 6.1
# virtio_blk and ext4. The normal guest (build/guest/) is only read.
#
#   build/guest-6.1-modules/  scratch copy of drivers/, include/ and lib/,
#                             our modules built there against 6.1
#   build/guest-6.1/          vmlinuz, initrd.cpio, rootfs.ext4 (and root/)
#
# No siw.ko (the iWARP wire peer is built for the 6.12 guest only) and no
# in-guest test modules (tests/vm/kmod/, 6.12 only).

. "$(dirname "$0")/lib.sh"
. "$TOP/tools/guest-modules.sh"

REL=$KVER_OLD
KD=$CACHE/kernel-$REL
HDR=/usr/src/linux-headers-$REL
ICE_DIR=$CACHE/linux-source-$REL/drivers/net/ethernet/intel/ice
ICE_KO_FILE=$CACHE/ice-ko-$REL/ice.ko
SRC=$BUILD/guest-6.1-modules
GDIR=$BUILD/guest-6.1
ROOT=$GDIR/root
NROOT=$BUILD/guest/root
MODULE_DIRS=(drivers/net/ethernet/intel/ice_lite drivers/infiniband/hw/irdma)

# Our modules against 6.1, in a scratch copy so the checkout's objects
# (built for the 6.12 guest) stay. Copies keep their mtimes, so an
# unchanged file is not rebuilt. E810_REQUIRE_ICE: without the stock-ice
# binding the 6.1 guest could not run our irdma under the stock ice.
build_modules() {
	local d
	mkdir -p "$SRC"
	(cd "$TOP" && git ls-files -z drivers include lib tools/ko-build-id.sh |
		xargs -0 cp -p -u --parents -t "$SRC")
	for d in "${MODULE_DIRS[@]}"; do
		make -s -j"$(nproc_build)" -C "$HDR" M="$SRC/$d" E810_TOP="$SRC" \
			ICE_SRC="$ICE_DIR" ICE_KO="$ICE_KO_FILE" \
			E810_REQUIRE_ICE=1 modules >/dev/null ||
			die "building $d against $REL failed"
	done
	[ -f "$SRC/drivers/infiniband/hw/irdma/ice_if.o" ] ||
		die "irdma for $REL was built without ice_if.o"
}

build_root() {
	local mdir=$ROOT/lib/modules/$REL
	log "assembling the 6.1 guest root in $ROOT"
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

# As tools/mkguest.sh's: virtio_blk and ext4 with their dependencies, in
# load order, uncompressed for busybox insmod (bookworm's 6.1 ships its
# modules uncompressed, later kernels as .ko.xz), and virtio_pci, the
# transport, which 6.1 builds as a module (CONFIG_VIRTIO_PCI=m; 6.12
# builds it in) and no module depends on.
build_initrd() {
	local dir=$GDIR/initrd m
	rm -rf "$dir"
	mkdir -p "$dir"/{bin,dev,proc,sys,newroot,lib/modules}
	cp /bin/busybox "$dir/bin/busybox"
	for m in sh mount umount switch_root insmod sleep cat echo mkdir reboot; do
		ln -s busybox "$dir/bin/$m"
	done
	: >"$dir/lib/modules/order"
	modprobe -d "$KD" -S "$REL" --show-depends -a virtio_pci virtio_blk ext4 |
	while read -r cmd path _; do
		[ "$cmd" = insmod ] || continue
		m=$(basename "$path" .xz)
		[ -f "$dir/lib/modules/$m" ] && continue
		case "$path" in
		*.xz) xz -dc "$path" >"$dir/lib/modules/$m" ;;
		*) cp "$path" "$dir/lib/modules/$m" ;;
		esac
		echo "$m" >>"$dir/lib/modules/order"
	done
	install -m 0755 "$TOP/tools/guest/initrd-init" "$dir/init"
	(cd "$dir" && find . | cpio -o -H newc --quiet) >"$GDIR/initrd.cpio"
	cp "$KD/boot/vmlinuz-$REL" "$GDIR/vmlinuz"
}

build_image() {
	local size_mb
	size_mb=$(( $(du -sm "$ROOT" | cut -f1) + 256 ))
	rm -f "$GDIR/rootfs.ext4.tmp"
	mkfs.ext4 -q -F -L e810root -d "$ROOT" "$GDIR/rootfs.ext4.tmp" "${size_mb}M" >/dev/null ||
		die "mkfs.ext4 failed"
	mv "$GDIR/rootfs.ext4.tmp" "$GDIR/rootfs.ext4"
}

up_to_date() {
	local img=$GDIR/rootfs.ext4
	[ -f "$img" ] && [ -f "$GDIR/initrd.cpio" ] || return 1
	[ -z "$(find "$TOP/tools/guest" "$TOP/tools/mkguest-6.1.sh" \
		"$TOP/tools/guest-modules.sh" "$KD/.extracted" \
		"$SRC/drivers/net/ethernet/intel/ice_lite/ice_lite.ko" \
		"$SRC/drivers/infiniband/hw/irdma/irdma.ko" \
		"$BUILD/guest/rootfs.ext4" -newer "$img" -print -quit 2>/dev/null)" ]
}

[ -f "$KD/.extracted" ] || die "6.1 guest kernel missing; run 'make deps'"
[ -f "$HDR/Module.symvers" ] || die "no headers in $HDR; run 'make deps'"
[ -f "$ICE_DIR/ice.h" ] || die "no 6.1 ice source in $ICE_DIR; run 'make deps'"
[ -f "$ICE_KO_FILE" ] || die "no 6.1 ice.ko in $ICE_KO_FILE; run 'make deps'"
[ -f "$BUILD/guest/rootfs.ext4" ] && [ -d "$NROOT" ] ||
	die "no normal guest to start from; run 'make guest'"
build_modules
if up_to_date; then
	log "6.1 guest up to date ($REL)"
	exit 0
fi
build_root
build_initrd
build_image
log "ok: $GDIR/rootfs.ext4 ($REL, $(du -h "$GDIR/rootfs.ext4" | cut -f1))"
