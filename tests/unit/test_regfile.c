/*
 * Device model: the BAR0 register file, reset values, access rules and the
 * handling of bad MMIO accesses.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model_harness.h"

/*
 * Values the upstream drivers check after reset (docs/hw-reference.md 1.1,
 * docs/hw-reference-lan.md 1.1).
 */
static void test_reset_values(void **state)
{
    Harness *h = *state;

    assert_int_equal(rd32(h, E810_GLPE_CPUSTATUS0), 0x80);
    assert_int_equal(rd32(h, E810_GLPE_CPUSTATUS1), 0x80);
    assert_int_equal(rd32(h, E810_GLPE_CPUSTATUS2), 0x80);
    /* PE_DB_SIZE = 2: 8 MiB of doorbell space, the page at 0x7F0000. */
    assert_int_equal(FIELD_GET(E810_GLPCI_LBARCTRL_PE_DB_SIZE,
                               rd32(h, E810_GLPCI_LBARCTRL)), 2);
    assert_int_equal(rd32(h, E810_GLGEN_RSTAT), 0);
    assert_int_equal(rd32(h, E810_GLNVM_ULD), 0x73B);
    assert_true(rd32(h, E810_GLNVM_FLA) & E810_GLNVM_FLA_LOCKED);
    assert_int_equal(rd32(h, E810_GL_MNG_FWSM), 0);
    assert_int_equal(rd32(h, E810_PFGEN_CTRL), 0);
    assert_int_equal(rd32(h, E810_PF_FUNC_RID), 0);
    assert_int_equal(rd32(h, E810_CQPTAIL), 0);
    assert_int_equal(rd32(h, E810_CCQPSTATUS), 0);
    assert_int_equal(rd32(h, E810_CQPERRCODES), 0);
    assert_int_equal(h->log_guest_error + h->log_unimp, 0);
}

static void test_pf_id_in_func_rid(void **state)
{
    Harness *h1 = harness_new(1), *h7 = harness_new(7);

    (void)state;
    assert_non_null(h1);
    assert_non_null(h7);
    assert_int_equal(rd32(h1, E810_PF_FUNC_RID), 1);
    assert_int_equal(rd32(h7, E810_PF_FUNC_RID), 7);
    harness_free(h1);
    harness_free(h7);
    /* FUNC_NUM is three bits: function 8 cannot exist. */
    assert_null(harness_new(8));
}

static void test_read_only_ignored(void **state)
{
    Harness *h = *state;
    uint64_t before = h->core.stats.mmio_ro_write;

    wr32(h, E810_GLPE_CPUSTATUS0, 0);
    wr32(h, E810_GLNVM_ULD, 0);
    wr32(h, E810_CQPTAIL, 5);
    assert_int_equal(rd32(h, E810_GLPE_CPUSTATUS0), 0x80);
    assert_int_equal(rd32(h, E810_GLNVM_ULD), 0x73B);
    assert_int_equal(rd32(h, E810_CQPTAIL), 0);
    assert_int_equal(h->core.stats.mmio_ro_write - before, 3);
    assert_int_equal(h->log_guest_error, 3);
}

static void test_read_write_and_arrays(void **state)
{
    Harness *h = *state;

    wr32(h, E810_PF_FW_ATQBAL, 0x12345640);
    assert_int_equal(rd32(h, E810_PF_FW_ATQBAL), 0x12345640);
    /* Elements of an array are independent. */
    wr32(h, E810_GLINT_CEQCTL(0), 0x11);
    wr32(h, E810_GLINT_CEQCTL(2047), 0x22);
    assert_int_equal(rd32(h, E810_GLINT_CEQCTL(0)), 0x11);
    assert_int_equal(rd32(h, E810_GLINT_CEQCTL(1)), 0);
    assert_int_equal(rd32(h, E810_GLINT_CEQCTL(2047)), 0x22);
    /* The eight Rx-context dword arrays form one contiguous block. */
    wr32(h, E810_QRX_CONTEXT(7, 2047), 0xabcd);
    assert_int_equal(rd32(h, E810_QRX_CONTEXT(7, 2047)), 0xabcd);
    assert_int_equal(h->log_guest_error + h->log_unimp, 0);
}

static void test_write_one_to_clear(void **state)
{
    Harness *h = *state;
    uint32_t *wus = e810_regfile_ptr(&h->core.regs, E810_PFPM_WUS);

    *wus = 0x0000000f;          /* the device latched four wake events */
    wr32(h, E810_PFPM_WUS, 0x5);
    assert_int_equal(rd32(h, E810_PFPM_WUS), 0xa);
    wr32(h, E810_PFPM_WUS, 0xffffffff);  /* what ice writes */
    assert_int_equal(rd32(h, E810_PFPM_WUS), 0);
}

static void test_read_to_clear(void **state)
{
    Harness *h = *state;

    *e810_regfile_ptr(&h->core.regs, E810_PFINT_OICR) =
        E810_PFINT_OICR_PE_CRITERR | E810_PFINT_OICR_HMC_ERR;
    assert_int_equal(rd32(h, E810_PFINT_OICR),
                     E810_PFINT_OICR_PE_CRITERR | E810_PFINT_OICR_HMC_ERR);
    assert_int_equal(rd32(h, E810_PFINT_OICR), 0);
}

static void test_write_only_doorbells_read_zero(void **state)
{
    Harness *h = *state;

    assert_int_equal(rd32(h, E810_CQPDB), 0);
    assert_int_equal(rd32(h, E810_QTX_COMM_DBELL(3)), 0);
    assert_int_equal(rd32(h, E810_DB_ADDR_OFFSET), 0);
    assert_int_equal(e810_core_mmio_read(&h->core, E810_PUSH_OFFSET + 8, 8),
                     0);
}

static void test_pf_reset_is_deferred(void **state)
{
    Harness *h = *state;

    wr32(h, E810_QRX_TAIL(4), 0x40);       /* PFR domain */
    wr32(h, E810_PF_FW_ATQBAL, 0x1000);    /* EMPR domain: survives */
    wr32(h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    /* Nothing happens inside the MMIO write: work is only scheduled. */
    assert_int_equal(h->work_scheduled, 1);
    assert_int_equal(rd32(h, E810_PFGEN_CTRL), E810_PFGEN_CTRL_PFSWR);
    assert_int_equal(rd32(h, E810_QRX_TAIL(4)), 0x40);
    harness_run_work(h);
    assert_int_equal(rd32(h, E810_PFGEN_CTRL), 0);
    assert_int_equal(rd32(h, E810_QRX_TAIL(4)), 0);
    assert_int_equal(rd32(h, E810_PF_FW_ATQBAL), 0x1000);
    assert_int_equal(h->core.stats.pf_resets, 1);
    /* Identity and readiness survive a PF reset. */
    assert_int_equal(rd32(h, E810_GLPE_CPUSTATUS0), 0x80);
}

static void test_core_reset_handshake(void **state)
{
    Harness *h = *state;
    unsigned steps;

    wr32(h, E810_GLINT_CEQCTL(5), 0x40000005);
    wr32(h, E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_CORER);
    /* In progress: DEVSTATE set until the reset, GRSTDEL x 100 ms on. */
    assert_int_equal(FIELD_GET(E810_GLGEN_RSTAT_DEVSTATE,
                               rd32(h, E810_GLGEN_RSTAT)), 1);
    harness_run_work(h);
    assert_int_equal(FIELD_GET(E810_GLGEN_RSTAT_DEVSTATE,
                               rd32(h, E810_GLGEN_RSTAT)), 1);
    assert_int_equal(rd32(h, E810_GLINT_CEQCTL(5)), 0x40000005);
    assert_true(harness_wait_grst(h, &steps));
    assert_int_equal(steps, 8);
    assert_int_equal(h->core.stats.core_resets, 1);
    assert_int_equal(rd32(h, E810_GLGEN_RSTAT),
                     FIELD_PREP(E810_GLGEN_RSTAT_RESET_TYPE, 1));
    assert_int_equal(rd32(h, E810_GLGEN_RTRIG), 0);
    assert_int_equal(rd32(h, E810_GLINT_CEQCTL(5)), 0);
    assert_int_equal(rd32(h, E810_GLNVM_ULD), 0x73B);
}

static void test_out_of_range_access(void **state)
{
    Harness *h = *state;
    uint64_t bad = h->core.stats.mmio_bad_access;

    /* Beyond the BAR, straddling its end, odd sizes, misaligned. */
    e810_core_mmio_write(&h->core, E810_BAR0_SIZE, 1, 4);
    assert_int_equal(e810_core_mmio_read(&h->core, E810_BAR0_SIZE - 2, 4), 0);
    assert_int_equal(e810_core_mmio_read(&h->core, UINT64_MAX - 3, 4), 0);
    e810_core_mmio_write(&h->core, E810_GLGEN_RSTCTL, 1, 3);
    e810_core_mmio_write(&h->core, E810_GLGEN_RSTCTL + 1, 1, 4);
    assert_int_equal(h->core.stats.mmio_bad_access - bad, 5);
    assert_int_equal(h->log_guest_error, 5);
    assert_int_equal(rd32(h, E810_GLGEN_RSTCTL), 8);  /* unchanged */
}

static void test_sub_word_register_access(void **state)
{
    Harness *h = *state;

    /* Registers are 32-bit only; a byte read is refused, not decoded. */
    assert_int_equal(e810_core_mmio_read(&h->core, E810_GLPE_CPUSTATUS0, 1),
                     0);
    e810_core_mmio_write(&h->core, E810_PFGEN_CTRL, 1, 2);
    assert_int_equal(h->work_scheduled, 0);
    assert_int_equal(h->log_guest_error, 2);
}

static void test_unimplemented_offset(void **state)
{
    Harness *h = *state;
    uint64_t unimp = h->core.stats.mmio_unimplemented;

    /* A hole in the register map and one between doorbells and push. */
    assert_int_equal(rd32(h, 0x00000004), 0);
    wr32(h, 0x00000004, 0xdeadbeef);
    assert_int_equal(rd32(h, 0x00000004), 0);
    assert_int_equal(rd32(h, E810_DB_ADDR_OFFSET + E810_DB_PAGE_SIZE), 0);
    assert_int_equal(h->core.stats.mmio_unimplemented - unimp, 4);
    assert_int_equal(h->log_unimp, 4);
    assert_int_equal(h->log_guest_error, 0);
}

static void test_table_is_sane(void **state)
{
    unsigned n, i;
    const E810RegInfo *t = e810_regfile_table(&n);

    (void)state;
    assert_true(n > 0);
    for (i = 0; i < n; i++) {
        E810RegRef ref;
        uint32_t last = t[i].base + (t[i].count - 1) * t[i].stride;

        /* Every element decodes back to its own entry. */
        assert_true(e810_regfile_lookup(&((Harness *)*state)->core.regs,
                                        t[i].base, &ref));
        assert_ptr_equal(ref.info, &t[i]);
        assert_true(e810_regfile_lookup(&((Harness *)*state)->core.regs,
                                        last, &ref));
        assert_int_equal(ref.index, t[i].count - 1);
        assert_true(last < E810_DB_ADDR_OFFSET);
        if (i > 0) {
            assert_true(t[i - 1].base < t[i].base);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reset_values,
                                        harness_setup, harness_teardown),
        cmocka_unit_test(test_pf_id_in_func_rid),
        cmocka_unit_test_setup_teardown(test_read_only_ignored,
                                        harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_read_write_and_arrays,
                                        harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_write_one_to_clear,
                                        harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_read_to_clear,
                                        harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_write_only_doorbells_read_zero,
                                        harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_pf_reset_is_deferred,
                                        harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_core_reset_handshake,
                                        harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_out_of_range_access,
                                        harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_sub_word_register_access,
                                        harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_unimplemented_offset,
                                        harness_setup, harness_teardown),
        cmocka_unit_test_setup_teardown(test_table_is_sane,
                                        harness_setup, harness_teardown),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_regfile", tests, NULL, NULL);
}
