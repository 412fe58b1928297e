/*
 * Emulated E810: geometry of the rings the device writes (CQs, CEQs, AEQ).
 *
 * A ring is either physically contiguous at a PA, or "virtual": its 4 KiB
 * pages are listed by a level-1 PBL in the HMC PBLE object, starting at
 * the first PBLE index the create WQE names (docs/hw-reference.md 3.6). Entries
 * are 8, 16 or 32 bytes and never straddle a page.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "e810_core.h"

bool e810_ring_setup(E810Core *core, E810Ring *ring, uint32_t size,
                     bool virt, uint8_t lpbl, uint64_t pa, uint32_t first_pble,
                     uint32_t align, E810CqpResult *res)
{
    if (virt) {
        if (lpbl != E810_LPBL_LEVEL1) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_PARAM, "ring PBL level "
                         "code %u, queues use level 1", lpbl);
            return false;
        }
        if (first_pble >= e810_hmc_count(core, E810_HMC_PBLE)) {
            e810_cqp_err(core, res, E810_CQP_MIN_BAD_INDEX, "ring PBLE %u "
                         "beyond the committed count", first_pble);
            return false;
        }
        pa = 0;
    } else if (!pa || (pa & (align - 1))) {
        e810_cqp_err(core, res, E810_CQP_MIN_BAD_ADDR, "ring at 0x%llx, "
                     "needs %u-byte alignment", (unsigned long long)pa, align);
        return false;
    }
    ring->pa = pa;
    ring->first_pble = virt ? first_pble : 0;
    ring->virt = virt;
    ring->size = size;
    ring->head = 0;
    ring->polarity = true;
    return true;
}

bool e810_ring_addr(E810Core *core, const E810Ring *ring, uint32_t idx,
                    uint32_t esize, uint64_t *pa)
{
    uint64_t off = (uint64_t)idx * esize;

    if (!ring->virt) {
        *pa = ring->pa + off;
        return true;
    }
    return e810_pble_resolve(core, ring->first_pble, E810_LPBL_LEVEL1,
                             E810_HMC_PD_SHIFT, off, pa);
}

void e810_ring_advance(E810Ring *ring)
{
    if (++ring->head == ring->size) {
        ring->head = 0;
        ring->polarity = !ring->polarity;
    }
}
