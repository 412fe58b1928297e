#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The debug guest kernel (docs/testing.md, "Debug kernel"): Debian's
# linux-source of exactly the guest's kernel version, configured small
# (x86_64_defconfig + kvm_guest.config + tools/guest/debug-kernel.config:
# KASAN, lockdep, kmemleak, debug objects, ...), built once into
#
#   CACHE/kernel-debug-<version>-<key>/
#       vmlinuz          the kernel image
#       lib/modules/R/   its module tree (R: the release, ...-e810debug)
#       build/           the O= build directory for external modules
#                        (.config, Module.symvers, scripts; objects dropped)
#       src/             the source tree it was built from
#       release          R
#
# <key> hashes the config fragment, the package version and this recipe,
# so any change to them builds anew; with a warm cache this script only
# prints the directory. Usage: tools/build-debug-kernel.sh [--print-dir]
# (--print-dir prints the directory without building).

. "$(dirname "$0")/lib.sh"

FRAG=$TOP/tools/guest/debug-kernel.config
# Bump when the build steps below change what ends up in the cache.
RECIPE=1
MM=$(cut -d. -f1-2 <<<"$KVER")
UPSTREAM=${KVER%%+*}
KEY=$(cat "$FRAG" <(echo "$KPKG_VERSION $RECIPE") | sha256sum | cut -c1-12)
KD=$CACHE/kernel-debug-$UPSTREAM-$KEY
DL=$CACHE/dl/linux-source-debug
PKG=linux-source-$MM
JOBS=${E810_KERNEL_JOBS:-2}

if [ "${1:-}" = --print-dir ]; then
	echo "$KD"
	exit 0
fi

fetch_source() {
	local tmp=$1 debs deb
	mkdir -p "$DL"
	debs=("$DL/${PKG}_"*.deb)
	deb=${debs[0]}
	if [ ! -f "$deb" ]; then
		[ -f "$APT_DIR/sources.list" ] ||
			die "no private apt configuration in $APT_DIR; run 'make deps'"
		log "downloading $PKG=$KPKG_VERSION"
		(cd "$DL" && apt-get "${APT_OPTS[@]}" -q download \
			"$PKG=$KPKG_VERSION") >"$DL/download.log" 2>&1 ||
			die "could not download $PKG=$KPKG_VERSION, see $DL/download.log"
		debs=("$DL/${PKG}_"*.deb)
		deb=${debs[0]}
		[ -f "$deb" ] || die "apt-get download left no $PKG package in $DL"
	fi
	log "unpacking $(basename "$deb")"
	mkdir -p "$tmp/src"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$PKG.tar.xz" |
		tar -xJ -C "$tmp/src" --strip-components=1 ||
		die "could not unpack $PKG"
	grep -q "^SUBLEVEL = ${UPSTREAM##*.}$" "$tmp/src/Makefile" ||
		die "$PKG is not $UPSTREAM"
}

# Every line of the fragment must hold in the final .config: a value
# Kconfig silently dropped (a missing dependency) fails here.
verify_config() {
	local cfg=$1 line opt bad=0
	while read -r line; do
		case "$line" in
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			if grep -q "^$opt=" "$cfg"; then
				log "config: $opt should be off: $(grep "^$opt=" "$cfg")"
				bad=1
			fi
			;;
		CONFIG_*)
			if ! grep -qxF "$line" "$cfg"; then
				opt=${line%%=*}
				log "config: wanted $line, got $(grep "^$opt=\|^# $opt " "$cfg" || echo nothing)"
				bad=1
			fi
			;;
		esac
	done <"$FRAG"
	[ $bad = 0 ] || die "the debug kernel's .config lacks options of $FRAG"
}

configure() {
	local src=$1 obj=$2
	mkdir -p "$obj"
	make -s -C "$src" O="$obj" x86_64_defconfig >/dev/null
	(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" \
		kernel/configs/kvm_guest.config "$FRAG") >"$obj/merge.log" 2>&1 ||
		die "merge_config.sh failed, see $obj/merge.log"
	make -s -C "$src" O="$obj" olddefconfig >/dev/null
	verify_config "$obj/.config"
}

# Keeps what building external modules needs (make -C build M=...):
# .config, generated headers, Module.symvers, the host tools in scripts/
# and tools/objtool; object files and archives go (GBs with KASAN).
trim_build() {
	local obj=$1
	find "$obj" \( -path "$obj/scripts" -o -path "$obj/tools" \) -prune -o \
		-type f \( -name '*.o' -o -name '*.a' -o -name '*.ko' -o -name '.*.cmd' \
		-o -name '*.mod' -o -name '*.mod.c' \) -print0 | xargs -0 rm -f
	rm -f "$obj/vmlinux.o" "$obj/vmlinux.a"
}

build() {
	# Built in place (the O= directory records the source's absolute
	# path); .complete marks a finished build.
	local tmp=$KD t0=$SECONDS rel
	rm -rf "$tmp"
	mkdir -p "$tmp"
	fetch_source "$tmp"
	configure "$tmp/src" "$tmp/build"
	log "building in $tmp (-j$JOBS, nice 10; ~30 min on 2 cores)"
	nice -n 10 make -C "$tmp/src" O="$tmp/build" -j"$JOBS" bzImage modules \
		>"$tmp/build.log" 2>&1 ||
		{ tail -n 30 "$tmp/build.log"; die "kernel build failed, see $tmp/build.log"; }
	# Known only once the build has run syncconfig (LOCALVERSION).
	rel=$(cat "$tmp/build/include/config/kernel.release")
	case "$rel" in
	*-e810debug) ;;
	*) die "unexpected kernel release '$rel' (LOCALVERSION lost?)" ;;
	esac
	make -s -C "$tmp/src" O="$tmp/build" INSTALL_MOD_PATH="$tmp" \
		modules_install >/dev/null ||
		die "modules_install failed"
	rm -f "$tmp/lib/modules/$rel/build" "$tmp/lib/modules/$rel/source"
	cp "$tmp/build/arch/x86/boot/bzImage" "$tmp/vmlinuz"
	echo "$rel" >"$tmp/release"
	trim_build "$tmp/build"
	rm -f "$DL/${PKG}_"*.deb
	echo $((SECONDS - t0)) >"$tmp/build-seconds"
	touch "$KD/.complete"
	log "built $rel in $((SECONDS - t0)) s"
}

mkdir -p "$CACHE"
exec 9>"$CACHE/kernel-debug.lock"
flock 9
[ -f "$KD/.complete" ] || build
echo "$KD"
