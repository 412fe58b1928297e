#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# A trixie build root with the headers of a Linux that has the 6.16+ IIDC
# (<linux/net/intel/iidc_rdma.h>), for `make lint`'s third leg, the 7.x
# guest's modules and Debian's dkms run for that kernel
# (tests/install/run.sh dkms 7). The headers' kbuild tools need trixie's
# libc and their Makefile gcc-14, so the modules are built in a chroot
# rather than on the bookworm host.
#
#   tools/kroot.sh          makes the root if missing, prints its path
#   tools/kroot.sh run CMD  runs CMD in the root (as root, cwd /)
#   tools/kroot.sh clean    removes this checkout's scratch directories
#                           in the root (tools/lib.sh kroot_dir_in; make
#                           clean), never the root itself
#
# The root is CACHE/kroot-<KVER_NEW>: debootstrap minbase of trixie, then
# linux-headers-<KVER_NEW> at KPKG_NEW_VERSION from trixie-backports
# (tools/lib.sh pins both) and gcc-14, make, sparse, pahole and dkms at the
# versions of tools/deps.lock's "kroot:" lines (what they depend on comes
# from the same archive). The apt sources written into the root are its
# own; the host's are never touched. First setup: about 10 minutes
# (debootstrap, under load; README.md), then nothing is fetched unless a pin
# changes: a root whose .pins differ (a line added, e.g. dkms, or a version
# changed) gets the pins installed again on its next use.

. "$(dirname "$0")/lib.sh"

KROOT=$CACHE/kroot-$KVER_NEW
# name=version of every package the root must have at a pinned version.
PINS=$(sed -n 's/^kroot://p' "$TOP/tools/deps.lock" | sort)
PINS+=$'\n'"linux-headers-$KVER_NEW=$KPKG_NEW_VERSION"
KROOT_PKGS=gcc-14,make,libc6-dev,sparse,pahole,libelf1t64,libssl3t64,zlib1g,ca-certificates
MIRROR=http://deb.debian.org/debian

# The pinned packages into root $1 (apt inside the root, its own sources).
install_pins() {
	local -a pins
	mapfile -t pins <<<"$PINS"
	log "installing ${pins[*]} in the root"
	{ chroot "$1" apt-get -q update &&
	  DEBIAN_FRONTEND=noninteractive chroot "$1" apt-get -q -y \
		--no-install-recommends --allow-downgrades install "${pins[@]}"; } \
		>"$CACHE/kroot-apt.log" 2>&1 ||
		{ tail -20 "$CACHE/kroot-apt.log"; die "could not install ${pins[*]}"; }
	rm -rf "$1/var/cache/apt/archives"/*.deb "$1/var/lib/apt/lists"/*
	printf '%s\n' "$PINS" >"$1/.pins"
}

# Two steps, each marked done in the unfinished root, so an interrupted
# setup goes on where it stopped.
make_root() {
	local tmp=$KROOT.tmp start=$SECONDS
	[ "$(id -u)" = 0 ] || die "need root to debootstrap $KROOT"
	if [ ! -f "$tmp/.debootstrapped" ]; then
		log "debootstrap trixie minbase into $KROOT (a few minutes, once)"
		rm -rf "$tmp"
		mkdir -p "$tmp"
		debootstrap --variant=minbase --include="$KROOT_PKGS" trixie \
			"$tmp" "$MIRROR" >"$CACHE/kroot-debootstrap.log" 2>&1 ||
			{ tail -20 "$CACHE/kroot-debootstrap.log"; die "debootstrap failed"; }
		cat >"$tmp/etc/apt/sources.list" <<EOF
deb $MIRROR trixie main
deb $MIRROR trixie-backports main
EOF
		touch "$tmp/.debootstrapped"
	fi
	install_pins "$tmp"
	# The amd64 package's include/ comes from its -common sibling.
	[ -f "$tmp/usr/src/linux-headers-$KVER_NEW/Makefile" ] &&
		compgen -G "$tmp/usr/src/linux-headers-*/include/linux/net/intel/iidc_rdma_ice.h" >/dev/null ||
		die "linux-headers-$KVER_NEW has no iidc_rdma_ice.h"
	rm -rf "$KROOT" && mv "$tmp" "$KROOT"
	touch "$KROOT/.complete"
	log "build root ready in $((SECONDS - start)) s"
}

# This checkout's /build/NAME-<key> directories, whatever their NAME.
clean_checkout() {
	local key

	key=$(kroot_dir_in x)
	key=${key#/build/x-}
	[ -d "$KROOT/build" ] || return 0
	flock "$CACHE/kroot.lock" rm -rf "$KROOT/build/"*-"$key"
}

main() {
	if [ "${1:-}" = clean ]; then
		clean_checkout
		return
	fi
	mkdir -p "$CACHE"
	exec 9>"$CACHE/kroot.lock"
	flock 9
	if [ ! -f "$KROOT/.complete" ]; then
		make_root
	elif [ "$(cat "$KROOT/.pins" 2>/dev/null)" != "$PINS" ]; then
		install_pins "$KROOT"
	fi
	flock -u 9
	case "${1:-}" in
	"") echo "$KROOT" ;;
	run)
		shift
		# objtool reads /proc; the mount lives in a private namespace
		# and goes away with the command. root's PATH: dkms and the
		# modinfo it runs are in /usr/sbin.
		unshare --mount --propagation private -- /bin/sh -c \
			'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' \
			"$KROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LANG=C.UTF-8 "$@"
		;;
	*) die "usage: $0 [run CMD... | clean]" ;;
	esac
}

main "$@"
