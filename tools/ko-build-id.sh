#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# ko-build-id.sh FILE: prints the GNU build id of a kernel module file
# (.ko, or .ko.xz/.ko.gz/.ko.zst as distributions install them) in hex;
# prints nothing and fails if the file has none or cannot be read.
#
# irdma's Kbuild records the stock ice.ko's build id this way, and the
# binding to that ice (ice_if.c) compares it with the running ice's: its
# struct ice_pf comes from a private header of one particular build.
# Self-contained (dkms runs it from its copy of the source): needs only
# readelf (binutils, as for any module build) and the decompressor.

set -eu
f=${1:?usage: $0 FILE}
[ -r "$f" ] || exit 1
t=$(mktemp)
trap 'rm -f "$t"' EXIT
case $f in
*.xz) xz -dc "$f" >"$t" ;;
*.gz) gzip -dc "$f" >"$t" ;;
*.zst) zstd -qdc "$f" >"$t" ;;
*) cat "$f" >"$t" ;;
esac
id=$(LC_ALL=C readelf -n "$t" | sed -n 's/^ *Build ID: *\([0-9a-f][0-9a-f]*\) *$/\1/p' | head -n 1)
[ -n "$id" ] || exit 1
echo "$id"
