#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# dkms PRE_BUILD (dkms.conf): puts the stock ice's source of exactly the
# kernel being built at ./ice-src/drivers/net/ethernet/intel/ice, where
# dkms.conf's MAKE line points ICE_SRC. Self-contained: it runs in dkms's
# copy of the source.
#
#   dkms-ice-src.sh <kernelver> <kernel_source_dir>
#
# Looked for, in order: $ICE_SRC (an ice directory, when dkms runs with the
# caller's environment); /usr/src/linux-source-<major>.<minor>/ (Debian's
# tarball unpacked there); /usr/src/linux-source-<major>.<minor>.tar.xz
# (Debian's linux-source-<major>.<minor> package as installed). A source is
# used only when its VERSION/PATCHLEVEL/SUBLEVEL are the kernel's.
# Nothing found: a message naming the package, exit 1 (dkms goes on, and
# the MAKE line then stops at the missing ice.h). Kernels with the public
# IIDC headers (6.16+) need none of this: exit 0 at once.

set -euo pipefail

kernelver=${1:?usage: $0 <kernelver> <kernel_source_dir>}
ksrc=${2:?usage: $0 <kernelver> <kernel_source_dir>}
sub=drivers/net/ethernet/intel/ice
out=ice-src
srcroot=${E810_SRC_ROOT:-/usr/src}

say() { printf 'irdma-e810: %s\n' "$*" >&2; }
fail() {
	say "$*"
	say "the stock-ice binding cannot be built for $kernelver; irdma-e810 is not installed for it"
	exit 1
}

# Version of the headers: LINUX_VERSION_SUBLEVEL is the real sublevel
# (Debian's 6.1.0-56-amd64 is 6.1.192), unlike the release name.
vh=$ksrc/include/generated/uapi/linux/version.h
[ -f "$vh" ] || fail "no $vh: are the headers of $kernelver installed (linux-headers-$kernelver)?"
maj=$(sed -n 's/^#define LINUX_VERSION_MAJOR //p' "$vh")
min=$(sed -n 's/^#define LINUX_VERSION_PATCHLEVEL //p' "$vh")
sl=$(sed -n 's/^#define LINUX_VERSION_SUBLEVEL //p' "$vh")
[ -n "$maj" ] && [ -n "$min" ] && [ -n "$sl" ] || fail "cannot read the kernel version from $vh"
want=$maj.$min.$sl
pkg=linux-source-$maj.$min

rm -rf "$out"

# 6.16+: the binding (ice_rdma_if.c) needs only the public iidc_rdma
# headers; Kbuild ignores ICE_SRC there. Kbuild looks for them in
# $(srctree): the headers' directory itself, or the source tree its
# Makefile includes when it is an output directory (make O=, and Debian's
# linux-headers-<release>, whose include/linux/ is in the
# linux-headers-<version>-common it includes).
srctree=
if [ -f "$ksrc/Makefile" ]; then
	srctree=$(sed -n '/^include[[:space:]]\+\/.*\/Makefile[[:space:]]*$/{
		s|^include[[:space:]]\+\(/.*\)/Makefile[[:space:]]*$|\1|p; q; }' "$ksrc/Makefile")
fi
for d in "$ksrc" ${srctree:+"$srctree"}; do
	if [ -e "$d/include/linux/net/intel/iidc_rdma_ice.h" ]; then
		say "Linux $want has the public IIDC headers (iidc_rdma_ice.h): no ice source needed"
		exit 0
	fi
done

# "V.P.S" of a kernel source tree's top Makefile.
tree_version() {
	sed -n -e 's/^VERSION = //p' -e 's/^PATCHLEVEL = //p' -e 's/^SUBLEVEL = //p' "$1" |
		paste -sd.
}

mkdir -p "$out/${sub%/*}"

if [ -n "${ICE_SRC:-}" ]; then
	[ -f "$ICE_SRC/ice.h" ] || fail "ICE_SRC=$ICE_SRC has no ice.h"
	ln -s "$ICE_SRC" "$out/$sub"
	say "ice source: ICE_SRC=$ICE_SRC (not checked against $want)"
	exit 0
fi

tree=$srcroot/$pkg
if [ -f "$tree/$sub/ice.h" ] && [ "$(tree_version "$tree/Makefile")" = "$want" ]; then
	ln -s "$tree/$sub" "$out/$sub"
	say "ice source: $tree/$sub ($want)"
	exit 0
fi

tarball=$srcroot/$pkg.tar.xz
if [ -f "$tarball" ]; then
	tar -C "$out" --strip-components=1 -xJf "$tarball" "$pkg/Makefile" "$pkg/$sub" ||
		fail "cannot unpack $pkg/$sub from $tarball"
	have=$(tree_version "$out/Makefile")
	if [ "$have" = "$want" ] && [ -f "$out/$sub/ice.h" ]; then
		say "ice source: $tarball ($want)"
		exit 0
	fi
	rm -rf "$out"
	fail "$tarball is Linux $have, the kernel $kernelver is $want: install $pkg of the kernel's version (apt-get install $pkg=<version of linux-image-$kernelver>)"
fi
rm -rf "$out"
fail "no source of Linux $want's ice driver: install Debian's $pkg of the kernel's version (apt-get install $pkg), then 'dkms build' again"
