/*
 * Host test harness for the device model.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model_harness.h"

static bool in_mem(uint64_t addr, size_t len)
{
    return addr >= MEM_BASE && len <= MEM_SIZE &&
           addr - MEM_BASE <= MEM_SIZE - len;
}

/* Like an IOMMU: anything outside the test memory is a DMA error. */
static int h_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    Harness *h = opaque;

    if (!in_mem(addr, len)) {
        return -1;
    }
    memcpy(buf, h->mem + (addr - MEM_BASE), len);
    return 0;
}

static int h_dma_write(void *opaque, uint64_t addr, const void *buf,
                       size_t len)
{
    Harness *h = opaque;

    if (!in_mem(addr, len)) {
        return -1;
    }
    memcpy(h->mem + (addr - MEM_BASE), buf, len);
    return 0;
}

static void h_transmit(void *opaque, const uint8_t *frame, size_t len)
{
    Harness *h = opaque;

    h->tx_frames++;
    h->tx_len = len < sizeof(h->tx_frame) ? len : sizeof(h->tx_frame);
    memcpy(h->tx_frame, frame, h->tx_len);
}

static void h_rx_ready(void *opaque)
{
    Harness *h = opaque;

    h->rx_ready++;
}

uint64_t mem_alloc(Harness *h, size_t len)
{
    uint64_t gpa = MEM_BASE + h->mem_next;

    h->mem_next = (h->mem_next + len + 63) & ~63ull;
    assert_true(h->mem_next <= MEM_SIZE);
    return gpa;
}

uint64_t mem_alloc_aligned(Harness *h, size_t len, size_t align)
{
    uint64_t gpa;

    h->mem_next = (h->mem_next + align - 1) & ~(uint64_t)(align - 1);
    gpa = MEM_BASE + h->mem_next;
    h->mem_next = (h->mem_next + len + 63) & ~63ull;
    assert_true(h->mem_next <= MEM_SIZE);
    return gpa;
}

void *mem_ptr(Harness *h, uint64_t gpa)
{
    assert_true(in_mem(gpa, 1));
    return h->mem + (gpa - MEM_BASE);
}

static void h_msix_notify(void *opaque, unsigned vector)
{
    Harness *h = opaque;

    h->msix_count++;
    h->msix_last = vector;
}

static void h_schedule_work(void *opaque)
{
    Harness *h = opaque;

    h->work_scheduled++;
}

static void h_log(void *opaque, E810LogLevel level, const char *msg)
{
    Harness *h = opaque;

    if (level == E810_LOG_GUEST_ERROR) {
        h->log_guest_error++;
    } else {
        h->log_unimp++;
    }
    snprintf(h->last_log, sizeof(h->last_log), "%s", msg);
}

static const E810CoreOps harness_ops = {
    .dma_read = h_dma_read,
    .dma_write = h_dma_write,
    .msix_notify = h_msix_notify,
    .schedule_work = h_schedule_work,
    .transmit = h_transmit,
    .rx_ready = h_rx_ready,
    .log = h_log,
};

Harness *harness_new(uint8_t pf_id)
{
    Harness *h = calloc(1, sizeof(*h));

    if (!h) {
        return NULL;
    }
    if (e810_core_init(&h->core, &harness_ops, h, pf_id)) {
        free(h);
        return NULL;
    }
    e810_core_set_mac(&h->core, (const uint8_t[6]){ 0x52, 0x54, 0x00, 0xe8,
                                                     0x10, pf_id });
    e810_core_set_link(&h->core, true);
    return h;
}

void harness_free(Harness *h)
{
    if (h) {
        e810_core_fini(&h->core);
        free(h);
    }
}

uint32_t rd32(Harness *h, uint32_t off)
{
    return (uint32_t)e810_core_mmio_read(&h->core, off, 4);
}

void wr32(Harness *h, uint32_t off, uint32_t val)
{
    e810_core_mmio_write(&h->core, off, val, 4);
}

void harness_run_work(Harness *h)
{
    e810_core_run_work(&h->core);
}

int harness_setup(void **state)
{
    *state = harness_new(0);
    return *state ? 0 : -1;
}

int harness_teardown(void **state)
{
    harness_free(*state);
    return 0;
}
