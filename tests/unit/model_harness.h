/*
 * Host test harness for the device model: a fake embedder that records
 * what the core asks of the outside world.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef MODEL_HARNESS_H
#define MODEL_HARNESS_H

#include "e810_core.h"

typedef struct Harness {
    E810Core core;
    unsigned work_scheduled;
    unsigned log_guest_error;
    unsigned log_unimp;
    unsigned msix_count;
    unsigned msix_last;
    char last_log[256];
} Harness;

/* Allocates and initialises a core as PCI function @pf_id. */
Harness *harness_new(uint8_t pf_id);
void harness_free(Harness *h);

/* 32-bit register access through the MMIO entry points. */
uint32_t rd32(Harness *h, uint32_t off);
void wr32(Harness *h, uint32_t off, uint32_t val);

/* Runs the deferred work the way a QEMU bottom half would. */
void harness_run_work(Harness *h);

/* cmocka group setup/teardown that keep a Harness in *state. */
int harness_setup(void **state);
int harness_teardown(void **state);

#endif /* MODEL_HARNESS_H */
