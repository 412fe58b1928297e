#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make qemu-patches: the e810 device as a patch series against the QEMU
# source tools/build-qemu.sh builds (QEMU $QEMU_UPSTREAM), in
# build/qemu-patches/ (git format-patch, with a cover letter):
#   1 hw/net/e810: the device model (model/, the shared register headers)
#   2 hw/net/e810: the PCI device, trace events, meson and Kconfig hooks
# The tree layout is the one build-qemu.sh links into QEMU (hw/net/e810/
# with meson.build, model/, qemu/, include/), so what is posted is what
# make qemu builds. The qtest (tests/qtest/) is not in the series: it
# drives the device with tests/unit's cmocka drivers, not libqtest.
#
#   tools/qemu-patches.sh [--check | --check-full]
# --check (make qemu-patches-check, in make check) applies the series to
# the clean QEMU source and builds it incrementally on make qemu's build
# (see check_incremental). --check-full (make qemu-patches-check-full)
# applies the series with git am to a clean copy of the QEMU source
# (Debian's, as build-qemu.sh uses), configures it with build-qemu.sh's
# options (CONF_OPTS there; keep them alike) and builds
# qemu-system-x86_64 from nothing (a full QEMU build: ~13 min of 2 CPUs;
# on demand, docs/testing.md).

. "$(dirname "$0")/lib.sh"

OUT=$BUILD/qemu-patches
T0=$SECONDS
DL=$CACHE/dl/qemu
TARBALL=$DL/qemu_$QEMU_UPSTREAM+ds.orig.tar.xz
[ -f "$TARBALL" ] || die "QEMU source missing; run 'make deps'"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
Q=$WORK/qemu
GIT=(git -C "$Q" -c user.name="$(git -C "$TOP" config user.name || echo e810)"
     -c user.email="$(git -C "$TOP" config user.email || echo e810@localhost)"
     -c commit.gpgsign=false)

# The base: the two files the series changes, from the upstream tarball.
mkdir -p "$Q"
tar -xJf "$TARBALL" -C "$Q" --strip-components=1 \
	"qemu-$QEMU_UPSTREAM/hw/net/meson.build" "qemu-$QEMU_UPSTREAM/hw/net/Kconfig"
"${GIT[@]}" init -q
"${GIT[@]}" add -A
"${GIT[@]}" commit -q -m "QEMU $QEMU_UPSTREAM (base)"

D=$Q/hw/net/e810
mkdir -p "$D/include/hw"
cp -r "$TOP/qemu-device/model" "$D/model"
cp "$TOP"/include/hw/e810_*.h "$D/include/hw/"
"${GIT[@]}" add -A
"${GIT[@]}" commit -q -F - <<'EOF'
hw/net/e810: model of the Intel E810 with its RDMA engine

The device core of an emulated Intel E810-C QSFP function: register
file, admin queue (the firmware interface the Linux ice driver uses),
LAN queues, and the RDMA protocol engine the Linux irdma driver drives
(CQP, HMC, CQs, EQs, QPs, memory registration, a RoCEv2 RC/UD transport
and an iWARP engine). It is plain C with no QEMU dependency; it reaches
guest memory, interrupts, the network and its timer only through
E810CoreOps (model/e810_core.h), which the next patch implements.

include/hw/ holds the register and descriptor layouts, shared with the
drivers the device is tested with.
EOF

mkdir -p "$D/qemu"
cp "$TOP/qemu-device/meson.build" "$D/meson.build"
cp "$TOP"/qemu-device/qemu/* "$D/qemu/"
echo "subdir('e810')" >>"$Q/hw/net/meson.build"
printf '\nsource e810/qemu/Kconfig\n' >>"$Q/hw/net/Kconfig"
"${GIT[@]}" add -A
"${GIT[@]}" commit -q -F - <<'EOF'
hw/net/e810: PCI device "e810"

-device e810: the model as a PCI Express endpoint (8086:1592) with a
32 MiB register BAR, MSI-X, FLR and a device serial number, attached to
a netdev. Properties: netdev, mac, hmc-sds (HMC size), msix-vectors.

Migration is refused with a blocker: guest memory is registered with
the device and its queue pairs' transport state is shared with remote
ends. Trace events cover MMIO, MSI-X, frames, resets, admin queue
commands and CQP operations; guest errors and unimplemented features go
to -d guest_errors / -d unimp and to e810_err_guest / e810_unsupported.
EOF

rm -rf "$OUT"
mkdir -p "$OUT"
"${GIT[@]}" format-patch -q --cover-letter -o "$OUT" HEAD~2 >/dev/null
sed -i -e 's/\*\*\* SUBJECT HERE \*\*\*/hw\/net: emulated Intel E810 with RDMA (e810)/' \
	-e '/\*\*\* BLURB HERE \*\*\*/{
r /dev/stdin
d
}' "$OUT"/0000-cover-letter.patch <<EOF
An emulated Intel E810-C function with its RDMA engine, for testing RDMA
drivers and applications (Linux ice + irdma, rdma-core) without the
hardware. Built and tested against QEMU $QEMU_UPSTREAM.
EOF
log "$(find "$OUT" -name '*.patch' | wc -l) files in $OUT"

case "${1:-}" in
--check) ;;
--check-full) ;;
*) exit 0 ;;
esac

# --check: the series applied to the clean source tree and built on top
# of make qemu's configured build, reusing every object it does not touch.
# Both trees are seen through overlays in a private mount namespace, at
# the paths the build was configured with (its commands name the source
# by those paths, so ninja's records match): the source as Debian ships
# it (build-qemu.sh's two hook lines taken out of hw/net/meson.build and
# hw/net/Kconfig, its hw/net/e810 links removed) with the series applied
# by git apply, and the build directory, whose writes land in the overlay
# and are dropped after. The series' files are new, so ninja compiles all
# of hw/net/e810 from them and links qemu-system-x86_64; a header the
# series lacks fails that compile. The hook files keep their time stamps
# when the series gives back exactly the text make qemu configured with
# (else meson reconfigures, as it must).
check_incremental() {
	local src bld
	src=$CACHE/src/qemu-$QEMU_UPSTREAM
	bld=$("$TOP/tools/build-qemu.sh" --print-build-dir)
	[ -f "$src/.extracted" ] && [ -f "$bld/build.ninja" ] ||
		die "no configured QEMU build; run 'make qemu'"
	mkdir -p "$WORK/up"
	exec 9>"$CACHE/qemu.lock"
	flock 9
	local rc=0
	unshare -m --propagation private bash -s "$src" "$bld" "$WORK" "$OUT" \
		"$(nproc_build)" "$TOP" <<-'NS' || rc=$?
	set -e
	src=$1 bld=$2 work=$3 out=$4 jobs=$5 top=$6
	mount -t tmpfs tmpfs "$work/up"
	mkdir -p "$work"/up/{su,sw,bu,bw}
	mount -t overlay overlay \
		-o "lowerdir=$src,upperdir=$work/up/su,workdir=$work/up/sw" "$src"
	mount -t overlay overlay \
		-o "lowerdir=$bld,upperdir=$work/up/bu,workdir=$work/up/bw" "$bld"
	cd "$src"
	# build-qemu.sh appended its hooks: "subdir('e810')" to meson.build,
	# an empty line and "source e810/qemu/Kconfig" to Kconfig
	cp -p hw/net/meson.build "$work/meson.build.hooked"
	cp -p hw/net/Kconfig "$work/Kconfig.hooked"
	[ "$(tail -n 1 "$work/meson.build.hooked")" = "subdir('e810')" ] &&
		[ "$(tail -n 2 "$work/Kconfig.hooked")" = "$(printf '\nsource e810/qemu/Kconfig')" ] ||
		{ echo "build-qemu.sh's hooks are not where they should be" >&2; exit 2; }
	head -n -1 "$work/meson.build.hooked" >hw/net/meson.build
	head -n -2 "$work/Kconfig.hooked" >hw/net/Kconfig
	rm -rf hw/net/e810
	git apply --whitespace=nowarn "$out"/000[1-9]-*.patch ||
		{ echo "the series does not apply to the clean source" >&2; exit 2; }
	for f in meson.build Kconfig; do
		if cmp -s "hw/net/$f" "$work/$f.hooked"; then
			touch -r "$work/$f.hooked" "hw/net/$f"
		fi
	done
	# the same for the series' own build files against the checkout's
	# (what hw/net/e810's links pointed at when make qemu configured)
	for f in meson.build:qemu-device/meson.build \
		 qemu/Kconfig:qemu-device/qemu/Kconfig; do
		if cmp -s "hw/net/e810/${f%%:*}" "$top/${f#*:}"; then
			touch -r "$top/${f#*:}" "hw/net/e810/${f%%:*}"
		fi
	done
	cd "$bld"
	PATH=/usr/bin:$PATH ninja -j"$jobs" qemu-system-x86_64 >"$work/build.log" 2>&1 ||
		{ tail -n 30 "$work/build.log" >&2; exit 3; }
	cp "$work/build.log" "$out/check-build.log"
	grep -c "Compiling C object .*hw_net_e810_" "$work/build.log" >"$work/compiled" || true
	grep -q "Linking target qemu-system-x86_64" "$work/build.log" ||
		{ echo "qemu-system-x86_64 was not linked again" >&2; exit 3; }
	"$bld/qemu-system-x86_64" -device e810,help >/dev/null ||
		{ echo "the patched QEMU does not know the e810 device" >&2; exit 4; }
	NS
	[ $rc = 0 ] || die "the series does not apply or build (status $rc)"
	log "ok: the series applies to the clean QEMU $QEMU_UPSTREAM source and builds" \
		"($(cat "$WORK/compiled") files of hw/net/e810 compiled and linked on make qemu's" \
		"build, $((SECONDS - T0)) s; log: ${OUT#"$TOP"/}/check-build.log)"
}

if [ "$1" = --check ]; then
	check_incremental
	exit 0
fi

# A clean copy of the source build-qemu.sh uses (Debian's patches applied),
# the series applied with git am, then configured and built alike.
C=$WORK/clean
log "unpacking a clean QEMU $QEMU_UPSTREAM"
(cd "$DL" && dpkg-source --no-check -x ./*.dsc "$C") >/dev/null ||
	die "dpkg-source failed"
GIT[2]=$C
"${GIT[@]}" init -q
"${GIT[@]}" add -A >/dev/null
"${GIT[@]}" commit -q -m base
"${GIT[@]}" am -q "$OUT"/000[1-9]-*.patch || die "the series does not apply"
log "series applied; configuring and building (full QEMU build)"
mkdir -p "$WORK/build"
(cd "$WORK/build" && PATH=/usr/bin:$PATH "$C/configure" \
	--target-list=x86_64-softmmu --without-default-features --enable-tcg \
	--enable-slirp --enable-virtfs --enable-attr --enable-pixman \
	--disable-docs --disable-werror --disable-tools --disable-install-blobs \
	--disable-download --python="$PYTHON" >configure.log 2>&1 &&
 PATH=/usr/bin:$PATH ninja -j"$(nproc_build)" qemu-system-x86_64 >build.log 2>&1) ||
	{ tail -n 30 "$WORK"/build/*.log; die "the patched QEMU does not build"; }
"$WORK/build/qemu-system-x86_64" -device e810,help >/dev/null ||
	die "the patched QEMU does not know the e810 device"
log "ok: the series applies to a clean QEMU $QEMU_UPSTREAM and builds"
