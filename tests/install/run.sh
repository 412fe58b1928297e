#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Host test of the real-host installation (docs/real-hosts.md), all staged
# under build/install-test/, nothing written to the system:
#  * make install / uninstall KDIR=<guest kernel headers> DESTDIR=...: the
#    exact file list, refusals (no KDIR, no ice source, a foreign irdma.ko),
#    uninstall leaves nothing of ours; KRELEASE=<release> instead of KDIR
#    installs the module already built for that release as it is;
#  * make install-provider / uninstall-provider DESTDIR=...: file list,
#    irdma.driver rewritten and restored byte for byte, the rdma-core
#    version check;
#  * make dkms-source, then what 'dkms build' does with it: PRE_BUILD
#    (tools/dkms-ice-src.sh: unpacked tree, tarball, wrong version,
#    nothing) and dkms.conf's MAKE[0] as dkms rewrites it, building irdma.ko
#    at BUILT_MODULE_LOCATION;
#  * Debian's dkms itself: dkms add, build and install of that source for
#    the guest kernel, with its trees under build/install-test/ (dkms
#    --sourcetree/--dkmstree/--installtree); the installed module records
#    the guest kernel's ice build id and is kept as
#    <release>/dkms-irdma.ko.xz for the rdma_install scenario, which boots
#    it. dkms signs what it builds and makes its key (/var/lib/dkms/mok.*)
#    the first time, as on any host; nothing else is written outside
#    build/.
#
#   tests/install/run.sh            all of the above, for the 6.12 guest
#   tests/install/run.sh dkms 6.1   only Debian's dkms, for bookworm's 6.1
#                                   (rdma_install under tools/vm --kernel
#                                   6.1; about a minute of compiling, so
#                                   not in make check)
#   tests/install/run.sh dkms 7     the same for the 7.x kernel (KVER_NEW,
#                                   rdma_install under --kernel 7): its
#                                   headers build only in tools/kroot.sh's
#                                   trixie root, so trixie's dkms runs in
#                                   there, its trees in the root's
#                                   /build/dkms-real-<checkout key>/
# The two module builds keep their objects between runs (dkms itself starts
# from a fresh copy), so only the first run compiles everything.
# Ends with "install: N passed, M failed" (also in build/install-test/summary).

. "$(dirname "$0")/../../tools/lib.sh"
cd "$TOP"

T=$BUILD/install-test
KHDR=/usr/src/linux-headers-$KVER
ICE_DIR=$CACHE/linux-source-$KVER/drivers/net/ethernet/intel/ice
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); printf 'FAIL: %s\n' "$*"; }
# check WHAT CMD...: CMD's output goes to the log, shown when it fails.
check() {
	local what=$1
	shift
	if "$@" >"$T/last.log" 2>&1; then
		ok
	else
		bad "$what"
		tail -5 "$T/last.log" | sed 's/^/    /'
	fi
}
# Files (and symlinks) under a root, relative, sorted.
files() { (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort); }
# Files with their checksums, to compare a root before and after.
state() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0r sha256sum); }
expect_files() {
	local what=$1 root=$2 want=$3 have
	have=$(files "$root")
	if [ "$have" = "$want" ]; then
		ok
	else
		bad "$what: files differ"
		diff <(echo "$want") <(echo "$have") | sed 's/^/    /'
	fi
}
# "make ... must fail and say TEXT".
expect_refusal() {
	local what=$1 text=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		bad "$what: succeeded"
	elif grep -qF "$text" <<<"$out"; then
		ok
	else
		bad "$what: no '$text' in:"
		printf '%s\n' "$out" | tail -5 | sed 's/^/    /'
	fi
}

# dkms_real RELEASE ICE_DIR: Debian's dkms add, build and install of the
# staged source $SRC (version $VER) for RELEASE (headers in
# /usr/src/linux-headers-RELEASE), its trees under $T/dkms-real; the
# installed module is kept as $T/RELEASE/dkms-irdma.ko.xz (dkms compresses
# as the kernel's config does: 6.12's and 7.x's modules are xz, 6.1's are
# not, and that one is kept xz-compressed, rdma_install unpacks it).
# ICE_DIR empty: RELEASE is $KVER_NEW, whose headers build only in
# tools/kroot.sh's trixie root, so that root's own dkms (trixie's) runs
# there, its trees in the root's kroot_dir_in dkms-real; from 6.16 the
# binding needs no ice source and the module records no ice build id.
dkms_real() {
	local krel=$1 ice_dir=$2 R=$T/dkms-real IN DKO ice_ko t0=$SECONDS
	local -a DKMS RUN=()
	if [ -z "$ice_dir" ]; then
		IN=$(kroot_dir_in dkms-real)
		R=$(tools/kroot.sh)$IN
		RUN=(tools/kroot.sh run)
	fi
	rm -rf "$R" "$T/$krel/dkms-irdma.ko.xz"
	mkdir -p "$R/src" "$R/tree" "$R/inst/$krel" "$T/$krel"
	# dkms status says "installed" only when readlink -f of its kernel-KVER
	# link equals the tree path it was given (_is_module_installed()): give
	# it the path without symlinks, as a checkout reached through one has.
	R=$(cd "$R" && pwd -P)
	[ -n "$ice_dir" ] && IN=$R
	cp -a "$SRC" "$R/src/"
	DKMS=("${RUN[@]}" dkms -m irdma-e810 -v "$VER" -k "$krel" --sourcetree "$IN/src"
	      --dkmstree "$IN/tree" --installtree "$IN/inst")
	# trixie's dkms (3.2) takes the headers and sign-file from
	# <installtree>/<release>/build, which on a host is the headers
	# package's /lib/modules/<release>/build link (3.0.10 looks there).
	[ -n "$ice_dir" ] || ln -s "/usr/src/linux-headers-$krel" "$R/inst/$krel/build"
	check "dkms add ($krel)" "${DKMS[@]}" add
	# PRE_BUILD finds the ice source through ICE_SRC (tools/dkms-ice-src.sh).
	if [ -n "$ice_dir" ]; then
		check "dkms build ($krel)" env ICE_SRC="$ice_dir" "${DKMS[@]}" build
	else
		check "dkms build ($krel)" "${DKMS[@]}" build
		cp "$T/last.log" "$T/dkms-build.log"
		# PRE_BUILD's word, in what dkms printed or in its make.log.
		check "dkms PRE_BUILD: no ice source needed ($krel)" \
			grep -qs 'no ice source needed' "$T/dkms-build.log" \
			"$R/tree/irdma-e810/$VER/$krel/x86_64/log/make.log"
	fi
	check "dkms install ($krel)" "${DKMS[@]}" install --no-depmod
	# What dkms said goes into last.log, so a failure shows it.
	check "dkms status: installed ($krel)" \
		grep "irdma-e810/$VER, $krel, x86_64: installed" <("${DKMS[@]}" status 2>&1)
	DKO=$(ls "$R/inst/$krel/updates/dkms/irdma.ko"* 2>/dev/null | head -n 1 || true)
	check "dkms installed updates/dkms/irdma.ko* ($krel)" [ -f "$DKO" ]
	if [ -n "$ice_dir" ]; then
		ice_ko=$(ls /lib/modules/"$krel"/kernel/$SUB/ice.ko* "$CACHE/ice-ko-$krel"/ice.ko* 2>/dev/null | head -n 1 || true)
		check "dkms module records the kernel's ice build id ($krel)" \
			[ "$(modinfo -F ice_build_id "$DKO" 2>/dev/null)" = "$(tools/ko-build-id.sh "$ice_ko")" ]
	else
		check "dkms module records no ice build id ($krel, public IIDC)" \
			[ -z "$(modinfo -F ice_build_id "$DKO" 2>&1 || echo "modinfo failed")" ]
	fi
	check "dkms module binds to ice.roce ($krel)" \
		grep -qx 'auxiliary:ice.roce' <(modinfo -F alias "$DKO" 2>/dev/null)
	check "dkms module is built for $krel" \
		grep -q "^$krel " <(modinfo -F vermagic "$DKO" 2>/dev/null)
	# With its key (mok.*, made the first time) and the kernel's sign-file.
	check "dkms signed the module ($krel)" \
		grep -q . <(modinfo -F signer "$DKO" 2>/dev/null)
	case $DKO in
	*.ko.xz) cp "$DKO" "$T/$krel/dkms-irdma.ko.xz" ;;
	*.ko) xz --check=crc32 -c "$DKO" >"$T/$krel/dkms-irdma.ko.xz" ;;
	esac
	echo "dkms add, build and install for $krel: $((SECONDS - t0)) s"
}
SUB=drivers/net/ethernet/intel/ice
VER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)

mkdir -p "$T"
if [ "${1:-}" = dkms ]; then
	case ${2:-} in
	6.1) krel=$KVER_OLD ice_dir=$CACHE/linux-source-$KVER_OLD/$SUB
	     [ -d "/usr/src/linux-headers-$krel" ] || die "no headers of $krel: run 'make deps'"
	     [ -f "$ice_dir/ice.h" ] || die "$ice_dir missing: run 'make deps'" ;;
	# tools/kroot.sh makes the root (headers and dkms) if it is missing.
	7) krel=$KVER_NEW ice_dir= ;;
	*) die "usage: $0 [dkms 6.1|7]" ;;
	esac
	D=$T/dkms-root-$krel
	rm -rf "$D"
	check "make dkms-source" make -s dkms-source DESTDIR="$D"
	SRC=$D/usr/src/irdma-e810-$VER
	dkms_real "$krel" "$ice_dir"
	echo "install (dkms $krel): $pass passed, $fail failed"
	[ "$fail" = 0 ]
	exit
fi
[ -d "$KHDR" ] || die "$KHDR missing: run 'tools/deps.sh host'"
[ -f "$ICE_DIR/ice.h" ] || die "$ICE_DIR missing: run 'tools/deps.sh host'"

# ---- modules -------------------------------------------------------------
S=$T/stage
rm -rf "$S"
mkdir -p "$S"
expect_refusal "install without KDIR" "KDIR is missing" make -s install DESTDIR="$S"
expect_refusal "install with a bad KDIR" "not a configured kernel build tree" \
	make -s install KDIR=/nonexistent DESTDIR="$S"
expect_refusal "install without the ice source" "cannot bind to the stock ice" \
	make -s install KDIR="$KHDR" ICE_SRC=/nonexistent DESTDIR="$S"
expect_files "nothing installed after a refusal" "$S" ""

MODDIR=lib/modules/$KVER/updates
check "make install" make -s install KDIR="$KHDR" ICE_SRC="$ICE_DIR" DESTDIR="$S"
expect_files "make install" "$S" "$MODDIR/irdma.ko"
check "installed irdma binds to ice.roce" \
	grep -qx 'auxiliary:ice.roce' <(modinfo -F alias "$S/$MODDIR/irdma.ko")
check "installed irdma is built for $KVER" \
	grep -q "^$KVER " <(modinfo -F vermagic "$S/$MODDIR/irdma.ko")
# A second install replaces ours; INSTALL_MOD_PATH works as DESTDIR does.
check "make install again, INSTALL_MOD_PATH" \
	make -s install KDIR="$KHDR" ICE_SRC="$ICE_DIR" INSTALL_MOD_PATH="$S"
expect_files "make install again" "$S" "$MODDIR/irdma.ko"
# ice_lite.ko of a WITH_ICE_LITE=1 install goes too (not built here: slow).
install -m 0644 /dev/null "$S/$MODDIR/ice_lite.ko"
check "make uninstall" make -s uninstall KDIR="$KHDR" DESTDIR="$S"
expect_files "make uninstall" "$S" ""

# KRELEASE instead of KDIR: the irdma.ko already built for that release
# (here build/host/<release>/ from the installs above) installed as it is,
# no headers, no compiler; the same file list, uninstall without headers.
HOSTKO=$BUILD/host/$KVER/drivers/infiniband/hw/irdma/irdma.ko
check "make install KRELEASE (prebuilt)" make -s install KRELEASE="$KVER" DESTDIR="$S"
expect_files "make install KRELEASE" "$S" "$MODDIR/irdma.ko"
check "prebuilt irdma.ko installed byte for byte" cmp "$HOSTKO" "$S/$MODDIR/irdma.ko"
expect_refusal "KRELEASE with nothing built for it" \
	"no irdma.ko built for 6.1.0-99-amd64" \
	make -s install KRELEASE=6.1.0-99-amd64 DESTDIR="$S"
expect_refusal "KRELEASE and KDIR both" "KDIR and KRELEASE both given" \
	make -s install KRELEASE="$KVER" KDIR="$KHDR" DESTDIR="$S"
expect_refusal "KRELEASE that is a path" "is not a kernel release" \
	make -s install KRELEASE=/lib/modules/"$KVER" DESTDIR="$S"
check "make uninstall KRELEASE" make -s uninstall KRELEASE="$KVER" DESTDIR="$S"
expect_files "make uninstall KRELEASE" "$S" ""

# Someone else's irdma.ko in updates/ is neither replaced nor removed.
mkdir -p "$S/$MODDIR"
echo foreign >"$S/$MODDIR/irdma.ko"
expect_refusal "install over a foreign irdma.ko" "is not ours" \
	make -s install KDIR="$KHDR" ICE_SRC="$ICE_DIR" DESTDIR="$S"
check "uninstall beside a foreign irdma.ko" make -s uninstall KDIR="$KHDR" DESTDIR="$S"
check "foreign irdma.ko kept" grep -qx foreign "$S/$MODDIR/irdma.ko"

# ---- provider ------------------------------------------------------------
P=$T/provider-root
LIBDIR=usr/lib/x86_64-linux-gnu
rm -rf "$P"
mkdir -p "$P/etc/libibverbs.d" "$P/$LIBDIR/libibverbs"
echo "driver irdma" >"$P/etc/libibverbs.d/irdma.driver"
echo "driver mlx5" >"$P/etc/libibverbs.d/mlx5.driver"
: >"$P/$LIBDIR/libibverbs/libirdma-rdmav34.so"
: >"$P/$LIBDIR/libibverbs.so.1.1.44.0"
# The provider from 'make rdma-core' when there is one, else a stand-in:
# this tests where files go.
SO=$BUILD/rdma-core/lib/e810/libirdma-rdmav34.so
[ -f "$SO" ] || { SO=$T/libirdma-rdmav34.so; echo stand-in >"$SO"; }
PMAKE=(make -s E810_PROVIDER_SO="$SO" DESTDIR="$P")
expect_refusal "provider on rdma-core 44" "is rdma-core 44.0" "${PMAKE[@]}" install-provider
rm "$P/$LIBDIR/libibverbs.so.1.1.44.0"
: >"$P/$LIBDIR/libibverbs.so.1.14.56.1"
before=$(state "$P")
check "make install-provider" "${PMAKE[@]}" install-provider
check "make install-provider again" "${PMAKE[@]}" install-provider
expect_files "make install-provider" "$P" "etc/libibverbs.d/irdma.driver
etc/libibverbs.d/mlx5.driver
$LIBDIR/libibverbs.so.1.14.56.1
$LIBDIR/libibverbs/e810/irdma.driver.stock
$LIBDIR/libibverbs/e810/libirdma-rdmav34.so
$LIBDIR/libibverbs/libirdma-rdmav34.so"
check "irdma.driver names ours" grep -qx \
	"driver /$LIBDIR/libibverbs/e810/libirdma" "$P/etc/libibverbs.d/irdma.driver"
check "stock irdma.driver saved" grep -qx "driver irdma" \
	"$P/$LIBDIR/libibverbs/e810/irdma.driver.stock"
check "provider installed as built" cmp -s "$SO" "$P/$LIBDIR/libibverbs/e810/libirdma-rdmav34.so"
check "make uninstall-provider" "${PMAKE[@]}" uninstall-provider
check "uninstall-provider restores the root" [ "$(state "$P")" = "$before" ]
check "no e810 directory left" [ ! -e "$P/$LIBDIR/libibverbs/e810" ]

# ---- dkms ----------------------------------------------------------------
D=$T/dkms-root
rm -rf "$D"
check "make dkms-source" make -s dkms-source DESTDIR="$D"
SRC=$D/usr/src/irdma-e810-$VER
check "dkms.conf at the top" [ -f "$SRC/dkms.conf" ]
check "PRE_BUILD script executable" [ -x "$SRC/tools/dkms-ice-src.sh" ]
check "irdma Kbuild staged" [ -f "$SRC/drivers/infiniband/hw/irdma/Kbuild" ]
check "shared headers staged" [ -f "$SRC/include/hw/e810_regs.h" ]
check "ring layer staged" [ -f "$SRC/lib/irdma-ring/sq.c" ]
check "no build output staged" [ -z "$(files "$SRC" | grep -E '\.(o|ko|mod|cmd)$|\.mod\.c$')" ]

# dkms.conf as dkms reads it (read_conf(): sourced with these set).
kernelver=$KVER kernel_source_dir=$KHDR dkms_tree=$T/dkms
conf() {
	(set +u; . "$SRC/dkms.conf" && eval "echo \"\${$1}\"")
}
BUILD_DIR=$dkms_tree/$(conf PACKAGE_NAME)/$VER/build
check "BUILD_EXCLUSIVE_KERNEL takes 6.12 and 6.1" \
	bash -c '[[ $1 =~ $3 && $2 =~ $3 ]]' _ "$KVER" "$KVER_OLD" "$(conf BUILD_EXCLUSIVE_KERNEL)"
check "BUILD_EXCLUSIVE_KERNEL takes 6.16 and 7.3" \
	bash -c '[[ $1 =~ $3 && $2 =~ $3 ]]' _ 6.16.3-amd64 7.3.4+deb13-amd64 "$(conf BUILD_EXCLUSIVE_KERNEL)"
check "BUILD_EXCLUSIVE_KERNEL refuses 6.0 and 5.10" \
	bash -c '! [[ $1 =~ $3 || $2 =~ $3 ]]' _ 6.0.0-1-amd64 5.10.0-30-amd64 "$(conf BUILD_EXCLUSIVE_KERNEL)"

# prepare_build(): the source copied over the build directory, PRE_BUILD
# run there (run_build_script()).
mkdir -p "$BUILD_DIR"
cp -a "$SRC"/. "$BUILD_DIR"/
pre_build() { (cd "$BUILD_DIR" && E810_SRC_ROOT=$1 $(conf PRE_BUILD)) 2>&1; }
sublevel=$(make -s -C "$KHDR" kernelversion)
USRC=$T/usr-src
rm -rf "$USRC"
mkdir -p "$USRC"
expect_refusal "PRE_BUILD without linux-source" "install Debian's linux-source-${sublevel%.*}" \
	pre_build "$USRC"
# Debian's tarball layout: linux-source-6.12/{Makefile,drivers/...}.
mk_tree() {
	mkdir -p "$1/${SUB%/*}"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\n' \
		"${2%%.*}" "$(cut -d. -f2 <<<"$2")" "${2##*.}" >"$1/Makefile"
	cp -r "$ICE_DIR" "$1/$SUB"
}
PKG=linux-source-${sublevel%.*}
mk_tree "$T/tar/$PKG" "${sublevel%.*}.1"
tar -C "$T/tar" -cJf "$USRC/$PKG.tar.xz" "$PKG"
expect_refusal "PRE_BUILD with another sublevel" "is Linux ${sublevel%.*}.1" pre_build "$USRC"
rm -rf "$T/tar"
mk_tree "$T/tar/$PKG" "$sublevel"
tar -C "$T/tar" -cJf "$USRC/$PKG.tar.xz" "$PKG"
check "PRE_BUILD unpacks the tarball" pre_build "$USRC" >/dev/null
check "ice.h from the tarball" [ -f "$BUILD_DIR/ice-src/$SUB/ice.h" ]
rm "$USRC/$PKG.tar.xz"
mv "$T/tar/$PKG" "$USRC/$PKG"
rm -rf "$T/tar"
check "PRE_BUILD links an unpacked tree" pre_build "$USRC" >/dev/null
check "ice-src links it" [ "$(readlink "$BUILD_DIR/ice-src/$SUB")" = "$USRC/$PKG/$SUB" ]

# actual_build(): MAKE[0] with dkms's rewrite, then the module must be at
# BUILT_MODULE_LOCATION/BUILT_MODULE_NAME.ko.
make_cmd=$(conf 'MAKE[0]')
make_cmd=${make_cmd/#make/make -j2 KERNELRELEASE=$kernelver}
if (cd "$BUILD_DIR" && bash -c "$make_cmd") >"$T/dkms-make.log" 2>&1; then
	ok
else
	bad "dkms MAKE[0] (log: $T/dkms-make.log)"
	tail -5 "$T/dkms-make.log" | sed 's/^/    /'
fi
KO=$BUILD_DIR/$(conf 'BUILT_MODULE_LOCATION[0]')$(conf 'BUILT_MODULE_NAME[0]').ko
check "dkms build binds to ice.roce" grep -qx 'auxiliary:ice.roce' <(modinfo -F alias "$KO" 2>/dev/null)

# 6.16+ (public iidc_rdma headers): PRE_BUILD needs no ice source.
NEWK=$T/ksrc-7.3
rm -rf "$NEWK"
mkdir -p "$NEWK/include/generated/uapi/linux" "$NEWK/include/linux/net/intel"
printf '#define LINUX_VERSION_MAJOR 7\n#define LINUX_VERSION_PATCHLEVEL 3\n#define LINUX_VERSION_SUBLEVEL 4\n' \
	>"$NEWK/include/generated/uapi/linux/version.h"
touch "$NEWK/include/linux/net/intel/iidc_rdma_ice.h"
check "PRE_BUILD for 7.3 needs no ice source" \
	grep -q 'no ice source needed' <(cd "$BUILD_DIR" && E810_SRC_ROOT=$T/empty \
		tools/dkms-ice-src.sh 7.3.4+deb13-amd64 "$NEWK" 2>&1)
# Debian's linux-headers-<release> has no include/linux/: its Makefile
# includes linux-headers-<version>-common's, which has it.
rm -rf "$NEWK-common"
mkdir -p "$NEWK-common/include/linux"
mv "$NEWK/include/linux/net" "$NEWK-common/include/linux/"
printf 'KBUILD_OUTPUT=%s\ninclude %s/Makefile\n' "$NEWK" "$NEWK-common" >"$NEWK/Makefile"
check "PRE_BUILD for 7.3 in Debian's split headers needs no ice source" \
	grep -q 'no ice source needed' <(cd "$BUILD_DIR" && E810_SRC_ROOT=$T/empty \
		tools/dkms-ice-src.sh 7.3.4+deb13-amd64 "$NEWK" 2>&1)

# ---- Debian's dkms -------------------------------------------------------
rm -f "$T/dkms-irdma.ko.xz"	# before the file moved to $T/<release>/
dkms_real "$KVER" "$ICE_DIR"

echo "install: $pass passed, $fail failed" | tee "$T/summary"
[ "$fail" = 0 ]
