#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# timeout: 300
# boot: shared
# also-parent: ice
# The committed HMC layout in irdma's debugfs ("hmc") is consistent and is
# what the device itself reports: every SD the driver programmed reads back
# valid, with the same type, through PFHMC_SDCMD (and no other SD does);
# every object's segments are backed (direct), the PBLE pool's first
# segment is paged; bases are 512-byte granular, objects do not overlap,
# the layout fits the function's SDs and the counts follow the resource
# profile as upstream sizes it: the default (limits_sel 7, 256K QPs asked)
# shrunk to the function's default 32 SDs gives 1024 QPs; limits_sel 0
# asks for and gets 128.
# The CQP statistics show every request completed, none failed.
. "$E810_LIB"

# check_hmc AUX WANT_QP: verifies /sys/kernel/debug/irdma/AUX/hmc.
check_hmc() {
	python3 - "/sys/kernel/debug/irdma/$1/hmc" "$2" <<'PY'
import sys
path, want_qp = sys.argv[1], int(sys.argv[2])
lines = open(path).read().splitlines()
hdr = dict(zip(lines[0].split()[0::2], map(int, lines[0].split()[1::2])))
objs, sds, fails = {}, {}, []
section = "obj"
for l in lines[2:]:
    f = l.split()
    if not f or f[0].startswith("pble"):
        continue    # the PBLE pool's own lines (pble.c)
    if f[0] == "sd":
        section = "sd"
        continue
    if section == "obj":
        objs[f[0]] = dict(max=int(f[1]), cnt=int(f[2]), size=int(f[3]),
                          base=int(f[4], 16), sds=f[5], type=f[6])
    else:
        sds[int(f[0])] = (f[1], int(f[2], 16), f[3])
def check(what, cond):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)
check("QP count %d" % objs["QP"]["cnt"], objs["QP"]["cnt"] == want_qp)
check("CQ count = 2 x QP", objs["CQ"]["cnt"] == min(2 * want_qp, objs["CQ"]["max"]))
check("APBVT count 1, size 8192", objs["APBVT"]["cnt"] == 1 and objs["APBVT"]["size"] == 8192)
check("SRQ count 0", objs["SRQ"]["cnt"] == 0)
check("layout fits: sd_cnt %d <= max_sds %d" % (hdr["sd_cnt"], hdr["max_sds"]),
      0 < hdr["sd_cnt"] <= hdr["max_sds"])
spans = []
for n, o in objs.items():
    if o["cnt"] > o["max"] and n != "APBVT":
        check("%s count %d within max %d" % (n, o["cnt"], o["max"]), False)
    check("%s base 0x%x is 512-byte granular" % (n, o["base"]), o["base"] % 512 == 0)
    if not o["cnt"] or not o["size"]:
        continue
    end = o["base"] + o["cnt"] * o["size"]
    check("%s ends within the committed SDs" % n, end <= hdr["sd_cnt"] << 21)
    spans.append((o["base"], end, n))
spans.sort()
for a, b in zip(spans, spans[1:]):
    check("%s and %s do not overlap" % (a[2], b[2]), a[1] <= b[0])
check("PBLE base is SD-aligned", objs["PBLE"]["base"] % (2 << 20) == 0)
# Every SD the objects (not PBLE) span is valid and direct, in the driver
# and in the device.
need = set()
for n, o in objs.items():
    if n == "PBLE" or not o["cnt"] or not o["size"]:
        continue
    a, b = map(int, o["sds"].split("-"))
    need.update(range(a, b + 1))
for i in sorted(need):
    drv, data, dev = sds.get(i, ("none", 0, "invalid"))
    check("SD %d backed direct (driver %s, device %s, data 0x%x)" % (i, drv, dev, data),
          drv == "direct" and dev == "direct" and data & 0xfff == 0x803)
pble_sd = objs["PBLE"]["base"] >> 21
drv, data, dev = sds.get(pble_sd, ("none", 0, "invalid"))
# The pool backs its first chunk with a direct SD when 2 MiB of contiguous
# memory is at hand, else with a paged one (pble.c).
check("PBLE pool's SD %d backed (driver %s, device %s, data 0x%x)" % (pble_sd, drv, dev, data),
      drv == dev and ((drv == "paged" and data & 0xfff == 0x801) or
                      (drv == "direct" and data & 0xfff == 0x803)))
for i, (drv, data, dev) in sds.items():
    check("SD %d: driver (%s) and device (%s) agree" % (i, drv, dev), drv == dev)
check("device reports %d valid SDs = %d object SDs + 1 PBLE SD" % (len(sds), len(need)),
      len(sds) == len(need) + 1 and hdr["sd_obj"] == len(need))
sys.exit(1 if fails else 0)
PY
}

# check_cqp AUX: every CQP request completed, none failed or timed out.
check_cqp() {
	local f=/sys/kernel/debug/irdma/$1/cqp
	declare -A c
	while read -r k v; do c[$k]=$v; done < <(grep -v '^op ' "$f")
	expect_eq "$1 CQP mode" interrupt "${c[mode]}"
	expect_eq "$1 CQP posted = completed" "${c[posted]}" "${c[completed]}"
	expect_eq "$1 CQP in flight" 0 "${c[in_flight]}"
	expect_eq "$1 CQP errors" 0 "${c[errors]}"
	expect_eq "$1 CQP timeouts" 0 "${c[timeouts]}"
	grep -q "^op UPDATE_PE_SDS" "$f" && grep -q "^op COMMIT_FPM_VAL" "$f" &&
		ok "$1 CQP ops counted" || fail "$1 CQP op counts missing"
}

mapfile -t devs < <(e810_pci_devs)
for sel_qp in "7 1024" "0 128"; do
	read -r sel qp <<<"$sel_qp"
	if [ "$sel" != 7 ]; then
		rmmod irdma || fail "rmmod irdma"
		modprobe irdma limits_sel="$sel" || fail "modprobe irdma limits_sel=$sel"
	fi
	for d in "${devs[@]}"; do
		wait_for "[ -n \"\$(e810_ibdev_of $d)\" ]" 15 || { fail "$d: no ib_device"; continue; }
		aux=$(e810_aux_of "$d")
		echo "== limits_sel $sel, $aux"
		if check_hmc "$aux" "$qp"; then ok "$aux HMC layout (limits_sel $sel)"
		else fail "$aux HMC layout (limits_sel $sel)"; fi
		check_cqp "$aux"
	done
done
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
