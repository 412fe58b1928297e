/*
 * libFuzzer harness for the RDMA data path's queue and memory layer: a
 * correct bring-up (CQP, FPM, SDs, CCQ, AEQ, two CQs, two MRs, one RC or UD
 * QP in RTS), then arbitrary bytes in the QP's SQ and RQ rings, doorbells,
 * QP state changes and flushes, and the transport's calls into the queue
 * layer (gather, scatter, remote access, completions) with arbitrary
 * arguments. Byte 1 of the input chooses the QP type and whether SQ WQEs
 * go to the real transport or to a stand-in that keeps them for later
 * completion. The model must never crash, leak, hang or hit undefined
 * behaviour.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz_arena.h"
#include "e810_dp.h"
#include "../unit/xport_seam.h"

#define A_CTX       0x0000      /* CQP host context */
#define A_QUERY     0x0100
#define A_COMMIT    0x0200
#define A_CQPSQ     0x0400      /* 16 CQP WQEs */
#define A_PD0       0x1000      /* PD page of SD 0 */
#define A_PD1       0x2000      /* PD page of SD 1 (PBLEs) */
#define A_OBJ       0x3000      /* backing of every SD 0 page */
#define A_CCQ       0x4000      /* 64 CQEs */
#define A_CCQ_SH    0x4800
#define A_AEQ       0x5000      /* 64 AEQEs */
#define A_PBLE      0x6000      /* PBLEs 0..511 */
#define A_CQ        0x7000      /* two CQs of 64 CQEs */
#define A_CQ_SH     0x8000
#define A_QPCTX     0x8100
#define A_QPSH      0x8200
#define A_SQ        0x9000      /* 64 quanta */
#define A_RQ        0xA000      /* 16 x 64 bytes */
#define A_DATA      0xC000      /* MR buffers, 16 KiB */
#define DATA_SIZE   0x4000

#define QPID        3
#define SQ_QUANTA   64
#define RQ_ENTRIES  16
#define RQ_SHIFT    1
#define NTAP        64

typedef struct Fuzz {
    E810Core core;
    uint8_t mem[ARENA_SIZE];
    uint32_t cqp_head;
    bool cqp_pol;
    uint32_t sq_head;
    bool sq_pol;
    uint32_t rq_head;
    bool rq_pol;
    unsigned ntap;
    E810SendWqe tap[NTAP];
    bool refuse;
    bool use_tap;           /* SQ WQEs go to tap_send() */
    uint32_t stag[2];
} Fuzz;

static Fuzz *fz;

/* The stand-in transport: keeps WQEs for the input to complete. */
static bool tap_send(E810Core *core, E810Qp *qp, const E810SendWqe *wqe)
{
    if (fz->refuse || fz->ntap == NTAP) {
        return false;
    }
    fz->tap[fz->ntap++] = *wqe;
    return true;
}

/* The transport seam (xport_seam.h, tests/fuzz/Makefile). */
bool __wrap_e810_xport_send(E810Core *core, E810Qp *qp,
                            const E810SendWqe *wqe)
{
    if (fz->use_tap) {
        return tap_send(core, qp, wqe);
    }
    return __real_e810_xport_send(core, qp, wqe);
}

/* ---- the driver's side --------------------------------------------------- */

static void run(void)
{
    unsigned i;

    for (i = 0; i < 64 && fz->core.work_pending; i++) {
        e810_core_run_work(&fz->core);
    }
}

static void cqp(const uint64_t *q, unsigned op, uint64_t bits)
{
    uint32_t off = A_CQPSQ + fz->cqp_head * E810_CQP_WQE_SIZE;
    unsigned i;

    if (fz->cqp_head == 0) {
        fz->cqp_pol = !fz->cqp_pol;
    }
    fz->cqp_head = (fz->cqp_head + 1) % 16;
    for (i = 0; i < 8; i++) {
        put64(off + 8 * i, q[i]);
    }
    put64(off + E810_CQPSQ_HDR_OFF, FIELD_PREP(E810_CQPSQ_OPCODE, op) | bits |
          (fz->cqp_pol ? E810_CQPSQ_WQEVALID : 0));
    wr(E810_CQPDB, fz->cqp_head);
    run();
}

static const uint32_t commit_counts[E810_FPM_BUF_SIZE / 8] = {
    [E810_QW(E810_FPM_COMMIT_QP_OFF)] = 8,
    [E810_QW(E810_FPM_COMMIT_CQ_OFF)] = 8,
    [E810_QW(E810_FPM_COMMIT_ARP_OFF)] = 8,
    [E810_QW(E810_FPM_COMMIT_MR_OFF)] = 8,
    [E810_QW(E810_FPM_COMMIT_FSIMC_OFF)] = 4,
    [E810_QW(E810_FPM_COMMIT_FSIAV_OFF)] = 8,
    [E810_QW(E810_FPM_COMMIT_PBLE_OFF)] = 512,
};

static void qp_op(unsigned op, unsigned type, unsigned state)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_QP_CTX_OFF)] = ARENA_BASE + A_QPCTX;
    q[E810_QW(E810_CQPSQ_QP_DBSHADOW_OFF)] = ARENA_BASE + A_QPSH;
    cqp(q, op, FIELD_PREP(E810_CQPSQ_QP_QPID, QPID) |
        FIELD_PREP(E810_CQPSQ_QP_QPTYPE, type) |
        FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE, state) |
        E810_CQPSQ_QP_CQNUMVALID | E810_CQPSQ_QP_MACVALID);
}

static void bringup(unsigned type, bool kernel)
{
    uint64_t q[8];
    unsigned i;

    put64(A_CTX + E810_CQPHC_CFG_OFF,
          FIELD_PREP(E810_CQPHC_SQSIZE, 3) |
          FIELD_PREP(E810_CQPHC_PROTOCOL_USED, E810_PROTOCOL_ROCE_ONLY));
    put64(A_CTX + E810_CQPHC_SQ_BASE_OFF, ARENA_BASE + A_CQPSQ);
    put64(A_CTX + E810_CQPHC_VER_OFF,
          FIELD_PREP(E810_CQPHC_HW_MAJVER, E810_CQPHC_HW_MAJVER_GEN_2));
    wr(E810_CCQPHIGH, ARENA_BASE >> 32);
    wr(E810_CCQPLOW, (uint32_t)(ARENA_BASE + A_CTX));
    run();

    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = ARENA_BASE + A_QUERY;
    cqp(q, E810_CQP_OP_QUERY_FPM_VAL, 0);
    for (i = 0; i < E810_FPM_BUF_SIZE / 8; i++) {
        put64(A_COMMIT + 8 * i, commit_counts[i]);
    }
    q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = ARENA_BASE + A_COMMIT;
    cqp(q, E810_CQP_OP_COMMIT_FPM_VAL,
        FIELD_PREP(E810_CQPSQ_BUFSIZE, E810_FPM_BUF_SIZE));

    for (i = 0; i < 16; i++) {
        put64(A_PD0 + 8 * i, (ARENA_BASE + A_OBJ) | E810_HMC_PDE_VALID);
    }
    put64(A_PD1, (ARENA_BASE + A_PBLE) | E810_HMC_PDE_VALID);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_UPESD_E0_CMD_OFF)] = 0 | E810_HMC_SDCMD_WR;
    q[E810_QW(E810_CQPSQ_UPESD_E0_DATA_OFF)] =
        (ARENA_BASE + A_PD0) | E810_HMC_SDDATA_VALID |
        FIELD_PREP(E810_HMC_SDDATA_BPCOUNT, 16);
    q[E810_QW(E810_CQPSQ_UPESD_E1_CMD_OFF)] =
        1 | E810_HMC_SDCMD_WR | E810_CQPSQ_UPESD_ENTRY_VALID;
    q[E810_QW(E810_CQPSQ_UPESD_E1_DATA_OFF)] =
        (ARENA_BASE + A_PD1) | E810_HMC_SDDATA_VALID |
        FIELD_PREP(E810_HMC_SDDATA_BPCOUNT, 1);
    cqp(q, E810_CQP_OP_UPDATE_PE_SDS, 0);

    /* CCQ (CQ 0), then CQs 1 and 2 for the QP, the AEQ. */
    for (i = 0; i < 3; i++) {
        memset(q, 0, sizeof(q));
        q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = 64;
        q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] = 0x55 + i;
        q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] =
            ARENA_BASE + (i ? A_CQ + (i - 1) * 0x800 : A_CCQ);
        q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] =
            ARENA_BASE + (i ? A_CQ_SH + i * 64 : A_CCQ_SH);
        cqp(q, E810_CQP_OP_CREATE_CQ, FIELD_PREP(E810_CQPSQ_CQ_CQID, i) |
            E810_CQPSQ_CQ_CEQIDVALID);
    }
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = 64;
    q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = ARENA_BASE + A_AEQ;
    cqp(q, E810_CQP_OP_CREATE_AEQ, 0);

    /* Two MRs over the data area: one REG_MR, one for FAST_REG. */
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_STAG_VA_OFF)] = ARENA_BASE + A_DATA;
    q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] = DATA_SIZE |
        FIELD_PREP(E810_CQPSQ_STAG_PDID, 1);
    q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] = 0x21 |
        FIELD_PREP(E810_CQPSQ_STAG_IDX, 1);
    q[E810_QW(E810_CQPSQ_STAG_PA_OFF)] = ARENA_BASE + A_DATA;
    cqp(q, E810_CQP_OP_REG_MR, E810_CQPSQ_STAG_MR |
        FIELD_PREP(E810_CQPSQ_STAG_ARIGHTS, 0x0f) |
        E810_CQPSQ_STAG_REMACCENABLED | E810_CQPSQ_STAG_VABASEDTO);
    fz->stag[0] = 1 << 8 | 0x21;
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] = FIELD_PREP(E810_CQPSQ_STAG_PDID, 1);
    q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] = FIELD_PREP(E810_CQPSQ_STAG_IDX, 2);
    cqp(q, E810_CQP_OP_ALLOC_STAG, E810_CQPSQ_STAG_MR);
    fz->stag[1] = 2 << 8;

    put64(A_QPCTX + E810_QPC_CFG_OFF, E810_QPC_IPV4 |
          FIELD_PREP(E810_QPC_RQWQESIZE, RQ_SHIFT));
    put64(A_QPCTX + E810_QPC_SQADDR_OFF, ARENA_BASE + A_SQ);
    put64(A_QPCTX + E810_QPC_RQADDR_OFF, ARENA_BASE + A_RQ);
    put64(A_QPCTX + E810_QPC_SIZES_OFF, FIELD_PREP(E810_QPC_SQSIZE, 4) |
          FIELD_PREP(E810_QPC_RQSIZE, 3) | FIELD_PREP(E810_QPC_TTL, 64) |
          FIELD_PREP(E810_QPC_DESTPORTNUM, 4791) |
          FIELD_PREP(E810_QPC_SRCPORTNUM, 0xc000));
    put64(A_QPCTX + E810_QPC_MSS_OFF, FIELD_PREP(E810_QPC_SNDMSS, 1024));
    put64(A_QPCTX + E810_QPC_PKEY_OFF, FIELD_PREP(E810_QPC_PKEY, 0xffff) |
          FIELD_PREP(E810_QPC_PDIDX, 1));
    put64(A_QPCTX + E810_QPC_CQ_OFF, FIELD_PREP(E810_QPC_TXCQNUM, 1) |
          FIELD_PREP(E810_QPC_RXCQNUM, 2));
    put64(A_QPCTX + E810_QPC_FLAGS_OFF, E810_QPC_WRRDRSPOK | E810_QPC_RDOK |
          FIELD_PREP(E810_QPC_ORDSIZE, 8) |
          (kernel ? E810_QPC_FASTREGEN : 0));
    put64(A_QPCTX + E810_QPC_COMPL_CTX_OFF, 0xc0ffee);
    qp_op(E810_CQP_OP_CREATE_QP, type, E810_QP_STATE_IDLE);
    qp_op(E810_CQP_OP_MODIFY_QP, type, E810_QP_STATE_RTR);
    qp_op(E810_CQP_OP_MODIFY_QP, type, E810_QP_STATE_RTS);
    fz->sq_pol = false;
    fz->rq_pol = true;
}

/* Writes @quanta quanta of input at the SQ head; @fix: valid bits right. */
static void sq_write(Input *in, unsigned quanta, bool fix)
{
    unsigned k, i;

    if (fz->sq_head == 0) {
        fz->sq_pol = !fz->sq_pol;
    }
    for (k = 0; k < quanta; k++) {
        uint32_t off = A_SQ + ((fz->sq_head + k) % SQ_QUANTA) * 32;

        for (i = 0; i < 4; i++) {
            uint64_t v = take(in, 8);

            if (fix && i == 3) {
                v = (v & ~E810_WQE_VALID) | (fz->sq_pol ? E810_WQE_VALID : 0);
                if (k == 0) {
                    v = (v & ~E810_WQE_ADDFRAGCNT & ~E810_WQE_INLINEDATAFLAG) |
                        FIELD_PREP(E810_WQE_ADDFRAGCNT, 2 * (quanta - 1));
                    v &= ~(0x30ull << 32);      /* common opcodes */
                }
            }
            if (fix && i == 1 && (v & 1)) {
                v = (v & ~E810_WQE_FRAG_STAG) | fz->stag[v >> 1 & 1];
            }
            if (fix && (i == 0 || i == 2) && (v & 1)) {
                v = ARENA_BASE + A_DATA + (v % DATA_SIZE);
            }
            put64(off + 8 * i, v);
        }
    }
    fz->sq_head = (fz->sq_head + quanta) % SQ_QUANTA;
    if (fz->sq_head < quanta && fz->sq_head) {
        fz->sq_pol = !fz->sq_pol;   /* wrapped inside the write */
    }
}

static void rq_write(Input *in)
{
    uint32_t off = A_RQ + fz->rq_head * (32 << RQ_SHIFT);
    unsigned i;

    for (i = 0; i < (4u << RQ_SHIFT); i++) {
        uint64_t v = take(in, 8);

        if (i == 3) {
            v = (v & ~E810_WQE_VALID) | (fz->rq_pol ? E810_WQE_VALID : 0);
        }
        if ((i == 1 || i == 5 || i == 7) && (v & 1)) {
            v = (v & ~E810_WQE_FRAG_STAG & ~E810_WQE_FRAG_LEN) | fz->stag[0] |
                FIELD_PREP(E810_WQE_FRAG_LEN, v >> 40 & 0xfff);
        }
        if ((i == 0 || i == 4 || i == 6) && (v & 1)) {
            v = ARENA_BASE + A_DATA + (v % DATA_SIZE);
        }
        put64(off + 8 * i, v);
    }
    if (++fz->rq_head == RQ_ENTRIES) {
        fz->rq_head = 0;
        fz->rq_pol = !fz->rq_pol;
    }
}

/* The transport's side of one message into the RQ. */
static void receive(Input *in, E810Qp *qp)
{
    static uint8_t buf[4096];
    E810RecvWqe w;
    E810RecvInfo info;
    uint16_t st;
    uint32_t len = take(in, 2) % sizeof(buf);

    if (!e810_dp_rq_take(&fz->core, qp, &w)) {
        return;
    }
    memset(buf, take(in, 1), len);
    if (take(in, 1) & 1) {
        e810_dp_scatter_grh(&fz->core, qp, &w, buf, &st);
    }
    e810_dp_scatter(&fz->core, qp, &w, take(in, 2), buf, len, &st);
    memset(&info, 0, sizeof(info));
    info.status = take(in, 1) & 1 ? st : 0;
    info.byte_len = len;
    info.bth_opcode = take(in, 1);
    info.imm_valid = take(in, 1) & 1;
    info.imm = take(in, 4);
    info.ud = take(in, 1) & 1;
    info.src_qpn = take(in, 3);
    e810_dp_complete_rq(&fz->core, qp, &w, &info);
}

static void run_command(Input *in)
{
    static uint8_t buf[8192];
    unsigned cmd = take(in, 1);
    E810Qp *qp = e810_qp_get(&fz->core, QPID);
    uint16_t st;

    switch (cmd % 12) {
    case 0:     /* raw SQ bytes */
        sq_write(in, 1 + take(in, 1) % 8, false);
        break;
    case 1:     /* a WQE with plausible valid bits and pointers */
    case 2:
        sq_write(in, 1 + take(in, 1) % 8, true);
        break;
    case 3:     /* doorbell: user page or WQEALLOC, right QP or not */
        wr(take(in, 1) & 1 ? E810_WQEALLOC :
           E810_DB_ADDR_OFFSET + E810_DB_QP_OFFSET,
           take(in, 1) & 1 ? take(in, 4) : QPID);
        break;
    case 4:
        run();
        break;
    case 5:
        rq_write(in);
        break;
    case 6:
        if (qp) {
            receive(in, qp);
        }
        break;
    case 7:     /* the transport finishes a WQE it was given */
        if (qp && fz->ntap) {
            unsigned i = take(in, 1) % fz->ntap;

            e810_dp_complete_sq(&fz->core, qp, &fz->tap[i],
                                take(in, 1) & 1 ? take(in, 2) : 0, 0);
            fz->tap[i] = fz->tap[--fz->ntap];
        }
        break;
    case 8:     /* gather / READ response scatter of a WQE it holds */
        if (qp && fz->ntap) {
            E810SendWqe *w = &fz->tap[take(in, 1) % fz->ntap];
            uint32_t len = take(in, 2) % sizeof(buf);

            if (take(in, 1) & 1) {
                e810_dp_gather(&fz->core, qp, w, take(in, 4), buf, len, &st);
            } else {
                e810_dp_read_resp_scatter(&fz->core, qp, w, take(in, 4), buf,
                                          len, &st);
            }
        }
        break;
    case 9:     /* responder: remote access or invalidate */
        if (qp) {
            uint32_t key = take(in, 1) & 1 ? fz->stag[take(in, 1) & 1] :
                           (uint32_t)take(in, 4);
            uint64_t va = ARENA_BASE + A_DATA + take(in, 2) - 0x100;
            uint32_t len = take(in, 2) % sizeof(buf);

            switch (take(in, 1) % 3) {
            case 0:
                e810_dp_remote_write(&fz->core, qp, key, va, buf, len, &st);
                break;
            case 1:
                e810_dp_remote_read(&fz->core, qp, key, va, buf, len, &st);
                break;
            default:
                e810_dp_invalidate(&fz->core, qp, key, true, &st);
                break;
            }
        }
        break;
    case 10:    /* QP state change or flush, as the driver does */
        if (take(in, 1) & 1) {
            uint64_t q[8] = { 0 };

            q[E810_QW(E810_CQPSQ_FWQE_CODES_OFF)] = take(in, 8);
            cqp(q, E810_CQP_OP_FLUSH_WQES,
                FIELD_PREP(E810_CQPSQ_FWQE_QPID, QPID) |
                (take(in, 1) & 7ull) << 60);
        } else if (qp) {
            qp_op(E810_CQP_OP_MODIFY_QP, qp->type, take(in, 1) % 7);
        }
        break;
    default:    /* back-pressure from the transport, then its kick */
        fz->refuse = take(in, 1) & 1;
        e810_dp_sq_kick(&fz->core, QPID);
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Input in = { data, size };
    unsigned mode, n;

    if (!fz) {
        fz = calloc(1, sizeof(*fz));
        if (!fz) {
            abort();
        }
        arena_bind(&fz->core, fz->mem);
    }
    e810_core_reset(&fz->core);
    memset(fz->mem, 0, sizeof(fz->mem));
    fz->cqp_head = 0;
    fz->cqp_pol = false;
    fz->sq_head = 0;
    fz->rq_head = 0;
    fz->ntap = 0;
    fz->refuse = false;
    fz->use_tap = false;
    mode = take(&in, 1);
    bringup(mode & 1 ? E810_QP_TYPE_ROCE_UD : E810_QP_TYPE_ROCE_RC,
            mode & 4);
    fz->use_tap = !(mode & 2);
    for (n = 0; in.left && n < 256; n++) {
        run_command(&in);
    }
    run();
    return 0;
}
