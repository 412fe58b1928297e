/* SPDX-License-Identifier: GPL-2.0-only */
/* State shared by verbs_abi.c (the positive loop) and verbs_abi_neg.c. */
#ifndef VERBS_ABI_H
#define VERBS_ABI_H

#include "vt.h"

/* The memory regions of one iteration: 4 KiB .. 256 MiB (level-2 PBLEs). */
#define VA_NR_MR 6

/* What the program learnt once: device, limits, GIDs, the MR buffers. */
struct va_env {
	struct ibv_context *ctx;
	struct ibv_device_attr dattr;
	struct ibv_port_attr pattr;
	int gid_index;			/* RoCEv2 GID of the local IPv4 */
	union ibv_gid dgid;		/* the peer's IPv4-mapped GID */
	unsigned int route_ttl;		/* hop limit of the route to it */
	void *buf[VA_NR_MR];
	size_t len[VA_NR_MR];
	size_t map_len[VA_NR_MR];
	int nr_mr;			/* MRs per iteration (-m) */
};

/*
 * EOPNOTSUPP from a verb the kernel does not implement yet is a skip on
 * first use (the program's first iteration), a failure afterwards.
 */
extern bool va_first_use;

/* Ends the program with a skip when err is EOPNOTSUPP on first use. */
void va_skip_if_unsupported(const char *verb, int err);

/* The negative cases; returns when done (failures are counted in vt). */
void va_negative(struct va_env *env);

#endif /* VERBS_ABI_H */
