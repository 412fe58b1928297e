/*
 * Emulated E810: iWARP mode -- the APBVT and quad hash tables the driver
 * loads through the CQP, and the Rx steering they drive.
 *
 * APBVT (MANAGE_APBVT): the hardware keeps it as a bitmap of the 65536
 * TCP ports in the function's APBVT HMC object (one 8-KB object,
 * E810_HMC_APBVT_OBJ_SIZE), so adding a port already set or deleting one
 * that is not set changes nothing: the model completes both, counting
 * them (irdma_add_apbvt()/irdma_del_apbvt() refcount per port and never do
 * it). The object must be committed and backed: the op fails with the HMC
 * error otherwise.
 *
 * Quad hash (MANAGE_QUAD_HASH_TABLE_ENTRY): one entry per key (entry type,
 * local IP and port, VLAN; remote IP and port for ESTABLISHED entries).
 * ADD of a key present, DELETE or MODIFY of a key absent, an entry type
 * other than TCP_ESTABLISHED / TCP_SYN, MANAGE 3, a QPN beyond the
 * committed count and a full table complete with a CQP error (the minor
 * codes of e810_rdma.h); upstream irdma never issues these, so each one
 * points at a driver (or model) bug. Which hardware error codes exist for
 * these cases is not known (docs/hw-model.md).
 *
 * Both tables are part of the RDMA state: dropped with it (PF reset, CQP
 * destruction, e810_rdma_reset()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "e810_core.h"
#include "e810_iwarp.h"
#include "e810_iw_conn.h"

bool e810_iw_mode(E810Core *core)
{
    return core->rdma.cqp.created &&
           core->rdma.cqp.protocol == E810_PROTOCOL_IWARP_ONLY;
}

/* ---- APBVT ------------------------------------------------------------- */

bool e810_apbvt_has(E810Core *core, uint16_t port)
{
    return e810_bit_test(core->rdma.iw.apbvt, port);
}

void e810_op_manage_apbvt(E810Core *core, const E810CqpWqe *w,
                          E810CqpResult *res)
{
    E810Iwarp *iw = &core->rdma.iw;
    uint64_t hdr = e810_wqe_hdr(w);
    uint16_t port = FIELD_GET(E810_CQPSQ_MAPT_PORT,
                              e810_wqe(w, E810_CQPSQ_MAPT_PORT_OFF));
    bool add = hdr & E810_CQPSQ_MAPT_ADDPORT;
    bool set = e810_bit_test(iw->apbvt, port);

    if (!e810_hmc_check_backed(core, E810_HMC_APBVT, 0, res)) {
        return;
    }
    if (add) {
        iw->stats.apbvt_adds++;
        iw->stats.apbvt_dup_adds += set;
    } else {
        iw->stats.apbvt_dels++;
        iw->stats.apbvt_missing_dels += !set;
    }
    if (add != set) {
        e810_bit_assign(iw->apbvt, port, add);
        iw->apbvt_count += add ? 1 : -1;
    }
}

/* ---- quad hash ----------------------------------------------------------- */

/* IP words (word 0 most significant, IPv4 in word 3) from a WQE's pair. */
static void qh_ip(uint32_t ip[4], bool ipv4, uint64_t q01, uint64_t q23)
{
    memset(ip, 0, 4 * sizeof(*ip));
    ip[3] = (uint32_t)q23;
    if (!ipv4) {
        ip[0] = q01 >> 32;
        ip[1] = (uint32_t)q01;
        ip[2] = q23 >> 32;
    }
}

static bool same_key(const E810Qhash *a, const E810Qhash *b)
{
    return a->type == b->type && a->ipv4 == b->ipv4 &&
           a->vlan_valid == b->vlan_valid &&
           (!a->vlan_valid || a->vlan == b->vlan) && a->lport == b->lport &&
           !memcmp(a->lip, b->lip, sizeof(a->lip)) &&
           (a->type != E810_QHASH_TYPE_TCP_ESTABLISHED ||
            (a->rport == b->rport && !memcmp(a->rip, b->rip, sizeof(a->rip))));
}

static E810Qhash *qh_find(E810Iwarp *iw, const E810Qhash *key)
{
    unsigned i;

    for (i = 0; i < E810_QHASH_MAX; i++) {
        if (iw->qhash[i].valid && same_key(&iw->qhash[i], key)) {
            return &iw->qhash[i];
        }
    }
    return NULL;
}

static void qh_refuse(E810Core *core, E810CqpResult *res, uint16_t minor,
                      const char *why)
{
    core->rdma.iw.stats.qhash_refused++;
    e810_cqp_err(core, res, minor, "quad hash: %s", why);
}

void e810_op_manage_qhash(E810Core *core, const E810CqpWqe *w,
                          E810CqpResult *res)
{
    E810Iwarp *iw = &core->rdma.iw;
    uint64_t hdr = e810_wqe_hdr(w);
    uint64_t ports = e810_wqe(w, E810_CQPSQ_QHASH_PORTS_OFF);
    uint64_t qs = e810_wqe(w, E810_CQPSQ_QHASH_QS_OFF);
    unsigned manage = FIELD_GET(E810_CQPSQ_QHASH_MANAGE, hdr);
    E810Qhash k, *e;
    unsigned i;

    memset(&k, 0, sizeof(k));
    k.valid = true;
    k.type = FIELD_GET(E810_CQPSQ_QHASH_ENTRYTYPE, hdr);
    k.ipv4 = hdr & E810_CQPSQ_QHASH_IPV4VALID;
    k.vlan_valid = hdr & E810_CQPSQ_QHASH_VLANVALID;
    k.vlan = k.vlan_valid ? FIELD_GET(E810_CQPSQ_QHASH_VLANID, qs) : 0;
    k.qs_handle = FIELD_GET(E810_CQPSQ_QHASH_QS_HANDLE, qs);
    k.qpn = FIELD_GET(E810_CQPSQ_QHASH_QPN, ports);
    k.lport = FIELD_GET(E810_CQPSQ_QHASH_DEST_PORT, ports);
    e810_mac_from_u64(k.mac, e810_wqe(w, E810_CQPSQ_QHASH_MAC_OFF));
    qh_ip(k.lip, k.ipv4, e810_wqe(w, E810_CQPSQ_QHASH_LIP01_OFF),
          e810_wqe(w, E810_CQPSQ_QHASH_LIP23_OFF));
    if (k.type == E810_QHASH_TYPE_TCP_ESTABLISHED) {
        k.rport = FIELD_GET(E810_CQPSQ_QHASH_SRC_PORT, ports);
        qh_ip(k.rip, k.ipv4, e810_wqe(w, E810_CQPSQ_QHASH_RIP01_OFF),
              e810_wqe(w, E810_CQPSQ_QHASH_RIP23_OFF));
    }
    if (k.type != E810_QHASH_TYPE_TCP_ESTABLISHED &&
        k.type != E810_QHASH_TYPE_TCP_SYN) {
        qh_refuse(core, res, E810_CQP_MIN_BAD_PARAM, "entry type not TCP");
        return;
    }
    if (!e810_iw_mode(core)) {
        qh_refuse(core, res, E810_CQP_MIN_BAD_STATE, "TCP entry while the "
                  "engine runs RoCEv2");
        return;
    }
    e = qh_find(iw, &k);
    switch (manage) {
    case E810_QHASH_MANAGE_ADD:
    case E810_QHASH_MANAGE_MODIFY:
        if (k.qpn >= e810_hmc_count(core, E810_HMC_QP)) {
            qh_refuse(core, res, E810_CQP_MIN_BAD_INDEX, "QPN beyond the "
                      "committed count");
            return;
        }
        if (manage == E810_QHASH_MANAGE_MODIFY) {
            if (!e) {
                qh_refuse(core, res, E810_CQP_MIN_BAD_STATE, "no entry to "
                          "modify");
                return;
            }
            *e = k;
            iw->stats.qhash_mods++;
            return;
        }
        if (e) {
            qh_refuse(core, res, E810_CQP_MIN_BAD_STATE, "entry exists");
            return;
        }
        for (i = 0; i < E810_QHASH_MAX && iw->qhash[i].valid; i++) {
        }
        if (i == E810_QHASH_MAX) {
            qh_refuse(core, res, E810_CQP_MIN_BAD_STATE, "table full");
            return;
        }
        iw->qhash[i] = k;
        iw->qhash_count++;
        iw->stats.qhash_adds++;
        return;
    case E810_QHASH_MANAGE_DELETE:
        if (!e) {
            qh_refuse(core, res, E810_CQP_MIN_BAD_STATE, "no entry to "
                      "delete");
            return;
        }
        memset(e, 0, sizeof(*e));
        iw->qhash_count--;
        iw->stats.qhash_dels++;
        return;
    default:
        qh_refuse(core, res, E810_CQP_MIN_BAD_PARAM, "MANAGE 3");
        return;
    }
}

const E810Qhash *e810_qhash_lookup(E810Core *core, bool ipv4,
                                   const uint32_t lip[4], uint16_t lport,
                                   const uint32_t rip[4], uint16_t rport,
                                   bool vlan_valid, uint16_t vlan)
{
    E810Iwarp *iw = &core->rdma.iw;
    const E810Qhash *syn = NULL;
    unsigned i, seen = 0;

    for (i = 0; i < E810_QHASH_MAX && seen < iw->qhash_count; i++) {
        const E810Qhash *e = &iw->qhash[i];

        if (!e->valid) {
            continue;
        }
        seen++;
        if (e->ipv4 != ipv4 || e->lport != lport ||
            memcmp(e->lip, lip, sizeof(e->lip)) ||
            (e->vlan_valid && (!vlan_valid || e->vlan != (vlan & 0xfff)))) {
            continue;
        }
        if (e->type == E810_QHASH_TYPE_TCP_ESTABLISHED) {
            if (e->rport == rport && !memcmp(e->rip, rip, sizeof(e->rip))) {
                return e;
            }
        } else if (!syn) {
            syn = e;
        }
    }
    return syn;
}

/* The connection entry key of the 4-tuple context @ctx names. */
static void tuple_of_ctx(const uint64_t *ctx, E810Qhash *k)
{
    uint64_t ports = ctx[E810_QW(E810_QPC_SIZES_OFF)];

    memset(k, 0, sizeof(*k));
    k->valid = true;
    k->type = E810_QHASH_TYPE_TCP_ESTABLISHED;
    k->ipv4 = ctx[E810_QW(E810_QPC_CFG_OFF)] & E810_QPC_IPV4;
    k->lport = FIELD_GET(E810_QPC_SRCPORTNUM, ports);
    k->rport = FIELD_GET(E810_QPC_DESTPORTNUM, ports);
    qh_ip(k->lip, k->ipv4, ctx[E810_QW(E810_QPC_LOCALIP01_OFF)],
          ctx[E810_QW(E810_QPC_LOCALIP23_OFF)]);
    qh_ip(k->rip, k->ipv4, ctx[E810_QW(E810_QPC_DESTIP01_OFF)],
          ctx[E810_QW(E810_QPC_DESTIP23_OFF)]);
}

void e810_iw_qp_toe_loaded(E810Qp *qp, const uint64_t *ctx)
{
    tuple_of_ctx(ctx, &qp->toe);
}

void e810_iw_qp_remove_hash(E810Core *core, const E810Qp *qp,
                            uint32_t qp_id, uint64_t ctx_pa)
{
    E810Iwarp *iw = &core->rdma.iw;
    __le64 raw[E810_QP_CTX_SIZE / 8];
    uint64_t ctx[E810_QP_CTX_SIZE / 8];
    E810Qhash k;
    E810Qhash *e;
    unsigned i;

    if (qp->type != E810_QP_TYPE_IWARP) {
        return;
    }
    if (qp->toe.valid) {
        /*
         * The device's own copy: the host context may no longer hold the
         * TCP fields (upstream irdma wrote it without them for TERMINATE
         * or ERROR), and a Terminate that ended in an RST left no
         * offloaded connection to take them from.
         */
        k = qp->toe;
    } else {
        /*
         * Never offloaded: the 4-tuple the driver wrote in the host
         * context the WQE names (upstream irdma_cm_init_tsa_conn()), else
         * the context last loaded.
         */
        memcpy(ctx, qp->ctx, sizeof(ctx));
        if (ctx_pa && !(ctx_pa & 7) &&
            e810_core_dma_read(core, ctx_pa, raw, sizeof(raw))) {
            for (i = 0; i < E810_QP_CTX_SIZE / 8; i++) {
                ctx[i] = le64toh(raw[i]);
            }
        }
        tuple_of_ctx(ctx, &k);
    }
    /* An entry that steers to the QP itself. */
    for (i = 0; i < E810_QHASH_MAX; i++) {
        if (iw->qhash[i].valid && iw->qhash[i].qpn == qp_id &&
            iw->qhash[i].type == E810_QHASH_TYPE_TCP_ESTABLISHED) {
            memset(&iw->qhash[i], 0, sizeof(iw->qhash[i]));
            iw->qhash_count--;
            iw->stats.qhash_dels++;
        }
    }
    /*
     * The 4-tuple's entry, still the ILQ's. The VLAN is not part of what
     * the context names: any matches.
     */
    for (i = 0; i < E810_QHASH_MAX; i++) {
        e = &iw->qhash[i];
        if (e->valid && e->type == k.type && e->ipv4 == k.ipv4 &&
            e->lport == k.lport && e->rport == k.rport &&
            !memcmp(e->lip, k.lip, sizeof(k.lip)) &&
            !memcmp(e->rip, k.rip, sizeof(k.rip))) {
            memset(e, 0, sizeof(*e));
            iw->qhash_count--;
            iw->stats.qhash_dels++;
        }
    }
}

/* ---- Rx steering -------------------------------------------------------- */

bool e810_iw_mac_is_ours(E810Core *core, const uint8_t *mac)
{
    E810Rdma *r = &core->rdma;
    unsigned i;

    if (!memcmp(mac, core->mac, 6)) {
        return true;
    }
    for (i = 0; i < E810_LOC_MAC_TABLE_SIZE; i++) {
        if ((r->loc_mac_used & (1ull << i)) && !memcmp(mac, r->loc_mac[i], 6)) {
            return true;
        }
    }
    return false;
}

static uint16_t be16(const uint8_t *p)
{
    return p[0] << 8 | p[1];
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

bool e810_iw_parse(const uint8_t *frame, size_t len, E810IwSeg *s)
{
    size_t off = 12, l3, l4;
    uint16_t type;
    unsigned i;

    memset(s, 0, sizeof(*s));
    if (len < 14) {
        return false;
    }
    type = be16(frame + off);
    if (type == 0x8100) {
        if (len < 18) {
            return false;
        }
        s->vlan_valid = true;
        s->tci = be16(frame + 14);
        off += 4;
        type = be16(frame + off);
    }
    l3 = off + 2;
    if (type == 0x0800) {
        unsigned ihl;
        uint16_t tot;

        if (len < l3 + 20 || (frame[l3] >> 4) != 4) {
            return false;
        }
        ihl = (frame[l3] & 0xf) * 4;
        tot = be16(frame + l3 + 2);
        /* fragments and options: not for the engine */
        if (ihl != 20 || frame[l3 + 9] != 6 || tot < ihl ||
            l3 + tot > len || (be16(frame + l3 + 6) & 0x3fff)) {
            return false;
        }
        s->ipv4 = true;
        s->rip[3] = be32(frame + l3 + 12);
        s->lip[3] = be32(frame + l3 + 16);
        l4 = l3 + 20;
        s->l4_len = tot - 20;
    } else if (type == 0x86dd) {
        uint16_t plen;

        if (len < l3 + 40 || (frame[l3] >> 4) != 6 || frame[l3 + 6] != 6) {
            return false;
        }
        plen = be16(frame + l3 + 4);
        if (l3 + 40 + plen > len) {
            return false;
        }
        for (i = 0; i < 4; i++) {
            s->rip[i] = be32(frame + l3 + 8 + 4 * i);
            s->lip[i] = be32(frame + l3 + 24 + 4 * i);
        }
        l4 = l3 + 40;
        s->l4_len = plen;
    } else {
        return false;
    }
    if (s->l4_len < 20 || (frame[l4 + 12] >> 4) * 4u < 20 ||
        (frame[l4 + 12] >> 4) * 4u > s->l4_len) {
        return false;
    }
    s->l3_off = l3;
    s->l4_off = l4;
    s->rport = be16(frame + l4);
    s->lport = be16(frame + l4 + 2);
    s->flags = frame[l4 + 13];
    return true;
}

E810IwRx e810_iw_steer(E810Core *core, const uint8_t *frame, size_t len)
{
    const E810Qhash *e;
    E810IwSeg s;

    if (!e810_iw_mode(core) || !core->aq.pe_filter ||
        !core->rdma.iw.apbvt_count || len < 14 || (frame[0] & 1) ||
        !e810_iw_mac_is_ours(core, frame) || !e810_iw_parse(frame, len, &s) ||
        !e810_apbvt_has(core, s.lport)) {
        return E810_IW_RX_LAN;
    }
    if (e810_iw_conn_owns(core, s.ipv4, s.lip, s.lport, s.rip, s.rport)) {
        return E810_IW_RX_ENGINE;
    }
    e = e810_qhash_lookup(core, s.ipv4, s.lip, s.lport, s.rip, s.rport,
                          s.vlan_valid, s.tci);
    if (!e) {
        return E810_IW_RX_LAN;
    }
    /*
     * A listen entry takes connection requests only (SYN without ACK);
     * what else reaches a listening port with no connection entry is the
     * host stack's, as for any port (docs/hw-model.md).
     */
    if (e->type == E810_QHASH_TYPE_TCP_SYN &&
        (s.flags & (E810_TCP_SYN | E810_TCP_ACK)) != E810_TCP_SYN) {
        return E810_IW_RX_LAN;
    }
    return e->qpn == E810_ILQ_QPN ? E810_IW_RX_ILQ : E810_IW_RX_ENGINE;
}

void e810_iw_receive(E810Core *core, E810IwRx where, const uint8_t *frame,
                     size_t len)
{
    E810IwStats *st = &core->rdma.iw.stats;

    if (where == E810_IW_RX_ILQ) {
        st->rx_to_ilq++;
        e810_ilq_receive(core, frame, len);
        return;
    }
    st->rx_to_engine++;
    /*
     * A connection entry of the quad hash whose QP has no offloaded
     * connection (yet, or any more): nothing takes the segment.
     */
    if (!e810_iw_conn_rx(core, frame, len)) {
        st->rx_engine_drops++;
    }
}

/* ---- QMP --------------------------------------------------------------- */

static int fmt_ip(char *buf, size_t len, bool ipv4, const uint32_t ip[4])
{
    if (ipv4) {
        return snprintf(buf, len, "%u.%u.%u.%u", ip[3] >> 24,
                        (ip[3] >> 16) & 0xff, (ip[3] >> 8) & 0xff,
                        ip[3] & 0xff);
    }
    return snprintf(buf, len, "[%x:%x:%x:%x:%x:%x:%x:%x]", ip[0] >> 16,
                    ip[0] & 0xffff, ip[1] >> 16, ip[1] & 0xffff, ip[2] >> 16,
                    ip[2] & 0xffff, ip[3] >> 16, ip[3] & 0xffff);
}

/* snprintf() into @buf at *@n, whatever is left of @len. */
#define EMIT(...) do {                                                  \
        int k_ = snprintf(*n < len ? buf + *n : NULL,                   \
                          *n < len ? len - *n : 0, __VA_ARGS__);        \
        if (k_ < 0) {                                                   \
            return -1;                                                  \
        }                                                               \
        *n += k_;                                                       \
    } while (0)

static int fmt_entry(const E810Qhash *e, const char *sep, char *buf,
                     size_t len, size_t *n)
{
    char ip[48];

    fmt_ip(ip, sizeof(ip), e->ipv4, e->lip);
    EMIT("%s%s/%s:%u", sep,
         e->type == E810_QHASH_TYPE_TCP_SYN ? "syn" : "est", ip, e->lport);
    if (e->type == E810_QHASH_TYPE_TCP_ESTABLISHED) {
        fmt_ip(ip, sizeof(ip), e->ipv4, e->rip);
        EMIT("-%s:%u", ip, e->rport);
    }
    if (e->vlan_valid) {
        EMIT("/vlan%u", e->vlan);
    }
    EMIT("/qp%u", e->qpn);
    return 0;
}

static int fmt_tables(E810Core *core, char *buf, size_t len, size_t *n)
{
    E810Iwarp *iw = &core->rdma.iw;
    const E810IwStats *st = &iw->stats;
    unsigned i, first;

    EMIT("mode=%s apbvt=%u qhash=%u apbvt_adds=%" PRIu64 " apbvt_dels=%"
         PRIu64 " apbvt_dup_adds=%" PRIu64 " apbvt_missing_dels=%" PRIu64
         " qhash_adds=%" PRIu64 " qhash_dels=%" PRIu64 " qhash_mods=%" PRIu64
         " qhash_refused=%" PRIu64 " rx_to_ilq=%" PRIu64 " rx_to_engine=%"
         PRIu64 " rx_engine_drops=%" PRIu64 " ilq_rx=%" PRIu64 " ilq_rx_data=%" PRIu64
         " ilq_rx_dropped=%" PRIu64 " ilq_tx=%"
         PRIu64 " ilq_tx_loopback=%" PRIu64 " ilq_tx_errors=%" PRIu64,
         !core->rdma.cqp.created ? "none" :
         e810_iw_mode(core) ? "iwarp" : "roce", iw->apbvt_count,
         iw->qhash_count, st->apbvt_adds, st->apbvt_dels, st->apbvt_dup_adds,
         st->apbvt_missing_dels, st->qhash_adds, st->qhash_dels,
         st->qhash_mods, st->qhash_refused, st->rx_to_ilq, st->rx_to_engine,
         st->rx_engine_drops,
         st->ilq_rx, st->ilq_rx_data, st->ilq_rx_dropped, st->ilq_tx,
         st->ilq_tx_loopback, st->ilq_tx_errors);
    /*
     * The entries: "apbvt_ports=p,p,..." and "qhash_entries=e,e,...". The
     * 65536-port table is walked a word at a time: a few ports are set.
     */
    EMIT(" apbvt_ports=");
    first = 1;
    for (i = 0; i < E810_APBVT_PORTS / 64; i++) {
        uint64_t w = iw->apbvt[i];

        while (w) {
            EMIT("%s%u", first ? "" : ",", i * 64 + __builtin_ctzll(w));
            first = 0;
            w &= w - 1;
        }
    }
    EMIT(" qhash_entries=");
    for (i = 0, first = 1; i < E810_QHASH_MAX; i++) {
        if (iw->qhash[i].valid) {
            if (fmt_entry(&iw->qhash[i], first ? "" : ",", buf, len, n) < 0) {
                return -1;
            }
            first = 0;
        }
    }
    return 0;
}

int e810_iw_format_tables(E810Core *core, char *buf, size_t len)
{
    size_t n = 0;

    if (fmt_tables(core, buf, len, &n) < 0) {
        return -1;
    }
    if (len) {
        buf[n < len ? n : len - 1] = '\0';
    }
    return n;
}
