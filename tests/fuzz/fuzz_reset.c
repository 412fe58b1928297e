/*
 * libFuzzer harness for disruption while RC transport state is live: two
 * device models back to back with an RC QP pair moving SEND/WRITE/READ
 * traffic (READ responses pending, retransmission timers armed by loss,
 * CQs armed), then the input picks a disruptive action on one side and
 * when it happens: a PF software reset, a CORER, an FLR, CQP destroy, QP
 * destroy, CQ destroy under the live QP, the HMC's direct SD invalidated,
 * a PE critical error. Traffic and time go on around it as the input says.
 *
 * Afterwards the disrupted side recovers as the driver does (PF reset,
 * bring-up from scratch; a destroyed QP is just replaced) and the pair
 * must carry a clean WRITE + SEND: data and completions are asserted.
 * Nothing may crash, leak, hit undefined behaviour or hang.
 *
 * Input: byte 0 the start mode (bits 0/1 synchronous delivery per side,
 * bits 2..3 path MTU 256 << n); then commands (run_command()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../unit/model_harness.c"
#include "../unit/rdma_driver.c"
#include "../unit/dp_driver.c"
#include "cmocka_shim.c"
#include "../unit/b2b.h"

#include "hw/e810_regs.h"

#define BUF_LEN     32768
#define MAX_SENDS   40
#define MAX_RECVS   12
#define PUMP_STEPS  256
#define CLEAN_LEN   3000
#define CLEAN_SEND  200

typedef struct Fz {
    B2B *b;
    DpCq cq[2];
    DpQp qp[2];
    uint64_t buf[2];
    uint32_t key[2];
    unsigned sends[2], recvs[2];
    uint64_t mem_mark[2];
    bool down[2];       /* needs the full recovery */
    bool qp_gone[2];    /* its QP was destroyed by the action */
} Fz;

typedef struct Input {
    const uint8_t *p;
    size_t left;
} Input;

static uint32_t take(Input *in, unsigned n)
{
    uint32_t v = 0;

    while (n--) {
        v <<= 8;
        if (in->left) {
            v |= *in->p++;
            in->left--;
        }
    }
    return v;
}

/* Side @i from scratch: a PF reset (what ice does when irdma asks for
 * one), zeroed memory, driver bring-up, ARP entries, a CQ and a
 * registered buffer; CEQ 0 for the armed CQs' events. */
static void side_up(Fz *f, unsigned i)
{
    DpDev *d = &f->b->dev[i];
    Harness *h = f->b->h[i];
    unsigned n;

    /* A core reset under way first, as ice_pf_reset() waits it out. */
    for (n = 0; rd32(h, E810_GLGEN_RSTAT) & E810_GLGEN_RSTAT_DEVSTATE; n++) {
        if (n == 20) {
            abort();    /* ice_check_reset() would give up */
        }
        b2b_advance(f->b, E810_GRSTDEL_UNIT_NS);
        harness_run_work(h);
    }
    wr32(h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    harness_run_work(h);
    memset(h->mem, 0, h->mem_next);
    h->mem_next = 0;
    dp_dev_init(d, h);
    /* CEQ 0, so that armed CQs have CEQEs pending when the action hits. */
    if (rd_create_ceq(&d->d, 0, 64, mem_alloc_aligned(h, 64 * E810_CEQE_SIZE,
                                                     256)).error) {
        abort();
    }
    h->core.aq.pe_filter = true;
    b2b_arp(d, B2B_ARP_IDX, f->b->h[1 - i]->core.mac);
    b2b_arp(d, B2B_ARP_SELF, h->core.mac);
    dp_cq_create(d, &f->cq[i], 1024);
    f->buf[i] = mem_alloc_aligned(h, BUF_LEN, 4096);
    f->key[i] = dp_mr_buf(d, DP_PD, f->buf[i], BUF_LEN, B2B_ALL_RIGHTS);
    f->mem_mark[i] = h->mem_next;
    f->down[i] = false;
}

static void bringup(Fz *f)
{
    memset(f, 0, sizeof(*f));
    f->b = b2b_new(0);
    /* b2b_new() brought both up once; redo it the way recovery does. */
    side_up(f, 0);
    side_up(f, 1);
}

static void drain(Fz *f)
{
    unsigned i, n;
    DpCqe e;
    DpAe ae;

    for (i = 0; i < 2; i++) {
        if (f->down[i]) {
            continue;
        }
        for (n = 0; n < 2000 && dp_poll_cq(&f->cq[i], &e); n++) {
        }
        for (n = 0; n < 1000 && dp_poll_ae(&f->b->dev[i], &ae); n++) {
        }
    }
}

static void qps_create(Fz *f, uint32_t mtu)
{
    unsigned i;

    for (i = 0; i < 2; i++) {
        DpDev *d = &f->b->dev[i];

        Harness *h = f->b->h[i];

        /* Fresh rings are zeroed, as the driver allocates them. */
        memset(h->mem + f->mem_mark[i], 0, h->mem_next - f->mem_mark[i]);
        h->mem_next = f->mem_mark[i];
        d->next_qp = 10;
        dp_qp_create(d, &f->qp[i], E810_QP_TYPE_ROCE_RC, &f->cq[i],
                     &f->cq[i], 64, 16, 1, false, false);
        f->sends[i] = 0;
        f->recvs[i] = 0;
        f->qp_gone[i] = false;
    }
    b2b_connect(f->b, &f->qp[0], &f->qp[1], mtu);
}

/* Quiet wire and timers, then both QPs gone (where the device still has
 * them). */
static void qps_destroy(Fz *f)
{
    unsigned i;

    for (i = 0; i < 2; i++) {
        f->b->h[i]->loss_ppm = 0;
        f->b->h[i]->wire_sync = false;
    }
    b2b_pump(f->b, PUMP_STEPS);
    b2b_advance(f->b, 10000000000ull);
    b2b_pump(f->b, PUMP_STEPS);
    for (i = 0; i < 2; i++) {
        if (!f->down[i] && !f->qp_gone[i]) {
            dp_qp_destroy(&f->qp[i]);
        }
    }
    b2b_pump(f->b, PUMP_STEPS);
    drain(f);
}

static void post_send(Fz *f, Input *in)
{
    static const unsigned sops[] = {
        E810_OP_SEND, E810_OP_RDMA_WRITE, E810_OP_RDMA_READ,
        E810_OP_RDMA_READ,
    };
    uint32_t sel = take(in, 1);
    unsigned s = sel & 1;
    DpSend w;

    if (f->down[s] || f->qp_gone[s] ||
        f->qp[s].state != E810_QP_STATE_RTS || f->sends[s] >= MAX_SENDS) {
        return;
    }
    memset(&w, 0, sizeof(w));
    w.op = sops[(sel >> 1) & 3];
    w.signaled = !(sel & 0x80) || f->sends[s] + 1 == MAX_SENDS;
    w.nsge = 1;
    w.sge[0].addr = f->buf[s] + (take(in, 1) << 6);
    w.sge[0].len = take(in, 2) % 16384;
    w.sge[0].lkey = f->key[s];
    w.remote_va = f->buf[!s] + (take(in, 1) << 6);
    w.rkey = f->key[!s];
    dp_post_send(&f->qp[s], &w);
    dp_ring(&f->qp[s], false);
    f->sends[s]++;
}

static void post_recv(Fz *f, Input *in)
{
    uint32_t sel = take(in, 1);
    unsigned s = sel & 1;
    E810Sge sge = { f->buf[s] + 16384, 16384, f->key[s] };

    if (!f->down[s] && !f->qp_gone[s] && f->recvs[s] < MAX_RECVS) {
        dp_post_recv(&f->qp[s], &sge, 1);
        f->recvs[s]++;
    }
}

/* The disruption on side @s. */
static void disrupt(Fz *f, Input *in, unsigned s)
{
    Harness *h = f->b->h[s];
    DpDev *d = &f->b->dev[s];
    uint32_t cmd;
    uint64_t data;

    if (f->down[s]) {
        return;
    }
    switch (take(in, 1) % 8) {
    case 0:
        wr32(h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
        f->down[s] = true;
        break;
    case 1:
        wr32(h, E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_CORER);
        f->down[s] = true;
        break;
    case 2:
        e810_core_flr(&h->core);
        f->down[s] = true;
        break;
    case 3:
        rd_cqp_destroy(&d->d);
        f->down[s] = true;
        break;
    case 4:
        if (!f->qp_gone[s]) {
            dp_qp_destroy(&f->qp[s]);
            f->qp_gone[s] = true;
        }
        break;
    case 5:
        /* The QP's CQ destroyed under it (the CQP refuses or obeys). */
        rd_exec(&d->d, E810_CQP_OP_DESTROY_CQ,
                FIELD_PREP(E810_CQPSQ_CQ_CQID, f->cq[s].id), NULL);
        f->down[s] = true;
        break;
    case 6:
        /* The direct SD behind every object invalidated. */
        cmd = rd_sd_cmd(0);
        data = rd_sd_data(0, true, false);
        rd_update_sds(&d->d, 1, &cmd, &data);
        f->down[s] = true;
        break;
    default:
        e810_core_inject_pe_criterr(&h->core);
        f->down[s] = true;
        break;
    }
}

static void run_command(Fz *f, Input *in)
{
    uint32_t c = take(in, 1), s = c >> 4 & 1;

    switch (c % 10) {
    case 0:
    case 1:
    case 2:
        post_send(f, in);
        break;
    case 3:
        post_recv(f, in);
        break;
    case 4:
        b2b_pump(f->b, PUMP_STEPS);
        break;
    case 5:
        b2b_advance(f->b, (uint64_t)take(in, 1) << 18);
        break;
    case 6:
        f->b->h[s]->loss_ppm = take(in, 1) * 2000;
        break;
    case 7:
        if (!f->down[s]) {
            rd_arm_cq(&f->b->dev[s].d, f->cq[s].shadow, f->cq[s].id, c & 0x20);
        }
        break;
    case 8:
        disrupt(f, in, s);
        break;
    default:
        /* Run only the disrupted side's pending work (a reset mid-way). */
        harness_run_work(f->b->h[s]);
        break;
    }
}

/* After the disruption: recovery and a transfer that must be exact. */
static void clean_transfer(Fz *f, uint32_t mtu, unsigned s)
{
    uint8_t *src = mem_ptr(f->b->h[s], f->buf[s]);
    uint8_t *dst = mem_ptr(f->b->h[!s], f->buf[!s] + 4096);
    E810Sge rsge = { f->buf[!s] + 16384, 4096, f->key[!s] };
    DpSend w;
    DpCqe e;
    unsigned i, got_s = 0, got_r = 0;

    qps_create(f, mtu);
    for (i = 0; i < CLEAN_LEN; i++) {
        src[i] = b2b_byte(s + 7, i);
    }
    memset(dst, 0, CLEAN_LEN);
    dp_post_recv(&f->qp[!s], &rsge, 1);
    memset(&w, 0, sizeof(w));
    w.op = E810_OP_RDMA_WRITE;
    w.nsge = 1;
    w.sge[0].addr = f->buf[s];
    w.sge[0].len = CLEAN_LEN;
    w.sge[0].lkey = f->key[s];
    w.remote_va = f->buf[!s] + 4096;
    w.rkey = f->key[!s];
    dp_post_send(&f->qp[s], &w);
    w.op = E810_OP_SEND;
    w.signaled = true;
    w.sge[0].len = CLEAN_SEND;
    dp_post_send(&f->qp[s], &w);
    dp_ring(&f->qp[s], false);
    b2b_run_for(f->b, 60000000000ull);
    while (dp_poll_cq(&f->cq[s], &e)) {
        if (e.qp_id == f->qp[s].id) {
            if (e.error) {
                abort();
            }
            got_s++;
        }
    }
    while (dp_poll_cq(&f->cq[!s], &e)) {
        if (e.qp_id == f->qp[!s].id) {
            if (e.error || e.len != CLEAN_SEND) {
                abort();
            }
            got_r++;
        }
    }
    if (got_s != 1 || got_r != 1 || memcmp(src, dst, CLEAN_LEN)) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Fz *f;
    Input in = { data, size };
    uint32_t mode, mtu;
    unsigned n, i;

    if (!f) {
        f = malloc(sizeof(*f));
        if (!f) {
            abort();
        }
        bringup(f);
    }
    mode = take(&in, 1);
    mtu = 256u << ((mode >> 2) & 3);
    qps_create(f, mtu);
    for (i = 0; i < 2; i++) {
        f->b->h[i]->wire_sync = mode & (1u << i);
        f->b->h[i]->loss_ppm = 0;
    }
    for (n = 0; in.left && n < 64; n++) {
        run_command(f, &in);
    }
    qps_destroy(f);
    /* Recovery: a reset side comes up from a PF reset. */
    for (i = 0; i < 2; i++) {
        if (f->down[i]) {
            side_up(f, i);
        }
    }
    b2b_pump(f->b, PUMP_STEPS);
    drain(f);
    clean_transfer(f, mtu, mode >> 4 & 1);
    qps_destroy(f);
    return 0;
}
