/*
 * Emulated E810: interrupt vectors.
 *
 * GLINT_DYN_CTL(n) gates MSI-X vector n (GEN_2 uses the absolute vector
 * number). A cause that fires while INTENA is set sends the message and,
 * unless GLINT_CTL.DIS_AUTOMASK is set, clears INTENA until the driver
 * re-arms it; a cause that fires while INTENA is clear stays latched and is
 * sent when INTENA is set again. irdma (like ice) re-enables a vector with
 * INTENA | CLEARPBA after draining its event queue and does not look at the
 * queue again, which is only correct if an event that arrived meanwhile
 * still interrupts: so CLEARPBA, which acts on the MSI-X pending bit (kept
 * by QEMU's MSI-X layer for masked vectors), does not drop latched causes.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <string.h>

#include "e810_core.h"

/* Bits of GLINT_DYN_CTL that trigger an action and read back as 0. */
#define DYN_CTL_ACTION_BITS (E810_GLINT_DYN_CTL_CLEARPBA | \
                             E810_GLINT_DYN_CTL_SWINT_TRIG | \
                             E810_GLINT_DYN_CTL_INTENA_MSK)

static bool pending_test(E810Intr *intr, unsigned v)
{
    return intr->pending[v / 64] & (1ull << (v % 64));
}

static void pending_set(E810Intr *intr, unsigned v, bool on)
{
    if (on) {
        intr->pending[v / 64] |= 1ull << (v % 64);
    } else {
        intr->pending[v / 64] &= ~(1ull << (v % 64));
    }
}

void e810_intr_init(E810Intr *intr, unsigned nvectors)
{
    memset(intr, 0, sizeof(*intr));
    intr->nvectors = nvectors < E810_MAX_VECTORS ? nvectors : E810_MAX_VECTORS;
}

void e810_intr_reset(E810Intr *intr)
{
    memset(intr->pending, 0, sizeof(intr->pending));
}

static uint32_t *dyn_ctl(E810Core *core, unsigned v)
{
    return e810_regfile_ptr(&core->regs, E810_GLINT_DYN_CTL(v));
}

static void deliver(E810Core *core, unsigned v, uint32_t *reg)
{
    uint32_t ctl = *e810_regfile_ptr(&core->regs, E810_GLINT_CTL);

    pending_set(&core->intr, v, false);
    if (!(ctl & E810_GLINT_CTL_DIS_AUTOMASK)) {
        *reg &= ~E810_GLINT_DYN_CTL_INTENA;
    }
    core->intr.delivered++;
    core->ops->msix_notify(core->opaque, v);
}

void e810_intr_raise(E810Core *core, unsigned vector)
{
    uint32_t *reg;

    if (vector >= core->intr.nvectors) {
        e810_core_log(core, E810_LOG_GUEST_ERROR,
                      "interrupt cause routed to vector %u, table has %u",
                      vector, core->intr.nvectors);
        return;
    }
    reg = dyn_ctl(core, vector);
    if (*reg & E810_GLINT_DYN_CTL_INTENA) {
        deliver(core, vector, reg);
    } else {
        pending_set(&core->intr, vector, true);
    }
}

void e810_intr_cause(E810Core *core, uint32_t ctl)
{
    uint32_t v = *e810_regfile_ptr(&core->regs, ctl);

    if (v & E810_INT_CTL_CAUSE_ENA) {
        e810_intr_raise(core, FIELD_GET(E810_INT_CTL_MSIX_INDX, v));
    }
}

void e810_intr_dyn_ctl_write(E810Core *core, unsigned n, uint32_t *reg,
                             uint32_t val)
{
    uint32_t stored = val & ~DYN_CTL_ACTION_BITS;

    if (val & E810_GLINT_DYN_CTL_INTENA_MSK) {
        stored = (stored & ~E810_GLINT_DYN_CTL_INTENA) |
                 (*reg & E810_GLINT_DYN_CTL_INTENA);
    }
    *reg = stored;
    if (n >= core->intr.nvectors) {
        return;     /* no MSI-X entry behind it: storage only */
    }
    if (val & E810_GLINT_DYN_CTL_SWINT_TRIG) {
        pending_set(&core->intr, n, true);
    }
    if ((*reg & E810_GLINT_DYN_CTL_INTENA) && pending_test(&core->intr, n)) {
        deliver(core, n, reg);
    }
}
