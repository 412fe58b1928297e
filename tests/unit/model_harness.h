/*
 * Host test harness for the device model: a fake embedder that records
 * what the core asks of the outside world.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef MODEL_HARNESS_H
#define MODEL_HARNESS_H

#include "e810_core.h"

/*
 * Host memory the device can reach: MEM_SIZE bytes at guest address MEM_BASE.
 * 8 MiB: room for a direct 2 MiB HMC segment next to the RDMA queues.
 */
#define MEM_BASE 0x10000000ull
#define MEM_SIZE (8u << 20)

typedef struct Harness {
    E810Core core;
    uint8_t mem[MEM_SIZE];
    uint64_t mem_next;          /* bump allocator for test buffers */
    unsigned tx_frames;
    size_t tx_len;
    uint8_t tx_frame[16384];    /* last frame sent to the "wire" */
    unsigned rx_ready;
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

/* Allocates @len zeroed bytes of device-visible memory (64-byte aligned). */
uint64_t mem_alloc(Harness *h, size_t len);
/* The same with @align (a power of two) alignment. */
uint64_t mem_alloc_aligned(Harness *h, size_t len, size_t align);
/* Host pointer for device-visible address @gpa. */
void *mem_ptr(Harness *h, uint64_t gpa);

/* Runs the deferred work the way a QEMU bottom half would. */
void harness_run_work(Harness *h);

/* cmocka group setup/teardown that keep a Harness in *state. */
int harness_setup(void **state);
int harness_teardown(void **state);

#endif /* MODEL_HARNESS_H */
