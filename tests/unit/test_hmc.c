/*
 * Device model: the HMC: QUERY_FPM_VAL contents, COMMIT_FPM_VAL layout
 * and checks, segment descriptors (direct and paged, through UPDATE_PE_SDS
 * and PFHMC_SDCMD), PD caching and PFHMC_PDINV, PBLE resolution, and the
 * bounds of the one translation routine.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "e810_core.h"
#include "rdma_driver.h"

#define ERRCODES(min) (((uint32_t)E810_CQP_MAJ_ERROR << 16) | (min))

/* CQP, QUERY, the driver's sizing and COMMIT, all by CQPTAIL. */
static void committed(Harness *h, RdmaDriver *d)
{
    rd_init(h, d, 64);
    assert_int_equal(rd_cqp_create(d), E810_CCQPSTATUS_CCQP_DONE);
    rd_query_fpm(d);
    rd_size_fpm(d, 262144);
    assert_true(rd_commit_fpm(d) > 0);
}

static unsigned pble_sd(RdmaDriver *d)
{
    return d->obj[E810_HMC_PBLE].base >> E810_HMC_SD_SHIFT;
}

static void test_query_buffer(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t b;

    rd_init(h, &d, 64);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    rd_query_fpm(&d);
    b = d.query_pa;
    assert_true(rd_mem64(&d, b + E810_FPM_QUERY_SD_OFF) == 32ull << 32);
    assert_true(rd_mem64(&d, b + E810_FPM_QUERY_QP_OFF) ==
                (9ull << 32 | 262144));
    assert_true(rd_mem64(&d, b + E810_FPM_QUERY_CQ_OFF) ==
                (6ull << 32 | 524288));
    assert_true(rd_mem64(&d, b + E810_FPM_QUERY_MR_OFF) ==
                (6ull << 32 | 4194304));
    assert_true(rd_mem64(&d, b + E810_FPM_QUERY_FSIAV_OFF) ==
                (6ull << 32 | 131072));
    assert_true(rd_mem64(&d, b + E810_FPM_QUERY_SRQ_OFF) == 0);
    assert_true(rd_mem64(&d, b + E810_FPM_QUERY_XFFL_OFF) ==
                (4ull << 32 | 1048576));
    assert_true(rd_mem64(&d, b + E810_FPM_QUERY_Q1FL_OFF) ==
                (64ull << 32 | 2097152));
    assert_true(rd_mem64(&d, b + E810_FPM_QUERY_PBLE_OFF) == 268435456);
    assert_true(rd_mem64(&d, b + E810_FPM_QUERY_MISC_OFF) ==
                (512ull << 32 | 4 << 16 | 256));
    assert_int_equal(d.obj[E810_HMC_Q1].size, 32);
    assert_int_equal(d.obj[E810_HMC_MR].size, 64);
}

static void test_query_other_function(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t q[8] = { 0 };

    rd_init(h, &d, 64);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    q[E810_QW(E810_CQPSQ_FPM_FN_OFF)] = 1;
    q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = d.query_pa;
    assert_true(rd_exec_poll(&d, E810_CQP_OP_QUERY_FPM_VAL, 0, q) &
                E810_CQPTAIL_CQP_OP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES), ERRCODES(E810_CQP_MIN_BAD_FN));
    assert_int_equal(rd_mem64(&d, d.query_pa + E810_FPM_QUERY_QP_OFF), 0);
}

static void test_commit_layout(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t v;

    committed(h, &d);
    /*
     * The 256K-QP maxima shrunk to the default 32 SDs: QP 0: 1024 x 512;
     * then CQ: 2048 x 64; bases in 512-byte units.
     */
    v = rd_mem64(&d, d.commit_pa + E810_FPM_COMMIT_QP_OFF);
    assert_true(v == 1024);
    v = rd_mem64(&d, d.commit_pa + E810_FPM_COMMIT_CQ_OFF);
    assert_true(v == ((0x80000ull / 512) << 32 | 2048));
    v = rd_mem64(&d, d.commit_pa + E810_FPM_COMMIT_APBVT_OFF);
    assert_int_equal(v & 0xffffffff, 1);
    assert_true(rd_mem64(&d, d.commit_pa + E810_FPM_COMMIT_SRQ_OFF) == 0);
    /* The driver's SD count (end of the highest object) is the model's. */
    assert_int_equal(d.sd_cnt, h->core.rdma.hmc.sd_cnt);
    /* PBLEs last, given every spare SD (256K PBLEs each) by the sizing. */
    v = e810_hmc_count(&h->core, E810_HMC_PBLE);
    assert_int_equal(v, d.obj[E810_HMC_PBLE].cnt);
    assert_true(d.obj[E810_HMC_PBLE].base + v * 8 <=
                (uint64_t)d.sd_cnt * E810_HMC_SD_SIZE);
    assert_true(d.obj[E810_HMC_PBLE].base + v * 8 +
                256 * 1024 * 8 > (uint64_t)d.sd_cnt * E810_HMC_SD_SIZE);
    assert_int_equal(d.sd_cnt, E810_PE_SDS_DEFAULT);
}

/* x-hmc-counts: every object count a guest's tests compare against. */
static void test_format_counts(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    char buf[256], want[64];

    committed(h, &d);
    assert_true(e810_hmc_format_counts(&h->core, buf, sizeof(buf)) > 0);
    snprintf(want, sizeof(want), " FSIMC=%u ",
             (unsigned)e810_hmc_count(&h->core, E810_HMC_FSIMC));
    assert_non_null(strstr(buf, want));
    snprintf(want, sizeof(want), "QP=%u ",
             (unsigned)e810_hmc_count(&h->core, E810_HMC_QP));
    assert_true(strncmp(buf, want, strlen(want)) == 0);
}

static void test_commit_over_maximum(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    rd_init(h, &d, 64);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    rd_query_fpm(&d);
    rd_size_fpm(&d, 262144);
    d.obj[E810_HMC_MR].cnt = d.obj[E810_HMC_MR].max + 1;
    assert_int_equal(rd_commit_fpm(&d), 0);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_PARAM));
    assert_false(h->core.rdma.hmc.committed);
}

static void test_commit_short_buffer(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t q[8] = { 0 };

    rd_init(h, &d, 64);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = d.commit_pa;
    assert_true(rd_exec_poll(&d, E810_CQP_OP_COMMIT_FPM_VAL,
                             FIELD_PREP(E810_CQPSQ_BUFSIZE, 100), q) &
                E810_CQPTAIL_CQP_OP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_SIZE));
    /* And an unreachable one. */
    q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = 0x7000000000ull;
    assert_true(rd_exec_poll(&d, E810_CQP_OP_COMMIT_FPM_VAL,
                             FIELD_PREP(E810_CQPSQ_BUFSIZE, 176), q) &
                E810_CQPTAIL_CQP_OP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_ADDR));
}

static void test_commit_while_queues_exist(void **state)
{
    Harness *h = *state;
    RdmaDriver d;

    rd_bringup(h, &d);
    assert_int_equal(rd_commit_fpm(&d), 0);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_STATE));
    assert_non_null(e810_cq_get(&h->core, 0));
}

static void test_direct_sd_translation(void **state)
{
    Harness *h = *state;
    E810Core *core = &h->core;
    RdmaDriver d;
    uint64_t sd0, pa;
    uint32_t run;

    committed(h, &d);
    sd0 = rd_direct_sd(&d, 0);
    assert_true(e810_hmc_translate(core, E810_HMC_QP, 5, 16, &pa, &run));
    assert_true(pa == sd0 + 5 * 512 + 16);
    assert_int_equal(run, 512 - 16);        /* capped at the object */
    assert_true(e810_hmc_translate(core, E810_HMC_CQ, 7, 0, &pa, NULL));
    assert_true(pa == sd0 + rd_fpm_addr(&d, E810_HMC_CQ, 7));
    assert_int_equal(core->rdma.hmc.faults, 0);
}

static void test_translation_bounds(void **state)
{
    Harness *h = *state;
    E810Core *core = &h->core;
    RdmaDriver d;
    uint32_t cmd;
    uint64_t pa, data, last_mr;

    committed(h, &d);
    /* Before any SD: nothing is backed. */
    assert_false(e810_hmc_translate(core, E810_HMC_QP, 0, 0, &pa, NULL));
    assert_int_equal(rd32(h, E810_PFHMC_ERRORINFO),
                     E810_PFHMC_ERRORINFO_DETECTED |
                     FIELD_PREP(E810_PFHMC_ERRORINFO_ERROR_TYPE, 2) |
                     FIELD_PREP(E810_PFHMC_ERRORINFO_OBJ_TYPE, E810_HMC_QP));
    rd_direct_sd(&d, 0);
    /* Index and offset beyond the committed object. */
    assert_false(e810_hmc_translate(core, E810_HMC_QP, 1024, 0, &pa, NULL));
    assert_false(e810_hmc_translate(core, E810_HMC_QP, 0, 512, &pa, NULL));
    assert_false(e810_hmc_translate(core, E810_HMC_OBJ_MAX, 0, 0, &pa, NULL));
    assert_int_equal(FIELD_GET(E810_PFHMC_ERRORINFO_ERROR_TYPE,
                               rd32(h, E810_PFHMC_ERRORINFO)), 1);
    /* The last MR is in SD 1, which is not valid. */
    last_mr = rd_fpm_addr(&d, E810_HMC_MR, 16383);
    assert_int_equal(last_mr >> E810_HMC_SD_SHIFT, 1);
    assert_false(e810_hmc_translate(core, E810_HMC_MR, 16383, 0, &pa, NULL));
    assert_int_equal(rd32(h, E810_PFHMC_ERRORDATA), (uint32_t)last_mr);
    /* A direct SD backed by 16 pages only covers 64 KiB. */
    cmd = rd_sd_cmd(0);
    data = (rd_sd_data(mem_alloc_aligned(h, 65536, 4096), true, true) &
            ~E810_HMC_SDDATA_BPCOUNT) | FIELD_PREP(E810_HMC_SDDATA_BPCOUNT, 16);
    assert_true(rd_update_sds(&d, 1, &cmd, &data));
    assert_true(e810_hmc_translate(core, E810_HMC_QP, 127, 0, &pa, NULL));
    assert_false(e810_hmc_translate(core, E810_HMC_QP, 128, 0, &pa, NULL));
    assert_int_equal(FIELD_GET(E810_PFHMC_ERRORINFO_ERROR_TYPE,
                               rd32(h, E810_PFHMC_ERRORINFO)), 3);
}

/* A paged PBLE segment; PD entries are cached until PFHMC_PDINV. */
static void test_paged_sd_and_pdinv(void **state)
{
    Harness *h = *state;
    E810Core *core = &h->core;
    RdmaDriver d;
    uint64_t pd_page, pg0, pg1, pg2, pa;
    uint32_t cmd;
    uint64_t data;
    unsigned sd, errors;

    committed(h, &d);
    sd = pble_sd(&d);
    pd_page = mem_alloc_aligned(h, 4096, 4096);
    pg0 = mem_alloc_aligned(h, 4096, 4096);
    pg1 = mem_alloc_aligned(h, 4096, 4096);
    pg2 = mem_alloc_aligned(h, 4096, 4096);
    rd_set64(&d, pd_page + 0, pg0 | E810_HMC_PDE_VALID);
    rd_set64(&d, pd_page + 8, pg1 | E810_HMC_PDE_VALID);
    cmd = rd_sd_cmd(sd);
    data = rd_sd_data(pd_page, false, true);
    assert_true(rd_update_sds(&d, 1, &cmd, &data));

    /* PBLE i lives at byte 8 i of the segment: PD i / 512. */
    assert_true(e810_hmc_translate(core, E810_HMC_PBLE, 3, 0, &pa, NULL));
    assert_true(pa == pg0 + 24);
    assert_true(e810_hmc_translate(core, E810_HMC_PBLE, 512, 4, &pa, NULL));
    assert_true(pa == pg1 + 4);
    assert_false(e810_hmc_translate(core, E810_HMC_PBLE, 1024, 0, &pa, NULL));

    /* Rewritten without PDINV: the device still uses its cached entry. */
    rd_set64(&d, pd_page + 0, pg2 | E810_HMC_PDE_VALID);
    assert_true(e810_hmc_translate(core, E810_HMC_PBLE, 0, 0, &pa, NULL));
    assert_true(pa == pg0);
    /* PDINV for another PD changes nothing; for this one it does. */
    wr32(h, E810_PFHMC_PDINV, sd | E810_PFHMC_PDINV_PMSDPARTSEL |
         FIELD_PREP(E810_PFHMC_PDINV_PMPDIDX, 1));
    assert_true(e810_hmc_translate(core, E810_HMC_PBLE, 0, 0, &pa, NULL));
    assert_true(pa == pg0);
    wr32(h, E810_PFHMC_PDINV, sd | E810_PFHMC_PDINV_PMSDPARTSEL |
         FIELD_PREP(E810_PFHMC_PDINV_PMPDIDX, 0));
    assert_true(e810_hmc_translate(core, E810_HMC_PBLE, 0, 0, &pa, NULL));
    assert_true(pa == pg2);
    /* PDINV naming an SD beyond the function is ignored and logged. */
    errors = h->log_guest_error;
    wr32(h, E810_PFHMC_PDINV, 100);
    assert_int_equal(h->log_guest_error, errors + 1);
}

static void test_pble_levels(void **state)
{
    Harness *h = *state;
    E810Core *core = &h->core;
    RdmaDriver d;
    uint64_t pd_page, pbl_page, pa;
    uint64_t base;
    uint32_t cmd;
    uint64_t data;

    committed(h, &d);
    pd_page = mem_alloc_aligned(h, 4096, 4096);
    pbl_page = mem_alloc_aligned(h, 4096, 4096);
    rd_set64(&d, pd_page, pbl_page | E810_HMC_PDE_VALID);
    cmd = rd_sd_cmd(pble_sd(&d));
    data = rd_sd_data(pd_page, false, true);
    assert_true(rd_update_sds(&d, 1, &cmd, &data));
    base = pbl_page;
    /* Level 1 at PBLE 10: pages 0x111000, 0x222000. */
    rd_set64(&d, base + 8 * 10, 0x111000);
    rd_set64(&d, base + 8 * 11, 0x222000);
    assert_true(e810_pble_resolve(core, 10, E810_LPBL_LEVEL1, 12, 0x1234,
                                  &pa));
    assert_true(pa == 0x222234);
    /* Level 2: root at PBLE 100 -> leaf list at PBLE 200. */
    rd_set64(&d, base + 8 * 100, 200);
    rd_set64(&d, base + 8 * 101, 300);
    rd_set64(&d, base + 8 * 205, 0xabc000);
    rd_set64(&d, base + 8 * 301, 0xdef000);
    assert_true(e810_pble_resolve(core, 100, E810_LPBL_LEVEL2, 12,
                                  5 * 4096 + 7, &pa));
    assert_true(pa == 0xabc007);
    assert_true(e810_pble_resolve(core, 100, E810_LPBL_LEVEL2, 12,
                                  513ull * 4096, &pa));
    assert_true(pa == 0xdef000);
    /*
     * 2 MiB pages keep 21 offset bits. PBLE 12 was read ahead with 10 and
     * 11: the old value until the cache is dropped (as each message start,
     * CQP op and FAST_REG does), the new one after.
     */
    rd_set64(&d, base + 8 * 12, 0x40000000);
    assert_true(e810_pble_resolve(core, 12, E810_LPBL_LEVEL1, 21, 0x12345,
                                  &pa));
    assert_true(pa == 0x12345);
    e810_pble_cache_drop(core);
    assert_true(e810_pble_resolve(core, 12, E810_LPBL_LEVEL1, 21, 0x12345,
                                  &pa));
    assert_true(pa == 0x40012345);
    /* A PBLE index beyond the PD that is backed, and a bad level code. */
    assert_false(e810_pble_resolve(core, 600, E810_LPBL_LEVEL1, 12, 0, &pa));
    assert_false(e810_pble_resolve(core, 10, 2, 12, 0, &pa));
}

static void test_update_sds_buffer_entries(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint32_t cmd[5];
    uint64_t data[5], got;
    unsigned i;

    committed(h, &d);
    for (i = 0; i < 5; i++) {
        cmd[i] = rd_sd_cmd(10 + i);
        data[i] = rd_sd_data(0x40000000ull + i * E810_HMC_SD_SIZE, i % 2,
                             true);
    }
    assert_true(rd_update_sds(&d, 5, cmd, data));
    for (i = 0; i < 5; i++) {
        /* Read back through the register interface. */
        wr32(h, E810_PFHMC_SDCMD, 10 + i);
        got = (uint64_t)rd32(h, E810_PFHMC_SDDATAHIGH) << 32 |
              rd32(h, E810_PFHMC_SDDATALOW);
        assert_true(got == data[i]);
    }
}

static void test_update_sds_all_or_nothing(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint32_t cmd[3] = { rd_sd_cmd(1), rd_sd_cmd(2), rd_sd_cmd(32) };
    uint64_t data[3];
    unsigned i;

    committed(h, &d);
    for (i = 0; i < 3; i++) {
        data[i] = rd_sd_data(0x40000000, true, true);
    }
    assert_false(rd_update_sds(&d, 3, cmd, data));
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_INDEX));
    assert_false(h->core.rdma.hmc.sd[1].valid);
    assert_false(h->core.rdma.hmc.sd[2].valid);
}

static void test_update_sds_bad_entries(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint32_t cmd = rd_sd_cmd(1);
    uint64_t data = rd_sd_data(0x40000000, true, true) &
                    ~E810_HMC_SDDATA_BPCOUNT;
    uint64_t q[8] = { 0 };

    committed(h, &d);
    assert_false(rd_update_sds(&d, 1, &cmd, &data));   /* no backing pages */
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_PARAM));
    cmd &= ~E810_HMC_SDCMD_WR;
    data = rd_sd_data(0x40000000, true, true);
    assert_false(rd_update_sds(&d, 1, &cmd, &data));   /* not a write */
    /* Another function's SDs. */
    q[E810_QW(E810_CQPSQ_UPESD_BUF_OFF)] = 3;
    q[E810_QW(E810_CQPSQ_UPESD_E0_CMD_OFF)] = rd_sd_cmd(1);
    q[E810_QW(E810_CQPSQ_UPESD_E0_DATA_OFF)] = data;
    assert_true(rd_exec_poll(&d, E810_CQP_OP_UPDATE_PE_SDS, 0, q) &
                E810_CQPTAIL_CQP_OP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES), ERRCODES(E810_CQP_MIN_BAD_FN));
    /* SD buffer unreachable. */
    q[E810_QW(E810_CQPSQ_UPESD_BUF_OFF)] = 0x7000000000ull;
    assert_true(rd_exec_poll(&d, E810_CQP_OP_UPDATE_PE_SDS,
                             FIELD_PREP(E810_CQPSQ_UPESD_ENTRY_COUNT, 2), q) &
                E810_CQPTAIL_CQP_OP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_ADDR));
    assert_false(h->core.rdma.hmc.sd[1].valid);
}

static void test_sd_registers(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t sd_pa, pa, data;

    committed(h, &d);
    sd_pa = mem_alloc_aligned(h, E810_HMC_SD_SIZE, 4096);
    data = rd_sd_data(sd_pa, true, true);
    wr32(h, E810_PFHMC_SDDATALOW, (uint32_t)data);
    wr32(h, E810_PFHMC_SDDATAHIGH, data >> 32);
    wr32(h, E810_PFHMC_SDCMD, rd_sd_cmd(0));
    assert_true(e810_hmc_translate(&h->core, E810_HMC_QP, 3, 0, &pa, NULL));
    assert_true(pa == sd_pa + 3 * 512);
    /* Beyond the function's SDs: dropped. */
    wr32(h, E810_PFHMC_SDCMD, rd_sd_cmd(40));
    assert_int_equal(h->log_guest_error, 1);
    /* Clearing the SD takes the backing away. */
    wr32(h, E810_PFHMC_SDDATALOW, 0);
    wr32(h, E810_PFHMC_SDDATAHIGH, 0);
    wr32(h, E810_PFHMC_SDCMD, rd_sd_cmd(0));
    assert_false(e810_hmc_translate(&h->core, E810_HMC_QP, 3, 0, &pa, NULL));
}

/* e810_core_stats() (QMP x-core-stats): "name=value" of one counter. */
static unsigned long long core_stat(Harness *h, const char *name)
{
    char buf[512], key[64];
    const char *p;

    assert_true(e810_core_stats(&h->core, buf, sizeof(buf)) <
                (int)sizeof(buf));
    snprintf(key, sizeof(key), "%s=", name);
    p = strstr(buf, key);
    assert_non_null(p);
    return strtoull(p + strlen(key), NULL, 10);
}

/*
 * The device's own counters the VM scenarios read: valid SDs follow
 * PFHMC_SDCMD, a function reset clears them and counts as a PF reset.
 */
static void test_core_stats(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    unsigned long long resets;
    uint64_t data;

    committed(h, &d);
    assert_int_equal(core_stat(h, "valid_sds"), 0);
    data = rd_sd_data(mem_alloc_aligned(h, E810_HMC_SD_SIZE, 4096), true,
                      true);
    wr32(h, E810_PFHMC_SDDATALOW, (uint32_t)data);
    wr32(h, E810_PFHMC_SDDATAHIGH, data >> 32);
    wr32(h, E810_PFHMC_SDCMD, rd_sd_cmd(0));
    wr32(h, E810_PFHMC_SDCMD, rd_sd_cmd(2));
    assert_int_equal(core_stat(h, "valid_sds"), 2);
    wr32(h, E810_PFHMC_SDDATALOW, 0);
    wr32(h, E810_PFHMC_SDDATAHIGH, 0);
    wr32(h, E810_PFHMC_SDCMD, rd_sd_cmd(2));
    assert_int_equal(core_stat(h, "valid_sds"), 1);
    resets = core_stat(h, "pf_resets");
    e810_core_flr(&h->core);
    assert_int_equal(core_stat(h, "pf_resets"), resets + 1);
    assert_int_equal(core_stat(h, "valid_sds"), 0);
}

/*
 * The function's FPM space is a device knob ("hmc-sds"): out-of-range
 * values are refused, a new one shows in QUERY_FPM_VAL after the reset, and
 * the driver's sizing then lands on the profile it buys: 160 SDs give the
 * 16K QPs (and more than 64K MRs) of the scale scenario, 32 give 1024.
 * SDs beyond the new space are dropped, the last one inside is taken.
 */
static void test_sds_knob(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t sd_pa, data;

    assert_int_equal(e810_core_set_hmc_sds(&h->core, 0), -EINVAL);
    assert_int_equal(e810_core_set_hmc_sds(&h->core, E810_PE_SDS_LIMIT + 1),
                     -EINVAL);
    assert_int_equal(e810_core_set_hmc_sds(&h->core, 160), 0);
    /* Not before the reset: the committed-to space does not move. */
    assert_int_equal(h->core.rdma.hmc.max_sds, E810_PE_SDS_DEFAULT);
    e810_core_reset(&h->core);
    rd_init(h, &d, 64);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    rd_query_fpm(&d);
    assert_int_equal(d.max_sds, 160);
    assert_true(rd_size_fpm(&d, 262144) > 0);
    assert_int_equal(d.obj[E810_HMC_QP].cnt, 16384);
    assert_int_equal(d.obj[E810_HMC_CQ].cnt, 32768);
    assert_true(d.obj[E810_HMC_MR].cnt >= 65536);
    assert_true(rd_commit_fpm(&d) > 0);
    assert_int_equal(e810_hmc_count(&h->core, E810_HMC_QP), 16384);
    assert_true(h->core.rdma.hmc.sd_cnt <= 160);

    sd_pa = mem_alloc_aligned(h, 4096, 4096);
    data = rd_sd_data(sd_pa, false, true);
    wr32(h, E810_PFHMC_SDDATALOW, (uint32_t)data);
    wr32(h, E810_PFHMC_SDDATAHIGH, data >> 32);
    wr32(h, E810_PFHMC_SDCMD, rd_sd_cmd(160));
    assert_int_equal(h->log_guest_error, 1);
    wr32(h, E810_PFHMC_SDCMD, rd_sd_cmd(159));
    assert_int_equal(h->log_guest_error, 1);
    assert_true(h->core.rdma.hmc.sd[159].valid);
}

/*
 * The driver sizes by packing (irdma_est_sd()) and gives the spare SDs to
 * PBLEs; the PBLEs' own SD boundary then overruns the function: the
 * commit still succeeds, with fewer PBLEs written back, and the layout
 * ends within the function's SDs. 128 QPs (limits_sel 0) do that with the
 * default 32 SDs. Beyond what packing allows it is still refused.
 */
static void test_commit_trims_pbles(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint32_t asked;
    uint64_t end;

    rd_init(h, &d, 64);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    rd_query_fpm(&d);
    assert_true(rd_size_fpm(&d, 128) > 1);
    assert_int_equal(d.obj[E810_HMC_QP].cnt, 128);
    assert_true(rd_est_sd(&d) <= d.max_sds);
    asked = d.obj[E810_HMC_PBLE].cnt;
    assert_true(rd_commit_fpm(&d) > 0);
    assert_true(d.obj[E810_HMC_PBLE].cnt < asked);
    assert_int_equal(e810_hmc_count(&h->core, E810_HMC_PBLE),
                     d.obj[E810_HMC_PBLE].cnt);
    assert_int_equal(d.obj[E810_HMC_PBLE].base % E810_HMC_SD_SIZE, 0);
    end = d.obj[E810_HMC_PBLE].base + d.obj[E810_HMC_PBLE].cnt * 8ull;
    assert_true(end <= (uint64_t)d.max_sds * E810_HMC_SD_SIZE);
    assert_true(end + E810_HMC_SD_SIZE >
                (uint64_t)d.max_sds * E810_HMC_SD_SIZE);

    /* One SD's worth of PBLEs more than packing allows: refused. */
    e810_core_reset(&h->core);
    rd_init(h, &d, 64);
    assert_int_equal(rd_cqp_create(&d), E810_CCQPSTATUS_CCQP_DONE);
    rd_query_fpm(&d);
    assert_true(rd_size_fpm(&d, 128) > 1);
    d.obj[E810_HMC_PBLE].cnt += E810_HMC_SD_SIZE / 8;
    assert_int_equal(rd_commit_fpm(&d), 0);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     ERRCODES(E810_CQP_MIN_BAD_SIZE));
}

/* An object without backing memory cannot be created (AEQ not needed). */
static void test_unbacked_object(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t q[8] = { 0 };
    uint32_t tail;

    committed(h, &d);
    q[E810_QW(E810_CQPSQ_CQ_SIZE_OFF)] = 16;
    q[E810_QW(E810_CQPSQ_CQ_PA_OFF)] = mem_alloc_aligned(h, 512, 256);
    q[E810_QW(E810_CQPSQ_CQ_SHADOW_OFF)] = mem_alloc(h, 64);
    tail = rd_exec_poll(&d, E810_CQP_OP_CREATE_CQ,
                        FIELD_PREP(E810_CQPSQ_CQ_CQID, 0), q);
    assert_true(tail & E810_CQPTAIL_CQP_OP_ERR);
    assert_int_equal(rd32(h, E810_CQPERRCODES),
                     (uint32_t)E810_CQP_MAJ_OBJCACHE_ERROR << 16 |
                     E810_CQP_MIN_HMC);
    assert_true(rd32(h, E810_PFHMC_ERRORINFO) & E810_PFHMC_ERRORINFO_DETECTED);
    assert_null(e810_cq_get(&h->core, 0));
}

static void test_shmc_pages_allocated(void **state)
{
    Harness *h = *state;
    RdmaDriver d;
    uint64_t q[8] = { 0 };

    committed(h, &d);
    q[E810_QW(E810_CQPSQ_SHMC_FN_OFF)] = 5;
    assert_true(rd_exec_poll(&d, E810_CQP_OP_SHMC_PAGES_ALLOCATED, 0, q) &
                E810_CQPTAIL_CQP_OP_ERR);
    q[E810_QW(E810_CQPSQ_SHMC_FN_OFF)] = 0;
    assert_false(rd_exec_poll(&d, E810_CQP_OP_SHMC_PAGES_ALLOCATED, 0, q) &
                 E810_CQPTAIL_CQP_OP_ERR);
    assert_true(h->core.rdma.hmc.pages_allocated);
}

/* A second function is its own HMC function: fn id 1. */
static void test_function_one(void **state)
{
    Harness *h = harness_new(1);
    RdmaDriver d;

    assert_non_null(h);
    rd_bringup(h, &d);
    assert_int_equal(h->log_guest_error, 0);
    harness_free(h);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, harness_setup, \
                                              harness_teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_query_buffer),
        T(test_query_other_function),
        T(test_commit_layout),
    T(test_format_counts),
        T(test_commit_over_maximum),
        T(test_commit_trims_pbles),
        T(test_commit_short_buffer),
        T(test_commit_while_queues_exist),
        T(test_direct_sd_translation),
        T(test_translation_bounds),
        T(test_paged_sd_and_pdinv),
        T(test_pble_levels),
        T(test_update_sds_buffer_entries),
        T(test_update_sds_all_or_nothing),
        T(test_update_sds_bad_entries),
        T(test_sd_registers),
        T(test_core_stats),
        T(test_sds_knob),
        T(test_unbacked_object),
        T(test_shmc_pages_allocated),
        cmocka_unit_test(test_function_one),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_hmc", tests, NULL, NULL);
}
