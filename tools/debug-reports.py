#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Kernel reports of a debug-kernel guest run (tools/vm --kernel debug).

Usage: debug-reports.py SUPPRESS KLOG [KMEMLEAK]

KLOG is the guest's dmesg (or its console log when the guest died before
writing one), KMEMLEAK the content of /sys/kernel/debug/kmemleak after the
end-of-run scans. Every KASAN, lockdep, RCU, sleeping-in-atomic,
DEBUG_LIST, DEBUG_OBJECTS, DMA-API, WARNING/BUG/Oops report and every
kmemleak "unreferenced object" is printed (first lines) unless one of the
regular expressions in SUPPRESS (one a line; '#' comment lines say why)
matches a line of it; an entry of several expressions joined by " && "
suppresses a report only when each of them matches one of its lines.
Exit status 1 when an unsuppressed report remains.
"""
import re
import sys

START = re.compile(
    r"BUG: |WARNING: |Oops|general protection fault|kernel BUG at|"
    r"UBSAN: |ODEBUG: |list_(add|del) corruption|"
    r"INFO: task .* blocked for more than|refcount_t: |"
    r"Unable to handle kernel|Kernel panic|BUG kmalloc|"
    # the checkers turning themselves off (their reports are WARNINGs)
    r"DMA-API: .*(out of memory|ENOMEM|only .* allocated)|"
    r"kmemleak: .*(detector disabled|[Cc]annot|[Ff]ailed|pool empty)")
END = re.compile(r"---\[ end trace|^=+$")
STAMP = re.compile(r"^\[ *[0-9.]+\] ")
# A KASAN report with its allocation, free and work-creation stacks runs
# to about 120 lines.
MAX_LINES = 160


def klog_reports(lines):
    reports, cur = [], None
    for raw in lines:
        line = STAMP.sub("", raw.rstrip("\n"))
        if START.search(line):
            cur = [line]
            reports.append(cur)
        elif cur is not None:
            if END.search(line) or len(cur) >= MAX_LINES:
                cur = None
            else:
                cur.append(line)
    return reports


def kmemleak_reports(lines):
    reports, cur = [], None
    for raw in lines:
        line = raw.rstrip("\n")
        if line.startswith("unreferenced object"):
            cur = [line]
            reports.append(cur)
        elif cur is not None and line.startswith(" "):
            cur.append(line)
    return reports


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        supp = [[re.compile(p) for p in l.strip().split(" && ")]
                for l in f if l.strip() and not l.startswith("#")]
    with open(sys.argv[2], errors="replace") as f:
        reports = klog_reports(f)
    if len(sys.argv) > 3:
        try:
            with open(sys.argv[3], errors="replace") as f:
                reports += kmemleak_reports(f)
        except FileNotFoundError:
            pass
    bad = suppressed = 0
    for r in reports:
        if any(all(any(p.search(l) for l in r) for p in s) for s in supp):
            suppressed += 1
            continue
        bad += 1
        print("report %d:" % bad)
        for l in r[:25]:
            print("  " + l)
    if bad or suppressed:
        print("%d kernel report(s), %d suppressed (%s)" %
              (bad, suppressed, sys.argv[2]))
    sys.exit(1 if bad else 0)


main()
