/*
 * libFuzzer harness for the X722's ILQ (qemu-device/model/x722_ilq.c, the
 * GEN_1 engine's PUDA data path): the engine is brought up as the stock
 * irdma's GEN_1 open does and the ILQ created with the CM's APBVT port and
 * listener (tests/unit/x722_pe_rig.h), TCP_ENA on; then each step is
 *  - an ILQ send (irdma_puda_send(), GEN_1): a TCP/IPv4 frame as
 *    irdma_form_uda_cm_frame() builds it, optionally tagged, with a few
 *    bytes overwritten and its length changed, and qword 2's header fields
 *    either the matching ones or raw; the header's opcode, fragment count
 *    and DOLOOPBACK optionally raw too; or the same frame addressed to our
 *    own MAC (turned back into our steering);
 *  - a frame from the wire to the listener (SYN or any flags), mutated the
 *    same way, through x722_core_receive();
 *  - TCP_ENA toggled (AQ 0x0211).
 * The model must never crash, leak, hang or hit undefined behaviour.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../unit/x722_pe_rig.h"
#include "cmocka_shim.c"
#include "fuzz_input.h"

#define MAX_STEPS   24
#define ILQ_QUANTA  8
#define FRAME_MAX   2048

static Pe *p;
static bool tcp_ena;
static uint32_t head;       /* the ILQ SQ's next quantum */
static bool pol;            /* and its pass's valid bit */

/* ilq_frame() plus the input's mutations; returns the length to use. */
static size_t make_frame(In *in, uint8_t *f, bool to_us, uint8_t flags,
                         uint8_t tcp_flags)
{
    size_t n;
    unsigned k, muts;

    memset(f, 0, FRAME_MAX);
    n = ilq_frame(p, f, to_us, flags & 1, tcp_flags, take8(in) % 96);
    muts = take8(in) % 6;
    for (k = 0; k < muts; k++) {
        uint16_t off = take16(in);

        f[off % (n + 8)] = take8(in);
    }
    if (flags & 2) {
        n = take16(in) % FRAME_MAX;
    }
    return n;
}

static void step_send(In *in, bool to_us)
{
    uint8_t flags = take8(in), f[FRAME_MAX];
    size_t n = make_frame(in, f, to_us, flags, 0x12);
    uint64_t q2, hdr, pa;

    if (flags & 4) {
        q2 = take64(in);
    } else {
        q2 = FIELD_PREP(E810_GEN1_UDA_MACLEN, (flags & 1) ? 9 : 7) |
             FIELD_PREP(E810_GEN1_UDA_IPLEN, 5) |
             FIELD_PREP(E810_GEN1_UDA_L4T, E810_GEN1_UDA_L4T_TCP) |
             FIELD_PREP(E810_GEN1_UDA_IIPT, E810_GEN1_UDA_IIPT_IPV4_CSUM) |
             FIELD_PREP(E810_GEN1_UDA_L4LEN, 5);
    }
    hdr = FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) | E810_WQE_SIGCOMPL;
    if (flags & 8) {
        hdr = take64(in) & (E810_WQE_OPCODE | E810_WQE_ADDFRAGCNT |
                            E810_GEN1_UDA_DOLOOPBACK | E810_WQE_SIGCOMPL);
    }
    memcpy(xr_ptr(&p->r, ILQ_TXBUF), f, sizeof(f));
    if (!head) {
        pol = !pol;
    }
    pa = ILQ_SQ + 32ull * head;
    head = (head + 1) % ILQ_QUANTA;
    s64(p, pa, ILQ_TXBUF);
    s64(p, pa + 8, FIELD_PREP(gen1.frag_len, n));
    s64(p, pa + 16, q2);
    s64(p, pa + 24, hdr | (pol ? E810_WQE_VALID : 0));
    xr_wr(&p->r, X722_PE_WQEALLOC, E810_ILQ_QPN);
    x722_core_run_work(&p->r.core);
}

static void step_receive(In *in)
{
    uint8_t flags = take8(in), f[FRAME_MAX];
    uint8_t tcp_flags = (flags & 4) ? take8(in) : 0x02;
    size_t n = make_frame(in, f, true, flags, tcp_flags);

    x722_core_receive(&p->r.core, f, n);
    x722_core_run_work(&p->r.core);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    In in = { data, size };
    unsigned steps;
    Ilq l;

    if (!p) {
        p = calloc(1, sizeof(*p));
        if (!p || xr_init(&p->r)) {
            abort();
        }
    }
    /* Power-on reset, then the driver's state and its memory from scratch. */
    x722_core_reset(&p->r.core);
    memset((uint8_t *)p + offsetof(Pe, head), 0,
           sizeof(*p) - offsetof(Pe, head));
    memset(xr_ptr(&p->r, PE_BASE), 0, XR_MEM_BASE + XR_MEM_SIZE - PE_BASE);
    xr_init_aq(&p->r);
    ilq_make(p, &l);
    ilq_tcp_ena(p, true);
    tcp_ena = true;
    head = 0;
    pol = false;
    for (steps = 0; in.n && steps < MAX_STEPS; steps++) {
        switch (take8(&in) % 8) {
        case 0 ... 2:
            step_send(&in, false);
            break;
        case 3:
            step_send(&in, true);
            break;
        case 4 ... 6:
            step_receive(&in);
            break;
        default:
            tcp_ena = !tcp_ena;
            ilq_tcp_ena(p, tcp_ena);
            break;
        }
    }
    return 0;
}
