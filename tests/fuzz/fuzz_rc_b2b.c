/*
 * libFuzzer harness for two device models joined back to back: one RC QP
 * pair, SEND/WRITE/READ (with and without immediate) posted from either
 * side in an order, size and timing the input chooses, on a wire that
 * loses frames at an input-chosen rate and delivers them either queued
 * (harness_wire_deliver) or synchronously (wire_sync: the peer receives
 * from inside the sender's transmit and its answer comes straight back,
 * as on a QEMU hub), so the re-entrant receive path is exercised too.
 * QPs may be moved to ERROR in the middle of traffic.
 *
 * Both devices are brought up once with the unit tests' driver (compiled
 * in here); every input gets a fresh QP pair in the same slots and memory.
 * Nothing may crash, leak, hit undefined behaviour or hang.
 *
 * Input: byte 0 sets the start mode (bit 0/1: side 0/1 synchronous, bits
 * 2..4 the path MTU 256 << n, at most 4096); then commands, one byte each
 * followed by operands (see run_command()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../unit/model_harness.c"
#include "../unit/rdma_driver.c"
#include "../unit/dp_driver.c"
#include "cmocka_shim.c"
#include "../unit/b2b.h"

#define BUF_LEN     65536
#define MAX_SENDS   40      /* per side and input: the SQ has 64 quanta */
#define MAX_RECVS   12      /* per side and input: the RQ has 16 WQEs */
#define PUMP_STEPS  256

typedef struct Fz {
    B2B *b;
    DpCq cq[2];
    DpQp qp[2];
    uint64_t buf[2];
    uint32_t key[2];
    unsigned sends[2], recvs[2];
    uint64_t mem_mark[2];
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

static void bringup(Fz *f)
{
    unsigned i;

    memset(f, 0, sizeof(*f));
    f->b = b2b_new(0);
    for (i = 0; i < 2; i++) {
        DpDev *d = &f->b->dev[i];

        dp_cq_create(d, &f->cq[i], 4096);
        f->buf[i] = mem_alloc_aligned(f->b->h[i], BUF_LEN, 4096);
        f->key[i] = dp_mr_buf(d, DP_PD, f->buf[i], BUF_LEN, B2B_ALL_RIGHTS);
        f->mem_mark[i] = f->b->h[i]->mem_next;
    }
}

static void drain(Fz *f)
{
    unsigned i, n;
    DpCqe e;
    DpAe ae;

    for (i = 0; i < 2; i++) {
        for (n = 0; n < 1000 && dp_poll_cq(&f->cq[i], &e); n++) {
        }
        for (n = 0; n < 1000 && dp_poll_ae(&f->b->dev[i], &ae); n++) {
        }
    }
}

static void qps_create(Fz *f, uint8_t mode)
{
    uint32_t mtu = 256u << ((mode >> 2) & 7);
    unsigned i;

    if (mtu > 4096) {
        mtu = 4096;
    }
    for (i = 0; i < 2; i++) {
        DpDev *d = &f->b->dev[i];

        Harness *h = f->b->h[i];

        /* Fresh rings are zeroed, as the driver allocates them (stale
         * WQEs of the last input's QP would look valid to the new one). */
        memset(h->mem + f->mem_mark[i], 0, h->mem_next - f->mem_mark[i]);
        h->mem_next = f->mem_mark[i];
        d->next_qp = 10;
        dp_qp_create(d, &f->qp[i], E810_QP_TYPE_ROCE_RC, &f->cq[i],
                     &f->cq[i], 64, 16, 1, false, false);
        f->sends[i] = 0;
        f->recvs[i] = 0;
        f->b->h[i]->wire_sync = mode & (1u << i);
        f->b->h[i]->loss_ppm = 0;
    }
    b2b_connect(f->b, &f->qp[0], &f->qp[1], mtu);
}

static void qps_destroy(Fz *f)
{
    unsigned i;

    for (i = 0; i < 2; i++) {
        f->b->h[i]->loss_ppm = 0;
        f->b->h[i]->wire_sync = false;
    }
    /* Let the traffic finish and every timer run out. */
    b2b_pump(f->b, PUMP_STEPS);
    b2b_advance(f->b, 10000000000ull);
    b2b_pump(f->b, PUMP_STEPS);
    for (i = 0; i < 2; i++) {
        dp_qp_destroy(&f->qp[i]);
    }
    b2b_pump(f->b, PUMP_STEPS);
    drain(f);
}

static void post_send(Fz *f, Input *in)
{
    static const unsigned sops[] = {
        E810_OP_SEND, E810_OP_RDMA_WRITE, E810_OP_RDMA_READ, E810_OP_SEND,
    };
    uint32_t sel = take(in, 1);
    unsigned s = sel & 1;
    DpSend w;

    memset(&w, 0, sizeof(w));
    w.op = sops[(sel >> 1) & 3];
    w.signaled = !(sel & 0x80) || f->sends[s] + 1 == MAX_SENDS;
    w.imm_valid = w.op != E810_OP_RDMA_READ && (sel & 0x10);
    w.imm = sel;
    w.nsge = 1;
    w.sge[0].addr = f->buf[s] + (take(in, 1) << 7);
    w.sge[0].len = take(in, 2) % 9000;
    w.sge[0].lkey = f->key[s];
    w.remote_va = f->buf[!s] + (take(in, 1) << 7);
    /* Now and then a bad rkey: the responder's error path. */
    w.rkey = (sel & 0x60) == 0x60 ? f->key[!s] ^ 1 : f->key[!s];
    if (f->qp[s].state == E810_QP_STATE_RTS && f->sends[s] < MAX_SENDS) {
        dp_post_send(&f->qp[s], &w);
        dp_ring(&f->qp[s], false);
        f->sends[s]++;
    }
}

static void post_recv(Fz *f, Input *in)
{
    uint32_t sel = take(in, 1);
    unsigned s = sel & 1;
    E810Sge sge = { f->buf[s] + 32768 + ((sel >> 1) << 7), 16384,
                    f->key[s] };

    if (f->recvs[s] < MAX_RECVS) {
        dp_post_recv(&f->qp[s], &sge, 1);
        f->recvs[s]++;
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
    case 5:
        b2b_pump(f->b, PUMP_STEPS);
        break;
    case 6:
        /* Up to ~67 ms of virtual time. */
        b2b_advance(f->b, (uint64_t)take(in, 1) << 18);
        break;
    case 7:
        /* Switch side s between queued and synchronous delivery. */
        f->b->h[s]->wire_sync = !f->b->h[s]->wire_sync;
        break;
    case 8:
        /* Loss on side s's wire: 0 .. 25.5 %. */
        f->b->h[s]->loss_ppm = take(in, 1) * 1000;
        break;
    default:
        if ((c >> 5) == 7 && f->qp[s].state == E810_QP_STATE_RTS) {
            dp_qp_modify(&f->qp[s], E810_QP_STATE_ERROR);
        } else {
            drain(f);
        }
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Fz *f;
    Input in = { data, size };
    unsigned n;

    if (!f) {
        f = malloc(sizeof(*f));
        if (!f) {
            abort();
        }
        bringup(f);
    }
    qps_create(f, take(&in, 1));
    for (n = 0; in.left && n < 96; n++) {
        run_command(f, &in);
    }
    qps_destroy(f);
    return 0;
}
