/*
 * RDMA WRITE throughput between two device models on a synchronous wire
 * (each frame handed to the peer from inside the transmit, as a QEMU hub
 * does), as a ratio to host memcpy() measured in the same run (bench.h).
 * Every frame carries its ICRC, computed by the sender and checked by the
 * receiver.
 *
 * Usage: bench_wire_write [message bytes] [MiB per round] [mtu]
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "bench.h"

int main(int argc, char **argv)
{
    return bench_main(argc, argv, "bench_wire_write", E810_OP_RDMA_WRITE,
                      true);
}
