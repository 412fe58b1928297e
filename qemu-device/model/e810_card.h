/*
 * Emulated E810 and X722: the PCI functions of one card.
 *
 * Each function's core keeps the card's functions by PF number in its
 * card[] array (itself included, the others NULL until joined) and its
 * own number in pf_id; a core or global reset written on one function
 * reaches each of them (e810_core.c, x722_core.c).
 * E810_DEFINE_CARD(prefix, Type, npfs) defines, for such a Type:
 *   prefix_join(core, other)  every function of @core's card and every
 *                             function of @other's learn of each other
 *   prefix_leave(core)        @core and the rest of its card forget each
 *                             other
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_CARD_H
#define E810_CARD_H

#include <string.h>

#define E810_DEFINE_CARD(prefix, Type, npfs)                                \
void prefix##_join(Type *core, Type *other)                                 \
{                                                                           \
    Type *a[npfs], *b[npfs];                                                \
    unsigned i, j;                                                          \
                                                                            \
    memcpy(a, core->card, sizeof(a));                                       \
    memcpy(b, other->card, sizeof(b));                                      \
    for (i = 0; i < (npfs); i++) {                                          \
        for (j = 0; j < (npfs); j++) {                                      \
            if (a[i] && b[j] && a[i] != b[j]) {                             \
                a[i]->card[b[j]->pf_id % (npfs)] = b[j];                    \
                b[j]->card[a[i]->pf_id % (npfs)] = a[i];                    \
            }                                                               \
        }                                                                   \
    }                                                                       \
}                                                                           \
                                                                            \
void prefix##_leave(Type *core)                                             \
{                                                                           \
    unsigned i;                                                             \
                                                                            \
    for (i = 0; i < (npfs); i++) {                                          \
        if (core->card[i] && core->card[i] != core) {                       \
            core->card[i]->card[core->pf_id % (npfs)] = NULL;               \
            core->card[i] = NULL;                                           \
        }                                                                   \
    }                                                                       \
}

#endif /* E810_CARD_H */
