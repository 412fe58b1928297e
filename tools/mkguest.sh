#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds the guest: a bookworm root file system (ext4 image) and a tiny
# initramfs that mounts it. See docs/testing.md.
#
# Layers, each cached where it is expensive:
#   CACHE/guest-base-<key>   debootstrap minbase + the Debian packages the
#                            scenarios need (python3, iproute2, kmod, perftest,
#                            pciutils, nfs-kernel-server, qperf, ucx-utils,
#                            libfabric-bin, ...): ~3 min, once per package list
#   build/guest/root         base + Debian's 6.12 modules + our modules +
#                            siw.ko (tools/build-siw.sh, cached) +
#                            our rdma-core 56.1 build replacing bookworm's 44
#   build/guest/rootfs.ext4  that tree as an ext4 image (seconds)
#   build/guest/initrd.cpio  busybox + virtio_blk/ext4 modules, mounts /dev/vda

. "$(dirname "$0")/lib.sh"
. "$TOP/tools/guest-modules.sh"

# Real RDMA applications the scenarios run as a user would (qperf, UCX's
# ucx_info/ucx_perftest, libfabric's fi_pingpong: tests/vm/apps_*.sh) and
# the iSCSI initiator and target tools (open-iscsi, targetcli-fb) for iSER.
GUEST_PKGS=python3,libpython3.11,iproute2,kmod,perftest,pciutils,procps,iputils-ping,ethtool,busybox,ca-certificates,nfs-kernel-server,qperf,ucx-utils,libfabric-bin,open-iscsi,targetcli-fb
BASE_KEY=$(printf '%s\n' "$DEBIAN_SUITE" "$GUEST_PKGS" | sha256sum | cut -c1-12)
BASE=$CACHE/guest-base-$BASE_KEY
KDIR=$CACHE/kernel-$KVER
GDIR=$BUILD/guest
ROOT=$GDIR/root
RDMA_ROOT=$BUILD/rdma-core-root
DDP_FILE=$CACHE/ddp/$DDP_PKG

# bookworm's rdma-core 44 packages pulled in by perftest; their files are
# removed before our 56.1 build is installed (both use IBVERBS_PRIVATE_34,
# so a mix would load and misbehave instead of failing).
RDMA44_PKGS="libibverbs1 librdmacm1 ibverbs-providers libibumad3"

build_base() {
	[ -f "$BASE/.complete" ] && return 0
	log "debootstrap $DEBIAN_SUITE minbase into $BASE (~2.5 min, once)"
	rm -rf "$BASE"
	mkdir -p "$BASE"
	debootstrap --variant=minbase --include="$GUEST_PKGS" "$DEBIAN_SUITE" \
		"$BASE" http://deb.debian.org/debian >"$CACHE/debootstrap.log" 2>&1 ||
		{ tail -20 "$CACHE/debootstrap.log"; die "debootstrap failed"; }
	rm -rf "$BASE/var/cache/apt/archives"/*.deb "$BASE/var/lib/apt/lists"/*
	touch "$BASE/.complete"
}

remove_rdma44() {
	local pkg f
	for pkg in $RDMA44_PKGS; do
		[ -f "$ROOT/var/lib/dpkg/info/$pkg:amd64.list" ] || continue
		while read -r f; do
			# Only files and symlinks: directories such as the merged-/usr
			# /lib link must stay or the guest cannot boot.
			if [ -L "$ROOT$f" ] || [ -f "$ROOT$f" ]; then
				rm -f "$ROOT$f"
			fi
		done <"$ROOT/var/lib/dpkg/info/$pkg:amd64.list"
	done
}

install_modules() {
	local mdir=$ROOT/lib/modules/$KVER
	rm -rf "$mdir"
	mkdir -p "$ROOT/lib/modules"
	cp -a "$KDIR/lib/modules/$KVER" "$mdir"
	# Both parents are in the image: the stock ice and our ice_lite (the
	# run picks one, see e810-init). The stock irdma has the same module
	# name as ours: it is moved out of the module tree (depmod must see
	# one irdma, ours in updates/) to /usr/lib/e810-stock/, where
	# e810-init loads it when the run asks for it.
	mkdir -p "$ROOT/usr/lib/e810-stock"
	mv "$mdir"/kernel/drivers/infiniband/hw/irdma/irdma.ko* \
	   "$ROOT/usr/lib/e810-stock/"
	mkdir -p "$mdir/updates"
	cp "$TOP/drivers/net/ethernet/intel/ice_lite/ice_lite.ko" \
	   "$TOP/drivers/infiniband/hw/irdma/irdma.ko" "$mdir/updates/"
	# soft-iWARP, which Debian's kernel lacks (tools/build-siw.sh): the
	# iWARP wire peer (modprobe siw; rdma link add ... type siw).
	mkdir -p "$mdir/extra"
	cp "$SIW_KO" "$mdir/extra/siw.ko"
	trim_modules "$ROOT" "$KVER"
	depmod -b "$ROOT" "$KVER"
	# The kernel's configuration where a Debian host keeps it: scenarios
	# read what the guest kernel was built without (smc_r: SMB Direct).
	mkdir -p "$ROOT/boot"
	cp "$KDIR/boot/config-$KVER" "$ROOT/boot/"
}

# The DDP package the stock ice loads (intel/ice/ddp/ice.pkg after its
# per-serial-number name), as firmware-misc-nonfree installs it.
install_ddp() {
	local ddp=$ROOT/lib/firmware/intel/ice/ddp
	mkdir -p "$ddp"
	cp "$DDP_FILE" "$ddp/$DDP_PKG"
	ln -sf "$DDP_PKG" "$ddp/ice.pkg"
}

build_root() {
	log "assembling guest root in $ROOT"
	rm -rf "$ROOT"
	mkdir -p "$GDIR"
	cp -a "$BASE" "$ROOT"
	remove_rdma44
	cp -a "$RDMA_ROOT"/. "$ROOT"/
	install_modules
	install_ddp
	install -m 0755 "$TOP/tools/guest/e810-init" "$ROOT/sbin/e810-init"
	echo e810-guest >"$ROOT/etc/hostname"
	# Our provider is installed next to the stock one, which stays the default.
	[ -f "$ROOT/usr/lib/x86_64-linux-gnu/libibverbs/e810/libirdma-rdmav34.so" ] ||
		die "our provider is missing from the rdma-core staging root"
	chroot "$ROOT" /sbin/ldconfig
}



# Rebuilds only when an input is newer than the image.
up_to_date() {
	local img=$GDIR/rootfs.ext4
	[ -f "$img" ] && [ -f "$GDIR/initrd.cpio" ] || return 1
	[ -z "$(find "$TOP/tools/guest" "$TOP/tools/mkguest.sh" \
		"$TOP/tools/guest-modules.sh" \
		"$TOP/drivers/net/ethernet/intel/ice_lite/ice_lite.ko" \
		"$TOP/drivers/infiniband/hw/irdma/irdma.ko" "$RDMA_ROOT/" "$DDP_FILE" \
		"$SIW_KO" -newer "$img" -print -quit 2>/dev/null)" ]
}

[ -f "$KDIR/.extracted" ] || die "guest kernel missing; run 'make deps'"
[ -f "$DDP_FILE" ] || die "DDP package missing; run 'make deps'"
mkdir -p "$CACHE"
exec 9>"$CACHE/guest.lock"
flock 9
build_base
[ "${1:-}" = base ] && exit 0
[ -d "$RDMA_ROOT/usr" ] || die "rdma-core not built; run tools/build-rdma-core.sh"
SIW_KO=$("$TOP/tools/build-siw.sh")
if up_to_date; then
	log "guest image up to date"
	exit 0
fi
build_root
make_initrd "$GDIR" "$KDIR" "$KVER" "$KDIR/boot/vmlinuz-$KVER"
make_image "$GDIR" "$ROOT"
log "ok: $GDIR/rootfs.ext4 ($(du -h "$GDIR/rootfs.ext4" | cut -f1))"
