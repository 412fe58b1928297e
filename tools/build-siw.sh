#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# soft-iWARP (siw.ko) for the guest kernel, which Debian builds without it
# (CONFIG_RDMA_SIW is not set): the unmodified drivers/infiniband/sw/siw
# of Debian's linux-source of exactly the guest's kernel (tools/deps.sh,
# CACHE/siw-src-<release>/) built out of tree against the guest kernel's
# headers, as our own modules are (make modules). The result is cached:
#
#   CACHE/siw-<release>-<key>/siw.ko
#
# <key> hashes the source package version, the installed headers
# package's version and this recipe, so a change to either builds anew;
# with a warm cache this script only prints the module's path.
# tools/mkguest.sh installs it as /lib/modules/<release>/extra/siw.ko.

. "$(dirname "$0")/lib.sh"

# Bump when the build steps below change what ends up in the cache.
RECIPE=1
SRC=$CACHE/siw-src-$KVER
KDIR=/usr/src/linux-headers-$KVER

[ -f "$SRC/.extracted" ] || die "siw source missing; run 'make deps'"
[ -f "$KDIR/Module.symvers" ] || die "no headers in $KDIR; run 'make deps'"
HDR_VERSION=$(dpkg-query -W -f='${Version}' "linux-headers-$KVER" 2>/dev/null) ||
	die "linux-headers-$KVER is not installed; run 'make deps'"
KEY=$(printf '%s\n' "$(cat "$SRC/.extracted")" "$HDR_VERSION" "$RECIPE" |
	sha256sum | cut -c1-12)
OUT=$CACHE/siw-$KVER-$KEY

if [ ! -f "$OUT/.complete" ]; then
	log "building siw.ko for $KVER (source $(cat "$SRC/.extracted"), headers $HDR_VERSION)"
	rm -rf "$OUT.tmp"
	mkdir -p "$OUT.tmp"
	cp -a "$SRC" "$OUT.tmp/src"
	# CONFIG_RDMA_SIW=m selects the objects of the tree's own Makefile;
	# its other dependencies (INFINIBAND_VIRT_DMA, LIBCRC32C,
	# CRYPTO_CRC32C) are in the guest kernel's configuration.
	make -s -C "$KDIR" M="$OUT.tmp/src" CONFIG_RDMA_SIW=m \
		-j"$(nproc_build)" modules >"$OUT.tmp/build.log" 2>&1 ||
		{ tail -20 "$OUT.tmp/build.log" >&2; die "building siw.ko failed"; }
	vermagic=$(modinfo -F vermagic "$OUT.tmp/src/siw.ko")
	[ "${vermagic%% *}" = "$KVER" ] ||
		die "siw.ko has vermagic '$vermagic', not $KVER"
	mv "$OUT.tmp/src/siw.ko" "$OUT.tmp/siw.ko"
	rm -rf "$OUT.tmp/src"
	touch "$OUT.tmp/.complete"
	rm -rf "$OUT"
	mv "$OUT.tmp" "$OUT"
fi
echo "$OUT/siw.ko"
