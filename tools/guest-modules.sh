# SPDX-License-Identifier: GPL-2.0-only
# The module tree of a test guest, shared by tools/mkguest.sh (Debian's
# 6.12) and tools/mkguest-6.1.sh (bookworm's 6.1). Sourced after lib.sh,
# never run.

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
