#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes the fuzzers' seed corpora: tests/fuzz/corpus/<harness>/<name>.

Deterministic (fixed PRNG seeds): running it again gives the same files.
Each seed follows its harness's input layout (the header comment and
run_command() of fuzz_<name>.c): a start/mode byte, then commands with
their operands. Usage: gen_corpus.py [outdir] (default: corpus/ next to
this script); the directory is replaced.
"""
import os
import random
import shutil
import struct
import sys


def le(v, n):
    return bytes((v >> (8 * i)) & 0xff for i in range(n))


def be(v, n):
    return bytes((v >> (8 * (n - 1 - i))) & 0xff for i in range(n))


def cmd_sweep(rng, mode, ncmd, oplen, reps=1):
    """mode byte, then every command number once (reps times), each
    followed by oplen pseudo-random operand bytes."""
    out = bytes([mode])
    for _ in range(reps):
        for c in range(ncmd):
            out += bytes([c]) + bytes(rng.randrange(256) for _ in range(oplen))
    return out


def generic(rng, modes, ncmd, oplen):
    seeds = {}
    for m in modes:
        seeds['sweep-m%02x' % m] = cmd_sweep(rng, m, ncmd, oplen)
        seeds['sweep2-m%02x' % m] = cmd_sweep(rng, m, ncmd, oplen, 2)
    for c in range(ncmd):
        seeds['only-c%02d' % c] = bytes([modes[1]]) + \
            (bytes([c]) + bytes(rng.randrange(256) for _ in range(oplen))) * 6
    return seeds


# ---- fuzz_roce_rx -----------------------------------------------------------

def roce_rx_seeds(rng):
    s = generic(rng, [0x00, 0x01, 0x02], 8, 24)
    # Sends to the peer that never answers, then the clock in steps of
    # ~0.26 s: retransmissions until the retry count is exceeded (the QP
    # goes to ERROR, its SQ and RQ are flushed, an AE is raised).
    for op in range(4):
        send = bytes([4, op]) + b'\x00' + be(1000 + 700 * op, 2) + \
            b'\x00\x10' + be(0x12345678, 4)
        s['rc-retries-op%d' % op] = send * 3 + bytes([6, 0xff]) * 40 + \
            bytes([7])
    return s


# ---- fuzz_lan ---------------------------------------------------------------

def lan_seeds(rng):
    s = {}
    add_tx = bytes([0, 0x00])                 # queue 0, rig context, TSO on
    rx16 = bytes([1, 0x00, 0x0f])             # queue 0, 2048-byte buffers
    rx_small = bytes([1, 0x00, 0x00])         # queue 0, 128-byte buffers
    post_rx = bytes([2, 0x00, 40])            # 40 buffers on queue 0

    def hdr(off, udp=False, bcast=False, v6=False):
        sel = (8 if udp else 0) | (2 if bcast else 0) | (4 if v6 else 0)
        return bytes([3, sel]) + le(off, 2) + b'\x05\xdc'

    def data(off, ln, eop=True, rs=True, cmd=None, offs=None):
        k = (1 if eop else 0) | (2 if rs else 0) | \
            (4 if cmd is not None else 0) | (0x10 if offs is not None else 0)
        out = bytes([k]) + le(off, 2) + le(ln, 2)
        if cmd is not None:
            out += le(cmd, 2)
        if offs is not None:
            out += le(offs, 3)
        return out

    # Offload commands and header lengths (MACLEN/2, IPLEN/4, L4LEN/4).
    v4tcp, v4udp, v6tcp = 0x160, 0x360, 0x120
    off_v4tcp = 7 | 5 << 7 | 5 << 14
    off_v4udp = 7 | 5 << 7 | 2 << 14
    off_v6tcp = 7 | 10 << 7 | 5 << 14

    def tx(q, descs, sel_extra=0):
        return bytes([4, q | sel_extra, len(descs) - 1]) + b''.join(descs)

    def ctx_tso(tlen, mss):
        return bytes([0x80]) + le(tlen, 3) + le(mss, 2) + le(0, 2)

    base = add_tx + rx16 + post_rx
    s['tx-one'] = base + hdr(0) + tx(0, [data(0, 60)])
    s['tx-loop'] = base + hdr(0) + tx(0, [data(0, 1000)]) + b'\x07'
    s['tx-bcast-loop'] = base + hdr(0, bcast=True) + \
        tx(0, [data(0, 300)]) + b'\x07'
    s['tx-multibuf'] = base + hdr(0) + \
        tx(0, [data(0, 100, False, False), data(100, 900, False, False),
               data(1000, 500)]) + b'\x07'
    s['tx-9desc'] = base + hdr(0) + \
        tx(0, [data(64 * i, 64, i == 8, i == 8) for i in range(9)])
    s['tx-tso'] = base + hdr(0) + \
        tx(0, [ctx_tso(8000, 1460),
               data(0, 54, False, False, v4tcp, off_v4tcp),
               data(54, 8000, True, True, v4tcp, off_v4tcp)]) + b'\x07'
    s['tx-tso-1buf'] = base + hdr(0) + \
        tx(0, [ctx_tso(3000, 1000), data(0, 3054, True, True, v4tcp,
                                         off_v4tcp)]) + b'\x07'
    s['tx-tso-udp'] = base + hdr(0, udp=True) + \
        tx(0, [ctx_tso(3000, 500), data(0, 3042, True, True, v4udp,
                                        off_v4udp)]) + b'\x07'
    s['tx-tso-v6'] = base + hdr(0, v6=True) + \
        tx(0, [ctx_tso(4000, 1000), data(0, 4074, True, True, v6tcp,
                                         off_v6tcp)]) + b'\x07'
    s['tx-tso-badmss'] = base + hdr(0) + \
        tx(0, [ctx_tso(4000, 10), data(0, 4054, True, True, v4tcp,
                                       off_v4tcp)])
    s['tx-csum'] = base + hdr(0) + \
        tx(0, [data(0, 600, True, True, v4tcp, off_v4tcp)]) + \
        hdr(1024, udp=True) + \
        tx(0, [data(1024, 300, True, True, v4udp, off_v4udp)]) + b'\x07'
    s['rx-small-split'] = add_tx + rx_small + post_rx + hdr(0) + \
        tx(0, [data(0, 1400)]) + b'\x07'
    s['rx-no-buffers'] = add_tx + rx16 + hdr(0) + tx(0, [data(0, 200)]) + \
        b'\x07' + post_rx + b'\x07'
    s['tx-wrap'] = base + hdr(0) + b''.join(
        tx(0, [data(0, 64)] * 10) for _ in range(8))
    s['tx-tail-oob'] = base + hdr(0) + \
        bytes([4, 0x80, 0]) + data(0, 64) + le(5000, 2)
    s['rx-tail-oob'] = add_tx + rx16 + bytes([2, 0x80, 10]) + le(0xffff, 2)
    s['tx-unrung-then-dis'] = base + hdr(0) + \
        tx(0, [data(0, 64)] * 3, 0x40) + bytes([9, 0x80])
    s['dis-tx-midtraffic'] = base + hdr(0) + tx(0, [data(0, 64)] * 5) + \
        bytes([9, 0x80]) + tx(0, [data(0, 64)])
    s['dis-rx-midtraffic'] = base + hdr(0) + tx(0, [data(0, 64)]) + \
        bytes([9 | 0x80]) + b'\x07'
    s['rx-raw-ctx'] = bytes([1, 0x80]) + bytes(rng.randrange(256)
                                               for _ in range(33)) + post_rx
    s['rx-frames'] = rx16 + post_rx + b''.join(
        bytes([6, i & 3]) + le(60 + 97 * i, 2) + bytes(rng.randrange(256)
                                                      for _ in range(64))
        for i in range(8))
    s['intr'] = base + b''.join(bytes([8, i]) + le(rng.randrange(1 << 32), 4)
                                for i in range(16)) + hdr(0) + \
        tx(0, [data(0, 64)])
    s['pf-reset-mid'] = base + hdr(0) + tx(0, [data(0, 64)]) + \
        bytes([10 | 0xf0]) + tx(0, [data(0, 64)]) + rx16 + post_rx
    s['bad-desc'] = base + hdr(0) + \
        tx(0, [bytes([0x08 | 3, 0x05]) + le(0, 2) + le(64, 2),
               bytes([0x60 | 3]) + le(0, 2) + le(64, 2)])
    for q in range(1, 4):
        s['q%d' % q] = bytes([0, q, 1, q, 0x10, 2, q, 30]) + hdr(512) + \
            tx(q, [data(512, 200)]) + b'\x07'
    for i in range(6):
        s['rand%d' % i] = base + bytes(rng.randrange(256) for _ in range(200))
    return s


# ---- fuzz_reset -------------------------------------------------------------

def reset_seeds(rng):
    s = {}

    def send(side, op, ln):
        # post_send: sel (side, op), local off, length (2, BE), remote off
        return bytes([0, side | (op << 1), 0]) + be(ln, 2) + b'\x00'

    traffic = bytes([3, 1, 3, 0]) + send(0, 1, 9000) + send(1, 2, 5000) + \
        send(0, 0, 100) + bytes([6, 100]) + bytes([7 | 0x10])
    for side in range(2):
        for act in range(8):
            for when in range(2):
                mid = bytes([4]) if when else b''
                s['s%d-a%d-w%d' % (side, act, when)] = \
                    bytes([0x0c if when else 0x04]) + traffic + mid + \
                    bytes([8 | (side << 4), act]) + bytes([5, 40, 4, 9])
    s['sync-both-reset'] = bytes([0x07]) + traffic + bytes([8, 0, 8 | 0x10, 1])
    s['no-action'] = bytes([0x08]) + traffic + bytes([4, 5, 255])
    return s


# ---- fuzz_bigmr -------------------------------------------------------------

def bigmr_seeds(rng):
    s = {}

    def reg(side, kind, va, off=None, npages=None):
        sel = side | (kind << 1) | (0x10 if off is not None else 0) | \
            (0x20 if npages is not None else 0)
        out = bytes([0, sel])
        if kind in (1, 2):
            out += be(rng.randrange(1 << 16), 2)
        elif kind >= 4:
            out += be(rng.randrange(1 << 32), 4)
        out += be(va, 8)
        if off is not None:
            out += be(off, 2)
        if npages is not None:
            out += be(npages, 2)
        return out

    def post(side, op, laddr, ln, raddr):
        return bytes([1, side | (op << 5)]) + laddr + ln + raddr

    start, end, last, b4k, b2m = b'\x00', b'\x02', b'\x09', b'\x0b', b'\x0c'
    maxlen = b'\x00'
    pumps = b'\x04' * 6
    for mtu in range(4):
        for kind in range(5):
            s['m%d-k%d-write-max' % (mtu, kind)] = bytes([mtu << 2]) + \
                reg(0, kind, 0x7f0000001000) + reg(1, kind, 0x10000) + \
                post(0, 0, start, maxlen, start) + pumps
    s['read-end'] = b'\x0c' + reg(0, 3, 0x1000) + reg(1, 3, 0x200000) + \
        post(1, 1, last, b'\x05\x10', end) + pumps
    s['write-4k-cross'] = b'\x08' + reg(0, 4, 0x3000, 0xf00) + \
        reg(1, 4, 0x5000, 0x10) + post(0, 0, b4k, b'\x05\x20', b4k) + pumps
    s['write-2m-cross'] = b'\x08' + reg(0, 3, 0x1ff000) + reg(1, 3, 0x1ff800) + \
        post(0, 0, b2m, b'\x05\x40', b2m) + pumps
    s['zero-len'] = b'\x04' + reg(0, 0, 0x1000) + reg(1, 0, 0x2000) + \
        post(0, 0, start, b'\x01\x00', start) + post(1, 1, start, b'\x01\x00',
                                                     start) + pumps
    s['near-2^32'] = b'\x0c' + reg(0, 1, 0xfffff000) + reg(1, 1, 0x100000000) + \
        post(0, 0, last, maxlen, last) + post(1, 1, start, b'\x05\x1f',
                                              b'\x11\x7f\xff\xf0\x00') + pumps
    s['staglen-top'] = b'\x0c' + reg(0, 2, 0) + reg(1, 2, 0xffffffffffff0000) + \
        post(0, 0, last, maxlen, end) + pumps
    s['pbl-too-short'] = b'\x0c' + reg(0, 3, 0x1000, npages=3) + \
        reg(1, 3, 0x1000, npages=600) + post(0, 0, start, maxlen, start) + pumps
    s['send-recv-big'] = b'\x0c' + reg(0, 3, 0x1000) + reg(1, 3, 0x1000) + \
        bytes([3, 1]) + start + maxlen + post(0, 2, start, maxlen, start) + pumps
    s['sync-wire'] = b'\x0f' + reg(0, 3, 0x1000) + reg(1, 3, 0x1000) + \
        post(0, 1, start, b'\x05\x30', start) + pumps + b'\x05\x40' + pumps
    return s


# ---- fuzz_iw_rx -------------------------------------------------------------

def iw_seeds(rng):
    """Start: MSS (2 bytes, % 1400 + 64) and IRD code; then commands."""
    start = be(1396, 2) + b'\x02'
    def fpdu(u, cut=None):
        if cut is None:
            return b'\x02' + be(len(u), 2) + u
        return b'\x03' + be(len(u), 2) + u + be(cut, 2)
    def untagged(op, qn, msn, mo, payload, last=True):
        return bytes([0x41 if last else 0x01, 0x40 | op]) + be(0, 4) + \
            be(qn, 4) + be(msn, 4) + be(mo, 4) + payload
    def tagged(op, stag, to, payload, last=True):
        return bytes([0xc1 if last else 0x81, 0x40 | op]) + be(stag, 4) + \
            be(to, 8) + payload
    data = bytes(rng.randrange(256) for _ in range(300))
    s = {}
    s['send'] = start + fpdu(untagged(3, 0, 1, 0, data))
    s['send-2seg'] = start + fpdu(untagged(3, 0, 1, 0, data[:100], False)) + \
        fpdu(untagged(3, 0, 1, 100, data[100:]))
    s['send-cut'] = start + fpdu(untagged(5, 0, 1, 0, data), 37)
    s['write'] = start + fpdu(tagged(0, 0x101, 0x10000000, data))
    s['read-req'] = start + fpdu(untagged(1, 1, 1, 0, be(0x77, 4) +
                                          be(0x1000, 8) + be(5000, 4) +
                                          be(0x101, 4) + be(0x10000000, 8))) + \
        b'\x06\xff\xff' * 4
    s['terminate'] = start + fpdu(untagged(7, 2, 1, 0, b'\x23\x02\x00\x00'))
    s['our-work'] = start + b'\x05\x00\x01\x00' + be(0, 8) + \
        b'\x05\x02\x02\x00' + be(0x10000000, 4) + be(0x101, 4) + \
        b'\x04\x01\x00' + b'\x06\x40\x00' + b'\x04\x10\x00'
    s['segments'] = start + b'\x01\x18\x00\x00' + be(40, 2) + data[:40] + \
        b'\x00\xff\x02' + b'\x01\x11\x00\x00' + be(0, 2) + be(512, 2)
    for c in range(8):
        s['only-c%02d' % c] = start + (bytes([c]) + bytes(
            rng.randrange(256) for _ in range(24))) * 6
    return s


# ---- fuzz_mpa ---------------------------------------------------------------

def mpa_seeds(rng):
    """Mode byte, local IRD and ORD, then an MPA frame (RFC 5044, 6581)."""
    req, rep = b'MPA ID Req Frame', b'MPA ID Rep Frame'
    def mpa(key, flags, rev, words, pd, extra=b''):
        body = (words or b'') + pd
        return key + bytes([flags, rev]) + be(len(body), 2) + body + extra
    pd = bytes(rng.randrange(256) for _ in range(40))
    s = {}
    s['irdma-req'] = b'\x00\x7f\x08' + mpa(req, 0x50, 2, be(0x807f, 2) +
                                           be(0xc008, 2), pd)
    s['siw-req'] = b'\x00\x7f\xff' + mpa(req, 0x10, 2, be(0x0080, 2) +
                                         be(0x0080, 2), b'')
    s['v1-req'] = b'\x00\x10\x10' + mpa(req, 0x40, 1, None, pd[:8])
    s['send-rtr-req'] = b'\x00\x01\x01' + mpa(req, 0x50, 2, be(0xc001, 2) +
                                              be(0x0001, 2), b'')
    s['markers-req'] = b'\x00\x04\x04' + mpa(req, 0xd0, 2, be(0x8004, 2) +
                                             be(0x8004, 2), b'')
    s['read-rep'] = b'\x01\x08\x08' + mpa(rep, 0x50, 2, be(0x8010, 2) +
                                          be(0x4004, 2), b'')
    s['reject-rep'] = b'\x01\x00\x00' + mpa(rep, 0x70, 2, be(0, 2) +
                                            be(0, 2), b'no')
    s['v1-rep-max1'] = b'\x03\x00\x00' + mpa(rep, 0x40, 1, None, b'',
                                             b'\x00' * 8)
    s['long-pd'] = b'\x00\x20\x20' + mpa(req, 0x50, 2, be(0x8020, 2) +
                                         be(0x8020, 2), bytes(508))
    s['short'] = b'\x00\x01\x01' + req + b'\x50\x02\x00'
    return s


# ---- fuzz_cm_tcp ------------------------------------------------------------

def cm_tcp_seeds():
    """Mode byte (bit 0: IPv4), then an ILQ receive buffer: IPv4 header at
    byte 20 or IPv6 at 0, the TCP header at 40 (irdma_puda_get_tcpip_info)."""
    def tcp(flags, opts=b'', payload=b''):
        hl = 20 + len(opts)
        return (be(40000, 2) + be(7301, 2) + be(0x01020304, 4) +
                be(0x0a0b0c0d, 4) + bytes([hl // 4 << 4, flags]) +
                be(0xffff, 2) + bytes(4) + opts + payload)
    def v4(seg):
        return (b'\x01' + bytes(20) + b'\x45\x00' + be(20 + len(seg), 2) +
                b'\x00\x00\x40\x00\x40\x06\x00\x00' +
                bytes([192, 168, 81, 2, 192, 168, 81, 1]) + seg)
    def v6(seg):
        return (b'\x00' + b'\x60\x00\x00\x00' + be(len(seg), 2) +
                b'\x06\x40' + bytes(range(16)) + bytes(range(16, 32)) + seg)
    syn_opts = b'\x02\x04\x05\xb4\x01\x03\x03\x07'
    mpa = b'MPA ID Req Frame' + b'\x50\x02\x00\x04' + be(0x807f, 2) + be(0xc008, 2)
    return {
        'syn-v4': v4(tcp(0x02, syn_opts)),
        'synack-v4': v4(tcp(0x12, b'\x02\x04\x05\xb4\x03\x03\x02\x00')),
        'mpa-req-v4': v4(tcp(0x18, b'', mpa)),
        'fin-v6': v6(tcp(0x11)),
        'rst-v4': v4(tcp(0x04)),
        'mpa-v6': v6(tcp(0x10, b'\x01\x01\x01\x00', mpa)),
    }


def write(outdir, name, seeds):
    d = os.path.join(outdir, name)
    os.makedirs(d, exist_ok=True)
    for k, v in sorted(seeds.items()):
        with open(os.path.join(d, k), 'wb') as f:
            f.write(v[:4096])


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'corpus')
    shutil.rmtree(outdir, ignore_errors=True)
    rng = random.Random(16)
    # Harnesses written before the corpora: every command of their
    # run_command() under each start mode, operands pseudo-random.
    # fuzz_aq: raw, focused and sequence modes, with and without the PF
    # VSI (mode bit 3); one seed with the DDP download (bit 4, slow).
    aq = generic(rng, [0x00, 0x01, 0x02, 0x0c, 0x0d, 0x0e], 10, 6)
    aq['ddp-sequence'] = cmd_sweep(rng, 0x1d, 10, 6)
    write(outdir, 'fuzz_aq', aq)
    write(outdir, 'fuzz_rdma', generic(rng, [0x00, 0x01], 10, 12))
    write(outdir, 'fuzz_sq', generic(rng, [0x00, 0x01, 0x02, 0x03], 12, 8))
    write(outdir, 'fuzz_roce_rx', roce_rx_seeds(rng))
    write(outdir, 'fuzz_rc_b2b', generic(rng, [0x00, 0x03, 0x0c, 0x10], 10, 4))
    write(outdir, 'fuzz_lan', lan_seeds(rng))
    write(outdir, 'fuzz_reset', reset_seeds(rng))
    write(outdir, 'fuzz_bigmr', bigmr_seeds(rng))
    write(outdir, 'fuzz_iw_rx', iw_seeds(rng))
    write(outdir, 'fuzz_iwarp', generic(rng, [0x00, 0x01], 8, 16))
    write(outdir, 'fuzz_mpa', mpa_seeds(rng))
    write(outdir, 'fuzz_cm_tcp', cm_tcp_seeds())


if __name__ == '__main__':
    main()
