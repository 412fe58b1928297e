/*
 * Loopback RDMA WRITE throughput of the device model, as a ratio to host
 * memcpy() measured in the same run (bench.h): one device, two RC QPs
 * connected to each other through the device's own MAC.
 *
 * Usage: bench_loopback_write [message bytes] [MiB per round] [mtu]
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "bench.h"

int main(int argc, char **argv)
{
    return bench_main(argc, argv, "bench_loopback_write", E810_OP_RDMA_WRITE,
                      false);
}
