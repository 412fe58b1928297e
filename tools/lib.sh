# SPDX-License-Identifier: GPL-2.0-only
# Shared settings for the build scripts in tools/. Sourced, never run.
#
# Everything expensive (source packages, the QEMU and rdma-core build trees, the
# guest root file system) lives in CACHE, outside the checkout, keyed by the
# upstream version, so a fresh clone on a warm machine rebuilds only our files.
# Everything per-checkout (apt configuration, modules, VM logs) lives in build/.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$TOP/build
CACHE=${E810_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/e810-rdma}

# Pinned versions. Changing one of these changes a cache key.
KVER=6.12.95+deb12-amd64
KPKG_VERSION=6.12.95-1~bpo12+1
# bookworm's own kernel: the modules must also build against its headers.
KVER_OLD=6.1.0-56-amd64
KPKG_OLD_VERSION=6.1.192-2
# A kernel with the 6.16+ IIDC (iidc_rdma.h): the third `make lint` leg,
# built in a trixie root (tools/kroot.sh) from trixie-backports' headers.
KVER_NEW=7.3.4+deb13-amd64
KPKG_NEW_VERSION=7.3.4-1~bpo13+1
QEMU_VERSION=1:10.0.13+ds-0+deb13u1
QEMU_UPSTREAM=10.0.13
RDMA_CORE_VERSION=56.1
RDMA_CORE_ORIG=rdma-core_56.1.orig.tar.gz
MESON_VERSION=1.7.0-1~bpo12+1
DEBIAN_SUITE=bookworm
# The E810 DDP package for the guest's stock ice (non-free firmware):
# bookworm's firmware-misc-nonfree ships intel/ice/ddp/ice-1.3.30.0.pkg.
FW_MISC_VERSION=20230210-5
DDP_PKG=ice-1.3.30.0.pkg

# The private apt configuration: bookworm plus backports for binaries, trixie
# for sources only. The system's own apt sources are never touched.
APT_DIR=$BUILD/apt
APT_OPTS=(-o "Dir::Etc::sourcelist=$APT_DIR/sources.list"
	  -o "Dir::Etc::sourceparts=/nonexistent"
	  -o "Dir::State::Lists=$APT_DIR/lists"
	  -o "APT::Get::List-Cleanup=0")
# The same for KVER_NEW's image (trixie-backports, tools/deps.sh new).
APT_NEW_DIR=$BUILD/apt-trixie
APT_NEW_OPTS=(-o "Dir::Etc::sourcelist=$APT_NEW_DIR/sources.list"
	  -o "Dir::Etc::sourceparts=/nonexistent"
	  -o "Dir::State::Lists=$APT_NEW_DIR/lists"
	  -o "APT::Get::List-Cleanup=0")

# Python without pyenv's shims: QEMU's configure and rdma-core's pyverbs need
# the system interpreter (the one that has Cython and venv).
PYTHON=/usr/bin/python3

log() { printf '[%s] %s\n' "$(basename "$0")" "$*" >&2; }
die() { printf '[%s] error: %s\n' "$(basename "$0")" "$*" >&2; exit 1; }

nproc_build() { nproc 2>/dev/null || echo 2; }

# link_sources DIR NAME:TARGET...: points DIR/NAME at $TOP/TARGET for each
# pair. Succeeds when any link was created or moved (the caller then drops
# objects built from another checkout's files: their mtimes prove nothing).
link_sources() {
	local dir=$1 pair target changed=1
	shift
	for pair in "$@"; do
		target=$TOP/${pair#*:}
		if [ "$(readlink "$dir/${pair%%:*}" 2>/dev/null)" != "$target" ]; then
			ln -sfn "$target" "$dir/${pair%%:*}"
			changed=0
		fi
	done
	return $changed
}

# qmp_sock DIR: the QMP socket path of VM node directory DIR (tools/vm).
# AF_UNIX paths hold at most 107 bytes and a checkout can sit deep in a
# file system, so the socket lives in a short per-user runtime directory,
# named by a hash of DIR; tools/vm links DIR/qmp.sock to it. Fails, saying
# why, if even that path is too long (a long $XDG_RUNTIME_DIR).
qmp_sock() {
	local rt=${XDG_RUNTIME_DIR:-/tmp}/e810-vm-$(id -u) sock
	sock=$rt/$(printf %s "$1" | md5sum | cut -c1-16).sock
	if [ "${#sock}" -gt 107 ]; then
		printf '[%s] error: QMP socket path %s is %d bytes, over the 107 of a unix socket: set XDG_RUNTIME_DIR to a shorter directory\n' \
			"$(basename "$0")" "$sock" "${#sock}" >&2
		return 1
	fi
	mkdir -p -m 700 "$rt" || {
		printf '[%s] error: cannot create %s for the QMP sockets\n' \
			"$(basename "$0")" "$rt" >&2
		return 1
	}
	echo "$sock"
}

# kroot_dir_in NAME: a scratch directory of this checkout inside
# tools/kroot.sh's trixie root (a chroot sees nothing else), its path
# inside the root: /build/NAME-<checkout key>, one per checkout so that
# worktrees sharing the cache do not collide.
kroot_dir_in() {
	echo "/build/$1-$(printf '%s' "$TOP" | sha256sum | cut -c1-12)"
}

# guest_modules_dir K: where tools/mkguest-debian.sh builds our modules
# for guest kernel K (6.1, 7): a scratch copy of the module sources with
# the objects built against that kernel; for 7 inside tools/kroot.sh's
# trixie root, one per checkout (worktrees share the cache).
# guest7_src_in: that directory's path inside the root.
guest7_src_in() {
	kroot_dir_in guest-7
}
guest_modules_dir() {
	case "$1" in
	7) echo "$CACHE/kroot-$KVER_NEW$(guest7_src_in)" ;;
	*) echo "$BUILD/guest-$1-modules" ;;
	esac
}
