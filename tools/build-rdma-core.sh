#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Builds Debian's rdma-core source (libibverbs, librdmacm, utilities, every
# stock provider including irdma, pyverbs and its tests) with our provider
# injected, and installs it into a staging root for the guest image.
#
# Cached like QEMU: source in CACHE/src/rdma-core-<ver>, build and staging
# root in CACHE/rdma-core-{build,root}-<ver>-<key>. The rdma-core tree gets
# three symlinks into the current checkout (providers/irdma-e810 ->
# provider-irdma/, e810-include -> include/, e810-ring -> lib/irdma-ring/,
# the ring layer shared with the kernel) and one add_subdirectory line.

. "$(dirname "$0")/lib.sh"

SRC=$CACHE/src/rdma-core-$RDMA_CORE_VERSION
# Debian's install layout, so that the staged tree drops into a bookworm root.
CMAKE_OPTS=(
	-GNinja
	-DCMAKE_BUILD_TYPE=RelWithDebInfo
	-DCMAKE_INSTALL_PREFIX=/usr
	-DCMAKE_INSTALL_LIBDIR=lib/x86_64-linux-gnu
	-DCMAKE_INSTALL_SYSCONFDIR=/etc
	-DCMAKE_INSTALL_RUNDIR=/run
	-DCMAKE_INSTALL_PYTHON_ARCH_LIB=/usr/lib/python3/dist-packages
	-DCMAKE_INSTALL_DOCDIR=/usr/share/doc/rdma-core
	-DENABLE_STATIC=0
	-DNO_MAN_PAGES=1
	-DPYTHON_EXECUTABLE="$PYTHON"
)
KEY=$(printf '%s\n' "$RDMA_CORE_VERSION" "${CMAKE_OPTS[@]}" | sha256sum | cut -c1-12)
BLD=$CACHE/rdma-core-build-$RDMA_CORE_VERSION-$KEY
ROOT=$CACHE/rdma-core-root-$RDMA_CORE_VERSION-$KEY

[ -f "$SRC/.extracted" ] || die "rdma-core source missing; run 'make deps'"

inject() {
	grep -q '^add_subdirectory(providers/irdma-e810)' "$SRC/CMakeLists.txt" ||
		sed -i 's|^add_subdirectory(providers/irdma)$|&\nadd_subdirectory(providers/irdma-e810)|' \
			"$SRC/CMakeLists.txt"
	grep -q '^add_subdirectory(providers/irdma-e810)' "$SRC/CMakeLists.txt" ||
		die "could not hook our provider into rdma-core's CMakeLists.txt"
	if link_sources "$SRC" providers/irdma-e810:provider-irdma e810-include:include \
			e810-ring:lib/irdma-ring &&
	   [ -d "$BLD" ]; then
		log "provider sources moved to $TOP: rebuilding our objects"
		find "$BLD" -path '*irdma-e810*' -name '*.o' -delete
	fi
}

configure() {
	[ -f "$BLD/build.ninja" ] && return 0
	log "configuring rdma-core in $BLD (once per key)"
	rm -rf "$BLD"
	mkdir -p "$BLD"
	(cd "$BLD" && PATH=/usr/bin:$PATH cmake "${CMAKE_OPTS[@]}" "$SRC") \
		>"$BLD/configure.log" 2>&1 ||
		{ tail -20 "$BLD/configure.log"; die "rdma-core configure failed"; }
	grep -q 'pyverbs' "$BLD/build.ninja" ||
		die "rdma-core configured without pyverbs (is cython3 installed?)"
}

build() {
	log "building rdma-core (first build ~4 min, then seconds)"
	(cd "$BLD" && ninja -j"$(nproc_build)") >"$BLD/build.log" 2>&1 ||
		{ grep -E -B2 -A5 'error' "$BLD/build.log" | head -60;
		  die "rdma-core build failed (log: $BLD/build.log)"; }
	# Restage only when something was rebuilt: the guest image is remade
	# whenever the staging root is newer than it.
	if grep -q '^ninja: no work to do' "$BLD/build.log" && [ -d "$ROOT/usr" ]; then
		link_outputs
		return 0
	fi
	(cd "$BLD" && DESTDIR=$ROOT.tmp ninja install) >"$BLD/install.log" 2>&1 ||
		die "rdma-core install failed (log: $BLD/install.log)"
	rm -rf "$ROOT"
	mv "$ROOT.tmp" "$ROOT"
	for lib in lib/irdma-rdmav34.so lib/e810/irdma-rdmav34.so; do
		[ -f "$BLD/${lib%/*}/lib${lib##*/}" ] || die "missing $lib in the build"
	done
	link_outputs
}

link_outputs() {
	mkdir -p "$BUILD"
	ln -sfn "$BLD" "$BUILD/rdma-core"
	ln -sfn "$ROOT" "$BUILD/rdma-core-root"
}

mkdir -p "$CACHE"
exec 9>"$CACHE/rdma-core.lock"
flock 9
inject
configure
build
log "ok: $ROOT"
