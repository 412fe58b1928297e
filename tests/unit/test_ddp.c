/*
 * Device model: DDP package download, package info, upload/update and the
 * VLAN mode, driven the way ice_init_pkg() and ice_vlan_mode.c drive them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "aq_driver.h"

#define DFLT_PKG "/work/src/fw/lib/firmware/intel/ice/ddp/ice-1.3.30.0.pkg"
#define BUF E810_PKG_BUF_SIZE
#define INFO_LEN (4 + 4 * 40)   /* ice asks for up to 4 entries */

/* Undefined behaviour (a misaligned access) fails the test, not a log line. */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
    return "halt_on_error=1:print_stacktrace=1";
}

typedef struct Fixture {
    Harness *h;
    AqDriver aq;
    bool locks;                 /* 0x0008 is modelled */
} Fixture;

/* 0x0008 request resource (direct), as ice_aq_req_res() sends it. */
struct req_res {
    uint16_t res_id;
    uint16_t access;
    uint32_t timeout;
    uint32_t res_number;
    uint16_t status;
    uint8_t rsvd[2];
};

static uint16_t req_res(Fixture *f, uint16_t opc, uint16_t res)
{
    struct e810_aq_desc d = aq_desc(opc);
    struct req_res *p = (void *)d.params.raw;

    p->res_id = htole16(res);
    p->access = htole16(2);     /* write */
    p->timeout = htole32(3000);
    return aq_send(f->h, &f->aq, &d, NULL, 0);
}

static void lock(Fixture *f, uint16_t res)
{
    uint16_t rc = req_res(f, 0x0008, res);

    f->locks = rc != E810_AQ_RC_ESRCH;
    if (f->locks) {
        assert_int_equal(rc, E810_AQ_RC_OK);
    }
}

static void unlock(Fixture *f, uint16_t res)
{
    if (f->locks) {
        assert_int_equal(req_res(f, 0x0009, res), E810_AQ_RC_OK);
    }
}

/* After a device reset: whatever ownership survived, take the lock anew. */
static void relock(Fixture *f, uint16_t res)
{
    req_res(f, 0x0009, res);
    lock(f, res);
}

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->h = harness_new(0);
    if (!f->h) {
        return -1;
    }
    aq_init(f->h, &f->aq);
    /*
     * The device reports SVM-only packages by default (the model has no
     * DVM switch recipes); these tests cover the package's DVM path too.
     */
    assert_true(f->h->core.ddp.svm_only);
    f->h->core.ddp.svm_only = false;
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

/* ---- building package buffers (as ice_pkg_buf_alloc_section() does) ---- */

typedef struct Sect {
    uint32_t type;
    uint16_t size;
} Sect;

/*
 * Lays out @n sections after the table, each @shift bytes past a 4-byte
 * boundary (ice aligns them; the firmware must take any offset); returns
 * the data of each.
 */
static void mkbuf_at(uint8_t *b, const Sect *s, unsigned n, uint8_t **data,
                     unsigned shift)
{
    struct e810_pkg_buf_hdr *h = (void *)b;
    uint16_t end = sizeof(*h) + n * sizeof(struct e810_pkg_section_entry);
    unsigned i;

    memset(b, 0, BUF);
    for (i = 0; i < n; i++) {
        struct e810_pkg_section_entry *e = (void *)(b + sizeof(*h) + 8 * i);

        end = ((end + 3) & ~3) + shift;
        e->type = htole32(s[i].type);
        e->offset = htole16(end);
        e->size = htole16(s[i].size);
        if (data) {
            data[i] = b + end;
        }
        end += s[i].size;
    }
    h->section_count = htole16(n);
    h->data_end = htole16(end);
}

static void mkbuf(uint8_t *b, const Sect *s, unsigned n, uint8_t **data)
{
    mkbuf_at(b, s, n, data, 0);
}

static struct e810_pkg_section_entry *entry(uint8_t *b, unsigned i)
{
    return (void *)(b + sizeof(struct e810_pkg_buf_hdr) + 8 * i);
}

/* A synthetic signed package: manifest, hash table, @ncfg config buffers. */
typedef struct Pkg {
    uint8_t buf[8][BUF];
    unsigned n;
} Pkg;

static void mkpkg_at(Pkg *p, unsigned ncfg, bool dvm, unsigned shift)
{
    static const Sect man = { E810_SID_MANIFEST, 800 };
    Sect hs = { E810_SID_BUF_HASHES, (uint16_t)(4 + 32 * ncfg) };
    Sect c0[3] = { { 0x0b, 204 }, { E810_SID_METADATA, 36 },
                   { E810_SID_RXPARSER_METADATA_INIT, 4 + 2 * 24 } };
    Sect cn = { 0x10, 4036 };
    uint8_t *d[3];
    struct e810_pkg_meta_sect m;
    unsigned i;

    assert_true(ncfg >= 1 && ncfg + 2 <= 8);
    mkbuf(p->buf[0], &man, 1, NULL);
    mkbuf(p->buf[1], &hs, 1, d);
    d[0][0] = ncfg;
    mkbuf_at(p->buf[2], c0, 3, d, shift);
    memset(&m, 0, sizeof(m));
    m.ver = (struct e810_pkg_ver){ 1, 3, 30, 0 };
    strcpy(m.name, "ICE Test Package");
    m.track_id = htole32(0xc0000001);
    memcpy(d[1], &m, sizeof(m));        /* d[1] may be misaligned */
    d[2][0] = 2;                        /* count */
    if (dvm) {
        d[2][4 + E810_META_VLAN_MODE_BIT / 8] =
            1 << (E810_META_VLAN_MODE_BIT % 8);
    }
    for (i = 1; i < ncfg; i++) {
        mkbuf(p->buf[2 + i], &cn, 1, NULL);
    }
    p->n = 2 + ncfg;
}

static void mkpkg(Pkg *p, unsigned ncfg, bool dvm)
{
    mkpkg_at(p, ncfg, dvm, 0);
}

static uint16_t dl(Fixture *f, uint8_t *b, bool last, uint32_t *eoff,
                   uint32_t *einfo)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_DOWNLOAD_PKG);
    struct e810_aqc_download_pkg *p = (void *)d.params.raw;
    static uint8_t tmp[BUF];
    uint16_t rc;

    d.flags |= htole16(E810_AQ_FLAG_RD);
    p->flags = last ? E810_AQC_DOWNLOAD_PKG_LAST_BUF : 0;
    memcpy(tmp, b, BUF);
    rc = aq_send(f->h, &f->aq, &d, tmp, BUF);
    if (rc && eoff) {
        const struct e810_aqc_download_pkg_resp *r = (const void *)tmp;

        assert_int_equal(le16toh(d.datalen), sizeof(*r));
        *eoff = le32toh(r->error_offset);
        *einfo = le32toh(r->error_info);
    }
    return rc;
}

static void download(Fixture *f, Pkg *p)
{
    unsigned i;

    for (i = 0; i < p->n; i++) {
        assert_int_equal(dl(f, p->buf[i], i + 1 == p->n, NULL, NULL),
                         E810_AQ_RC_OK);
    }
}

static unsigned pkg_info(Fixture *f, struct e810_aqc_get_pkg_info *e)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_PKG_INFO_LIST);
    uint8_t b[INFO_LEN];
    uint32_t n;

    memset(b, 0xa5, sizeof(b));
    assert_int_equal(aq_send(f->h, &f->aq, &d, b, sizeof(b)), E810_AQ_RC_OK);
    memcpy(&n, b, 4);
    n = le32toh(n);
    assert_true(n >= 1 && n <= 4);
    assert_int_equal(le16toh(d.datalen), 4 + 40 * n);
    memcpy(e, b + 4, 40 * n);
    return n;
}

/* ---- tests ----------------------------------------------------------------- */

/* Before a download: the NVM package that ice_chk_pkg_compat() looks for. */
static void test_info_before_download(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_get_pkg_info e[4];
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_PKG_INFO_LIST);
    uint8_t small[4 + 40 - 1];

    assert_int_equal(pkg_info(f, e), 1);
    assert_int_equal(e[0].is_in_nvm, 1);
    /* ice package segment format 1.0.x: same major, minor not above. */
    assert_int_equal(e[0].ver.major, 1);
    assert_string_equal(e[0].name, "ICE OS Default Package");
    assert_false(e810_ddp_pkg_loaded(&f->h->core));
    assert_int_equal(aq_send(f->h, &f->aq, &d, small, sizeof(small)),
                     E810_AQ_RC_ENOMEM);
}

static void test_download_good(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_get_pkg_info e[4];
    static Pkg p;

    mkpkg(&p, 3, true);
    lock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    download(f, &p);
    unlock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    assert_true(e810_ddp_pkg_loaded(&f->h->core));
    assert_int_equal(f->h->core.ddp.downloads, 1);
    assert_int_equal(pkg_info(f, e), 2);
    assert_int_equal(e[0].is_in_nvm, 1);
    assert_int_equal(e[0].is_active, 0);
    assert_int_equal(e[1].is_active, 1);
    assert_int_equal(e[1].is_in_nvm, 0);
    assert_memory_equal(&e[1].ver, ((uint8_t[]){ 1, 3, 30, 0 }), 4);
    /* ice_get_ddp_pkg_state() compares the name with memcmp. */
    assert_memory_equal(e[1].name, "ICE Test Package\0\0\0\0\0\0\0\0\0\0\0",
                        28);
    assert_int_equal(le32toh(e[1].track_id), 0xc0000001);
}

static void expect_fault(Fixture *f, uint8_t *b, uint32_t off, uint32_t info)
{
    uint32_t eoff = ~0u, einfo = ~0u;

    assert_int_equal(dl(f, b, false, &eoff, &einfo), E810_AQ_RC_EINVAL);
    assert_int_equal(eoff, off);
    assert_int_equal(einfo, info);
}

static void test_download_bad_buffers(void **state)
{
    Fixture *f = *state;
    static Pkg p;
    static uint8_t b[BUF];
    uint32_t eoff, einfo;

    mkpkg(&p, 3, true);
    lock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);

    /* Section offset inside the section table. */
    dl(f, p.buf[0], false, NULL, NULL);
    dl(f, p.buf[1], false, NULL, NULL);
    memcpy(b, p.buf[2], BUF);
    entry(b, 1)->offset = htole16(8);
    expect_fault(f, b, 4 + 8 + 4, E810_DDP_ERR_SECT_OFFSET);
    /* The download was reset: a config buffer now lacks the manifest. */
    assert_int_equal(dl(f, p.buf[2], false, &eoff, &einfo),
                     E810_AQ_RC_ENOSEC);

    /* Section count 0 and 512; data_end past 4 KB. */
    memcpy(b, p.buf[0], BUF);
    b[0] = 0;
    expect_fault(f, b, 0, E810_DDP_ERR_SECT_COUNT);
    b[0] = 0;
    b[1] = 2;
    expect_fault(f, b, 0, E810_DDP_ERR_SECT_COUNT);
    memcpy(b, p.buf[0], BUF);
    b[2] = 0x01;
    b[3] = 0x10;                /* 4097 */
    expect_fault(f, b, 2, E810_DDP_ERR_DATA_END);

    /* Section past data_end; section of a metadata type. */
    memcpy(b, p.buf[0], BUF);
    entry(b, 0)->size = htole16(4000);
    expect_fault(f, b, 4 + 6, E810_DDP_ERR_SECT_SIZE);
    memcpy(b, p.buf[0], BUF);
    entry(b, 0)->type = htole32(0x80000001);
    expect_fault(f, b, 4, E810_DDP_ERR_SECT_TYPE);

    assert_false(e810_ddp_pkg_loaded(&f->h->core));
    assert_true(f->h->core.ddp.dl_errors >= 7);
    /* After all that, a good download still goes through. */
    download(f, &p);
    assert_true(e810_ddp_pkg_loaded(&f->h->core));
}

static void test_download_order(void **state)
{
    Fixture *f = *state;
    static Pkg p;
    uint32_t eoff, einfo;

    mkpkg(&p, 3, true);
    lock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);

    /* Manifest, then configuration without hash tables. */
    assert_int_equal(dl(f, p.buf[0], false, NULL, NULL), E810_AQ_RC_OK);
    assert_int_equal(dl(f, p.buf[2], false, &eoff, &einfo),
                     E810_AQ_RC_ENOSEC);
    assert_int_equal(einfo, E810_DDP_ERR_SEQUENCE);

    /* LAST_BUF before every covered buffer came. */
    dl(f, p.buf[0], false, NULL, NULL);
    dl(f, p.buf[1], false, NULL, NULL);
    dl(f, p.buf[2], false, NULL, NULL);
    assert_int_equal(dl(f, p.buf[3], true, &eoff, &einfo), E810_AQ_RC_EINVAL);
    assert_int_equal(einfo, E810_DDP_ERR_SEQUENCE);
    assert_false(e810_ddp_pkg_loaded(&f->h->core));

    /* No LAST_BUF: one buffer more than the manifest covers. */
    dl(f, p.buf[0], false, NULL, NULL);
    dl(f, p.buf[1], false, NULL, NULL);
    dl(f, p.buf[2], false, NULL, NULL);
    dl(f, p.buf[3], false, NULL, NULL);
    assert_int_equal(dl(f, p.buf[4], false, NULL, NULL), E810_AQ_RC_OK);
    assert_int_equal(dl(f, p.buf[4], false, &eoff, &einfo),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(einfo, E810_DDP_ERR_SEQUENCE);

    /* A hash table among the configuration buffers. */
    dl(f, p.buf[0], false, NULL, NULL);
    dl(f, p.buf[1], false, NULL, NULL);
    dl(f, p.buf[2], false, NULL, NULL);
    assert_int_equal(dl(f, p.buf[1], false, &eoff, &einfo),
                     E810_AQ_RC_EINVAL);
    assert_false(e810_ddp_pkg_loaded(&f->h->core));

    /* A short buffer. */
    {
        struct e810_aq_desc d = aq_desc(E810_AQC_DOWNLOAD_PKG);
        static uint8_t b[BUF];

        memcpy(b, p.buf[0], BUF);
        assert_int_equal(aq_send(f->h, &f->aq, &d, b, 2048),
                         E810_AQ_RC_EINVAL);
        assert_int_equal(le32toh(((uint32_t *)b)[1]), E810_DDP_ERR_BUF_LEN);
    }
    download(f, &p);
    assert_true(e810_ddp_pkg_loaded(&f->h->core));
}

static void test_download_without_lock(void **state)
{
    Fixture *f = *state;
    static Pkg p;

    lock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    unlock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    if (!f->locks) {
        skip();     /* resource ownership (0x0008) not in this model yet */
    }
    mkpkg(&p, 1, false);
    assert_int_equal(dl(f, p.buf[0], false, NULL, NULL), E810_AQ_RC_EPERM);
    lock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    dl(f, p.buf[0], false, NULL, NULL);
    dl(f, p.buf[1], false, NULL, NULL);
    unlock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    /* Lock gone mid-download: refused, and the download starts over. */
    assert_int_equal(dl(f, p.buf[2], true, NULL, NULL), E810_AQ_RC_EPERM);
    assert_false(e810_ddp_pkg_loaded(&f->h->core));
    assert_int_equal(f->h->core.ddp.phase, E810_DDP_DL_IDLE);
}

static uint16_t upload_vlan_entry_at(Fixture *f, uint8_t *bm,
                                     unsigned shift)
{
    static uint8_t b[BUF];
    Sect s = { E810_SID_RXPARSER_METADATA_INIT, 4 + 24 };
    uint8_t *d;
    struct e810_aq_desc desc = aq_desc(E810_AQC_UPLOAD_SECTION);
    uint16_t rc;

    mkbuf_at(b, &s, 1, &d, shift);
    d[0] = 1;                           /* count 1, offset 0 */
    desc.flags |= htole16(E810_AQ_FLAG_RD);
    rc = aq_send(f->h, &f->aq, &desc, b, BUF);
    if (rc == E810_AQ_RC_OK) {
        assert_int_equal(le16toh(desc.datalen), BUF);
        memcpy(bm, d + 4, 24);
    }
    return rc;
}

static uint16_t upload_vlan_entry(Fixture *f, uint8_t *bm)
{
    return upload_vlan_entry_at(f, bm, 0);
}

static uint16_t vlan_mode(Fixture *f, bool dvm, uint8_t rdma)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_SET_VLAN_MODE);
    struct e810_aqc_set_vlan_mode s;

    memset(&s, 0, sizeof(s));
    s.l2tag_prio_tagging = dvm ? 2 : 4;
    s.rdma_packet = rdma;
    s.mng_vlan_prot_id = dvm ? E810_AQ_VLAN_MNG_PROTOCOL_ID_OUTER :
                               E810_AQ_VLAN_MNG_PROTOCOL_ID_INNER;
    d.flags |= htole16(E810_AQ_FLAG_RD);
    return aq_send(f->h, &f->aq, &d, &s, sizeof(s));
}

static uint8_t get_vlan_mode(Fixture *f)
{
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_VLAN_MODE);
    struct e810_aqc_get_vlan_mode g;

    memset(&g, 0xff, sizeof(g));
    assert_int_equal(aq_send(f->h, &f->aq, &d, &g, sizeof(g)), E810_AQ_RC_OK);
    assert_int_equal(le16toh(d.datalen), sizeof(g));
    return g.vlan_mode;
}

/* ice_set_vlan_mode(): upload section, get, then set (DVM or SVM). */
static void test_vlan_mode(void **state)
{
    Fixture *f = *state;
    static Pkg p;
    uint8_t bm[24];

    assert_int_equal(upload_vlan_entry(f, bm), E810_AQ_RC_ENOENT);
    assert_int_equal(vlan_mode(f, true, E810_AQ_DVM_VLAN_RDMA_PKT_FLAG_SETTING),
                     E810_AQ_RC_EINVAL);
    mkpkg(&p, 1, true);
    lock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    download(f, &p);
    assert_int_equal(upload_vlan_entry(f, bm), E810_AQ_RC_OK);
    assert_true(bm[E810_META_VLAN_MODE_BIT / 8] &
                (1 << (E810_META_VLAN_MODE_BIT % 8)));
    assert_int_equal(get_vlan_mode(f), 0);
    assert_int_equal(vlan_mode(f, true, E810_AQ_DVM_VLAN_RDMA_PKT_FLAG_SETTING),
                     E810_AQ_RC_OK);
    assert_int_equal(get_vlan_mode(f), E810_AQ_VLAN_MODE_DVM_ENA);
    assert_true(e810_ddp_dvm_enabled(&f->h->core));
    assert_int_equal(vlan_mode(f, false, 0x11), E810_AQ_RC_EINVAL);
    assert_int_equal(vlan_mode(f, false, E810_AQ_SVM_VLAN_RDMA_PKT_FLAG_SETTING),
                     E810_AQ_RC_OK);
    assert_int_equal(get_vlan_mode(f), 0);

    /* The svm_only knob hides the capability, through a CORER too. */
    f->h->core.ddp.svm_only = true;
    e810_aq_fw_reset(&f->h->core, E810_RST_CORER);
    assert_true(f->h->core.ddp.svm_only);
    relock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    download(f, &p);
    assert_int_equal(upload_vlan_entry(f, bm), E810_AQ_RC_OK);
    assert_false(bm[E810_META_VLAN_MODE_BIT / 8]);
    assert_int_equal(vlan_mode(f, true, E810_AQ_DVM_VLAN_RDMA_PKT_FLAG_SETTING),
                     E810_AQ_RC_EINVAL);
    f->h->core.ddp.svm_only = false;

    /* A package without the DVM flag cannot run double VLAN mode. */
    mkpkg(&p, 1, false);
    download(f, &p);
    assert_int_equal(upload_vlan_entry(f, bm), E810_AQ_RC_OK);
    assert_false(bm[E810_META_VLAN_MODE_BIT / 8]);
    assert_int_equal(vlan_mode(f, true, E810_AQ_DVM_VLAN_RDMA_PKT_FLAG_SETTING),
                     E810_AQ_RC_EINVAL);
}

/* ice_upd_dvm_boost_entry()-style update: 2 sections, data_end bytes. */
/*
 * Sections at odd offsets (1 past each 4-byte boundary): the download reads
 * the metadata and metadata init sections, the upload fills its section in
 * place; both by copy (UBSan stops the test on a misaligned access).
 */
static void test_odd_section_offsets(void **state)
{
    Fixture *f = *state;
    struct e810_aqc_get_pkg_info e[4];
    static Pkg p;
    uint8_t bm[24];
    unsigned i;

    mkpkg_at(&p, 2, true, 1);
    for (i = 0; i < 3; i++) {
        assert_int_equal(le16toh(entry(p.buf[2], i)->offset) & 3, 1);
    }
    lock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    download(f, &p);
    assert_true(e810_ddp_pkg_loaded(&f->h->core));
    assert_int_equal(pkg_info(f, e), 2);
    assert_int_equal(e[1].is_active, 1);
    assert_memory_equal(&e[1].ver, ((uint8_t[]){ 1, 3, 30, 0 }), 4);
    assert_string_equal(e[1].name, "ICE Test Package");
    assert_int_equal(le32toh(e[1].track_id), 0xc0000001);
    for (i = 1; i < 4; i++) {
        memset(bm, 0x5a, sizeof(bm));
        assert_int_equal(upload_vlan_entry_at(f, bm, i), E810_AQ_RC_OK);
        assert_int_equal(bm[E810_META_VLAN_MODE_BIT / 8],
                         1 << (E810_META_VLAN_MODE_BIT % 8));
        assert_int_equal(bm[0], 0);
    }
}

static void test_update_pkg(void **state)
{
    Fixture *f = *state;
    static Pkg p;
    static uint8_t b[BUF];
    Sect s[2] = { { E810_SID_RXPARSER_BOOST_TCAM, 4 + 88 },
                  { E810_SID_TXPARSER_BOOST_TCAM, 4 + 88 } };
    struct e810_aq_desc d;
    uint16_t len;

    mkbuf(b, s, 2, NULL);
    len = le16toh(((struct e810_pkg_buf_hdr *)b)->data_end);
    d = aq_desc(E810_AQC_UPDATE_PKG);
    d.flags |= htole16(E810_AQ_FLAG_RD);
    assert_int_equal(aq_send(f->h, &f->aq, &d, b, len), E810_AQ_RC_EPERM);

    mkpkg(&p, 1, true);
    lock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    download(f, &p);
    unlock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    lock(f, E810_DDP_RES_CHANGE_LOCK);
    d = aq_desc(E810_AQC_UPDATE_PKG);
    d.flags |= htole16(E810_AQ_FLAG_RD);
    ((struct e810_aqc_download_pkg *)d.params.raw)->flags =
        E810_AQC_DOWNLOAD_PKG_LAST_BUF;
    assert_int_equal(aq_send(f->h, &f->aq, &d, b, len), E810_AQ_RC_OK);
    assert_int_equal(f->h->core.ddp.updates, 1);
    assert_int_equal(f->h->core.ddp.update_sections, 2);

    /* A section running past data_end: EINVAL, offset of its size. */
    entry(b, 1)->size = htole16(200);
    d = aq_desc(E810_AQC_UPDATE_PKG);
    assert_int_equal(aq_send(f->h, &f->aq, &d, b, len), E810_AQ_RC_EINVAL);
    assert_int_equal(le32toh(((uint32_t *)b)[0]), 4 + 8 + 6);
    assert_int_equal(le32toh(((uint32_t *)b)[1]), E810_DDP_ERR_SECT_SIZE);
    unlock(f, E810_DDP_RES_CHANGE_LOCK);
    if (f->locks) {
        entry(b, 1)->size = htole16(92);
        d = aq_desc(E810_AQC_UPDATE_PKG);
        assert_int_equal(aq_send(f->h, &f->aq, &d, b, len), E810_AQ_RC_EPERM);
    }
    assert_int_equal(f->h->core.ddp.updates, 1);
}

/* ice_rebuild(): no reload after a PFR, a reload after CORER/GLOBR. */
static void test_resets(void **state)
{
    Fixture *f = *state;
    E810Core *core = &f->h->core;
    static Pkg p;

    mkpkg(&p, 2, true);
    lock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    download(f, &p);
    assert_int_equal(vlan_mode(f, true, E810_AQ_DVM_VLAN_RDMA_PKT_FLAG_SETTING),
                     E810_AQ_RC_OK);
    /* A second download under the same hold, cut short by a PFR: the
     * active package and its VLAN mode stay. */
    assert_int_equal(dl(f, p.buf[0], false, NULL, NULL), E810_AQ_RC_OK);
    assert_int_equal(dl(f, p.buf[1], false, NULL, NULL), E810_AQ_RC_OK);
    e810_aq_fw_reset(core, E810_RST_PFR);
    assert_true(e810_ddp_pkg_loaded(core));
    assert_true(e810_ddp_dvm_enabled(core));

    e810_aq_fw_reset(core, E810_RST_CORER);
    assert_false(e810_ddp_pkg_loaded(core));
    assert_false(e810_ddp_dvm_enabled(core));

    /*
     * A PFR in the middle of a download abandons it: the next buffer is
     * out of sequence. The PFR also ends the PF's hold of the lock, and
     * with a package active the lock is not granted at all
     * (ice_acquire_global_cfg_lock()), so this runs with none loaded.
     */
    relock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    assert_int_equal(dl(f, p.buf[0], false, NULL, NULL), E810_AQ_RC_OK);
    assert_int_equal(dl(f, p.buf[1], false, NULL, NULL), E810_AQ_RC_OK);
    e810_aq_fw_reset(core, E810_RST_PFR);
    relock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    assert_int_equal(dl(f, p.buf[2], false, NULL, NULL), E810_AQ_RC_ENOSEC);
    assert_false(e810_ddp_pkg_loaded(core));

    relock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    download(f, &p);
    assert_true(e810_ddp_pkg_loaded(core));
    e810_aq_fw_reset(core, E810_RST_GLOBR);
    assert_false(e810_ddp_pkg_loaded(core));
    relock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    download(f, &p);
    e810_aq_fw_reset(core, E810_RST_POR);
    assert_false(e810_ddp_pkg_loaded(core));
}

/* ---- the real E810 package, split into buffers as ice_init_pkg() does --- */

static uint8_t *load_file(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    uint8_t *d;
    long n;

    if (!fp) {
        return NULL;
    }
    fseek(fp, 0, SEEK_END);
    n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    d = n > 0 ? malloc(n) : NULL;
    if (d && fread(d, 1, n, fp) != (size_t)n) {
        free(d);
        d = NULL;
    }
    fclose(fp);
    *len = n;
    return d;
}

static uint32_t rd32le(const uint8_t *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return le32toh(v);
}

/* Segment of @type (ice_find_seg_in_pkg()), checked to fit the file. */
static const uint8_t *find_seg(const uint8_t *pkg, size_t len, uint32_t type)
{
    uint32_t n = rd32le(pkg + 4), i;

    for (i = 0; i < n && 8 + 4 * (i + 1) <= len; i++) {
        uint32_t off = rd32le(pkg + 8 + 4 * i);

        if (off + 44 <= len && rd32le(pkg + off) == type &&
            off + rd32le(pkg + off + 8) <= len) {
            return pkg + off;
        }
    }
    return NULL;
}

/* ice_find_buf_table(): after the device table and the NVM table. */
static const uint8_t *ice_buf_table(const uint8_t *seg)
{
    const uint8_t *p = seg + 44;

    p += 4 + 8 * rd32le(p);
    p += 4 + 4 * rd32le(p);
    return p;
}

/* ice_dwnld_cfg_bufs_no_lock(): LAST_BUF before the first metadata buf. */
static void send_bufs(Fixture *f, const uint8_t *bufs, uint32_t start,
                      uint32_t count, bool indicate_last)
{
    uint32_t i;

    for (i = 0; i < count; i++) {
        const uint8_t *b = bufs + (size_t)(start + i) * BUF;
        bool last = false;

        if (indicate_last) {
            last = i + 1 == count ||
                   (rd32le(b + BUF + 4) & E810_PKG_METADATA_BUF);
        }
        assert_int_equal(dl(f, (uint8_t *)b, last, NULL, NULL),
                         E810_AQ_RC_OK);
        if (last) {
            return;
        }
    }
}

static void check_active_real(Fixture *f, const uint8_t *ice_seg)
{
    const uint8_t *tbl = ice_buf_table(ice_seg);
    struct e810_aqc_get_pkg_info e[4];
    const uint8_t *meta = NULL;
    uint32_t b, i;
    uint8_t bm[24];

    /* The metadata section ice_init_pkg_info() reads. */
    for (b = 0; b < rd32le(tbl) && !meta; b++) {
        const uint8_t *buf = tbl + 4 + (size_t)b * BUF;

        for (i = 0; i < (uint32_t)(buf[0] | buf[1] << 8); i++) {
            const uint8_t *en = buf + 4 + 8 * i;

            if (rd32le(en) == E810_SID_METADATA) {
                meta = buf + (en[4] | en[5] << 8);
                break;
            }
        }
    }
    assert_non_null(meta);
    assert_int_equal(pkg_info(f, e), 2);
    assert_int_equal(e[1].is_active, 1);
    assert_memory_equal(&e[1].ver, meta, 4);
    assert_memory_equal(e[1].name, meta + 4, 28);
    assert_int_equal(le32toh(e[1].track_id), rd32le(meta + 32));
    /* ice_chk_pkg_compat(): segment format major equal, minor not above. */
    assert_int_equal(e[0].is_in_nvm, 1);
    assert_int_equal(ice_seg[4], e[0].ver.major);
    assert_true(ice_seg[5] <= e[0].ver.minor);
    printf("# active: %.28s %u.%u.%u.%u track 0x%08x\n", e[1].name,
           e[1].ver.major, e[1].ver.minor, e[1].ver.update, e[1].ver.draft,
           le32toh(e[1].track_id));
    /* ice_pkg_supports_dvm(): this package's parser does DVM. */
    assert_int_equal(upload_vlan_entry(f, bm), E810_AQ_RC_OK);
    printf("# package DVM capable: %d\n",
           !!(bm[E810_META_VLAN_MODE_BIT / 8] &
              (1 << (E810_META_VLAN_MODE_BIT % 8))));
}

static void test_real_package(void **state)
{
    Fixture *f = *state;
    const char *path = getenv("E810_DDP_PKG");
    const uint8_t *sign, *ice_seg, *tbl;
    uint8_t *pkg;
    size_t len;
    uint32_t idx, start, count;

    if (!path || !*path) {
        path = DFLT_PKG;
    }
    pkg = load_file(path, &len);
    if (!pkg) {
        printf("# no DDP package at %s (set E810_DDP_PKG)\n", path);
        skip();
    }
    assert_true(len >= 12);
    ice_seg = find_seg(pkg, len, 0x10);     /* SEGMENT_TYPE_ICE_E810 */
    sign = find_seg(pkg, len, 0x1001);      /* SEGMENT_TYPE_SIGNING */
    assert_non_null(ice_seg);

    lock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    if (sign) {
        /* ice_download_pkg_with_sig_seg(): seg_id E810, RSA2K. */
        assert_int_equal(rd32le(sign + 44), 0x10);
        assert_int_equal(rd32le(sign + 48), 1);
        idx = rd32le(sign + 52);
        start = rd32le(sign + 56);
        count = rd32le(sign + 60);
        assert_ptr_equal(pkg + rd32le(pkg + 8 + 4 * idx), ice_seg);
        send_bufs(f, sign + 112, 0, rd32le(sign + 108), false);
        tbl = ice_buf_table(ice_seg);
        assert_true(start + count <= rd32le(tbl));
        send_bufs(f, tbl + 4, start, count, true);
    } else {
        tbl = ice_buf_table(ice_seg);
        send_bufs(f, tbl + 4, 0, rd32le(tbl), true);
    }
    assert_true(e810_ddp_pkg_loaded(&f->h->core));
    check_active_real(f, ice_seg);

    /* The unsigned path after a CORER: the whole ice segment. */
    e810_aq_fw_reset(&f->h->core, E810_RST_CORER);
    relock(f, E810_DDP_RES_GLOBAL_CFG_LOCK);
    tbl = ice_buf_table(ice_seg);
    send_bufs(f, tbl + 4, 0, rd32le(tbl), true);
    assert_true(e810_ddp_pkg_loaded(&f->h->core));
    check_active_real(f, ice_seg);
    free(pkg);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_info_before_download),
        T(test_download_good),
        T(test_download_bad_buffers),
        T(test_download_order),
        T(test_download_without_lock),
        T(test_vlan_mode),
        T(test_odd_section_offsets),
        T(test_update_pkg),
        T(test_resets),
        T(test_real_package),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_ddp", tests, NULL, NULL);
}
