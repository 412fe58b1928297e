/*
 * Loopback RDMA READ throughput of the device model, as a ratio to host
 * memcpy() measured in the same run (bench.h): the READ responses go
 * through the device's own MAC back to the requester.
 *
 * Usage: bench_loopback_read [message bytes] [MiB per round] [mtu]
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "bench.h"

int main(int argc, char **argv)
{
    return bench_main(argc, argv, "bench_loopback_read", E810_OP_RDMA_READ,
                      false);
}
