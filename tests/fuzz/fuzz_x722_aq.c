/*
 * libFuzzer harness for the X722 model's admin queue
 * (qemu-device/model/x722_aq.c, x722_nvm.c): the ATQ walk, descriptor
 * flags and lengths, indirect buffers in and out of guest memory, every
 * command parser with arbitrary parameters and buffers, and ARQ events
 * from link changes with the ring in any state.
 *
 * Input: a sequence of steps; each step's first byte picks
 *  - a command: an opcode (one of those i40e sends, or any 16-bit value),
 *    raw descriptor flags, 16 parameter bytes, a buffer length up to
 *    4 KiB and its bytes, then the ATQ tail moves over it;
 *  - a raw admin queue register write (lengths, heads, tails, bases);
 *  - a link change (an event on the ARQ if the driver asked for them).
 * The model must never crash, leak, hang or hit undefined behaviour.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../unit/x722_rig.h"
#include "fuzz_input.h"

#define MAX_STEPS   48

static const uint16_t opcodes[] = {
    0x0001, 0x0002, 0x0003, 0x0008, 0x0009, 0x000a, 0x0107, 0x0110,
    0x0200, 0x0205, 0x0211, 0x0212, 0x0250, 0x0251, 0x0254, 0x025a,
    0x0303, 0x0400, 0x0408, 0x040a, 0x0600, 0x0601, 0x0607, 0x0613,
    0x0701, 0x0a00, 0x0b02, 0x0b03, 0x0b04, 0x0b05, 0xff03,
};

static const uint32_t aq_regs[] = {
    X722_PF_ATQBAL, X722_PF_ATQBAH, X722_PF_ATQLEN, X722_PF_ATQH,
    X722_PF_ATQT, X722_PF_ARQBAL, X722_PF_ARQBAH, X722_PF_ARQLEN,
    X722_PF_ARQH, X722_PF_ARQT,
};

static XRig *rig;

static void step_cmd(In *in)
{
    uint8_t sel = take8(in), fl = take8(in);
    uint16_t opc = sel < 0xe0 ? opcodes[sel % (sizeof(opcodes) / 2)] :
                   take16(in);
    uint16_t len = take16(in) % 4097, flags;
    uint32_t head = xr_rd(rig, X722_PF_ATQT) & X722_AQ_PTR;
    uint32_t qlen = xr_rd(rig, X722_PF_ATQLEN) & X722_AQLEN_LEN;
    uint64_t slot, baddr = XR_CMDBUF;
    uint8_t *d;
    size_t n;

    if (qlen == 0 || qlen > XR_AQ_LEN || head >= qlen) {
        return;     /* the ring is not where the harness put it */
    }
    slot = XR_ATQ + (uint64_t)head * 32;
    d = xr_ptr(rig, slot);
    /* BUF, LB, RD, SI and the rest as the input says; BUF on a length. */
    flags = (fl & 1 ? 0x1000 : 0) | (fl & 2 ? 0x200 : 0) |
            (fl & 4 ? 0x400 : 0) | (fl & 8 ? 0x2000 : 0) |
            (uint16_t)((fl >> 4) << 3);
    if (fl & 0x80) {
        baddr = take32(in);     /* anywhere, usually unmapped */
    }
    memset(d, 0, 32);
    xr_put16(d, flags);
    xr_put16(d + 2, opc);
    xr_put16(d + 4, len);
    n = in->n < 16 ? in->n : 16;
    memcpy(d + 16, in->p, n);
    in->p += n;
    in->n -= n;
    if (flags & 0x1000) {
        xr_put32(d + 24, (uint32_t)(baddr >> 32));
        xr_put32(d + 28, (uint32_t)baddr);
        n = in->n < len ? in->n : len;
        memset(xr_ptr(rig, XR_CMDBUF), 0, 4096);
        memcpy(xr_ptr(rig, XR_CMDBUF), in->p, n);
        in->p += n;
        in->n -= n;
    }
    xr_wr(rig, X722_PF_ATQT, (head + 1) % qlen);
    x722_core_run_work(&rig->core);
}

static void step_reg(In *in)
{
    uint32_t off = aq_regs[take8(in) % (sizeof(aq_regs) / 4)];
    uint32_t v = take32(in);

    /* Keep ring bases inside guest memory most of the time. */
    if ((off == X722_PF_ATQBAL || off == X722_PF_ARQBAL) && !(v & 1)) {
        v = (uint32_t)XR_ATQ + (v & 0x3fc0);
    }
    if ((off == X722_PF_ATQBAH || off == X722_PF_ARQBAH) && !(v & 1)) {
        v = 0;
    }
    xr_wr(rig, off, v);
    x722_core_run_work(&rig->core);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    In in = { data, size };
    unsigned steps;

    if (!rig) {
        rig = calloc(1, sizeof(*rig));
        if (!rig || xr_init(rig)) {
            abort();
        }
    }
    /* The firmware's state and the rings as the driver set them up. */
    x722_aq_reset(&rig->core);
    x722_lan_reset(&rig->core);
    rig->core.carrier = true;
    memset(rig->mem, 0, 0x10000);
    xr_init_aq(rig);
    for (steps = 0; in.n && steps < MAX_STEPS; steps++) {
        switch (take8(&in) % 8) {
        case 0 ... 4:
            step_cmd(&in);
            break;
        case 5:
        case 6:
            step_reg(&in);
            break;
        default:
            x722_core_set_link(&rig->core, !rig->core.carrier);
            break;
        }
    }
    return 0;
}
