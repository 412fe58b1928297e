/*
 * Device model: resource ownership (0x0008/0x0009) and the NVM (0x0701,
 * 0x0706), driven the way ice_init_nvm() and its helpers drive them.
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

/*
 * The DDP area's "package loaded" answer, wrapped at link time (see the
 * Makefile) so the global config lock's DONE status can be tested here.
 */
static bool fake_pkg_loaded;
bool __real_e810_ddp_pkg_loaded(E810Core *core);
bool __wrap_e810_ddp_pkg_loaded(E810Core *core);

bool __wrap_e810_ddp_pkg_loaded(E810Core *core)
{
    return fake_pkg_loaded || __real_e810_ddp_pkg_loaded(core);
}

typedef struct Fixture {
    Harness *h;
    AqDriver aq;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->h = harness_new(0);
    if (!f->h) {
        return -1;
    }
    aq_init(f->h, &f->aq);
    fake_pkg_loaded = false;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;

    harness_free(f->h);
    free(f);
    return 0;
}

/* ---- the driver side, as ice does it ------------------------------------ */

static uint16_t req_res(Fixture *f, uint16_t id, uint16_t access,
                        uint32_t timeout, uint32_t pin,
                        struct e810_aqc_req_res *out)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_REQ_RES);
    struct e810_aqc_req_res *p = (void *)d.params.raw;
    uint16_t rc;

    p->res_id = htole16(id);
    p->access_type = htole16(access);
    p->timeout = htole32(timeout);
    p->res_number = htole32(pin);
    rc = aq_send(f->h, &f->aq, &d, NULL, 0);
    if (out) {
        memcpy(out, p, sizeof(*out));
    }
    return rc;
}

static uint16_t rel_res(Fixture *f, uint16_t id, uint32_t pin)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_RELEASE_RES);
    struct e810_aqc_req_res *p = (void *)d.params.raw;

    p->res_id = htole16(id);
    p->res_number = htole32(pin);
    return aq_send(f->h, &f->aq, &d, NULL, 0);
}

static uint16_t nvm_read(Fixture *f, uint32_t off, uint16_t len,
                         uint8_t flags, uint16_t module, void *buf,
                         uint16_t buf_len)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_NVM_READ);
    struct e810_aqc_nvm *p = (void *)d.params.raw;

    p->offset_low = htole16(off & 0xFFFF);
    p->offset_high = (off >> 16) & 0xFF;
    p->cmd_flags = flags;
    p->module_typeid = htole16(module);
    p->length = htole16(len);
    return aq_send(f->h, &f->aq, &d, buf, buf_len);
}

static void acquire_nvm(Fixture *f)
{
    assert_int_equal(req_res(f, E810_AQ_RES_ID_NVM, E810_AQ_RES_ACCESS_READ,
                             180000, 0, NULL), E810_AQ_RC_OK);
}

static void release_nvm(Fixture *f)
{
    assert_int_equal(rel_res(f, E810_AQ_RES_ID_NVM, 0), E810_AQ_RC_OK);
}

/* One Shadow RAM word under its own ownership (ice_read_sr_word()). */
static uint16_t sr_word(Fixture *f, uint16_t w)
{
    uint8_t b[2];

    acquire_nvm(f);
    assert_int_equal(nvm_read(f, w * 2u, 2, E810_AQC_NVM_LAST_CMD, 0, b, 2),
                     E810_AQ_RC_OK);
    release_nvm(f);
    return (uint16_t)(b[0] | b[1] << 8);
}

/* Flat flash reads split at 4 KB, ownership already held. */
static void flash_read(Fixture *f, uint32_t off, uint32_t len, uint8_t *out)
{
    while (len) {
        uint32_t n = 4096 - off % 4096;

        if (n > len) {
            n = len;
        }
        assert_int_equal(nvm_read(f, off, n, E810_AQC_NVM_FLASH_ONLY |
                                  (n == len ? E810_AQC_NVM_LAST_CMD : 0),
                                  0, out, n), E810_AQ_RC_OK);
        off += n;
        out += n;
        len -= n;
    }
}

static uint16_t flash_word(Fixture *f, uint32_t off)
{
    uint8_t b[2];

    acquire_nvm(f);
    flash_read(f, off, 2, b);
    release_nvm(f);
    return (uint16_t)(b[0] | b[1] << 8);
}

/* A Shadow RAM pointer in bytes (bit 15: 4 KB units). */
static uint32_t sr_ptr(Fixture *f, uint16_t w)
{
    uint16_t v = sr_word(f, w);

    return (v & E810_SR_PTR_4KB_UNITS) ?
           (uint32_t)(v & ~E810_SR_PTR_4KB_UNITS) * 4096 : v * 2u;
}

/* ---- resource ownership ------------------------------------------------- */

static void test_nvm_ownership(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_req_res r;

    /* ice_acquire_nvm() asks 180 s for reads too; granted as asked. */
    assert_int_equal(req_res(f, E810_AQ_RES_ID_NVM, E810_AQ_RES_ACCESS_READ,
                             180000, 0, &r), E810_AQ_RC_OK);
    assert_int_equal(le32toh(r.timeout), 180000);
    assert_true(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_NVM, false));
    assert_false(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_NVM, true));

    /* A second request while held: busy, with the time left. */
    f->h->now_ns += 1000000000ull;
    assert_int_equal(req_res(f, E810_AQ_RES_ID_NVM, E810_AQ_RES_ACCESS_READ,
                             180000, 0, &r), E810_AQ_RC_EBUSY);
    assert_int_equal(le32toh(r.timeout), 179000);

    assert_int_equal(rel_res(f, E810_AQ_RES_ID_NVM, 0), E810_AQ_RC_OK);
    assert_false(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_NVM, false));
    /* Releasing what nobody holds. */
    assert_int_equal(rel_res(f, E810_AQ_RES_ID_NVM, 0), E810_AQ_RC_EPERM);

    /* Timeout 0: the firmware defaults, read 3 s and write 180 s. */
    assert_int_equal(req_res(f, E810_AQ_RES_ID_NVM, E810_AQ_RES_ACCESS_READ,
                             0, 0, &r), E810_AQ_RC_OK);
    assert_int_equal(le32toh(r.timeout), 3000);
    release_nvm(f);
    assert_int_equal(req_res(f, E810_AQ_RES_ID_NVM, E810_AQ_RES_ACCESS_WRITE,
                             0, 0, &r), E810_AQ_RC_OK);
    assert_int_equal(le32toh(r.timeout), 180000);
    assert_true(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_NVM, true));
    release_nvm(f);
}

static void test_other_resources_and_bad_requests(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_req_res r;

    /* Change lock (ice_acquire_change_lock(): 1000 ms, write). */
    assert_int_equal(req_res(f, E810_AQ_RES_ID_CHNG_LOCK,
                             E810_AQ_RES_ACCESS_WRITE, 1000, 0, &r),
                     E810_AQ_RC_OK);
    assert_int_equal(le32toh(r.timeout), 1000);
    /* Independent of the NVM resource. */
    acquire_nvm(f);
    release_nvm(f);
    assert_true(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_CHNG_LOCK,
                                  true));
    assert_int_equal(rel_res(f, E810_AQ_RES_ID_CHNG_LOCK, 0), E810_AQ_RC_OK);

    /* SDP pins are owned one by one. */
    assert_int_equal(req_res(f, E810_AQ_RES_ID_SDP, E810_AQ_RES_ACCESS_WRITE,
                             0, 1, &r), E810_AQ_RC_OK);
    assert_int_equal(req_res(f, E810_AQ_RES_ID_SDP, E810_AQ_RES_ACCESS_WRITE,
                             0, 2, &r), E810_AQ_RC_OK);
    assert_int_equal(req_res(f, E810_AQ_RES_ID_SDP, E810_AQ_RES_ACCESS_WRITE,
                             0, 1, &r), E810_AQ_RC_EBUSY);
    assert_int_equal(rel_res(f, E810_AQ_RES_ID_SDP, 1), E810_AQ_RC_OK);
    assert_int_equal(rel_res(f, E810_AQ_RES_ID_SDP, 1), E810_AQ_RC_EPERM);
    assert_int_equal(rel_res(f, E810_AQ_RES_ID_SDP, 2), E810_AQ_RC_OK);
    assert_int_equal(req_res(f, E810_AQ_RES_ID_SDP, E810_AQ_RES_ACCESS_WRITE,
                             0, E810_NVM_SDP_PINS, &r), E810_AQ_RC_EINVAL);

    /* Unknown ids and access types. */
    assert_int_equal(req_res(f, 0, E810_AQ_RES_ACCESS_READ, 0, 0, &r),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(req_res(f, 5, E810_AQ_RES_ACCESS_READ, 0, 0, &r),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(rel_res(f, 5, 0), E810_AQ_RC_EINVAL);
    assert_int_equal(req_res(f, E810_AQ_RES_ID_NVM, 0, 0, 0, &r),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(req_res(f, E810_AQ_RES_ID_NVM, 3, 0, 0, &r),
                     E810_AQ_RC_EINVAL);
    assert_false(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_NVM, false));
}

static void test_ownership_expires(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_req_res r;

    assert_int_equal(req_res(f, E810_AQ_RES_ID_NVM, E810_AQ_RES_ACCESS_READ,
                             50, 0, &r), E810_AQ_RC_OK);
    harness_advance(f->h, 49000000);
    assert_int_equal(req_res(f, E810_AQ_RES_ID_NVM, E810_AQ_RES_ACCESS_READ,
                             50, 0, &r), E810_AQ_RC_EBUSY);
    assert_int_equal(le32toh(r.timeout), 1);
    harness_advance(f->h, 1000000);
    /* The hold is over: reads are refused, a new request is granted. */
    assert_false(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_NVM, false));
    assert_int_equal(rel_res(f, E810_AQ_RES_ID_NVM, 0), E810_AQ_RC_EPERM);
    assert_int_equal(req_res(f, E810_AQ_RES_ID_NVM, E810_AQ_RES_ACCESS_READ,
                             50, 0, &r), E810_AQ_RC_OK);
}

static void test_global_config_lock(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_req_res r;

    /* ice_acquire_global_cfg_lock(): write, 5000 ms; status 0 = yours. */
    assert_int_equal(req_res(f, E810_AQ_RES_ID_GLBL_LOCK,
                             E810_AQ_RES_ACCESS_WRITE, 5000, 0, &r),
                     E810_AQ_RC_OK);
    assert_int_equal(le16toh(r.status), E810_AQ_RES_GLBL_SUCCESS);
    assert_int_equal(le32toh(r.timeout), 5000);
    assert_true(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_GLBL_LOCK,
                                  true));
    /* Held: IN_PROG with the time left (ice polls until then). */
    assert_int_equal(req_res(f, E810_AQ_RES_ID_GLBL_LOCK,
                             E810_AQ_RES_ACCESS_WRITE, 5000, 0, &r),
                     E810_AQ_RC_EBUSY);
    assert_int_equal(le16toh(r.status), E810_AQ_RES_GLBL_IN_PROG);
    assert_int_equal(le32toh(r.timeout), 5000);
    assert_int_equal(rel_res(f, E810_AQ_RES_ID_GLBL_LOCK, 0), E810_AQ_RC_OK);

    /* Package in: DONE, nothing granted (ice: -EALREADY, no release). */
    fake_pkg_loaded = true;
    assert_int_equal(req_res(f, E810_AQ_RES_ID_GLBL_LOCK,
                             E810_AQ_RES_ACCESS_WRITE, 5000, 0, &r),
                     E810_AQ_RC_OK);
    assert_int_equal(le16toh(r.status), E810_AQ_RES_GLBL_DONE);
    assert_int_equal(le32toh(r.timeout), 0);
    assert_false(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_GLBL_LOCK,
                                   false));
    assert_int_equal(rel_res(f, E810_AQ_RES_ID_GLBL_LOCK, 0),
                     E810_AQ_RC_EPERM);
    /* Other resources do not care. */
    assert_int_equal(req_res(f, E810_AQ_RES_ID_CHNG_LOCK,
                             E810_AQ_RES_ACCESS_WRITE, 1000, 0, &r),
                     E810_AQ_RC_OK);
    assert_int_equal(le16toh(r.status), 0);
}

static void test_ownership_dropped_by_resets_and_unload(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d;

    /* PF reset (ice_reset(PFR) before every re-init). */
    acquire_nvm(f);
    wr32(f->h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    harness_run_work(f->h);
    assert_false(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_NVM, false));
    acquire_nvm(f);

    /* 0x02A4 clear PF config keeps it. */
    d = aq_desc(E810_AQC_CLEAR_PF_CFG);
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    assert_true(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_NVM, false));

    /* Queue shutdown without "unloading" keeps it, with it drops it. */
    d = aq_desc(E810_AQC_Q_SHUTDOWN);
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    assert_true(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_NVM, false));
    ((struct e810_aqc_q_shutdown *)d.params.raw)->driver_unloading =
        E810_AQC_DRIVER_UNLOADING;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    assert_false(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_NVM, false));

    /* Core reset. */
    assert_int_equal(req_res(f, E810_AQ_RES_ID_GLBL_LOCK,
                             E810_AQ_RES_ACCESS_WRITE, 5000, 0, NULL),
                     E810_AQ_RC_OK);
    e810_aq_fw_reset(&f->h->core, E810_RST_CORER);
    assert_false(e810_nvm_res_held(&f->h->core, E810_AQ_RES_ID_GLBL_LOCK,
                                   false));
}

/* ---- NVM reads ---------------------------------------------------------- */

static void test_read_needs_ownership(void **state)
{
    Fixture *f = *state;
    uint8_t b[2];

    assert_int_equal(nvm_read(f, 0, 2, 0, 0, b, 2), E810_AQ_RC_EACCES);
    acquire_nvm(f);
    assert_int_equal(nvm_read(f, 0, 2, 0, 0, b, 2), E810_AQ_RC_OK);
}

static void test_shadow_ram_words(void **state)
{
    Fixture *f = *state;

    /* ice_init_nvm(): 2^GLNVM_GENS.SR_SIZE KB of Shadow RAM, normal mode. */
    assert_int_equal(FIELD_GET(E810_GLNVM_GENS_SR_SIZE,
                               rd32(f->h, E810_GLNVM_GENS)), 6);
    assert_true(rd32(f->h, E810_GLNVM_FLA) & E810_GLNVM_FLA_LOCKED);
    assert_int_equal((1u << 6) * 512, E810_NVM_SR_WORDS);

    /* Control word: bits 7:6 = 01b, first banks active. */
    assert_int_equal(sr_word(f, E810_SR_CTRL_WORD), 0x0040);
    assert_int_equal(sr_word(f, E810_SR_NVM_DEV_STARTER_VER), 0x4040);
    assert_int_equal(sr_word(f, E810_SR_NVM_EETRACK_LO), 0xc967);
    assert_int_equal(sr_word(f, E810_SR_NVM_EETRACK_HI), 0x8001);
    assert_int_equal(sr_word(f, E810_SR_NVM_WOL_CFG), 0xFFFF);
    assert_int_equal(sr_word(f, E810_SR_1ST_NVM_BANK_PTR), 0x8010);
    assert_int_equal(sr_word(f, E810_SR_NVM_BANK_SIZE), 0x0100);
    assert_int_equal(sr_word(f, E810_SR_1ST_OROM_BANK_PTR), 0x8210);
    assert_int_equal(sr_word(f, E810_SR_OROM_BANK_SIZE), 0x0010);
    assert_int_equal(sr_word(f, E810_SR_NETLIST_BANK_PTR), 0x8230);
    assert_int_equal(sr_word(f, E810_SR_NETLIST_BANK_SIZE), 0x0010);
    /* The last word is readable, one past it is not. */
    acquire_nvm(f);
    {
        uint8_t b[2];

        assert_int_equal(nvm_read(f, 0xFFFE, 2, 0, 0, b, 2), E810_AQ_RC_OK);
        assert_int_equal(nvm_read(f, 0x10000, 2, 0, 0, b, 2),
                         E810_AQ_RC_EINVAL);
    }
}

/* ice_discover_flash_size(): bisection of 1-byte flat reads. */
static void test_flash_size_search(void **state)
{
    Fixture *f = *state;
    uint32_t lo = 0, hi = E810_AQC_NVM_MAX_OFFSET + 1;
    unsigned reads = 0;
    uint8_t b[2];

    acquire_nvm(f);
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        uint16_t rc = nvm_read(f, mid, 1, E810_AQC_NVM_FLASH_ONLY |
                               E810_AQC_NVM_LAST_CMD, 0, b, 1);

        assert_true(rc == E810_AQ_RC_OK || rc == E810_AQ_RC_EINVAL);
        if (rc == E810_AQ_RC_OK) {
            lo = mid;
        } else {
            hi = mid;
        }
        reads++;
    }
    assert_int_equal(hi, E810_NVM_FLASH_SIZE);
    assert_int_equal(reads, 24);
    /* The last byte reads; anything past the end is EINVAL. */
    assert_int_equal(nvm_read(f, E810_NVM_FLASH_SIZE - 1, 1,
                              E810_AQC_NVM_FLASH_ONLY, 0, b, 1),
                     E810_AQ_RC_OK);
    assert_true(e810_nvm_flash_read(&f->h->core, E810_NVM_FLASH_SIZE - 1, b,
                                    1));
    assert_false(e810_nvm_flash_read(&f->h->core, E810_NVM_FLASH_SIZE, b, 1));
    assert_false(e810_nvm_flash_read(&f->h->core, E810_NVM_FLASH_SIZE - 1, b,
                                     2));
    /* Erased flash outside the modules. */
    assert_int_equal(b[0], 0xFF);
    release_nvm(f);
}

static void test_bad_reads(void **state)
{
    Fixture *f = *state;
    static uint8_t buf[8192];
    unsigned logs = f->h->log_guest_error;

    acquire_nvm(f);
    /* Length 0 and length above 4 KB. */
    assert_int_equal(nvm_read(f, 0, 0, 0, 0, buf, 16), E810_AQ_RC_EINVAL);
    assert_int_equal(nvm_read(f, 0, 4097, 0, 0, buf, 4096),
                     E810_AQ_RC_EINVAL);
    /* Crossing a 4 KB sector, in the Shadow RAM and in the flash. */
    assert_int_equal(nvm_read(f, 4094, 4, 0, 0, buf, 4), E810_AQ_RC_EINVAL);
    assert_int_equal(nvm_read(f, 0x10FFE, 4, E810_AQC_NVM_FLASH_ONLY, 0, buf,
                              4), E810_AQ_RC_EINVAL);
    assert_int_equal(nvm_read(f, 1, 4096, 0, 0, buf, 4096),
                     E810_AQ_RC_EINVAL);
    /* A whole sector is fine. */
    assert_int_equal(nvm_read(f, 4096, 4096, 0, 0, buf, 4096),
                     E810_AQ_RC_OK);
    /* No buffer, or one shorter than the read. */
    assert_int_equal(nvm_read(f, 0, 2, 0, 0, NULL, 0), E810_AQ_RC_EINVAL);
    assert_int_equal(nvm_read(f, 0, 8, 0, 0, buf, 4), E810_AQ_RC_EINVAL);
    /* Shadow RAM past 64 KB (the flash continues). */
    assert_int_equal(nvm_read(f, 0x10000, 2, 0, 0, buf, 2),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(nvm_read(f, 0x10000, 2, E810_AQC_NVM_FLASH_ONLY, 0, buf,
                              2), E810_AQ_RC_OK);
    /* A module id that names no TLV. */
    assert_int_equal(nvm_read(f, 0, 2, 0, 0x1234, buf, 2),
                     E810_AQ_RC_ENOENT);
    assert_true(f->h->log_guest_error > logs);
    release_nvm(f);
}

/*
 * ice_determine_active_flash_banks() .. ice_get_nvm_ver_info(): the flash
 * copy of the Shadow RAM inside both NVM banks, behind the CSS header.
 */
static void test_nvm_banks_and_sr_copy(void **state)
{
    Fixture *f = *state;
    static uint8_t sr[64 * 1024], copy[64 * 1024];
    uint32_t nvm = sr_ptr(f, E810_SR_1ST_NVM_BANK_PTR);
    uint32_t size = sr_word(f, E810_SR_NVM_BANK_SIZE) * 4096u;
    unsigned bank;

    assert_int_equal(nvm, 0x10000);
    assert_int_equal(size, 0x100000);
    for (bank = 0; bank < 2; bank++) {
        uint32_t base = nvm + bank * size;
        uint32_t hdr = (flash_word(f, base + 2 * E810_NVM_CSS_HDR_LEN_L) |
                        (uint32_t)flash_word(f, base + 2 *
                                             E810_NVM_CSS_HDR_LEN_H) << 16) *
                       2 + E810_NVM_AUTH_HEADER_LEN;
        uint32_t copy_off = base + (hdr + 31) / 32 * 32 * 2;

        assert_int_equal(hdr, 330);
        assert_int_equal(copy_off, base + 704);
        assert_int_equal(flash_word(f, base + 2 * E810_NVM_CSS_SREV_L), 1);
        assert_int_equal(flash_word(f, base + 2 * E810_NVM_CSS_SREV_H), 0);
        assert_int_equal(flash_word(f, copy_off +
                                    2 * E810_SR_NVM_DEV_STARTER_VER), 0x4040);
        assert_int_equal(flash_word(f, copy_off + 2 * E810_SR_NVM_EETRACK_LO),
                         0xc967);
        assert_int_equal(flash_word(f, copy_off + 2 * E810_SR_NVM_EETRACK_HI),
                         0x8001);
        /* The whole copy equals the Shadow RAM. */
        acquire_nvm(f);
        flash_read(f, copy_off, sizeof(copy), copy);
        for (uint32_t off = 0; off < sizeof(sr); off += 4096) {
            assert_int_equal(nvm_read(f, off, 4096, 0, 0, sr + off, 4096),
                             E810_AQ_RC_OK);
        }
        release_nvm(f);
        assert_memory_equal(sr, copy, sizeof(sr));
    }
}

/* 0x0706 verify (ethtool self-test: ice_nvm_validate_checksum()). */
static void test_checksum(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_NVM_CHECKSUM);
    struct e810_aqc_nvm_checksum *p = (void *)d.params.raw;

    p->flags = E810_AQC_NVM_CHECKSUM_VERIFY;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_EACCES);
    acquire_nvm(f);
    d = aq_desc(E810_AQC_NVM_CHECKSUM);
    p->flags = E810_AQC_NVM_CHECKSUM_VERIFY;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    assert_int_equal(le16toh(p->checksum), E810_AQC_NVM_CHECKSUM_CORRECT);
    /* Recalculation needs write ownership. */
    d = aq_desc(E810_AQC_NVM_CHECKSUM);
    p->flags = E810_AQC_NVM_CHECKSUM_RECALC;
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_EACCES);
    d = aq_desc(E810_AQC_NVM_CHECKSUM);
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_EINVAL);
    release_nvm(f);
}

/* ice_get_orom_civd_data(): "$CIV" on a 512-byte boundary of the bank. */
static void test_option_rom_civd(void **state)
{
    Fixture *f = *state;
    uint32_t base = sr_ptr(f, E810_SR_1ST_OROM_BANK_PTR);
    uint32_t size = sr_word(f, E810_SR_OROM_BANK_SIZE) * 4096u;
    static uint8_t rom[64 * 1024];
    const struct e810_orom_civd *c = NULL;
    uint32_t off, ver;
    uint8_t sum = 0;
    unsigned i;

    assert_int_equal(size, sizeof(rom));
    acquire_nvm(f);
    flash_read(f, base, size, rom);
    release_nvm(f);
    for (off = 0; off + 512 <= size; off += 512) {
        if (!memcmp(rom + off, "$CIV", 4)) {
            c = (const void *)(rom + off);
            break;
        }
    }
    assert_non_null(c);
    for (i = 0; i < sizeof(*c); i++) {
        sum += ((const uint8_t *)c)[i];
    }
    assert_int_equal(sum, 0);
    ver = le32toh(c->combo_ver);
    /* fw.undi / ethtool -i: "1.3429.0" */
    assert_int_equal(ver >> 24, 1);
    assert_int_equal((ver >> 8) & 0xFFFF, 3429);
    assert_int_equal(ver & 0xFF, 0);
}

/* ice_get_netlist_info(): link topology module and ID block. */
static void test_netlist_id_block(void **state)
{
    Fixture *f = *state;
    uint32_t base = sr_ptr(f, E810_SR_NETLIST_BANK_PTR);
    uint16_t id[E810_NETLIST_ID_BLK_SIZE];
    uint16_t len, nodes;
    unsigned i;

    assert_int_equal(base, 0x230000);
    assert_int_equal(flash_word(f, base), E810_NETLIST_LINK_TOPO_MOD_ID);
    len = flash_word(f, base + 2 * 2);
    assert_true(len >= E810_NETLIST_ID_BLK_SIZE);
    nodes = flash_word(f, base + 2 * 3) & 0x3FF;
    acquire_nvm(f);
    flash_read(f, base + (2 + 4 + 2 * nodes) * 2, sizeof(id), (void *)id);
    release_nvm(f);
    for (i = 0; i < E810_NETLIST_ID_BLK_SIZE; i++) {
        id[i] = le16toh(id[i]);
    }
    /* fw.netlist "4.1.0-1.0.0", fw.netlist.build 0x6c1b4c1a */
    assert_int_equal(id[3] << 16 | id[2], 4);
    assert_int_equal(id[5] << 16 | id[4], 1);
    assert_int_equal(id[7] << 16 | id[6], 1);
    assert_int_equal(id[9] << 16 | id[8], 0);
    assert_int_equal(id[0x2F], 0);
    assert_int_equal((uint32_t)id[0x0A + 15] << 16 | id[0x0A + 14],
                     0x6c1b4c1a);
}

/* The PFA: PBA string (devlink board.id) and the TLVs ice looks up. */
static void test_pfa_pba_and_tx_topo(void **state)
{
    Fixture *f = *state;
    uint16_t pfa = sr_word(f, E810_SR_PFA_PTR);
    uint16_t end = pfa + sr_word(f, pfa) - 1;
    uint16_t w, pba = 0, pba_len = 0, ovr = 0, ovr_len = 0;
    char str[32];
    uint8_t sel[4];
    unsigned i, n;

    for (w = pfa + 1; w < end; w += 2 + sr_word(f, w + 1)) {
        if (sr_word(f, w) == E810_SR_PBA_BLOCK_PTR) {
            pba = w;
            pba_len = sr_word(f, w + 1);
        } else if (sr_word(f, w) == E810_SR_LINK_DFLT_OVERRIDE_TLV) {
            ovr = w;
            ovr_len = sr_word(f, w + 1);
        }
    }
    assert_int_equal(w, end);
    /* ice_read_pba_string(): size word counts itself, 2 chars a word. */
    assert_true(pba != 0);
    n = sr_word(f, pba + 2);
    assert_true(pba_len >= n);
    for (i = 0; i < n - 1u; i++) {
        uint16_t v = sr_word(f, pba + 3 + i);

        str[2 * i] = (char)(v >> 8);
        str[2 * i + 1] = (char)v;
    }
    str[2 * (n - 1)] = '\0';
    assert_string_equal(str, "K91258-010");
    /* Link default override: 10 words per port, no override. */
    assert_true(ovr != 0);
    assert_int_equal(ovr_len, 80);
    assert_int_equal(sr_word(f, ovr + 2), 0);
    /* Module 0x14B (ice_get_tx_topo_user_sel()): length 1, 9 layers. */
    acquire_nvm(f);
    assert_int_equal(nvm_read(f, 0, 4, E810_AQC_NVM_LAST_CMD,
                              E810_AQC_NVM_TX_TOPO_MOD_ID, sel, 4),
                     E810_AQ_RC_OK);
    assert_int_equal(sel[0] | sel[1] << 8, 1);
    assert_int_equal(sel[2] & BIT(4), 0);
    assert_int_equal(nvm_read(f, 2, 4, 0, E810_AQC_NVM_TX_TOPO_MOD_ID, sel,
                              4), E810_AQ_RC_EINVAL);
    release_nvm(f);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_nvm_ownership),
        T(test_other_resources_and_bad_requests),
        T(test_ownership_expires),
        T(test_global_config_lock),
        T(test_ownership_dropped_by_resets_and_unload),
        T(test_read_needs_ownership),
        T(test_shadow_ram_words),
        T(test_flash_size_search),
        T(test_bad_reads),
        T(test_nvm_banks_and_sr_copy),
        T(test_checksum),
        T(test_option_rom_civd),
        T(test_netlist_id_block),
        T(test_pfa_pba_and_tx_topo),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_nvm", tests, NULL, NULL);
}
