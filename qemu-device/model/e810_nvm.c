/*
 * Emulated E810: NVM (Shadow RAM and flash) and resource ownership.
 *
 * The flash is synthetic but laid out the way ice_init_nvm() walks a real
 * E810 image: the Shadow RAM control word and bank pointers lead to two
 * banks each of the NVM module (CSS header, then a copy of the Shadow RAM),
 * the Option ROM (with its "$CIV" combo version block) and the netlist
 * (link topology module with the netlist ID block). Every other flash byte
 * reads as erased (0xFF). The first bank of each module is active and the
 * second holds the same image (no update pending).
 *
 * The whole image comes from build_image() (Shadow RAM, netlist ID block,
 * CIVD) plus the bank word functions below it (CSS header, module
 * headers); flash bytes are computed on read, nothing of 16 MiB is stored.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

/* ---- identity ice reports ----------------------------------------------- */

/*
 * ethtool -i (__ice_get_drvinfo): "4.40 0x8001c967 1.3429.0"; devlink
 * info: fw.psid.api "4.40", fw.bundle_id (EETRACK), fw.undi, fw.netlist
 * "4.1.0-1.0.0", fw.netlist.build, board.id (PBA). NVM 4.40 also makes
 * ice_init_chk_recipe_reuse_support() turn recipe reuse on (>= 4.30).
 */
#define NVM_VER_MAJOR       0x4         /* BCD-ish: printed with %x */
#define NVM_VER_MINOR       0x40        /* printed with %02x */
#define NVM_EETRACK         0x8001c967u
#define OROM_MAJOR          1
#define OROM_BUILD          3429
#define OROM_PATCH          0
#define OROM_NAME           "1.3429.0"
#define NETLIST_MAJOR       0x4
#define NETLIST_MINOR       0x1
#define NETLIST_TYPE        0x00000001u
#define NETLIST_REV         0x0
#define NETLIST_CUST_VER    0x0
#define NETLIST_HASH        0x6c1b4c1au
#define CSS_SREV            1           /* security revision of the bank */
#define PBA_STRING          "K91258-010"

/* ---- flash map (4 KB sectors) ------------------------------------------- */

#define SECTOR              4096u
#define NVM_BANK_SEC        0x010       /* 2 x 1 MiB from 64 KiB */
#define NVM_BANK_SECS       0x100
#define OROM_BANK_SEC       0x210       /* 2 x 64 KiB */
#define OROM_BANK_SECS      0x010
#define NETLIST_BANK_SEC    0x230       /* 2 x 64 KiB */
#define NETLIST_BANK_SECS   0x010

/*
 * NVM bank: a CSS header of CSS_HDR_DWORDS dwords plus the authentication
 * header; ice_read_nvm_sr_copy() finds the Shadow RAM copy at that length
 * in words rounded up to 32 words (330 -> 352 words, byte 0x2C0).
 */
#define CSS_HDR_DWORDS      161
#define CSS_WORDS           (CSS_HDR_DWORDS * 2 + E810_NVM_AUTH_HEADER_LEN)
#define SR_COPY_WORD        ((CSS_WORDS + 31) / 32 * 32)

/* Option ROM: PCI expansion ROM signature at 0, CIVD in the middle. */
#define OROM_CIVD_OFF       0x8000u     /* 512-byte aligned */

/* Netlist link topology module (ice_get_netlist_info). */
#define NL_TYPE_WORD        0x0000      /* module id */
#define NL_LEN_WORD         0x0001      /* module length in words */
#define NL_TOPO_LEN_WORD    0x0002      /* link topology length */
#define NL_NODE_COUNT_WORD  0x0003
#define NL_NODE_COUNT       0
#define NL_ID_BLK_WORD      (2 + 4 + 2 * NL_NODE_COUNT)
#define NL_TOPO_LEN         (4 + 2 * NL_NODE_COUNT + E810_NETLIST_ID_BLK_SIZE)

/* Shadow RAM layout beyond the words ice names. */
#define SR_SW_CHECKSUM_WORD 0x3F        /* all words sum to 0xBABA */
#define SR_CHECKSUM_BASE    0xBABA
#define PFA_WORD            0x0800      /* Preserved Fields Area */
#define LINK_OVERRIDE_PORTS 8

/* Ownership: longest hold the firmware grants. */
#define RES_MAX_TIMEOUT_MS  E810_AQ_RES_NVM_WRITE_DFLT_TIMEOUT_MS

_Static_assert((SR_COPY_WORD + E810_NVM_SR_WORDS) * 2u <=
               NVM_BANK_SECS * SECTOR, "Shadow RAM copy fits its bank");
_Static_assert((NETLIST_BANK_SEC + 2 * NETLIST_BANK_SECS) * SECTOR <=
               E810_NVM_FLASH_SIZE, "modules fit the flash");
_Static_assert(OROM_CIVD_OFF + sizeof(struct e810_orom_civd) <=
               OROM_BANK_SECS * SECTOR, "CIVD fits the Option ROM");

/* ---- the image ---------------------------------------------------------- */

static uint16_t pfa_put_tlv(uint16_t *sr, uint16_t w, uint16_t type,
                            uint16_t len)
{
    sr[w] = type;
    sr[w + 1] = len;
    return w + 2;
}

/* The PBA TLV (ice_read_pba_string): size word, then 2 chars a word. */
static uint16_t pfa_put_pba(uint16_t *sr, uint16_t w)
{
    static const char pba[] = PBA_STRING;
    uint16_t words = (sizeof(pba) - 1 + 1) / 2;
    uint16_t i;

    w = pfa_put_tlv(sr, w, E810_SR_PBA_BLOCK_PTR, words + 1);
    sr[E810_SR_PBA_BLOCK_PTR] = w;  /* legacy pointer to the block */
    sr[w++] = words + 1;            /* size word counts itself */
    for (i = 0; i < words; i++) {
        uint8_t hi = pba[2 * i];
        uint8_t lo = 2u * i + 1 < sizeof(pba) - 1 ? pba[2 * i + 1] : 0;

        sr[w++] = (uint16_t)(hi << 8 | lo);
    }
    return w;
}

static void build_shadow_ram(E810Nvm *nvm)
{
    uint16_t *sr = nvm->sr;
    uint16_t w, sum = 0;
    unsigned i;

    memset(nvm->sr, 0, sizeof(nvm->sr));

    /*
     * ice_determine_active_flash_banks(): bits 7:6 must be 01b; bank bits
     * 3 (OROM), 4 (netlist), 5 (NVM) clear: the first bank is active.
     */
    sr[E810_SR_CTRL_WORD] = FIELD_PREP(E810_SR_CTRL_WORD_VALID_M,
                                       E810_SR_CTRL_WORD_VALID);
    /* ice_get_nvm_ver_info(): major 15:12, minor 7:0; EETRACK lo/hi. */
    sr[E810_SR_NVM_DEV_STARTER_VER] =
        FIELD_PREP(E810_SR_NVM_VER_HI_M, NVM_VER_MAJOR) |
        FIELD_PREP(E810_SR_NVM_VER_LO_M, NVM_VER_MINOR);
    sr[E810_SR_NVM_EETRACK_LO] = NVM_EETRACK & 0xFFFF;
    sr[E810_SR_NVM_EETRACK_HI] = NVM_EETRACK >> 16;
    /* ice_is_wol_supported(): a set bit = no WoL on that port; none has. */
    sr[E810_SR_NVM_WOL_CFG] = 0xFFFF;
    /*
     * ice_read_sr_pointer()/ice_read_sr_area_size(): pointers in 4 KB
     * units (bit 15), sizes always in 4 KB units; each module's second
     * bank follows its first (ice_get_flash_bank_offset()).
     */
    sr[E810_SR_1ST_NVM_BANK_PTR] = E810_SR_PTR_4KB_UNITS | NVM_BANK_SEC;
    sr[E810_SR_NVM_BANK_SIZE] = NVM_BANK_SECS;
    sr[E810_SR_1ST_OROM_BANK_PTR] = E810_SR_PTR_4KB_UNITS | OROM_BANK_SEC;
    sr[E810_SR_OROM_BANK_SIZE] = OROM_BANK_SECS;
    sr[E810_SR_NETLIST_BANK_PTR] = E810_SR_PTR_4KB_UNITS | NETLIST_BANK_SEC;
    sr[E810_SR_NETLIST_BANK_SIZE] = NETLIST_BANK_SECS;

    /*
     * ice_get_pfa_module_tlv(): PFA = length word, TLVs {type, len,
     * value[len]}, one final word; the length counts all of them.
     */
    sr[E810_SR_PFA_PTR] = PFA_WORD;
    w = PFA_WORD + 1;
    w = pfa_put_pba(sr, w);
    /* ice_get_link_default_override(): 10 words a port, all "none". */
    w = pfa_put_tlv(sr, w, E810_SR_LINK_DFLT_OVERRIDE_TLV,
                    LINK_OVERRIDE_PORTS * E810_SR_LINK_OVERRIDE_WORDS);
    w += LINK_OVERRIDE_PORTS * E810_SR_LINK_OVERRIDE_WORDS;
    /* ice_get_tx_topo_user_sel(): one data word, bit 4 clear = 9 layers. */
    w = pfa_put_tlv(sr, w, E810_AQC_NVM_TX_TOPO_MOD_ID, 1);
    sr[w++] = 0;
    sr[w] = 0xFFFF;                 /* final word */
    sr[PFA_WORD] = w - PFA_WORD + 1;

    /* 0x0706 verify: the words add up to 0xBABA. */
    for (i = 0; i < E810_NVM_SR_WORDS; i++) {
        if (i != SR_SW_CHECKSUM_WORD) {
            sum += sr[i];
        }
    }
    sr[SR_SW_CHECKSUM_WORD] = (uint16_t)(SR_CHECKSUM_BASE - sum);
}

/* ice_get_orom_civd_data(): "$CIV", bytes sum to 0, combo version. */
static void build_civd(E810Nvm *nvm)
{
    struct e810_orom_civd *c = &nvm->civd;
    static const char name[] = OROM_NAME;
    const uint8_t *p = (const uint8_t *)c;
    uint8_t sum = 0;
    unsigned i;

    memset(c, 0, sizeof(*c));
    memcpy(c->signature, "$CIV", 4);
    c->combo_ver = htole32((uint32_t)OROM_MAJOR << 24 |
                           (uint32_t)OROM_BUILD << 8 | OROM_PATCH);
    c->combo_name_len = sizeof(name) - 1;
    for (i = 0; i < sizeof(name) - 1; i++) {
        c->combo_name[i] = htole16((uint16_t)name[i]);
    }
    for (i = 0; i < sizeof(*c); i++) {
        sum += p[i];
    }
    c->checksum = (uint8_t)-sum;
}

/* ice_get_netlist_info(): versions as hi/lo word pairs, BCD. */
static void build_netlist_id(E810Nvm *nvm)
{
    uint16_t *id = nvm->netlist_id;
    unsigned i;

    memset(nvm->netlist_id, 0, sizeof(nvm->netlist_id));
    id[0x02] = NETLIST_MAJOR & 0xFFFF;
    id[0x03] = NETLIST_MAJOR >> 16;
    id[0x04] = NETLIST_MINOR & 0xFFFF;
    id[0x05] = NETLIST_MINOR >> 16;
    id[0x06] = NETLIST_TYPE & 0xFFFF;
    id[0x07] = NETLIST_TYPE >> 16;
    id[0x08] = NETLIST_REV & 0xFFFF;
    id[0x09] = NETLIST_REV >> 16;
    /* SHA-256 words 0x0A..0x19; ice shows words 15:14 as the build. */
    for (i = 0; i < 16; i++) {
        id[0x0A + i] = (uint16_t)(0x1f3d + 0x2b71 * i);
    }
    id[0x0A + 14] = NETLIST_HASH & 0xFFFF;
    id[0x0A + 15] = NETLIST_HASH >> 16;
    id[0x2F] = NETLIST_CUST_VER;
}

static void build_image(E810Nvm *nvm)
{
    build_shadow_ram(nvm);
    build_civd(nvm);
    build_netlist_id(nvm);
}

/* Word @w of an NVM bank: CSS header, then the Shadow RAM copy. */
static uint16_t nvm_bank_word(const E810Nvm *nvm, uint32_t w)
{
    if (w >= SR_COPY_WORD && w < SR_COPY_WORD + E810_NVM_SR_WORDS) {
        return nvm->sr[w - SR_COPY_WORD];
    }
    if (w >= CSS_WORDS) {
        return 0xFFFF;
    }
    switch (w) {
    case 0:
        return 0x0006;                  /* module type */
    case E810_NVM_CSS_HDR_LEN_L:        /* ice_get_nvm_css_hdr_len() */
        return CSS_HDR_DWORDS & 0xFFFF;
    case E810_NVM_CSS_HDR_LEN_H:
        return CSS_HDR_DWORDS >> 16;
    case 5:
        return 0x0001;                  /* header version 1.0 */
    case 8:
        return 0x8086;                  /* module vendor */
    case E810_NVM_CSS_SREV_L:
        return CSS_SREV & 0xFFFF;
    case E810_NVM_CSS_SREV_H:
        return CSS_SREV >> 16;
    default:
        return 0;
    }
}

/* Word @w of a netlist bank. */
static uint16_t netlist_bank_word(const E810Nvm *nvm, uint32_t w)
{
    if (w >= NL_ID_BLK_WORD && w < NL_ID_BLK_WORD + E810_NETLIST_ID_BLK_SIZE) {
        return nvm->netlist_id[w - NL_ID_BLK_WORD];
    }
    switch (w) {
    case NL_TYPE_WORD:
        return E810_NETLIST_LINK_TOPO_MOD_ID;
    case NL_LEN_WORD:
        return NL_TOPO_LEN + 2;
    case NL_TOPO_LEN_WORD:
        return NL_TOPO_LEN;
    case NL_NODE_COUNT_WORD:
        return NL_NODE_COUNT;
    default:
        return w < NL_ID_BLK_WORD ? 0 : 0xFFFF;
    }
}

/* Byte @off of an Option ROM bank. */
static uint8_t orom_bank_byte(const E810Nvm *nvm, uint32_t off)
{
    if (off >= OROM_CIVD_OFF && off < OROM_CIVD_OFF + sizeof(nvm->civd)) {
        return ((const uint8_t *)&nvm->civd)[off - OROM_CIVD_OFF];
    }
    if (off < 2) {
        return off ? 0xAA : 0x55;       /* PCI expansion ROM signature */
    }
    return 0xFF;
}

/* Whether @off is in either bank of the module at @sec, @secs a bank. */
static bool in_module(uint32_t off, uint32_t sec, uint32_t secs,
                      uint32_t *bank_off)
{
    uint32_t base = sec * SECTOR, bank = secs * SECTOR;

    if (off < base || off >= base + 2 * bank) {
        return false;
    }
    *bank_off = (off - base) % bank;
    return true;
}

static uint8_t word_byte(uint16_t word, uint32_t off)
{
    return (off & 1) ? word >> 8 : word & 0xFF;
}

static uint8_t flash_byte(const E810Nvm *nvm, uint32_t off)
{
    uint32_t b;

    if (in_module(off, NVM_BANK_SEC, NVM_BANK_SECS, &b)) {
        return word_byte(nvm_bank_word(nvm, b / 2), b);
    }
    if (in_module(off, OROM_BANK_SEC, OROM_BANK_SECS, &b)) {
        return orom_bank_byte(nvm, b);
    }
    if (in_module(off, NETLIST_BANK_SEC, NETLIST_BANK_SECS, &b)) {
        return word_byte(netlist_bank_word(nvm, b / 2), b);
    }
    return 0xFF;                        /* erased */
}

bool e810_nvm_flash_read(const E810Core *core, uint32_t offset, void *buf,
                         uint32_t len)
{
    uint8_t *p = buf;
    uint32_t i;

    if (offset > E810_NVM_FLASH_SIZE || len > E810_NVM_FLASH_SIZE - offset) {
        return false;
    }
    for (i = 0; i < len; i++) {
        p[i] = flash_byte(&core->nvm, offset + i);
    }
    return true;
}

/*
 * The PFA TLV of @type (how the firmware resolves a module_typeid other
 * than the flat start point): its length word and value, as words @start
 * (the length word) and @words (length word included).
 */
static bool find_pfa_tlv(const E810Nvm *nvm, uint16_t type, uint32_t *start,
                         uint32_t *words)
{
    uint32_t pfa = nvm->sr[E810_SR_PFA_PTR];
    uint32_t end, w;

    if (pfa == 0 || pfa >= E810_NVM_SR_WORDS) {
        return false;
    }
    end = pfa + nvm->sr[pfa] - 1;
    if (end > E810_NVM_SR_WORDS - 2) {
        return false;
    }
    for (w = pfa + 1; w < end; w += 2 + nvm->sr[w + 1]) {
        if (nvm->sr[w] == type) {
            *start = w + 1;
            *words = 1u + nvm->sr[w + 1];
            return *start + *words <= E810_NVM_SR_WORDS;
        }
    }
    return false;
}

/* ---- resource ownership (0x0008 / 0x0009) ------------------------------- */

static uint64_t now_ns(const E810Core *core)
{
    return core->ops && core->ops->now_ns ? core->ops->now_ns(core->opaque) :
                                            0;
}

/* The owner record of (@res_id, @pin), NULL for an id ice cannot name. */
static E810NvmOwner *owner_of(E810Core *core, uint16_t res_id, uint32_t pin)
{
    E810NvmOwner *o;

    switch (res_id) {
    case E810_AQ_RES_ID_NVM:
    case E810_AQ_RES_ID_CHNG_LOCK:
    case E810_AQ_RES_ID_GLBL_LOCK:
        o = &core->nvm.res[res_id];
        break;
    case E810_AQ_RES_ID_SDP:
        if (pin >= E810_NVM_SDP_PINS) {
            return NULL;
        }
        o = &core->nvm.sdp[pin];
        break;
    default:
        return NULL;
    }
    /* A hold past its timeout is over: the firmware took it back. */
    if (o->held && o->deadline_ns && now_ns(core) >= o->deadline_ns) {
        memset(o, 0, sizeof(*o));
    }
    return o;
}

static uint32_t default_timeout_ms(uint16_t res_id, uint16_t access)
{
    switch (res_id) {
    case E810_AQ_RES_ID_NVM:
        return access == E810_AQ_RES_ACCESS_WRITE ?
               E810_AQ_RES_NVM_WRITE_DFLT_TIMEOUT_MS :
               E810_AQ_RES_NVM_READ_DFLT_TIMEOUT_MS;
    case E810_AQ_RES_ID_GLBL_LOCK:
        return E810_AQ_RES_GLBL_LOCK_DFLT_TIMEOUT_MS;
    default:
        return E810_AQ_RES_CHNG_LOCK_DFLT_TIMEOUT_MS;
    }
}

/* What is left of a hold, in ms (rounded up). */
static uint32_t time_left_ms(E810Core *core, const E810NvmOwner *o)
{
    uint64_t now = now_ns(core);

    if (!o->deadline_ns) {
        return o->granted_ms;
    }
    return now >= o->deadline_ns ? 0 :
           (uint32_t)((o->deadline_ns - now + 999999) / 1000000);
}

/*
 * 0x0008 (ice_aq_req_res()): grants a free resource for the timeout asked
 * (0: the default), answers EBUSY with the time left while it is held
 * (ice_acquire_res() polls until then). The global config lock answers in
 * its status field too: SUCCESS, IN_PROG while held, DONE once a package
 * is loaded (ice_acquire_global_cfg_lock(): -EALREADY, skip the download).
 */
static enum e810_aq_rc cmd_req_res(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_req_res *p = E810_AQ_PARAMS(cmd, struct e810_aqc_req_res);
    uint16_t res_id = le16toh(p->res_id);
    uint16_t access = le16toh(p->access_type);
    uint32_t want = le32toh(p->timeout);
    bool glbl = res_id == E810_AQ_RES_ID_GLBL_LOCK;
    E810NvmOwner *o;
    uint64_t now;

    core->nvm.commands++;
    o = owner_of(core, res_id, le32toh(p->res_number));
    p->timeout = 0;
    p->status = 0;
    if (!o || (access != E810_AQ_RES_ACCESS_READ &&
               access != E810_AQ_RES_ACCESS_WRITE)) {
        return E810_AQ_RC_EINVAL;
    }
    if (o->held) {
        p->timeout = htole32(time_left_ms(core, o));
        if (glbl) {
            p->status = htole16(E810_AQ_RES_GLBL_IN_PROG);
        }
        return E810_AQ_RC_EBUSY;
    }
    if (glbl && e810_ddp_pkg_loaded(core)) {
        p->status = htole16(E810_AQ_RES_GLBL_DONE);
        return E810_AQ_RC_OK;
    }
    if (!want) {
        want = default_timeout_ms(res_id, access);
    }
    if (want > RES_MAX_TIMEOUT_MS) {
        want = RES_MAX_TIMEOUT_MS;
    }
    now = now_ns(core);
    o->held = true;
    o->access = (uint8_t)access;
    o->granted_ms = want;
    o->deadline_ns = now ? now + (uint64_t)want * 1000000 : 0;
    p->timeout = htole32(want);
    p->status = htole16(E810_AQ_RES_GLBL_SUCCESS);
    return E810_AQ_RC_OK;
}

/* 0x0009 (ice_aq_release_res()): only the holder may release. */
static enum e810_aq_rc cmd_release_res(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_req_res *p = E810_AQ_PARAMS(cmd, struct e810_aqc_req_res);
    E810NvmOwner *o;

    core->nvm.commands++;
    o = owner_of(core, le16toh(p->res_id), le32toh(p->res_number));
    if (!o) {
        return E810_AQ_RC_EINVAL;
    }
    if (!o->held) {
        return E810_AQ_RC_EPERM;
    }
    memset(o, 0, sizeof(*o));
    return E810_AQ_RC_OK;
}

bool e810_nvm_res_held(E810Core *core, uint16_t res_id, bool write)
{
    E810NvmOwner *o = owner_of(core, res_id, 0);

    return o && o->held && (!write || o->access == E810_AQ_RES_ACCESS_WRITE);
}

static void drop_all_owners(E810Nvm *nvm)
{
    memset(nvm->res, 0, sizeof(nvm->res));
    memset(nvm->sdp, 0, sizeof(nvm->sdp));
}

/* ---- NVM commands ------------------------------------------------------- */

/*
 * 0x0701 (ice_aq_read_nvm()): the caller owns the NVM; one read is 1..4096
 * bytes inside one 4 KB sector, into a buffer that holds it. Flat reads
 * (module 0) come from the Shadow RAM, or from the raw flash with
 * FLASH_ONLY; past the end is EINVAL, which ice_discover_flash_size()
 * takes as "smaller flash". Another module id names a PFA TLV, read from
 * its length word on (ice_get_tx_topo_user_sel()).
 */
static enum e810_aq_rc cmd_nvm_read(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_nvm *p = E810_AQ_PARAMS(cmd, struct e810_aqc_nvm);
    uint32_t off = le16toh(p->offset_low) | (uint32_t)p->offset_high << 16;
    uint16_t module = le16toh(p->module_typeid);
    uint32_t len = le16toh(p->length);
    const E810Nvm *nvm = &core->nvm;
    uint32_t start, words, i;

    core->nvm.commands++;
    if (!e810_nvm_res_held(core, E810_AQ_RES_ID_NVM, false)) {
        return E810_AQ_RC_EACCES;
    }
    if (len == 0 || len > E810_AQ_MAX_BUF || e810_aq_need_buf(cmd, len) ||
        off % E810_NVM_SECTOR_SIZE + len > E810_NVM_SECTOR_SIZE) {
        e810_core_log(core, E810_LOG_GUEST_ERROR,
                      "NVM read of %u bytes at 0x%x (buffer %u)",
                      len, off, cmd->has_buf ? cmd->buf_len : 0);
        return E810_AQ_RC_EINVAL;
    }
    if (module != E810_AQC_NVM_START_POINT) {
        if (!find_pfa_tlv(nvm, module, &start, &words)) {
            return E810_AQ_RC_ENOENT;
        }
        if (off + len > words * 2) {
            return E810_AQ_RC_EINVAL;
        }
        for (i = 0; i < len; i++) {
            cmd->buf[i] = word_byte(nvm->sr[start + (off + i) / 2], off + i);
        }
    } else if (p->cmd_flags & E810_AQC_NVM_FLASH_ONLY) {
        if (!e810_nvm_flash_read(core, off, cmd->buf, len)) {
            return E810_AQ_RC_EINVAL;
        }
    } else {
        if (off + len > sizeof(nvm->sr)) {
            return E810_AQ_RC_EINVAL;
        }
        for (i = 0; i < len; i++) {
            cmd->buf[i] = word_byte(nvm->sr[(off + i) / 2], off + i);
        }
    }
    cmd->resp_len = len;
    return E810_AQ_RC_OK;
}

static uint16_t sr_sum(const E810Nvm *nvm)
{
    uint16_t sum = 0;
    unsigned i;

    for (i = 0; i < E810_NVM_SR_WORDS; i++) {
        sum += nvm->sr[i];
    }
    return sum;
}

/*
 * 0x0706 (ice_nvm_validate_checksum(), ethtool self-test): VERIFY answers
 * the Shadow RAM sum, 0xBABA when intact; RECALC (write owner) fixes the
 * checksum word.
 */
static enum e810_aq_rc cmd_nvm_checksum(E810Core *core, E810AqCmd *cmd)
{
    struct e810_aqc_nvm_checksum *p =
        E810_AQ_PARAMS(cmd, struct e810_aqc_nvm_checksum);
    uint8_t flags = p->flags;
    E810Nvm *nvm = &core->nvm;

    nvm->commands++;
    if (!(flags & (E810_AQC_NVM_CHECKSUM_VERIFY |
                   E810_AQC_NVM_CHECKSUM_RECALC))) {
        return E810_AQ_RC_EINVAL;
    }
    if (!e810_nvm_res_held(core, E810_AQ_RES_ID_NVM,
                           flags & E810_AQC_NVM_CHECKSUM_RECALC)) {
        return E810_AQ_RC_EACCES;
    }
    if (flags & E810_AQC_NVM_CHECKSUM_RECALC) {
        nvm->sr[SR_SW_CHECKSUM_WORD] = 0;
        nvm->sr[SR_SW_CHECKSUM_WORD] = (uint16_t)(SR_CHECKSUM_BASE -
                                                  sr_sum(nvm));
    }
    p->checksum = htole16(sr_sum(nvm));
    return E810_AQ_RC_OK;
}

/* ---- hooks -------------------------------------------------------------- */

/*
 * Ownership never survives a reset: a PF reset frees what the PF held
 * (ice re-acquires everything after ice_reset()), stronger resets restart
 * the firmware. The flash is non-volatile and no command of the model
 * writes it, so the image built at the first power-on stays what every
 * later firmware load reads (rebuilding it would give the same words).
 */
void e810_nvm_reset(E810Core *core, E810ResetSource level)
{
    drop_all_owners(&core->nvm);
    if (level >= E810_RST_EMPR) {
        if (!core->nvm.image_built) {
            build_image(&core->nvm);
            core->nvm.image_built = true;
        }
        core->nvm.commands = 0;
    }
}

/* 0x02A4 frees switch and queue resources, not ownership. */
void e810_nvm_clear_pf_config(E810Core *core)
{
}

void e810_nvm_driver_unloaded(E810Core *core)
{
    drop_all_owners(&core->nvm);
}

const E810AqHandler e810_nvm_aq_cmds[] = {
    { E810_AQC_REQ_RES, cmd_req_res },
    { E810_AQC_RELEASE_RES, cmd_release_res },
    { E810_AQC_NVM_READ, cmd_nvm_read },
    { E810_AQC_NVM_CHECKSUM, cmd_nvm_checksum },
    { 0, NULL }
};
