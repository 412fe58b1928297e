/*
 * libFuzzer harness for the X722's RDMA protocol engine
 * (qemu-device/model/x722_rdma.c and the E810 engine it runs as GEN_1):
 * the PE register map, the CQP host context, and every CQP WQE parser
 * with GEN_1's field positions, object set and shared SD numbering.
 *
 * Input: 64 bytes of CQP host context (its HW_MAJVER forced to GEN_1's
 * unless the first byte's top bit is set), then steps; each step's first
 * byte picks
 *  - a CQP WQE: an opcode (one the GEN_1 driver sends, or any), seven
 *    qwords (each either raw or an address inside guest memory) and a
 *    header, posted at the SQ head with the pass's valid bit, then CQPDB;
 *  - a raw write of a PE register (CQP, CQ arm/ack, AEQALLOC, WQEALLOC,
 *    PDINV, CEQCTL, AEQCTL, DYN_CTLN, the doorbell page);
 *  - a PF reset.
 * The model must never crash, leak, hang or hit undefined behaviour.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../unit/x722_rig.h"
#include "fuzz_input.h"
#include "hw/e810_gen.h"

#define MAX_STEPS   40
#define PE_BASE     (XR_MEM_BASE + 0x100000)
#define PE_CTX      PE_BASE
#define PE_SQ       (PE_BASE + 0x1000)
#define PE_SQ_SIZE  16
#define PE_SPAN     0x2f0000ull     /* the rest of guest memory */

static const uint8_t ops[] = {
    E810_CQP_OP_QUERY_FPM_VAL, E810_CQP_OP_COMMIT_FPM_VAL,
    E810_CQP_OP_UPDATE_PE_SDS, E810_CQP_OP_SHMC_PAGES_ALLOCATED,
    E810_CQP_OP_CREATE_CQ, E810_CQP_OP_MODIFY_CQ, E810_CQP_OP_DESTROY_CQ,
    E810_CQP_OP_CREATE_CEQ, E810_CQP_OP_DESTROY_CEQ,
    E810_CQP_OP_CREATE_AEQ, E810_CQP_OP_DESTROY_AEQ,
    E810_CQP_OP_CREATE_QP, E810_CQP_OP_MODIFY_QP, E810_CQP_OP_DESTROY_QP,
    E810_CQP_OP_ALLOC_STAG, E810_CQP_OP_REG_MR, E810_CQP_OP_DEALLOC_STAG,
    E810_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY,
    E810_CQP_OP_MANAGE_LOC_MAC_TABLE, E810_CQP_OP_MANAGE_ARP,
    E810_CQP_OP_MANAGE_APBVT, E810_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY,
    E810_CQP_OP_NOP, E810_CQP_OP_QUERY_RDMA_FEATURES,
    E810_CQP_OP_GATHER_STATS, E810_CQP_OP_CREATE_ADDR_HANDLE,
};

static const uint32_t regs[] = {
    X722_PE_CQPDB, X722_PE_CQPTAIL, X722_PE_CCQPSTATUS, X722_PE_CCQPLOW,
    X722_PE_CCQPHIGH, X722_PE_CQARM, X722_PE_CQACK, X722_PE_AEQALLOC,
    X722_PE_WQEALLOC, X722_PFHMC_PDINV, X722_PFINT_AEQCTL,
    X722_PFINT_CEQCTL(0), X722_PFINT_CEQCTL(1), X722_PFINT_DYN_CTLN(0),
    X722_PFINT_DYN_CTLN(1), X722_PFINT_LNKLSTN(1), X722_PE_DB_PAGE,
    X722_PE_DB_PAGE + 0x40,
};

static XRig *rig;
static uint32_t head;
static bool pol;

static void step_wqe(In *in)
{
    uint8_t sel = take8(in), addr_mask = take8(in);
    unsigned op = sel < 0xf0 ? ops[sel % sizeof(ops)] : sel & 0x3f;
    uint64_t pa = PE_SQ + (uint64_t)head * E810_CQP_WQE_SIZE;
    uint64_t hdr;
    unsigned i;

    if (head == 0) {
        pol = !pol;
    }
    head = (head + 1) % PE_SQ_SIZE;
    for (i = 0; i < 8; i++) {
        uint64_t v;

        if (i == E810_QW(E810_CQPSQ_HDR_OFF)) {
            continue;
        }
        v = take64(in);
        if (addr_mask & (1u << i)) {
            /* An address the harness's guest memory has. */
            v = PE_BASE + 0x2000 + (v % (PE_SPAN - 0x2000) & ~7ull);
        }
        xr_put64(xr_ptr(rig, pa + 8 * i), v);
    }
    hdr = take64(in) & ~(E810_CQPSQ_OPCODE | E810_CQPSQ_WQEVALID);
    xr_put64(xr_ptr(rig, pa + E810_CQPSQ_HDR_OFF),
             hdr | FIELD_PREP(E810_CQPSQ_OPCODE, op) |
             (pol ? E810_CQPSQ_WQEVALID : 0));
    xr_wr(rig, X722_PE_CQPDB, head);
    x722_core_run_work(&rig->core);
}

static void step_reg(In *in)
{
    uint8_t sel = take8(in);
    uint32_t val = (uint32_t)take64(in);

    xr_wr(rig, regs[sel % (sizeof(regs) / sizeof(regs[0]))], val);
    x722_core_run_work(&rig->core);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    In in = { data, size };
    uint8_t ctx[64];
    unsigned steps, i;
    bool raw;

    if (!rig) {
        rig = calloc(1, sizeof(*rig));
        if (!rig || xr_init(rig)) {
            abort();
        }
    }
    x722_core_reset(&rig->core);
    memset(rig->mem + (PE_BASE - XR_MEM_BASE), 0, PE_SPAN + 0x10000);
    raw = size && (data[0] & 0x80);
    for (i = 0; i < sizeof(ctx); i++) {
        ctx[i] = take8(&in);
    }
    memcpy(xr_ptr(rig, PE_CTX), ctx, sizeof(ctx));
    if (!raw) {
        uint64_t ver = xr_get64(ctx + E810_CQPHC_VER_OFF) &
                       ~E810_CQPHC_HW_MAJVER;
        uint64_t cfg = xr_get64(ctx) & ~E810_CQPHC_PROTOCOL_USED &
                       ~E810_CQPHC_SQSIZE;

        xr_put64(xr_ptr(rig, PE_CTX + E810_CQPHC_VER_OFF), ver);
        xr_put64(xr_ptr(rig, PE_CTX), cfg |
                 FIELD_PREP(E810_CQPHC_SQSIZE, 3));
        xr_put64(xr_ptr(rig, PE_CTX + E810_CQPHC_SQ_BASE_OFF), PE_SQ);
    }
    head = 0;
    pol = false;
    xr_wr(rig, X722_PE_CCQPHIGH, PE_CTX >> 32);
    xr_wr(rig, X722_PE_CCQPLOW, (uint32_t)PE_CTX);
    for (steps = 0; in.n && steps < MAX_STEPS; steps++) {
        switch (take8(&in) % 8) {
        case 0 ... 5:
            step_wqe(&in);
            break;
        case 6:
            step_reg(&in);
            break;
        default:
            xr_wr(rig, X722_PFGEN_CTRL, X722_PFGEN_CTRL_PFSWR);
            head = 0;
            pol = false;
            break;
        }
    }
    return 0;
}
