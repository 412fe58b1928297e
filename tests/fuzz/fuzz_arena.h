/*
 * What the control-plane fuzz harnesses share: a flat DMA arena that
 * stands for guest memory, the core's host callbacks over it (no
 * interrupts, no wire), the input reader and the driver-side accessors.
 * A harness includes this once and calls arena_bind() when its state
 * exists.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef FUZZ_ARENA_H
#define FUZZ_ARENA_H

#include <endian.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "e810_core.h"

#define ARENA_BASE  0x10000000ull
#define ARENA_SIZE  (128u * 1024)

static E810Core *arena_core;
static uint8_t *arena_mem;

static bool in_arena(uint64_t addr, size_t len)
{
    return addr >= ARENA_BASE && len <= ARENA_SIZE &&
           addr - ARENA_BASE <= ARENA_SIZE - len;
}

/* Addresses outside the arena fail like an unmapped guest address. */
static int arena_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    if (!in_arena(addr, len)) {
        return -1;
    }
    memcpy(buf, arena_mem + (addr - ARENA_BASE), len);
    return 0;
}

static int arena_dma_write(void *opaque, uint64_t addr, const void *buf,
                           size_t len)
{
    if (!in_arena(addr, len)) {
        return -1;
    }
    memcpy(arena_mem + (addr - ARENA_BASE), buf, len);
    return 0;
}

static void arena_msix(void *opaque, unsigned vector)
{
}

/* Work runs when the harness calls e810_core_run_work(), not from a BH. */
static void arena_schedule(void *opaque)
{
}

static void arena_transmit(void *opaque, const uint8_t *frame, size_t len)
{
}

static const E810CoreOps arena_ops = {
    .dma_read = arena_dma_read,
    .dma_write = arena_dma_write,
    .msix_notify = arena_msix,
    .schedule_work = arena_schedule,
    .transmit = arena_transmit,
};

/* Once per process: @core runs over @mem (ARENA_SIZE bytes). */
static void arena_bind(E810Core *core, uint8_t *mem)
{
    arena_core = core;
    arena_mem = mem;
    if (e810_core_init(core, &arena_ops, NULL, 0)) {
        abort();
    }
}

/* ---- input reader -------------------------------------------------------- */

typedef struct Input {
    const uint8_t *p;
    size_t left;
} Input;

/* The next @n bytes, little-endian; zeros once the input is used up. */
static uint64_t take(Input *in, unsigned n)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < n && in->left; i++, in->left--) {
        v |= (uint64_t)*in->p++ << (8 * i);
    }
    return v;
}

/* ---- the driver's side: BAR0 writes and arena qwords --------------------- */

static void wr(uint32_t off, uint32_t val)
{
    e810_core_mmio_write(arena_core, off, val, 4);
}

static inline void put64(uint32_t off, uint64_t v)
{
    v = htole64(v);
    memcpy(arena_mem + off, &v, 8);
}

static inline uint64_t get64(uint32_t off)
{
    uint64_t v;

    memcpy(&v, arena_mem + off, 8);
    return le64toh(v);
}

#endif
