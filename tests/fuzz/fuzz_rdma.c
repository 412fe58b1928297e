/*
 * libFuzzer harness for the device model's RDMA control plane: arbitrary
 * CQP WQEs, register and doorbell writes, host-memory contents and CQEs,
 * optionally after a correct bring-up (CQP, FPM commit, paged SDs, CCQ,
 * CEQ 0, AEQ) so that the input reaches the op handlers with live objects.
 *
 * Input: byte 0 selects the bring-up (bit 0); then commands, each one
 * byte of command followed by its operands (see run_command()). Guest
 * addresses in WQEs can be folded into the DMA arena so they resolve.
 * The device model must never crash, leak or hit undefined behaviour.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz_arena.h"

/* Arena layout used by the bring-up. */
#define A_CTX       0x0000      /* CQP host context */
#define A_QUERY     0x0100
#define A_COMMIT    0x0200
#define A_SQ        0x0400      /* 16 WQEs */
#define A_SDBUF     0x0800      /* UPDATE_PE_SDS buffer, 16 x 128 */
#define A_PD0       0x1000      /* PD page of SD 0 */
#define A_PD1       0x2000      /* PD page of SD 1 (PBLEs) */
#define A_OBJ       0x3000      /* backing of every SD 0 page */
#define A_CCQ       0x4000      /* 64 CQEs */
#define A_CCQ_SH    0x4800
#define A_CEQ       0x5000      /* 64 CEQEs */
#define A_AEQ       0x5400      /* 64 AEQEs */
#define A_FREE      0x6000      /* fuzzer-owned; PBLEs 0..511 live here */

#define SQ_SIZE     16
#define CCQ_SIZE    64

typedef struct Fuzz {
    E810Core core;
    uint8_t mem[ARENA_SIZE];
    uint32_t sq_head;
    bool sq_polarity;
    uint32_t ccq_head;
    bool ccq_polarity;
} Fuzz;

static Fuzz *fz;

/* ---- the driver side --------------------------------------------------- */

/* Writes the next SQ WQE (header last, pass valid bit unless @raw_valid). */
static void post(const uint64_t q[8], bool raw_valid)
{
    uint32_t off = A_SQ + fz->sq_head * E810_CQP_WQE_SIZE;
    uint64_t hdr = q[E810_QW(E810_CQPSQ_HDR_OFF)];
    unsigned i;

    if (fz->sq_head == 0) {
        fz->sq_polarity = !fz->sq_polarity;
    }
    fz->sq_head = (fz->sq_head + 1) % SQ_SIZE;
    for (i = 0; i < 8; i++) {
        put64(off + 8 * i, q[i]);
    }
    if (!raw_valid) {
        hdr = (hdr & ~E810_CQPSQ_WQEVALID) |
              (fz->sq_polarity ? E810_CQPSQ_WQEVALID : 0);
        put64(off + E810_CQPSQ_HDR_OFF, hdr);
    }
}

static void exec(const uint64_t q[8])
{
    post(q, false);
    wr(E810_CQPDB, fz->sq_head);
    e810_core_run_work(&fz->core);
}

static uint64_t hdr(unsigned op, uint64_t bits)
{
    return FIELD_PREP(E810_CQPSQ_OPCODE, op) | bits;
}

/* Small counts so the per-input tables stay cheap; PBLEs in SD 1. */
static const uint32_t commit_counts[E810_FPM_BUF_SIZE / 8] = {
    [E810_QW(E810_FPM_COMMIT_QP_OFF)] = 64,
    [E810_QW(E810_FPM_COMMIT_CQ_OFF)] = 64,
    [E810_QW(E810_FPM_COMMIT_ARP_OFF)] = 64,
    [E810_QW(E810_FPM_COMMIT_MR_OFF)] = 64,
    [E810_QW(E810_FPM_COMMIT_FSIMC_OFF)] = 16,
    [E810_QW(E810_FPM_COMMIT_FSIAV_OFF)] = 64,
    [E810_QW(E810_FPM_COMMIT_PBLE_OFF)] = 4096,
};

static void bringup(void)
{
    uint64_t q[8];
    unsigned i;

    put64(A_CTX + E810_CQPHC_CFG_OFF,
          FIELD_PREP(E810_CQPHC_SQSIZE, 3) |
          FIELD_PREP(E810_CQPHC_PROTOCOL_USED, E810_PROTOCOL_ROCE_ONLY));
    put64(A_CTX + E810_CQPHC_SQ_BASE_OFF, ARENA_BASE + A_SQ);
    put64(A_CTX + E810_CQPHC_COMPL_CTX_OFF, 0x1234);
    put64(A_CTX + E810_CQPHC_VER_OFF,
          FIELD_PREP(E810_CQPHC_HW_MAJVER, E810_CQPHC_HW_MAJVER_GEN_2));
    wr(E810_CCQPHIGH, ARENA_BASE >> 32);
    wr(E810_CCQPLOW, (uint32_t)(ARENA_BASE + A_CTX));
    e810_core_run_work(&fz->core);

    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = ARENA_BASE + A_QUERY;
    q[E810_QW(E810_CQPSQ_HDR_OFF)] = hdr(E810_CQP_OP_QUERY_FPM_VAL, 0);
    exec(q);
    for (i = 0; i < E810_FPM_BUF_SIZE / 8; i++) {
        put64(A_COMMIT + 8 * i, commit_counts[i]);
    }
    q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = ARENA_BASE + A_COMMIT;
    q[E810_QW(E810_CQPSQ_HDR_OFF)] =
        hdr(E810_CQP_OP_COMMIT_FPM_VAL,
            FIELD_PREP(E810_CQPSQ_BUFSIZE, E810_FPM_BUF_SIZE));
    exec(q);

    /* SD 0 paged, every PD on one page; SD 1 paged, PD 0 fuzzer-owned. */
    for (i = 0; i < 16; i++) {
        put64(A_PD0 + 8 * i, (ARENA_BASE + A_OBJ) | E810_HMC_PDE_VALID);
    }
    put64(A_PD1, (ARENA_BASE + A_FREE) | E810_HMC_PDE_VALID);
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
    q[E810_QW(E810_CQPSQ_HDR_OFF)] = hdr(E810_CQP_OP_UPDATE_PE_SDS, 0);
    exec(q);

    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = CCQ_SIZE;
    q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] = 0x55;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = ARENA_BASE + A_CCQ;
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = ARENA_BASE + A_CCQ_SH;
    q[E810_QW(E810_CQPSQ_HDR_OFF)] =
        hdr(E810_CQP_OP_CREATE_CQ, E810_CQPSQ_CQ_CEQIDVALID |
            E810_CQPSQ_CQ_CHKOVERFLOW);
    exec(q);
    fz->ccq_polarity = true;

    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = 64;
    q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = ARENA_BASE + A_CEQ;
    q[E810_QW(E810_CQPSQ_HDR_OFF)] = hdr(E810_CQP_OP_CREATE_CEQ, 0);
    exec(q);
    q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = ARENA_BASE + A_AEQ;
    q[E810_QW(E810_CQPSQ_HDR_OFF)] = hdr(E810_CQP_OP_CREATE_AEQ, 0);
    exec(q);
    wr(E810_GLINT_CEQCTL(0), E810_INT_CTL_CAUSE_ENA | 1);
    wr(E810_PFINT_AEQCTL, E810_INT_CTL_CAUSE_ENA | 0);
    wr(E810_GLINT_DYN_CTL(1), E810_GLINT_DYN_CTL_INTENA);
    put64(A_CCQ_SH + E810_CQ_DBSA_ARM_OFF, E810_CQ_DBSA_ARM_NEXT);
    wr(E810_CQARM, 0);
    e810_core_run_work(&fz->core);
}

/* Consumes the valid CCQ CQEs, as the driver's CCQ handler would. */
static void drain_ccq(void)
{
    unsigned n;

    for (n = 0; n < CCQ_SIZE; n++) {
        uint64_t h = get64(A_CCQ + fz->ccq_head * E810_CQE_SIZE +
                           E810_CQE_HDR_OFF);

        if (!!(h & E810_CQE_VALID) != fz->ccq_polarity) {
            break;
        }
        fz->ccq_head = (fz->ccq_head + 1) % CCQ_SIZE;
        if (fz->ccq_head == 0) {
            fz->ccq_polarity = !fz->ccq_polarity;
        }
    }
    put64(A_CCQ_SH + E810_CQ_DBSA_HEAD_OFF, fz->ccq_head);
}

/* Registers worth aiming at (the rest of BAR0 is reached by raw writes). */
static const uint32_t rdma_regs[] = {
    E810_CQPDB, E810_CQPTAIL, E810_CQARM, E810_CQACK, E810_AEQALLOC,
    E810_WQEALLOC, E810_CCQPSTATUS, E810_CCQPLOW, E810_CCQPHIGH,
    E810_CQPERRCODES, E810_PFHMC_SDCMD, E810_PFHMC_SDDATALOW,
    E810_PFHMC_SDDATAHIGH, E810_PFHMC_PDINV, E810_PFINT_AEQCTL,
    E810_GLINT_CEQCTL(0), E810_GLINT_CEQCTL(1), E810_GLINT_DYN_CTL(0),
    E810_GLINT_DYN_CTL(1), E810_GLINT_CTL, E810_PFGEN_CTRL,
    E810_DB_ADDR_OFFSET + E810_DB_CQ_OFFSET,
    E810_DB_ADDR_OFFSET + E810_DB_QP_OFFSET,
};

static void run_command(Input *in)
{
    unsigned cmd = take(in, 1), i;
    uint64_t q[8], fold, v;
    uint32_t off;

    switch (cmd % 10) {
    case 0:     /* a CQP WQE; mask byte folds qwords into the arena */
    case 1:
        fold = take(in, 1);
        for (i = 0; i < 8; i++) {
            q[i] = take(in, 8);
            if (fold & (1u << i)) {
                q[i] = ARENA_BASE + (q[i] % ARENA_SIZE);
            }
        }
        q[E810_QW(E810_CQPSQ_HDR_OFF)] = (q[E810_QW(E810_CQPSQ_HDR_OFF)] &
                                          ~E810_CQPSQ_OPCODE) |
            FIELD_PREP(E810_CQPSQ_OPCODE, take(in, 1));
        if (cmd % 10 == 0) {
            exec(q);
        } else {
            post(q, cmd & 0x80);    /* posted, rung later (or never) */
        }
        break;
    case 2:     /* an RDMA register */
        off = rdma_regs[take(in, 1) % (sizeof(rdma_regs) /
                                       sizeof(rdma_regs[0]))];
        wr(off, take(in, 4));
        break;
    case 3:     /* anywhere in BAR0, any size */
        off = take(in, 4) % E810_BAR0_SIZE;
        v = take(in, 8);
        e810_core_mmio_write(&fz->core, off, v, 1u << (take(in, 1) % 4));
        break;
    case 4:
        e810_core_run_work(&fz->core);
        break;
    case 5:     /* host memory */
        off = take(in, 2) % ARENA_SIZE;
        v = take(in, 1);
        for (i = 0; i < v && off + i < ARENA_SIZE; i++) {
            fz->mem[off + i] = take(in, 1);
        }
        break;
    case 6:     /* ring the CQP doorbell with the driver's head */
        wr(E810_CQPDB, fz->sq_head);
        break;
    case 7:     /* a CQE, as the data path will post them */
        {
            struct e810_cqe c;

            for (i = 0; i < 4; i++) {
                c.qw[i] = htole64(take(in, 8));
            }
            e810_cq_post(&fz->core, take(in, 1) % 80, &c, 1);
        }
        break;
    case 8:
        drain_ccq();
        break;
    default:    /* reads too: read-to-clear and friends */
        e810_core_mmio_read(&fz->core, take(in, 4) % E810_BAR0_SIZE,
                            1u << (take(in, 1) % 4));
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Input in = { data, size };
    unsigned n;

    if (!fz) {
        fz = calloc(1, sizeof(*fz));
        if (!fz) {
            abort();
        }
        arena_bind(&fz->core, fz->mem);
    }
    e810_core_reset(&fz->core);
    memset(fz->mem, 0, sizeof(fz->mem));
    fz->sq_head = 0;
    fz->sq_polarity = false;
    fz->ccq_head = 0;
    fz->ccq_polarity = false;
    if (take(&in, 1) & 1) {
        bringup();
    }
    for (n = 0; in.left && n < 256; n++) {
        run_command(&in);
    }
    e810_core_run_work(&fz->core);
    return 0;
}
