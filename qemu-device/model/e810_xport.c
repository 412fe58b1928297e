/*
 * Emulated E810: RoCEv2 transport plumbing.
 *
 * Per-QP transport state, transmit to the wire or to our own receive path
 * (loopback), the receive demux (validate, find the QP, hand to RC or UD)
 * and the single device timer that carries every QP's deadline: each QP
 * keeps its own and the device timer is armed for the earliest.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e810_core.h"
#include "e810_iw_conn.h"
#include "e810_xport.h"

#define DEFAULT_SPORT   0xc000
/* The per-QP state table grows in steps of this many QPs. */
#define XQP_GROW        64
/* Loss injector's default seed; the PCI function is mixed in. */
#define DROP_SEED       0x9e3779b97f4a7c15ull

/* ---- lifetime ---------------------------------------------------------- */

int e810_xport_init(E810Core *core)
{
    core->xport = calloc(1, sizeof(*core->xport));
    if (!core->xport) {
        return -1;
    }
    e810_xport_seed_drop(core, 0);
    return 0;
}

/*
 * A freed per-QP state (~40 KiB, mostly the in-flight WQE and READ
 * queues) is kept for the next QP, up to E810_XPORT_XQP_SPARE_MAX: QPs
 * come and go with connections, and each new one would otherwise take a
 * fresh zeroed allocation. Poisoned while spare, so that a stale pointer
 * to it still trips AddressSanitizer.
 */
static void free_dead(E810Xport *xp)
{
    while (xp->dead) {
        E810XQp *x = xp->dead;

        xp->dead = x->next_dead;
        if (xp->nxqp_spare < E810_XPORT_XQP_SPARE_MAX) {
            x->next_dead = xp->xqp_spare;
            xp->xqp_spare = x;
            xp->nxqp_spare++;
            ASAN_POISON_MEMORY_REGION(x, sizeof(*x));
            continue;
        }
        free(x);
    }
}

static E810XQp *xqp_new(E810Xport *xp)
{
    E810XQp *x = xp->xqp_spare;

    if (!x) {
        return calloc(1, sizeof(*x));
    }
    ASAN_UNPOISON_MEMORY_REGION(x, sizeof(*x));
    xp->xqp_spare = x->next_dead;
    xp->nxqp_spare--;
    memset(x, 0, sizeof(*x));
    return x;
}

static void loop_free(E810Core *core, E810LoopFrame *f)
{
    E810Xport *xp = core->xport;

    e810_core_dma_unmap(core, &f->map);
    if (f->spare && xp->nspare < E810_XPORT_SPARE_MAX) {
        f->next = xp->spare;
        xp->spare = f;
        xp->nspare++;
        return;
    }
    free(f);
}

static void free_spares(E810Xport *xp)
{
    while (xp->spare) {
        E810LoopFrame *f = xp->spare;

        xp->spare = f->next;
        free(f);
    }
    xp->nspare = 0;
    while (xp->xqp_spare) {
        E810XQp *x = xp->xqp_spare;

        ASAN_UNPOISON_MEMORY_REGION(x, sizeof(*x));
        xp->xqp_spare = x->next_dead;
        free(x);
    }
    xp->nxqp_spare = 0;
}

static void drop_loop(E810Core *core)
{
    E810Xport *xp = core->xport;

    while (xp->loop_head) {
        E810LoopFrame *f = xp->loop_head;

        xp->loop_head = f->next;
        loop_free(core, f);
    }
    xp->loop_tail = NULL;
    xp->loop_bytes = 0;
}

static void drop_all_qps(E810Core *core)
{
    E810Xport *xp = core->xport;
    uint32_t i;

    for (i = 0; i < xp->nqp; i++) {
        if (xp->qp[i]) {
            e810_xport_qp_reset(core, i);
        }
    }
}

void e810_xport_reset(E810Core *core)
{
    E810Xport *xp = core->xport;

    if (!xp) {
        return;
    }
    drop_all_qps(core);
    drop_loop(core);
    if (!xp->depth) {
        free_dead(xp);
    }
    if (xp->armed) {
        e810_core_timer_mod(core, UINT64_MAX);
    }
    xp->armed = 0;
}

void e810_xport_fini(E810Core *core)
{
    E810Xport *xp = core->xport;

    if (!xp) {
        return;
    }
    xp->depth = 0;
    e810_xport_reset(core);
    free_dead(xp);
    free_spares(xp);
    free(xp->qp);
    free(xp);
    core->xport = NULL;
}

/* ---- per-QP state -------------------------------------------------------- */

E810XQp *e810_xqp_get(E810Core *core, uint32_t qp_id)
{
    E810Xport *xp = core->xport;
    E810XQp *x;

    if (qp_id >= xp->nqp) {
        uint32_t max = e810_hmc_count(core, E810_HMC_QP), n;
        E810XQp **t;

        if (qp_id >= max) {
            return NULL;
        }
        /*
         * Up to the highest QP that has transport state, not the whole
         * QP table: the timer and the READ response pacing scan nqp
         * entries, mostly empty ones otherwise.
         */
        n = (qp_id | (XQP_GROW - 1)) + 1;
        n = n < max ? n : max;
        t = realloc(xp->qp, n * sizeof(*t));
        if (!t) {
            return NULL;
        }
        memset(t + xp->nqp, 0, (n - xp->nqp) * sizeof(*t));
        xp->qp = t;
        xp->nqp = n;
    }
    x = xp->qp[qp_id];
    if (!x) {
        x = xqp_new(xp);
        if (!x) {
            return NULL;
        }
        x->qp_id = qp_id;
        xp->qp[qp_id] = x;
    }
    return x;
}

void e810_xport_qp_reset(E810Core *core, uint32_t qp_id)
{
    E810Xport *xp = core->xport;
    E810XQp *x;

    if (!xp || qp_id >= xp->nqp || !xp->qp[qp_id]) {
        return;
    }
    x = xp->qp[qp_id];
    xp->qp[qp_id] = NULL;
    /* The caller may be inside this QP's code: free it on the way out. */
    x->dead = true;
    x->next_dead = xp->dead;
    xp->dead = x;
    if (!xp->depth) {
        free_dead(xp);
    }
}

uint64_t e810_qpc(const E810Qp *qp, unsigned off)
{
    return qp->ctx[off >> 3];
}

uint32_t e810_xport_mtu(E810Qp *qp)
{
    uint32_t mss = FIELD_GET(E810_QPC_SNDMSS, e810_qpc(qp, E810_QPC_MSS_OFF));

    /* IB path MTUs are powers of two from 256 to 4096. */
    if (mss < 256) {
        return qp->type == E810_QP_TYPE_ROCE_UD ? E810_ROCE_MAX_MTU : 1024;
    }
    if (mss > E810_ROCE_MAX_MTU) {
        return E810_ROCE_MAX_MTU;
    }
    while (mss & (mss - 1)) {
        mss &= mss - 1;
    }
    return mss;
}

/* ---- timer --------------------------------------------------------------- */

uint64_t e810_xport_now(E810Core *core)
{
    return core->ops->now_ns ? core->ops->now_ns(core->opaque) : 0;
}

static void arm(E810Core *core, uint64_t d)
{
    E810Xport *xp = core->xport;

    if (!core->ops->timer_mod) {
        return;     /* an embedder without timers: no retransmission */
    }
    xp->armed = d;
    e810_core_timer_mod(core, d ? d : UINT64_MAX);
}

void e810_xport_set_deadline(E810Core *core, E810XQp *x, uint64_t d)
{
    E810Xport *xp = core->xport;

    x->deadline = d;
    /* Later or cleared deadlines leave the timer early: it rescans. */
    if (d && (!xp->armed || d < xp->armed)) {
        arm(core, d);
    }
}

/*
 * Serves every QP whose deadline passed, round robin from where the last
 * run stopped, until E810_XPORT_RUN_BUDGET packets went out; the others
 * keep their (passed) deadline, so the timer is armed to fire again at
 * once. Fired inside a transport call (an embedder delivering it from
 * our own transmit), it only asks to be fired again.
 */
void e810_xport_timer(E810Core *core)
{
    E810Xport *xp = core->xport;
    uint64_t now = e810_xport_now(core);
    uint64_t tx0 = xp->stats.tx_packets;
    uint64_t next = 0;
    bool spent = false;
    uint32_t n, i;

    if (xp->depth) {
        xp->stats.timer_reentries++;
        arm(core, now ? now : 1);
        return;
    }
    e810_xport_enter(core);
    xp->armed = 0;
    for (n = 0; n < xp->nqp; n++) {
        E810XQp *x;
        E810Qp *qp;

        i = (xp->timer_next + n) % xp->nqp;
        x = xp->qp[i];
        if (!x || !x->deadline) {
            continue;
        }
        if (x->deadline <= now && !spent &&
            xp->stats.tx_packets - tx0 >= E810_XPORT_RUN_BUDGET) {
            spent = true;
            xp->timer_next = i;
            xp->stats.budget_stops++;
        }
        if (x->deadline <= now && !spent) {
            x->deadline = 0;
            qp = e810_qp_get(core, i);
            if (qp && qp->type == E810_QP_TYPE_ROCE_RC) {
                e810_rc_timer(core, qp, x);
            } else if (qp && qp->type == E810_QP_TYPE_IWARP) {
                e810_iw_conn_timer(core, qp);
            }
            x = xp->qp[i];      /* the QP may have been reset */
            if (!x || !x->deadline) {
                continue;
            }
        }
        if (!next || x->deadline < next) {
            next = x->deadline;
        }
    }
    /* Deadlines set while scanning may have armed an earlier time. */
    if (next && (!xp->armed || next < xp->armed)) {
        arm(core, next);
    } else if (!next && !xp->armed) {
        arm(core, 0);
    }
    e810_xport_exit(core);
}

/* ---- loss injector ------------------------------------------------------- */

int e810_xport_set_drop_ppm(E810Core *core, uint32_t ppm)
{
    if (ppm > E810_ROCE_DROP_PPM_MAX) {
        return -EINVAL;
    }
    core->xport->drop_ppm = ppm;
    return 0;
}

void e810_xport_seed_drop(E810Core *core, uint64_t seed)
{
    /*
     * Without a seed each function gets its own sequence, so the two ends
     * of a link do not lose frames in lockstep. xorshift64 must not start
     * at 0 (it would stay there).
     */
    if (!seed) {
        seed = DROP_SEED ^ ((uint64_t)core->pf_id + 1) * 0xbf58476d1ce4e5b9ull;
    }
    core->xport->drop_rng = seed ? seed : DROP_SEED;
}

/* One draw: true if the frame in hand is to be lost (@ppm per 10^6). */
static bool drop_roll(E810Xport *xp, uint32_t ppm)
{
    uint64_t x = xp->drop_rng;

    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    xp->drop_rng = x;
    /* The high bits of the scrambled state are the well-mixed ones. */
    return ((x * 0x2545f4914f6cdd1dull) >> 32) % E810_ROCE_DROP_PPM_MAX <
           ppm;
}

int e810_xport_set_iw_drop_ppm(E810Core *core, uint32_t ppm)
{
    if (ppm > E810_ROCE_DROP_PPM_MAX) {
        return -EINVAL;
    }
    core->xport->iw_drop_ppm = ppm;
    return 0;
}

bool e810_xport_iw_drop(E810Core *core)
{
    E810Xport *xp = core->xport;

    return xp->iw_drop_ppm && drop_roll(xp, xp->iw_drop_ppm);
}

int e810_xport_format_stats(E810Core *core, char *buf, size_t len)
{
    const E810XportStats *st = &core->xport->stats;
    uint64_t rx_parse_drops = 0;
    unsigned i;

    for (i = 0; i < E810_ROCE_ERR_MAX; i++) {
        rx_parse_drops += st->rx_drop[i];
    }
    return snprintf(buf, len,
                    "tx_packets=%" PRIu64 " tx_bytes=%" PRIu64
                    " tx_dropped_injected=%" PRIu64 " tx_link_down=%" PRIu64
                    " loopback=%" PRIu64 " retransmits=%" PRIu64
                    " timeouts=%" PRIu64 " retry_exceeded=%" PRIu64
                    " rnr_exceeded=%" PRIu64 " rx_packets=%" PRIu64
                    " rx_bytes=%" PRIu64 " rx_parse_drops=%" PRIu64
                    " rx_psn_dup=%" PRIu64 " rx_psn_oos=%" PRIu64
                    " acks_sent=%" PRIu64 " naks_sent=%" PRIu64
                    " acks_rcvd=%" PRIu64 " seq_naks_rcvd=%" PRIu64
                    " rnr_naks_rcvd=%" PRIu64 " err_naks_rcvd=%" PRIu64
                    " read_resp_sent=%" PRIu64 " rd_queued=%" PRIu64
                    " rx_busy=%" PRIu64 " rx_deferred=%" PRIu64
                    " drop_ppm=%" PRIu32,
                    st->tx_packets, st->tx_bytes, st->tx_injected_drops,
                    st->tx_link_down, st->loopback, st->retransmits,
                    st->timeouts, st->retry_exceeded, st->rnr_exceeded,
                    st->rx_packets, st->rx_bytes, rx_parse_drops,
                    st->rx_psn_dup, st->rx_psn_oos, st->acks_sent,
                    st->naks_sent, st->acks_rcvd, st->seq_naks_rcvd,
                    st->rnr_naks_rcvd, st->err_naks_rcvd,
                    st->read_resp_sent, st->rd_queued, st->rx_busy,
                    st->rx_deferred, core->xport->drop_ppm);
}

/* ---- transmit ------------------------------------------------------------ */

static bool mac_is_ours(E810Core *core, const uint8_t *mac)
{
    E810Rdma *r = &core->rdma;
    uint64_t used = r->loc_mac_used;

    if (!memcmp(mac, core->mac, 6)) {
        return true;
    }
    /* Only the entries in use: every frame sent asks (most for a peer). */
    while (used) {
        unsigned i = __builtin_ctzll(used);

        used &= used - 1;
        if (i < E810_LOC_MAC_TABLE_SIZE && !memcmp(mac, r->loc_mac[i], 6)) {
            return true;
        }
    }
    return false;
}

static bool mcast_attached(E810Core *core, const uint8_t *mac)
{
    uint32_t i, n = e810_hmc_count(core, E810_HMC_FSIMC);

    for (i = 0; core->rdma.mcg && i < n; i++) {
        if (core->rdma.mcg[i].valid && core->rdma.mcg[i].nqps &&
            !memcmp(core->rdma.mcg[i].dmac, mac, 6)) {
            return true;
        }
    }
    return false;
}

/*
 * Queues a frame for our own receive once the outermost entry point
 * returns (e810_xport_exit()): a frame we sent to ourselves (@wire false),
 * or one from the wire that arrived while we were still transmitting
 * (@wire true; see e810_xport_receive()). With @map, @frame holds only
 * the @hlen header bytes and the @paylen payload bytes stay in place
 * (the queue owns @map from here on).
 */
static void loop_queue_ref(E810Core *core, const uint8_t *frame, size_t len,
                           bool wire, E810DmaMap *map, uint32_t hlen,
                           uint32_t paylen)
{
    E810Xport *xp = core->xport;
    /* e810_roce_parse_ref() may look at E810_ROCE_MAX_HDR bytes. */
    size_t keep = !map ? len : hlen > E810_ROCE_MAX_HDR ? hlen :
                  E810_ROCE_MAX_HDR;
    E810LoopFrame *f;

    if (xp->loop_bytes + len > E810_XPORT_LOOP_MAX) {
        f = NULL;
    } else if (keep == E810_ROCE_MAX_HDR && xp->spare) {
        f = xp->spare;
        xp->spare = f->next;
        xp->nspare--;
    } else {
        f = malloc(sizeof(*f) + keep);
    }
    if (!f) {
        xp->stats.loop_overflow++;  /* lost: the transport recovers */
        if (map) {
            e810_core_dma_unmap(core, map);
        }
        return;
    }
    f->spare = keep == E810_ROCE_MAX_HDR;
    f->next = NULL;
    f->len = len;
    f->wire = wire;
    f->hlen = hlen;
    f->paylen = paylen;
    if (map) {
        f->map = *map;
        map->ptr = NULL;
        memcpy(f->data, frame, hlen);
        memset(f->data + hlen, 0, keep - hlen);
    } else {
        f->map.ptr = NULL;
        f->map.len = 0;
        memcpy(f->data, frame, len);
    }
    if (xp->loop_tail) {
        xp->loop_tail->next = f;
    } else {
        xp->loop_head = f;
    }
    xp->loop_tail = f;
    xp->loop_bytes += len;
    if (wire) {
        xp->stats.rx_deferred++;
    } else {
        xp->stats.loopback++;
    }
}

static void loop_queue(E810Core *core, const uint8_t *frame, size_t len,
                       bool wire)
{
    loop_queue_ref(core, frame, len, wire, NULL, 0, 0);
}

bool e810_xport_local(E810Core *core, const E810RocePkt *p)
{
    return !(p->dmac[0] & 1) && mac_is_ours(core, p->dmac);
}

void e810_xport_tx_mapped(E810Core *core, const E810Qp *qp, E810RocePkt *p,
                          uint8_t *frame, E810DmaMap *map, uint32_t paylen)
{
    E810Xport *xp = core->xport;
    size_t len;

    /* A local frame (callers checked): headers only, no pad or ICRC read. */
    len = e810_roce_finish(p, frame, paylen, false);
    xp->stats.tx_packets++;
    xp->stats.tx_bytes += len;
    e810_rdma_stat_tx(core, qp, p, len);
    /* The headers end where the payload, its pad (p->pad) and ICRC start. */
    loop_queue_ref(core, frame, len, false, map,
                   len - paylen - p->pad - E810_ICRC_LEN, paylen);
}

void e810_xport_tx(E810Core *core, const E810Qp *qp, E810RocePkt *p,
                   uint8_t *frame, uint32_t paylen)
{
    E810Xport *xp = core->xport;
    bool mcast = p->dmac[0] & 1;
    bool local = !mcast && mac_is_ours(core, p->dmac);
    size_t len;

    /* Frames that stay in the device need no ICRC; the wire's do. */
    len = e810_roce_finish(p, frame, paylen, !local);
    xp->stats.tx_packets++;
    xp->stats.tx_bytes += len;
    e810_rdma_stat_tx(core, qp, p, len);
    if (local || (mcast && mcast_attached(core, p->dmac))) {
        /* A multicast copy to ourselves has its ICRC and is checked. */
        loop_queue(core, frame, len, false);
        if (local) {
            return;
        }
    }
    if (!e810_port_link_up(core)) {
        xp->stats.tx_link_down++;
        e810_stats_tx_link_down(core);
        return;
    }
    /* Only the wire loses frames; loopback copies above never do. */
    if (xp->drop_ppm && drop_roll(xp, xp->drop_ppm)) {
        xp->stats.tx_injected_drops++;
        return;
    }
    core->ops->transmit(core->opaque, frame, len);
    e810_stats_tx(core, -1, frame, len);   /* port traffic, no LAN VSI */
}

/* RC headers from the QP context (docs/hw-reference.md 4.1). */
void e810_xport_rc_headers(E810Core *core, E810Qp *qp, E810RocePkt *p)
{
    uint64_t cfg = e810_qpc(qp, E810_QPC_CFG_OFF);
    uint64_t sizes = e810_qpc(qp, E810_QPC_SIZES_OFF);
    uint64_t mss = e810_qpc(qp, E810_QPC_MSS_OFF);
    uint64_t pk = e810_qpc(qp, E810_QPC_PKEY_OFF);
    uint64_t d23 = e810_qpc(qp, E810_QPC_DESTIP23_OFF);
    uint64_t d01 = e810_qpc(qp, E810_QPC_DESTIP01_OFF);
    uint64_t l23 = e810_qpc(qp, E810_QPC_LOCALIP23_OFF);
    uint64_t l01 = e810_qpc(qp, E810_QPC_LOCALIP01_OFF);
    uint32_t arp = FIELD_GET(E810_QPC_ARPIDX, mss);
    uint64_t smac = FIELD_GET(E810_QPC_MACADDRESS,
                              e810_qpc(qp, E810_QPC_MAC_OFF));

    memset(p, 0, offsetof(E810RocePkt, opcode));
    if (core->rdma.arp && arp < e810_hmc_count(core, E810_HMC_ARP) &&
        core->rdma.arp[arp].valid) {
        memcpy(p->dmac, core->rdma.arp[arp].mac, 6);
    }
    if (smac) {
        e810_mac_from_u64(p->smac, smac);
    } else {
        memcpy(p->smac, core->mac, 6);
    }
    p->vlan = cfg & E810_QPC_INSERTVLANTAG;
    p->tci = FIELD_GET(E810_QPC_VLANTAG, mss);
    p->ipv4 = cfg & E810_QPC_IPV4;
    p->tclass = FIELD_GET(E810_QPC_TOS, sizes);
    p->hop_limit = FIELD_GET(E810_QPC_TTL, sizes);
    if (!p->hop_limit) {
        p->hop_limit = 64;
    }
    p->flow_label = FIELD_GET(E810_QPC_FLOWLABEL, pk);
    p->dip[0] = FIELD_GET(E810_QPC_IP_HI, d01);
    p->dip[1] = FIELD_GET(E810_QPC_IP_LO, d01);
    p->dip[2] = FIELD_GET(E810_QPC_IP_HI, d23);
    p->dip[3] = FIELD_GET(E810_QPC_IP_LO, d23);
    p->sip[0] = FIELD_GET(E810_QPC_IP_HI, l01);
    p->sip[1] = FIELD_GET(E810_QPC_IP_LO, l01);
    p->sip[2] = FIELD_GET(E810_QPC_IP_HI, l23);
    p->sip[3] = FIELD_GET(E810_QPC_IP_LO, l23);
    p->sport = FIELD_GET(E810_QPC_SRCPORTNUM, sizes);
    if (!p->sport) {
        p->sport = DEFAULT_SPORT;
    }
    p->pkey = FIELD_GET(E810_QPC_PKEY, pk);
    if (!p->pkey) {
        p->pkey = 0xffff;
    }
    p->dqpn = FIELD_GET(E810_QPC_DESTQP, e810_qpc(qp, E810_QPC_DEST_OFF));
}

/* ---- entry points and re-entrancy ----------------------------------------- */

void e810_xport_enter(E810Core *core)
{
    core->xport->depth++;
}

static void rx_one(E810Core *core, const uint8_t *frame, size_t len,
                   bool icrc);
static void rx_one_ref(E810Core *core, const E810LoopFrame *f);

void e810_xport_exit(E810Core *core)
{
    E810Xport *xp = core->xport;
    uint64_t tx0;

    if (xp->depth > 1) {
        xp->depth--;
        return;
    }
    /*
     * Outermost: deliver what we sent to ourselves and what arrived while
     * we were transmitting, then free. Each frame may send more (an ACK
     * opens the window), whose answers a synchronous peer queues here
     * again: after E810_XPORT_RUN_BUDGET packets the rest waits for
     * another run of work (e810_xport_run_work()), so the chain cannot
     * keep one call busy for a whole message.
     */
    tx0 = xp->stats.tx_packets;
    while (xp->loop_head) {
        E810LoopFrame *f = xp->loop_head;

        if (xp->stats.tx_packets - tx0 >= E810_XPORT_RUN_BUDGET) {
            xp->stats.budget_stops++;
            e810_core_request_work(core, E810_WORK_XPORT);
            break;
        }
        xp->loop_head = f->next;
        if (!xp->loop_head) {
            xp->loop_tail = NULL;
        }
        xp->loop_bytes -= f->len;
        if (f->map.ptr) {
            rx_one_ref(core, f);
        } else {
            rx_one(core, f->data, f->len, f->wire);
        }
        loop_free(core, f);
    }
    xp->depth = 0;
    free_dead(xp);
}

bool e810_xport_send(E810Core *core, E810Qp *qp, const E810SendWqe *wqe)
{
    E810XQp *x;
    bool ok;

    /* A new message: PBLEs read ahead are good for one message only. */
    e810_pble_cache_drop(core);

    if (qp->type == E810_QP_TYPE_IWARP) {
        return e810_iw_conn_send(core, qp, wqe);
    }
    if (qp->type == E810_QP_TYPE_UDA) {
        return e810_ilq_send(core, qp, wqe);    /* ILQ, IEQ (iWARP) */
    }
    if (qp->type == E810_QP_TYPE_ROCE_UD) {
        e810_xport_enter(core);
        ok = e810_ud_send(core, qp, wqe);
        e810_xport_exit(core);
        return ok;
    }
    x = e810_xqp_get(core, wqe->qp_id);
    if (!x) {
        /* No memory for transport state: as hardware out of resources. */
        e810_dp_complete_sq(core, qp, wqe, E810_AE_RESOURCE_EXHAUSTION, 0);
        return true;
    }
    e810_xport_enter(core);
    ok = e810_rc_send(core, qp, x, wqe);
    e810_xport_exit(core);
    return ok;
}

/*
 * Continues paced READ responses, round robin from the QP the last run
 * stopped at, E810_XPORT_RUN_BUDGET packets at most; then asks for
 * another run if any are left.
 */
void e810_xport_run_work(E810Core *core)
{
    E810Xport *xp = core->xport;
    uint64_t sent0 = xp->stats.read_resp_sent;
    uint32_t n, i;

    e810_xport_enter(core);
    for (n = 0; n < xp->nqp; n++) {
        E810XQp *x;
        E810Qp *qp;

        i = (xp->work_next + n) % xp->nqp;
        x = xp->qp[i];
        if (!x || !x->rd_pending) {
            continue;
        }
        /* A step sends up to E810_XPORT_READ_BURST: only if that fits. */
        if (xp->stats.read_resp_sent - sent0 + E810_XPORT_READ_BURST >
            E810_XPORT_RUN_BUDGET) {
            xp->work_next = i;
            xp->stats.budget_stops++;
            e810_core_request_work(core, E810_WORK_XPORT);
            break;
        }
        qp = e810_qp_get(core, i);
        if (!qp || qp->type != E810_QP_TYPE_ROCE_RC) {
            x->rd_pending = false;
            x->rdq_count = 0;
            continue;
        }
        e810_rc_read_step(core, qp, x);
    }
    e810_xport_exit(core);
}

/* ---- receive ------------------------------------------------------------- */

bool e810_xport_wants(E810Core *core, const uint8_t *frame, size_t len)
{
    if (!core->aq.pe_filter || !e810_roce_is_rocev2(frame, len)) {
        return false;
    }
    return (frame[0] & 1) ? mcast_attached(core, frame)
                          : mac_is_ours(core, frame);
}

/* A frame that passed e810_roce_parse*(): counted and handed on. */
static void rx_parsed(E810Core *core, const E810RocePkt *p,
                      const uint8_t *frame, size_t len)
{
    E810XportStats *st = &core->xport->stats;
    E810Qp *qp;
    E810XQp *x;

    st->rx_packets++;
    st->rx_bytes += len;
    if ((e810_roce_op_flags(p->opcode) & E810_OPF_FIRST) ||
        p->opcode == E810_BTH_RC_READ_REQ) {
        e810_pble_cache_drop(core);     /* a new message (as on send) */
    }
    /* Looked up once, for the statistics and the RC receive. */
    qp = p->dqpn == E810_MCAST_QPN ? NULL : e810_qp_get(core, p->dqpn);
    e810_rdma_stat_rx(core, qp, p, frame, len);
    if ((p->opcode & 0xe0) == 0x60) {
        e810_ud_receive(core, p);
        return;
    }
    if (!qp || qp->type != E810_QP_TYPE_ROCE_RC ||
        (qp->state != E810_QP_STATE_RTR && qp->state != E810_QP_STATE_RTS &&
         qp->state != E810_QP_STATE_SQD)) {
        st->rx_bad_qp++;
        return;
    }
    {
        uint16_t mine = FIELD_GET(E810_QPC_PKEY,
                                  e810_qpc(qp, E810_QPC_PKEY_OFF));

        /* Only the 15-bit key is compared; 0 means none configured. */
        if (mine && ((mine ^ p->pkey) & 0x7fff)) {
            st->rx_bad_pkey++;
            return;
        }
    }
    x = e810_xqp_get(core, p->dqpn);
    if (!x) {
        st->rx_bad_qp++;
        return;
    }
    e810_rc_receive(core, qp, x, p);
}

static void rx_one(E810Core *core, const uint8_t *frame, size_t len,
                   bool icrc)
{
    E810RocePkt p;
    E810RoceErr err;

    err = e810_roce_parse(frame, len, &p, icrc);
    if (err) {
        core->xport->stats.rx_drop[err]++;
        e810_rdma_stat_rx_short(core, frame, len);
        return;
    }
    rx_parsed(core, &p, frame, len);
}

/* A loopback frame whose payload is still in the sender's memory. */
static void rx_one_ref(E810Core *core, const E810LoopFrame *f)
{
    E810RocePkt p;
    E810RoceErr err;

    err = e810_roce_parse_ref(f->data, f->hlen, f->len, f->map.ptr,
                              f->paylen, &p);
    if (err) {
        core->xport->stats.rx_drop[err]++;
        return;
    }
    /* The statistics look at the headers only (p.l3 is in f->data). */
    rx_parsed(core, &p, f->data, f->len);
}

/*
 * A frame from the wire. Hardware takes it in its own time; the embedder
 * may hand it to us synchronously from inside our own transmit (a QEMU hub
 * delivers to the peer, whose answer comes straight back), when the
 * requester is between sending a packet and recording it as sent and the
 * transmit frame is in use. Such a frame waits until the outermost entry
 * point returns, like a frame we sent to ourselves.
 */
void e810_xport_receive(E810Core *core, const uint8_t *frame, size_t len)
{
    E810Xport *xp = core->xport;

    /* Behind frames an earlier run left queued too: the order holds. */
    if (xp->depth || xp->loop_head) {
        loop_queue(core, frame, len, true);
        if (!xp->depth) {
            e810_xport_enter(core);
            e810_xport_exit(core);
        }
        return;
    }
    e810_xport_enter(core);
    rx_one(core, frame, len, true);
    e810_xport_exit(core);
}
