/*
 * Device model: the X722's RDMA protocol engine (irdma GEN_1,
 * qemu-device/model/x722_rdma.c) driven through the X722's BAR0 as the
 * stock irdma's GEN_1 open drives it (irdma_ctrl_init_hw(): CQP create,
 * QUERY/COMMIT_FPM_VAL, UPDATE_PE_SDS, the CCQ, CEQ 0 and its interrupt
 * linking, the local MAC table, MANAGE_ARP), with the GEN_1 field
 * positions of include/hw/e810_gen.h, and what the device refuses.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "x722_pe_rig.h"
#include "e810_iw_conn.h"
#include "e810_iwarp.h"
#include "hw/e810_ctx.h"
#include "hw/e810_gen.h"

static int setup(void **state)
{
    Pe *p = calloc(1, sizeof(*p));

    if (!p || xr_init(&p->r)) {
        return -1;
    }
    *state = p;
    return 0;
}

static int teardown(void **state)
{
    Pe *p = *state;

    xr_fini(&p->r);
    free(p);
    return 0;
}

/* ---- the control QP ---- */

static void test_cqp_create_gen1(void **state)
{
    Pe *p = *state;

    pe_ctx(p, E810_CQPHC_HW_MAJVER_GEN_1, 0);
    assert_int_equal(pe_create(p), E810_CCQPSTATUS_CCQP_DONE);
    assert_int_equal(xr_rd(&p->r, X722_PE_CQPTAIL), 0);
    assert_int_equal(xr_rd(&p->r, X722_PE_CQPERRCODES), 0);
    assert_true(p->r.core.pe->rdma.cqp.protocol == E810_PROTOCOL_IWARP_ONLY);
    /* Destroy: 0:0, DONE clears (irdma_sc_cqp_destroy()). */
    xr_wr(&p->r, X722_PE_CCQPHIGH, 0);
    xr_wr(&p->r, X722_PE_CCQPLOW, 0);
    x722_core_run_work(&p->r.core);
    assert_int_equal(xr_rd(&p->r, X722_PE_CCQPSTATUS), 0);
}

static void test_cqp_create_refused(void **state)
{
    Pe *p = *state;

    /* A GEN_2 context (HW_MAJVER 1) on the X722. */
    pe_ctx(p, E810_CQPHC_HW_MAJVER_GEN_2, 0);
    assert_int_equal(pe_create(p), E810_CCQPSTATUS_CCQP_ERR);
    assert_int_equal(xr_rd(&p->r, X722_PE_CQPERRCODES) & 0xffff,
                     E810_CQP_MIN_BAD_VERSION);
    /* GEN_1 has no protocol field: a value in it is refused. */
    pe_ctx(p, E810_CQPHC_HW_MAJVER_GEN_1, E810_PROTOCOL_ROCE_ONLY);
    assert_int_equal(pe_create(p), E810_CCQPSTATUS_CCQP_ERR);
    assert_int_equal(xr_rd(&p->r, X722_PE_CQPERRCODES) & 0xffff,
                     E810_CQP_MIN_BAD_PARAM);
    /* Unreadable host context */
    xr_wr(&p->r, X722_PE_CCQPHIGH, 0x7fff);
    xr_wr(&p->r, X722_PE_CCQPLOW, 0x1000);
    assert_int_equal(xr_rd(&p->r, X722_PE_CCQPSTATUS),
                     E810_CCQPSTATUS_CCQP_ERR);
    /* A good one still works after the refusals. */
    pe_ctx(p, E810_CQPHC_HW_MAJVER_GEN_1, 0);
    assert_int_equal(pe_create(p), E810_CCQPSTATUS_CCQP_DONE);
}

/* The PF reset takes the engine down with the rest of the function. */
static void test_pf_reset_drops_cqp(void **state)
{
    Pe *p = *state;

    pe_bringup(p);
    xr_wr(&p->r, X722_PFGEN_CTRL, X722_PFGEN_CTRL_PFSWR);
    assert_int_equal(xr_rd(&p->r, X722_PE_CCQPSTATUS), 0);
    assert_false(p->r.core.pe->rdma.cqp.created);
    assert_false(p->r.core.pe->rdma.hmc.committed);
}

/* ---- HMC ---- */

static void test_query_fpm_gen1(void **state)
{
    Pe *p = *state;
    uint64_t v;
    unsigned i;

    pe_ctx(p, E810_CQPHC_HW_MAJVER_GEN_1, 0);
    assert_int_equal(pe_create(p), E810_CCQPSTATUS_CCQP_DONE);
    memset(xr_ptr(&p->r, PE_QUERY), 0xaa, E810_FPM_BUF_SIZE);
    pe_query(p);
    v = m64(p, PE_QUERY + E810_FPM_QUERY_SD_OFF);
    /* The PE's SDs follow the LAN HMC's in the function's table. */
    assert_int_equal(FIELD_GET(E810_FPM_FIRST_PE_SD_INDEX, v),
                     X722_PE_FIRST_SD);
    assert_int_equal(FIELD_GET(E810_FPM_MAX_PE_SDS, v), X722_PE_SDS);
    assert_true((uint32_t)m64(p, PE_QUERY + E810_FPM_QUERY_QP_OFF) > 0);
    /* irdma refuses a zero XF or Q1 block size (-EINVAL) */
    assert_true(FIELD_GET(E810_FPM_BLOCK_SIZE,
                          m64(p, PE_QUERY + E810_FPM_QUERY_XFFL_OFF)) > 0);
    assert_true(FIELD_GET(E810_FPM_BLOCK_SIZE,
                          m64(p, PE_QUERY + E810_FPM_QUERY_Q1FL_OFF)) > 0);
    /* The CQ maximum fits GEN_1's commit count field [17:0]. */
    assert_true((uint32_t)m64(p, PE_QUERY + E810_FPM_QUERY_CQ_OFF) <=
                (uint32_t)(gen1.fpm_commit_cqcnt >>
                           __builtin_ctzll(gen1.fpm_commit_cqcnt)));
    /* No FSIMC / FSIAV on GEN_1, and nothing written past offset 120. */
    assert_true(m64(p, PE_QUERY + E810_FPM_QUERY_FSIMC_OFF) == 0);
    assert_true(m64(p, PE_QUERY + E810_FPM_QUERY_FSIAV_OFF) == 0);
    for (i = E810_FPM_QUERY_LEN_GEN1; i < E810_FPM_BUF_SIZE; i++) {
        assert_int_equal(*xr_ptr(&p->r, PE_QUERY + i), 0xaa);
    }
}

static void test_commit_fpm_gen1(void **state)
{
    Pe *p = *state;
    uint32_t minor;

    pe_ctx(p, E810_CQPHC_HW_MAJVER_GEN_1, 0);
    assert_int_equal(pe_create(p), E810_CCQPSTATUS_CCQP_DONE);
    pe_query(p);
    /* An object GEN_1 does not have is refused. */
    assert_false(pe_commit(p, 1));
    minor = xr_rd(&p->r, X722_PE_CQPERRCODES) & 0xffff;
    assert_int_equal(minor, E810_CQP_MIN_BAD_PARAM);
    assert_false(p->r.core.pe->rdma.hmc.committed);
    assert_true(pe_commit(p, 0));
    /* Bases are addresses in the shared SD space: from SD 16 on. */
    assert_true(p->base[E810_HMC_QP] >=
                (uint64_t)X722_PE_FIRST_SD << E810_HMC_SD_SHIFT);
    assert_true(p->base[E810_HMC_CQ] > p->base[E810_HMC_QP]);
    assert_int_equal(FIELD_GET(gen1.fpm_commit_cqcnt,
                               m64(p, PE_COMMIT +
                                   commit_off[E810_HMC_CQ])), 8);
}

/* UPDATE_PE_SDS may not touch the LAN's SDs; PDINV of them is ignored. */
static void test_sds_shared_with_lan(void **state)
{
    Pe *p = *state;
    unsigned logs;

    pe_ctx(p, E810_CQPHC_HW_MAJVER_GEN_1, 0);
    assert_int_equal(pe_create(p), E810_CCQPSTATUS_CCQP_DONE);
    pe_query(p);
    assert_true(pe_commit(p, 0));
    assert_false(pe_sd(p, 0, PE_PD, false));
    assert_int_equal(xr_rd(&p->r, X722_PE_CQPERRCODES) & 0xffff,
                     E810_CQP_MIN_BAD_INDEX);
    assert_false(pe_sd(p, X722_PE_FIRST_SD + X722_PE_SDS, PE_PD, false));
    assert_true(pe_sd(p, X722_PE_FIRST_SD, PE_PD, false));
    assert_true(p->r.core.pe->rdma.hmc.sd[X722_PE_FIRST_SD].valid);
    logs = p->r.logs;
    xr_wr(&p->r, X722_PFHMC_PDINV, 0 | E810_PFHMC_PDINV_PMSDPARTSEL);
    assert_int_equal(p->r.logs, logs + 1);
    assert_true(p->r.core.stats.pe_reg_writes > 0);
}

/* ---- CCQ, CEQ 0 and the interrupt linking ---- */

static void test_ccq_and_ceq_interrupt(void **state)
{
    Pe *p = *state;
    uint64_t q[8] = { 0 }, ceqe, v;
    bool err;
    uint32_t ret;
    const unsigned vec = 2;

    pe_bringup(p);
    /* CEQ 0 (irdma_sc_ceq_create) */
    memset(xr_ptr(&p->r, PE_CEQ), 0, 64 * E810_CEQE_SIZE);
    q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = 64;
    q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = PE_CEQ;
    assert_true(pe_do(p, E810_CQP_OP_CREATE_CEQ,
                      FIELD_PREP(E810_CQPSQ_CEQ_CEQID, 0), q, NULL));
    /* i40iw_config_ceq(): link list, cause control, then enable. */
    xr_wr(&p->r, X722_PFINT_LNKLSTN(vec - 1), 0 | 2u << 11);
    xr_wr(&p->r, X722_PFINT_CEQCTL(0), vec | 3u << 11 | 0x7ffu << 16 |
          X722_QINT_CAUSE_ENA);
    xr_wr(&p->r, X722_PFINT_DYN_CTLN(vec - 1), X722_DYN_CTL_INTENA |
          3u << 3);
    /* Arm the CCQ (irdma_sc_ccq_arm(): shadow arm word, then CQARM). */
    v = m64(p, PE_CCQ_SHADOW + E810_CQ_DBSA_ARM_OFF);
    s64(p, PE_CCQ_SHADOW + E810_CQ_DBSA_ARM_OFF,
        FIELD_PREP(E810_CQ_DBSA_ARM_SEQ_NUM,
                   FIELD_GET(E810_CQ_DBSA_ARM_SEQ_NUM, v) + 1) |
        E810_CQ_DBSA_ARM_NEXT | E810_CQ_DBSA_ARM_NEXT_SE);
    xr_wr(&p->r, X722_PE_CQARM, 0);
    x722_core_run_work(&p->r.core);
    assert_int_equal(p->r.msix[vec], 0);
    pe_post(p, E810_CQP_OP_NOP, 0, NULL);
    assert_true(pe_ccq_poll(p, &err, &ret, NULL));
    assert_false(err);
    ceqe = m64(p, PE_CEQ);
    assert_true(ceqe & E810_CEQE_VALID);
    assert_true(FIELD_GET(E810_CEQE_CQCTX, ceqe) == PE_CCQ_CTX);
    assert_int_equal(p->r.msix[vec], 1);
    /* The vector fired and is masked until the driver re-arms it. */
    assert_int_equal(xr_rd(&p->r, X722_PFINT_CEQCTL(0)) & 0xff, vec);
}

/* GEN_1 CREATE_CQ fields: CQ id [15:0], CEQ id [30:24]. */
static void test_create_cq_gen1_fields(void **state)
{
    Pe *p = *state;
    uint64_t q[8] = { 0 };

    pe_bringup(p);
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = 32;
    q[E810_QW(E810_CQPSQ_CQ_CTX_OFF)] = 0x1234;
    q[E810_QW(E810_CQPSQ_CQ_THRESH_OFF)] = 16;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = PE_CQ1;
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = PE_CQ1_SHADOW;
    assert_true(pe_do(p, E810_CQP_OP_CREATE_CQ, cq_hdr(1, 5), q, NULL));
    assert_true(p->r.core.pe->rdma.cq[1].valid);
    assert_int_equal(p->r.core.pe->rdma.cq[1].ceq_id, 5);
    /* The CQ count committed is 8: CQ 8 does not exist. */
    assert_false(pe_do(p, E810_CQP_OP_CREATE_CQ, cq_hdr(8, 0), q, NULL));
}

/* ---- GEN_1's operation set ---- */

static void test_gen2_ops_refused(void **state)
{
    Pe *p = *state;
    uint32_t minor;
    bool err;
    uint32_t ret;

    pe_bringup(p);
    pe_post(p, E810_CQP_OP_QUERY_RDMA_FEATURES, 64, NULL);
    assert_true(pe_ccq_poll(p, &err, &ret, &minor));
    assert_true(err);
    assert_int_equal(minor, E810_CQP_MIN_BAD_OPCODE);
    pe_post(p, E810_CQP_OP_GATHER_STATS, 0, NULL);
    assert_true(pe_ccq_poll(p, &err, &ret, &minor));
    assert_true(err);
    assert_int_equal(minor, E810_CQP_MIN_BAD_OPCODE);
}

/* irdma_alloc_local_mac_entry(), irdma_add_local_mac_entry(), ARP. */
static void test_loc_mac_and_arp(void **state)
{
    Pe *p = *state;
    uint64_t q[8] = { 0 };
    uint32_t idx = 99, idx2 = 99;
    const E810Rdma *rd;

    pe_bringup(p);
    rd = &p->r.core.pe->rdma;
    assert_true(pe_do(p, E810_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY, 0, NULL,
                      &idx));
    assert_true(idx < 64);
    q[E810_QW(E810_CQPSQ_MLM_MAC_OFF)] = 0x525400722001ull;
    assert_true(pe_do(p, E810_CQP_OP_MANAGE_LOC_MAC_TABLE,
                      FIELD_PREP(E810_CQPSQ_MLM_TABLEIDX, idx), q, NULL));
    assert_int_equal(rd->loc_mac[idx][5], 0x01);
    assert_int_equal(rd->loc_mac[idx][0], 0x52);
    assert_true(pe_do(p, E810_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY, 0, NULL,
                      &idx2));
    assert_int_not_equal(idx, idx2);
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_MAT_MAC_OFF)] = 0x525400722002ull;
    assert_true(pe_do(p, E810_CQP_OP_MANAGE_ARP,
                      FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, 3) |
                      E810_CQPSQ_MAT_ENTRYVALID, q, NULL));
    assert_true(rd->arp[3].valid);
    /* ARP entries beyond the committed 16 are refused. */
    assert_false(pe_do(p, E810_CQP_OP_MANAGE_ARP,
                       FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, 16) |
                       E810_CQPSQ_MAT_ENTRYVALID, q, NULL));
}

/* x-pe-stats keeps a destroyed CQP's counts (the scenario reads them). */
static void test_stats_survive_destroy(void **state)
{
    Pe *p = *state;
    char buf[512];
    bool err;
    uint32_t ret;

    pe_bringup(p);
    pe_post(p, E810_CQP_OP_GATHER_STATS, 0, NULL);
    assert_true(pe_ccq_poll(p, &err, &ret, NULL));
    assert_true(err);
    x722_rdma_format_stats(&p->r.core, buf, sizeof(buf));
    assert_non_null(strstr(buf, "pe_cqp=1 "));
    assert_non_null(strstr(buf, "pe_cqp_errors=1 "));
    xr_wr(&p->r, X722_PE_CCQPHIGH, 0);
    xr_wr(&p->r, X722_PE_CCQPLOW, 0);
    x722_rdma_format_stats(&p->r.core, buf, sizeof(buf));
    assert_non_null(strstr(buf, "pe_cqp=0 "));
    assert_non_null(strstr(buf, "pe_cqp_errors=1 "));
    assert_non_null(strstr(buf, "pe_hmc_committed=0 "));
    /* a PF reset keeps them too */
    pe_bringup(p);
    xr_wr(&p->r, X722_PFGEN_CTRL, X722_PFGEN_CTRL_PFSWR);
    x722_rdma_format_stats(&p->r.core, buf, sizeof(buf));
    assert_non_null(strstr(buf, "pe_cqp_errors=1 "));
    assert_null(strstr(buf, "pe_cqp_ops=0 "));
}

/* MSIX0_INDX is not the PE's: dropped from a CEQ cause write. */
static void test_ceqctl_msix0_refused(void **state)
{
    Pe *p = *state;
    unsigned logs = p->r.logs;

    xr_wr(&p->r, X722_PFINT_AEQCTL, 3 | 1u << 8 | X722_QINT_CAUSE_ENA);
    assert_int_equal(p->r.logs, logs + 1);
    assert_int_equal(xr_rd(&p->r, X722_PFINT_AEQCTL),
                     3 | X722_QINT_CAUSE_ENA);
}


/* The next CQE of CQ 1, host order, if there is one. */
static bool ilq_cqe(Pe *p, Ilq *l, uint64_t c[4])
{
    uint64_t pa = PE_CQ1 + (uint64_t)l->cq_head * E810_CQE_SIZE;
    unsigned i;

    for (i = 0; i < 4; i++) {
        c[i] = m64(p, pa + 8 * i);
    }
    if (!(c[3] & E810_CQE_VALID)) {
        return false;
    }
    l->cq_head++;
    return true;
}

/* irdma_puda_send(), GEN_1 branch: one frame of @len bytes at ILQ_TXBUF. */
static void ilq_send(Pe *p, Ilq *l, uint32_t len, uint64_t q2)
{
    uint64_t pa = ILQ_SQ + 32ull * l->sq_head++;

    s64(p, pa, ILQ_TXBUF);
    s64(p, pa + 8, FIELD_PREP(gen1.frag_len, len));
    s64(p, pa + 16, q2);
    s64(p, pa + 24, FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
        E810_WQE_SIGCOMPL | E810_WQE_VALID);
    xr_wr(&p->r, X722_PE_WQEALLOC, E810_ILQ_QPN);
    x722_core_run_work(&p->r.core);
}

static uint16_t ilq_csum(uint32_t sum, const uint8_t *b, size_t n)
{
    size_t i;

    for (i = 0; i + 1 < n; i += 2) {
        sum += b[i] << 8 | b[i + 1];
    }
    if (n & 1) {
        sum += b[n - 1] << 8;
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return ~sum & 0xffff;
}

/*
 * The engine's receive path on the X722: with TCP_ENA a SYN to the
 * listener goes into the ILQ as the whole frame (VLAN tag kept), the CQE
 * in GEN_1's format; without TCP_ENA, or to a port not in the APBVT, it is
 * the LAN's.
 */
static void test_ilq_receive_gen1(void **state)
{
    Pe *p = *state;
    const E810IwStats *st;
    uint8_t f[128];
    uint64_t c[4];
    size_t n;
    Ilq l;

    ilq_make(p, &l);
    /* GEN_1 has no WORK_SCHED_NODE: the VSI's queue set is live */
    assert_int_equal(p->r.core.pe->rdma.stats.bad_qs_handles, 0);
    st = &p->r.core.pe->rdma.iw.stats;
    n = ilq_frame(p, f, true, false, 0x02, 0);
    /* TCP_ENA clear: the LAN's (no queue enabled: dropped there) */
    assert_int_equal(x722_core_receive(&p->r.core, f, n), n);
    assert_int_equal(st->rx_to_ilq, 0);
    assert_false(ilq_cqe(p, &l, c));

    ilq_tcp_ena(p, true);
    assert_int_equal(x722_core_receive(&p->r.core, f, n), n);
    assert_int_equal(st->rx_to_ilq, 1);
    assert_int_equal(st->ilq_rx, 1);
    assert_memory_equal(xr_ptr(&p->r, ILQ_RXBUF), f, n);
    assert_true(ilq_cqe(p, &l, c));
    assert_false(c[3] & (E810_CQE_ERROR | E810_CQE_SQ));
    /* GEN_1: no extended CQE (its bit is VLAN_TAG_VALID), IPv4 */
    assert_false(c[3] & E810_GEN1_CQE_VLAN_TAG_VALID);
    assert_int_equal(FIELD_GET(E810_CQE_PAYLDLEN, c[0]), n);
    assert_true(c[1] == ILQ_CTX_VAL);
    assert_int_equal(FIELD_GET(E810_CQE_QPID, c[2]), E810_ILQ_QPN);
    assert_int_equal(FIELD_GET(E810_GEN1_CQE_UDA_L3PROTO, c[2]), 0);
    assert_int_equal(FIELD_GET(E810_CQE_WQEIDX, c[3]), 0);

    /* tagged: the tag stays in the buffer, the CQE says so */
    n = ilq_frame(p, f, true, true, 0x02, 8);
    assert_int_equal(x722_core_receive(&p->r.core, f, n), n);
    assert_int_equal(st->ilq_rx, 2);
    assert_memory_equal(xr_ptr(&p->r, ILQ_RXBUF + 1024), f, n);
    assert_true(ilq_cqe(p, &l, c));
    assert_true(c[3] & E810_GEN1_CQE_VLAN_TAG_VALID);
    assert_int_equal(FIELD_GET(E810_CQE_PAYLDLEN, c[0]), n);
    assert_int_equal(FIELD_GET(E810_CQE_WQEIDX, c[3]), 1);

    /* no RQ WQE left: dropped and counted */
    n = ilq_frame(p, f, true, false, 0x02, 0);
    assert_int_equal(x722_core_receive(&p->r.core, f, n), n);
    assert_int_equal(st->ilq_rx_dropped, 1);
    /* a port not in the APBVT is the LAN's */
    be16p(f + 36, 7175);
    x722_core_receive(&p->r.core, f, n);
    assert_int_equal(st->rx_to_ilq, 3);
    /* TCP_ENA cleared again: the LAN's */
    ilq_tcp_ena(p, false);
    be16p(f + 36, ILQ_LPORT);
    x722_core_receive(&p->r.core, f, n);
    assert_int_equal(st->rx_to_ilq, 3);
}

/*
 * The ILQ's transmit: the driver's whole frame goes out with the IPv4 and
 * TCP checksums inserted and nothing else changed; the SQ CQE follows.
 * WQEs whose header fields do not describe the frame fail with an AE.
 */
static void test_ilq_send_gen1(void **state)
{
    Pe *p = *state;
    const E810IwStats *st;
    uint8_t f[128], ph[12];
    const uint8_t *t = p->r.tx_last;
    uint64_t c[4], q2;
    size_t n;
    Ilq l;

    ilq_make(p, &l);
    st = &p->r.core.pe->rdma.iw.stats;
    n = ilq_frame(p, f, false, false, 0x12, 4);
    memcpy(xr_ptr(&p->r, ILQ_TXBUF), f, n);
    q2 = FIELD_PREP(E810_GEN1_UDA_MACLEN, 7) |
         FIELD_PREP(E810_GEN1_UDA_IPLEN, 5) |
         FIELD_PREP(E810_GEN1_UDA_L4T, E810_GEN1_UDA_L4T_TCP) |
         FIELD_PREP(E810_GEN1_UDA_IIPT, E810_GEN1_UDA_IIPT_IPV4_CSUM) |
         FIELD_PREP(E810_GEN1_UDA_L4LEN, 5);
    ilq_send(p, &l, n, q2);
    assert_int_equal(p->r.tx_frames, 1);
    assert_int_equal(st->ilq_tx, 1);
    assert_int_equal(p->r.tx_last_len, 60);    /* 58 padded */
    assert_memory_equal(t, f, 24);             /* up to the IP checksum */
    assert_memory_equal(t + 26, f + 26, 24);   /* to the TCP checksum */
    assert_memory_equal(t + 52, f + 52, n - 52);
    assert_int_equal(ilq_csum(0, t + 14, 20), 0);
    memcpy(ph, t + 26, 8);
    ph[8] = 0;
    ph[9] = 6;
    ph[10] = 0;
    ph[11] = 24;
    assert_int_equal(ilq_csum(ilq_csum(0, ph, 12) ^ 0xffff, t + 34, 24), 0);
    assert_true(ilq_cqe(p, &l, c));
    assert_true(c[3] & E810_CQE_SQ);
    assert_false(c[3] & E810_CQE_ERROR);
    assert_true(c[1] == ILQ_CTX_VAL);

    /* L4LEN beyond the segment: the AE, the QP fails, nothing sent */
    ilq_send(p, &l, n, (q2 & ~E810_GEN1_UDA_L4LEN) |
             FIELD_PREP(E810_GEN1_UDA_L4LEN, 15));
    assert_int_equal(p->r.tx_frames, 1);
    assert_int_equal(st->ilq_tx_errors, 1);
    assert_true(ilq_cqe(p, &l, c));
    assert_true(c[3] & E810_CQE_ERROR);
}

/* An IPv6 IIPT with an IPv4 frame, and an L4 type other than TCP. */
static void test_ilq_send_gen1_refused(void **state)
{
    Pe *p = *state;
    const E810IwStats *st;
    uint8_t f[128];
    uint64_t c[4], q2;
    size_t n;
    Ilq l;

    ilq_make(p, &l);
    st = &p->r.core.pe->rdma.iw.stats;
    n = ilq_frame(p, f, false, false, 0x12, 0);
    memcpy(xr_ptr(&p->r, ILQ_TXBUF), f, n);
    q2 = FIELD_PREP(E810_GEN1_UDA_MACLEN, 7) |
         FIELD_PREP(E810_GEN1_UDA_IPLEN, 10) |
         FIELD_PREP(E810_GEN1_UDA_L4T, E810_GEN1_UDA_L4T_TCP) |
         FIELD_PREP(E810_GEN1_UDA_IIPT, E810_GEN1_UDA_IIPT_IPV6) |
         FIELD_PREP(E810_GEN1_UDA_L4LEN, 5);
    ilq_send(p, &l, n, q2);
    assert_int_equal(p->r.tx_frames, 0);
    assert_int_equal(st->ilq_tx_errors, 1);
    assert_true(ilq_cqe(p, &l, c));
    assert_true(c[3] & E810_CQE_ERROR);
}

/*
 * An offloaded iWARP QP's source MAC on GEN_1: the local MAC table entry
 * SRCMACADDRIDX (context qword 3) names; an index without an entry makes
 * the context not offloadable.
 */
static void test_iwarp_ctx_src_mac_index(void **state)
{
    Pe *p = *state;
    static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x72, 0x20, 0x99 };
    uint64_t q[8] = { 0 };
    uint32_t idx = 99;
    E810IwOffload o;
    E810Qp *qp;

    pe_bringup(p);
    assert_true(pe_do(p, E810_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY, 0, NULL,
                      &idx));
    q[E810_QW(E810_CQPSQ_MLM_MAC_OFF)] = 0x525400722099ull;
    assert_true(pe_do(p, E810_CQP_OP_MANAGE_LOC_MAC_TABLE,
                      FIELD_PREP(E810_CQPSQ_MLM_TABLEIDX, idx), q, NULL));
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_MAT_MAC_OFF)] = 0x525400722002ull;
    assert_true(pe_do(p, E810_CQP_OP_MANAGE_ARP,
                      FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, 3) |
                      E810_CQPSQ_MAT_ENTRYVALID, q, NULL));
    /* irdma_sc_qp_setctx() of a GEN_1 iWARP QP: no MAC at offset 152 */
    qp = &p->r.core.pe->rdma.qp[2];
    memset(qp->ctx, 0, sizeof(qp->ctx));
    qp->ctx[0] = E810_QPC_IPV4;
    qp->ctx[3] = FIELD_PREP(E810_QPC_SRCPORTNUM, ILQ_LPORT) |
                 FIELD_PREP(E810_QPC_DESTPORTNUM, ILQ_RPORT) |
                 FIELD_PREP(E810_GEN1_QPC_SRCMACADDRIDX, idx);
    qp->ctx[6] = FIELD_PREP(E810_QPC_SNDMSS, 1460) |
                 FIELD_PREP(E810_QPC_ARPIDX, 3);
    assert_true(e810_iw_parse_ctx(p->r.core.pe, qp, &o));
    assert_memory_equal(o.smac, mac, 6);
    assert_int_equal(o.dmac[5], 0x02);
    /* an index the table does not hold */
    qp->ctx[3] = (qp->ctx[3] & ~E810_GEN1_QPC_SRCMACADDRIDX) |
                 FIELD_PREP(E810_GEN1_QPC_SRCMACADDRIDX, (idx + 1) % 64);
    assert_false(e810_iw_parse_ctx(p->r.core.pe, qp, &o));
}

/*
 * GEN_1 inline data (uk.c irdma_copy_inline_data_gen_1()): 16 bytes at
 * WQE offset 0, then 32 from offset 32 with no valid byte; up to 16 bytes
 * take one quantum, up to 48 two. GEN_2's layout is unchanged.
 */
static void test_inline_layout_gen1(void **state)
{
    static const struct e810_hw_gen gen2 = E810_HW_GEN2;
    uint8_t wqe[64], out[48], want[48];
    unsigned i;

    (void)state;
    for (i = 0; i < 48; i++) {
        want[i] = 0xa0 + i;
    }
    memset(wqe, 0xee, sizeof(wqe));
    memcpy(wqe, want, 16);          /* the driver's copy, quantum 0 */
    memcpy(wqe + 32, want + 16, 32);
    memset(out, 0, sizeof(out));
    e810_gen_inline_get(&gen1, wqe, out, 48);
    assert_memory_equal(out, want, 48);
    assert_int_equal(e810_gen_inline_quanta(&gen1, 16), 1);
    assert_int_equal(e810_gen_inline_quanta(&gen1, 17), 2);
    assert_int_equal(e810_gen_inline_quanta(&gen1, 48), 2);
    assert_int_equal(gen1.max_inline, 48);
    /* GEN_2: 8 at offset 8, 31 per extra quantum (e810_inline_get()) */
    memset(wqe, 0, sizeof(wqe));
    e810_inline_put(wqe, 0, want, 39);
    memset(out, 0, sizeof(out));
    e810_gen_inline_get(&gen2, wqe, out, 39);
    assert_memory_equal(out, want, 39);
    assert_int_equal(e810_gen_inline_quanta(&gen2, 39), e810_inline_quanta(39));
    assert_int_equal(e810_gen_inline_quanta(&gen2, 101), 4);
}

/* An inline WQE of more than 48 bytes is malformed on GEN_1: AE, no send. */
static void test_inline_too_long_gen1(void **state)
{
    Pe *p = *state;
    uint64_t pa = ILQ_SQ, c[4];
    Ilq l;

    ilq_make(p, &l);
    s64(p, pa, 0);
    s64(p, pa + 8, 0);
    s64(p, pa + 16, 0);
    s64(p, pa + 24, FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
        E810_WQE_INLINEDATAFLAG | FIELD_PREP(E810_WQE_INLINEDATALEN, 49) |
        E810_WQE_SIGCOMPL | E810_WQE_VALID);
    xr_wr(&p->r, X722_PE_WQEALLOC, E810_ILQ_QPN);
    x722_core_run_work(&p->r.core);
    assert_int_equal(p->r.tx_frames, 0);
    assert_true(ilq_cqe(p, &l, c));
    assert_true(c[3] & E810_CQE_ERROR);
    /* not the ILQ's own frame checks: the WQE itself was refused */
    assert_int_equal(p->r.core.pe->rdma.iw.stats.ilq_tx_errors, 0);
}

/*
 * GEN_1 QPs transmit on the VSI's queue set (0x0212 qs_handle[0]); the
 * engine has no WORK_SCHED_NODE leaf for it and must not count them as
 * on no live queue set. Another handle is still counted.
 */
static void test_qp_on_vsi_queue_set(void **state)
{
    Pe *p = *state;
    uint64_t q[8] = { 0 };
    const E810Rdma *rd;
    uint32_t idx = 99;
    unsigned i, qs[2] = { X722_QS_HANDLE, X722_QS_HANDLE + 1 };
    Ilq l;

    ilq_make(p, &l);
    rd = &p->r.core.pe->rdma;
    assert_true(pe_do(p, E810_CQP_OP_ALLOCATE_LOC_MAC_TABLE_ENTRY, 0, NULL,
                      &idx));
    q[E810_QW(E810_CQPSQ_MLM_MAC_OFF)] = 0x525400722001ull;
    assert_true(pe_do(p, E810_CQP_OP_MANAGE_LOC_MAC_TABLE,
                      FIELD_PREP(E810_CQPSQ_MLM_TABLEIDX, idx), q, NULL));
    memset(q, 0, sizeof(q));
    q[E810_QW(E810_CQPSQ_MAT_MAC_OFF)] = 0x525400722002ull;
    assert_true(pe_do(p, E810_CQP_OP_MANAGE_ARP,
                      FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, 3) |
                      E810_CQPSQ_MAT_ENTRYVALID, q, NULL));
    for (i = 0; i < 2; i++) {
        uint32_t id = 3 + i;
        uint64_t hdr = FIELD_PREP(E810_CQPSQ_QP_QPID, id) |
                       FIELD_PREP(E810_CQPSQ_QP_QPTYPE, E810_QP_TYPE_IWARP) |
                       E810_CQPSQ_QP_CQNUMVALID;

        pe_back(p, E810_HMC_QP, id, 512);
        memset(xr_ptr(&p->r, ILQ_CTX), 0, E810_QP_CTX_SIZE);
        s64(p, ILQ_CTX + E810_QPC_CFG_OFF, E810_QPC_IPV4);
        s64(p, ILQ_CTX + E810_QPC_SQADDR_OFF, ILQ_SQ);
        s64(p, ILQ_CTX + E810_QPC_RQADDR_OFF, ILQ_RQ);
        s64(p, ILQ_CTX + E810_QPC_SIZES_OFF, FIELD_PREP(E810_QPC_RQSIZE, 1) |
            FIELD_PREP(E810_QPC_SQSIZE, 1) |
            FIELD_PREP(E810_QPC_SRCPORTNUM, ILQ_LPORT + i) |
            FIELD_PREP(E810_QPC_DESTPORTNUM, ILQ_RPORT) |
            FIELD_PREP(E810_GEN1_QPC_SRCMACADDRIDX, idx));
        s64(p, ILQ_CTX + E810_QPC_MSS_OFF, FIELD_PREP(E810_QPC_SNDMSS, 1460) |
            FIELD_PREP(E810_QPC_ARPIDX, 3));
        s64(p, ILQ_CTX + E810_QPC_CQ_OFF, FIELD_PREP(E810_QPC_TXCQNUM, 1) |
            FIELD_PREP(E810_QPC_RXCQNUM, 1));
        s64(p, ILQ_CTX + E810_QPC_QS_OFF,
            FIELD_PREP(E810_QPC_QSHANDLE, qs[i]));
        memset(q, 0, sizeof(q));
        q[E810_QW(E810_CQPSQ_QP_CTX_OFF)] = ILQ_CTX;
        q[E810_QW(E810_CQPSQ_QP_DBSHADOW_OFF)] = ILQ_SHADOW;
        assert_true(pe_do(p, E810_CQP_OP_CREATE_QP, hdr |
                          FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE,
                                     E810_QP_STATE_IDLE), q, NULL));
        assert_true(pe_do(p, E810_CQP_OP_MODIFY_QP, hdr |
                          FIELD_PREP(E810_CQPSQ_QP_NEXTIWSTATE,
                                     E810_QP_STATE_RTS), q, NULL));
        assert_int_equal(rd->qp[id].state, E810_QP_STATE_RTS);
        assert_int_equal(rd->stats.bad_qs_handles, i);
    }
}

/*
 * GEN_1's SQ chunk is 2 quanta (i40iw_hw.h I40IW_MAX_QUANTA_PER_WR, uk.c
 * irdma_qp_get_next_send_wqe() pads with NOPs to the next chunk): a
 * 2-quantum WQE at an even index runs, one at an odd index crosses a
 * chunk and fails the QP with an AE, as does a WQE of 4 fragments (3
 * quanta; I40IW_MAX_WQ_FRAGMENT_COUNT is 3). GEN_2's chunk stays 8.
 */
static void test_sq_chunk_gen1(void **state)
{
    static const struct e810_hw_gen gen2 = E810_HW_GEN2;
    Pe *p = *state;
    uint8_t f[128];
    uint64_t c[4], q2, pa;
    size_t n;
    Ilq l;

    assert_int_equal(gen1.sq_chunk_quanta, 2);
    assert_int_equal(gen2.sq_chunk_quanta, 8);
    ilq_make(p, &l);
    n = ilq_frame(p, f, false, false, 0x12, 4);
    memcpy(xr_ptr(&p->r, ILQ_TXBUF), f, n);
    q2 = FIELD_PREP(E810_GEN1_UDA_MACLEN, 7) |
         FIELD_PREP(E810_GEN1_UDA_IPLEN, 5) |
         FIELD_PREP(E810_GEN1_UDA_L4T, E810_GEN1_UDA_L4T_TCP) |
         FIELD_PREP(E810_GEN1_UDA_IIPT, E810_GEN1_UDA_IIPT_IPV4_CSUM) |
         FIELD_PREP(E810_GEN1_UDA_L4LEN, 5);
    /* quanta 0-1: the frame and an empty second fragment */
    memset(xr_ptr(&p->r, ILQ_SQ), 0, 0x100);
    s64(p, ILQ_SQ, ILQ_TXBUF);
    s64(p, ILQ_SQ + 8, FIELD_PREP(gen1.frag_len, n));
    s64(p, ILQ_SQ + 16, q2);
    s64(p, ILQ_SQ + 24, FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
        FIELD_PREP(E810_WQE_ADDFRAGCNT, 1) | E810_WQE_SIGCOMPL |
        E810_WQE_VALID);
    /* quantum 2: a NOP; quanta 3-4: the same 2-quantum SEND */
    s64(p, ILQ_SQ + 88, FIELD_PREP(E810_WQE_OPCODE, E810_OP_NOP) |
        E810_WQE_VALID);
    pa = ILQ_SQ + 3 * 32;
    s64(p, pa, ILQ_TXBUF);
    s64(p, pa + 8, FIELD_PREP(gen1.frag_len, n));
    s64(p, pa + 16, q2);
    s64(p, pa + 24, FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
        FIELD_PREP(E810_WQE_ADDFRAGCNT, 1) | E810_WQE_SIGCOMPL |
        E810_WQE_VALID);
    xr_wr(&p->r, X722_PE_WQEALLOC, E810_ILQ_QPN);
    x722_core_run_work(&p->r.core);
    assert_int_equal(p->r.tx_frames, 1);        /* the even one only */
    assert_true(ilq_cqe(p, &l, c));
    assert_false(c[3] & E810_CQE_ERROR);
    assert_int_equal(FIELD_GET(E810_CQE_WQEIDX, c[3]), 0);
    assert_true(ilq_cqe(p, &l, c));
    assert_true(c[3] & E810_CQE_ERROR);
    assert_int_equal(FIELD_GET(E810_CQE_WQEIDX, c[3]), 3);
    /* refused as a WQE, not by the ILQ's frame checks */
    assert_int_equal(p->r.core.pe->rdma.iw.stats.ilq_tx_errors, 0);
}

/* A SEND of 4 fragments at index 0: 3 quanta, more than a GEN_1 chunk. */
static void test_sq_frags_gen1(void **state)
{
    Pe *p = *state;
    uint64_t c[4];
    Ilq l;

    ilq_make(p, &l);
    memset(xr_ptr(&p->r, ILQ_SQ), 0, 0x100);
    s64(p, ILQ_SQ, ILQ_TXBUF);
    s64(p, ILQ_SQ + 8, FIELD_PREP(gen1.frag_len, 64));
    s64(p, ILQ_SQ + 24, FIELD_PREP(E810_WQE_OPCODE, E810_OP_SEND) |
        FIELD_PREP(E810_WQE_ADDFRAGCNT, 3) | E810_WQE_SIGCOMPL |
        E810_WQE_VALID);
    xr_wr(&p->r, X722_PE_WQEALLOC, E810_ILQ_QPN);
    x722_core_run_work(&p->r.core);
    assert_int_equal(p->r.tx_frames, 0);
    assert_true(ilq_cqe(p, &l, c));
    assert_true(c[3] & E810_CQE_ERROR);
    assert_int_equal(p->r.core.pe->rdma.iw.stats.ilq_tx_errors, 0);
}

/*
 * BIND_MW on GEN_1 (uk.c irdma_set_mw_bind_wqe_gen_1()): qword 1 has the
 * window's STag where GEN_2 has the parent MR's and the other way round.
 * The GEN_1 layout binds; GEN_2's, on GEN_1, names the MR as the window
 * and is refused (AMP_MWBIND_OF_MR_STAG).
 */
static void test_bind_mw_gen1(void **state)
{
    Pe *p = *state;
    E810Core *pe;
    E810Qp *qp;
    E810Mr *mr, *mw;
    uint32_t mr_stag = 1u << 8 | 0x11, mw_stag = 2u << 8 | 0x22;
    uint64_t q[4];

    pe_bringup(p);
    pe = p->r.core.pe;
    qp = &pe->rdma.qp[3];
    memset(qp->ctx, 0, sizeof(qp->ctx));
    qp->ctx[E810_QW(E810_QPC_FLAGS_OFF)] = E810_QPC_BINDEN;
    qp->ctx[E810_QW(E810_QPC_PKEY_OFF)] = FIELD_PREP(E810_QPC_PDIDX, 5);
    mr = &pe->rdma.mr[e810_stag_index(pe, mr_stag >> 8)];
    mw = &pe->rdma.mr[e810_stag_index(pe, mw_stag >> 8)];
    memset(mr, 0, sizeof(*mr));
    mr->valid = mr->registered = true;
    mr->key = 0x11;
    mr->pd = 5;
    mr->rights = E810_ACCESS_LOCAL_READ | E810_ACCESS_LOCAL_WRITE |
                 E810_ACCESS_BIND_WINDOW;
    mr->va = 0x10000;
    mr->len = 0x2000;
    memset(mw, 0, sizeof(*mw));
    mw->valid = mw->is_mw = mw->mw_type1 = true;
    mw->pd = 5;

    q[0] = 0x10800;
    q[2] = FIELD_PREP(E810_WQE_BIND_LEN, 0x400);
    q[3] = FIELD_PREP(E810_WQE_OPCODE, E810_OP_BIND_MW) |
           FIELD_PREP(E810_WQE_STAGRIGHTS, E810_WQE_RIGHTS_REMOTE_READ) |
           E810_WQE_VABASEDTO | E810_WQE_MEMWINDOWTYPE;
    /* GEN_2's layout on GEN_1: the parent field is read as the window */
    q[1] = FIELD_PREP(E810_WQE_BIND_PARENT_STAG, mr_stag) |
           FIELD_PREP(E810_WQE_BIND_MW_STAG, mw_stag);
    assert_int_equal(e810_mr_bind_mw(pe, qp, q),
                     E810_AE_AMP_MWBIND_OF_MR_STAG);
    assert_false(mw->mw_bound);
    /* GEN_1's */
    q[1] = FIELD_PREP(E810_WQE_BIND_PARENT_STAG, mw_stag) |
           FIELD_PREP(E810_WQE_BIND_MW_STAG, mr_stag);
    assert_int_equal(e810_mr_bind_mw(pe, qp, q), 0);
    assert_true(mw->mw_bound);
    assert_int_equal(mw->key, 0x22);
    assert_true(&pe->rdma.mr[mw->mw_parent] == mr);
    assert_int_equal(mw->mw_off, 0x800);
    assert_int_equal(mr->bound_mws, 1);
}

/*
 * GLGEN_RTRIG.CORER, as i40e_do_reset() asks for it: the warning first
 * (GLGEN_RSTAT DEVSTATE 1 with the reset's type, PFINT_ICR0.GRST on
 * vector 0, the trigger bit set), then the reset (the rig has no timer:
 * at the next deferred work): DEVSTATE 0 with the type kept, the trigger
 * clear, GLNVM_ULD done, the admin queue's registers kept, the engine and
 * the function's firmware state gone. A GLOBR the same with type 2.
 */
static void test_core_global_reset(void **state)
{
    Pe *p = *state;
    unsigned fired;
    uint32_t atqlen = xr_rd(&p->r, X722_PF_ATQLEN);

    pe_bringup(p);
    ilq_tcp_ena(p, true);
    assert_true(p->r.core.pe->rdma.cqp.created);
    xr_wr(&p->r, X722_PFINT_ICR0_ENA, X722_ICR0_GRST | X722_ICR0_ADMINQ);
    xr_wr(&p->r, X722_PFINT_DYN_CTL0, X722_DYN_CTL_INTENA);
    fired = p->r.msix[0];

    xr_wr(&p->r, X722_GLGEN_RTRIG, X722_GLGEN_RTRIG_CORER);
    assert_int_equal(xr_rd(&p->r, X722_GLGEN_RSTAT),
                     1 | X722_RESET_CORER << X722_GLGEN_RSTAT_TYPE_SHIFT);
    assert_int_equal(xr_rd(&p->r, X722_GLGEN_RTRIG), X722_GLGEN_RTRIG_CORER);
    assert_int_equal(p->r.msix[0], fired + 1);
    assert_true(xr_rd(&p->r, X722_PFINT_ICR0) & X722_ICR0_GRST);
    assert_true(p->r.core.pe->rdma.cqp.created);    /* not yet */

    x722_core_run_work(&p->r.core);
    assert_int_equal(xr_rd(&p->r, X722_GLGEN_RSTAT),
                     X722_RESET_CORER << X722_GLGEN_RSTAT_TYPE_SHIFT);
    assert_int_equal(xr_rd(&p->r, X722_GLGEN_RTRIG), 0);
    assert_int_equal(xr_rd(&p->r, X722_GLNVM_ULD) & X722_GLNVM_ULD_DONE,
                     X722_GLNVM_ULD_DONE);
    assert_int_equal(xr_rd(&p->r, X722_PF_ATQLEN), atqlen);
    assert_int_equal(xr_rd(&p->r, X722_PFINT_ICR0_ENA), 0);
    assert_false(p->r.core.pe->rdma.cqp.created);
    assert_false(p->r.core.fw.vsi_queue_opt & X722_VSI_TCP_ENA);
    assert_int_equal(p->r.core.stats.core_resets, 1);
    /* i40e_pf_reset() then: DEVSTATE 0, so its own PF reset */
    xr_wr(&p->r, X722_PFGEN_CTRL, X722_PFGEN_CTRL_PFSWR);
    assert_int_equal(p->r.core.stats.pf_resets, 1);

    xr_wr(&p->r, X722_GLGEN_RTRIG, X722_GLGEN_RTRIG_GLOBR);
    assert_int_equal(xr_rd(&p->r, X722_GLGEN_RSTAT),
                     1 | X722_RESET_GLOBR << X722_GLGEN_RSTAT_TYPE_SHIFT);
    x722_core_run_work(&p->r.core);
    assert_int_equal(xr_rd(&p->r, X722_GLGEN_RSTAT),
                     X722_RESET_GLOBR << X722_GLGEN_RSTAT_TYPE_SHIFT);
    assert_int_equal(p->r.core.stats.global_resets, 1);
    assert_int_equal(p->r.core.stats.core_resets, 1);
}

/* GLPES_PF* (irdma i40iw_hw.h), instance 0: LO of a 48-bit counter. */
#define PES_IP4RXOCTS   0x10200
#define PES_IP4RXPKTS   0x10400
#define PES_IP4RXTRUNC  0x10700
#define PES_IP4TXOCTS   0x11a00
#define PES_IP4TXPKTS   0x11c00
#define PES_TCPRXSEGS   0x13000
#define PES_TCPTXSEG    0x13400
#define PES_RDMARXSNDS  0x14000
#define PES_RDMARXWRS   0x13c00

/* irdma_cqp_gather_stats_gen1(): rd64 of instance hmc_fn_id (the PF's). */
static uint64_t pes(Pe *p, uint32_t off)
{
    return x722_core_mmio_read(&p->r.core, off + 8 * p->r.core.pf_id, 8);
}

/*
 * The engine's statistics registers irdma's GEN_1 reads: the ILQ's frames
 * out and in count as IPv4 packets, octets (the datagram) and TCP
 * segments, an FPDU's last segment as an RDMA message; other instances
 * read 0; the registers are read-only, kept by a PF reset and cleared by
 * a power-on reset.
 */
static void test_pe_stats_gen1(void **state)
{
    Pe *p = *state;
    uint8_t f[128];
    uint64_t q2, before;
    unsigned pf = p->r.core.pf_id;
    size_t n;
    Ilq l;

    ilq_make(p, &l);
    assert_int_equal(pes(p, PES_IP4TXPKTS), 0);
    n = ilq_frame(p, f, false, false, 0x12, 4);
    memcpy(xr_ptr(&p->r, ILQ_TXBUF), f, n);
    q2 = FIELD_PREP(E810_GEN1_UDA_MACLEN, 7) |
         FIELD_PREP(E810_GEN1_UDA_IPLEN, 5) |
         FIELD_PREP(E810_GEN1_UDA_L4T, E810_GEN1_UDA_L4T_TCP) |
         FIELD_PREP(E810_GEN1_UDA_IIPT, E810_GEN1_UDA_IIPT_IPV4_CSUM) |
         FIELD_PREP(E810_GEN1_UDA_L4LEN, 5);
    ilq_send(p, &l, n, q2);
    ilq_send(p, &l, n, q2);
    assert_int_equal(p->r.tx_frames, 2);
    assert_int_equal(pes(p, PES_IP4TXPKTS), 2);
    assert_int_equal(pes(p, PES_IP4TXOCTS), 2 * 44);   /* not the padding */
    assert_int_equal(pes(p, PES_TCPTXSEG), 2);
    /* another function's instance, and the 32-bit read of the HI half */
    assert_int_equal(x722_core_mmio_read(&p->r.core, PES_IP4TXPKTS +
                                         8 * ((pf + 1) % 16), 8), 0);
    assert_int_equal(xr_rd(&p->r, PES_IP4TXPKTS + 8 * pf + 4), 0);

    /* in: a segment carrying one FPDU, an untagged RDMA Send (last) */
    ilq_tcp_ena(p, true);
    n = ilq_frame(p, f, true, false, 0x02, 28);
    be16p(f + 54, 22);                  /* ULPDU: DDP/RDMAP 18 + 4 */
    f[56] = 0x41;                       /* DDP: L, DV 1 */
    f[57] = 0x43;                       /* RDMAP: RV 1, Send */
    assert_int_equal(x722_core_receive(&p->r.core, f, n), n);
    assert_int_equal(pes(p, PES_IP4RXPKTS), 1);
    assert_int_equal(pes(p, PES_IP4RXOCTS), 20 + 20 + 28);
    assert_int_equal(pes(p, PES_TCPRXSEGS), 1);
    assert_int_equal(pes(p, PES_RDMARXSNDS), 1);
    assert_int_equal(pes(p, PES_RDMARXWRS), 0);
    /* not the last segment: no message */
    f[56] = 0x01;
    x722_core_receive(&p->r.core, f, n);
    assert_int_equal(pes(p, PES_TCPRXSEGS), 2);
    assert_int_equal(pes(p, PES_RDMARXSNDS), 1);
    /* an IP length beyond the frame: the engine's steering leaves it */
    be16p(f + 16, 200);
    x722_core_receive(&p->r.core, f, n);
    assert_int_equal(xr_rd(&p->r, PES_IP4RXTRUNC + 4 * pf), 0);
    assert_int_equal(pes(p, PES_IP4RXPKTS), 2);

    /* read-only */
    before = p->r.core.stats.mmio_ro_write;
    xr_wr(&p->r, PES_IP4TXPKTS + 8 * pf, 0);
    assert_int_equal(pes(p, PES_IP4TXPKTS), 2);
    assert_int_equal(p->r.core.stats.mmio_ro_write, before + 1);
    /* PFR keeps them (Reset: PE_CORER); power-on clears them */
    xr_wr(&p->r, X722_PFGEN_CTRL, X722_PFGEN_CTRL_PFSWR);
    assert_int_equal(pes(p, PES_IP4TXPKTS), 2);
    x722_core_reset(&p->r.core);
    assert_int_equal(pes(p, PES_IP4TXPKTS), 0);
    assert_int_equal(pes(p, PES_TCPRXSEGS), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_cqp_create_gen1),
        T(test_cqp_create_refused),
        T(test_pf_reset_drops_cqp),
        T(test_query_fpm_gen1),
        T(test_commit_fpm_gen1),
        T(test_sds_shared_with_lan),
        T(test_ccq_and_ceq_interrupt),
        T(test_create_cq_gen1_fields),
        T(test_gen2_ops_refused),
        T(test_loc_mac_and_arp),
        T(test_ceqctl_msix0_refused),
        T(test_stats_survive_destroy),
        T(test_ilq_receive_gen1),
        T(test_ilq_send_gen1),
        T(test_ilq_send_gen1_refused),
        T(test_iwarp_ctx_src_mac_index),
        T(test_inline_layout_gen1),
        T(test_inline_too_long_gen1),
        T(test_qp_on_vsi_queue_set),
        T(test_pe_stats_gen1),
        T(test_sq_chunk_gen1),
        T(test_sq_frags_gen1),
        T(test_bind_mw_gen1),
        T(test_core_global_reset),
#undef T
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_x722_rdma", tests, NULL, NULL);
}
