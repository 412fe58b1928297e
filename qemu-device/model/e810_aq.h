/*
 * Emulated E810: the admin queue (firmware command interface).
 *
 * The driver posts 32-byte descriptors on the ATQ and moves ATQT; the
 * device executes them from ATQH in deferred work, writes each descriptor
 * (and any response data) back and advances ATQH. Firmware events go the
 * other way on the ARQ, into buffers the driver pre-posted.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_AQ_H_MODEL
#define E810_AQ_H_MODEL

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/e810_aq.h"
#include "hw/e810_aq_port.h"
#include "e810_regfile.h"

struct E810Core;

/* What the firmware remembers between commands. */
typedef struct E810AqState {
    bool lse_enabled;           /* link status events requested (0x0607) */
    uint16_t event_mask;        /* 0x0613: set bit = masked */
    uint16_t max_frame;         /* 0x0603 */
    bool vsi_allocated;         /* 0x0210 */
    bool pe_filter;             /* VSI queue option PE_FLTR_EN */
    bool driver_loaded;         /* between get-version and queue shutdown */
    char driver_ver[64];        /* 0x0002 string, NUL-terminated */
    /* The port (e810_port.c): PHY configuration from 0x0601. */
    struct e810_aqc_set_phy_cfg_data phy_cfg;
    bool link_enabled;          /* PHY ENA_LINK / restart-AN link enable */
    /* Firmware logging (0xFF30..0xFF32); the model has nothing to log. */
    uint8_t fwlog_level[E810_FW_LOG_MODULES];
    uint16_t fwlog_resolution;
    uint8_t fwlog_flags;        /* E810_AQC_FW_LOG_CONF_UART_EN / _AQ_EN */
    bool fwlog_registered;
    /* DCB in software mode (firmware DCBX agent disabled). */
    uint8_t pfc_mode;           /* 0x0303 */
    uint16_t lldp_mib_len;      /* 0x0A08: the local MIB the host set */
    uint8_t lldp_mib_type;
    uint64_t lldp_mib_sets;
    uint64_t commands;          /* executed, for tests and debugging */
    uint64_t events_posted;
    uint64_t events_dropped;    /* ARQ full or not enabled */
} E810AqState;

/* One command being executed: the descriptor and its indirect buffer. */
typedef struct E810AqCmd {
    struct e810_aq_desc desc;   /* in: as posted; out: as written back */
    uint8_t *buf;               /* E810_AQ_MAX_BUF bytes of scratch */
    uint16_t buf_len;           /* bytes the driver supplied (datalen) */
    uint16_t resp_len;          /* bytes of response data in buf */
    bool has_buf;               /* BUF flag: buf is valid */
} E810AqCmd;

void e810_aq_reset(struct E810Core *core);

/*
 * Frees what the firmware holds for the PF (its VSI and RDMA qsets): on a
 * PF reset and on 0x02A4 "clear PF configuration".
 */
void e810_aq_clear_pf_config(struct E810Core *core);

/*
 * A device reset of strength @level reaches each area of the firmware
 * (NVM, scheduler, DDP, switch); each decides what survives it.
 */
void e810_aq_fw_reset(struct E810Core *core, E810ResetSource level);

/* Deferred work: executes every posted ATQ command. */
void e810_aq_process_atq(struct E810Core *core);

/* Posts a firmware event on the ARQ; false if it had to be dropped. */
bool e810_aq_post_event(struct E810Core *core, uint16_t opcode,
                        const void *params, const void *data, uint16_t len);

/* The link changed: sends the link status event if the driver asked. */
void e810_aq_link_changed(struct E810Core *core);

/* e810_port.c: the port's power-on state (link enabled, all PHY types). */
void e810_port_reset(struct E810Core *core);

/* Whether the link is up: the wire has a carrier and the PHY is enabled. */
bool e810_port_link_up(struct E810Core *core);

/* Fills the 32-byte link status data for 0x0607 and its event. */
void e810_aq_link_data(struct E810Core *core,
                       struct e810_aqc_link_status_data *ld);

/* e810_aq_cmds.c: executes @cmd, returns the AQ return code. */
enum e810_aq_rc e810_aq_execute(struct E810Core *core, E810AqCmd *cmd);

/*
 * The commands of one area of the firmware (NVM, scheduler, DDP, switch,
 * port): each area's file exports a table of these, ended by an entry
 * whose fn is NULL; e810_aq_execute() looks the opcode up in all of them. A handler validates the command as
 * firmware would, fills cmd->desc params, cmd->buf and cmd->resp_len, and
 * returns the AQ return code.
 */
typedef struct E810AqHandler {
    uint16_t opcode;
    enum e810_aq_rc (*fn)(struct E810Core *core, E810AqCmd *cmd);
} E810AqHandler;

/* The command's direct parameters (16 bytes at descriptor offset 16). */
#define E810_AQ_PARAMS(cmd, type) ((type *)(void *)(cmd)->desc.params.raw)

/* EINVAL unless an indirect buffer of at least @min bytes came along. */
enum e810_aq_rc e810_aq_need_buf(const E810AqCmd *cmd, size_t min);

extern const E810AqHandler e810_nvm_aq_cmds[];      /* e810_nvm.c */
extern const E810AqHandler e810_sched_aq_cmds[];    /* e810_sched.c */
extern const E810AqHandler e810_ddp_aq_cmds[];      /* e810_ddp.c */
extern const E810AqHandler e810_switch_aq_cmds[];   /* e810_switch.c */
extern const E810AqHandler e810_port_aq_cmds[];     /* e810_port.c */

#endif /* E810_AQ_H_MODEL */
