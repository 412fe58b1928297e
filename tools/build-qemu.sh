#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds qemu-system-x86_64 from Debian's qemu source with the e810 device.
#
# The source tree and the build tree are cached outside the checkout
# (CACHE/src/qemu-<ver>, CACHE/qemu-build-<key>), the key covering the QEMU
# version and configure options. Our device is not copied in: the QEMU tree
# gets a directory hw/net/e810/ of symlinks into the current checkout
# (meson.build, model, qemu -> qemu-device/..., include -> include/) plus a
# one-line meson hook and a one-line Kconfig hook, both pointing through
# those links. So a fresh clone on a warm machine recompiles only our files.

. "$(dirname "$0")/lib.sh"

SRC=$CACHE/src/qemu-$QEMU_UPSTREAM
CONF_OPTS=(
	--target-list=x86_64-softmmu
	--without-default-features --enable-tcg --enable-slirp --enable-virtfs
	--enable-attr --enable-pixman --disable-docs --disable-werror
	--disable-tools --disable-install-blobs --disable-download
	--python="$PYTHON"
)
KEY=$(printf '%s\n' "$QEMU_VERSION" "${CONF_OPTS[@]}" | sha256sum | cut -c1-12)
BLD=$CACHE/qemu-build-$QEMU_UPSTREAM-$KEY
OUT=$BUILD/qemu-system-x86_64
# --print-build-dir: the build directory (tools/qemu-patches.sh --check
# builds the patch series on it), nothing built
if [ "${1:-}" = --print-build-dir ]; then
	echo "$BLD"
	exit 0
fi

[ -f "$SRC/.extracted" ] || die "QEMU source missing; run 'make deps'"

# Adds the hooks once; they are the only edits to Debian's tree. They must
# be there before the first configure: a Kconfig symbol added later would
# change config-devices.h and rebuild most of QEMU.
inject_hooks() {
	local netmk=$SRC/hw/net/meson.build netkc=$SRC/hw/net/Kconfig
	grep -q "^subdir('e810')" "$netmk" || echo "subdir('e810')" >>"$netmk"
	grep -q '^source e810/qemu/Kconfig' "$netkc" ||
		printf '\nsource e810/qemu/Kconfig\n' >>"$netkc"
}

# Points the links at this checkout. When they pointed at another checkout
# before, our objects are dropped so that ninja cannot keep objects built
# from files that happen to be newer than this checkout's copies.
link_checkout() {
	local dir=$SRC/hw/net/e810
	[ -L "$dir" ] && rm -f "$dir"
	mkdir -p "$dir"
	if link_sources "$dir" meson.build:qemu-device/meson.build \
		model:qemu-device/model qemu:qemu-device/qemu include:include &&
	   [ -d "$BLD" ]; then
		log "device sources moved to $TOP: rebuilding our objects"
		find "$BLD" -path '*.p/*' -name '*hw_net_e810_*' -delete
	fi
}

# Every model source must be in qemu-device/meson.build (meson has no
# globs); a file missing there would only show up as a link error.
check_meson_list() {
	local f missing=()
	for f in "$TOP"/qemu-device/model/*.c; do
		grep -q "'model/$(basename "$f")'" "$TOP/qemu-device/meson.build" ||
			missing+=("$(basename "$f")")
	done
	[ ${#missing[@]} = 0 ] ||
		die "not listed in qemu-device/meson.build: ${missing[*]}"
}

configure() {
	[ -f "$BLD/build.ninja" ] && return 0
	log "configuring QEMU in $BLD (once per key)"
	rm -rf "$BLD"
	mkdir -p "$BLD"
	(cd "$BLD" && PATH=/usr/bin:$PATH "$SRC/configure" "${CONF_OPTS[@]}") \
		>"$BLD/configure.log" 2>&1 ||
		{ tail -20 "$BLD/configure.log"; die "QEMU configure failed"; }
}

build() {
	log "building qemu-system-x86_64 (first build ~7 min, then seconds)"
	(cd "$BLD" && PATH=/usr/bin:$PATH ninja -j"$(nproc_build)" qemu-system-x86_64) \
		>"$BLD/build.log" 2>&1 ||
		{ grep -E 'error|Error' "$BLD/build.log" | head -30; die "QEMU build failed (log: $BLD/build.log)"; }
	mkdir -p "$BUILD"
	# A copy, not a link: the build tree is shared by every checkout on
	# the machine, and a rebuild from another worktree must not swap the
	# binary under this checkout's running VM suite.
	rm -f "$OUT.tmp"
	cp "$BLD/qemu-system-x86_64" "$OUT.tmp"
	mv -f "$OUT.tmp" "$OUT"
}

mkdir -p "$CACHE"
exec 9>"$CACHE/qemu.lock"
flock 9
inject_hooks
check_meson_list
link_checkout
configure
build
"$OUT" -device e810,help >/dev/null ||
	die "built QEMU does not know the e810 device"
log "ok: $OUT"
