/*
 * Emulated E810: interrupt vectors (GLINT_DYN_CTL semantics, MSI-X).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_INTR_H
#define E810_INTR_H

#include <stdint.h>

#include "hw/e810_regs.h"

struct E810Core;

typedef struct E810Intr {
    unsigned nvectors;  /* MSI-X table size; higher indexes are ignored */
    /* Cause fired while INTENA was clear, delivered when it is set again. */
    uint64_t pending[E810_MAX_VECTORS / 64];
    uint64_t delivered; /* MSI-X messages sent, for tests and debugging */
} E810Intr;

void e810_intr_init(E810Intr *intr, unsigned nvectors);
void e810_intr_reset(E810Intr *intr);

/*
 * The cause whose control register (QINT_RQCTL, PFINT_FW_CTL, ... in the
 * E810_INT_CTL_* layout) is at BAR0 offset @ctl fired: raises its vector
 * if CAUSE_ENA is set.
 */
void e810_intr_cause(struct E810Core *core, uint32_t ctl);

/* A cause routed to @vector fired: deliver now or leave it pending. */
void e810_intr_raise(struct E810Core *core, unsigned vector);

/*
 * A driver write of @val to GLINT_DYN_CTL(@n); @reg is the stored value,
 * updated in place (trigger bits are not stored, INTENA_MSK protects INTENA).
 */
void e810_intr_dyn_ctl_write(struct E810Core *core, unsigned n,
                             uint32_t *reg, uint32_t val);

#endif /* E810_INTR_H */
