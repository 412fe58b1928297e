/*
 * RDMA throughput of the device model as a ratio to host memcpy()
 * measured in the same run, shared by the bench_*.c programs.
 *
 * Two RC QPs, either on one device talking through its own MAC (the ARP
 * entry names it: loopback) or on two devices joined by a synchronous
 * wire, each frame handed to the peer from inside the transmit as a QEMU
 * hub does (wire_sync). Every packet goes through the whole transport:
 * SQ WQE fetch, gather, segmentation at the path MTU, the receive path
 * (header validation, the ICRC on the wire), rkey checks and the DMA
 * write, ACKs, CQEs. The clock is never moved: no loss, no timers.
 *
 * Static functions in a header: each bench program is one source file
 * linked with the unit tests' harness (Makefile).
 *
 * Usage of each program: [message bytes] [MiB per round] [mtu]
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdio.h>
#include <time.h>

#include "b2b.h"

#define BENCH_BUF_BYTES (32u << 20)
/* Model then memcpy, this many times over; the best of each counts. */
#define BENCH_ROUNDS    5
/* WQEs kept posted; the SQ and the transport's window take them. */
#define BENCH_DEPTH     64

static double bench_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* @len bytes at @pa, registered through a level-2 PBL of 4 KiB pages. */
static uint32_t bench_reg(DpDev *dev, uint64_t pa, uint64_t len)
{
    unsigned n = len / 4096, i;
    uint64_t *pages = malloc(n * sizeof(*pages));
    uint32_t key;

    for (i = 0; i < n; i++) {
        pages[i] = pa + 4096ull * i;
    }
    key = dp_mr_reg(dev, DP_PD, pa, pages, n, len, B2B_ALL_RIGHTS,
                    E810_LPBL_LEVEL2);
    free(pages);
    return key;
}

/*
 * @op (E810_OP_RDMA_WRITE or E810_OP_RDMA_READ) from a QP on device 0 to
 * one on device 0 (!@wire: loopback) or device 1; prints the model's and
 * memcpy's throughput and their ratio under @name.
 */
static int bench_main(int argc, char **argv, const char *name, unsigned op,
                      bool wire)
{
    uint32_t msg = argc > 1 ? strtoul(argv[1], NULL, 0) : 1u << 20;
    uint64_t total = (argc > 2 ? strtoull(argv[2], NULL, 0) : 512) << 20;
    uint32_t mtu = argc > 3 ? strtoul(argv[3], NULL, 0) : 4096;
    bool read = op == E810_OP_RDMA_READ;
    unsigned rs = wire ? 1 : 0;         /* the responder's device */
    uint64_t src, dst, done = 0, sent = 0;
    uint32_t skey, dkey;
    double t0, t_model[BENCH_ROUNDS], t_copy[BENCH_ROUNDS];
    double best_model, best_copy;
    uint64_t n;
    unsigned r;
    uint8_t *copy_src, *copy_dst;
    unsigned long pkts;
    B2B *b;
    DpCq cq[2];
    DpQp a, c;
    DpCqe e;

    if (msg == 0 || msg > BENCH_BUF_BYTES || total < msg) {
        fprintf(stderr, "usage: %s [msg bytes <= 32 MiB] [total MiB] "
                "[mtu]\n", argv[0]);
        return 2;
    }
    b = b2b_new(2ull * BENCH_BUF_BYTES);
    b->h[0]->wire_sync = b->h[1]->wire_sync = true;
    dp_cq_create(&b->dev[0], &cq[0], 1024);
    if (wire) {
        dp_cq_create(&b->dev[1], &cq[1], 1024);
    }
    dp_qp_create(&b->dev[0], &a, E810_QP_TYPE_ROCE_RC, &cq[0], &cq[0], 1024,
                 64, 1, false, false);
    dp_qp_create(&b->dev[rs], &c, E810_QP_TYPE_ROCE_RC, &cq[rs], &cq[rs],
                 1024, 64, 1, false, false);
    b2b_connect(b, &a, &c, mtu);
    /* The data flows from src to dst: requester to responder for a
     * WRITE, the other way for a READ. */
    src = harness_xmem_alloc(b->h[read ? rs : 0], BENCH_BUF_BYTES);
    dst = harness_xmem_alloc(b->h[read ? 0 : rs], BENCH_BUF_BYTES);
    skey = bench_reg(&b->dev[read ? rs : 0], src, BENCH_BUF_BYTES);
    dkey = bench_reg(&b->dev[read ? 0 : rs], dst, BENCH_BUF_BYTES);
    copy_src = mem_ptr(b->h[read ? rs : 0], src);
    copy_dst = mem_ptr(b->h[read ? 0 : rs], dst);
    memset(copy_src, 0x5a, BENCH_BUF_BYTES);
    /*
     * Fault the sink in before either timing: the memcpy run below
     * finds it resident, so the model's first pass must too.
     */
    memset(copy_dst, 0, BENCH_BUF_BYTES);

    for (r = 0; r < BENCH_ROUNDS; r++) {
        t0 = bench_now();
        while (done < total * (r + 1)) {
            while (sent < total * (r + 1) &&
                   sent - done < BENCH_DEPTH * (uint64_t)msg) {
                uint64_t off = (sent % BENCH_BUF_BYTES / msg) * msg;
                DpSend s;

                memset(&s, 0, sizeof(s));
                s.op = op;
                s.signaled = true;
                s.nsge = 1;
                s.sge[0].addr = (read ? dst : src) + off;
                s.sge[0].len = msg;
                s.sge[0].lkey = read ? dkey : skey;
                s.remote_va = (read ? src : dst) + off;
                s.rkey = read ? skey : dkey;
                dp_post_send(&a, &s);
                sent += msg;
            }
            dp_ring(&a, false);
            while (b2b_step(b)) {
            }
            while (dp_poll_cq(&cq[0], &e)) {
                if (e.error) {
                    fprintf(stderr, "%s failed: major %u minor %u\n", name,
                            e.major, e.minor);
                    return 1;
                }
                done += msg;
            }
        }
        t_model[r] = bench_now() - t0;
        if (memcmp(copy_src, copy_dst, msg)) {
            fprintf(stderr, "%s: payload mismatch\n", name);
            return 1;
        }

        t0 = bench_now();
        for (n = 0; n < total; n += msg) {
            uint64_t off = (n % BENCH_BUF_BYTES / msg) * msg;

            memcpy(copy_dst + off, copy_src + off, msg);
        }
        t_copy[r] = bench_now() - t0;
        if (copy_dst[msg / 2] != 0x5a) {
            return 1;
        }
    }
    pkts = b->h[0]->core.xport->stats.tx_packets +
           (wire ? b->h[1]->core.xport->stats.tx_packets : 0);
    /*
     * The host is shared: the best of each is what the code can do, the
     * ratios of the rounds show how much the neighbours took.
     */
    best_model = t_model[0];
    best_copy = t_copy[0];
    for (r = 1; r < BENCH_ROUNDS; r++) {
        best_model = t_model[r] < best_model ? t_model[r] : best_model;
        best_copy = t_copy[r] < best_copy ? t_copy[r] : best_copy;
    }
    printf("%s: %u-byte %s, MTU %u, %llu MiB x %u rounds, %lu packets\n",
           name, msg, read ? "READs" : "WRITEs", mtu,
           (unsigned long long)(total >> 20), BENCH_ROUNDS, pkts);
    printf("  model  %8.1f MB/s (%.3f s, best round)\n",
           total / best_model / 1e6, best_model);
    printf("  memcpy %8.1f MB/s (%.3f s, best round)\n",
           total / best_copy / 1e6, best_copy);
    printf("  ratio  %.3f (rounds:", best_copy / best_model);
    for (r = 0; r < BENCH_ROUNDS; r++) {
        printf(" %.3f", t_copy[r] / t_model[r]);
    }
    printf(")\n");
    b2b_free(b);
    return 0;
}

#endif /* BENCH_H */
