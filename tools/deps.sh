#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make deps: install exactly what is missing, from Debian's archive only, and
# fetch the pinned source packages and the guest kernel into the cache.
# Idempotent: a second run on a warm machine does no network work at all
# except when a pinned artefact is missing.

. "$(dirname "$0")/lib.sh"

# Host packages. name or name=version (version pinned where the build output
# depends on it; the rest are bookworm's build tools).
HOST_PKGS=(
	# kernel modules, lint, unit tests
	build-essential sparse libcmocka-dev pkg-config
	# the debug guest kernel (tools/build-debug-kernel.sh): objtool, bc
	libelf-dev bc
	# make fuzz: clang with libFuzzer and the sanitizer runtimes
	clang libclang-rt-14-dev
	"linux-headers-$KVER=$KPKG_VERSION"
	"linux-headers-$KVER_OLD=$KPKG_OLD_VERSION"
	# QEMU 10.0 build
	"meson=$MESON_VERSION" ninja-build flex bison python3-venv
	libglib2.0-dev libpixman-1-dev libslirp-dev libfdt-dev libcap-ng-dev
	libattr1-dev seabios ipxe-qemu qemu-system-data
	# rdma-core 56.1 build (with pyverbs)
	cmake libnl-3-dev libnl-route-3-dev libudev-dev cython3 python3-dev
	libsystemd-dev
	# guest image
	debootstrap busybox-static kmod cpio e2fsprogs zstd xz-utils curl
	# dkms.conf run by Debian's dkms (tests/install/run.sh, dkms_real)
	dkms
)
# Only for the on-demand benchmark (tools/bench-perf.sh: the SVG charts of
# docs/performance.md); make check does not install them.
BENCH_PKGS=(gnuplot-nox)

write_apt_config() {
	mkdir -p "$APT_DIR/lists/partial"
	cat >"$APT_DIR/sources.list.new" <<EOF
deb http://deb.debian.org/debian bookworm main non-free-firmware
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
deb http://deb.debian.org/debian bookworm-backports main
deb-src http://deb.debian.org/debian trixie main
deb-src http://deb.debian.org/debian-security trixie-security main
EOF
	if ! cmp -s "$APT_DIR/sources.list.new" "$APT_DIR/sources.list"; then
		mv "$APT_DIR/sources.list.new" "$APT_DIR/sources.list"
		rm -f "$APT_DIR/updated"
	else
		rm -f "$APT_DIR/sources.list.new"
	fi
}

apt_update() {
	# Refresh at most once a day; the pins make a stale list harmless.
	if [ -z "$(find "$APT_DIR/updated" -mmin -1440 2>/dev/null)" ]; then
		log "apt-get update (private configuration in $APT_DIR)"
		apt-get "${APT_OPTS[@]}" -q update >"$APT_DIR/update.log" 2>&1 ||
			die "apt-get update failed, see $APT_DIR/update.log"
		touch "$APT_DIR/updated"
	fi
}

# tools/deps.lock pins every host package of HOST_PKGS that has no version
# here to the exact version it was built and tested with. When the archive
# no longer has a pinned version, apt fails and says which; then run
# "tools/deps.sh relock" on a machine where the new versions are installed.
LOCK=$TOP/tools/deps.lock

locked_version() {
	sed -n "s/^$1=//p" "$LOCK" 2>/dev/null | head -n 1
}

# Prints the packages of HOST_PKGS that are not installed at the wanted
# version, as name=version when a version is wanted.
missing_host_pkgs() {
	local spec name want have
	for spec in "${HOST_PKGS[@]}"; do
		name=${spec%%=*}
		want=
		[ "$name" != "$spec" ] && want=${spec#*=}
		[ -z "$want" ] && want=$(locked_version "$name")
		[ -n "$want" ] && spec=$name=$want
		have=$(dpkg-query -W -f='${db:Status-Status} ${Version}' "$name" 2>/dev/null || true)
		case "$have" in
		"installed "*)
			[ -z "$want" ] || [ "${have#installed }" = "$want" ] && continue ;;
		esac
		echo "$spec"
	done
}

install_host_pkgs() {
	local missing
	mapfile -t missing < <(missing_host_pkgs)
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] || die "need root to install: ${missing[*]}"
	apt_update
	log "installing: ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTS[@]}" -q -y \
		--no-install-recommends install "${missing[@]}" \
		>"$APT_DIR/install.log" 2>&1 ||
		die "apt-get install failed, see $APT_DIR/install.log"
	mapfile -t missing < <(missing_host_pkgs)
	[ ${#missing[@]} -eq 0 ] || die "still missing after install: ${missing[*]}"
}

# Downloads the files of a source package listed by --print-uris into $2 and
# checks each against the SHA256 in the archive's Sources index. Files the
# mirror does not have are fatal only when they are in $3 (required regex).
fetch_source_files() {
	local pkg=$1 dir=$2 required=$3 uri name size sum got
	mkdir -p "$dir"
	apt_update
	while read -r uri name size sum; do
		uri=${uri//\'/}
		[ -f "$dir/$name" ] && continue
		if ! curl -fsSL -o "$dir/$name.part" "$uri"; then
			rm -f "$dir/$name.part"
			if [[ $name =~ $required ]]; then
				die "could not download $name ($uri); the mirror lacks it"
			fi
			log "note: mirror lacks $name (not needed)"
			continue
		fi
		got=$(sha256sum "$dir/$name.part" | cut -d' ' -f1)
		[ "$sum" = "SHA256:$got" ] ||
			die "checksum mismatch for $name: archive says $sum, got $got"
		mv "$dir/$name.part" "$dir/$name"
	done < <(apt-get "${APT_OPTS[@]}" -q --print-uris source "$pkg" 2>/dev/null |
		 grep "^'")
}

fetch_qemu_source() {
	local src=$CACHE/src/qemu-$QEMU_UPSTREAM
	[ -f "$src/.extracted" ] && return 0
	local dl=$CACHE/dl/qemu
	fetch_source_files "qemu=$QEMU_VERSION" "$dl" '.*'
	log "unpacking qemu $QEMU_VERSION (Debian patches applied)"
	rm -rf "$src"
	mkdir -p "$CACHE/src"
	(cd "$dl" && dpkg-source --no-check -x ./*.dsc "$src") >/dev/null ||
		die "dpkg-source failed for qemu"
	touch "$src/.extracted"
}

fetch_rdma_core_source() {
	local src=$CACHE/src/rdma-core-$RDMA_CORE_VERSION
	[ -f "$src/.extracted" ] && return 0
	local dl=$CACHE/dl/rdma-core
	# The .dsc of 56.1-1 is missing on the mirror; the orig tarball is all we
	# need (we build with upstream cmake, not debian/rules).
	fetch_source_files "rdma-core=$RDMA_CORE_VERSION-1" "$dl" 'orig\.tar'
	log "unpacking rdma-core $RDMA_CORE_VERSION"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xzf "$dl/$RDMA_CORE_ORIG" -C "$src.tmp" --strip-components=1
	mv "$src.tmp" "$src"
	touch "$src/.extracted"
}

# A guest kernel, straight from the .deb (the host's installed copy is only
# a side effect of the headers package depending on it): kernel release $1
# (default KVER), package version $2, into CACHE/kernel-<release>/.
# tools/mkguest.sh boots KVER; tools/mkguest-6.1.sh bookworm's own KVER_OLD.
fetch_guest_kernel() {
	local kver=${1:-$KVER} pkgver=${2:-$KPKG_VERSION}
	local kdir=$CACHE/kernel-$kver
	[ -f "$kdir/.extracted" ] && return 0
	local dl=$CACHE/dl/kernel
	mkdir -p "$dl"
	if ! ls "$dl/linux-image-${kver}_${pkgver}_"*.deb >/dev/null 2>&1; then
		apt_update
		(cd "$dl" && apt-get "${APT_OPTS[@]}" -q download \
			"linux-image-$kver=$pkgver") >/dev/null ||
			die "could not download linux-image-$kver=$pkgver"
	fi
	rm -rf "$kdir"
	dpkg-deb -x "$dl/linux-image-${kver}_${pkgver}_"*.deb "$kdir"
	# modules.dep is made by the package's postinst, not shipped.
	depmod -b "$kdir" "$kver"
	touch "$kdir/.extracted"
}

# The newest kernel's guest (tools/mkguest-7.sh): KVER_NEW's image and
# modules from trixie-backports, the archive tools/kroot.sh takes its
# headers from, through a private apt configuration of their own
# (APT_NEW_DIR: binaries of trixie and trixie-backports only) next to the
# bookworm one; the system's sources are never touched. That kernel's
# linux-image-<release> is an empty package over
# linux-binary-<release> (the image, in /usr/lib/modules/<release>/),
# linux-modules-<release> and linux-base-<release> (config, System.map,
# modules.order, modules.builtin): those three are unpacked and laid out
# as fetch_guest_kernel's (CACHE/kernel-<release>/lib/modules/<release>/,
# boot/vmlinuz-<release>, boot/config-<release>).
fetch_new_kernel() {
	local kver=$KVER_NEW pkgver=$KPKG_NEW_VERSION p
	local kdir=$CACHE/kernel-$KVER_NEW dl=$CACHE/dl/kernel
	local pkgs=(linux-binary linux-modules linux-base)
	[ -f "$kdir/.extracted" ] && return 0
	mkdir -p "$dl" "$APT_NEW_DIR/lists/partial"
	for p in "${pkgs[@]}"; do
		ls "$dl/$p-${kver}_${pkgver}_"*.deb >/dev/null 2>&1 && continue
		printf 'deb http://deb.debian.org/debian %s main\n' \
			trixie trixie-backports >"$APT_NEW_DIR/sources.list"
		if [ -z "$(find "$APT_NEW_DIR/updated" -mmin -1440 2>/dev/null)" ]; then
			log "apt-get update (private trixie configuration in $APT_NEW_DIR)"
			apt-get "${APT_NEW_OPTS[@]}" -q update >"$APT_NEW_DIR/update.log" 2>&1 ||
				die "apt-get update failed, see $APT_NEW_DIR/update.log"
			touch "$APT_NEW_DIR/updated"
		fi
		(cd "$dl" && apt-get "${APT_NEW_OPTS[@]}" -q download \
			"$p-$kver=$pkgver") >/dev/null 2>&1 ||
			die "could not download $p-$kver=$pkgver"
	done
	rm -rf "$kdir" "$kdir.tmp"
	for p in "${pkgs[@]}"; do
		dpkg-deb -x "$dl/$p-${kver}_${pkgver}_"*.deb "$kdir.tmp"
	done
	mkdir -p "$kdir.tmp/lib" "$kdir.tmp/boot"
	mv "$kdir.tmp/usr/lib/modules" "$kdir.tmp/lib/modules"
	mv "$kdir.tmp/lib/modules/$kver/vmlinuz" "$kdir.tmp/boot/vmlinuz-$kver"
	cp "$kdir.tmp/lib/modules/$kver/config" "$kdir.tmp/boot/config-$kver"
	# modules.dep is made by the package's postinst, not shipped.
	depmod -b "$kdir.tmp" "$kver"
	mv "$kdir.tmp" "$kdir"
	touch "$kdir/.extracted"
}

# checkpatch.pl with its data files, from Debian's kernel source package
# (no headers package ships it). Only `make lint` asks for it; the 139 MB
# package is dropped once the three files are out.
fetch_checkpatch() {
	local dir=$CACHE/checkpatch-6.1 dl=$CACHE/dl/linux-source
	local top=linux-source-6.1
	[ -f "$dir/.extracted" ] && return 0
	mkdir -p "$dl"
	apt_update
	(cd "$dl" && apt-get "${APT_OPTS[@]}" -q download linux-source-6.1) \
		>/dev/null || die "could not download linux-source-6.1"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	dpkg-deb --fsys-tarfile "$dl"/linux-source-6.1_*.deb |
		tar -xO "./usr/src/$top.tar.xz" |
		tar -xJ -C "$dir.tmp" --strip-components=1 \
			"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
			"$top/scripts/const_structs.checkpatch" ||
		die "could not extract checkpatch.pl from $top"
	rm -f "$dl"/linux-source-6.1_*.deb
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
	touch "$dir/.extracted"
}

# The stock ice driver's private headers (ice.h: struct ice_pf) for our
# irdma's binding to the stock ice (drivers/infiniband/hw/irdma/ice_if.c),
# from Debian's linux-source of exactly kernel $1, package version $2: the
# structure layout must be that of the ice.ko the binding meets. Only the
# ice directory is kept (a few MB), under the path keyed by the kernel
# release that the irdma Kbuild looks for; the 150 MB package is dropped.
# Not fatal: without it irdma builds without that binding and says so.
fetch_ice_source() {
	local kver=$1 pkgver=$2 mm
	mm=$(cut -d. -f1-2 <<<"$kver")
	local dir=$CACHE/linux-source-$kver dl=$CACHE/dl/linux-source
	local top=linux-source-$mm sub=drivers/net/ethernet/intel/ice
	[ -f "$dir/.extracted" ] && return 0
	mkdir -p "$dl"
	apt_update
	if ! (cd "$dl" && apt-get "${APT_OPTS[@]}" -q download \
		"$top=$pkgver") >/dev/null 2>&1; then
		log "warning: could not download $top=$pkgver: irdma for $kver builds without the stock-ice binding"
		return 0
	fi
	log "extracting $sub from $top $pkgver"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	if ! dpkg-deb --fsys-tarfile "$dl/${top}_"*.deb |
		tar -xO "./usr/src/$top.tar.xz" |
		tar -xJ -C "$dir.tmp" --strip-components=1 "$top/$sub"; then
		log "warning: no $sub in $top: irdma for $kver builds without the stock-ice binding"
		rm -rf "$dir.tmp" "$dl/${top}_"*.deb
		return 0
	fi
	echo "$pkgver" >"$dir.tmp/.extracted"
	rm -f "$dl/${top}_"*.deb
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

# soft-iWARP (drivers/infiniband/sw/siw), which Debian's kernels leave
# out (CONFIG_RDMA_SIW is not set), from the same linux-source package as
# the ice headers above, exactly kernel $1 (package version $2):
# tools/build-siw.sh builds it out of tree against that kernel's headers
# for the guest, the iWARP wire peer of docs/testing.md ("siw_peer"). Only
# the siw directory is kept, in CACHE/siw-src-<kernel release>/.
fetch_siw_source() {
	local kver=$1 pkgver=$2 mm
	mm=$(cut -d. -f1-2 <<<"$kver")
	local dir=$CACHE/siw-src-$kver dl=$CACHE/dl/linux-source
	local top=linux-source-$mm sub=drivers/infiniband/sw/siw
	[ "$(cat "$dir/.extracted" 2>/dev/null)" = "$pkgver" ] && return 0
	mkdir -p "$dl"
	apt_update
	(cd "$dl" && apt-get "${APT_OPTS[@]}" -q download "$top=$pkgver") \
		>/dev/null 2>&1 || die "could not download $top=$pkgver"
	log "extracting $sub from $top $pkgver"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	dpkg-deb --fsys-tarfile "$dl/${top}_"*.deb |
		tar -xO "./usr/src/$top.tar.xz" |
		tar -xJ -C "$dir.tmp" --strip-components=5 "$top/$sub" ||
		die "no $sub in $top $pkgver"
	[ -f "$dir.tmp/siw_main.c" ] || die "no siw_main.c in $top $pkgver"
	echo "$pkgver" >"$dir.tmp/.extracted"
	rm -f "$dl/${top}_"*.deb
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

# The stock ice.ko of kernel $1 (package version $2), whose GNU build id the
# irdma Kbuild records for the binding built from that kernel's ice.h
# (ice_if.c refuses any other ice): CACHE/ice-ko-<kernel release>/, taken
# from the linux-image package (the guest kernel's is downloaded already).
# Not fatal, as for the ice source: irdma then builds without the binding.
fetch_ice_module() {
	local kver=$1 pkgver=$2 dir=$CACHE/ice-ko-$1 dl=$CACHE/dl/kernel deb
	local ko=./lib/modules/$1/kernel/drivers/net/ethernet/intel/ice/ice.ko
	[ -f "$dir/.extracted" ] && return 0
	mkdir -p "$dl"
	deb=$(ls "$dl/linux-image-${kver}_"*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		apt_update
		if ! (cd "$dl" && apt-get "${APT_OPTS[@]}" -q download \
			"linux-image-$kver=$pkgver") >/dev/null 2>&1; then
			log "warning: could not download linux-image-$kver=$pkgver: irdma for $kver builds without the stock-ice binding"
			return 0
		fi
		deb=$(ls "$dl/linux-image-${kver}_"*.deb | head -n 1)
	fi
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	if ! dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$dir.tmp" --wildcards --no-anchored --strip-components=10 "$ko*"; then
		log "warning: no ice.ko in linux-image-$kver: irdma for $kver builds without the stock-ice binding"
		rm -rf "$dir.tmp"
		return 0
	fi
	echo "$pkgver" >"$dir.tmp/.extracted"
	rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

# The E810 DDP package (stock ice refuses RDMA without it: Safe Mode), from
# bookworm's non-free-firmware component; only the package file is kept.
fetch_ddp_package() {
	local dir=$CACHE/ddp dl=$CACHE/dl/firmware
	[ -f "$dir/$DDP_PKG" ] && return 0
	mkdir -p "$dl"
	apt_update
	(cd "$dl" && apt-get "${APT_OPTS[@]}" -q download \
		"firmware-misc-nonfree=$FW_MISC_VERSION") >/dev/null 2>&1 ||
		die "could not download firmware-misc-nonfree=$FW_MISC_VERSION"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	dpkg-deb --fsys-tarfile "$dl"/firmware-misc-nonfree_*.deb |
		tar -x -C "$dir.tmp" "./lib/firmware/intel/ice/ddp/$DDP_PKG" ||
		die "no intel/ice/ddp/$DDP_PKG in firmware-misc-nonfree"
	rm -rf "$dir" && mkdir -p "$dir"
	mv "$dir.tmp/lib/firmware/intel/ice/ddp/$DDP_PKG" "$dir/"
	rm -rf "$dir.tmp" "$dl"/firmware-misc-nonfree_*.deb
}

# The kroot: lines (the trixie build root's tools, tools/kroot.sh) are
# kept as they are: that root is relocked by hand.
relock() {
	local spec name
	{
		for spec in "${HOST_PKGS[@]}"; do
			name=${spec%%=*}
			[ "$name" = "$spec" ] || continue
			echo "$name=$(dpkg-query -W -f='${Version}' "$name")"
		done
		grep '^kroot:' "$LOCK" || true
	} >"$LOCK.new"
	mv "$LOCK.new" "$LOCK"
	log "wrote $LOCK"
}

main() {
	write_apt_config
	if [ "${1:-}" = relock ]; then
		relock
		return
	fi
	[ "${1:-}" = bench ] && HOST_PKGS+=("${BENCH_PKGS[@]}")
	install_host_pkgs
	case "${1:-all}" in
	bench) ;;
	host)
		fetch_ddp_package
		fetch_ice_source "$KVER" "$KPKG_VERSION"
		fetch_ice_source "$KVER_OLD" "$KPKG_OLD_VERSION"
		fetch_ice_module "$KVER" "$KPKG_VERSION"
		fetch_ice_module "$KVER_OLD" "$KPKG_OLD_VERSION"
		;;
	checkpatch) fetch_checkpatch ;;
	new) fetch_new_kernel ;;
	*)
		fetch_qemu_source
		fetch_rdma_core_source
		fetch_guest_kernel
		fetch_guest_kernel "$KVER_OLD" "$KPKG_OLD_VERSION"
		fetch_ddp_package
		fetch_ice_source "$KVER" "$KPKG_VERSION"
		fetch_ice_source "$KVER_OLD" "$KPKG_OLD_VERSION"
		fetch_ice_module "$KVER" "$KPKG_VERSION"
		fetch_ice_module "$KVER_OLD" "$KPKG_OLD_VERSION"
		fetch_siw_source "$KVER" "$KPKG_VERSION"
		;;
	esac
	log "dependencies complete"
}

main "$@"
