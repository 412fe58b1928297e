/*
 * Emulated E810: NVM (Shadow RAM and flash) and resource ownership.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_NVM_H_MODEL
#define E810_NVM_H_MODEL

#include <stdbool.h>
#include <stdint.h>

#include "hw/e810_aq.h"
#include "e810_regfile.h"

struct E810Core;

/*
 * Shadow RAM size: 2^GLNVM_GENS.SR_SIZE KB (SR_SIZE = 6 in the register
 * file), in 16-bit words.
 */
#define E810_NVM_SR_WORDS       (64 * 1024 / 2)
/* Flash size ice_discover_flash_size() must find (the 24-bit maximum). */
#define E810_NVM_FLASH_SIZE     (16u << 20)
/* SDP pins a driver may own through resource id 2. */
#define E810_NVM_SDP_PINS       8

/* One owned resource (0x0008/0x0009). */
typedef struct E810NvmOwner {
    bool held;
    uint8_t access;             /* E810_AQ_RES_ACCESS_* */
    uint32_t granted_ms;
    uint64_t deadline_ns;       /* 0: no clock, never expires */
} E810NvmOwner;

/* What this part of the firmware remembers. */
typedef struct E810Nvm {
    E810NvmOwner res[E810_AQ_RES_ID_GLBL_LOCK + 1];    /* by res_id */
    E810NvmOwner sdp[E810_NVM_SDP_PINS];               /* res_id 2, by pin */
    uint16_t sr[E810_NVM_SR_WORDS];     /* Shadow RAM (= active bank copy) */
    uint16_t netlist_id[E810_NETLIST_ID_BLK_SIZE];
    struct e810_orom_civd civd;
    bool image_built;           /* sr, netlist_id and civd hold the image */
    uint64_t commands;          /* executed, for tests and debugging */
} E810Nvm;

/* Device reset of strength @level (POR at power-on). */
void e810_nvm_reset(struct E810Core *core, E810ResetSource level);

/* 0x02A4 "clear PF configuration" (also run by a PF reset). */
void e810_nvm_clear_pf_config(struct E810Core *core);

/* 0x0003 with "driver unloading": the firmware drops the PF's ownerships. */
void e810_nvm_driver_unloaded(struct E810Core *core);

/*
 * Resource ownership (0x0008/0x0009): whether the driver holds resource
 * @res_id (E810_AQ_RES_ID_*) with at least @write access now (an expired
 * hold is not held; for the SDP resource, pin 0).
 */
bool e810_nvm_res_held(struct E810Core *core, uint16_t res_id, bool write);

/*
 * @len bytes of raw flash from byte @offset (what 0x0701 with FLASH_ONLY
 * returns); false if the range is not inside the flash.
 */
bool e810_nvm_flash_read(const struct E810Core *core, uint32_t offset,
                         void *buf, uint32_t len);

#endif /* E810_NVM_H_MODEL */
