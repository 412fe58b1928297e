/*
 * Device model: the core and global resets of a card of several E810
 * functions (GLGEN_RTRIG, e810_core_join()). ice_reset() writes the
 * trigger on one PF; on silicon every PF of the card gets the warning
 * (PFINT_OICR.GRST, GLGEN_RSTAT DEVSTATE and RESET_TYPE), each ice
 * recovers (ice_misc_intr(), ice_reset_subtask(), ice_check_reset()) and
 * each function loses its queues, engine and firmware state.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "model_harness.h"
#include "dp_driver.h"
#include "lan_rig.h"

#define OICR_VECTOR 0

/* One PF as ice and irdma leave it: LAN queues, a VSI, the engine. */
typedef struct Fn {
    Fixture lan;
    DpDev dev;
    uint32_t teid;
} Fn;

typedef struct Card {
    Fn fn[2];
} Card;

static Harness *fh(Card *c, unsigned i)
{
    return c->fn[i].lan.h;
}

/* The firmware's VSIs of the function (its switch). */
static unsigned vsis(Harness *h)
{
    unsigned i, n = 0;

    for (i = 0; i < E810_SW_MAX_VSI; i++) {
        n += h->core.sw.vsi[i].used;
    }
    return n;
}

static void fn_up(Fn *fn, uint8_t pf)
{
    Fixture *f = &fn->lan;
    static const uint8_t mac[2][6] = {
        { 0x02, 0, 0, 0, 0, 2 }, { 0x02, 0, 0, 0, 1, 2 },
    };

    memset(f, 0, sizeof(*f));
    f->h = harness_new(pf);
    f->wire = calloc(1, sizeof(*f->wire));
    assert_non_null(f->h);
    assert_non_null(f->wire);
    aq_init(f->h, &f->aq);
    f->qgrp = aq_sched_qgrp(f->h, &f->aq);
    f->vsi = aq_add_pf_vsi_and_mac_rules(f->h, &f->aq, mac[pf & 1], 1);
    f->txring[0] = mem_alloc(f->h, RING * sizeof(struct e810_tx_desc));
    f->rxring[0] = mem_alloc(f->h, RING * 32);
    f->bufs = mem_alloc(f->h, RING * RIG_BUF);
    assert_int_equal(add_txq(f, 0, RING, pf, &fn->teid), E810_AQ_RC_OK);
    rx_enable(f, RIG_BUF, 1522, 1);   /* 32-byte descriptors */
    dp_dev_init(&fn->dev, f->h);
    /* The misc vector as ice_ena_misc_vector() arms it. */
    wr32(f->h, E810_PFINT_OICR_ENA, E810_PFINT_OICR_GRST);
    wr32(f->h, E810_PFINT_OICR_CTL, E810_INT_CTL_CAUSE_ENA | OICR_VECTOR);
    wr32(f->h, E810_GLINT_DYN_CTL(OICR_VECTOR), E810_GLINT_DYN_CTL_INTENA);
    assert_true(f->h->core.lan.txq[0].enabled);
    assert_true(f->h->core.lan.rxq[0].enabled);
    assert_true(f->h->core.rdma.cqp.created);
    assert_true(f->h->core.aq.vsi_allocated);
}

static void fn_down(Fn *fn)
{
    harness_free(fn->lan.h);
    free(fn->lan.wire);
}

static int card_setup(void **state)
{
    Card *c = calloc(1, sizeof(*c));

    if (!c) {
        return -1;
    }
    fn_up(&c->fn[0], 0);
    fn_up(&c->fn[1], 1);
    *state = c;
    return 0;
}

static int card_teardown(void **state)
{
    Card *c = *state;

    fn_down(&c->fn[0]);
    fn_down(&c->fn[1]);
    free(c);
    return 0;
}

static void join(Card *c)
{
    e810_core_join(&fh(c, 1)->core, &fh(c, 0)->core);
    assert_ptr_equal(fh(c, 0)->core.card[1], &fh(c, 1)->core);
    assert_ptr_equal(fh(c, 1)->core.card[0], &fh(c, 0)->core);
    assert_ptr_equal(fh(c, 0)->core.card[0], &fh(c, 0)->core);
}

/* What ice_misc_intr() sees of a reset of @type warned on @h. */
static void assert_warned(Harness *h, unsigned type, unsigned msix_before)
{
    assert_int_equal(h->msix_count, msix_before + 1);
    assert_int_equal(h->msix_last, OICR_VECTOR);
    assert_true(rd32(h, E810_PFINT_OICR) & E810_PFINT_OICR_GRST);
    assert_int_equal(rd32(h, E810_GLGEN_RSTAT),
                     FIELD_PREP(E810_GLGEN_RSTAT_DEVSTATE, 1) |
                     FIELD_PREP(E810_GLGEN_RSTAT_RESET_TYPE, type));
    /* ice_check_reset()'s second wait: the done bits of what is reset */
    assert_int_equal(rd32(h, E810_GLNVM_ULD),
                     E810_GLNVM_ULD_ALL_MASK &
                     ~(E810_GLNVM_ULD_CORER_DONE | E810_GLNVM_ULD_PE_DONE |
                       (type == 2 ? E810_GLNVM_ULD_GLOBR_DONE : 0)));
}

/* The function's state still there: nothing reset yet. */
static void assert_untouched(Harness *h)
{
    assert_true(h->core.lan.txq[0].enabled);
    assert_true(h->core.lan.rxq[0].enabled);
    assert_true(h->core.rdma.cqp.created);
    assert_true(h->core.aq.vsi_allocated);
    assert_int_equal(vsis(h), 1);
    assert_int_equal(h->core.stats.core_resets + h->core.stats.global_resets,
                     0);
}

/* After the reset: queues, engine and the firmware's VSI gone. */
static void assert_reset(Harness *h, unsigned type)
{
    char stats[512], want[64];

    assert_false(h->core.lan.txq[0].enabled);
    assert_false(h->core.lan.rxq[0].enabled);
    assert_int_equal(rd32(h, E810_QRX_CTRL(0)), 0);
    assert_false(h->core.rdma.cqp.created);
    assert_int_equal(rd32(h, E810_CCQPSTATUS), 0);
    assert_false(h->core.aq.vsi_allocated);
    assert_int_equal(vsis(h), 0);
    assert_int_equal(rd32(h, E810_GLGEN_RTRIG), 0);
    assert_int_equal(rd32(h, E810_GLGEN_RSTAT),
                     FIELD_PREP(E810_GLGEN_RSTAT_RESET_TYPE, type));
    assert_int_equal(rd32(h, E810_GLNVM_ULD), E810_GLNVM_ULD_ALL_MASK);
    assert_int_equal(rd32(h, E810_PF_FUNC_RID), h->core.pf_id);
    e810_core_stats(&h->core, stats, sizeof(stats));
    snprintf(want, sizeof(want), " %s=1 ",
             type == 2 ? "global_resets" : "core_resets");
    assert_non_null(strstr(stats, want));
}

/*
 * A CORER written on function 0 (ice_reset()) is the card's: both
 * functions are warned at once, the writer too (its ice_do_reset() does
 * not rebuild: the warning's ICE_RESET_OICR_RECV does), the trigger bit
 * reads back set on both; GRSTDEL x 100 ms later both are reset, each
 * polled out as ice_check_reset() does.
 */
static void test_corer_reaches_card(void **state)
{
    Card *c = *state;
    unsigned m0 = fh(c, 0)->msix_count, m1 = fh(c, 1)->msix_count;
    uint64_t pfr[2] = { fh(c, 0)->core.stats.pf_resets,
                        fh(c, 1)->core.stats.pf_resets };
    unsigned steps, i;

    join(c);
    wr32(fh(c, 0), E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_CORER);
    for (i = 0; i < 2; i++) {
        assert_int_equal(rd32(fh(c, i), E810_GLGEN_RTRIG),
                         E810_GLGEN_RTRIG_CORER);
    }
    assert_warned(fh(c, 0), 1, m0);
    assert_warned(fh(c, 1), 1, m1);
    /* The warning comes ahead of the reset: deferred work does nothing. */
    for (i = 0; i < 2; i++) {
        harness_run_work(fh(c, i));
        assert_untouched(fh(c, i));
    }
    for (i = 0; i < 2; i++) {
        assert_true(harness_wait_grst(fh(c, i), &steps));
        assert_int_equal(steps, 8);    /* GRSTDEL */
        assert_reset(fh(c, i), 1);
        assert_int_equal(fh(c, i)->core.stats.pf_resets, pfr[i]);
    }
    /* One warning each. */
    assert_int_equal(fh(c, 0)->msix_count, m0 + 1);
    assert_int_equal(fh(c, 1)->msix_count, m1 + 1);
}

/*
 * A second trigger while the card is warned (ice of the other PF asking
 * too, or a GLOBR on top) adds to the same reset: no second warning, one
 * reset at the first deadline, of the larger type.
 */
static void test_triggers_fold(void **state)
{
    Card *c = *state;
    unsigned m0 = fh(c, 0)->msix_count, m1 = fh(c, 1)->msix_count;
    unsigned i;

    join(c);
    wr32(fh(c, 0), E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_CORER);
    for (i = 0; i < 2; i++) {
        harness_advance(fh(c, i), 3 * E810_GRSTDEL_UNIT_NS);
        harness_run_work(fh(c, i));
    }
    wr32(fh(c, 1), E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_CORER);
    assert_int_equal(fh(c, 0)->msix_count, m0 + 1);
    assert_int_equal(fh(c, 1)->msix_count, m1 + 1);
    wr32(fh(c, 1), E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_GLOBR);
    for (i = 0; i < 2; i++) {
        assert_int_equal(rd32(fh(c, i), E810_GLGEN_RTRIG),
                         E810_GLGEN_RTRIG_CORER | E810_GLGEN_RTRIG_GLOBR);
        assert_int_equal(FIELD_GET(E810_GLGEN_RSTAT_RESET_TYPE,
                                   rd32(fh(c, i), E810_GLGEN_RSTAT)), 2);
        assert_false(rd32(fh(c, i), E810_GLNVM_ULD) &
                     E810_GLNVM_ULD_GLOBR_DONE);
        assert_untouched(fh(c, i));
    }
    assert_int_equal(fh(c, 0)->msix_count, m0 + 1);
    assert_int_equal(fh(c, 1)->msix_count, m1 + 1);
    /* The first trigger's deadline: 5 more steps, not 8. */
    for (i = 0; i < 2; i++) {
        unsigned steps;

        assert_true(harness_wait_grst(fh(c, i), &steps));
        assert_int_equal(steps, 5);
        assert_reset(fh(c, i), 2);
        assert_int_equal(fh(c, i)->core.stats.core_resets, 0);
        harness_advance(fh(c, i), 20 * E810_GRSTDEL_UNIT_NS);
        harness_run_work(fh(c, i));
        assert_int_equal(fh(c, i)->core.stats.global_resets, 1);
    }
    assert_int_equal(fh(c, 0)->msix_count, m0 + 1);
    assert_int_equal(fh(c, 1)->msix_count, m1 + 1);
}

/*
 * A function alone (never joined, or gone from the card) has its own core
 * reset only; a PF reset stays the function's, in a card too. A warned
 * function reset meanwhile (an FLR, a PF reset) still gets the card's
 * core reset.
 */
static void test_single_function(void **state)
{
    Card *c = *state;
    unsigned m1 = fh(c, 1)->msix_count;
    uint64_t pfr0 = fh(c, 0)->core.stats.pf_resets;
    uint64_t pfr1 = fh(c, 1)->core.stats.pf_resets;

    wr32(fh(c, 0), E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_CORER);
    assert_true(harness_wait_grst(fh(c, 0), NULL));
    assert_reset(fh(c, 0), 1);
    harness_advance(fh(c, 1), 20 * E810_GRSTDEL_UNIT_NS);
    harness_run_work(fh(c, 1));
    assert_int_equal(fh(c, 1)->msix_count, m1);
    assert_int_equal(rd32(fh(c, 1), E810_GLGEN_RSTAT), 0);
    assert_int_equal(rd32(fh(c, 1), E810_GLGEN_RTRIG), 0);
    assert_untouched(fh(c, 1));

    /* In a card: the PF reset of function 1 is its own. */
    join(c);
    wr32(fh(c, 1), E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    harness_run_work(fh(c, 1));
    harness_run_work(fh(c, 0));
    assert_int_equal(fh(c, 1)->core.stats.pf_resets, pfr1 + 1);
    assert_int_equal(fh(c, 0)->core.stats.pf_resets, pfr0);
    assert_int_equal(fh(c, 1)->msix_count, m1);
    assert_int_equal(rd32(fh(c, 0), E810_GLGEN_RSTAT),
                     FIELD_PREP(E810_GLGEN_RSTAT_RESET_TYPE, 1));

    /* A warned function's FLR: the card's reset still comes. */
    wr32(fh(c, 0), E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_CORER);
    e810_core_flr(&fh(c, 1)->core);
    assert_int_equal(FIELD_GET(E810_GLGEN_RSTAT_DEVSTATE,
                               rd32(fh(c, 1), E810_GLGEN_RSTAT)), 1);
    assert_true(harness_wait_grst(fh(c, 1), NULL));
    assert_int_equal(fh(c, 1)->core.stats.core_resets, 1);
    assert_true(harness_wait_grst(fh(c, 0), NULL));
    assert_int_equal(fh(c, 0)->core.stats.core_resets, 2);

    /* Function 1 leaves: function 0's next core reset is its own. */
    e810_core_leave(&fh(c, 1)->core);
    assert_null(fh(c, 0)->core.card[1]);
    assert_null(fh(c, 1)->core.card[0]);
    wr32(fh(c, 0), E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_GLOBR);
    assert_true(harness_wait_grst(fh(c, 0), NULL));
    assert_int_equal(fh(c, 0)->core.stats.global_resets, 1);
    harness_advance(fh(c, 1), 20 * E810_GRSTDEL_UNIT_NS);
    harness_run_work(fh(c, 1));
    assert_int_equal(fh(c, 1)->core.stats.global_resets, 0);
    assert_int_equal(rd32(fh(c, 1), E810_GLGEN_RSTAT),
                     FIELD_PREP(E810_GLGEN_RSTAT_RESET_TYPE, 1));
}

/* A function freed while in a card leaves it (QEMU's unplug). */
static void test_fini_leaves_card(void **state)
{
    Card *c = *state;
    Harness *h2 = harness_new(2);

    assert_non_null(h2);
    join(c);
    e810_core_join(&h2->core, &fh(c, 0)->core);
    assert_ptr_equal(fh(c, 1)->core.card[2], &h2->core);
    assert_ptr_equal(h2->core.card[1], &fh(c, 1)->core);
    harness_free(h2);
    assert_null(fh(c, 0)->core.card[2]);
    assert_null(fh(c, 1)->core.card[2]);
    wr32(fh(c, 1), E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_CORER);
    assert_true(harness_wait_grst(fh(c, 0), NULL));
    assert_true(harness_wait_grst(fh(c, 1), NULL));
    assert_reset(fh(c, 0), 1);
    assert_reset(fh(c, 1), 1);
}

#undef T
#define T(fn) cmocka_unit_test_setup_teardown(fn, card_setup, card_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_corer_reaches_card),
        T(test_triggers_fold),
        T(test_single_function),
        T(test_fini_leaves_card),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_card_reset", tests, NULL,
                                       NULL);
}
