/*
 * A fake embedder and an i40e-style admin queue driver for the X722
 * model (qemu-device/model/x722_*.c), shared by tests/unit/test_x722.c
 * and tests/fuzz/fuzz_x722_aq.c. Guest memory is one flat array; DMA
 * outside it fails as an unmapped address would.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef X722_RIG_H
#define X722_RIG_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "x722_core.h"

#define XR_MEM_BASE     0x100000ull
#define XR_MEM_SIZE     (4u << 20)
#define XR_ATQ          (XR_MEM_BASE + 0x0000)  /* 32 descriptors */
#define XR_ARQ          (XR_MEM_BASE + 0x1000)  /* 32 descriptors */
#define XR_ARQ_BUFS     (XR_MEM_BASE + 0x2000)  /* 32 x 512 B */
#define XR_CMDBUF       (XR_MEM_BASE + 0x8000)  /* 4 KiB */
#define XR_HMC          (XR_MEM_BASE + 0x10000) /* the LAN HMC (64 KiB) */
#define XR_TXRING       (XR_MEM_BASE + 0x20000)
#define XR_RXRING       (XR_MEM_BASE + 0x24000)
#define XR_BUFS         (XR_MEM_BASE + 0x30000)
#define XR_AQ_LEN       32

typedef struct XRig {
    X722Core core;
    uint8_t *mem;
    unsigned work_requests;
    unsigned msix[X722_MSIX_VECTORS];
    unsigned tx_frames;
    uint8_t tx_last[X722_FRAME_MAX];
    size_t tx_last_len;
    size_t tx_total;
    uint8_t tx_log[65536];      /* all frames back to back */
    size_t tx_log_len;
    unsigned logs;
    uint32_t atq_next;
} XRig;

static inline uint8_t *xr_ptr(XRig *r, uint64_t addr)
{
    return r->mem + (addr - XR_MEM_BASE);
}

static int xr_dma_read(void *o, uint64_t addr, void *buf, size_t len)
{
    XRig *r = o;

    if (addr < XR_MEM_BASE || addr + len > XR_MEM_BASE + XR_MEM_SIZE ||
        addr + len < addr) {
        return -1;
    }
    memcpy(buf, xr_ptr(r, addr), len);
    return 0;
}

static int xr_dma_write(void *o, uint64_t addr, const void *buf, size_t len)
{
    XRig *r = o;

    if (addr < XR_MEM_BASE || addr + len > XR_MEM_BASE + XR_MEM_SIZE ||
        addr + len < addr) {
        return -1;
    }
    memcpy(xr_ptr(r, addr), buf, len);
    return 0;
}

static void xr_msix(void *o, unsigned v)
{
    XRig *r = o;

    if (v < X722_MSIX_VECTORS) {
        r->msix[v]++;
    }
}

static void xr_work(void *o)
{
    ((XRig *)o)->work_requests++;
}

static void xr_tx(void *o, const uint8_t *f, size_t len)
{
    XRig *r = o;

    r->tx_frames++;
    r->tx_total += len;
    if (len <= sizeof(r->tx_last)) {
        memcpy(r->tx_last, f, len);
        r->tx_last_len = len;
    }
    if (r->tx_log_len + len <= sizeof(r->tx_log)) {
        memcpy(r->tx_log + r->tx_log_len, f, len);
        r->tx_log_len += len;
    }
}

static void xr_log(void *o, E810LogLevel level, const char *msg)
{
    ((XRig *)o)->logs++;
}

static const E810CoreOps xr_ops = {
    .dma_read = xr_dma_read,
    .dma_write = xr_dma_write,
    .msix_notify = xr_msix,
    .schedule_work = xr_work,
    .transmit = xr_tx,
    .log = xr_log,
};

static inline uint32_t xr_rd(XRig *r, uint32_t off)
{
    return (uint32_t)x722_core_mmio_read(&r->core, off, 4);
}

static inline void xr_wr(XRig *r, uint32_t off, uint32_t v)
{
    x722_core_mmio_write(&r->core, off, v, 4);
}

/* Bits [lsb, lsb + width) of a little-endian context image (i40e's). */
static inline void xr_set_bits(uint8_t *ctx, unsigned lsb, unsigned width,
                               uint64_t v)
{
    unsigned i;

    for (i = 0; i < width; i++) {
        unsigned b = lsb + i;

        ctx[b / 8] &= ~(1u << (b % 8));
        ctx[b / 8] |= ((v >> i) & 1) << (b % 8);
    }
}

static inline void xr_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = v >> 8;
}

static inline void xr_put32(uint8_t *p, uint32_t v)
{
    xr_put16(p, (uint16_t)v);
    xr_put16(p + 2, v >> 16);
}

static inline uint16_t xr_get16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static inline uint32_t xr_get32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void xr_put64(uint8_t *p, uint64_t v)
{
    xr_put32(p, (uint32_t)v);
    xr_put32(p + 4, v >> 32);
}

static inline uint64_t xr_get64(const uint8_t *p)
{
    return xr_get32(p) | (uint64_t)xr_get32(p + 4) << 32;
}

/* Sets up the rings as i40e_init_adminq() does. */
static inline void xr_init_aq(XRig *r)
{
    unsigned i;

    xr_wr(r, X722_PF_ATQH, 0);
    xr_wr(r, X722_PF_ATQT, 0);
    r->core.atq_pending = false;
    xr_wr(r, X722_PF_ATQBAL, (uint32_t)XR_ATQ);
    xr_wr(r, X722_PF_ATQBAH, (uint32_t)(XR_ATQ >> 32));
    xr_wr(r, X722_PF_ATQLEN, XR_AQ_LEN | X722_AQLEN_ENABLE);
    for (i = 0; i < XR_AQ_LEN; i++) {
        uint8_t *d = xr_ptr(r, XR_ARQ + i * 32);
        uint64_t b = XR_ARQ_BUFS + i * 512;

        memset(d, 0, 32);
        xr_put16(d, 0x1000 | 0x200);    /* BUF | LB */
        xr_put16(d + 4, 512);
        xr_put32(d + 24, (uint32_t)(b >> 32));
        xr_put32(d + 28, (uint32_t)b);
    }
    xr_wr(r, X722_PF_ARQBAL, (uint32_t)XR_ARQ);
    xr_wr(r, X722_PF_ARQBAH, (uint32_t)(XR_ARQ >> 32));
    xr_wr(r, X722_PF_ARQLEN, XR_AQ_LEN | X722_AQLEN_ENABLE);
    xr_wr(r, X722_PF_ARQT, XR_AQ_LEN - 1);
    r->atq_next = 0;
}

/* The rig's function as PF @pf (PCI function @pf of the card). */
static inline int xr_init_pf(XRig *r, unsigned pf)
{
    uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x72, 0x20, 0x01 };

    mac[5] += pf;
    memset(r, 0, sizeof(*r));
    r->mem = calloc(1, XR_MEM_SIZE);
    if (!r->mem || x722_core_init(&r->core, &xr_ops, r, pf)) {
        return -1;
    }
    x722_core_set_mac(&r->core, mac);
    x722_core_set_link(&r->core, true);
    xr_init_aq(r);
    return 0;
}

static inline int xr_init(XRig *r)
{
    return xr_init_pf(r, 0);
}

static inline void xr_fini(XRig *r)
{
    x722_core_fini(&r->core);
    free(r->mem);
}

/*
 * Sends one command: @params (16 bytes, may be NULL), @flags (BUF/RD/LB
 * are set from @len), @buf/@len the indirect buffer (copied to guest
 * memory and back). Returns retval; *desc_out gets the written-back
 * descriptor.
 */
static inline uint16_t xr_cmd(XRig *r, uint16_t opcode, const void *params,
                              void *buf, uint16_t len, bool rd,
                              uint8_t *desc_out)
{
    uint64_t slot = XR_ATQ + (uint64_t)r->atq_next * 32;
    uint8_t *d = xr_ptr(r, slot);
    uint16_t flags = 0;

    memset(d, 0, 32);
    if (buf) {
        flags = 0x1000 | (len > 512 ? 0x200 : 0) | (rd ? 0x400 : 0);
        memcpy(xr_ptr(r, XR_CMDBUF), buf, len);
        xr_put32(d + 24, (uint32_t)(XR_CMDBUF >> 32));
        xr_put32(d + 28, (uint32_t)XR_CMDBUF);
    }
    xr_put16(d, flags);
    xr_put16(d + 2, opcode);
    xr_put16(d + 4, buf ? len : 0);
    if (params) {
        memcpy(d + 16, params, buf ? 8 : 16);
    }
    r->atq_next = (r->atq_next + 1) % XR_AQ_LEN;
    xr_wr(r, X722_PF_ATQT, r->atq_next);
    x722_core_run_work(&r->core);
    if (buf) {
        memcpy(buf, xr_ptr(r, XR_CMDBUF), len);
    }
    if (desc_out) {
        memcpy(desc_out, d, 32);
    }
    return xr_get16(d + 6);
}

#endif /* X722_RIG_H */
