/*
 * The WQE geometry and names include/hw gives the kernel driver, the
 * provider and the model alike (e810_uk.h, e810_cqp.h): size codes,
 * quanta, where inline bytes go, the fast-register WQE's fields and the
 * CQP opcode names. The expected values are written out by hand from the
 * upstream GEN_2 rules (irdma_get_wqe_shift(),
 * irdma_fragcnt_to_quanta_sq(), irdma_inline_data_size_to_quanta(),
 * irdma_copy_inline_data(), IRDMAQPSQ_* in defs.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hw/e810_cqp.h"
#include "hw/e810_ctx.h"
#include "hw/e810_uk.h"
#include "e810_core.h"      /* e810_cqp_op_name() */

/* ---- size codes and quanta ----------------------------------------------- */

static void test_inline_thresholds(void **state)
{
    (void)state;
    assert_int_equal(E810_INLINE_BYTES_IN(1), 8);
    assert_int_equal(E810_INLINE_BYTES_IN(2), 39);
    assert_int_equal(E810_INLINE_BYTES_IN(4), 101);
    assert_int_equal(E810_MAX_INLINE, E810_INLINE_BYTES_IN(4));
}

static void test_wqe_shift(void **state)
{
    (void)state;
    /* 32 B: one fragment and up to 8 inline bytes */
    assert_int_equal(e810_wqe_shift(0, 0), 0);
    assert_int_equal(e810_wqe_shift(1, 8), 0);
    assert_int_equal(e810_wqe_shift(1, 9), 1);
    assert_int_equal(e810_wqe_shift(2, 0), 1);
    /* 64 B: up to 3 fragments, 39 inline bytes */
    assert_int_equal(e810_wqe_shift(3, 39), 1);
    assert_int_equal(e810_wqe_shift(3, 40), 2);
    assert_int_equal(e810_wqe_shift(4, 0), 2);
    /* 128 B: up to 7 fragments, 101 inline bytes */
    assert_int_equal(e810_wqe_shift(7, 101), 2);
    assert_int_equal(e810_wqe_shift(7, 102), 3);
    assert_int_equal(e810_wqe_shift(8, 0), 3);
    /* the SQ's max_send_sge 13 plus the immediate */
    assert_int_equal(e810_wqe_shift(E810_MAX_FRAGS + 1, 0), 3);
}

static void test_frag_quanta(void **state)
{
    static const uint8_t want[16] = {
        1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8,
    };
    unsigned n;

    (void)state;
    for (n = 0; n < 16; n++) {
        assert_int_equal(e810_frag_quanta(n), want[n]);
    }
    assert_int_equal(e810_frag_quanta(15), E810_SQ_MAX_QUANTA);
}

static void test_inline_quanta(void **state)
{
    (void)state;
    assert_int_equal(e810_inline_quanta(0), 1);
    assert_int_equal(e810_inline_quanta(8), 1);
    assert_int_equal(e810_inline_quanta(9), 2);
    assert_int_equal(e810_inline_quanta(39), 2);
    assert_int_equal(e810_inline_quanta(40), 3);
    assert_int_equal(e810_inline_quanta(70), 3);
    assert_int_equal(e810_inline_quanta(71), 4);
    assert_int_equal(e810_inline_quanta(101), 4);
    assert_int_equal(e810_inline_quanta(102), 5);
}

/* ---- inline byte placement ----------------------------------------------- */

/* Where payload byte @i lands, spelled out quantum by quantum. */
static unsigned ref_off(unsigned i)
{
    if (i < 8) {
        return 8 + i;
    }
    if (i < 39) {
        return 32 + (i - 8);
    }
    if (i < 70) {
        return 64 + (i - 39);
    }
    return 96 + (i - 70);
}

static void test_inline_placement(void **state)
{
    uint8_t wqe[128], src[101], back[101];
    unsigned i;

    (void)state;
    for (i = 0; i < sizeof(src); i++) {
        src[i] = 0x10 + i;
    }
    memset(wqe, 0xee, sizeof(wqe));
    e810_inline_put(wqe, 0, src, sizeof(src));
    for (i = 0; i < sizeof(src); i++) {
        assert_int_equal(e810_inline_off(i), ref_off(i));
        assert_int_equal(wqe[ref_off(i)], src[i]);
    }
    /* untouched: qword 0, the header qword, every inline-valid byte */
    for (i = 0; i < 8; i++) {
        assert_int_equal(wqe[i], 0xee);
    }
    for (i = 16; i < 32; i++) {
        assert_int_equal(wqe[i], 0xee);
    }
    assert_int_equal(wqe[63], 0xee);
    assert_int_equal(wqe[95], 0xee);
    assert_int_equal(wqe[127], 0xee);
    /* contiguous runs end at the quantum's data end */
    assert_int_equal(e810_inline_run(0), 8);
    assert_int_equal(e810_inline_run(7), 1);
    assert_int_equal(e810_inline_run(8), 31);
    assert_int_equal(e810_inline_run(38), 1);
    assert_int_equal(e810_inline_run(39), 31);

    memset(back, 0, sizeof(back));
    e810_inline_get(wqe, back, sizeof(back));
    assert_memory_equal(back, src, sizeof(src));
}

/* Several pieces at running offsets give the same image as one. */
static void test_inline_pieces(void **state)
{
    uint8_t one[128], many[128], src[101];
    unsigned i;

    (void)state;
    for (i = 0; i < sizeof(src); i++) {
        src[i] = 0xa0 ^ i;
    }
    memset(one, 0, sizeof(one));
    memset(many, 0, sizeof(many));
    e810_inline_put(one, 0, src, sizeof(src));
    e810_inline_put(many, 0, src, 3);
    e810_inline_put(many, 3, src + 3, 30);      /* across quantum 0/1 */
    e810_inline_put(many, 33, src + 33, 0);
    e810_inline_put(many, 33, src + 33, 68);    /* across 1/2 and 2/3 */
    assert_memory_equal(one, many, sizeof(one));
}

static void test_inline_valid_bytes(void **state)
{
    uint8_t wqe[128];

    (void)state;
    memset(wqe, 0x55, sizeof(wqe));
    e810_inline_set_valid(wqe, 40, 1);          /* 3 quanta */
    assert_int_equal(wqe[63], 0x80);
    assert_int_equal(wqe[95], 0x80);
    assert_int_equal(wqe[127], 0x55);
    assert_int_equal(wqe[31], 0x55);            /* quantum 0: the header */
    e810_inline_set_valid(wqe, 101, 0);
    assert_int_equal(wqe[63], 0);
    assert_int_equal(wqe[95], 0);
    assert_int_equal(wqe[127], 0);
    memset(wqe, 0x55, sizeof(wqe));
    e810_inline_set_valid(wqe, 8, 1);           /* 1 quantum: none */
    assert_int_equal(wqe[63], 0x55);
}

/* ---- fields and names ---------------------------------------------------- */

static void test_fast_reg_fields(void **state)
{
    (void)state;
    /* the header's STag and PBL shape are REG_MR's bits */
    assert_true(E810_WQE_FR_STAGKEY == E810_CQPSQ_STAG_KEY);
    assert_true(E810_WQE_FR_STAGINDEX == E810_CQPSQ_STAG_IDX);
    assert_true(E810_WQE_FR_LPBLSIZE == E810_CQPSQ_STAG_LPBLSIZE);
    assert_true(E810_WQE_FR_HPAGESIZE == E810_CQPSQ_STAG_HPAGESIZE);
    /* qword 1: first PBLE index [27:16] under a 4 KiB aligned PBL PA */
    assert_true(E810_WQE_FR_PBLIDX_HI == 0xfffull);
    assert_true(E810_WQE_FR_PBLADDR == 0x000ffffffffff000ull);
    /* qword 2: length [40:0], first PBLE index [15:0] at the top */
    assert_true(E810_WQE_FR_LEN == 0x1ffffffffffull);
    assert_true(E810_WQE_FR_PBLIDX_LO == 0xffff000000000000ull);
    /* context IP words: the even word high, the odd one low */
    assert_true(E810_QPC_IP_HI == 0xffffffff00000000ull);
    assert_true(E810_QPC_IP_LO == 0xffffffffull);
}

static void test_cqp_op_names(void **state)
{
    (void)state;
    assert_string_equal(e810_cqp_op_str(E810_CQP_OP_CREATE_QP), "CREATE_QP");
    assert_string_equal(e810_cqp_op_str(E810_CQP_OP_REG_MR), "REG_MR");
    assert_string_equal(e810_cqp_op_str(E810_CQP_OP_UP_MAP), "UP_MAP");
    assert_string_equal(e810_cqp_op_str(E810_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY),
                        "MANAGE_QUAD_HASH_TABLE_ENTRY");
    assert_null(e810_cqp_op_str(E810_CQP_OP_MAX));
    assert_null(e810_cqp_op_str(E810_CQP_OP_MAX + 1));
    /* the model's logging name of the same table */
    assert_string_equal(e810_cqp_op_name(E810_CQP_OP_DESTROY_CQ),
                        "DESTROY_CQ");
    assert_string_equal(e810_cqp_op_name(E810_CQP_OP_MAX), "(unknown)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inline_thresholds),
        cmocka_unit_test(test_wqe_shift),
        cmocka_unit_test(test_frag_quanta),
        cmocka_unit_test(test_inline_quanta),
        cmocka_unit_test(test_inline_placement),
        cmocka_unit_test(test_inline_pieces),
        cmocka_unit_test(test_inline_valid_bytes),
        cmocka_unit_test(test_fast_reg_fields),
        cmocka_unit_test(test_cqp_op_names),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("hw_wqe_geom", tests, NULL, NULL);
}
