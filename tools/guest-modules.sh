# SPDX-License-Identifier: GPL-2.0-only
# What the test guests' scripts share: the module tree (tools/mkguest.sh,
# Debian's 6.12, and tools/mkguest-debian.sh, Debian's 6.1 and 7.x), the
# scratch copy our modules build in, the initramfs and the root disk
# (those two for mkguest-debian.sh, mkguest-debug.sh and
# mkguest-kernel.sh). Sourced after lib.sh, never run.

# Module directories (under kernel/) a test guest can need: networking,
# RDMA, file systems, crypto and the virtual hardware; everything they
# depend on stays too. The rest of Debian's 4200 modules (sound, media,
# GPUs, USB, wireless, sensors, ...) only made every depmod in the guest
# (rdma_install runs three, each reading every compressed module under
# TCG) take 40 s instead of about 10.
KEEP_MODULE_DIRS="arch block crypto fs kernel lib mm net security virt
	drivers/infiniband drivers/net drivers/virtio drivers/block
	drivers/char drivers/dma-buf drivers/nvme drivers/target drivers/ptp
	drivers/pps drivers/dpll drivers/gnss drivers/vhost drivers/vdpa
	drivers/pci drivers/base drivers/dca"
# Single modules kept from directories not in the list, path under
# kernel/ without the .ko suffix: sd_mod is the SCSI disk driver that
# binds the LUN an iSCSI/iSER session reports (tests/vm/iser.sh); the
# initiators (ib_iser, libiscsi) pull in only scsi_mod and scsi_common,
# so without it a login attaches no block device. iscsi_tcp is the
# initiator's TCP transport, iSER's counterpart in tests/bench/ulp.sh.
KEEP_MODULES="drivers/scsi/sd_mod drivers/scsi/iscsi_tcp"
# ... minus these (hardware no guest has).
DROP_MODULE_DIRS="drivers/net/wireless drivers/net/can drivers/net/usb
	drivers/net/ieee802154 drivers/net/wwan drivers/net/hamradio
	drivers/net/arcnet drivers/net/fddi net/bluetooth net/can net/mac80211
	net/wireless net/ieee802154 net/nfc"

# trim_modules ROOT RELEASE: removes from module tree
# ROOT/lib/modules/RELEASE the modules outside
# KEEP_MODULE_DIRS (or inside DROP_MODULE_DIRS) and not in KEEP_MODULES
# that no kept module depends on (modules.dep of the whole tree, made
# first).
trim_modules() {
	local root=$1 kver=$2 mdir=$1/lib/modules/$2
	depmod -b "$root" "$kver"
	python3 - "$mdir" "$KEEP_MODULE_DIRS" "$DROP_MODULE_DIRS" \
		"$KEEP_MODULES" <<-'PY'
	import os, sys
	mdir, keep, drop = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
	single = set(sys.argv[4].split())
	deps = {}
	for line in open(os.path.join(mdir, "modules.dep")):
	    mod, _, rest = line.partition(":")
	    deps[mod] = rest.split()
	def wanted(m):
	    if not m.startswith("kernel/"):
	        return True          # updates/: ours
	    rel = m[len("kernel/"):]
	    if rel.partition(".ko")[0] in single:
	        return True
	    inside = lambda dirs: any(rel.startswith(d + "/") for d in dirs)
	    return inside(keep) and not inside(drop)
	kept = set()
	todo = [m for m in deps if wanted(m)]
	while todo:
	    m = todo.pop()
	    if m not in kept:
	        kept.add(m)
	        todo.extend(deps.get(m, []))
	for m in deps:
	    if m not in kept:
	        os.unlink(os.path.join(mdir, m))
	print("modules: kept %d of %d" % (len(kept), len(deps)))
	PY
	find "$mdir/kernel" -type d -empty -delete
}

# copy_sources DIR: the checkout's module sources (drivers/, include/,
# lib/ and the build-id helper their Kbuild runs) in scratch copy DIR, for
# building our modules against another kernel without touching the
# checkout's objects. Copies keep their mtimes, so an unchanged file is
# not rebuilt.
copy_sources() {
	mkdir -p "$1"
	(cd "$TOP" && git ls-files -z drivers include lib tools/ko-build-id.sh |
		xargs -0 cp -p -u --parents -t "$1")
}

# unpack_ko FILE: a module, decompressed (busybox insmod reads plain .ko).
unpack_ko() {
	case $1 in
	*.xz) xz -dc "$1" ;;
	*.gz) gzip -dc "$1" ;;
	*.zst) zstd -qdc "$1" ;;
	*) cat "$1" ;;
	esac
}

# make_initrd GDIR MODROOT RELEASE VMLINUZ: the guests' initramfs
# (tools/guest/initrd-init: busybox mounting /dev/vda) in GDIR/initrd.cpio
# with the modules the root disk needs, virtio_pci, virtio_blk and ext4
# with what they depend on, in load order, from the module tree
# MODROOT/lib/modules/RELEASE (none when the kernel has them built in:
# modprobe then prints "builtin" lines), and VMLINUZ as GDIR/vmlinuz.
make_initrd() {
	local gdir=$1 mroot=$2 rel=$3 dir=$1/initrd cmd path m
	rm -rf "$dir"
	mkdir -p "$dir"/{bin,dev,proc,sys,newroot,lib/modules}
	cp /bin/busybox "$dir/bin/busybox"
	for m in sh mount umount switch_root insmod sleep cat echo mkdir reboot; do
		ln -s busybox "$dir/bin/$m"
	done
	: >"$dir/lib/modules/order"
	modprobe -d "$mroot" -S "$rel" --show-depends -a virtio_pci virtio_blk ext4 \
		>/dev/null || die "$rel lacks virtio_pci, virtio_blk or ext4 (built in or modules)"
	modprobe -d "$mroot" -S "$rel" --show-depends -a virtio_pci virtio_blk ext4 |
	while read -r cmd path _; do
		[ "$cmd" = insmod ] || continue
		m=$(basename "$path")
		m=${m%.xz} m=${m%.gz} m=${m%.zst}
		[ -f "$dir/lib/modules/$m" ] && continue
		unpack_ko "$path" >"$dir/lib/modules/$m"
		echo "$m" >>"$dir/lib/modules/order"
	done
	install -m 0755 "$TOP/tools/guest/initrd-init" "$dir/init"
	(cd "$dir" && find . | cpio -o -H newc --quiet) >"$gdir/initrd.cpio"
	cp "$4" "$gdir/vmlinuz"
}

# make_image GDIR ROOT: ROOT as the ext4 root disk GDIR/rootfs.ext4, with
# 256 MB to spare.
make_image() {
	local size_mb
	size_mb=$(( $(du -sm "$2" | cut -f1) + 256 ))
	rm -f "$1/rootfs.ext4.tmp"
	mkfs.ext4 -q -F -L e810root -d "$2" "$1/rootfs.ext4.tmp" "${size_mb}M" >/dev/null ||
		die "mkfs.ext4 failed"
	mv "$1/rootfs.ext4.tmp" "$1/rootfs.ext4"
}
