/*
 * Emulated E810: the control QP (CQP).
 *
 * Creation (docs/hw-reference.md 2.2): the driver writes the 64-byte host
 * context's PA to CCQPHIGH then CCQPLOW and polls CCQPSTATUS; the work reads
 * the context and sets CCQP_DONE, or CCQP_ERR with CQPERRCODES. Writing 0:0
 * destroys it (DONE clears).
 *
 * Operation (hw-reference 2.3, 2.4): the driver fills WQEs with the pass's
 * valid bit (1 on the first pass, toggling at each wrap) and writes the new SQ
 * head to CQPDB. The work runs WQEs from the tail to that head, stopping at a
 * WQE whose valid bit is not the expected polarity, and never more than one
 * lap. Each WQE completes by advancing CQPTAIL (with CQP_OP_ERR set if it
 * failed) and, once the CCQ (CQ 0) exists, by a CCQ CQE carrying the CQP
 * completion context, op_ret_val, the WQE index and the error codes. WQEs are
 * never written back: the driver re-reads their opcode.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "e810_core.h"

static uint32_t reg(E810Core *core, uint32_t off)
{
    return *e810_regfile_ptr(&core->regs, off);
}

static void set_reg(E810Core *core, uint32_t off, uint32_t val)
{
    *e810_regfile_ptr(&core->regs, off) = val;
}

static void set_errcodes(E810Core *core, uint16_t major, uint16_t minor)
{
    set_reg(core, E810_CQPERRCODES,
            FIELD_PREP(E810_CQPERRCODES_MAJOR, major) |
            FIELD_PREP(E810_CQPERRCODES_MINOR, minor));
}

void e810_cqp_fail(E810Core *core, E810CqpResult *res, uint16_t major,
                   uint16_t minor, const char *fmt, ...)
{
    E810Cqp *cqp = &core->rdma.cqp;
    char msg[192];
    va_list ap;

    res->major = major;
    res->minor = minor;
    if (!core->ops->log) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    e810_core_log(core, E810_LOG_GUEST_ERROR,
                  "CQP WQE %u %s failed (0x%04x/0x%04x): %s", cqp->cur_index,
                  e810_cqp_op_name(cqp->cur_op), major, minor, msg);
}

/* ---- creation and destruction ------------------------------------------- */

/*
 * Done at once, in the register write: irdma_sc_cqp_create() and
 * irdma_sc_cqp_destroy() poll CCQPSTATUS for max_done_count (1000) times
 * udelay(max_sleep_count) (10 us), about 10 ms, and give up with -ETIMEDOUT
 * (the probe fails). Deferred work waits for QEMU's main loop, which a busy
 * host can keep off the CPU that long; the hardware answers in microseconds.
 */
void e810_cqp_ctx_written(E810Core *core)
{
    e810_core_work_now(core, E810_WORK_CQP_CTX);
}

static void create_failed(E810Core *core, uint16_t minor, const char *why)
{
    set_errcodes(core, E810_CQP_MAJ_ERROR, minor);
    set_reg(core, E810_CCQPSTATUS, E810_CCQPSTATUS_CCQP_ERR);
    e810_core_log(core, E810_LOG_GUEST_ERROR, "CQP create failed: %s", why);
}

static void cqp_create(E810Core *core, uint64_t ctx_pa)
{
    E810Cqp *cqp = &core->rdma.cqp;
    struct e810_cqp_ctx ctx;
    uint64_t cfg, sq, ver;
    unsigned enc, proto;

    if (cqp->created) {
        create_failed(core, E810_CQP_MIN_BAD_STATE, "CQP already exists");
        return;
    }
    if ((ctx_pa & 7) ||
        !e810_core_dma_read(core, ctx_pa, &ctx, sizeof(ctx))) {
        create_failed(core, E810_CQP_MIN_BAD_ADDR, "host context unreadable");
        return;
    }
    cfg = le64toh(ctx.qw[E810_QW(E810_CQPHC_CFG_OFF)]);
    sq = le64toh(ctx.qw[E810_QW(E810_CQPHC_SQ_BASE_OFF)]);
    ver = le64toh(ctx.qw[E810_QW(E810_CQPHC_VER_OFF)]);
    enc = FIELD_GET(E810_CQPHC_SQSIZE, cfg);
    proto = FIELD_GET(E810_CQPHC_PROTOCOL_USED, cfg);
    if (enc < E810_CQP_SQSIZE_ENC_MIN || enc > E810_CQP_SQSIZE_ENC_MAX) {
        create_failed(core, E810_CQP_MIN_BAD_SIZE, "SQ size code out of "
                      "range");
        return;
    }
    if (!sq || (sq & ~E810_CQPHC_SQBASE)) {
        create_failed(core, E810_CQP_MIN_BAD_ADDR, "SQ base not 512-byte "
                      "aligned");
        return;
    }
    if (FIELD_GET(E810_CQPHC_HW_MAJVER, ver) != core->gen->cqp_hw_majver) {
        create_failed(core, E810_CQP_MIN_BAD_VERSION, core->gen->gen ==
                      E810_GEN_1 ? "HW_MAJVER is not GEN_1 (0)" :
                      "HW_MAJVER is not GEN_2 (1)");
        return;
    }
    /* 0 (any) runs as RoCEv2; 1 is iWARP mode (e810_iwarp.h). */
    if (proto > E810_PROTOCOL_ROCE_ONLY) {
        create_failed(core, E810_CQP_MIN_BAD_PARAM, "PROTOCOL_USED 3");
        return;
    }
    /*
     * An iWARP-only generation (GEN_1) has no protocol field: irdma leaves
     * it 0 there (irdma_sc_cqp_init() sets it for GEN_2 only).
     */
    if (core->gen->iwarp_only) {
        if (proto != E810_PROTOCOL_ANY) {
            create_failed(core, E810_CQP_MIN_BAD_PARAM, "PROTOCOL_USED on "
                          "an iWARP-only generation");
            return;
        }
        proto = E810_PROTOCOL_IWARP_ONLY;
    }
    if (FIELD_GET(E810_CQPHC_ENABLED_VFS,
                  le64toh(ctx.qw[E810_QW(E810_CQPHC_VF_OFF)]))) {
        e810_core_log(core, E810_LOG_UNIMP, "CQP context enables VFs: "
                      "SR-IOV is not modelled, ignored");
    }
    memset(cqp, 0, sizeof(*cqp));
    cqp->created = true;
    cqp->sq_pa = sq;
    cqp->sq_size = E810_CQP_SQ_MIN << (enc - E810_CQP_SQSIZE_ENC_MIN);
    cqp->polarity = true;
    cqp->protocol = proto;
    cqp->compl_ctx = le64toh(ctx.qw[E810_QW(E810_CQPHC_COMPL_CTX_OFF)]);
    set_reg(core, E810_CQPTAIL, 0);
    set_reg(core, E810_CQPERRCODES, 0);
    set_reg(core, E810_CCQPSTATUS, E810_CCQPSTATUS_CCQP_DONE);
}

void e810_cqp_process_ctx(E810Core *core)
{
    uint64_t pa = ((uint64_t)reg(core, E810_CCQPHIGH) << 32) |
                  reg(core, E810_CCQPLOW);

    if (pa) {
        cqp_create(core, pa);
        return;
    }
    /*
     * Destroy: the session ends, everything the CQP created goes with it
     * (the driver has torn it down already); CCQPSTATUS.DONE reads 0.
     */
    e810_rdma_reset(core);
}

/* ---- SQ processing ----------------------------------------------------- */

void e810_cqp_doorbell(E810Core *core, uint32_t val)
{
    E810Cqp *cqp = &core->rdma.cqp;

    if (!cqp->created && val == 0) {
        return;     /* irdma_sc_cqp_init() zeroes CQPDB before creating */
    }
    if (!cqp->created || val >= cqp->sq_size) {
        core->rdma.stats.bad_doorbells++;
        e810_core_log(core, E810_LOG_GUEST_ERROR, "CQPDB 0x%x ignored: %s",
                      val, cqp->created ? "beyond the SQ" : "no CQP");
        return;
    }
    cqp->head = val;
    /* A new batch: the error flag of the previous one is cleared. */
    set_reg(core, E810_CQPTAIL,
            reg(core, E810_CQPTAIL) & ~E810_CQPTAIL_CQP_OP_ERR);
    /*
     * Without a CCQ (CQ 0), one bounded run (E810_CQP_RUN_BUDGET) at once,
     * for the same reason as CCQPLOW: irdma_cqp_poll_registers() waits for
     * CQPTAIL to move for the same ~10 ms (QUERY/COMMIT_FPM_VAL and
     * UPDATE_SDS while the probe has no CCQ yet, or after its teardown
     * destroyed it). With a CCQ the completion is a CQE and an interrupt,
     * which must not reach another CPU before this write returns (the
     * hardware cannot be that fast): deferred.
     */
    if (e810_cq_get(core, 0)) {
        e810_core_request_work(core, E810_WORK_CQP);
    } else {
        e810_core_work_now(core, E810_WORK_CQP);
    }
}

/* Reports one WQE's completion: CCQ CQE (if the CCQ exists), then CQPTAIL. */
static void complete(E810Core *core, const E810CqpWqe *w,
                     const E810CqpResult *res)
{
    E810Cqp *cqp = &core->rdma.cqp;
    bool err = res->major != E810_CQP_MAJ_NO_ERROR;
    uint32_t tail;

    cqp->ops++;
    e810_core_trace(core, E810_TRACE_CQP_OP, cqp->cur_op, w->index,
                    (uint32_t)res->major << 16 | res->minor);
    if (err) {
        cqp->errors++;
        set_errcodes(core, res->major, res->minor);
    }
    if (e810_cq_get(core, 0)) {
        struct e810_cqe cqe = { 0 };

        cqe.qw[E810_QW(E810_CCQ_CQE_CTX_OFF)] = htole64(cqp->compl_ctx);
        cqe.qw[E810_QW(E810_CCQ_CQE_RET_OFF)] =
            htole64(FIELD_PREP(E810_CCQ_OPRETVAL, res->ret_val));
        cqe.qw[E810_QW(E810_CQE_HDR_OFF)] =
            htole64(FIELD_PREP(E810_CQE_MINERR, res->minor) |
                    FIELD_PREP(E810_CQE_MAJERR, res->major) |
                    FIELD_PREP(E810_CQE_WQEIDX, w->index) |
                    (err ? E810_CQE_ERROR : 0));
        e810_cq_post(core, 0, &cqe, 1);
    }
    cqp->tail = (cqp->tail + 1) % cqp->sq_size;
    if (cqp->tail == 0) {
        cqp->polarity = !cqp->polarity;
    }
    tail = (reg(core, E810_CQPTAIL) & E810_CQPTAIL_CQP_OP_ERR) |
           FIELD_PREP(E810_CQPTAIL_WQTAIL, cqp->tail) |
           (err ? E810_CQPTAIL_CQP_OP_ERR : 0);
    set_reg(core, E810_CQPTAIL, tail);
}

/* Runs the WQE at the tail; false when processing has to stop. */
static bool run_one(E810Core *core)
{
    E810Cqp *cqp = &core->rdma.cqp;
    struct e810_cqp_wqe raw;
    E810CqpResult res = { 0 };
    E810CqpWqe w;
    unsigned i;

    if (!e810_core_dma_read(core, cqp->sq_pa +
                            (uint64_t)cqp->tail * E810_CQP_WQE_SIZE,
                            &raw, sizeof(raw))) {
        /* The SQ itself is unreachable: flag it, wait for a new doorbell. */
        set_errcodes(core, E810_CQP_MAJ_ERROR, E810_CQP_MIN_BAD_ADDR);
        set_reg(core, E810_CQPTAIL,
                reg(core, E810_CQPTAIL) | E810_CQPTAIL_CQP_OP_ERR);
        return false;
    }
    for (i = 0; i < 8; i++) {
        w.q[i] = le64toh(raw.qw[i]);
    }
    w.index = cqp->tail;
    if (!!(e810_wqe_hdr(&w) & E810_CQPSQ_WQEVALID) != cqp->polarity) {
        core->rdma.stats.bad_doorbells++;
        e810_core_log(core, E810_LOG_GUEST_ERROR, "CQPDB at %u, but WQE %u "
                      "is not valid for this pass", cqp->head, cqp->tail);
        return false;
    }
    cqp->cur_op = FIELD_GET(E810_CQPSQ_OPCODE, e810_wqe_hdr(&w));
    cqp->cur_index = w.index;
    e810_cqp_execute(core, &w, &res);
    complete(core, &w, &res);
    return true;
}

void e810_cqp_process(E810Core *core)
{
    E810Cqp *cqp = &core->rdma.cqp;
    uint32_t n;

    if (cqp->stalled) {
        return;
    }

    /*
     * One lap at most (the driver cannot have more than size - 1 posted),
     * and no more than the budget: the rest goes on in the next run.
     */
    cqp->run_cost = 0;
    for (n = 0; cqp->created && cqp->tail != cqp->head && n < cqp->sq_size;
         n++) {
        if (cqp->run_cost >= E810_CQP_RUN_BUDGET) {
            e810_core_request_work(core, E810_WORK_CQP);
            break;
        }
        cqp->run_cost++;
        if (!run_one(core)) {
            break;
        }
    }
}

void e810_cqp_inject_stall(E810Core *core)
{
    core->rdma.cqp.stalled = true;
    e810_core_log(core, E810_LOG_GUEST_ERROR,
                  "debug: CQP stalled until the next PF reset");
}
