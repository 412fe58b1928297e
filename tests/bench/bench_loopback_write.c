/*
 * Loopback RDMA WRITE throughput of the device model, as a ratio to host
 * memcpy() measured in the same run (issue 7).
 *
 * One device, two RC QPs connected to each other through the device's own
 * MAC (the ARP entry names it), so every packet goes through the whole
 * transport: SQ WQE fetch, gather by DMA, segmentation at the path MTU,
 * loopback to our own receive path, header validation, rkey checks and
 * the DMA write, ACKs, CQEs. The clock is never moved: no loss, no timers.
 *
 * Usage: bench_loopback_write [message bytes] [total MiB] [mtu]
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "dp_driver.h"
#include "e810_xport.h"

#define BUF_BYTES   (32u << 20)
#define OWN_ARP     2

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t mac_u64(const uint8_t *m)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < 6; i++) {
        v = v << 8 | m[i];
    }
    return v;
}

static void ctx_rmw(DpQp *qp, unsigned off, uint64_t mask, uint64_t val)
{
    uint64_t *c = &dp_qp_ctx(qp)[E810_QW(off)];

    *c = htole64((le64toh(*c) & ~mask) | (val & mask));
}

static void connect(DpQp *a, DpQp *b, uint32_t mtu, const uint8_t *mac)
{
    ctx_rmw(a, E810_QPC_MSS_OFF, E810_QPC_SNDMSS | E810_QPC_ARPIDX,
            FIELD_PREP(E810_QPC_SNDMSS, mtu) |
            FIELD_PREP(E810_QPC_ARPIDX, OWN_ARP));
    ctx_rmw(a, E810_QPC_DEST_OFF, E810_QPC_DESTQP,
            FIELD_PREP(E810_QPC_DESTQP, b->id));
    ctx_rmw(a, E810_QPC_MAC_OFF, E810_QPC_MACADDRESS,
            FIELD_PREP(E810_QPC_MACADDRESS, mac_u64(mac)));
    dp_qp_rts(a);
}

static uint32_t reg(DpDev *dev, uint64_t pa, uint64_t len)
{
    unsigned n = len / 4096, i;
    uint64_t *pages = malloc(n * sizeof(*pages));
    uint32_t key;

    for (i = 0; i < n; i++) {
        pages[i] = pa + 4096ull * i;
    }
    key = dp_mr_reg(dev, DP_PD, pa, pages, n, len,
                    E810_ACCESS_LOCAL_READ | E810_ACCESS_LOCAL_WRITE |
                    E810_ACCESS_REMOTE_WRITE, E810_LPBL_LEVEL2);
    free(pages);
    return key;
}

int main(int argc, char **argv)
{
    uint32_t msg = argc > 1 ? strtoul(argv[1], NULL, 0) : 1u << 20;
    uint64_t total = (argc > 2 ? strtoull(argv[2], NULL, 0) : 512) << 20;
    uint32_t mtu = argc > 3 ? strtoul(argv[3], NULL, 0) : 4096;
    Harness *h = harness_new(0);
    uint64_t src, dst, done = 0, sent = 0;
    uint32_t skey, dkey;
    double t0, t_model, t_copy;
    uint8_t *copy_src, *copy_dst;
    unsigned long pkts;
    DpDev dev;
    DpCq cq;
    DpQp a, b;
    DpCqe e;
    uint64_t q[8] = { 0 };

    if (!h || msg == 0 || msg > BUF_BYTES || total < msg) {
        fprintf(stderr, "usage: %s [msg bytes <= 32 MiB] [total MiB] "
                "[mtu]\n", argv[0]);
        return 2;
    }
    harness_xmem_init(h, 2ull * BUF_BYTES);
    dp_dev_init(&dev, h);
    h->core.aq.pe_filter = true;
    q[E810_QW(E810_CQPSQ_MAT_MAC_OFF)] =
        FIELD_PREP(E810_CQPSQ_MAT_MACADDR, mac_u64(h->core.mac));
    rd_do(&dev.d, E810_CQP_OP_MANAGE_ARP,
          FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, OWN_ARP) |
          E810_CQPSQ_MAT_ENTRYVALID, q);
    dp_cq_create(&dev, &cq, 1024);
    dp_qp_create(&dev, &a, E810_QP_TYPE_ROCE_RC, &cq, &cq, 1024, 64, 1,
                 false, false);
    dp_qp_create(&dev, &b, E810_QP_TYPE_ROCE_RC, &cq, &cq, 1024, 64, 1,
                 false, false);
    connect(&a, &b, mtu, h->core.mac);
    connect(&b, &a, mtu, h->core.mac);
    src = harness_xmem_alloc(h, BUF_BYTES);
    dst = harness_xmem_alloc(h, BUF_BYTES);
    skey = reg(&dev, src, BUF_BYTES);
    dkey = reg(&dev, dst, BUF_BYTES);
    memset(mem_ptr(h, src), 0x5a, BUF_BYTES);
    /*
     * Fault the sink in before either timing: the memcpy run below
     * finds it resident, so the model's first pass must too.
     */
    memset(mem_ptr(h, dst), 0, BUF_BYTES);

    t0 = now_s();
    while (done < total) {
        /* Keep up to 64 WRITEs posted; the SQ has room for them. */
        while (sent < total && sent - done < 64ull * msg) {
            DpSend s;

            memset(&s, 0, sizeof(s));
            s.op = E810_OP_RDMA_WRITE;
            s.signaled = true;
            s.nsge = 1;
            s.sge[0].addr = src + (sent % BUF_BYTES / msg) * msg;
            s.sge[0].len = msg;
            s.sge[0].lkey = skey;
            s.remote_va = dst + (sent % BUF_BYTES / msg) * msg;
            s.rkey = dkey;
            dp_post_send(&a, &s);
            sent += msg;
        }
        dp_ring(&a, false);
        while (h->core.work_pending) {
            harness_run_work(h);
        }
        while (dp_poll_cq(&cq, &e)) {
            if (e.error) {
                fprintf(stderr, "WRITE failed: major %u minor %u\n",
                        e.major, e.minor);
                return 1;
            }
            done += msg;
        }
    }
    t_model = now_s() - t0;
    if (memcmp(mem_ptr(h, src), mem_ptr(h, dst), msg)) {
        fprintf(stderr, "payload mismatch\n");
        return 1;
    }
    pkts = h->core.xport->stats.tx_packets;

    copy_src = mem_ptr(h, src);
    copy_dst = mem_ptr(h, dst);
    t0 = now_s();
    for (sent = 0; sent < total; sent += msg) {
        uint64_t off = (sent % BUF_BYTES / msg) * msg;

        memcpy(copy_dst + off, copy_src + off, msg);
    }
    t_copy = now_s() - t0;
    if (copy_dst[msg / 2] != 0x5a) {
        return 1;
    }
    printf("bench_loopback_write: %u-byte WRITEs, MTU %u, %llu MiB, "
           "%lu packets\n", msg, mtu, (unsigned long long)(total >> 20),
           pkts);
    printf("  model  %8.1f MB/s (%.3f s)\n", total / t_model / 1e6, t_model);
    printf("  memcpy %8.1f MB/s (%.3f s)\n", total / t_copy / 1e6, t_copy);
    printf("  ratio  %.3f\n", t_copy / t_model);
    harness_free(h);
    return 0;
}
