/*
 * Emulated Intel X722 PF: the NVM's shadow RAM as firmware serves it.
 *
 * The X722 reads its NVM only through the admin queue (0x0701 "NVM read",
 * bracketed by 0x0008/0x0009 resource requests; i40e_read_nvm_word_aq()):
 * the GLNVM_SRCTL/SRDATA window is never used on this MAC. The image is
 * synthetic: 2048 words (GLNVM_GENS.SR_SIZE 2), 0xFFFF where nothing is
 * defined, the words i40e reads at probe set (docs/hw-model-x722.md,
 * "NVM"), and the software checksum word computed over the rest as
 * i40e_calc_nvm_checksum() does.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "x722_core.h"

#define SR_CONTROL_WORD     0x00
#define SR_PBA_FLAGS        0x15
#define SR_BOOT_CONFIG_PTR  0x17
#define SR_NVM_DEV_STARTER  0x18
#define SR_NVM_WOL_CFG      0x19
#define SR_OEM_VER_PTR      0x1b
#define SR_EETRACK_LO       0x2d
#define SR_EETRACK_HI       0x2e
#define SR_VPD_PTR          0x2f
#define SR_ALT_AUTOLOAD_PTR 0x3e
#define SR_SW_CHECKSUM      0x3f
#define SR_EMP_MODULE_PTR   0x48
#define SR_SECTOR_WORDS     0x800
#define SR_CHECKSUM_BASE    0xbaba

/* Where the synthetic boot-config and EMP modules live (word addresses). */
#define BOOT_CONFIG_BASE    0x0400
#define EMP_MODULE_BASE     0x0600

void x722_nvm_init(X722Core *core)
{
    uint16_t *sr = core->sr;
    uint16_t sum = 0;
    unsigned i;

    for (i = 0; i < X722_SR_WORDS; i++) {
        sr[i] = 0xffff;
    }
    sr[SR_CONTROL_WORD] = 0x0040;       /* [7:6] = 01b: a valid image */
    sr[SR_PBA_FLAGS] = 0x0000;          /* no PBA block */
    sr[SR_BOOT_CONFIG_PTR] = BOOT_CONFIG_BASE;
    sr[SR_NVM_DEV_STARTER] = 0x0350;    /* "nvm 3.50" */
    sr[SR_NVM_WOL_CFG] = 0xffff;        /* WoL off on every port */
    sr[SR_OEM_VER_PTR] = 0xffff;        /* no OEM version block */
    sr[SR_EETRACK_LO] = 0x0722;
    sr[SR_EETRACK_HI] = 0x8000;
    sr[SR_VPD_PTR] = 0xffff;            /* nothing left out of the sum */
    sr[SR_ALT_AUTOLOAD_PTR] = 0xffff;
    sr[SR_EMP_MODULE_PTR] = EMP_MODULE_BASE;
    /* OEM version words of the boot configuration (i40e_get_oem_version) */
    sr[BOOT_CONFIG_BASE + 0x83] = 0;
    sr[BOOT_CONFIG_BASE + 0x84] = 0;
    /* OCP configuration word 0 of the EMP module: not an OCP card. */
    sr[EMP_MODULE_BASE + 0x2b] = 0;
    for (i = 0; i < X722_SR_WORDS; i++) {
        if (i != SR_SW_CHECKSUM) {
            sum += sr[i];
        }
    }
    sr[SR_SW_CHECKSUM] = (uint16_t)(SR_CHECKSUM_BASE - sum);
}

/*
 * 0x0701 read of @len bytes at byte @off of the module @module points to
 * (0: the shadow RAM itself). Firmware reads one 4 KiB sector at most and
 * never across a sector boundary (i40e_read_nvm_buffer_aq() splits its
 * reads so); odd offsets and lengths are refused.
 */
enum x722_aq_rc x722_nvm_read(X722Core *core, uint8_t module, uint32_t off,
                              uint16_t len, uint8_t *out)
{
    uint32_t word, n, i;

    if (len == 0 || (len & 1) || (off & 1) || len > SR_SECTOR_WORDS * 2) {
        return X722_AQ_RC_EINVAL;
    }
    word = off / 2;
    if (module) {
        uint16_t base = core->sr[module];  /* a pointer word of the SR */

        if (base == 0 || base == 0xffff) {
            return X722_AQ_RC_ENOENT;
        }
        word += base;
    }
    n = len / 2;
    if (word >= X722_SR_WORDS || n > X722_SR_WORDS - word ||
        word / SR_SECTOR_WORDS != (word + n - 1) / SR_SECTOR_WORDS) {
        return X722_AQ_RC_EINVAL;
    }
    for (i = 0; i < n; i++) {
        out[2 * i] = (uint8_t)core->sr[word + i];
        out[2 * i + 1] = core->sr[word + i] >> 8;
    }
    return X722_AQ_RC_OK;
}
