/*
 * Emulated E810: the DDP package download and package information.
 *
 * A download (0x0C40) is a sequence of 4 KB package buffers sent under the
 * global config lock: the signed manifest, the buffer hash tables, then the
 * configuration buffers the manifest covers, the last flagged LAST_BUF
 * (ice_dwnld_sign_and_cfg_segs() sends exactly this for the E810 package;
 * the unsigned path, ice_download_pkg_without_sig_seg(), sends the same
 * buffers because the ice segment starts with copies of them). The package
 * becomes active at LAST_BUF; its name, version and track id come from the
 * metadata section (type 1) inside the configuration buffers, the same
 * section ice_init_pkg_info() reads, so 0x0C43 matches what ice compares in
 * ice_get_ddp_pkg_state().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stddef.h>
#include <string.h>

#include "e810_core.h"

/* The package in the NVM: the E810 OS default package. */
static const struct e810_aqc_get_pkg_info nvm_pkg = {
    .ver = { 1, 3, 30, 0 },
    .name = "ICE OS Default Package",
    .track_id = 0,
    .is_in_nvm = 1,
    .is_active_at_boot = 1,
};

#define HASH_SIZE 32    /* one entry of a buffer hash table */

void e810_ddp_reset(E810Core *core, E810ResetSource level)
{
    E810Ddp *d = &core->ddp;
    bool svm_only = d->svm_only;

    if (level == E810_RST_PFR) {
        /*
         * The package lives in the shared pipeline: a PF reset only
         * abandons a download in progress (ice_rebuild() does not reload
         * the package after a PFR, it refills its own tables).
         */
        d->phase = E810_DDP_DL_IDLE;
        return;
    }
    /*
     * CORER and stronger reset the pipeline: ice_rebuild() downloads the
     * package again (ice_load_pkg(NULL, pf)), and the VLAN mode with it.
     */
    memset(d, 0, sizeof(*d));
    d->svm_only = svm_only;
}

void e810_ddp_clear_pf_config(E810Core *core)
{
}

bool e810_ddp_pkg_loaded(E810Core *core)
{
    return core->ddp.active;
}

/* ---- package buffers --------------------------------------------------- */

typedef struct DdpFault {
    uint32_t offset;
    uint32_t info;
} DdpFault;

static enum e810_aq_rc fault(DdpFault *f, uint32_t offset, uint32_t info)
{
    f->offset = offset;
    f->info = info;
    return E810_AQ_RC_EINVAL;
}

static const struct e810_pkg_section_entry *sect_entry(const uint8_t *buf,
                                                       unsigned i)
{
    return (const void *)(buf + sizeof(struct e810_pkg_buf_hdr) +
                          i * sizeof(struct e810_pkg_section_entry));
}

/*
 * Checks a package buffer of @len bytes: the header, then every section
 * entry (type, offset and size inside the data). A metadata type (b31) is
 * refused: ice keeps those buffers to itself (ice_dwnld_cfg_bufs_no_lock()
 * stops before the first one).
 */
static enum e810_aq_rc check_buf(const uint8_t *buf, uint16_t len,
                                 DdpFault *f)
{
    const struct e810_pkg_buf_hdr *h = (const void *)buf;
    uint16_t count, data_end, table_end;
    unsigned i;

    if (len < E810_PKG_MIN_S_DATA_END) {
        return fault(f, 0, E810_DDP_ERR_BUF_LEN);
    }
    count = le16toh(h->section_count);
    data_end = le16toh(h->data_end);
    if (count < E810_PKG_MIN_S_COUNT || count > E810_PKG_MAX_S_COUNT) {
        return fault(f, offsetof(struct e810_pkg_buf_hdr, section_count),
                     E810_DDP_ERR_SECT_COUNT);
    }
    if (data_end < E810_PKG_MIN_S_DATA_END ||
        data_end > E810_PKG_MAX_S_DATA_END || data_end > len) {
        return fault(f, offsetof(struct e810_pkg_buf_hdr, data_end),
                     E810_DDP_ERR_DATA_END);
    }
    table_end = sizeof(*h) + count * sizeof(struct e810_pkg_section_entry);
    if (table_end > data_end) {
        return fault(f, offsetof(struct e810_pkg_buf_hdr, section_count),
                     E810_DDP_ERR_SECT_TABLE);
    }
    for (i = 0; i < count; i++) {
        const struct e810_pkg_section_entry *e = sect_entry(buf, i);
        uint32_t eoff = (const uint8_t *)e - buf;
        uint32_t type = le32toh(e->type);
        uint16_t off = le16toh(e->offset);
        uint16_t size = le16toh(e->size);

        if (type == 0 || (type & E810_PKG_METADATA_BUF)) {
            return fault(f, eoff + offsetof(struct e810_pkg_section_entry,
                                            type), E810_DDP_ERR_SECT_TYPE);
        }
        if (off < table_end || off >= data_end) {
            return fault(f, eoff + offsetof(struct e810_pkg_section_entry,
                                            offset), E810_DDP_ERR_SECT_OFFSET);
        }
        if (size == 0 || size > E810_PKG_MAX_S_SZ ||
            (uint32_t)off + size > data_end) {
            return fault(f, eoff + offsetof(struct e810_pkg_section_entry,
                                            size), E810_DDP_ERR_SECT_SIZE);
        }
    }
    return E810_AQ_RC_OK;
}

/* What kind of buffer this is, by its first section. */
static uint32_t buf_kind(const uint8_t *buf)
{
    return le32toh(sect_entry(buf, 0)->type);
}

/* Takes the identity and the tables the firmware keeps from a section. */
static enum e810_aq_rc take_section(E810DdpPkg *p, const uint8_t *buf,
                                    unsigned i, DdpFault *f)
{
    const struct e810_pkg_section_entry *e = sect_entry(buf, i);
    uint32_t eoff = (const uint8_t *)e - buf;
    uint16_t off = le16toh(e->offset);
    uint16_t size = le16toh(e->size);
    const uint8_t *s = buf + off;

    switch (le32toh(e->type)) {
    case E810_SID_METADATA: {
        struct e810_pkg_meta_sect m;

        /* Sections sit at any byte offset: read them by copy. */
        if (size < sizeof(m)) {
            return fault(f, eoff + offsetof(struct e810_pkg_section_entry,
                                            size), E810_DDP_ERR_SECT_SIZE);
        }
        memcpy(&m, s, sizeof(m));
        p->ver = m.ver;
        memcpy(p->name, m.name, sizeof(p->name));
        p->track_id = le32toh(m.track_id);
        p->has_meta = true;
        break;
    }
    case E810_SID_RXPARSER_METADATA_INIT: {
        struct e810_pkg_meta_init_sect m;
        uint32_t first, n, k;

        if (size < sizeof(m)) {
            return fault(f, eoff + offsetof(struct e810_pkg_section_entry,
                                            size), E810_DDP_ERR_SECT_SIZE);
        }
        memcpy(&m, s, sizeof(m));
        first = le16toh(m.offset);
        n = le16toh(m.count);
        if (sizeof(m) + n * E810_META_INIT_ENTRY_SIZE > size) {
            return fault(f, off + offsetof(struct e810_pkg_meta_init_sect,
                                           count), E810_DDP_ERR_SECT_SIZE);
        }
        for (k = 0; k < n && first + k < E810_META_INIT_MAX_ENTRIES; k++) {
            memcpy(p->meta_init[first + k],
                   s + sizeof(m) + k * E810_META_INIT_ENTRY_SIZE,
                   E810_META_INIT_ENTRY_SIZE);
            if (first + k + 1 > p->meta_init_count) {
                p->meta_init_count = first + k + 1;
            }
        }
        break;
    }
    default:
        break;
    }
    return E810_AQ_RC_OK;
}

/* The manifest's hash tables: how many configuration buffers it covers. */
static enum e810_aq_rc take_hashes(E810Ddp *d, const uint8_t *buf,
                                   DdpFault *f)
{
    unsigned i, count = le16toh(((const struct e810_pkg_buf_hdr *)buf)->
                                section_count);

    for (i = 0; i < count; i++) {
        const struct e810_pkg_section_entry *e = sect_entry(buf, i);
        uint16_t off = le16toh(e->offset);
        uint32_t n;

        if (le32toh(e->type) != E810_SID_BUF_HASHES ||
            le16toh(e->size) < sizeof(uint32_t)) {
            return fault(f, (const uint8_t *)e - buf,
                         E810_DDP_ERR_SEQUENCE);
        }
        memcpy(&n, buf + off, sizeof(n));
        n = le32toh(n);
        if (sizeof(uint32_t) + (uint64_t)n * HASH_SIZE > le16toh(e->size)) {
            return fault(f, off, E810_DDP_ERR_SECT_SIZE);
        }
        d->dl_hashes += n;
    }
    return E810_AQ_RC_OK;
}

/* One 0x0C40 buffer, in the order firmware takes them. */
static enum e810_aq_rc download_buf(E810Ddp *d, const uint8_t *buf, bool last,
                                    DdpFault *f)
{
    uint32_t kind = buf_kind(buf);
    unsigned i, count;
    enum e810_aq_rc rc;

    switch (d->phase) {
    case E810_DDP_DL_IDLE:
        /* A download starts with the signed manifest. */
        if (kind != E810_SID_MANIFEST) {
            f->offset = 0;
            f->info = E810_DDP_ERR_SEQUENCE;
            return E810_AQ_RC_ENOSEC;
        }
        if (last) {
            return fault(f, 0, E810_DDP_ERR_SEQUENCE);
        }
        memset(&d->dl_pkg, 0, sizeof(d->dl_pkg));
        d->dl_hashes = 0;
        d->dl_cfg_bufs = 0;
        d->phase = E810_DDP_DL_HASHES;
        return E810_AQ_RC_OK;
    case E810_DDP_DL_HASHES:
        if (kind == E810_SID_BUF_HASHES) {
            if (last) {
                return fault(f, 0, E810_DDP_ERR_SEQUENCE);
            }
            return take_hashes(d, buf, f);
        }
        if (d->dl_hashes == 0) {
            f->offset = 0;
            f->info = E810_DDP_ERR_SEQUENCE;
            return E810_AQ_RC_ENOSEC;
        }
        d->phase = E810_DDP_DL_CONFIG;
        break;
    case E810_DDP_DL_CONFIG:
        break;
    }

    /* A configuration buffer. */
    if (kind == E810_SID_MANIFEST || kind == E810_SID_BUF_HASHES ||
        d->dl_cfg_bufs >= d->dl_hashes) {
        return fault(f, 0, E810_DDP_ERR_SEQUENCE);
    }
    count = le16toh(((const struct e810_pkg_buf_hdr *)buf)->section_count);
    for (i = 0; i < count; i++) {
        rc = take_section(&d->dl_pkg, buf, i, f);
        if (rc != E810_AQ_RC_OK) {
            return rc;
        }
    }
    d->dl_cfg_bufs++;
    if (!last) {
        return E810_AQ_RC_OK;
    }
    /* LAST_BUF: every buffer the manifest covers must have come. */
    if (d->dl_cfg_bufs != d->dl_hashes) {
        return fault(f, 0, E810_DDP_ERR_SEQUENCE);
    }
    d->pkg = d->dl_pkg;
    d->active = true;
    d->dvm = false;             /* a new package starts in single VLAN mode */
    d->phase = E810_DDP_DL_IDLE;
    d->downloads++;
    return E810_AQ_RC_OK;
}

/* Puts the error offset/info where ice_aq_download_pkg() reads them. */
static void report_fault(E810AqCmd *cmd, const DdpFault *f)
{
    struct e810_aqc_download_pkg_resp r = {
        .error_offset = htole32(f->offset),
        .error_info = htole32(f->info),
    };

    if (cmd->has_buf && cmd->buf_len >= sizeof(r)) {
        memcpy(cmd->buf, &r, sizeof(r));
        cmd->resp_len = sizeof(r);
    }
}

/* 0x0C40: download package (one 4 KB buffer). */
static enum e810_aq_rc cmd_download_pkg(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_download_pkg *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_download_pkg);
    E810Ddp *d = &core->ddp;
    DdpFault f = { 0, 0 };
    enum e810_aq_rc rc;

    d->commands++;
    /* ice_dwnld_cfg_bufs() takes the global config lock first. */
    if (!e810_nvm_res_held(core, E810_DDP_RES_GLOBAL_CFG_LOCK, true)) {
        d->phase = E810_DDP_DL_IDLE;
        d->dl_errors++;
        return E810_AQ_RC_EPERM;
    }
    /* Whole buffers only: the manifest hashes cover 4 KB buffers. */
    if (e810_aq_need_buf(cmd, E810_PKG_BUF_SIZE) != E810_AQ_RC_OK) {
        f.info = E810_DDP_ERR_BUF_LEN;
        rc = E810_AQ_RC_EINVAL;
    } else {
        rc = check_buf(cmd->buf, cmd->buf_len, &f);
    }
    if (rc == E810_AQ_RC_OK) {
        rc = download_buf(d, cmd->buf,
                          p->flags & E810_AQC_DOWNLOAD_PKG_LAST_BUF, &f);
    }
    if (rc != E810_AQ_RC_OK) {
        /* The download is over: the next one starts from the manifest. */
        d->phase = E810_DDP_DL_IDLE;
        d->dl_errors++;
        report_fault(cmd, &f);
        return rc;
    }
    d->dl_bufs++;
    return E810_AQ_RC_OK;
}

/* 0x0C41: upload section: fills the sections the driver asks for. */
static enum e810_aq_rc cmd_upload_section(E810Core *core, E810AqCmd *cmd)
{
    E810Ddp *d = &core->ddp;
    DdpFault f;
    unsigned i, count;
    enum e810_aq_rc rc;

    d->commands++;
    rc = e810_aq_need_buf(cmd, E810_PKG_MIN_S_DATA_END);
    if (rc == E810_AQ_RC_OK) {
        rc = check_buf(cmd->buf, cmd->buf_len, &f);
    }
    if (rc != E810_AQ_RC_OK) {
        return rc;
    }
    if (!d->active) {
        return E810_AQ_RC_ENOENT;   /* no package tables to read */
    }
    count = le16toh(((const struct e810_pkg_buf_hdr *)cmd->buf)->
                    section_count);
    for (i = 0; i < count; i++) {
        const struct e810_pkg_section_entry *e = sect_entry(cmd->buf, i);
        struct e810_pkg_meta_init_sect m;
        uint8_t *sect;
        uint32_t first, n, k;

        /* ice only reads the metadata init table (its DVM check). */
        if (le32toh(e->type) != E810_SID_RXPARSER_METADATA_INIT) {
            return E810_AQ_RC_ENOSYS;
        }
        if (le16toh(e->size) < sizeof(m)) {
            return E810_AQ_RC_EINVAL;
        }
        /* The section may start at any byte: its header is read by copy. */
        sect = cmd->buf + le16toh(e->offset);
        memcpy(&m, sect, sizeof(m));
        first = le16toh(m.offset);
        n = le16toh(m.count);
        if (sizeof(m) + n * E810_META_INIT_ENTRY_SIZE > le16toh(e->size) ||
            first + n > d->pkg.meta_init_count) {
            return E810_AQ_RC_EINVAL;
        }
        for (k = 0; k < n; k++) {
            uint8_t *out = sect + sizeof(m) + k * E810_META_INIT_ENTRY_SIZE;

            memcpy(out, d->pkg.meta_init[first + k],
                   E810_META_INIT_ENTRY_SIZE);
            if (d->svm_only && first + k == E810_META_VLAN_MODE_ENTRY) {
                out[E810_META_VLAN_MODE_BIT / 8] &=
                    ~(1 << (E810_META_VLAN_MODE_BIT % 8));
            }
        }
    }
    cmd->resp_len = cmd->buf_len;
    return E810_AQ_RC_OK;
}

/* 0x0C42: update package (buffers built by ice_pkg_buf_alloc()). */
static enum e810_aq_rc cmd_update_pkg(E810Core *core, E810AqCmd *cmd)
{
    E810Ddp *d = &core->ddp;
    DdpFault f = { 0, 0 };
    enum e810_aq_rc rc;

    d->commands++;
    /*
     * ice_update_pkg() holds the change lock; the DVM boost entries are
     * updated under the global config lock of the download.
     */
    if (!e810_nvm_res_held(core, E810_DDP_RES_CHANGE_LOCK, true) &&
        !e810_nvm_res_held(core, E810_DDP_RES_GLOBAL_CFG_LOCK, true)) {
        return E810_AQ_RC_EPERM;
    }
    if (!d->active) {
        return E810_AQ_RC_EPERM;    /* nothing to update */
    }
    /* ice sends data_end bytes (ice_update_pkg_no_lock()). */
    rc = e810_aq_need_buf(cmd, E810_PKG_MIN_S_DATA_END);
    if (rc == E810_AQ_RC_OK) {
        rc = check_buf(cmd->buf, cmd->buf_len, &f);
    } else {
        f.info = E810_DDP_ERR_BUF_LEN;
    }
    if (rc != E810_AQ_RC_OK) {
        report_fault(cmd, &f);
        return rc;
    }
    d->updates++;
    d->update_sections +=
        le16toh(((const struct e810_pkg_buf_hdr *)cmd->buf)->section_count);
    return E810_AQ_RC_OK;
}

/* 0x0C43: get package info list. */
static enum e810_aq_rc cmd_get_pkg_info_list(E810Core *core, E810AqCmd *cmd)
{
    E810Ddp *d = &core->ddp;
    struct e810_aqc_get_pkg_info_resp r;
    struct e810_aqc_get_pkg_info e = nvm_pkg;
    unsigned n = d->active ? 2 : 1;
    size_t need = sizeof(r) + n * sizeof(e);

    d->commands++;
    if (!cmd->has_buf) {
        return E810_AQ_RC_EINVAL;
    }
    if (cmd->buf_len < need) {
        return E810_AQ_RC_ENOMEM;
    }
    memset(cmd->buf, 0, need);
    r.count = htole32(n);
    memcpy(cmd->buf, &r, sizeof(r));
    /* Until a download, the firmware runs the package from its NVM. */
    e.is_active = !d->active;
    memcpy(cmd->buf + sizeof(r), &e, sizeof(e));
    if (d->active) {
        memset(&e, 0, sizeof(e));
        e.ver = d->pkg.ver;
        memcpy(e.name, d->pkg.name, sizeof(e.name));
        e.track_id = htole32(d->pkg.track_id);
        e.is_active = 1;
        memcpy(cmd->buf + sizeof(r) + sizeof(e), &e, sizeof(e));
    }
    cmd->resp_len = need;
    return E810_AQ_RC_OK;
}

/* ---- VLAN mode ---------------------------------------------------------- */

/* The active package's parser can run double VLAN mode. */
static bool pkg_dvm_capable(const E810Ddp *d)
{
    const uint8_t *e = d->pkg.meta_init[E810_META_VLAN_MODE_ENTRY];

    return d->active && !d->svm_only &&
           d->pkg.meta_init_count > E810_META_VLAN_MODE_ENTRY &&
           (e[E810_META_VLAN_MODE_BIT / 8] >> (E810_META_VLAN_MODE_BIT % 8)) & 1;
}

/* 0x020C: set VLAN mode (ice_set_dvm() / ice_set_svm()). */
static enum e810_aq_rc cmd_set_vlan_mode(E810Core *core, E810AqCmd *cmd)
{
    E810Ddp *d = &core->ddp;
    const struct e810_aqc_set_vlan_mode *s = (const void *)cmd->buf;
    bool dvm;

    d->commands++;
    if (e810_aq_need_buf(cmd, sizeof(*s)) != E810_AQ_RC_OK) {
        return E810_AQ_RC_EINVAL;
    }
    if (s->l2tag_prio_tagging > E810_AQ_VLAN_PRIO_TAG_MAX) {
        return E810_AQ_RC_EINVAL;
    }
    if (s->rdma_packet != E810_AQ_SVM_VLAN_RDMA_PKT_FLAG_SETTING &&
        s->rdma_packet != E810_AQ_DVM_VLAN_RDMA_PKT_FLAG_SETTING) {
        return E810_AQ_RC_EINVAL;
    }
    if (s->mng_vlan_prot_id != E810_AQ_VLAN_MNG_PROTOCOL_ID_OUTER &&
        s->mng_vlan_prot_id != E810_AQ_VLAN_MNG_PROTOCOL_ID_INNER) {
        return E810_AQ_RC_EINVAL;
    }
    dvm = s->rdma_packet == E810_AQ_DVM_VLAN_RDMA_PKT_FLAG_SETTING;
    if (dvm && !pkg_dvm_capable(d)) {
        return E810_AQ_RC_EINVAL;
    }
    d->dvm = dvm;
    d->l2tag_prio_tagging = s->l2tag_prio_tagging;
    return E810_AQ_RC_OK;
}

/* 0x020D: get VLAN mode (ice_aq_get_vlan_mode()). */
static enum e810_aq_rc cmd_get_vlan_mode(E810Core *core, E810AqCmd *cmd)
{
    E810Ddp *d = &core->ddp;
    struct e810_aqc_get_vlan_mode g;

    d->commands++;
    if (e810_aq_need_buf(cmd, sizeof(g)) != E810_AQ_RC_OK) {
        return E810_AQ_RC_EINVAL;
    }
    memset(&g, 0, sizeof(g));
    g.vlan_mode = d->dvm ? E810_AQ_VLAN_MODE_DVM_ENA : 0;
    g.l2tag_prio_tagging = d->l2tag_prio_tagging;
    memcpy(cmd->buf, &g, sizeof(g));
    cmd->resp_len = sizeof(g);
    return E810_AQ_RC_OK;
}

bool e810_ddp_dvm_enabled(E810Core *core)
{
    return core->ddp.dvm;
}

const E810AqHandler e810_ddp_aq_cmds[] = {
    { E810_AQC_SET_VLAN_MODE, cmd_set_vlan_mode },
    { E810_AQC_GET_VLAN_MODE, cmd_get_vlan_mode },
    { E810_AQC_DOWNLOAD_PKG, cmd_download_pkg },
    { E810_AQC_UPLOAD_SECTION, cmd_upload_section },
    { E810_AQC_UPDATE_PKG, cmd_update_pkg },
    { E810_AQC_GET_PKG_INFO_LIST, cmd_get_pkg_info_list },
    { 0, NULL }
};
