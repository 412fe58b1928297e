/*
 * RoCEv2 headers (e810_roce_pkt.c): build/parse round trips for every
 * opcode and L2/L3 shape, malformed frames refused with the right reason,
 * and, through the device core, dropped and counted by the engine (never
 * handed to a LAN queue) while the PE filter is on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "aq_driver.h"
#include "model_harness.h"
#include "e810_icrc.h"
#include "e810_roce_pkt.h"
#include "e810_xport.h"

static const uint8_t all_ops[] = {
    E810_BTH_RC_SEND_FIRST, E810_BTH_RC_SEND_MIDDLE, E810_BTH_RC_SEND_LAST,
    E810_BTH_RC_SEND_LAST_IMM, E810_BTH_RC_SEND_ONLY,
    E810_BTH_RC_SEND_ONLY_IMM, E810_BTH_RC_WRITE_FIRST,
    E810_BTH_RC_WRITE_MIDDLE, E810_BTH_RC_WRITE_LAST,
    E810_BTH_RC_WRITE_LAST_IMM, E810_BTH_RC_WRITE_ONLY,
    E810_BTH_RC_WRITE_ONLY_IMM, E810_BTH_RC_READ_REQ,
    E810_BTH_RC_READ_RESP_FIRST, E810_BTH_RC_READ_RESP_MIDDLE,
    E810_BTH_RC_READ_RESP_LAST, E810_BTH_RC_READ_RESP_ONLY,
    E810_BTH_RC_ACK, E810_BTH_RC_SEND_LAST_INV, E810_BTH_RC_SEND_ONLY_INV,
    E810_BTH_UD_SEND_ONLY, E810_BTH_UD_SEND_ONLY_IMM,
};

static uint8_t frame[E810_ROCE_MAX_FRAME + 64];

static void random_pkt(E810RocePkt *p, uint8_t op, unsigned n)
{
    unsigned i;

    memset(p, 0, sizeof(*p));
    for (i = 0; i < 6; i++) {
        p->dmac[i] = rand();
        p->smac[i] = rand();
    }
    p->dmac[0] &= ~1;
    p->vlan = n & 1;
    p->tci = rand();
    p->ipv4 = n & 2;
    p->tclass = rand();
    p->hop_limit = rand();
    if (!p->ipv4) {
        p->flow_label = rand() & 0xfffff;
    }
    for (i = 0; i < 4; i++) {
        p->sip[i] = p->ipv4 && i < 3 ? 0 : (uint32_t)rand();
        p->dip[i] = p->ipv4 && i < 3 ? 0 : (uint32_t)rand();
    }
    p->sport = rand();
    p->opcode = op;
    p->se = n & 4;
    p->mig = n & 8;
    p->pkey = rand();
    p->becn = n & 16;
    p->dqpn = rand() & 0xffffff;
    p->ackreq = n & 32;
    p->psn = rand() & 0xffffff;
    p->qkey = rand();
    p->sqpn = rand() & 0xffffff;
    p->va = (uint64_t)rand() << 33 ^ rand();
    p->rkey = rand();
    p->dma_len = rand();
    p->syndrome = rand();
    p->msn = rand() & 0xffffff;
    p->imm = rand();
    p->ieth = rand();
}

/* The fields the opcode carries survive a round trip. */
static void check_same(const E810RocePkt *a, const E810RocePkt *b)
{
    unsigned f = e810_roce_op_flags(a->opcode);

    assert_memory_equal(a->dmac, b->dmac, 6);
    assert_memory_equal(a->smac, b->smac, 6);
    assert_int_equal(a->vlan, b->vlan);
    if (a->vlan) {
        assert_int_equal(a->tci, b->tci);
    }
    assert_int_equal(a->ipv4, b->ipv4);
    assert_int_equal(a->tclass, b->tclass);
    assert_int_equal(a->hop_limit, b->hop_limit);
    assert_int_equal(a->flow_label, b->flow_label);
    assert_memory_equal(a->sip, b->sip, sizeof(a->sip));
    assert_memory_equal(a->dip, b->dip, sizeof(a->dip));
    assert_int_equal(a->sport, b->sport);
    assert_int_equal(a->opcode, b->opcode);
    assert_int_equal(a->se, b->se);
    assert_int_equal(a->mig, b->mig);
    assert_int_equal(a->pad, b->pad);
    assert_int_equal(a->pkey, b->pkey);
    assert_int_equal(a->becn, b->becn);
    assert_int_equal(a->dqpn, b->dqpn);
    assert_int_equal(a->ackreq, b->ackreq);
    assert_int_equal(a->psn, b->psn);
    if (f & E810_OPF_DETH) {
        assert_int_equal(a->qkey, b->qkey);
        assert_int_equal(a->sqpn, b->sqpn);
    }
    if (f & E810_OPF_RETH) {
        assert_true(a->va == b->va);
        assert_int_equal(a->rkey, b->rkey);
        assert_int_equal(a->dma_len, b->dma_len);
    }
    if (f & E810_OPF_AETH) {
        assert_int_equal(a->syndrome, b->syndrome);
        assert_int_equal(a->msn, b->msn);
    }
    if (f & E810_OPF_IMM) {
        assert_int_equal(a->imm, b->imm);
    }
    if (f & E810_OPF_IETH) {
        assert_int_equal(a->ieth, b->ieth);
    }
}

static void test_round_trip_all_opcodes(void **state)
{
    unsigned i, n;

    srand(3);
    for (i = 0; i < sizeof(all_ops); i++) {
        for (n = 0; n < 64; n++) {
            E810RocePkt p, q;
            uint32_t paylen = 0, k;
            size_t hl, len;

            random_pkt(&p, all_ops[i], n);
            if (e810_roce_op_flags(p.opcode) & E810_OPF_PAYLOAD) {
                paylen = n < 8 ? n : (uint32_t)rand() % (E810_ROCE_MAX_MTU + 1);
            }
            hl = e810_roce_hdr_len(&p);
            for (k = 0; k < paylen; k++) {
                frame[hl + k] = k * 7 + n;
            }
            len = e810_roce_finish(&p, frame, paylen, true);
            assert_int_equal(len % 2, 0);   /* payload padded to 4 */
            assert_true(e810_roce_is_rocev2(frame, len));
            assert_int_equal(e810_roce_parse(frame, len, &q, true),
                             E810_ROCE_OK);
            check_same(&p, &q);
            assert_int_equal(q.paylen, paylen);
            assert_ptr_equal(q.payload, frame + hl);
            /* Ethernet padding after the packet is ignored. */
            memset(frame + len, 0xee, 32);
            assert_int_equal(e810_roce_parse(frame, len + 32, &q, true),
                             E810_ROCE_OK);
            assert_int_equal(q.paylen, paylen);
        }
    }
}

/* A valid frame to break in the tests below: IPv4 SEND_ONLY, 100 bytes. */
static size_t good_frame(uint8_t *f, E810RocePkt *p)
{
    size_t hl;

    srand(5);
    random_pkt(p, E810_BTH_RC_SEND_ONLY, 2);
    hl = e810_roce_hdr_len(p);
    memset(f + hl, 0x3c, 100);
    return e810_roce_finish(p, f, 100, true);
}

/* Recomputes the ICRC after a deliberate header change. */
static void fix_icrc(uint8_t *f, size_t len)
{
    uint32_t c = e810_icrc(f + 14, len - 14 - 4, true);

    f[len - 4] = c;
    f[len - 3] = c >> 8;
    f[len - 2] = c >> 16;
    f[len - 1] = c >> 24;
}

static void test_malformed_refused(void **state)
{
    uint8_t f[512];
    E810RocePkt p, q;
    size_t len = good_frame(f, &p), i;
    uint16_t csum;

    assert_int_equal(e810_roce_parse(f, len, &q, true), E810_ROCE_OK);
    /* Every truncation is refused (IP length says more than there is). */
    for (i = 0; i < len; i++) {
        assert_int_not_equal(e810_roce_parse(f, i, &q, true), E810_ROCE_OK);
    }
    /* Payload bit flip: ICRC. */
    f[len - 10] ^= 0x80;
    assert_int_equal(e810_roce_parse(f, len, &q, true), E810_ROCE_BAD_ICRC);
    assert_int_equal(e810_roce_parse(f, len, &q, false), E810_ROCE_OK);
    f[len - 10] ^= 0x80;
    /* ICRC itself wrong. */
    f[len - 1] ^= 1;
    assert_int_equal(e810_roce_parse(f, len, &q, true), E810_ROCE_BAD_ICRC);
    f[len - 1] ^= 1;
    /* IPv4 header checksum wrong (the ICRC does not cover it). */
    f[14 + 10] ^= 0x11;
    assert_int_equal(e810_roce_parse(f, len, &q, true), E810_ROCE_BAD_IP);
    f[14 + 10] ^= 0x11;
    /* IP options (IHL 6). */
    f[14] = 0x46;
    assert_int_equal(e810_roce_parse(f, len, &q, true), E810_ROCE_BAD_IP);
    f[14] = 0x45;
    /* UDP length disagreeing with IP. */
    f[34 + 5] += 4;
    fix_icrc(f, len);
    assert_int_equal(e810_roce_parse(f, len, &q, true), E810_ROCE_BAD_UDP);
    f[34 + 5] -= 4;
    /* Another UDP port: not ours at all. */
    f[34 + 3] ^= 1;
    assert_false(e810_roce_is_rocev2(f, len));
    assert_int_equal(e810_roce_parse(f, len, &q, true), E810_ROCE_NOT_ROCE);
    f[34 + 3] ^= 1;
    /* BTH transport version 1. */
    f[42 + 1] |= 1;
    fix_icrc(f, len);
    assert_int_equal(e810_roce_parse(f, len, &q, true), E810_ROCE_BAD_VERSION);
    f[42 + 1] &= ~1;
    /* Opcodes the engine does not speak (atomics, UC, reserved). */
    for (i = 0; i < 256; i++) {
        f[42] = i;
        fix_icrc(f, len);
        if (!e810_roce_op_flags(i)) {
            assert_int_equal(e810_roce_parse(f, len, &q, true),
                             E810_ROCE_BAD_OPCODE);
        }
    }
    f[42] = E810_BTH_RC_SEND_ONLY;
    /* Pad count larger than the payload: ACK with pad 3. */
    f[42] = E810_BTH_RC_ACK;
    fix_icrc(f, len);
    assert_int_equal(e810_roce_parse(f, len, &q, true), E810_ROCE_BAD_LEN);
    f[42] = E810_BTH_RC_SEND_ONLY;
    fix_icrc(f, len);
    assert_int_equal(e810_roce_parse(f, len, &q, true), E810_ROCE_OK);
    /* The IP checksum is right again after all the undoing. */
    csum = f[24] << 8 | f[25];
    assert_int_not_equal(csum, 0);
}

/* A payload beyond the largest MTU is refused. */
static void test_oversize_payload(void **state)
{
    static uint8_t big[E810_ROCE_MAX_FRAME + 64];
    E810RocePkt p, q;
    size_t len;

    random_pkt(&p, E810_BTH_RC_SEND_MIDDLE, 2);
    memset(big + e810_roce_hdr_len(&p), 1, E810_ROCE_MAX_MTU + 4);
    len = e810_roce_finish(&p, big, E810_ROCE_MAX_MTU + 4, true);
    assert_int_equal(e810_roce_parse(big, len, &q, true), E810_ROCE_BAD_LEN);
}

static Harness *pe_harness(void)
{
    Harness *h = harness_new(0);

    assert_non_null(h);
    h->core.aq.pe_filter = true;    /* what ADD_VSI with PE_FLTR_EN sets */
    return h;
}

/* 0x0211 PE_FLTR_EN on or off, as ice_vsi_cfg_rdma / irdma set it. */
static void set_pe_filter(Harness *h, AqDriver *aq, uint16_t vsi, bool on)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_UPDATE_VSI);
    struct e810_aqc_add_update_free_vsi *c = (void *)d.params.raw;
    struct e810_aqc_vsi_props props;

    memset(&props, 0, sizeof(props));
    props.valid_sections = htole16(E810_AQ_VSI_PROP_Q_OPT_VALID);
    props.q_opt_rss = FIELD_PREP(E810_AQ_VSI_Q_OPT_RSS_LUT,
                                 E810_AQ_VSI_Q_OPT_RSS_LUT_PF);
    props.q_opt_flags = on ? E810_AQ_VSI_Q_OPT_PE_FLTR_EN : 0;
    c->vsi_num = htole16(vsi | E810_AQ_VSI_IS_VALID);
    assert_int_equal(aq_send(h, aq, &d, &props, sizeof(props)),
                     E810_AQ_RC_OK);
    assert_int_equal(h->core.aq.pe_filter, on);
}

/* Through the core: malformed RoCE frames are dropped and counted. */
static void test_core_drops_and_counts(void **state)
{
    Harness *h = pe_harness();
    E810XportStats *st = &h->core.xport->stats;
    uint8_t f[512];
    E810RocePkt p;
    size_t len = good_frame(f, &p);
    uint64_t lan_drop, no_dest;
    AqDriver aq;
    uint16_t vsi;

    /* The PF VSI with its MAC filters (the switch gives LAN queues only
     * what a rule takes), then the PE filter on it. */
    aq_init(h, &aq);
    vsi = aq_add_pf_vsi_and_mac_rules(h, &aq, h->core.mac, 1);
    set_pe_filter(h, &aq, vsi, true);
    lan_drop = h->core.lan.stats.rx_dropped;
    no_dest = h->core.lan.stats.rx_no_dest;

    memcpy(f, h->core.mac, 6);
    fix_icrc(f, len);
    /* A good frame for a QP that does not exist. */
    assert_int_equal(e810_core_receive(&h->core, f, len), len);
    assert_int_equal(st->rx_packets, 1);
    assert_int_equal(st->rx_bad_qp, 1);
    /* Bad ICRC. */
    f[len - 1] ^= 0xff;
    assert_int_equal(e810_core_receive(&h->core, f, len), len);
    assert_int_equal(st->rx_drop[E810_ROCE_BAD_ICRC], 1);
    f[len - 1] ^= 0xff;
    /* Truncated UDP (IP total length larger than the frame). */
    assert_int_equal(e810_core_receive(&h->core, f, 50), 50);
    assert_int_equal(st->rx_drop[E810_ROCE_BAD_IP], 1);
    /* None of it reached the LAN path. */
    assert_int_equal(h->core.lan.stats.rx_dropped, lan_drop);
    assert_int_equal(h->core.lan.stats.rx_no_dest, no_dest);
    assert_int_equal(st->rx_packets, 1);
    /* Another station's MAC: not ours, left to the LAN, whose switch
     * has no rule for it (dropped there). */
    f[5] ^= 0x40;
    e810_core_receive(&h->core, f, len);
    assert_int_equal(h->core.lan.stats.rx_no_dest, no_dest + 1);
    f[5] ^= 0x40;
    /* PE filter off: RoCE frames are plain LAN traffic; the MAC rule
     * takes it to queue 0, which is not enabled (dropped there). */
    set_pe_filter(h, &aq, vsi, false);
    e810_core_receive(&h->core, f, len);
    assert_int_equal(h->core.lan.stats.rx_dropped, lan_drop + 1);
    assert_int_equal(h->core.lan.stats.rx_no_dest, no_dest + 1);
    assert_int_equal(st->rx_packets, 1);
    harness_free(h);
}

/* Random bytes after a valid Ethernet/IP/UDP prefix never crash. */
static void test_core_random_frames(void **state)
{
    Harness *h = pe_harness();
    E810XportStats *st = &h->core.xport->stats;
    uint8_t f[512];
    E810RocePkt p;
    size_t len = good_frame(f, &p);
    uint64_t drops = 0;
    unsigned n, i;

    memcpy(f, h->core.mac, 6);
    srand(9);
    for (n = 0; n < 2000; n++) {
        uint8_t g[512];
        size_t l = 42 + rand() % (len - 42 + 1);

        memcpy(g, f, len);
        for (i = 42; i < l; i++) {
            g[i] = rand();
        }
        e810_core_receive(&h->core, g, l);
    }
    for (i = 0; i < E810_ROCE_ERR_MAX; i++) {
        drops += st->rx_drop[i];
    }
    /* Random BTHs essentially never carry a valid ICRC. */
    assert_true(drops + st->rx_packets == 2000);
    assert_true(drops >= 1990);
    harness_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_all_opcodes),
        cmocka_unit_test(test_malformed_refused),
        cmocka_unit_test(test_oversize_payload),
        cmocka_unit_test(test_core_drops_and_counts),
        cmocka_unit_test(test_core_random_frames),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_roce_pkt", tests, NULL, NULL);
}
