/*
 * Device model: iWARP mode (docs/hw-model.md, "iWARP mode"): the mode from
 * the CQP context, iWARP QPs, the APBVT and quad hash tables.
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

#include "e810_core.h"
#include "e810_iwarp.h"
#include "b2b.h"

#define LPORT   7174
#define RPORT   40000

typedef struct Iw {
    B2B *b;
} Iw;

static int setup(void **state)
{
    Iw *t = calloc(1, sizeof(*t));

    rd_protocol = E810_PROTOCOL_IWARP_ONLY;
    t->b = b2b_new(0);
    rd_protocol = E810_PROTOCOL_ROCE_ONLY;
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    Iw *t = *state;

    b2b_free(t->b);
    free(t);
    return 0;
}

static RdmaCompl apbvt(DpDev *d, uint16_t port, bool add)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_MAPT_PORT_OFF)] = port;
    return rd_exec(&d->d, E810_CQP_OP_MANAGE_APBVT,
                   add ? E810_CQPSQ_MAPT_ADDPORT : 0, q);
}

/* A quad hash op for IPv4 (as upstream irdma_sc_manage_qhash_table_entry()
 * lays it out): local @lip:@lport; remote @rip:@rport for ESTABLISHED. */
static RdmaCompl qhash(DpDev *d, unsigned manage, unsigned type,
                       uint32_t lip, uint16_t lport, uint32_t rip,
                       uint16_t rport, uint32_t qpn)
{
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_QHASH_PORTS_OFF)] =
        FIELD_PREP(E810_CQPSQ_QHASH_QPN, qpn) |
        FIELD_PREP(E810_CQPSQ_QHASH_DEST_PORT, lport) |
        FIELD_PREP(E810_CQPSQ_QHASH_SRC_PORT, rport);
    q[E810_QW(E810_CQPSQ_QHASH_LIP23_OFF)] = lip;
    q[E810_QW(E810_CQPSQ_QHASH_RIP23_OFF)] = rip;
    return rd_exec(&d->d, E810_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY,
                   FIELD_PREP(E810_CQPSQ_QHASH_MANAGE, manage) |
                   FIELD_PREP(E810_CQPSQ_QHASH_ENTRYTYPE, type) |
                   E810_CQPSQ_QHASH_IPV4VALID, q);
}

/* ---- mode --------------------------------------------------------------- */

static void test_mode_from_cqp_context(void **state)
{
    Iw *t = *state;
    Harness *h = harness_new(0);
    RdmaDriver d;

    /* the devices of setup ran with PROTOCOL_USED 1 */
    assert_true(e810_iw_mode(&t->b->h[0]->core));
    /* RoCEv2 (2) and "any" (0) are not iWARP; 3 is refused */
    rd_init(h, &d, 64);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    assert_false(e810_iw_mode(&h->core));
    rd_cqp_destroy(&d);
    assert_false(h->core.rdma.cqp.created);
    rd_cqp_ctx(&d)[0] |= htole64(E810_CQPHC_PROTOCOL_USED);
    assert_int_equal(rd_cqp_create(&d) & E810_CCQPSTATUS_CCQP_ERR,
                     E810_CCQPSTATUS_CCQP_ERR);
    assert_false(h->core.rdma.cqp.created);
    harness_free(h);
}

/* ---- APBVT -------------------------------------------------------------- */

static void test_apbvt(void **state)
{
    Iw *t = *state;
    DpDev *d = &t->b->dev[0];
    E810Iwarp *iw = &t->b->h[0]->core.rdma.iw;

    assert_false(apbvt(d, LPORT, true).error);
    assert_true(e810_apbvt_has(&t->b->h[0]->core, LPORT));
    assert_false(e810_apbvt_has(&t->b->h[0]->core, LPORT + 1));
    /* a bitmap: a second add and a delete of a port not set are no-ops */
    assert_false(apbvt(d, LPORT, true).error);
    assert_int_equal(iw->apbvt_count, 1);
    assert_int_equal(iw->stats.apbvt_dup_adds, 1);
    assert_false(apbvt(d, LPORT, false).error);
    assert_false(e810_apbvt_has(&t->b->h[0]->core, LPORT));
    assert_false(apbvt(d, LPORT, false).error);
    assert_int_equal(iw->stats.apbvt_missing_dels, 1);
    assert_int_equal(iw->apbvt_count, 0);
}

/* ---- quad hash ---------------------------------------------------------- */

static void test_qhash_table(void **state)
{
    Iw *t = *state;
    DpDev *d = &t->b->dev[0];
    E810Core *c = &t->b->h[0]->core;
    uint32_t l[4] = { 0, 0, 0, B2B_IP(0) }, r[4] = { 0, 0, 0, B2B_IP(1) };
    uint32_t other[4] = { 0, 0, 0, B2B_IP(5) };
    const E810Qhash *e;

    assert_false(qhash(d, E810_QHASH_MANAGE_ADD, E810_QHASH_TYPE_TCP_SYN,
                       B2B_IP(0), LPORT, 0, 0, E810_ILQ_QPN).error);
    /* the same key twice, a key not there: refused */
    assert_int_equal(qhash(d, E810_QHASH_MANAGE_ADD, E810_QHASH_TYPE_TCP_SYN,
                           B2B_IP(0), LPORT, 0, 0, E810_ILQ_QPN).minor,
                     E810_CQP_MIN_BAD_STATE);
    assert_int_equal(qhash(d, E810_QHASH_MANAGE_DELETE,
                           E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                           B2B_IP(1), RPORT, E810_ILQ_QPN).minor,
                     E810_CQP_MIN_BAD_STATE);
    /* entry types other than TCP, MANAGE 3, a QPN out of range */
    assert_int_equal(qhash(d, E810_QHASH_MANAGE_ADD, 3, B2B_IP(0), LPORT, 0,
                           0, E810_ILQ_QPN).minor, E810_CQP_MIN_BAD_PARAM);
    assert_int_equal(qhash(d, 3, E810_QHASH_TYPE_TCP_SYN, B2B_IP(0), LPORT,
                           0, 0, E810_ILQ_QPN).minor, E810_CQP_MIN_BAD_PARAM);
    assert_true(e810_hmc_count(c, E810_HMC_QP) < 1u << 18);
    assert_int_equal(qhash(d, E810_QHASH_MANAGE_ADD,
                           E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                           B2B_IP(1), RPORT,
                           e810_hmc_count(c, E810_HMC_QP)).minor,
                     E810_CQP_MIN_BAD_INDEX);
    assert_int_equal(c->rdma.iw.qhash_count, 1);
    assert_int_equal(c->rdma.iw.stats.qhash_refused, 5);

    assert_false(qhash(d, E810_QHASH_MANAGE_ADD,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, E810_ILQ_QPN).error);
    /* the connection entry first, else the listener's */
    e = e810_qhash_lookup(c, true, l, LPORT, r, RPORT, false, 0);
    assert_non_null(e);
    assert_int_equal(e->type, E810_QHASH_TYPE_TCP_ESTABLISHED);
    e = e810_qhash_lookup(c, true, l, LPORT, r, RPORT + 1, false, 0);
    assert_non_null(e);
    assert_int_equal(e->type, E810_QHASH_TYPE_TCP_SYN);
    assert_null(e810_qhash_lookup(c, true, other, LPORT, r, RPORT, false, 0));
    assert_null(e810_qhash_lookup(c, true, l, LPORT + 1, r, RPORT, false, 0));
    assert_null(e810_qhash_lookup(c, false, l, LPORT, r, RPORT, false, 0));
    /* MODIFY re-points an entry */
    assert_false(qhash(d, E810_QHASH_MANAGE_MODIFY,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, 12).error);
    assert_int_equal(e810_qhash_lookup(c, true, l, LPORT, r, RPORT, false,
                                       0)->qpn, 12);
    assert_false(qhash(d, E810_QHASH_MANAGE_DELETE,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, 0).error);
    assert_false(qhash(d, E810_QHASH_MANAGE_DELETE, E810_QHASH_TYPE_TCP_SYN,
                       B2B_IP(0), LPORT, 0, 0, 0).error);
    assert_int_equal(c->rdma.iw.qhash_count, 0);
}

static void test_qhash_ipv6_vlan(void **state)
{
    Iw *t = *state;
    DpDev *d = &t->b->dev[0];
    E810Core *c = &t->b->h[0]->core;
    uint32_t l[4] = { 0xfe800000, 0, 0x02000000, 0x00000001 };
    uint32_t r[4] = { 0 };
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_QHASH_PORTS_OFF)] =
        FIELD_PREP(E810_CQPSQ_QHASH_QPN, E810_ILQ_QPN) |
        FIELD_PREP(E810_CQPSQ_QHASH_DEST_PORT, LPORT);
    q[E810_QW(E810_CQPSQ_QHASH_LIP01_OFF)] = (uint64_t)l[0] << 32 | l[1];
    q[E810_QW(E810_CQPSQ_QHASH_LIP23_OFF)] = (uint64_t)l[2] << 32 | l[3];
    q[E810_QW(E810_CQPSQ_QHASH_QS_OFF)] =
        FIELD_PREP(E810_CQPSQ_QHASH_VLANID, 100);
    assert_false(rd_exec(&d->d, E810_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY,
                         FIELD_PREP(E810_CQPSQ_QHASH_MANAGE,
                                    E810_QHASH_MANAGE_ADD) |
                         FIELD_PREP(E810_CQPSQ_QHASH_ENTRYTYPE,
                                    E810_QHASH_TYPE_TCP_SYN) |
                         E810_CQPSQ_QHASH_VLANVALID, q).error);
    /* the VLAN of the entry must be the frame's (priority bits aside) */
    assert_non_null(e810_qhash_lookup(c, false, l, LPORT, r, 1, true,
                                      0x2000 | 100));
    assert_null(e810_qhash_lookup(c, false, l, LPORT, r, 1, true, 101));
    assert_null(e810_qhash_lookup(c, false, l, LPORT, r, 1, false, 0));
}

static void test_qhash_refused_in_roce_mode(void **state)
{
    Harness *h = harness_new(0);
    DpDev d;

    dp_dev_init(&d, h);
    assert_int_equal(qhash(&d, E810_QHASH_MANAGE_ADD, E810_QHASH_TYPE_TCP_SYN,
                           B2B_IP(0), LPORT, 0, 0, E810_ILQ_QPN).minor,
                     E810_CQP_MIN_BAD_STATE);
    harness_free(h);
}

/* An iWARP QP destroyed with REMOVEHASHENTRY takes its connection entry. */
static void test_destroy_removes_hash_entry(void **state)
{
    Iw *t = *state;
    DpDev *d = &t->b->dev[0];
    DpCq cq;
    DpQp qp;

    dp_cq_create(d, &cq, 16);
    dp_qp_create(d, &qp, E810_QP_TYPE_IWARP, &cq, &cq, 32, 8, 0, false,
                 false);
    b2b_ctx_rmw(&qp, E810_QPC_SIZES_OFF,
                E810_QPC_SRCPORTNUM | E810_QPC_DESTPORTNUM,
                FIELD_PREP(E810_QPC_SRCPORTNUM, LPORT) |
                FIELD_PREP(E810_QPC_DESTPORTNUM, RPORT));
    b2b_ctx_rmw(&qp, E810_QPC_LOCALIP23_OFF, 0xffffffffull, B2B_IP(0));
    b2b_ctx_rmw(&qp, E810_QPC_DESTIP23_OFF, 0xffffffffull, B2B_IP(1));
    assert_true(dp_qp_modify(&qp, E810_QP_STATE_IDLE));
    /* RTS is the offloaded connection's: not taken (yet) */
    assert_false(dp_qp_modify(&qp, E810_QP_STATE_RTS));
    assert_int_equal(dp_model_qp(&qp)->state, E810_QP_STATE_IDLE);
    assert_false(qhash(d, E810_QHASH_MANAGE_ADD,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, E810_ILQ_QPN).error);
    assert_false(qhash(d, E810_QHASH_MANAGE_ADD, E810_QHASH_TYPE_TCP_SYN,
                       B2B_IP(0), LPORT, 0, 0, E810_ILQ_QPN).error);
    assert_true(rd_do(&d->d, E810_CQP_OP_DESTROY_QP,
                      FIELD_PREP(E810_CQPSQ_QP_QPID, qp.id) |
                      FIELD_PREP(E810_CQPSQ_QP_QPTYPE, E810_QP_TYPE_IWARP) |
                      E810_CQPSQ_QP_REMOVEHASHENTRY, NULL));
    /* the listener's entry stays */
    assert_int_equal(t->b->h[0]->core.rdma.iw.qhash_count, 1);
}

static void test_format_tables(void **state)
{
    Iw *t = *state;
    DpDev *d = &t->b->dev[0];
    E810Core *c = &t->b->h[0]->core;
    char buf[1024];

    assert_false(apbvt(d, LPORT, true).error);
    assert_false(apbvt(d, 80, true).error);
    assert_false(qhash(d, E810_QHASH_MANAGE_ADD, E810_QHASH_TYPE_TCP_SYN,
                       B2B_IP(0), LPORT, 0, 0, E810_ILQ_QPN).error);
    assert_false(qhash(d, E810_QHASH_MANAGE_ADD,
                       E810_QHASH_TYPE_TCP_ESTABLISHED, B2B_IP(0), LPORT,
                       B2B_IP(1), RPORT, E810_ILQ_QPN).error);
    assert_int_equal(e810_iw_format_tables(c, NULL, 0),
                     e810_iw_format_tables(c, buf, sizeof(buf)));
    assert_non_null(strstr(buf, "mode=iwarp apbvt=2 qhash=2 "));
    assert_non_null(strstr(buf, " apbvt_ports=80,7174 "));
    assert_non_null(strstr(buf, " qhash_entries=syn/10.0.0.1:7174/qp1,"
                                "est/10.0.0.1:7174-10.0.0.2:40000/qp1"));
    /* a short buffer gets what fits, terminated */
    assert_true(e810_iw_format_tables(c, buf, 10) > 10);
    assert_int_equal(strlen(buf), 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mode_from_cqp_context, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_apbvt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_qhash_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_qhash_ipv6_vlan, setup,
                                        teardown),
        cmocka_unit_test(test_qhash_refused_in_roce_mode),
        cmocka_unit_test_setup_teardown(test_destroy_removes_hash_entry,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_format_tables, setup, teardown),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_iwarp", tests, NULL, NULL);
}
