#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Installs our stack on a host with a real E810 and the distribution's stock
# ice (docs/real-hosts.md). Run through the top-level Makefile:
#
#   host-install.sh modules            make install KDIR=... (or KRELEASE=...)
#   host-install.sh uninstall-modules  make uninstall KDIR=... (or KRELEASE=...)
#   host-install.sh provider           make install-provider
#   host-install.sh uninstall-provider make uninstall-provider
#   host-install.sh dkms-source        make dkms-source
#
# Settings come from the environment (the Makefile passes its variables):
# KDIR (and KDIR_ORIGIN, make's $(origin KDIR)), KRELEASE, DESTDIR, INSTALL_MOD_PATH,
# INSTALL_MOD_DIR, WITH_ICE_LITE, ICE_SRC, IBVERBS_VERSION_CHECK,
# E810_PROVIDER_SO.

. "$(dirname "$0")/lib.sh"

DESTDIR=${DESTDIR:-}
MULTIARCH=x86_64-linux-gnu
LIBDIR=/usr/lib/$MULTIARCH
# Where rdma-core's libibverbs looks for providers (VERBS_PROVIDER_DIR) and
# its configuration (IBV_CONFIG_DIR), as Debian builds it.
PROVIDER_DIR=$LIBDIR/libibverbs
IBV_CONFIG_DIR=/etc/libibverbs.d
OUR_PROVIDER=$PROVIDER_DIR/e810/libirdma-rdmav34.so
DRIVER_FILE=$IBV_CONFIG_DIR/irdma.driver
# The stock irdma.driver is kept here while ours is installed: outside
# IBV_CONFIG_DIR, where libibverbs reads every regular file.
DRIVER_SAVED=$PROVIDER_DIR/e810/irdma.driver.stock
DRIVER_MARK="# irdma-e810: written by 'make install-provider'; 'make uninstall-provider' restores the stock file"

PACKAGE_NAME=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' "$TOP/dkms.conf")
PACKAGE_VERSION=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$TOP/dkms.conf")

# The module sources a build needs, copied into DEST (relative paths and
# times kept, so kbuild rebuilds only what changed): the Kbuild inputs of
# both modules, the shared headers and the ring layer irdma compiles in
# (lib/irdma-ring), no build output; and the script irdma's Kbuild reads
# the stock ice.ko's build id with.
copy_module_sources() {
	local dest=$1
	(cd "$TOP" && find drivers include lib -type f \
		\( -name '*.c' ! -name '*.mod.c' -o -name '*.h' -o -name Kbuild \
		   -o -name Makefile \) -print0 |
		xargs -0 cp -p --parents -t "$dest" &&
		cp -p --parents tools/ko-build-id.sh "$dest")
}

# ---- kernel modules ----------------------------------------------------

# Sets KREL (the kernel release installed for), PREBUILT and MODDIR.
# Either KDIR, a configured build tree: the modules are built for its
# release; or KRELEASE alone: the modules already built for that release
# are installed as they are, nothing is compiled (a host without a
# compiler or headers; uninstalling needs no headers either).
need_release() {
	local kdir_given=1
	if [ "${KDIR_ORIGIN:-command line}" = file ] || [ -z "${KDIR:-}" ]; then
		kdir_given=0
	fi
	if [ -n "${KRELEASE:-}" ]; then
		[ $kdir_given = 0 ] || die "KDIR and KRELEASE both given: KDIR builds for its kernel,
    KRELEASE installs what is already built for that release; name one"
		case $KRELEASE in
		*/*|.*) die "KRELEASE=$KRELEASE is not a kernel release (e.g. \$(uname -r))" ;;
		esac
		KREL=$KRELEASE
		PREBUILT=1
	else
		[ $kdir_given = 1 ] || die "KDIR is missing: name the kernel to install for, e.g.
    make $1 KDIR=/lib/modules/\$(uname -r)/build
    (or KRELEASE=<release> to install modules already built for it)"
		[ -f "$KDIR/Makefile" ] && [ -f "$KDIR/include/generated/utsrelease.h" ] ||
			die "KDIR=$KDIR is not a configured kernel build tree (install the
    headers of that kernel, e.g. apt-get install linux-headers-\$(uname -r))"
		KREL=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
			"$KDIR/include/generated/utsrelease.h")
		[ -n "$KREL" ] || die "no UTS_RELEASE in $KDIR/include/generated/utsrelease.h"
		PREBUILT=0
	fi
	MODROOT=${INSTALL_MOD_PATH:-$DESTDIR}
	MODDIR=$MODROOT/lib/modules/$KREL/${INSTALL_MOD_DIR:-updates}
}

# True when FILE is our irdma: only ours carries the ice_lite binding.
is_our_irdma() {
	modinfo -F alias "$1" 2>/dev/null | grep -qx 'auxiliary:ice_lite.roce'
}

# depmod for the kernel, on the live system only: a staged tree
# (DESTDIR/INSTALL_MOD_PATH) gets depmod from whoever deploys it.
run_depmod() {
	if [ -n "$MODROOT" ]; then
		log "staged under $MODROOT: run 'depmod $KREL' where it is deployed"
	else
		depmod "$KREL" || die "depmod $KREL failed"
	fi
}

# Builds in build/host/<release>/, a scratch copy, so objects built for the
# guest kernel in the tree stay as they are (and a second install is quick).
build_modules() {
	local src=$BUILD/host/$KREL d out
	local -a kargs=(E810_TOP="$src")
	mkdir -p "$src"
	copy_module_sources "$src"
	# A module that cannot bind to the stock ice is useless on a real host:
	# the binding is required unless ICE_SRC=none says otherwise.
	if [ "${ICE_SRC:-}" = none ]; then
		kargs+=(ICE_SRC=none)
		log "ICE_SRC=none: irdma without the stock-ice binding (ice_lite only)"
	else
		kargs+=(E810_REQUIRE_ICE=1)
		[ -n "${ICE_SRC:-}" ] && kargs+=(ICE_SRC="$ICE_SRC")
	fi
	for d in $MODULES; do
		log "building $(basename "$d") for $KREL"
		out=$(make -j2 -C "$KDIR" M="$src/$d" "${kargs[@]}" modules 2>&1) || {
			printf '%s\n' "$out" | grep -E 'error|Error' | head -20 >&2
			if grep -q 'stock-ice binding required' <<<"$out"; then
				die "irdma for $KREL cannot bind to the stock ice (see above).
    Install the ice source of exactly this kernel and pass ICE_SRC=<linux
    source>/drivers/net/ethernet/intel/ice, and have its ice.ko (the
    kernel's linux-image package, or ICE_KO=<file>) (docs/real-hosts.md),
    or install without the binding on purpose with ICE_SRC=none."
			fi
			die "module build failed for $KREL"
		}
	done
	check_ice_binding "$src/$IRDMA_DIR/irdma.ko"
}

# A module that cannot bind to the stock ice is refused unless ICE_SRC=none.
check_ice_binding() {
	if [ "${ICE_SRC:-}" != none ] &&
	   ! modinfo -F alias "$1" | grep -qx 'auxiliary:ice.roce'; then
		die "$1 has no auxiliary:ice.roce alias: it would not bind to the stock ice
    (built without the ice source; ICE_SRC=none installs it on purpose)"
	fi
}

# Sets KO to the module of directory $1 already built for KREL: from
# build/host/<release>/ (an earlier 'make install KDIR=...') or else the
# tree ('make modules'), the first whose vermagic names KREL.
find_prebuilt() {
	local m f vm seen=""
	m=$(basename "$1").ko
	for f in "$BUILD/host/$KREL/$1/$m" "$TOP/$1/$m"; do
		[ -f "$f" ] || continue
		vm=$(modinfo -F vermagic "$f" 2>/dev/null | awk '{ print $1 }')
		if [ "$vm" = "$KREL" ]; then
			KO=$f
			return 0
		fi
		seen+="${seen:+; }$f is for ${vm:-?}"
	done
	die "no $m built for $KREL (${seen:-none in build/host/$KREL/ or the tree}): build it first with
    make install KDIR=<the headers of $KREL>, or give KDIR instead of KRELEASE"
}

IRDMA_DIR=drivers/infiniband/hw/irdma
ICE_LITE_DIR=drivers/net/ethernet/intel/ice_lite

modules_install() {
	local m f d other kos=()
	need_release install
	MODULES=$IRDMA_DIR
	[ "${WITH_ICE_LITE:-0}" = 1 ] && MODULES="$ICE_LITE_DIR $MODULES"
	if [ "$PREBUILT" = 1 ]; then
		for d in $MODULES; do
			find_prebuilt "$d"
			kos+=("$KO")
		done
		check_ice_binding "${kos[-1]}"	# irdma comes last
	else
		build_modules
		for d in $MODULES; do
			kos+=("$BUILD/host/$KREL/$d/$(basename "$d").ko")
		done
	fi
	if [ -e "$MODDIR/irdma.ko" ] && ! is_our_irdma "$MODDIR/irdma.ko"; then
		die "$MODDIR/irdma.ko exists and is not ours: left alone, nothing installed"
	fi
	for f in "${kos[@]}"; do
		m=$(basename "$f")
		install -D -m 0644 "$f" "$MODDIR/$m"
		log "installed $MODDIR/$m (from $f)"
	done
	# depmod ranks updates/ first, but between two copies in updates/
	# (e.g. one from dkms in updates/dkms/) the choice is not ours.
	other=$(find "$MODROOT/lib/modules/$KREL" -name 'irdma.ko*' \
		! -path "*/kernel/*" ! -path "$MODDIR/irdma.ko" 2>/dev/null || true)
	for f in $other; do
		log "warning: another irdma outside the kernel's own tree: $f"
	done
	run_depmod
}

modules_uninstall() {
	local removed=0
	need_release uninstall
	if [ -e "$MODDIR/irdma.ko" ]; then
		if is_our_irdma "$MODDIR/irdma.ko"; then
			rm -f "$MODDIR/irdma.ko"
			log "removed $MODDIR/irdma.ko"
			removed=1
		else
			log "$MODDIR/irdma.ko is not ours: left alone"
		fi
	fi
	if [ -e "$MODDIR/ice_lite.ko" ]; then
		rm -f "$MODDIR/ice_lite.ko"
		log "removed $MODDIR/ice_lite.ko"
		removed=1
	fi
	[ -d "$MODDIR" ] && rmdir --ignore-fail-on-non-empty "$MODDIR"
	[ $removed = 1 ] || log "nothing of ours under $MODDIR"
	run_depmod
	if [ -z "$MODROOT" ] && [ -d /sys/module/irdma ] &&
	   [ "$(uname -r)" = "$KREL" ]; then
		log "irdma is still loaded: 'rmmod irdma && modprobe irdma' loads the kernel's"
	fi
}

# ---- rdma-core provider ------------------------------------------------

# Our provider is built inside rdma-core $RDMA_CORE_VERSION and uses its
# private ABI (IBVERBS_PRIVATE_34, which bookworm's rdma-core 44 shares with
# different structures): the libibverbs it loads into must be the same
# rdma-core release series. The library name carries it:
# libibverbs.so.1.<ABI>.<rdma-core version>.
check_ibverbs() {
	local lib ver want=${RDMA_CORE_VERSION%%.*}
	[ "${IBVERBS_VERSION_CHECK:-1}" = 0 ] && return 0
	lib=$(ls "$DESTDIR$LIBDIR"/libibverbs.so.1.*.* 2>/dev/null | head -1 || true)
	[ -n "$lib" ] || [ -z "$DESTDIR" ] ||
		lib=$(ls "$LIBDIR"/libibverbs.so.1.*.* 2>/dev/null | head -1 || true)
	[ -n "$lib" ] || die "no libibverbs.so.1 in $LIBDIR: install libibverbs1 and
    ibverbs-providers of rdma-core $want (Debian 13 trixie: 56.1)"
	ver=$(basename "$lib" | sed 's/^libibverbs\.so\.1\.[0-9]*\.//')
	[ "${ver%%.*}" = "$want" ] || die "$lib is rdma-core $ver; our provider is built
    in rdma-core $RDMA_CORE_VERSION and needs a libibverbs of rdma-core $want.x
    (IBVERBS_VERSION_CHECK=0 installs it anyway, at your own risk)"
}

provider_install() {
	# E810_PROVIDER_SO: another build of it (tests/install/ stages a stand-in).
	local built=${E810_PROVIDER_SO:-$BUILD/rdma-core/lib/e810/libirdma-rdmav34.so}
	local conf=$DESTDIR$DRIVER_FILE
	[ -f "$built" ] || die "$built is missing: run 'make rdma-core' first"
	check_ibverbs
	install -D -m 0644 "$built" "$DESTDIR$OUR_PROVIDER"
	log "installed $DESTDIR$OUR_PROVIDER"
	# The stock file is saved once; a second install keeps that copy.
	if [ -f "$conf" ] && ! grep -qxF "$DRIVER_MARK" "$conf"; then
		install -D -m 0644 "$conf" "$DESTDIR$DRIVER_SAVED"
	fi
	mkdir -p "$DESTDIR$IBV_CONFIG_DIR"
	printf '%s\ndriver %s\n' "$DRIVER_MARK" "${OUR_PROVIDER%-rdmav34.so}" >"$conf"
	chmod 0644 "$conf"
	log "$DRIVER_FILE now loads ours; RDMAV_DRIVERS=irdma selects the stock provider per process"
}

provider_uninstall() {
	local conf=$DESTDIR$DRIVER_FILE
	if [ -f "$conf" ] && grep -qxF "$DRIVER_MARK" "$conf"; then
		# No saved copy: there was no stock file before ours.
		if [ -f "$DESTDIR$DRIVER_SAVED" ]; then
			cp "$DESTDIR$DRIVER_SAVED" "$conf"
			log "restored $DRIVER_FILE: the stock provider is the default again"
		else
			rm -f "$conf"
			log "removed $DRIVER_FILE (there was no stock one)"
		fi
	elif [ -f "$conf" ]; then
		log "$DRIVER_FILE is not ours: left alone"
	fi
	rm -f "$DESTDIR$DRIVER_SAVED" "$DESTDIR$OUR_PROVIDER"
	[ -d "$DESTDIR$PROVIDER_DIR/e810" ] &&
		rmdir --ignore-fail-on-non-empty "$DESTDIR$PROVIDER_DIR/e810"
	log "removed $DESTDIR$OUR_PROVIDER"
}

# ---- dkms --------------------------------------------------------------

# /usr/src/<name>-<version>/ as 'dkms add <name>/<version>' expects it:
# dkms.conf at the top, the module sources, the PRE_BUILD script.
dkms_source() {
	local dest=$DESTDIR/usr/src/$PACKAGE_NAME-$PACKAGE_VERSION
	[ -n "$PACKAGE_NAME" ] && [ -n "$PACKAGE_VERSION" ] ||
		die "no PACKAGE_NAME/PACKAGE_VERSION in $TOP/dkms.conf"
	rm -rf "$dest"
	mkdir -p "$dest/tools"
	copy_module_sources "$dest"
	install -m 0644 "$TOP/dkms.conf" "$dest/dkms.conf"
	install -m 0755 "$TOP/tools/dkms-ice-src.sh" "$dest/tools/dkms-ice-src.sh"
	log "staged $dest; then: dkms add $PACKAGE_NAME/$PACKAGE_VERSION && dkms install $PACKAGE_NAME/$PACKAGE_VERSION"
}

case ${1:-} in
modules) modules_install ;;
uninstall-modules) modules_uninstall ;;
provider) provider_install ;;
uninstall-provider) provider_uninstall ;;
dkms-source) dkms_source ;;
*) die "usage: $0 modules|uninstall-modules|provider|uninstall-provider|dkms-source" ;;
esac
