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
    /* Fake virtual clock and the device's one timer (E810CoreOps). */
    uint64_t now_ns;
    uint64_t timer_deadline;    /* UINT64_MAX: not armed */
    unsigned timer_fires;
    /* Frame wiring: every transmitted frame is also handed to tx_hook. */
    void (*tx_hook)(void *arg, const uint8_t *frame, size_t len);
    void *tx_hook_arg;
    /*
     * Back-to-back wire (harness_wire): frames this device transmits are
     * queued for @peer, each lost with probability loss_ppm / 10^6, and
     * delivered by harness_wire_deliver(); with wire_sync the peer
     * receives each frame at once, from inside the transmit, as a QEMU hub
     * delivers (its answers re-enter the sender).
     */
    struct Harness *peer;
    bool wire_sync;
    uint32_t loss_ppm;
    uint64_t wire_rng;
    struct HarnessFrame *wire_head, *wire_tail;
    uint64_t wire_sent, wire_lost, wire_delivered;
    /*
     * The transport seam: when set, the queue layer hands each transport
     * WQE here instead of to e810_xport_send() (same contract), so that a
     * test can play the transport (dp_tap_install()). The test programs
     * are linked with --wrap=e810_xport_send; the model has no hook.
     */
    bool (*xport_send)(struct Harness *h, struct E810Qp *qp,
                       const struct E810SendWqe *wqe);
    void *xport_send_arg;
    /*
     * A guest CPU racing the device (harness_race_arm()): the first DMA
     * read that touches [race_lo, race_word + 8) copies what lies below
     * race_word, then race_fn runs (the guest writes), then the rest is
     * copied, as a device copying an entry while a CPU fills it would see.
     */
    uint64_t race_lo, race_word;
    void (*race_fn)(void *arg);
    void *race_arg;
    /*
     * ops->dma_map: direct pointers (HARNESS_MAP_DIRECT, the default),
     * maps cut to half the length asked (HARNESS_MAP_SHORT) or failing
     * (HARNESS_MAP_FAIL); the core must then read the plain way. Counts
     * calls and mappings not yet given back.
     */
    int map_mode;
    unsigned long map_calls;
    long maps_live;
    /* Optional extra device memory at XMEM_BASE (harness_xmem_alloc). */
    uint8_t *xmem;
    size_t xmem_size;
    uint64_t xmem_next;
} Harness;

enum {
    HARNESS_MAP_DIRECT,
    HARNESS_MAP_SHORT,
    HARNESS_MAP_FAIL,
};

/* Extra memory for large buffers (above the 8 MiB array). */
#define XMEM_BASE 0x100000000ull

/* Arms the race above for the entry [lo, word + 8); it fires once. */
void harness_race_arm(Harness *h, uint64_t lo, uint64_t word,
                      void (*fn)(void *arg), void *arg);

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

/*
 * Moves the fake clock on by @ns and fires the device timer (as often as
 * it re-arms itself into the past) when its deadline has come.
 */
void harness_advance(Harness *h, uint64_t ns);
/* Fires the timer if due, without moving the clock; true if it fired. */
bool harness_timer_due(Harness *h);

/*
 * Gives the device @size bytes more memory at XMEM_BASE (once, zeroed);
 * then harness_xmem_alloc() hands out 4 KiB-aligned pieces of it.
 */
void harness_xmem_init(Harness *h, size_t size);
uint64_t harness_xmem_alloc(Harness *h, size_t len);

/* Joins @a and @b back to back (both directions), no loss. */
void harness_wire(Harness *a, Harness *b);
/* Delivers every frame @h queued for its peer; returns how many. */
unsigned harness_wire_deliver(Harness *h);

/* Runs the deferred work the way a QEMU bottom half would. */
void harness_run_work(Harness *h);

/*
 * Waits out a core or global reset as ice_check_reset() does: reads
 * GLGEN_RSTAT every 100 ms of the fake clock (the work running between
 * reads) until DEVSTATE is 0, at most GRSTDEL + 10 times; false if it
 * never was. Returns the 100 ms steps taken through @steps (may be NULL).
 */
bool harness_wait_grst(Harness *h, unsigned *steps);

/* cmocka group setup/teardown that keep a Harness in *state. */
int harness_setup(void **state);
int harness_teardown(void **state);

#endif /* MODEL_HARNESS_H */
