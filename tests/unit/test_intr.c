/*
 * Device model: GLINT_DYN_CTL semantics and MSI-X delivery.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_harness.h"

#define ENA E810_GLINT_DYN_CTL_INTENA

static void test_masked_cause_stays_pending(void **state)
{
    Harness *h = *state;

    e810_intr_raise(&h->core, 3);
    assert_int_equal(h->msix_count, 0);
    /* Enabling the vector delivers the pending cause once. */
    wr32(h, E810_GLINT_DYN_CTL(3), ENA);
    assert_int_equal(h->msix_count, 1);
    assert_int_equal(h->msix_last, 3);
    wr32(h, E810_GLINT_DYN_CTL(3), ENA);
    assert_int_equal(h->msix_count, 1);
}

static void test_automask_until_rearmed(void **state)
{
    Harness *h = *state;

    wr32(h, E810_GLINT_DYN_CTL(5), ENA);
    e810_intr_raise(&h->core, 5);
    assert_int_equal(h->msix_count, 1);
    /* Auto-masked: INTENA reads back clear and a second cause waits. */
    assert_int_equal(rd32(h, E810_GLINT_DYN_CTL(5)) & ENA, 0);
    e810_intr_raise(&h->core, 5);
    assert_int_equal(h->msix_count, 1);
    wr32(h, E810_GLINT_DYN_CTL(5), ENA);
    assert_int_equal(h->msix_count, 2);
}

static void test_dis_automask(void **state)
{
    Harness *h = *state;

    wr32(h, E810_GLINT_CTL, E810_GLINT_CTL_DIS_AUTOMASK);
    wr32(h, E810_GLINT_DYN_CTL(1), ENA);
    e810_intr_raise(&h->core, 1);
    e810_intr_raise(&h->core, 1);
    assert_int_equal(h->msix_count, 2);
    assert_true(rd32(h, E810_GLINT_DYN_CTL(1)) & ENA);
}

/*
 * irdma re-enables a vector with INTENA | CLEARPBA after draining its
 * queue, without looking again: an event that arrived while the vector was
 * disabled must still be delivered then, or a completion is lost. CLEARPBA
 * is about the MSI-X pending bit, not about causes latched while INTENA
 * was clear.
 */
static void test_clearpba_keeps_latched_cause(void **state)
{
    Harness *h = *state;

    e810_intr_raise(&h->core, 2);
    assert_int_equal(h->msix_count, 0);
    wr32(h, E810_GLINT_DYN_CTL(2), ENA | E810_GLINT_DYN_CTL_CLEARPBA);
    assert_int_equal(h->msix_count, 1);
    /* Delivered once: the latch is gone, automask cleared INTENA. */
    wr32(h, E810_GLINT_DYN_CTL(2), ENA | E810_GLINT_DYN_CTL_CLEARPBA);
    assert_int_equal(h->msix_count, 1);
    /* Trigger bits are actions, they do not read back. */
    assert_int_equal(rd32(h, E810_GLINT_DYN_CTL(2)), ENA);
}

static void test_intena_msk_protects_intena(void **state)
{
    Harness *h = *state;
    uint32_t itr = FIELD_PREP(E810_GLINT_DYN_CTL_ITR_INDX, 3);

    wr32(h, E810_GLINT_DYN_CTL(4), ENA);
    wr32(h, E810_GLINT_DYN_CTL(4), E810_GLINT_DYN_CTL_INTENA_MSK | itr);
    assert_int_equal(rd32(h, E810_GLINT_DYN_CTL(4)), ENA | itr);
    wr32(h, E810_GLINT_DYN_CTL(4), itr);
    assert_int_equal(rd32(h, E810_GLINT_DYN_CTL(4)), itr);
}

static void test_swint_trigger(void **state)
{
    Harness *h = *state;

    wr32(h, E810_GLINT_DYN_CTL(0), ENA | E810_GLINT_DYN_CTL_SWINT_TRIG);
    assert_int_equal(h->msix_count, 1);
    assert_int_equal(h->msix_last, 0);
}

static void test_vector_beyond_table(void **state)
{
    Harness *h = *state;

    /* The cause control may name any of 2048 vectors; the table has 1024. */
    e810_intr_raise(&h->core, E810_MSIX_VECTORS);
    assert_int_equal(h->msix_count, 0);
    assert_int_equal(h->log_guest_error, 1);
    wr32(h, E810_GLINT_DYN_CTL(E810_MSIX_VECTORS + 1),
         ENA | E810_GLINT_DYN_CTL_SWINT_TRIG);
    assert_int_equal(h->msix_count, 0);
}

/* A smaller table (msix-vectors): vectors past it are ignored. */
static void test_msix_vectors_property(void **state)
{
    Harness *h = *state;

    assert_int_equal(e810_core_set_msix_vectors(&h->core, 1), -EINVAL);
    assert_int_equal(e810_core_set_msix_vectors(&h->core,
                                                E810_MAX_VECTORS + 1),
                     -EINVAL);
    assert_int_equal(h->core.intr.nvectors, E810_MSIX_VECTORS);
    assert_int_equal(e810_core_set_msix_vectors(&h->core, 4), 0);
    wr32(h, E810_GLINT_DYN_CTL(3), ENA | E810_GLINT_DYN_CTL_SWINT_TRIG);
    assert_int_equal(h->msix_count, 1);
    assert_int_equal(h->msix_last, 3);
    wr32(h, E810_GLINT_DYN_CTL(4), ENA | E810_GLINT_DYN_CTL_SWINT_TRIG);
    e810_intr_raise(&h->core, 4);
    assert_int_equal(h->msix_count, 1);
    assert_true(h->log_guest_error >= 1);
    /* A reset keeps the size: it is the PCI function's. */
    e810_core_reset(&h->core);
    assert_int_equal(h->core.intr.nvectors, 4);
    assert_int_equal(e810_core_set_msix_vectors(&h->core,
                                                E810_MAX_VECTORS), 0);
}

static void test_pf_reset_drops_pending(void **state)
{
    Harness *h = *state;

    e810_intr_raise(&h->core, 6);
    wr32(h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    harness_run_work(h);
    wr32(h, E810_GLINT_DYN_CTL(6), ENA);
    assert_int_equal(h->msix_count, 0);
}

/* OICR routed to vector 0 with CAUSE_ENA, vector 0 enabled. */
static void route_oicr(Harness *h)
{
    wr32(h, E810_PFINT_OICR_CTL, E810_INT_CTL_CAUSE_ENA |
         FIELD_PREP(E810_INT_CTL_MSIX_INDX, 0));
    wr32(h, E810_GLINT_DYN_CTL(0), ENA);
}

static void test_pe_criterr_inject(void **state)
{
    Harness *h = *state;

    route_oicr(h);
    wr32(h, E810_PFINT_OICR_ENA, E810_PFINT_OICR_PE_CRITERR);
    e810_core_inject_pe_criterr(&h->core);
    assert_int_equal(h->msix_count, 1);
    assert_int_equal(h->msix_last, 0);
    assert_int_equal(rd32(h, E810_GLPE_CRITERR), E810_PE_CRITERR_INJECTED);
    assert_int_not_equal(rd32(h, E810_GLPE_CRITERR), 0x0001024D);
    /* PFINT_OICR is read-to-clear; GLPE_CRITERR stays until a reset. */
    assert_int_equal(rd32(h, E810_PFINT_OICR), E810_PFINT_OICR_PE_CRITERR);
    assert_int_equal(rd32(h, E810_PFINT_OICR), 0);
    assert_int_equal(rd32(h, E810_GLPE_CRITERR), E810_PE_CRITERR_INJECTED);
    assert_int_equal(h->log_guest_error, 0);
}

static void test_pe_criterr_masked_by_oicr_ena(void **state)
{
    Harness *h = *state;

    route_oicr(h);
    /* Other causes enabled, PE_CRITERR not: no interrupt, bits still set. */
    wr32(h, E810_PFINT_OICR_ENA, E810_PFINT_OICR_HMC_ERR);
    e810_core_inject_pe_criterr(&h->core);
    assert_int_equal(h->msix_count, 0);
    assert_int_equal(rd32(h, E810_PFINT_OICR), E810_PFINT_OICR_PE_CRITERR);
    assert_int_equal(rd32(h, E810_GLPE_CRITERR), E810_PE_CRITERR_INJECTED);
    /* Enabled in OICR_ENA but the OICR cause itself not enabled. */
    wr32(h, E810_PFINT_OICR_ENA, E810_PFINT_OICR_PE_CRITERR);
    wr32(h, E810_PFINT_OICR_CTL, 0);
    e810_core_inject_pe_criterr(&h->core);
    assert_int_equal(h->msix_count, 0);
}

static void test_pe_criterr_cleared_by_pf_reset(void **state)
{
    Harness *h = *state;

    e810_core_inject_pe_criterr(&h->core);
    assert_int_equal(rd32(h, E810_GLPE_CRITERR), E810_PE_CRITERR_INJECTED);
    wr32(h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_PFGEN_CTRL) & E810_PFGEN_CTRL_PFSWR, 0);
    assert_int_equal(rd32(h, E810_GLPE_CRITERR), 0);
}

/*
 * A write to PFINT_OICR sets the causes written: ice re-arms its handler
 * that way for Tx timestamps (ice_ptp_restore_timestamp_mode()). The
 * interrupt fires for the enabled ones; none is a guest error.
 */
static void test_oicr_software_set(void **state)
{
    Harness *h = *state;

    route_oicr(h);
    wr32(h, E810_PFINT_OICR_ENA, E810_PFINT_OICR_TSYN_TX);
    wr32(h, E810_PFINT_OICR, E810_PFINT_OICR_TSYN_TX);
    assert_int_equal(h->msix_count, 1);
    assert_int_equal(h->msix_last, 0);
    assert_int_equal(rd32(h, E810_PFINT_OICR), E810_PFINT_OICR_TSYN_TX);
    assert_int_equal(rd32(h, E810_PFINT_OICR), 0);
    /* not enabled: latched only */
    wr32(h, E810_PFINT_OICR, E810_PFINT_OICR_HMC_ERR);
    wr32(h, E810_GLINT_DYN_CTL(0), ENA);
    assert_int_equal(h->msix_count, 1);
    assert_int_equal(rd32(h, E810_PFINT_OICR), E810_PFINT_OICR_HMC_ERR);
    assert_int_equal(h->log_guest_error, 0);
    assert_int_equal(h->core.stats.mmio_ro_write, 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, harness_setup, \
                                              harness_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_masked_cause_stays_pending),
        T(test_automask_until_rearmed),
        T(test_dis_automask),
        T(test_clearpba_keeps_latched_cause),
        T(test_intena_msk_protects_intena),
        T(test_swint_trigger),
        T(test_vector_beyond_table),
        T(test_msix_vectors_property),
        T(test_pf_reset_drops_pending),
        T(test_pe_criterr_inject),
        T(test_pe_criterr_masked_by_oicr_ena),
        T(test_pe_criterr_cleared_by_pf_reset),
        T(test_oicr_software_set),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_intr", tests, NULL, NULL);
}
