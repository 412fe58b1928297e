/*
 * libFuzzer harness for very large messages and memory regions: two
 * device models back to back with an RC QP pair; each input registers a
 * few MRs on both sides with lengths up to the 46-bit STAGLEN (near
 * 2^32 and 2^46), zero length, first-byte offsets anywhere in the first
 * page, 1-level or 2-level PBLs of up to 32768 PBLEs that all point at
 * the same few pages of guest memory (so a 128 MiB MR fits the test
 * memory), then posts SEND/WRITE/READ with lengths up to 2^31 - 1, at
 * offsets near the MR's end and across 4 KiB/2 MiB boundaries. A run is
 * time-bounded: the devices get at most MAX_PUMPS work runs (each moves
 * at most the model's per-run budget of 1024 packets), then the QPs are destroyed
 * with the transfer still in flight and the MRs deregistered.
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

#define NPAGES      8           /* real pages behind every big MR */
#define MAX_MR      4           /* per side and input */
#define MAX_PBLE    32768       /* 64 leaves of 512: a full 2-level PBL */
#define MAX_SENDS   24
#define WORK_RUNS   1           /* per pump: at most 1024 packets a side */
#define MAX_PUMPS   3           /* per input: the run stays time-bounded */

typedef struct Fz {
    B2B *b;
    DpCq cq[2];
    DpQp qp[2];
    uint64_t pages[2];          /* NPAGES 4 KiB pages */
    uint64_t mem_mark[2];
    uint32_t stag_mark[2], pble_mark[2];
    uint32_t mr[2][MAX_MR];
    uint64_t mr_va[2][MAX_MR], mr_len[2][MAX_MR];
    unsigned nmr[2], sends[2];
    unsigned pumps;
} Fz;

typedef struct Input {
    const uint8_t *p;
    size_t left;
} Input;

/* Per side: PBLEs that repeat its NPAGES pages, the same for every input. */
static uint64_t pbl[2][MAX_PBLE];
/* All the PBLEs an input can write: MAX_MR 2-level PBLs. */
#define PBLE_SPAN   (MAX_MR * (MAX_PBLE + 64))
static const uint64_t zero_pbl[PBLE_SPAN];

static uint64_t take(Input *in, unsigned n)
{
    uint64_t v = 0;

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
    unsigned i, n;

    memset(f, 0, sizeof(*f));
    f->b = b2b_new(0);
    for (i = 0; i < 2; i++) {
        DpDev *d = &f->b->dev[i];

        dp_cq_create(d, &f->cq[i], 1024);
        f->pages[i] = mem_alloc_aligned(f->b->h[i], NPAGES * 4096, 4096);
        for (n = 0; n < MAX_PBLE; n++) {
            pbl[i][n] = f->pages[i] + 4096ull * (n % NPAGES);
        }
        /*
         * Back every PBLE an input can write once, before mem_mark: the
         * inputs reuse them. Backed later, the PD pages would be taken
         * from the memory the next input's rings are carved from.
         */
        rd_back_object(&d->d, E810_HMC_PBLE, 0);
        f->pble_mark[i] = d->next_pble;
        dp_pble_write(d, zero_pbl, PBLE_SPAN);
        d->next_pble = f->pble_mark[i];
        f->stag_mark[i] = d->next_stag;
        for (n = 0; n < MAX_MR; n++) {
            rd_back_object(&d->d, E810_HMC_MR, d->next_stag + n);
        }
        f->mem_mark[i] = f->b->h[i]->mem_next;
    }
}

/*
 * Delivers at most @max of the frames @h queued for its peer (32 a pump:
 * an ACK may release 64 packets; the unit
 * harness's harness_wire_deliver() also delivers what is queued while it
 * runs: with a synchronous peer each ACK would send more, and one call
 * could carry a whole 2^31-byte message).
 */
static unsigned deliver_some(Harness *h, unsigned max)
{
    unsigned n = 0;

    while (h->wire_head && n < max) {
        HarnessFrame *fr = h->wire_head;

        h->wire_head = fr->next;
        if (!h->wire_head) {
            h->wire_tail = NULL;
        }
        e810_core_receive(&h->peer->core, fr->data, fr->len);
        free(fr);
        n++;
    }
    return n;
}

static void pump(Fz *f, unsigned runs)
{
    unsigned n, i;

    for (n = 0; n < runs; n++) {
        bool busy = false;

        for (i = 0; i < 2; i++) {
            if (f->b->h[i]->core.work_pending) {
                harness_run_work(f->b->h[i]);
                busy = true;
            }
        }
        for (i = 0; i < 2; i++) {
            busy |= deliver_some(f->b->h[i], 32) != 0;
        }
        if (!busy) {
            break;
        }
    }
}

static void drain(Fz *f)
{
    unsigned i, n;
    DpCqe e;
    DpAe ae;

    for (i = 0; i < 2; i++) {
        for (n = 0; n < 2000 && dp_poll_cq(&f->cq[i], &e); n++) {
        }
        for (n = 0; n < 1000 && dp_poll_ae(&f->b->dev[i], &ae); n++) {
        }
    }
}

/*
 * REG_MR as irdma_hwreg_mr() sends it, for any length and first-byte
 * offset; the PBL's PBLEs repeat the side's NPAGES pages. The CQP may
 * refuse it (the MR is then not used).
 */
static void reg_mr(Fz *f, Input *in)
{
    uint64_t sel = take(in, 1), q[8] = { 0 };
    unsigned s = sel & 1, lpbl, npages, i;
    DpDev *d = &f->b->dev[s];
    uint64_t va, len;
    uint32_t idx, first;
    uint8_t key;

    if (f->nmr[s] >= MAX_MR) {
        return;
    }
    switch (sel >> 1 & 7) {
    case 0:
        len = 0;
        break;
    case 1:
        len = 0xffffffffull - take(in, 2);      /* near 2^32 */
        break;
    case 2:
        len = (1ull << 46) - 1 - take(in, 2);   /* STAGLEN's top */
        break;
    case 3:
        len = 0x7fffffffull;                    /* max_msg_sz */
        break;
    default:
        len = take(in, 4);
        break;
    }
    va = take(in, 8);
    if (sel & 0x10) {
        va = (va & ~0xfffull) | (take(in, 2) & 0xfff);
    }
    /* Pages the length needs (capped), the first page's offset included. */
    npages = ((va & 0xfff) + len + 4095) >> 12 > MAX_PBLE ? MAX_PBLE :
             (unsigned)(((va & 0xfff) + len + 4095) >> 12);
    if (!npages) {
        npages = 1;
    }
    if (sel & 0x20) {
        npages = 1 + take(in, 2) % MAX_PBLE;    /* too few or too many */
    }
    /*
     * A registration the device refuses used its PBLEs too: what the
     * input writes stays within the span backed (and zeroed) at bring-up.
     */
    if (d->next_pble - f->pble_mark[s] + npages + 64 > PBLE_SPAN) {
        return;
    }
    lpbl = npages > 512 ? E810_LPBL_LEVEL2 : E810_LPBL_LEVEL1;
    if (lpbl == E810_LPBL_LEVEL2) {
        uint64_t roots[64];
        unsigned nleaf = (npages + 511) / 512;

        for (i = 0; i < nleaf; i++) {
            roots[i] = dp_pble_write(d, pbl[s] + i * 512,
                                     npages - i * 512 < 512 ?
                                     npages - i * 512 : 512);
        }
        first = dp_pble_write(d, roots, nleaf);
    } else {
        first = dp_pble_write(d, pbl[s], npages);
    }
    idx = d->next_stag++;
    rd_back_object(&d->d, E810_HMC_MR, idx);
    key = (uint8_t)(0x5a + idx);
    q[E810_QW(E810_CQPSQ_STAG_VA_OFF)] = va;
    q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] =
        FIELD_PREP(E810_CQPSQ_STAG_STAGLEN, len) |
        FIELD_PREP(E810_CQPSQ_STAG_PDID, DP_PD);
    q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] =
        FIELD_PREP(E810_CQPSQ_STAG_KEY, key) |
        FIELD_PREP(E810_CQPSQ_STAG_IDX, idx);
    q[E810_QW(E810_CQPSQ_STAG_PA_OFF)] = pbl[s][0];
    q[E810_QW(E810_CQPSQ_STAG_PBL_OFF)] = first;
    if (!rd_exec(&d->d, E810_CQP_OP_REG_MR,
                 E810_CQPSQ_STAG_MR |
                 FIELD_PREP(E810_CQPSQ_STAG_LPBLSIZE, lpbl) |
                 FIELD_PREP(E810_CQPSQ_STAG_HPAGESIZE, E810_HPAGE_4K) |
                 FIELD_PREP(E810_CQPSQ_STAG_ARIGHTS, B2B_ALL_RIGHTS) |
                 E810_CQPSQ_STAG_REMACCENABLED | E810_CQPSQ_STAG_VABASEDTO,
                 q).error) {
        f->mr[s][f->nmr[s]] = idx << 8 | key;
        f->mr_va[s][f->nmr[s]] = va;
        f->mr_len[s][f->nmr[s]] = len;
        f->nmr[s]++;
    }
}

/* An address in MR @m chosen by the input: start, end, boundaries. */
static uint64_t mr_addr(Fz *f, unsigned s, unsigned m, Input *in)
{
    uint64_t va = f->mr_va[s][m], len = f->mr_len[s][m];
    uint64_t sel = take(in, 1);

    switch (sel & 7) {
    case 0:
        return va;
    case 1:
        return va + len - (sel >> 3);           /* the last bytes */
    case 2:
        return va + len;                        /* one past the end */
    case 3:
        return ((va + 0x1000) & ~0xfffull) - (sel >> 3);    /* 4 KiB */
    case 4:
        return ((va + 0x200000) & ~0x1fffffull) - (sel >> 3); /* 2 MiB */
    default:
        return va + take(in, 4);
    }
}

static uint32_t msg_len(Input *in)
{
    uint64_t sel = take(in, 1);

    switch (sel & 3) {
    case 0:
        return 0x7fffffffu - (sel >> 2);
    case 1:
        return take(in, 1) << (sel >> 2 & 31);
    default:
        return take(in, 4) & 0x7fffffffu;
    }
}

static void post(Fz *f, Input *in)
{
    static const unsigned sops[] = {
        E810_OP_RDMA_WRITE, E810_OP_RDMA_READ, E810_OP_SEND,
        E810_OP_RDMA_WRITE,
    };
    uint64_t sel = take(in, 1);
    unsigned s = sel & 1, lm, rm;
    DpSend w;

    if (!f->nmr[s] || !f->nmr[!s] || f->sends[s] >= MAX_SENDS ||
        f->qp[s].state != E810_QP_STATE_RTS) {
        return;
    }
    lm = (sel >> 1 & 3) % f->nmr[s];
    rm = (sel >> 3 & 3) % f->nmr[!s];
    memset(&w, 0, sizeof(w));
    w.op = sops[sel >> 5 & 3];
    w.signaled = true;
    w.nsge = 1;
    w.sge[0].addr = mr_addr(f, s, lm, in);
    w.sge[0].len = msg_len(in);
    w.sge[0].lkey = f->mr[s][lm];
    w.remote_va = mr_addr(f, !s, rm, in);
    w.rkey = f->mr[!s][rm];
    dp_post_send(&f->qp[s], &w);
    dp_ring(&f->qp[s], false);
    f->sends[s]++;
}

static void post_recv(Fz *f, Input *in)
{
    uint64_t sel = take(in, 1);
    unsigned s = sel & 1, m;
    E810Sge sge;

    if (!f->nmr[s]) {
        return;
    }
    m = (sel >> 1 & 3) % f->nmr[s];
    sge.addr = mr_addr(f, s, m, in);
    sge.len = msg_len(in);
    sge.lkey = f->mr[s][m];
    dp_post_recv(&f->qp[s], &sge, 1);
}

static void run_command(Fz *f, Input *in)
{
    uint64_t c = take(in, 1);

    switch (c % 6) {
    case 0:
        reg_mr(f, in);
        break;
    case 1:
    case 2:
        post(f, in);
        break;
    case 3:
        post_recv(f, in);
        break;
    case 4:
        if (f->pumps < MAX_PUMPS) {
            f->pumps++;
            pump(f, WORK_RUNS);
        }
        break;
    default:
        harness_advance(f->b->h[0], take(in, 1) << 20);
        harness_advance(f->b->h[1], f->b->h[0]->now_ns - f->b->h[1]->now_ns);
        break;
    }
}

static void qps_create(Fz *f, uint64_t mode)
{
    uint32_t mtu = 256u << (mode >> 2 & 3);
    unsigned i, n;

    for (i = 0; i < 2; i++) {
        Harness *h = f->b->h[i];
        DpDev *d = &f->b->dev[i];

        memset(h->mem + f->mem_mark[i], 0, h->mem_next - f->mem_mark[i]);
        h->mem_next = f->mem_mark[i];
        d->next_qp = 10;
        d->next_stag = f->stag_mark[i];
        /* The last input's PBLEs are zeroed: a too-short PBL reads zeros,
         * not what the input before wrote. */
        n = d->next_pble - f->pble_mark[i];
        if (n > PBLE_SPAN) {
            abort();
        }
        d->next_pble = f->pble_mark[i];
        dp_pble_write(d, zero_pbl, n);
        d->next_pble = f->pble_mark[i];
        dp_qp_create(d, &f->qp[i], E810_QP_TYPE_ROCE_RC, &f->cq[i],
                     &f->cq[i], 64, 16, 1, false, false);
        f->nmr[i] = 0;
        f->sends[i] = 0;
        f->pumps = 0;
        h->wire_sync = mode & (1u << i);
    }
    b2b_connect(f->b, &f->qp[0], &f->qp[1], mtu);
}

/* Transfers still in flight: the QPs go (destroy flushes them), then the
 * MRs. */
static void teardown(Fz *f)
{
    unsigned i, m;

    for (i = 0; i < 2; i++) {
        f->b->h[i]->wire_sync = false;
        dp_qp_destroy(&f->qp[i]);
    }
    pump(f, WORK_RUNS);
    /* Let every timer of the destroyed QPs run out. */
    harness_advance(f->b->h[0], 10000000000ull);
    harness_advance(f->b->h[1], 10000000000ull);
    pump(f, WORK_RUNS);
    for (i = 0; i < 2; i++) {
        /* The QPs are gone: what is left on the wire is dropped. */
        wire_free(f->b->h[i]);
        for (m = 0; m < f->nmr[i]; m++) {
            uint64_t q[8] = { 0 };

            q[E810_QW(E810_CQPSQ_STAG_LEN_OFF)] =
                FIELD_PREP(E810_CQPSQ_STAG_PDID, DP_PD);
            q[E810_QW(E810_CQPSQ_STAG_IDX_OFF)] =
                FIELD_PREP(E810_CQPSQ_STAG_IDX, f->mr[i][m] >> 8);
            if (rd_exec(&f->b->dev[i].d, E810_CQP_OP_DEALLOC_STAG,
                        E810_CQPSQ_STAG_MR, q).error) {
                abort();
            }
        }
    }
    drain(f);
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
    for (n = 0; in.left && n < 48; n++) {
        run_command(f, &in);
    }
    teardown(f);
    return 0;
}
