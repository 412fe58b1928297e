/*
 * Device model: the emulated X722 (qemu-device/model/x722_*.c) as i40e
 * probes and runs it: reset values, the PF reset, each admin queue
 * command i40e sends and the refusals, the NVM image and its checksum,
 * the LAN HMC, Tx (head write-back, checksum, TSO) and Rx.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "x722_rig.h"

static int setup(void **state)
{
    XRig *r = calloc(1, sizeof(*r));

    if (!r || xr_init(r)) {
        return -1;
    }
    *state = r;
    return 0;
}

static int teardown(void **state)
{
    xr_fini(*state);
    free(*state);
    return 0;
}

/* ---- registers ---- */

static void test_reset_values(void **state)
{
    XRig *r = *state;

    /* i40e_pf_reset(): both "done" bits; i40e_init_nvm(): FLA locked. */
    assert_int_equal(xr_rd(r, X722_GLNVM_ULD) & 0x18, 0x18);
    assert_true(xr_rd(r, X722_GLNVM_FLA) & X722_GLNVM_FLA_LOCKED);
    assert_int_equal((xr_rd(r, X722_GLNVM_GENS) >> 5) & 7, 2);
    assert_int_equal(xr_rd(r, X722_GL_FWSTS), 0);
    /* i40e_clear_hw(): at least 2 PF and 2 VF vectors */
    assert_true(((xr_rd(r, X722_GLPCI_CNF2) >> 2) & 0x7ff) >= 2);
    assert_true(((xr_rd(r, X722_GLPCI_CNF2) >> 13) & 0x7ff) >= 2);
    assert_int_equal(xr_rd(r, X722_PFLAN_QALLOC),
                     (X722_NUM_QUEUES - 1) << 16 | 1u << 31);
    /* PTP owned by no PF; FD eviction pctypes as i40e expects */
    assert_int_equal((xr_rd(r, X722_PRTTSYN_CTL0) >> 8) & 0xf, 0xf);
    assert_int_equal(xr_rd(r, X722_GLQF_FDEVICTENA(1)), 0xc03);
    assert_int_equal(xr_rd(r, X722_GLHMC_LANTXOBJSZ), 7);
    assert_int_equal(xr_rd(r, X722_GLHMC_LANRXOBJSZ), 5);
    /* i40e_validate_filter_settings(): 1K FCoE filters + 512 contexts */
    assert_true((xr_rd(r, X722_GLHMC_FCOEFMAX) & 0xffff) >= 1024 + 512);
    assert_true(xr_rd(r, X722_GLHMC_LANQMAX) >= X722_NUM_QUEUES);
    assert_int_equal(xr_rd(r, X722_GLPE_CPUSTATUS(0)), 0x80);
    assert_int_equal(xr_rd(r, X722_GLPE_CPUSTATUS(2)), 0x80);
    assert_int_equal(xr_rd(r, X722_PRTGL_SAH) >> 16, 0x2600);
}

static void test_read_only_and_bad_access(void **state)
{
    XRig *r = *state;

    xr_wr(r, X722_GLNVM_FLA, 0);
    assert_true(xr_rd(r, X722_GLNVM_FLA) & X722_GLNVM_FLA_LOCKED);
    assert_int_equal(r->core.stats.mmio_ro_write, 1);
    /* 2-byte and misaligned accesses, and beyond the register space */
    assert_int_equal(x722_core_mmio_read(&r->core, X722_GLNVM_FLA, 2), 0);
    x722_core_mmio_write(&r->core, X722_PFGEN_CTRL + 2, 1, 4);
    assert_int_equal(x722_core_mmio_read(&r->core, X722_REG_SPACE, 4), 0);
    assert_int_equal(r->core.stats.mmio_bad_access, 3);
    assert_int_equal(r->core.stats.pf_resets, 0);
    /* 8-byte reads (the 48-bit statistics) are two registers */
    assert_int_equal(x722_core_mmio_read(&r->core, X722_GLPE_CPUSTATUS(0),
                                         8), 0x0000008000000080ull);
}

static void test_pf_reset(void **state)
{
    XRig *r = *state;

    xr_wr(r, X722_PFINT_LNKLSTN(3), 0x123);
    xr_wr(r, X722_PFGEN_CTRL, X722_PFGEN_CTRL_PFSWR);
    /* PFSWR reads back clear at once; the AQ registers survive */
    assert_int_equal(xr_rd(r, X722_PFGEN_CTRL), 0);
    assert_int_equal(r->core.stats.pf_resets, 1);
    assert_int_equal(xr_rd(r, X722_PFINT_LNKLSTN(3)), 0);
    assert_int_equal(xr_rd(r, X722_PF_ATQBAL), (uint32_t)XR_ATQ);
    assert_true(xr_rd(r, X722_PF_ATQLEN) & X722_AQLEN_ENABLE);
    assert_int_equal(xr_rd(r, X722_GLNVM_ULD) & 0x18, 0x18);
}

/* Rig 0 with vector 0 armed for the reset warning (i40e_intr()). */
static void arm_grst(XRig *r)
{
    xr_wr(r, X722_PFINT_ICR0_ENA, X722_ICR0_GRST | X722_ICR0_ADMINQ);
    xr_wr(r, X722_PFINT_DYN_CTL0, X722_DYN_CTL_INTENA);
}

/*
 * The warning of a reset of @type on @r: DEVSTATE 1, GRST on vector 0,
 * and the done bits i40e_pf_reset() waits for clear: CONF_CORE_DONE, and
 * CONF_GLOBAL_DONE for a GLOBR or EMPR.
 */
static void assert_warned(XRig *r, unsigned type, unsigned fired)
{
    assert_int_equal(xr_rd(r, X722_GLGEN_RSTAT),
                     1 | type << X722_GLGEN_RSTAT_TYPE_SHIFT);
    assert_int_equal(xr_rd(r, X722_GLNVM_ULD) & X722_GLNVM_ULD_DONE,
                     type == X722_RESET_CORER ? X722_GLNVM_ULD_GLOBAL_DONE
                                              : 0);
    assert_int_equal(r->msix[0], fired + 1);
    assert_true(xr_rd(r, X722_PFINT_ICR0) & X722_ICR0_GRST);
}

/*
 * Arms both functions, sets off a reset of @type through @via (its
 * GLGEN_RTRIG bit @trig, or the firmware's EMPR when @trig is 0) and
 * checks the warning on both.
 */
static void reset_both(XRig *r0, XRig *r1, XRig *via, uint32_t trig,
                       unsigned type)
{
    unsigned f0, f1;

    arm_grst(r0);
    arm_grst(r1);
    f0 = r0->msix[0];
    f1 = r1->msix[0];
    if (trig) {
        xr_wr(via, X722_GLGEN_RTRIG, trig);
    } else {
        x722_core_empr(&via->core);
    }
    assert_warned(r0, type, f0);
    assert_warned(r1, type, f1);
}

/*
 * A core, global or EMP reset is the card's: written on one function (or
 * the firmware's own EMPR), each function joined to it is warned
 * (GLGEN_RSTAT DEVSTATE 1 with the type, PFINT_ICR0.GRST on vector 0, as
 * i40e_intr() of every PF then recovers) and reset; an EMPR clears the
 * admin queue's registers as well. A function that left the card no
 * longer hears of them.
 */
static void test_card_resets(void **state)
{
    XRig *r0 = *state, *r1 = calloc(1, sizeof(*r1));

    assert_non_null(r1);
    assert_int_equal(xr_init_pf(r1, 1), 0);
    assert_int_equal(xr_rd(r1, X722_PFGEN_PORTNUM), 1);
    x722_core_join(&r1->core, &r0->core);
    assert_ptr_equal(r0->core.card[1], &r1->core);
    assert_ptr_equal(r1->core.card[0], &r0->core);

    reset_both(r0, r1, r0, X722_GLGEN_RTRIG_CORER, X722_RESET_CORER);
    assert_int_equal(xr_rd(r1, X722_GLGEN_RTRIG), X722_GLGEN_RTRIG_CORER);
    /* a PF reset meanwhile does not end the core reset under way */
    xr_wr(r1, X722_PFGEN_CTRL, X722_PFGEN_CTRL_PFSWR);
    assert_int_equal(r1->core.stats.pf_resets, 1);
    assert_int_equal(xr_rd(r1, X722_GLGEN_RTRIG), X722_GLGEN_RTRIG_CORER);
    assert_int_equal(xr_rd(r1, X722_GLGEN_RSTAT),
                     1 | X722_RESET_CORER << X722_GLGEN_RSTAT_TYPE_SHIFT);
    assert_int_equal(xr_rd(r1, X722_GLNVM_ULD) & X722_GLNVM_ULD_DONE,
                     X722_GLNVM_ULD_GLOBAL_DONE);
    x722_core_run_work(&r0->core);
    x722_core_run_work(&r1->core);
    assert_int_equal(r0->core.stats.core_resets, 1);
    assert_int_equal(r1->core.stats.core_resets, 1);
    assert_int_equal(xr_rd(r1, X722_GLGEN_RSTAT),
                     X722_RESET_CORER << X722_GLGEN_RSTAT_TYPE_SHIFT);
    assert_int_equal(xr_rd(r1, X722_GLGEN_RTRIG), 0);
    assert_int_equal(xr_rd(r1, X722_GLNVM_ULD) & X722_GLNVM_ULD_DONE,
                     X722_GLNVM_ULD_DONE);
    /* the admin queue's registers are "Reset: EMPR" */
    assert_true(xr_rd(r1, X722_PF_ATQLEN) & X722_AQLEN_ENABLE);

    /* a GLOBR from function 1 */
    reset_both(r0, r1, r1, X722_GLGEN_RTRIG_GLOBR, X722_RESET_GLOBR);
    x722_core_run_work(&r0->core);
    x722_core_run_work(&r1->core);
    assert_int_equal(r0->core.stats.global_resets, 1);
    assert_int_equal(r1->core.stats.global_resets, 1);

    /* the firmware's EMPR: both warned, then the AQ registers gone too */
    reset_both(r0, r1, r1, 0, X722_RESET_EMPR);
    assert_true(xr_rd(r0, X722_PF_ATQLEN) & X722_AQLEN_ENABLE);   /* not yet */
    x722_core_run_work(&r0->core);
    x722_core_run_work(&r1->core);
    assert_int_equal(r0->core.stats.emp_resets, 1);
    assert_int_equal(r1->core.stats.emp_resets, 1);
    assert_int_equal(r0->core.stats.core_resets, 1);
    assert_int_equal(xr_rd(r0, X722_GLGEN_RSTAT),
                     X722_RESET_EMPR << X722_GLGEN_RSTAT_TYPE_SHIFT);
    assert_int_equal(xr_rd(r0, X722_PF_ATQLEN), 0);
    assert_int_equal(xr_rd(r1, X722_PF_ATQBAL), 0);
    assert_int_equal(xr_rd(r0, X722_GLNVM_ULD) & 0x18, 0x18);

    /* function 1 leaves: a CORER of function 0 is its own */
    x722_core_leave(&r1->core);
    assert_null(r0->core.card[1]);
    xr_wr(r0, X722_GLGEN_RTRIG, X722_GLGEN_RTRIG_CORER);
    x722_core_run_work(&r0->core);
    x722_core_run_work(&r1->core);
    assert_int_equal(r0->core.stats.core_resets, 2);
    assert_int_equal(r1->core.stats.core_resets, 1);
    assert_int_equal(xr_rd(r1, X722_GLGEN_RSTAT) & X722_GLGEN_RSTAT_DEVSTATE, 0);
    xr_fini(r1);
    free(r1);
}

/* ---- admin queue ---- */

static void test_aq_get_version(void **state)
{
    XRig *r = *state;
    uint8_t d[32];

    assert_int_equal(xr_cmd(r, 0x0001, NULL, NULL, 0, false, d), 0);
    assert_int_equal(xr_get16(d) & 0x7, 0x3);   /* DD | CMP, no ERR */
    assert_int_equal(xr_get16(d + 28), 1);      /* API 1.12 */
    assert_int_equal(xr_get16(d + 30), 12);
    assert_int_equal(xr_rd(r, X722_PF_ATQH), 1);
}

static void test_aq_unknown_and_bad_buffers(void **state)
{
    XRig *r = *state;
    uint8_t d[32], buf[1024] = { 0 };

    assert_int_equal(xr_cmd(r, 0x0c30, NULL, NULL, 0, false, d),
                     X722_AQ_RC_ENOSYS);
    assert_true(xr_get16(d) & 0x4);             /* ERR */
    assert_int_equal(r->core.stats.aq_unknown, 1);
    /* A buffer beyond 512 bytes without LB is refused. */
    xr_cmd(r, 0x0001, NULL, NULL, 0, false, NULL);
    {
        uint8_t *slot = xr_ptr(r, XR_ATQ + r->atq_next * 32);

        memset(slot, 0, 32);
        xr_put16(slot, 0x1000);
        xr_put16(slot + 2, 0x000a);
        xr_put16(slot + 4, 1024);
        xr_put32(slot + 28, (uint32_t)XR_CMDBUF);
        r->atq_next++;
        xr_wr(r, X722_PF_ATQT, r->atq_next);
        x722_core_run_work(&r->core);
        assert_int_equal(xr_get16(slot + 6), X722_AQ_RC_EINVAL);
    }
    /* A buffer the device cannot reach */
    {
        uint8_t *slot = xr_ptr(r, XR_ATQ + r->atq_next * 32);

        memset(slot, 0, 32);
        xr_put16(slot, 0x1000 | 0x200);
        xr_put16(slot + 2, 0x000a);
        xr_put16(slot + 4, 1024);
        xr_put32(slot + 28, 0x1000);
        r->atq_next++;
        xr_wr(r, X722_PF_ATQT, r->atq_next);
        x722_core_run_work(&r->core);
        assert_int_equal(xr_get16(slot + 6), X722_AQ_RC_EIO);
    }
    (void)buf;
    /* A tail beyond the ring is not run. */
    xr_wr(r, X722_PF_ATQT, XR_AQ_LEN + 3);
    x722_core_run_work(&r->core);
    assert_int_equal(xr_rd(r, X722_PF_ATQH), r->atq_next);
}

static void test_aq_caps(void **state)
{
    XRig *r = *state;
    uint8_t d[32], buf[1280];
    bool iwarp = false, rss = false;
    uint32_t n, i;

    /* Too small: ENOMEM with the size needed in datalen. */
    assert_int_equal(xr_cmd(r, 0x000a, NULL, buf, 64, false, d),
                     X722_AQ_RC_ENOMEM);
    assert_int_equal(xr_get16(d + 4), 7 * 32);
    assert_int_equal(xr_cmd(r, 0x000a, NULL, buf, sizeof(buf), false, d), 0);
    n = xr_get32(d + 20);
    assert_int_equal(n, 7);
    assert_int_equal(xr_get16(d + 4), n * 32);
    for (i = 0; i < n; i++) {
        uint8_t *e = buf + i * 32;

        if (xr_get16(e) == 0x0051) {
            iwarp = xr_get32(e + 4) == 1;
        }
        if (xr_get16(e) == 0x0040) {
            rss = xr_get32(e + 4) == 512 && xr_get32(e + 8) == 6;
        }
        if (xr_get16(e) == 0x0043) {
            assert_int_equal(xr_get32(e + 4), X722_MSIX_VECTORS);
        }
    }
    assert_true(iwarp);
    assert_true(rss);
}

static void test_aq_mac_read(void **state)
{
    XRig *r = *state;
    uint8_t d[32], buf[24];

    assert_int_equal(xr_cmd(r, 0x0107, NULL, buf, sizeof(buf), false, d), 0);
    assert_int_equal(xr_get16(d + 16) & 0x50, 0x50);
    assert_memory_equal(buf, r->core.mac, 6);
    assert_memory_equal(buf + 12, r->core.mac, 6);
    /* short buffer */
    assert_int_equal(xr_cmd(r, 0x0107, NULL, buf, 16, false, d),
                     X722_AQ_RC_EINVAL);
}

static uint16_t nvm_read(XRig *r, uint8_t module, uint32_t off, uint16_t len,
                         uint8_t *out)
{
    uint8_t p[16] = { 0 };

    p[0] = 1;
    p[1] = module;
    xr_put16(p + 2, len);
    xr_put32(p + 4, off);
    return xr_cmd(r, 0x0701, p, out, len, false, NULL);
}

static void test_aq_nvm(void **state)
{
    XRig *r = *state;
    uint8_t p[16] = { 0 }, sec[4096], w[2];
    uint16_t sum = 0;
    unsigned i;

    /* Not owned: refused. */
    assert_int_equal(nvm_read(r, 0, 0, 2, w), X722_AQ_RC_EPERM);
    xr_put16(p, 1);
    xr_put16(p + 2, 1);
    assert_int_equal(xr_cmd(r, 0x0008, p, NULL, 0, false, NULL), 0);
    assert_int_equal(nvm_read(r, 0, 0, 2, w), 0);
    assert_int_equal((xr_get16(w) >> 6) & 3, 1);    /* control word */
    /* The whole shadow RAM in one sector; the checksum holds. */
    assert_int_equal(nvm_read(r, 0, 0, 4096, sec), 0);
    for (i = 0; i < 2048; i++) {
        sum += xr_get16(sec + 2 * i);
    }
    assert_int_equal(sum, 0xbaba);
    /* Beyond the SR, across sectors, odd lengths: refused. */
    assert_int_equal(nvm_read(r, 0, 4096, 2, w), X722_AQ_RC_EINVAL);
    assert_int_equal(nvm_read(r, 0, 4094, 4, sec), X722_AQ_RC_EINVAL);
    assert_int_equal(nvm_read(r, 0, 1, 2, w), X722_AQ_RC_EINVAL);
    /* The EMP module's OCP word (i40e_parse_discover_capabilities) */
    assert_int_equal(nvm_read(r, 0x48, 0x56, 2, w), 0);
    assert_int_equal(xr_get16(w), 0);
    /* A module pointer that points nowhere */
    assert_int_equal(nvm_read(r, 0x49, 0, 2, w), X722_AQ_RC_ENOENT);
    /* Released: refused again; other resources do not exist */
    assert_int_equal(xr_cmd(r, 0x0009, p, NULL, 0, false, NULL), 0);
    assert_int_equal(nvm_read(r, 0, 0, 2, w), X722_AQ_RC_EPERM);
    xr_put16(p, 2);
    assert_int_equal(xr_cmd(r, 0x0008, p, NULL, 0, false, NULL),
                     X722_AQ_RC_EINVAL);
}

static void test_aq_switch_and_vsi(void **state)
{
    XRig *r = *state;
    uint8_t d[32], buf[512], props[128], p[16] = { 0 };
    uint16_t seid;

    assert_int_equal(xr_cmd(r, 0x0200, NULL, buf, sizeof(buf), false, d), 0);
    assert_int_equal(xr_get16(buf), 1);
    assert_int_equal(buf[16], 19);                  /* a VSI */
    seid = xr_get16(buf + 18);
    assert_int_equal(xr_get16(d + 16), 0);          /* no next seid */
    xr_put16(p, seid);
    assert_int_equal(xr_cmd(r, 0x0212, p, props, 128, false, d), 0);
    assert_int_equal(xr_get16(d + 16), seid);
    assert_int_not_equal(xr_get16(props + 96), 0xffff);     /* qs_handle */
    /* Another SEID is not there */
    xr_put16(p, seid + 1);
    assert_int_equal(xr_cmd(r, 0x0212, p, props, 128, false, d),
                     X722_AQ_RC_ENOENT);
    /* Update: TCP_ENA and a queue map of 2 queues */
    memset(props, 0, sizeof(props));
    xr_put16(props, 0x0040 | 0x0080);
    xr_put16(props + 30, 0);
    xr_put16(props + 62, 1 << 9);
    xr_put16(props + 78, 0x10);
    xr_put16(p, seid);
    assert_int_equal(xr_cmd(r, 0x0211, p, props, 128, true, d), 0);
    assert_int_equal(r->core.fw.vsi_queue_opt, 0x10);
    /* A map beyond the function's queues is refused and not applied */
    xr_put16(props + 30, X722_NUM_QUEUES - 1);
    xr_put16(props + 78, 0);
    assert_int_equal(xr_cmd(r, 0x0211, p, props, 128, true, d),
                     X722_AQ_RC_EINVAL);
    assert_int_equal(r->core.fw.vsi_queue_opt, 0x10);
    /* bandwidth queries */
    xr_put16(p, seid);
    assert_int_equal(xr_cmd(r, 0x0400, p, NULL, 0, false, d), 0);
    assert_int_equal(xr_cmd(r, 0x0408, p, buf, 64, false, d), 0);
    assert_int_equal(buf[0], 1);
    assert_int_equal(xr_get16(buf + 16), 0x0010);     /* its qs_handle */
    assert_int_equal(xr_cmd(r, 0x040a, p, buf, 32, false, d), 0);
}

static void test_aq_macvlan(void **state)
{
    XRig *r = *state;
    uint8_t p[16] = { 0 }, e[32] = { 0 };

    xr_put16(p, 2);
    xr_put16(p + 2, 390 | 0x8000);
    memcpy(e, r->core.mac, 6);
    e[16] = 0x33;
    e[17] = 0x33;
    e[12] = e[28] = 0xff;                           /* as i40e pre-sets */
    assert_int_equal(xr_cmd(r, 0x0250, p, e, 32, true, NULL), 0);
    assert_int_not_equal(e[12], 0xff);
    assert_int_not_equal(e[28], 0xff);
    assert_int_equal(r->core.fw.nmacs, 2);
    /* removing an address that is not there */
    xr_put16(p, 1);
    e[0] ^= 2;
    assert_int_equal(xr_cmd(r, 0x0251, p, e, 16, true, NULL),
                     X722_AQ_RC_ENOENT);
    e[0] ^= 2;
    assert_int_equal(xr_cmd(r, 0x0251, p, e, 16, true, NULL), 0);
    assert_int_equal(r->core.fw.nmacs, 1);
    /* no SEID_VALID, or a count the buffer does not hold */
    xr_put16(p + 2, 390);
    assert_int_equal(xr_cmd(r, 0x0250, p, e, 16, true, NULL),
                     X722_AQ_RC_EINVAL);
    xr_put16(p, 3);
    xr_put16(p + 2, 390 | 0x8000);
    assert_int_equal(xr_cmd(r, 0x0250, p, e, 32, true, NULL),
                     X722_AQ_RC_EINVAL);
}

static void test_aq_promisc(void **state)
{
    XRig *r = *state;
    uint8_t p[16] = { 0 };

    /* i40e_aq_set_vsi_broadcast(): the plain SEID, no valid bit */
    xr_put16(p, 0x04);
    xr_put16(p + 2, 0x04);
    xr_put16(p + 4, 390);
    assert_int_equal(xr_cmd(r, 0x0254, p, NULL, 0, false, NULL), 0);
    assert_true(r->core.fw.bcast);
    assert_false(r->core.fw.uc_promisc);
    /* only the valid bits change */
    xr_put16(p, 0x01);
    xr_put16(p + 2, 0x01);
    assert_int_equal(xr_cmd(r, 0x0254, p, NULL, 0, false, NULL), 0);
    assert_true(r->core.fw.bcast);
    assert_true(r->core.fw.uc_promisc);
    xr_put16(p + 4, 391);
    assert_int_equal(xr_cmd(r, 0x0254, p, NULL, 0, false, NULL),
                     X722_AQ_RC_EINVAL);
}

static void test_aq_link_and_event(void **state)
{
    XRig *r = *state;
    uint8_t d[32], p[16] = { 0 }, phy[0x218];
    uint8_t *ev;

    xr_put16(p, 0x3);                               /* LSE enable */
    assert_int_equal(xr_cmd(r, 0x0607, p, NULL, 0, false, d), 0);
    assert_int_equal(d[16] & 1, 1);                 /* LSE_IS_ENABLED */
    assert_int_equal(d[20] & 0x41, 0x41);           /* LINK_UP, MEDIA */
    assert_int_equal(d[19], 0x08);                  /* 10 Gb/s */
    memset(p, 0, sizeof(p));
    assert_int_equal(xr_cmd(r, 0x0600, p, phy, sizeof(phy), false, d), 0);
    assert_int_not_equal(xr_get32(phy), 0);
    assert_int_not_equal(phy[4], 0);
    /* Link down: an event on the ARQ and the ADMINQ cause on vector 0 */
    xr_wr(r, X722_PFINT_ICR0_ENA, X722_ICR0_ADMINQ);
    xr_wr(r, X722_PFINT_DYN_CTL0, X722_DYN_CTL_INTENA);
    x722_core_set_link(&r->core, false);
    assert_int_equal(xr_rd(r, X722_PF_ARQH), 1);
    ev = xr_ptr(r, XR_ARQ);
    assert_int_equal(xr_get16(ev + 2), 0x0607);
    assert_int_equal(ev[20] & 1, 0);
    assert_int_equal(r->msix[0], 1);
    assert_true(xr_rd(r, X722_PFINT_ICR0) & X722_ICR0_ADMINQ);
    assert_int_equal(xr_rd(r, X722_PFINT_ICR0), 0);     /* read-to-clear */
    /* vector 0 auto-masked: the next event waits for the re-arm */
    x722_core_set_link(&r->core, true);
    assert_int_equal(r->msix[0], 1);
    xr_wr(r, X722_PFINT_DYN_CTL0, X722_DYN_CTL_INTENA);
    assert_int_equal(r->msix[0], 2);
    /* a PHY type this port does not have */
    memset(p, 0, sizeof(p));
    xr_put32(p, 1u << 3);
    assert_int_equal(xr_cmd(r, 0x0601, p, NULL, 0, false, d),
                     X722_AQ_RC_EINVAL);
}

/* Set MAC Config (0x0603, the 7.x i40e's probe): Get Link Status reports
 * the frame size set; 0 and more than 9728 are refused. */
static void test_aq_set_mac_config(void **state)
{
    XRig *r = *state;
    uint8_t d[32], p[16] = { 0 };

    assert_int_equal(xr_cmd(r, 0x0607, p, NULL, 0, false, d), 0);
    assert_int_equal(xr_get16(d + 24), 9728);
    xr_put16(p, 1522);
    p[2] = 0x04;                                    /* CRC_EN */
    assert_int_equal(xr_cmd(r, 0x0603, p, NULL, 0, false, NULL), 0);
    memset(p, 0, sizeof(p));
    assert_int_equal(xr_cmd(r, 0x0607, p, NULL, 0, false, d), 0);
    assert_int_equal(xr_get16(d + 24), 1522);
    xr_put16(p, 9729);
    assert_int_equal(xr_cmd(r, 0x0603, p, NULL, 0, false, NULL),
                     X722_AQ_RC_EINVAL);
    xr_put16(p, 0);
    assert_int_equal(xr_cmd(r, 0x0603, p, NULL, 0, false, NULL),
                     X722_AQ_RC_EINVAL);
    xr_put16(p, 9728);
    assert_int_equal(xr_cmd(r, 0x0603, p, NULL, 0, false, NULL), 0);
    memset(p, 0, sizeof(p));
    assert_int_equal(xr_cmd(r, 0x0607, p, NULL, 0, false, d), 0);
    assert_int_equal(xr_get16(d + 24), 9728);
}

static void test_aq_rss(void **state)
{
    XRig *r = *state;
    uint8_t p[16] = { 0 }, lut[512] = { 0 }, key[52] = { 0 };

    xr_put16(p, 6 | 0x8000);
    assert_int_equal(xr_cmd(r, 0x0b02, p, key, sizeof(key), true, NULL), 0);
    xr_put16(p + 2, 1);                             /* PF LUT */
    lut[5] = 1;
    assert_int_equal(xr_cmd(r, 0x0b03, p, lut, sizeof(lut), true, NULL), 0);
    assert_int_equal(r->core.fw.rss_lut[5], 1);
    lut[7] = X722_NUM_QUEUES;                       /* no such queue */
    assert_int_equal(xr_cmd(r, 0x0b03, p, lut, sizeof(lut), true, NULL),
                     X722_AQ_RC_EINVAL);
    xr_put16(p, 7 | 0x8000);                        /* no such VSI */
    assert_int_equal(xr_cmd(r, 0x0b02, p, key, sizeof(key), true, NULL),
                     X722_AQ_RC_EINVAL);
}

static void test_aq_debug_read_reg(void **state)
{
    XRig *r = *state;
    uint8_t d[32], p[16] = { 0 };

    xr_put32(p, X722_PRTGEN_CNF(2));
    assert_int_equal(xr_cmd(r, 0xff03, p, NULL, 0, false, d), 0);
    assert_int_equal(xr_get32(d + 28) & 1, 1);      /* port 2 absent */
    xr_put32(p, X722_PRTGEN_CNF(0));
    assert_int_equal(xr_cmd(r, 0xff03, p, NULL, 0, false, d), 0);
    assert_int_equal(xr_get32(d + 28) & 1, 0);
    xr_put32(p, 3);
    assert_int_equal(xr_cmd(r, 0xff03, p, NULL, 0, false, d),
                     X722_AQ_RC_EINVAL);
}

/* ---- LAN ---- */

#define RING 64

/* The LAN HMC as i40e_configure_lan_hmc() sets it: one direct SD. */
static void hmc_setup(XRig *r)
{
    xr_wr(r, X722_PFHMC_SDDATAHIGH, (uint32_t)(XR_HMC >> 32));
    xr_wr(r, X722_PFHMC_SDDATALOW, (uint32_t)XR_HMC | 512 << 2 | 2 | 1);
    xr_wr(r, X722_PFHMC_SDCMD, 0 | X722_PFHMC_SDCMD_WR);
    xr_wr(r, X722_GLHMC_LANTXBASE(0), 0);
    xr_wr(r, X722_GLHMC_LANTXCNT(0), X722_NUM_QUEUES);
    xr_wr(r, X722_GLHMC_LANRXBASE(0), X722_NUM_QUEUES * 128 / 512);
    xr_wr(r, X722_GLHMC_LANRXCNT(0), X722_NUM_QUEUES);
}

static void txq_start(XRig *r, unsigned q, uint32_t qlen)
{
    uint8_t *ctx = xr_ptr(r, XR_HMC + q * 128);

    memset(ctx, 0, 128);
    xr_set_bits(ctx, 32, 57, XR_TXRING / 128);
    xr_set_bits(ctx, 30, 1, 1);
    xr_set_bits(ctx, 160, 1, 1);
    xr_set_bits(ctx, 161, 13, qlen);
    xr_set_bits(ctx, 192, 64, XR_TXRING + qlen * 16);
    xr_wr(r, X722_QINT_TQCTL(q), X722_QINT_CAUSE_ENA | 1);
    xr_wr(r, X722_PFINT_DYN_CTLN(0), X722_DYN_CTL_INTENA);
    xr_wr(r, X722_QTX_ENA(q), X722_QENA_REQ);
}

/* Queue q's ring is at XR_RXRING + q KiB, its buffers at rxbuf(q, i). */
static uint64_t rxbuf(unsigned q, unsigned i)
{
    return XR_BUFS + 0x8000 + q * 0x20000 + i * 2048;
}

static void rxq_start(XRig *r, unsigned q, uint32_t dbuf)
{
    uint8_t *ctx = xr_ptr(r, XR_HMC + X722_NUM_QUEUES * 128 + q * 32);
    uint64_t ring = XR_RXRING + q * 0x400;
    unsigned i;

    memset(ctx, 0, 32);
    xr_set_bits(ctx, 32, 57, ring / 128);
    xr_set_bits(ctx, 89, 13, RING);
    xr_set_bits(ctx, 102, 7, dbuf / 128);
    xr_set_bits(ctx, 117, 1, 1);
    xr_set_bits(ctx, 174, 14, 1522 < 5 * dbuf ? 1522 : 5 * dbuf);
    for (i = 0; i < RING; i++) {
        uint8_t *d = xr_ptr(r, ring + i * 16);

        xr_put64(d, rxbuf(q, i));
        xr_put64(d + 8, 0);
    }
    xr_wr(r, X722_QINT_RQCTL(q), X722_QINT_CAUSE_ENA | 1);
    xr_wr(r, X722_PFINT_DYN_CTLN(0), X722_DYN_CTL_INTENA);
    xr_wr(r, X722_QRX_ENA(q), X722_QENA_REQ);
    xr_wr(r, X722_QRX_TAIL(q), RING - 1);
}

static void put_txd(XRig *r, unsigned i, uint64_t addr, uint32_t size,
                    uint32_t cmd, uint32_t off)
{
    uint8_t *d = xr_ptr(r, XR_TXRING + i * 16);

    xr_put64(d, addr);
    xr_put64(d + 8, (uint64_t)size << 34 | (uint64_t)off << 16 |
             (uint64_t)cmd << 4);
}

static void test_lan_tx_head_writeback(void **state)
{
    XRig *r = *state;
    uint8_t *b0 = xr_ptr(r, XR_BUFS), *b1 = xr_ptr(r, XR_BUFS + 4096);
    unsigned i;

    hmc_setup(r);
    txq_start(r, 0, RING);
    assert_int_equal(xr_rd(r, X722_QTX_ENA(0)), X722_QENA_REQ |
                     X722_QENA_STAT);
    for (i = 0; i < 600; i++) {
        b0[i] = (uint8_t)i;
    }
    for (i = 0; i < 400; i++) {
        b1[i] = (uint8_t)(i * 3);
    }
    put_txd(r, 0, XR_BUFS, 600, 0, 0);
    put_txd(r, 1, XR_BUFS + 4096, 400, 0x1 | 0x2, 0);   /* EOP | RS */
    /* Only the first half posted: nothing goes. */
    xr_wr(r, X722_QTX_TAIL(0), 1);
    x722_core_run_work(&r->core);
    assert_int_equal(r->tx_frames, 0);
    xr_wr(r, X722_QTX_TAIL(0), 2);
    x722_core_run_work(&r->core);
    assert_int_equal(r->tx_frames, 1);
    assert_int_equal(r->tx_last_len, 1000);
    assert_memory_equal(r->tx_last, b0, 600);
    assert_memory_equal(r->tx_last + 600, b1, 400);
    assert_int_equal(xr_get32(xr_ptr(r, XR_TXRING + RING * 16)), 2);
    assert_int_equal(r->msix[1], 1);
}

/* A Tx tail written while the queue was off counts from the enable on. */
static void test_lan_tx_tail_before_enable(void **state)
{
    XRig *r = *state;

    hmc_setup(r);
    put_txd(r, 0, XR_BUFS, 60, 0x1, 0);
    xr_wr(r, X722_QTX_TAIL(0), 1);
    x722_core_run_work(&r->core);
    assert_int_equal(r->tx_frames, 0);          /* not enabled yet */
    r->work_requests = 0;
    txq_start(r, 0, RING);
    assert_int_equal(r->work_requests, 1);      /* the enable asks */
    x722_core_run_work(&r->core);
    assert_int_equal(r->tx_frames, 1);
    assert_int_equal(xr_get32(xr_ptr(r, XR_TXRING + RING * 16)), 1);
    /* disabled: a tail write sends nothing */
    xr_wr(r, X722_QTX_ENA(0), 0);
    assert_int_equal(xr_rd(r, X722_QTX_ENA(0)), 0);
    put_txd(r, 1, XR_BUFS, 60, 0x1, 0);
    xr_wr(r, X722_QTX_TAIL(0), 2);
    x722_core_run_work(&r->core);
    assert_int_equal(r->tx_frames, 1);
}

static void test_lan_tx_bad_context_refused(void **state)
{
    XRig *r = *state;
    uint8_t *ctx = xr_ptr(r, XR_HMC + 128);

    hmc_setup(r);
    txq_start(r, 1, 40);                    /* not a multiple of 32 */
    assert_int_equal(xr_rd(r, X722_QTX_ENA(1)) & X722_QENA_STAT, 0);
    /* A queue beyond the HMC's count */
    xr_wr(r, X722_GLHMC_LANTXCNT(0), 1);
    txq_start(r, 1, RING);
    assert_int_equal(xr_rd(r, X722_QTX_ENA(1)) & X722_QENA_STAT, 0);
    /* No valid SD */
    xr_wr(r, X722_GLHMC_LANTXCNT(0), X722_NUM_QUEUES);
    xr_wr(r, X722_PFHMC_SDDATALOW, 0);
    xr_wr(r, X722_PFHMC_SDCMD, X722_PFHMC_SDCMD_WR);
    txq_start(r, 1, RING);
    assert_int_equal(xr_rd(r, X722_QTX_ENA(1)) & X722_QENA_STAT, 0);
    assert_true(r->core.stats.bad_ctx >= 2);
    assert_true(r->core.stats.hmc_faults >= 1);
    (void)ctx;
}

static uint16_t csum(const uint8_t *p, size_t n, uint32_t sum)
{
    size_t i;

    for (i = 0; i + 1 < n; i += 2) {
        sum += p[i] << 8 | p[i + 1];
    }
    if (n & 1) {
        sum += p[n - 1] << 8;
    }
    while (sum >> 16) {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return (uint16_t)sum;
}

/* An IPv4/TCP packet of @pay payload bytes at @f, 54 bytes of headers. */
static size_t make_tcp(uint8_t *f, size_t pay, bool tso)
{
    size_t i;

    memset(f, 0, 54);
    memset(f, 0xaa, 6);
    memcpy(f + 6, "\x52\x54\x00\x72\x20\x01", 6);
    f[12] = 0x08;
    f[14] = 0x45;
    f[22] = 64;
    f[23] = 6;
    memcpy(f + 26, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
    f[34] = 0x12;
    f[36] = 0x34;
    f[38] = 0x10;                       /* seq 0x10000000 */
    f[46] = 0x50;
    f[47] = 0x18;                       /* ACK | PSH */
    for (i = 0; i < pay; i++) {
        f[54 + i] = (uint8_t)(i * 13 + 1);
    }
    {
        /* The stack's pseudo-header sum, without the length for TSO. */
        uint32_t s = csum(f + 26, 8, 0) + 6 + (tso ? 0 : 20 + pay);
        uint16_t c = csum(NULL, 0, s);

        f[50] = c >> 8;
        f[51] = (uint8_t)c;
    }
    if (!tso) {
        f[16] = (uint8_t)((20 + 20 + pay) >> 8);
        f[17] = (uint8_t)(20 + 20 + pay);
    }
    return 54 + pay;
}

/* Both checksums filled in, as a frame on the wire has them. */
static void finish_tcp(uint8_t *f, size_t pay)
{
    uint16_t c;

    f[50] = f[51] = 0;
    c = ~csum(f + 14, 20, 0);
    f[24] = c >> 8;
    f[25] = (uint8_t)c;
    c = ~csum(f + 34, 20 + pay, csum(f + 26, 8, 0) + 6 + 20 + pay);
    f[50] = c >> 8;
    f[51] = (uint8_t)c;
}

static void test_lan_tx_tso(void **state)
{
    XRig *r = *state;
    uint8_t *f = xr_ptr(r, XR_BUFS);
    size_t len = make_tcp(f, 3000, true), off = 0;
    uint32_t cmd = 0x1 | 0x60 | 0x100;              /* EOP IPV4_CSUM TCP */
    uint32_t offs = 7 | 5 << 7 | 5 << 14;
    uint8_t *c = xr_ptr(r, XR_TXRING);
    unsigned s;

    hmc_setup(r);
    txq_start(r, 0, RING);
    /* context descriptor: TSO, TSO length 3000, MSS 1000 */
    xr_put64(c, 0);
    xr_put64(c + 8, 1 | (uint64_t)0x1 << 4 | (uint64_t)3000 << 30 |
             (uint64_t)1000 << 50);
    put_txd(r, 1, XR_BUFS, len, cmd, offs);
    xr_wr(r, X722_QTX_TAIL(0), 2);
    x722_core_run_work(&r->core);
    assert_int_equal(r->tx_frames, 3);
    assert_int_equal(r->core.stats.tx_tso_segs, 3);
    for (s = 0; s < 3; s++) {
        uint8_t *g = r->tx_log + off;
        uint32_t seq = (uint32_t)g[38] << 24 | g[39] << 16 | g[40] << 8 |
                       g[41];
        uint32_t ps;

        assert_int_equal(g[16] << 8 | g[17], 20 + 20 + 1000);
        assert_int_equal(seq, 0x10000000u + s * 1000);
        assert_int_equal(csum(g + 14, 20, 0), 0xffff);   /* IP checksum */
        ps = csum(g + 26, 8, 0) + 6 + 1020;
        assert_int_equal(csum(g + 34, 1020, ps), 0xffff);
        assert_int_equal(g[47] & 0x08, s == 2 ? 0x08 : 0);  /* PSH last */
        assert_memory_equal(g + 54, f + 54 + s * 1000, 1000);
        off += 54 + 1000;
    }
    /* A TSO length that does not match the packet: dropped. */
    xr_put64(c + 32, 0);
    xr_put64(c + 40, 1 | (uint64_t)0x1 << 4 | (uint64_t)2999 << 30 |
             (uint64_t)1000 << 50);
    put_txd(r, 3, XR_BUFS, len, cmd, offs);
    xr_wr(r, X722_QTX_TAIL(0), 4);
    x722_core_run_work(&r->core);
    assert_int_equal(r->tx_frames, 3);
    assert_int_equal(r->core.stats.tx_dropped, 1);
    assert_int_equal(xr_get32(xr_ptr(r, XR_TXRING + RING * 16)), 4);
}

static void test_lan_tx_csum(void **state)
{
    XRig *r = *state;
    uint8_t *f = xr_ptr(r, XR_BUFS);
    size_t len = make_tcp(f, 100, false);
    uint32_t ps;

    hmc_setup(r);
    txq_start(r, 0, RING);
    put_txd(r, 0, XR_BUFS, len, 0x1 | 0x40 | 0x100, 7 | 5 << 7 | 5 << 14);
    xr_wr(r, X722_QTX_TAIL(0), 1);
    x722_core_run_work(&r->core);
    assert_int_equal(r->tx_frames, 1);
    ps = csum(r->tx_last + 26, 8, 0) + 6 + 120;
    assert_int_equal(csum(r->tx_last + 34, 120, ps), 0xffff);
}

static void add_mac(XRig *r, const uint8_t *mac)
{
    uint8_t p[16] = { 0 }, e[16] = { 0 };

    xr_put16(p, 1);
    xr_put16(p + 2, 390 | 0x8000);
    memcpy(e, mac, 6);
    assert_int_equal(xr_cmd(r, 0x0250, p, e, 16, true, NULL), 0);
}

static void test_lan_rx(void **state)
{
    XRig *r = *state;
    uint8_t frame[3000];
    uint8_t *d0 = xr_ptr(r, XR_RXRING), *d1 = xr_ptr(r, XR_RXRING + 16);
    uint8_t *d2 = xr_ptr(r, XR_RXRING + 32);
    uint64_t q1;
    size_t len;

    hmc_setup(r);
    rxq_start(r, 0, 1024);
    assert_true(xr_rd(r, X722_QRX_ENA(0)) & X722_QENA_STAT);
    len = make_tcp(frame, 1400, false);
    memcpy(frame, r->core.mac, 6);
    finish_tcp(frame, 1400);
    /* Not in the filter list yet: dropped. */
    assert_int_equal(x722_core_receive(&r->core, frame, len), len);
    assert_int_equal(r->core.stats.rx_filtered, 1);
    add_mac(r, r->core.mac);
    /* a 1454-byte frame in two 1024-byte buffers */
    assert_int_equal(x722_core_receive(&r->core, frame, len), len);
    q1 = xr_get64(d0 + 8);
    assert_int_equal((q1 >> 38) & 0x3fff, 1024);
    assert_int_equal(q1 & 3, 1);                        /* DD, no EOF */
    q1 = xr_get64(d1 + 8);
    assert_int_equal((q1 >> 38) & 0x3fff, len - 1024);
    assert_int_equal(q1 & 3, 3);                        /* DD | EOF */
    assert_int_equal((q1 >> 30) & 0xff, 26);            /* IPv4/TCP */
    assert_true(q1 & (1 << 3));                         /* L3L4P */
    assert_int_equal(q1 & (3ull << 22), 0);             /* no IPE/L4E */
    assert_int_equal(q1 >> 63, 0);                      /* not SPH */
    assert_memory_equal(xr_ptr(r, XR_BUFS + 0x8000), frame, 1024);
    assert_memory_equal(xr_ptr(r, XR_BUFS + 0x8800), frame + 1024,
                        len - 1024);
    assert_int_equal(r->msix[1], 1);
    /* a bad TCP checksum is reported with L4E */
    frame[60] ^= 1;
    assert_int_equal(x722_core_receive(&r->core, frame, len), len);
    assert_true(xr_get64(xr_ptr(r, XR_RXRING + 48) + 8) & (1ull << 23));
    /* oversize (beyond rxmax) is dropped */
    len = make_tcp(frame, 1600, false);
    memcpy(frame, r->core.mac, 6);
    assert_int_equal(x722_core_receive(&r->core, frame, len), len);
    assert_int_equal(r->core.stats.rx_oversize, 1);
    (void)d2;
}

static void test_lan_rx_holds_when_full(void **state)
{
    XRig *r = *state;
    uint8_t frame[100];

    hmc_setup(r);
    rxq_start(r, 0, 2048);
    add_mac(r, r->core.mac);
    xr_wr(r, X722_QRX_TAIL(0), 1);       /* one buffer */
    memset(frame, 0, sizeof(frame));
    memcpy(frame, r->core.mac, 6);
    assert_int_equal(x722_core_receive(&r->core, frame, 100), 100);
    assert_false(x722_core_can_receive(&r->core));
    assert_int_equal(x722_core_receive(&r->core, frame, 100), 0);
    xr_wr(r, X722_QRX_TAIL(0), 5);
    assert_true(x722_core_can_receive(&r->core));
    /* a tail beyond the ring is ignored */
    xr_wr(r, X722_QRX_TAIL(0), RING);
    assert_int_equal(r->core.rxq[0].tail, 5);
}

/* The main VSI's queue map: queues 0 and 1 in TC 0 (contiguous). */
static void vsi_two_queues(XRig *r)
{
    uint8_t buf[512], props[128], p[16] = { 0 };

    assert_int_equal(xr_cmd(r, 0x0200, NULL, buf, sizeof(buf), false, NULL),
                     0);
    memset(props, 0, sizeof(props));
    xr_put16(props, 0x0040);                /* QUEUE_MAP_VALID */
    xr_put16(props + 30, 0);                /* queue_mapping[0] */
    xr_put16(props + 62, 1 << 9);           /* TC 0: offset 0, 2 queues */
    xr_put16(p, xr_get16(buf + 18));
    assert_int_equal(xr_cmd(r, 0x0211, p, props, 128, true, NULL), 0);
}

/*
 * An IPv4/TCP frame to the function from @src:@sport to @dst:@dport, with
 * valid checksums; its length.
 */
static size_t make_flow(XRig *r, uint8_t *f, const char *src,
                        const char *dst, uint16_t sport, uint16_t dport)
{
    size_t len = make_tcp(f, 100, false);

    memcpy(f, r->core.mac, 6);
    memcpy(f + 26, src, 4);
    memcpy(f + 30, dst, 4);
    f[34] = sport >> 8;
    f[35] = (uint8_t)sport;
    f[36] = dport >> 8;
    f[37] = (uint8_t)dport;
    finish_tcp(f, 100);
    return len;
}

/* The write-back of the descriptor at @idx of queue @q. */
static uint64_t rxd_qw(XRig *r, unsigned q, unsigned idx, unsigned qw)
{
    return xr_get64(xr_ptr(r, XR_RXRING + q * 0x400 + idx * 16 + qw * 8));
}

/*
 * RSS: Toeplitz over the IPv4/TCP 4-tuple with the key of set RSS key,
 * the PF LUT picking the queue, the hash in the descriptor. The flows and
 * their hashes are the Microsoft RSS verification suite's ("Verifying
 * the RSS Hash Calculation", IPv4 with TCP ports) under its key.
 */
static void test_lan_rx_rss(void **state)
{
    static const uint8_t ms_key[40] = {
        0x6d, 0x5a, 0x56, 0xda, 0x25, 0x5b, 0x0e, 0xc2,
        0x41, 0x67, 0x25, 0x3d, 0x43, 0xa3, 0x8f, 0xb0,
        0xd0, 0xca, 0x2b, 0xcb, 0xae, 0x7b, 0x30, 0xb4,
        0x77, 0xcb, 0x2d, 0xa3, 0x80, 0x30, 0xf2, 0x0c,
        0x6a, 0x42, 0xb7, 0x3b, 0xbe, 0xac, 0x01, 0xfa,
    };
    XRig *r = *state;
    uint8_t f[200], p[16] = { 0 }, key[52] = { 0 }, lut[512] = { 0 };
    size_t l1, l4;
    uint64_t qw1;

    hmc_setup(r);
    vsi_two_queues(r);
    rxq_start(r, 0, 2048);
    rxq_start(r, 1, 2048);
    add_mac(r, r->core.mac);
    /* 66.9.149.187:2794 -> 161.142.100.80:1766: 0x51ccc178 */
    l1 = make_flow(r, f, "\x42\x09\x95\xbb", "\xa1\x8e\x64\x50",
                   2794, 1766);
    /* Without a key and a LUT: the first queue, no hash. */
    assert_int_equal(x722_core_receive(&r->core, f, l1), l1);
    qw1 = rxd_qw(r, 0, 0, 1);
    assert_int_equal(qw1 & 3, 3);
    assert_int_equal(qw1 & (3ull << 12), 0);
    assert_int_equal(rxd_qw(r, 0, 0, 0), 0);

    memcpy(key, ms_key, sizeof(ms_key));
    xr_put16(p, 6 | 0x8000);
    assert_int_equal(xr_cmd(r, 0x0b02, p, key, sizeof(key), true, NULL), 0);
    lut[0x178] = 1;                 /* 0x51ccc178: index 376 of 512 */
    lut[0x07f] = 1;                 /* 0xafc7327f: index 127 */
    xr_put16(p + 2, 1);
    assert_int_equal(xr_cmd(r, 0x0b03, p, lut, sizeof(lut), true, NULL), 0);
    xr_wr(r, X722_PFQF_CTL_0, X722_PFQF_CTL_0_LUT512);
    /* The key and LUT set, but IPv4/TCP (33) not enabled in HENA. */
    xr_wr(r, X722_PFQF_HENA(1), 1u << (35 - 32));
    assert_int_equal(x722_core_receive(&r->core, f, l1), l1);
    assert_int_equal(rxd_qw(r, 0, 1, 1) & (3ull << 12), 0);
    assert_int_equal(r->core.rxq[1].head, 0);

    xr_wr(r, X722_PFQF_HENA(1), 1u << (33 - 32));
    assert_int_equal(x722_core_receive(&r->core, f, l1), l1);
    assert_int_equal(r->core.rxq[1].head, 1);
    qw1 = rxd_qw(r, 1, 0, 1);
    assert_int_equal(qw1 & 3, 3);
    assert_int_equal(qw1 & (3ull << 12), 3ull << 12);     /* FLTSTAT RSS */
    assert_int_equal(rxd_qw(r, 1, 0, 0) >> 32, 0x51ccc178);
    assert_memory_equal(xr_ptr(r, rxbuf(1, 0)), f, l1);

    /* 38.27.205.30:48228 -> 209.142.163.6:2217: 0xafc7327f, queue 1 */
    l4 = make_flow(r, f, "\x26\x1b\xcd\x1e", "\xd1\x8e\xa3\x06",
                   48228, 2217);
    assert_int_equal(x722_core_receive(&r->core, f, l4), l4);
    assert_int_equal(rxd_qw(r, 1, 1, 0) >> 32, 0xafc7327f);
    /* 199.92.111.2:14230 -> 65.69.140.83:4739: 0xc626b0ea, LUT 0 */
    l4 = make_flow(r, f, "\xc7\x5c\x6f\x02", "\x41\x45\x8c\x53",
                   14230, 4739);
    assert_int_equal(x722_core_receive(&r->core, f, l4), l4);
    assert_int_equal(r->core.rxq[0].head, 3);
    assert_int_equal(rxd_qw(r, 0, 2, 0) >> 32, 0xc626b0ea);

    /* A 128-entry LUT: 0x51ccc178 picks entry 0x78, queue 0. */
    xr_wr(r, X722_PFQF_CTL_0, 0);
    l1 = make_flow(r, f, "\x42\x09\x95\xbb", "\xa1\x8e\x64\x50",
                   2794, 1766);
    assert_int_equal(x722_core_receive(&r->core, f, l1), l1);
    assert_int_equal(r->core.rxq[0].head, 4);
    assert_int_equal(r->core.rxq[1].head, 2);

    /* ethtool -x reads back what was set */
    memset(key, 0, sizeof(key));
    xr_put16(p + 2, 0);
    assert_int_equal(xr_cmd(r, 0x0b04, p, key, sizeof(key), false, NULL), 0);
    assert_memory_equal(key, ms_key, sizeof(ms_key));
    memset(lut, 0, sizeof(lut));
    assert_int_equal(xr_cmd(r, 0x0b05, p, lut, sizeof(lut), false, NULL),
                     X722_AQ_RC_EINVAL);            /* not the PF LUT */
    xr_put16(p + 2, 1);
    assert_int_equal(xr_cmd(r, 0x0b05, p, lut, sizeof(lut), false, NULL), 0);
    assert_int_equal(lut[0x178], 1);

    /* A PF reset forgets them: back to the first queue. */
    xr_wr(r, X722_PFGEN_CTRL, X722_PFGEN_CTRL_PFSWR);
    assert_false(r->core.fw.rss_key_set || r->core.fw.rss_lut_set);
}

/*
 * VLAN stripping: a tagged frame arrives without its tag, the TCI in
 * L2TAG1 (qword 0) with L2TAG1P, as i40e_receive_skb() takes it; after
 * "rx-vlan-offload off" (i40e_vlan_stripping_disable(): EMOD nothing)
 * the tag stays in the frame.
 */
static void test_lan_rx_vlan_strip(void **state)
{
    XRig *r = *state;
    uint8_t f[200], t[204], p[16] = { 0 }, props[128], sw[512];
    size_t len;
    uint64_t qw1;

    hmc_setup(r);
    rxq_start(r, 0, 2048);
    add_mac(r, r->core.mac);
    len = make_flow(r, f, "\x0a\x00\x00\x01", "\x0a\x00\x00\x02", 1, 2);
    memcpy(t, f, 12);
    memcpy(t + 12, "\x81\x00\x20\x64", 4);     /* PCP 1, VID 100 */
    memcpy(t + 16, f + 12, len - 12);
    /* The VSI's default: stripped. */
    assert_int_equal(x722_core_receive(&r->core, t, len + 4), len + 4);
    qw1 = rxd_qw(r, 0, 0, 1);
    assert_int_equal((qw1 >> 38) & 0x3fff, len);
    assert_true(qw1 & (1 << 2));                            /* L2TAG1P */
    assert_int_equal(rxd_qw(r, 0, 0, 0) & 0xffff, 0x2064);
    assert_int_equal((qw1 >> 30) & 0xff, 26);               /* IPv4/TCP */
    assert_memory_equal(xr_ptr(r, rxbuf(0, 0)), f, len);
    /* An untagged frame: no L2TAG1P. */
    assert_int_equal(x722_core_receive(&r->core, f, len), len);
    assert_false(rxd_qw(r, 0, 1, 1) & (1 << 2));
    /* Stripping off: the tag stays, L2TAG1P clear. */
    assert_int_equal(xr_cmd(r, 0x0200, NULL, sw, sizeof(sw), false, NULL),
                     0);
    memset(props, 0, sizeof(props));
    xr_put16(props, 0x0004);                /* VLAN_VALID */
    props[12] = 0x03 | 0x18;                /* MODE_ALL | EMOD_NOTHING */
    xr_put16(p, xr_get16(sw + 18));
    assert_int_equal(xr_cmd(r, 0x0211, p, props, 128, true, NULL), 0);
    assert_int_equal(xr_cmd(r, 0x0212, p, props, 128, false, NULL), 0);
    assert_int_equal(props[12], 0x1b);      /* read back as set */
    assert_int_equal(x722_core_receive(&r->core, t, len + 4), len + 4);
    qw1 = rxd_qw(r, 0, 2, 1);
    assert_int_equal((qw1 >> 38) & 0x3fff, len + 4);
    assert_false(qw1 & (1 << 2));
    assert_memory_equal(xr_ptr(r, rxbuf(0, 2)), t, len + 4);
}

/* The X722's packet classifier types of RSS (enum i40e_filter_pctype). */
static void test_rss_pctype(void **state)
{
    uint8_t f[200];
    size_t len;

    (void)state;
    len = make_tcp(f, 10, false);
    assert_int_equal(x722_rss_pctype(f, len, 14, 0x0800), 33);
    f[47] = 0x02;                                   /* SYN alone */
    assert_int_equal(x722_rss_pctype(f, len, 14, 0x0800), 32);
    f[47] = 0x12;                                   /* SYN | ACK */
    assert_int_equal(x722_rss_pctype(f, len, 14, 0x0800), 33);
    f[23] = 17;
    assert_int_equal(x722_rss_pctype(f, len, 14, 0x0800), 29);
    f[30] = 239;                                    /* multicast */
    assert_int_equal(x722_rss_pctype(f, len, 14, 0x0800), 30);
    f[23] = 132;
    assert_int_equal(x722_rss_pctype(f, len, 14, 0x0800), 34);
    f[23] = 1;
    assert_int_equal(x722_rss_pctype(f, len, 14, 0x0800), 35);
    f[20] = 0x20;                                   /* more fragments */
    assert_int_equal(x722_rss_pctype(f, len, 14, 0x0800), 36);
    assert_int_equal(x722_rss_pctype(f, len, 14, 0x0806), -1);
    assert_int_equal(x722_rss_pctype(f, 30, 14, 0x0800), -1);  /* short */
    f[14] = 0x60;                                   /* IPv6, no room */
    assert_int_equal(x722_rss_pctype(f, 50, 14, 0x86dd), -1);
    memset(f + 14, 0, 60);
    f[14] = 0x60;
    f[20] = 6;
    assert_int_equal(x722_rss_pctype(f, 14 + 40 + 20, 14, 0x86dd), 43);
    f[20] = 44;
    assert_int_equal(x722_rss_pctype(f, 14 + 40 + 20, 14, 0x86dd), 46);
    f[20] = 17;
    f[38] = 0xff;                                   /* ff00::/8 */
    assert_int_equal(x722_rss_pctype(f, 14 + 40 + 20, 14, 0x86dd), 40);
}

/* i40e posts the Rx buffers before it enables the queue. */
static void test_lan_rx_tail_before_enable(void **state)
{
    XRig *r = *state;
    uint8_t frame[100] = { 0 };

    hmc_setup(r);
    add_mac(r, r->core.mac);
    xr_wr(r, X722_QRX_TAIL(0), 0);
    xr_wr(r, X722_QRX_TAIL(0), RING - 1);
    rxq_start(r, 0, 2048);              /* rewrites the same tail */
    xr_wr(r, X722_QRX_ENA(0), 0);
    xr_wr(r, X722_QRX_TAIL(0), 7);
    xr_wr(r, X722_QRX_ENA(0), X722_QENA_REQ);
    assert_int_equal(r->core.rxq[0].tail, 7);
    memcpy(frame, r->core.mac, 6);
    assert_int_equal(x722_core_receive(&r->core, frame, 100), 100);
    assert_int_equal(r->core.stats.rx_packets, 1);
}

static void test_lan_rx_bad_context_refused(void **state)
{
    XRig *r = *state;
    uint8_t *ctx = xr_ptr(r, XR_HMC + X722_NUM_QUEUES * 128);

    hmc_setup(r);
    rxq_start(r, 0, 2048);
    xr_wr(r, X722_QRX_ENA(0), 0);
    assert_int_equal(xr_rd(r, X722_QRX_ENA(0)), 0);
    xr_set_bits(ctx, 116, 1, 1);                   /* 32-byte descriptors */
    xr_wr(r, X722_QRX_ENA(0), X722_QENA_REQ);
    assert_int_equal(xr_rd(r, X722_QRX_ENA(0)) & X722_QENA_STAT, 0);
    xr_set_bits(ctx, 116, 1, 0);
    xr_set_bits(ctx, 102, 7, 2);                   /* 256-byte buffers */
    xr_wr(r, X722_QRX_ENA(0), X722_QENA_REQ);
    assert_int_equal(xr_rd(r, X722_QRX_ENA(0)) & X722_QENA_STAT, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
        T(test_reset_values),
        T(test_read_only_and_bad_access),
        T(test_pf_reset),
        T(test_card_resets),
        T(test_aq_get_version),
        T(test_aq_unknown_and_bad_buffers),
        T(test_aq_caps),
        T(test_aq_mac_read),
        T(test_aq_nvm),
        T(test_aq_switch_and_vsi),
        T(test_aq_macvlan),
        T(test_aq_promisc),
        T(test_aq_link_and_event),
        T(test_aq_set_mac_config),
        T(test_aq_rss),
        T(test_aq_debug_read_reg),
        T(test_lan_tx_head_writeback),
        T(test_lan_tx_tail_before_enable),
        T(test_lan_tx_bad_context_refused),
        T(test_lan_tx_tso),
        T(test_lan_tx_csum),
        T(test_lan_rx),
        T(test_lan_rx_holds_when_full),
        T(test_lan_rx_rss),
        T(test_lan_rx_vlan_strip),
        cmocka_unit_test(test_rss_pctype),
        T(test_lan_rx_tail_before_enable),
        T(test_lan_rx_bad_context_refused),
#undef T
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_x722", tests, NULL, NULL);
}
