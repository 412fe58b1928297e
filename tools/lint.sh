#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# make lint: the kernel modules built with W=1 C=1 (gcc's extra warnings and
# sparse) against every kernel we pin, checkpatch.pl, and the unit tests'
# -Wall -Wextra -Werror build. Any warning fails the run.
#
#   tools/lint.sh [LEG...]     default: all legs, in this order
#
# Legs:
#   6.12        the guest's kernel (KVER), built in the tree
#   6.1         bookworm's own kernel (KVER_OLD), in a scratch copy under
#               build/lint-6.1 so the tree's 6.12 objects stay as they are
#   new         a kernel with the 6.16+ IIDC (KVER_NEW: iidc_rdma.h, the
#               binding is ice_rdma_if.c), in a scratch copy inside the
#               trixie build root of tools/kroot.sh (its kbuild tools and
#               gcc-14 need trixie)
#   checkpatch  checkpatch.pl from Debian's linux-source-6.1 (tools/deps.sh)
#               on the modules, include/ and the shared ring layer
#   unit        tests/unit and tests/provider built with -Werror
#   refs        no "issue N" in the tracked sources: a comment says why
#               in its own words or cites docs/, upstream symbols or
#               specifications, never a tracker the repository lacks
# Each leg prints its time. checkpatch: two checks are off (an out-of-tree
# module that builds for several kernels needs LINUX_VERSION_CODE tests,
# and those put the constant on the left); include/hw/e810_compat.h is
# skipped (its user-space half spells out __attribute__((packed))).

. "$(dirname "$0")/lib.sh"
cd "$TOP"

MODULE_DIRS=(drivers/net/ethernet/intel/ice_lite drivers/infiniband/hw/irdma)
# In-guest test modules (tests/vm/kmod): built for the guest kernel only.
TEST_MODULE_DIRS=(tests/vm/kmod/cq_resize_stress tests/vm/kmod/ice_reset_req)
# Kernel code outside the module directories: the ring layer irdma.ko
# compiles (its Kbuild; the W=1 C=1 legs build it with the module).
KERNEL_LIB_DIRS=(lib/irdma-ring)
CHECKPATCH=$CACHE/checkpatch-6.1/scripts/checkpatch.pl
CHECKPATCH_SKIP=include/hw/e810_compat.h

# Prints the lines of $1 that are warnings or errors; fails when there are.
clean_output() {
	! grep -E "${2:-warning|error}" <<<"$1"
}

# scratch_copy DIR: the checkout's module sources and headers in DIR.
scratch_copy() {
	rm -rf "$1" && mkdir -p "$1"
	git ls-files -z drivers include lib tools/ko-build-id.sh |
		xargs -0 cp --parents -t "$1"
}

# lint_modules KDIR TOP [MAKE_ARG...]: both modules of the tree at TOP
# built W=1 C=1 against KDIR; the caller's LINT_RUN array, when set, is the
# command that runs make (the build root's).
lint_modules() {
	local kdir=$1 top=$2 d out fail=0
	shift 2
	for d in "${MODULE_DIRS[@]}"; do
		out=$("${LINT_RUN[@]}" make -C "$kdir" M="$top/$d" \
			E810_TOP="$top" "$@" W=1 C=1 modules 2>&1) || fail=1
		clean_output "$out" || fail=1
	done
	return $fail
}

lint_6_12() {
	local d LINT_RUN=()
	for d in "${MODULE_DIRS[@]}"; do
		make -C "/usr/src/linux-headers-$KVER" M="$TOP/$d" E810_TOP="$TOP" \
			clean >/dev/null
	done
	lint_modules "/usr/src/linux-headers-$KVER" "$TOP" E810_REQUIRE_ICE=1 || return 1
	(MODULE_DIRS=("${TEST_MODULE_DIRS[@]}")
	 lint_modules "/usr/src/linux-headers-$KVER" "$TOP")
}

lint_6_1() {
	local s=$BUILD/lint-6.1 LINT_RUN=()
	scratch_copy "$s"
	lint_modules "/usr/src/linux-headers-$KVER_OLD" "$s" E810_REQUIRE_ICE=1
}

# The scratch copy lives in the root (kroot_dir_in, tools/lib.sh).
lint_new() {
	local root s fail=0 LINT_RUN=(tools/kroot.sh run)
	root=$(tools/kroot.sh) || return 1
	s=$(kroot_dir_in lint)
	scratch_copy "$root$s"
	lint_modules "/usr/src/linux-headers-$KVER_NEW" "$s" E810_REQUIRE_ICE=1 ||
		fail=1
	[ -f "$root$s/drivers/infiniband/hw/irdma/ice_rdma_if.o" ] ||
		{ echo "irdma for $KVER_NEW was built without ice_rdma_if.o"; fail=1; }
	return $fail
}

lint_checkpatch() {
	local out fail=0
	tools/deps.sh checkpatch || return 1
	out=$(git ls-files "${MODULE_DIRS[@]}" "${TEST_MODULE_DIRS[@]}" \
		"${KERNEL_LIB_DIRS[@]}" include |
		grep '\.[ch]$' |
		grep -v "$CHECKPATCH_SKIP" |
		xargs "$CHECKPATCH" --no-tree --terse -q -f \
			--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON 2>&1) ||
		fail=1
	clean_output "$out" 'WARNING|ERROR|CHECK' || fail=1
	return $fail
}

lint_unit() {
	make -s -C tests/unit all >/dev/null &&
		make -s -C tests/provider all >/dev/null
}

# Every tracked file but docs/ (whose history notes may name issues) and
# the lint script itself, which spells the pattern.
lint_refs() {
	! git ls-files -z | grep -zv -e '^docs/' -e '\.md$' -e '^tools/lint\.sh$' |
		xargs -0 grep -nIiE '\<issue[[:space:]]*#?[0-9]+'
}

main() {
	local legs=("$@") leg t fail=0 failed=()
	[ ${#legs[@]} -eq 0 ] && legs=(6.12 6.1 new checkpatch unit refs)
	for leg in "${legs[@]}"; do
		t=$SECONDS
		case "$leg" in
		6.12) lint_6_12 ;;
		6.1) lint_6_1 ;;
		new) lint_new ;;
		checkpatch) lint_checkpatch ;;
		unit) lint_unit ;;
		refs) lint_refs ;;
		*) die "unknown leg $leg (6.12, 6.1, new, checkpatch, unit, refs)" ;;
		esac || { fail=1; failed+=("$leg"); }
		log "$leg: $((SECONDS - t)) s"
	done
	if [ $fail = 0 ]; then
		echo "lint: clean (${legs[*]}: kernels W=1 C=1, checkpatch, unit -Werror)"
	else
		echo "lint: warnings or errors in: ${failed[*]}"
	fi
	return $fail
}

main "$@"
