/*
 * Emulated E810: admin queue engine (ATQ processing, ARQ events).
 *
 * Rules (docs/hw-reference-lan.md 2.6, 2.7): commands run in order from ATQH to
 * ATQT-1; each is written back with DD|CMP (and ERR when retval != 0),
 * retval and the returned datalen, response data goes to the buffer the
 * command carried, and ATQH moves only after that. Events are written at
 * ARQH into the pre-posted buffer of that slot while (ARQT - ARQH) mod N
 * leaves room, then ARQH moves and the PFINT_FW_CTL cause fires.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"

static uint32_t reg(E810Core *core, uint32_t off)
{
    return *e810_regfile_ptr(&core->regs, off);
}

static void set_reg(E810Core *core, uint32_t off, uint32_t val)
{
    *e810_regfile_ptr(&core->regs, off) = val;
}

static uint64_t desc_buf_addr(const struct e810_aq_desc *d)
{
    return ((uint64_t)le32toh(d->params.generic.addr_high) << 32) |
           le32toh(d->params.generic.addr_low);
}

void e810_aq_reset(E810Core *core)
{
    memset(&core->aq, 0, sizeof(core->aq));
    core->aq.max_frame = E810_AQ_SET_MAC_FRAME_SIZE_MAX;
    core->aq.fwlog_resolution = 10;     /* messages per event */
    e810_port_reset(core);
}

void e810_aq_clear_pf_config(E810Core *core)
{
    core->aq.vsi_allocated = false;
    core->aq.pe_filter = false;
    e810_nvm_clear_pf_config(core);
    e810_sched_clear_pf_config(core);
    e810_ddp_clear_pf_config(core);
    e810_switch_clear_pf_config(core);
}

void e810_aq_fw_reset(E810Core *core, E810ResetSource level)
{
    e810_nvm_reset(core, level);
    e810_sched_reset(core, level);
    e810_ddp_reset(core, level);
    e810_switch_reset(core, level);
}

/*
 * A ring is usable when enabled with a length in range and a 64-byte
 * aligned base. Returns its length, 0 if unusable.
 */
static uint32_t ring_len(E810Core *core, uint32_t len_off, uint32_t bal_off,
                         uint32_t bah_off, uint64_t *base, const char *name)
{
    uint32_t lenreg = reg(core, len_off);
    uint32_t len = FIELD_GET(E810_PF_FW_AQLEN_LEN, lenreg);
    uint32_t bal = reg(core, bal_off);

    if (!(lenreg & E810_PF_FW_AQLEN_ENABLE)) {
        return 0;
    }
    if (len == 0 || (bal & 0x3f)) {
        e810_core_log(core, E810_LOG_GUEST_ERROR,
                      "%s enabled with length %u, base low 0x%08x", name,
                      len, bal);
        return 0;
    }
    *base = ((uint64_t)reg(core, bah_off) << 32) | bal;
    return len;
}

/* Reads the command's indirect buffer; false means "answer BAD_ADDR". */
static enum e810_aq_rc load_buffer(E810Core *core, E810AqCmd *cmd)
{
    uint16_t flags = le16toh(cmd->desc.flags);

    cmd->buf = core->aq_buf;
    cmd->has_buf = flags & E810_AQ_FLAG_BUF;
    cmd->buf_len = cmd->has_buf ? le16toh(cmd->desc.datalen) : 0;
    cmd->resp_len = 0;
    if (!cmd->has_buf) {
        return E810_AQ_RC_OK;
    }
    if (cmd->buf_len == 0 || cmd->buf_len > E810_AQ_MAX_BUF) {
        return E810_AQ_RC_EINVAL;
    }
    if (cmd->buf_len > E810_AQ_LARGE_BUF && !(flags & E810_AQ_FLAG_LB)) {
        return E810_AQ_RC_EINVAL;
    }
    memset(cmd->buf, 0, E810_AQ_MAX_BUF);
    if (!e810_core_dma_read(core, desc_buf_addr(&cmd->desc), cmd->buf,
                            cmd->buf_len)) {
        return E810_AQ_RC_BAD_ADDR;
    }
    return E810_AQ_RC_OK;
}

/* Executes one descriptor in place and writes it (and its data) back. */
static void run_one(E810Core *core, uint64_t desc_addr)
{
    E810AqCmd cmd;
    enum e810_aq_rc rc;
    uint16_t flags;

    if (!e810_core_dma_read(core, desc_addr, &cmd.desc, sizeof(cmd.desc))) {
        return;     /* nothing to write back to */
    }
    rc = load_buffer(core, &cmd);
    if (rc == E810_AQ_RC_OK) {
        rc = e810_aq_execute(core, &cmd);
    }
    core->aq.commands++;
    if (cmd.has_buf) {
        /*
         * A failed command returns data only when its handler left some
         * (e.g. the error offset/info of a package download).
         */
        if (cmd.resp_len &&
            !e810_core_dma_write(core, desc_buf_addr(&cmd.desc), cmd.buf,
                                 cmd.resp_len)) {
            rc = E810_AQ_RC_BAD_ADDR;
            cmd.resp_len = 0;
        }
        /* The returned length never exceeds what the driver gave. */
        cmd.desc.datalen = htole16(cmd.resp_len);
    }
    flags = le16toh(cmd.desc.flags) | E810_AQ_FLAG_DD | E810_AQ_FLAG_CMP;
    if (rc != E810_AQ_RC_OK) {
        flags |= E810_AQ_FLAG_ERR;
    }
    cmd.desc.flags = htole16(flags);
    cmd.desc.retval = htole16(rc);
    e810_core_dma_write(core, desc_addr, &cmd.desc, sizeof(cmd.desc));
    e810_core_trace(core, E810_TRACE_AQ_CMD, le16toh(cmd.desc.opcode), rc,
                    le16toh(cmd.desc.datalen));

    /* SI suppresses the completion interrupt; EI asks for one on error. */
    if (!(flags & E810_AQ_FLAG_SI) ||
        ((flags & E810_AQ_FLAG_EI) && rc != E810_AQ_RC_OK)) {
        e810_intr_cause(core, E810_PFINT_FW_CTL);
    }
}

void e810_aq_process_atq(E810Core *core)
{
    uint64_t base;
    uint32_t len, head, tail, n;

    len = ring_len(core, E810_PF_FW_ATQLEN, E810_PF_FW_ATQBAL,
                   E810_PF_FW_ATQBAH, &base, "ATQ");
    if (!len) {
        return;
    }
    head = FIELD_GET(E810_PF_FW_AQ_PTR, reg(core, E810_PF_FW_ATQH));
    tail = FIELD_GET(E810_PF_FW_AQ_PTR, reg(core, E810_PF_FW_ATQT));
    if (head >= len || tail >= len) {
        e810_core_log(core, E810_LOG_GUEST_ERROR,
                      "ATQ head %u / tail %u outside a ring of %u", head, tail,
                      len);
        return;
    }
    /* At most one lap: the driver cannot post more than len - 1. */
    for (n = 0; head != tail && n < len; n++) {
        run_one(core, base + (uint64_t)head * E810_AQ_DESC_SIZE);
        head = (head + 1) % len;
        set_reg(core, E810_PF_FW_ATQH, head);
    }
}

bool e810_aq_post_event(E810Core *core, uint16_t opcode, const void *params,
                        const void *data, uint16_t len)
{
    struct e810_aq_desc d;
    uint64_t base, addr;
    uint32_t n, head, tail;
    uint16_t room;

    n = ring_len(core, E810_PF_FW_ARQLEN, E810_PF_FW_ARQBAL,
                 E810_PF_FW_ARQBAH, &base, "ARQ");
    head = FIELD_GET(E810_PF_FW_AQ_PTR, reg(core, E810_PF_FW_ARQH));
    tail = FIELD_GET(E810_PF_FW_AQ_PTR, reg(core, E810_PF_FW_ARQT));
    if (!n || head >= n || tail >= n || head == tail) {
        /* Not enabled, or no posted buffer left: the event is lost. */
        if (n && head < n && tail < n) {
            set_reg(core, E810_PF_FW_ARQLEN,
                    reg(core, E810_PF_FW_ARQLEN) | E810_PF_FW_AQLEN_OVFL);
        }
        core->aq.events_dropped++;
        return false;
    }
    addr = base + (uint64_t)head * E810_AQ_DESC_SIZE;
    if (!e810_core_dma_read(core, addr, &d, sizeof(d))) {
        core->aq.events_dropped++;
        return false;
    }
    room = (le16toh(d.flags) & E810_AQ_FLAG_BUF) ? le16toh(d.datalen) : 0;
    if (len > room) {
        e810_core_log(core, E810_LOG_GUEST_ERROR, "ARQ slot %u has %u bytes "
                      "for a %u-byte event", head, room, len);
        core->aq.events_dropped++;
        return false;
    }
    if (len && !e810_core_dma_write(core, desc_buf_addr(&d), data, len)) {
        core->aq.events_dropped++;
        return false;
    }
    d.flags = htole16(le16toh(d.flags) | E810_AQ_FLAG_DD | E810_AQ_FLAG_CMP);
    d.opcode = htole16(opcode);
    d.datalen = htole16(len);
    d.retval = 0;
    d.cookie_high = 0;
    d.cookie_low = 0;
    if (params) {
        /* Event params; the buffer address the driver posted is kept. */
        memcpy(d.params.raw, params, 8);
    }
    e810_core_dma_write(core, addr, &d, sizeof(d));
    set_reg(core, E810_PF_FW_ARQH, (head + 1) % n);
    core->aq.events_posted++;
    e810_intr_cause(core, E810_PFINT_FW_CTL);
    return true;
}
