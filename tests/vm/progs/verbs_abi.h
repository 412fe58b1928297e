/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared by verbs_abi.c (main, loop, hold), verbs_abi_set.c and verbs_abi_neg.c. */
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

/* The values one iteration sets, to compare with what comes back. */
struct va_want {
	struct ibv_qp_cap rc_cap, ud_cap;
	int scq_cqe, rcq_cqe;
	enum ibv_mtu mtu;
	uint32_t dqpn, rq_psn, sq_psn;
	uint8_t timeout, retry_cnt, rnr_retry, min_rnr_timer;
	uint8_t max_rd_atomic, max_dest_rd_atomic;
	uint8_t hop_limit, tclass;
	uint32_t ud_qkey, ud_sq_psn;
	uint8_t ah_hop[2], ah_tclass[2];
};

/* The objects of one iteration. */
struct va_set {
	struct ibv_pd *pd;
	struct ibv_cq *scq, *rcq;
	struct ibv_qp *rc, *ud;
	struct ibv_mr *mr[VA_NR_MR];
	struct ibv_ah *ah[2];
	struct va_want w;
};

/*
 * EOPNOTSUPP from a verb the kernel does not implement yet is a skip on
 * first use (the program's first iteration), a failure afterwards.
 */
extern bool va_first_use;

/* Ends the program with a skip when err is EOPNOTSUPP on first use. */
void va_skip_if_unsupported(const char *verb, int err);

/*
 * verbs_abi_set.c: one iteration's objects. va_build() creates them with
 * the values of iteration iter, brings both QPs to RTS and checks every
 * attribute; it returns whether all objects exist at RTS (failed checks
 * are only counted). va_destroy() destroys what exists, in reverse order,
 * and returns whether every destroy succeeded.
 */
bool va_build(struct va_env *env, unsigned int iter, struct va_set *s);
bool va_destroy(struct va_set *s);

/* The negative cases; returns when done (failures are counted in vt). */
void va_negative(struct va_env *env);

void va_data(struct va_env *env);

#endif /* VERBS_ABI_H */
