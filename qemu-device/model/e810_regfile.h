/*
 * Emulated E810: the BAR0 register file.
 *
 * A sorted table of registers and register arrays, each with its reset
 * value, access rules and reset domain, backed by one array of 32-bit
 * values. Side effects of reads and writes are not here: the core looks
 * at E810RegInfo.id and runs the hook for that register.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_REGFILE_H
#define E810_REGFILE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Reset domains, weakest first. A reset of domain D resets every register
 * whose reset source is D or weaker (a CORER also does everything a PFR does).
 */
typedef enum E810ResetSource {
    E810_RST_PFR,
    E810_RST_CORER,
    E810_RST_GLOBR,
    E810_RST_EMPR,
    E810_RST_POR,
} E810ResetSource;

enum E810RegFlags {
    E810_REG_RO = 1u << 0,  /* driver writes are ignored and counted */
    E810_REG_WO = 1u << 1,  /* reads return 0 (doorbells, triggers) */
    E810_REG_RC = 1u << 2,  /* a read returns the value and clears it */
};

/* Registers with side effects; the core switches on these. */
typedef enum E810RegId {
    E810_REGID_PLAIN = 0,
    E810_REGID_PFGEN_CTRL,
    E810_REGID_GLGEN_RTRIG,
    E810_REGID_GLINT_DYN_CTL,
    E810_REGID_CQPDB,
    E810_REGID_CQARM,
    E810_REGID_CQACK,
    E810_REGID_AEQALLOC,
    E810_REGID_WQEALLOC,
    E810_REGID_CCQPLOW,
    E810_REGID_PFHMC_PDINV,
    E810_REGID_PF_FW_ATQT,
    E810_REGID_QRX_CTRL,
    E810_REGID_QRX_TAIL,
    E810_REGID_QTX_COMM_DBELL,
    E810_REGID_CQPTAIL,         /* RO, but the driver zeroes it at init */
    E810_REGID_CCQPSTATUS,      /* RO, but the driver zeroes it at init */
    E810_REGID_PFHMC_SDCMD,
    E810_REGID_PFINT_OICR,      /* read to clear; a write sets causes */
} E810RegId;

typedef struct E810RegInfo {
    const char *name;
    uint32_t base;      /* BAR0 offset of element 0 */
    uint32_t count;     /* 1 for a plain register */
    uint32_t stride;    /* bytes between elements (arrays only) */
    uint32_t reset;     /* reset value of every element */
    uint32_t w1c;       /* bits a driver clears by writing 1 */
    uint32_t flags;     /* E810RegFlags */
    uint8_t rst;        /* E810ResetSource */
    uint8_t id;         /* E810RegId */
} E810RegInfo;

typedef struct E810RegFile {
    uint32_t *vals;         /* all elements of all registers */
    uint32_t *reset_vals;   /* the same layout, each element's reset value */
    uint32_t *slot_base;    /* per table entry: index of element 0 in vals */
    uint32_t nslots;
} E810RegFile;

/* A decoded access: which register, which element, where it is stored. */
typedef struct E810RegRef {
    const E810RegInfo *info;
    uint32_t index;         /* element within an array */
    uint32_t *val;
} E810RegRef;

int e810_regfile_init(E810RegFile *rf);
void e810_regfile_fini(E810RegFile *rf);

/* Resets every register whose reset source is @level or weaker. */
void e810_regfile_reset(E810RegFile *rf, E810ResetSource level);

/* Decodes a 4-byte-aligned BAR0 offset; false if no register lives there. */
bool e810_regfile_lookup(E810RegFile *rf, uint32_t offset, E810RegRef *ref);

/* Direct access by offset for the model's own use (device-side updates). */
uint32_t *e810_regfile_ptr(E810RegFile *rf, uint32_t offset);

/* The register table, for tests and debug dumps. */
const E810RegInfo *e810_regfile_table(unsigned *count);

#endif /* E810_REGFILE_H */
