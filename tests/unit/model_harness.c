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
#include "xport_seam.h"

typedef struct HarnessFrame {
    struct HarnessFrame *next;
    size_t len;
    uint8_t data[];
} HarnessFrame;

static bool in_mem(uint64_t addr, size_t len)
{
    return addr >= MEM_BASE && len <= MEM_SIZE &&
           addr - MEM_BASE <= MEM_SIZE - len;
}

static bool in_xmem(Harness *h, uint64_t addr, size_t len)
{
    return h->xmem && addr >= XMEM_BASE && len <= h->xmem_size &&
           addr - XMEM_BASE <= h->xmem_size - len;
}

/* Host pointer of [addr, addr + len) or NULL if not device memory. */
static uint8_t *dma_ptr(Harness *h, uint64_t addr, size_t len)
{
    if (in_mem(addr, len)) {
        return h->mem + (addr - MEM_BASE);
    }
    if (in_xmem(h, addr, len)) {
        return h->xmem + (addr - XMEM_BASE);
    }
    return NULL;
}

void harness_race_arm(Harness *h, uint64_t lo, uint64_t word,
                      void (*fn)(void *arg), void *arg)
{
    h->race_lo = lo;
    h->race_word = word;
    h->race_fn = fn;
    h->race_arg = arg;
}

/* Like an IOMMU: anything outside the test memory is a DMA error. */
static int h_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    Harness *h = opaque;
    uint8_t *p = dma_ptr(h, addr, len);
    size_t before = 0;
    void (*fn)(void *arg) = h->race_fn;

    if (!p) {
        return -1;
    }
    if (fn && addr < h->race_word + 8 && addr + len > h->race_lo) {
        h->race_fn = NULL;
        if (addr < h->race_word) {
            before = h->race_word - addr < len ? h->race_word - addr : len;
        }
        memcpy(buf, p, before);
        fn(h->race_arg);
    }
    memcpy((uint8_t *)buf + before, p + before, len - before);
    return 0;
}

static int h_dma_write(void *opaque, uint64_t addr, const void *buf,
                       size_t len)
{
    uint8_t *p = dma_ptr(opaque, addr, len);

    if (!p) {
        return -1;
    }
    memcpy(p, buf, len);
    return 0;
}

/*
 * Direct pointers into the fake guest memory, like dma_memory_map() on
 * RAM. map_mode lets a test make maps short or fail, as a region boundary
 * or an exhausted bounce buffer does in QEMU; the live count must be back
 * at 0 once the device is quiet (nothing leaked).
 */
static void *h_dma_map(void *opaque, uint64_t addr, size_t *len, bool write)
{
    Harness *h = opaque;
    uint8_t *p;

    h->map_calls++;
    if (h->map_mode == HARNESS_MAP_FAIL) {
        *len = 0;
        return NULL;
    }
    if (h->map_mode == HARNESS_MAP_SHORT && *len > 1) {
        *len /= 2;
    }
    p = dma_ptr(h, addr, *len);
    if (!p) {
        *len = 0;
        return NULL;
    }
    h->maps_live++;
    return p;
}

static void h_dma_unmap(void *opaque, void *ptr, size_t len, bool write,
                        size_t access_len)
{
    Harness *h = opaque;

    assert_true(h->maps_live > 0);
    assert_true(access_len <= len);
    h->maps_live--;
}

static void h_transmit(void *opaque, const uint8_t *frame, size_t len)
{
    Harness *h = opaque;

    h->tx_frames++;
    h->tx_len = len < sizeof(h->tx_frame) ? len : sizeof(h->tx_frame);
    memcpy(h->tx_frame, frame, h->tx_len);
    if (h->tx_hook) {
        h->tx_hook(h->tx_hook_arg, frame, len);
    }
    if (h->peer) {
        HarnessFrame *f;

        h->wire_sent++;
        /* xorshift64: a fixed, repeatable loss pattern per seed. */
        h->wire_rng ^= h->wire_rng << 13;
        h->wire_rng ^= h->wire_rng >> 7;
        h->wire_rng ^= h->wire_rng << 17;
        if (h->loss_ppm && h->wire_rng % 1000000 < h->loss_ppm) {
            h->wire_lost++;
            return;
        }
        if (h->wire_sync) {
            h->wire_delivered++;
            e810_core_receive(&h->peer->core, frame, len);
            return;
        }
        f = malloc(sizeof(*f) + len);
        assert_non_null(f);
        f->next = NULL;
        f->len = len;
        memcpy(f->data, frame, len);
        if (h->wire_tail) {
            h->wire_tail->next = f;
        } else {
            h->wire_head = f;
        }
        h->wire_tail = f;
    }
}

void harness_wire(Harness *a, Harness *b)
{
    a->peer = b;
    b->peer = a;
    a->wire_rng = 0x9e3779b97f4a7c15ull;
    b->wire_rng = 0xd1b54a32d192ed03ull;
}

unsigned harness_wire_deliver(Harness *h)
{
    unsigned n = 0;

    /* Frames the peer sends meanwhile go to its own queue. */
    while (h->wire_head) {
        HarnessFrame *f = h->wire_head;

        h->wire_head = f->next;
        if (!h->wire_head) {
            h->wire_tail = NULL;
        }
        if (h->peer) {
            e810_core_receive(&h->peer->core, f->data, f->len);
            h->wire_delivered++;
        }
        free(f);
        n++;
    }
    return n;
}

static void wire_free(Harness *h)
{
    while (h->wire_head) {
        HarnessFrame *f = h->wire_head;

        h->wire_head = f->next;
        free(f);
    }
    h->wire_tail = NULL;
    if (h->peer && h->peer->peer == h) {
        h->peer->peer = NULL;
    }
    h->peer = NULL;
}

static uint64_t h_now_ns(void *opaque)
{
    Harness *h = opaque;

    return h->now_ns;
}

static void h_timer_mod(void *opaque, uint64_t deadline_ns)
{
    Harness *h = opaque;

    h->timer_deadline = deadline_ns;
}

bool harness_timer_due(Harness *h)
{
    if (h->timer_deadline == UINT64_MAX || h->timer_deadline > h->now_ns) {
        return false;
    }
    h->timer_deadline = UINT64_MAX;
    h->timer_fires++;
    e810_core_timer_fire(&h->core);
    return true;
}

void harness_advance(Harness *h, uint64_t ns)
{
    unsigned n = 0;

    h->now_ns += ns;
    /* Bounded: a timer that keeps re-arming in the past is a bug. */
    while (harness_timer_due(h)) {
        assert_true(++n < 1000000);
    }
}

void harness_xmem_init(Harness *h, size_t size)
{
    assert_null(h->xmem);
    h->xmem = calloc(1, size);
    assert_non_null(h->xmem);
    h->xmem_size = size;
    h->xmem_next = 0;
}

uint64_t harness_xmem_alloc(Harness *h, size_t len)
{
    uint64_t gpa = XMEM_BASE + h->xmem_next;

    h->xmem_next = (h->xmem_next + len + 4095) & ~4095ull;
    assert_true(h->xmem_next <= h->xmem_size);
    return gpa;
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
    uint8_t *p = dma_ptr(h, gpa, 1);

    assert_non_null(p);
    return p;
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
    .dma_map = h_dma_map,
    .dma_unmap = h_dma_unmap,
    .msix_notify = h_msix_notify,
    .schedule_work = h_schedule_work,
    .transmit = h_transmit,
    .rx_ready = h_rx_ready,
    .log = h_log,
    .now_ns = h_now_ns,
    .timer_mod = h_timer_mod,
};

/*
 * The transport seam (xport_seam.h): the harness's stand-in when it has
 * one (every core in these test programs is a Harness's, its ops' opaque).
 */
bool __wrap_e810_xport_send(E810Core *core, E810Qp *qp,
                            const E810SendWqe *wqe)
{
    Harness *h = core->opaque;

    /* a core of another embedder (the X722 rig's engine) has no seam */
    if (core->ops == &harness_ops && h->xport_send) {
        return h->xport_send(h, qp, wqe);
    }
    return __real_e810_xport_send(core, qp, wqe);
}

Harness *harness_new(uint8_t pf_id)
{
    Harness *h = calloc(1, sizeof(*h));

    if (!h) {
        return NULL;
    }
    h->now_ns = 1000000000ull;      /* not 0: 0 means "no deadline" */
    h->timer_deadline = UINT64_MAX;
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
        wire_free(h);
        e810_core_fini(&h->core);
        free(h->xmem);
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

bool harness_wait_grst(Harness *h, unsigned *steps)
{
    unsigned n = FIELD_GET(E810_GLGEN_RSTCTL_GRSTDEL,
                           rd32(h, E810_GLGEN_RSTCTL)) + 10, i;

    for (i = 1; i <= n; i++) {
        harness_advance(h, E810_GRSTDEL_UNIT_NS);
        harness_run_work(h);
        if (!(rd32(h, E810_GLGEN_RSTAT) & E810_GLGEN_RSTAT_DEVSTATE)) {
            break;
        }
    }
    if (steps) {
        *steps = i;
    }
    return i <= n;
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
