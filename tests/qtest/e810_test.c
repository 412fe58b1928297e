/*
 * The e810 QEMU device without a guest: qemu-system-x86_64 -accel qtest,
 * driven by the register and memory sequences of tests/unit's drivers
 * (aq_driver.c, rdma_driver.c, dp_driver.c) through qtest_harness.c. What
 * the unit tests cannot see is checked here: the PCI glue (BARs, bus
 * master DMA, config space), the bottom half, PF reset and FLR through
 * QEMU's reset path, the QOM counters and the migration blocker.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "aq_driver.h"
#include "dp_driver.h"
#include "qtest_harness.h"

#define RW_ALL  (E810_ACCESS_LOCAL_READ | E810_ACCESS_LOCAL_WRITE | \
                 E810_ACCESS_REMOTE_READ | E810_ACCESS_REMOTE_WRITE)
#define LEN     5000        /* five 1024-byte packets */

/* PCIe capability (e810_pci.c E810_PCIE_CAP_OFFSET), Device Control. */
#define PCIE_CAP        0xa0
#define PCIE_DEVCTL     (PCIE_CAP + 8)
#define DEVCTL_BCR_FLR  0x8000

static int setup(void **state)
{
    *state = harness_new(0);
    return *state ? 0 : -1;
}

static int teardown(void **state)
{
    harness_free(*state);
    return 0;
}

/* A PF software reset, then the admin queue answers Get Version. */
static void test_reset_get_version(void **state)
{
    Harness *h = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_VER);
    struct e810_aqc_get_ver *v = (void *)d.params.raw;
    uint64_t resets = qt_core_stat("pf_resets");
    AqDriver aq;

    wr32(h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_PFGEN_CTRL) & E810_PFGEN_CTRL_PFSWR, 0);
    assert_int_equal(qt_core_stat("pf_resets"), resets + 1);

    aq_init(h, &aq);
    d.cookie_high = htole32(0x1234);
    assert_int_equal(aq_send(h, &aq, &d, NULL, 0), E810_AQ_RC_OK);
    assert_int_equal(le16toh(d.flags) & (E810_AQ_FLAG_DD | E810_AQ_FLAG_CMP |
                                         E810_AQ_FLAG_ERR),
                     E810_AQ_FLAG_DD | E810_AQ_FLAG_CMP);
    assert_int_equal(v->api_major, 1);
    assert_int_equal(v->api_minor, 5);
    assert_true(v->fw_major > 0);
    assert_int_equal(le32toh(d.cookie_high), 0x1234);
}

/* CQP, FPM sizing, COMMIT_FPM_VAL, SDs and the CCQ, as irdma brings up. */
static void test_cqp_ccq_hmc(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    assert_int_equal(qt_core_stat("valid_sds"), 0);
    rd_bringup(h, &d);
    assert_true(rd32(h, E810_CCQPSTATUS) & E810_CCQPSTATUS_CCQP_DONE);
    assert_true(d.ccq);
    assert_true(d.obj[E810_HMC_QP].cnt > 0);
    /* The SDs rd_bringup() made valid, as the device counts them. */
    assert_true(qt_core_stat("valid_sds") > 0);
    assert_int_equal(qt_core_stat("dma_errors"), 0);
}

static void connect_qp(DpQp *qp, uint32_t dest)
{
    uint64_t *c = dp_qp_ctx(qp);

    c[E810_QW(E810_QPC_DEST_OFF)] =
        htole64(FIELD_PREP(E810_QPC_DESTQP, dest) |
                FIELD_PREP(E810_QPC_QKEY, 0));
    c[E810_QW(E810_QPC_DESTIP23_OFF)] =
        htole64(FIELD_PREP(E810_QPC_IP_LO, 0x0a000001));
    c[E810_QW(E810_QPC_LOCALIP23_OFF)] =
        htole64(FIELD_PREP(E810_QPC_IP_LO, 0x0a000001));
    c[E810_QW(E810_QPC_MSS_OFF)] = htole64(FIELD_PREP(E810_QPC_SNDMSS, 1024));
    dp_qp_rts(qp);
}

/*
 * The CQ ring is in the shared guest memory, so reading it costs QEMU
 * nothing: each try lets the QEMU main loop run (harness_run_work(), which
 * waits for round trips through it) before it looks, and gives up after
 * five seconds of wall time rather than a count of spins that a loaded
 * host can outrun.
 */
static unsigned poll_all(DpDev *dev, DpCq *cq, DpCqe *e, unsigned want)
{
    struct timespec t0, t;
    unsigned n = 0;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        dp_run(dev);
        while (n < want && dp_poll_cq(cq, &e[n])) {
            n++;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (n == want || t.tv_sec - t0.tv_sec > 5) {
            return n;
        }
        harness_run_work(dev->h);
    }
}

/*
 * Two RC QPs of the device, the ARP entry naming its own MAC: a SEND of
 * five packets crosses the device's loopback into a posted receive.
 */
static void test_loopback_send(void **state)
{
    Harness *h = *state;
    DpDev dev;
    DpCq scq, rcq;
    DpQp a, b;
    uint64_t q[8] = { 0 }, mac = 0, abuf, bbuf;
    uint32_t akey, bkey, ridx, sidx;
    DpSend s = { .op = E810_OP_SEND, .signaled = true, .nsge = 1 };
    E810Sge r;
    DpCqe e[2];
    unsigned i;

    dp_dev_init(&dev, h);
    for (i = 0; i < 6; i++) {
        mac = mac << 8 | h->core.mac[i];
    }
    q[E810_QW(E810_CQPSQ_MAT_MAC_OFF)] = mac;
    assert_true(rd_do(&dev.d, E810_CQP_OP_MANAGE_ARP,
                      FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, 0) |
                      E810_CQPSQ_MAT_ENTRYVALID, q));
    dp_cq_create(&dev, &scq, 64);
    dp_cq_create(&dev, &rcq, 64);
    dp_qp_create(&dev, &a, E810_QP_TYPE_ROCE_RC, &scq, &rcq, 64, 16, 1,
                 false, false);
    dp_qp_create(&dev, &b, E810_QP_TYPE_ROCE_RC, &scq, &rcq, 64, 16, 1,
                 true, false);
    connect_qp(&a, b.id);
    connect_qp(&b, a.id);
    abuf = mem_alloc_aligned(h, 2 * 4096, 4096);
    bbuf = mem_alloc_aligned(h, 2 * 4096, 4096);
    akey = dp_mr_buf(&dev, DP_PD, abuf, 2 * 4096, RW_ALL);
    bkey = dp_mr_buf(&dev, DP_PD, bbuf, 2 * 4096, RW_ALL);
    for (i = 0; i < LEN; i++) {
        ((uint8_t *)mem_ptr(h, abuf))[i] = (uint8_t)(i * 7 + 3);
    }

    r = (E810Sge){ .addr = bbuf + 10, .len = 2 * 4096 - 10, .lkey = bkey };
    s.sge[0] = (E810Sge){ .addr = abuf, .len = LEN, .lkey = akey };
    ridx = dp_post_recv(&b, &r, 1);
    sidx = dp_post_send(&a, &s);
    dp_ring(&a, false);
    assert_int_equal(poll_all(&dev, &rcq, e, 1), 1);
    assert_false(e[0].error);
    assert_int_equal(e[0].qp_id, b.id);
    assert_int_equal(e[0].wqe_idx, ridx);
    assert_int_equal(e[0].len, LEN);
    assert_memory_equal(mem_ptr(h, bbuf + 10), mem_ptr(h, abuf), LEN);
    assert_int_equal(poll_all(&dev, &scq, e, 1), 1);
    assert_false(e[0].error);
    assert_true(e[0].sq);
    assert_int_equal(e[0].qp_id, a.id);
    assert_int_equal(e[0].wqe_idx, sidx);
    assert_int_equal(e[0].op, E810_OP_SEND);
}

/*
 * Function Level Reset through the PCIe capability: the RDMA engine and
 * the HMC are gone (a PF reset), the BARs and the command register are
 * back at their reset values, and the function can be brought up again.
 */
static void test_flr(void **state)
{
    Harness *h = *state;
    uint64_t resets;
    RdmaDriver d;

    rd_bringup(h, &d);
    assert_true(qt_core_stat("valid_sds") > 0);
    resets = qt_core_stat("pf_resets");

    qt_cfg_write(PCIE_DEVCTL, qt_cfg_read(PCIE_DEVCTL, 2) | DEVCTL_BCR_FLR,
                 2);
    assert_int_equal(qt_cfg_read(PCIE_DEVCTL, 2) & DEVCTL_BCR_FLR, 0);
    assert_int_equal(qt_cfg_read(0x04, 2) & 0x6, 0);  /* MEMORY | MASTER */
    assert_int_equal(qt_core_stat("pf_resets"), resets + 1);
    assert_int_equal(qt_core_stat("valid_sds"), 0);

    qt_pci_enable();
    assert_int_equal(rd32(h, E810_CCQPSTATUS) & E810_CCQPSTATUS_CCQP_DONE, 0);
    h->mem_next = 0;
    rd_bringup(h, &d);
    assert_true(qt_core_stat("valid_sds") > 0);
}

/* Migration is refused with the device's reason (its migration blocker). */
static void test_migration_blocked(void **state)
{
    const char *l = qt_qmp("{\"execute\": \"migrate\", \"arguments\": "
                           "{\"uri\": \"exec:cat >/dev/null\"}}\n");

    assert_non_null(strstr(l, "\"error\""));
    assert_non_null(strstr(l, "e810: an RDMA NIC with live queue pairs"));
    l = qt_qmp("{\"execute\": \"query-migrate\"}\n");
    assert_null(strstr(l, "\"completed\""));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_reset_get_version),
        T(test_cqp_ccq_hmc),
        T(test_loopback_send),
        T(test_flr),
        T(test_migration_blocked),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("qtest", tests, NULL, NULL);
}
