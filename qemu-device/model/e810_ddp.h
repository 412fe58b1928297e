/*
 * Emulated E810: the DDP package download and package information.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_DDP_H_MODEL
#define E810_DDP_H_MODEL

#include <stdbool.h>
#include <stdint.h>

#include "hw/e810_aq.h"
#include "e810_regfile.h"

struct E810Core;

/* Identity and tables of one package (what 0x0C43/0x0C41 report). */
typedef struct E810DdpPkg {
    struct e810_pkg_ver ver;
    char name[E810_PKG_INFO_NAME_SIZE];
    uint32_t track_id;
    bool has_meta;              /* carried a metadata section */
    uint16_t meta_init_count;   /* Rx parser metadata init entries */
    uint8_t meta_init[E810_META_INIT_MAX_ENTRIES][E810_META_INIT_ENTRY_SIZE];
} E810DdpPkg;

/* Where a download stands (0x0C40 buffers are taken in this order). */
typedef enum E810DdpDlPhase {
    E810_DDP_DL_IDLE,           /* next buffer must carry the manifest */
    E810_DDP_DL_HASHES,         /* manifest taken; hash tables follow */
    E810_DDP_DL_CONFIG,         /* configuration buffers, LAST_BUF ends */
} E810DdpDlPhase;

/* What this part of the firmware remembers. */
typedef struct E810Ddp {
    bool active;                /* a downloaded package is in use */
    E810DdpPkg pkg;             /* the active package */
    E810DdpDlPhase phase;
    uint32_t dl_hashes;         /* config buffers the manifest covers */
    uint32_t dl_bufs;           /* buffers taken in this download */
    uint32_t dl_cfg_bufs;       /* of which configuration buffers */
    E810DdpPkg dl_pkg;          /* what the download carried so far */
    bool dvm;                   /* 0x020C: double VLAN mode */
    /*
     * Knob (kept across resets, default off): answer as if the package
     * could not run double VLAN mode, so ice stays in single VLAN mode.
     */
    bool svm_only;
    uint8_t l2tag_prio_tagging;
    uint64_t downloads;         /* completed downloads */
    uint64_t dl_errors;         /* rejected 0x0C40 buffers */
    uint64_t updates;           /* accepted 0x0C42 buffers */
    uint64_t update_sections;   /* sections they carried */
    uint64_t commands;          /* executed, for tests and debugging */
} E810Ddp;

/* Device reset of strength @level (POR at power-on). */
void e810_ddp_reset(struct E810Core *core, E810ResetSource level);

/* 0x02A4 "clear PF configuration" (also run by a PF reset). */
void e810_ddp_clear_pf_config(struct E810Core *core);

/*
 * A DDP package has been downloaded and is active (what 0x0C43 reports as
 * active, and what makes the global config lock answer "done").
 */
bool e810_ddp_pkg_loaded(struct E810Core *core);

/* 0x020C put the device in double VLAN mode (outer tag in L2TAG2). */
bool e810_ddp_dvm_enabled(struct E810Core *core);

#endif /* E810_DDP_H_MODEL */
