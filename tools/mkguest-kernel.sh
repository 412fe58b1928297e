#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A guest for a kernel the user built (tools/vm --kernel-image, docs/testing.md
# "Test your irdma or ice change without hardware"): the normal guest's user
# space (build/guest/root, only read) with the user's kernel and module tree
# instead of Debian's.
#
#   tools/mkguest-kernel.sh BZIMAGE MODULES [KBUILD]
#
# BZIMAGE  the kernel image (arch/x86/boot/bzImage)
# MODULES  its module tree: the INSTALL_MOD_PATH of 'make modules_install'
#          (MODULES/lib/modules/<release>/) or lib/modules/<release> itself
# KBUILD   optional: the kernel's build directory (the O= directory, or
#          /lib/modules/<release>/build): our ice_lite and irdma are then
#          built against it (in a scratch copy, build/kernel-modules/<key>/)
#          and installed in updates/; without it the guest has the
#          tree's own ice and irdma only.
#
# Prints the guest directory, build/guest-kernel/<key>/ (vmlinuz,
# initrd.cpio, rootfs.ext4, release, ours: "1" when our modules are in),
# <key> hashing the inputs' paths, sizes and times, so a rebuilt kernel
# or module tree makes a new guest and an unchanged one is reused. The
# tree's irdma is moved to /usr/lib/e810-stock/ where e810-init loads it
# for --rdma-driver stock (depmod must see one irdma: ours, when built).
# The initramfs carries the tree's virtio_pci, virtio_blk and ext4 (and
# what they need) when they are modules; e810-init loads 9p from the tree.

. "$(dirname "$0")/lib.sh"
. "$TOP/tools/guest-modules.sh"

[ $# -ge 2 ] && [ $# -le 3 ] || die "usage: $0 BZIMAGE MODULES [KBUILD]"
IMG=$(realpath "$1") || die "no kernel image $1"
MODS=$(realpath "$2") || die "no module tree $2"
KB=""
[ -n "${3:-}" ] && { KB=$(realpath "$3") || die "no kernel build directory $3"; }
[ -f "$IMG" ] || die "no kernel image $IMG"
NROOT=$BUILD/guest/root
[ -f "$BUILD/guest/rootfs.ext4" ] && [ -d "$NROOT" ] ||
	die "no normal guest to start from; run 'make all'"

# The module tree's release: MODS/lib/modules/<release> or MODS itself.
if [ -d "$MODS/lib/modules" ]; then
	rels=("$MODS"/lib/modules/*/modules.order)
	[ ${#rels[@]} = 1 ] && [ -f "${rels[0]}" ] ||
		die "$MODS/lib/modules must hold exactly one release with a modules.order"
	MDIR=$(dirname "${rels[0]}")
else
	[ -f "$MODS/modules.order" ] ||
		die "$MODS is neither an INSTALL_MOD_PATH nor a lib/modules/<release> tree"
	MDIR=$MODS
fi
REL=$(basename "$MDIR")
# The image's version string (the "Linux version <release> ..." banner)
# must name the same release, or every modprobe in the guest fails.
grep -aq "Linux version $REL " "$IMG" 2>/dev/null ||
	strings -a "$IMG" 2>/dev/null | grep -q "^$REL " ||
	file -b "$IMG" | grep -q "version $REL " ||
	log "warning: cannot find release $REL in $IMG (a compressed banner?); using it anyway"

# The guest's key: the inputs as they are now.
KEY=$({ echo "$IMG $MDIR $KB"; stat -c '%s %Y' "$IMG"
	find "$MDIR" -name '*.ko*' -printf '%P %s %T@\n' | sort
	[ -z "$KB" ] || stat -c '%s %Y' "$KB/Module.symvers" 2>/dev/null
	cat "$0"; } | sha256sum | cut -c1-12)
GDIR=$BUILD/guest-kernel/$KEY
ROOT=$GDIR/root
SRC=$BUILD/kernel-modules/$KEY
MODULE_DIRS=(drivers/net/ethernet/intel/ice_lite drivers/infiniband/hw/irdma)

# ours: ice_lite and irdma against KBUILD in a scratch copy of the
# checkout's sources (mtimes kept: an unchanged file is not rebuilt). The
# irdma's binding to the stock ice takes that kernel's ice source
# (KBUILD/source, or KBUILD itself for an in-tree build) and the tree's
# ice.ko; without the source it is left out (ice_lite only).
build_modules() {
	local d ice_src=none ice_ko
	ice_ko=$(find "$MDIR/kernel/drivers/net/ethernet/intel/ice" -name 'ice.ko*' 2>/dev/null | head -n 1)
	for d in "$KB/source" "$KB"; do
		if [ -f "$d/drivers/net/ethernet/intel/ice/ice.h" ] && [ -n "$ice_ko" ]; then
			ice_src=$(realpath "$d/drivers/net/ethernet/intel/ice")
			break
		fi
	done
	copy_sources "$SRC"
	for d in "${MODULE_DIRS[@]}"; do
		nice -n 10 make -s -C "$KB" M="$SRC/$d" E810_TOP="$SRC" \
			ICE_SRC="$ice_src" ${ice_ko:+ICE_KO="$ice_ko"} modules ||
			die "building $d against $KB ($REL) failed"
	done
}

build_root() {
	local mdir=$ROOT/lib/modules/$REL stock
	log "assembling the guest root for $REL in $ROOT"
	rm -rf "$ROOT"
	mkdir -p "$GDIR"
	# Hard links: files are only ever replaced below, never written.
	cp -al "$NROOT" "$ROOT"
	rm -rf "$ROOT"/lib/modules/* "$ROOT"/boot/config-*
	cp -a "$MDIR" "$mdir"
	rm -f "$mdir/build" "$mdir/source"
	rm -f "$ROOT"/usr/lib/e810-stock/irdma.ko*
	stock=$(find "$mdir/kernel/drivers/infiniband/hw/irdma" -name 'irdma.ko*' 2>/dev/null | head -n 1)
	if [ -n "$stock" ]; then
		mv "$stock" "$ROOT/usr/lib/e810-stock/"
	else
		log "warning: $REL's tree has no irdma module (CONFIG_INFINIBAND_IRDMA=m): no stock irdma"
	fi
	if [ -n "$KB" ]; then
		mkdir -p "$mdir/updates"
		cp "$SRC/drivers/net/ethernet/intel/ice_lite/ice_lite.ko" \
		   "$SRC/drivers/infiniband/hw/irdma/irdma.ko" "$mdir/updates/"
		[ -f "$KB/.config" ] && mkdir -p "$ROOT/boot" &&
			cp "$KB/.config" "$ROOT/boot/config-$REL"
	fi
	depmod -b "$ROOT" "$REL"
}

# What the guest needs of the kernel beyond the disk: the host share
# (9p over virtio) and the E810's drivers.
check_tree() {
	local m
	for m in 9pnet_virtio 9p ib_uverbs; do
		modprobe -d "$ROOT" -S "$REL" --show-depends "$m" >/dev/null 2>&1 ||
			die "$REL has no $m (CONFIG_NET_9P_VIRTIO, CONFIG_9P_FS, CONFIG_INFINIBAND_USER_ACCESS)"
	done
	modprobe -d "$ROOT" -S "$REL" --show-depends ice >/dev/null 2>&1 ||
		[ -n "$KB" ] || die "$REL has no ice module and no KBUILD was given for ice_lite"
}

up_to_date() {
	local img=$GDIR/rootfs.ext4
	[ -f "$img" ] && [ -f "$GDIR/initrd.cpio" ] || return 1
	[ -z "$(find "$TOP/tools/guest" "$BUILD/guest/rootfs.ext4" \
		${KB:+"$SRC/drivers/net/ethernet/intel/ice_lite/ice_lite.ko"} \
		${KB:+"$SRC/drivers/infiniband/hw/irdma/irdma.ko"} \
		-newer "$img" -print -quit 2>/dev/null)" ]
}

mkdir -p "$BUILD/guest-kernel"
exec 9>"$BUILD/guest-kernel/.lock"
flock 9
[ -z "$KB" ] || build_modules >&2
if ! up_to_date; then
	build_root >&2
	check_tree
	make_initrd "$GDIR" "$ROOT" "$REL" "$IMG" >&2
	make_image "$GDIR" "$ROOT"
	rm -rf "$ROOT"
	echo "$REL" >"$GDIR/release"
	if [ -n "$KB" ]; then echo 1; else echo 0; fi >"$GDIR/ours"
	log "ok: $GDIR/rootfs.ext4 ($REL)" >&2
fi
echo "$GDIR"
