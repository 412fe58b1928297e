/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared helpers of the provider ring-layer tests: a QP and a CQ on plain
 * host memory, and WQE/CQE words built from the bit positions of
 * docs/hw-reference.md chapter 5 with literal shifts, not with
 * the e810_uk.h masks under test.
 */
#ifndef PROV_TEST_H
#define PROV_TEST_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ring.h"

/* Facts 5.2 header bits. */
#define F_OP(o)		((uint64_t)(o) << 32)
#define F_ADDFRAG(n)	((uint64_t)(n) << 38)
#define F_IMMFLAG	(1ull << 47)
#define F_INLLEN(n)	((uint64_t)(n) << 48)
#define F_INLFLAG	(1ull << 57)
#define F_READFENCE	(1ull << 60)
#define F_SIGNALED	(1ull << 62)
#define F_VALID		(1ull << 63)
#define F_DESC(lkey, len, pol) \
	((uint64_t)(lkey) | (uint64_t)(len) << 32 | (uint64_t)(pol) << 63)

struct tqp {
	struct e810u_qp qp;
	uint32_t db;		/* doorbell register stand-in */
};

static inline void tqp_init(struct tqp *t, uint32_t sq_quanta,
			    uint32_t rq_size, unsigned int rq_shift, bool ud)
{
	memset(t, 0, sizeof(*t));
	t->qp.sq = aligned_alloc(4096, (size_t)sq_quanta * 32);
	memset(t->qp.sq, 0, (size_t)sq_quanta * 32);
	t->qp.sq_quanta = sq_quanta;
	t->qp.sq_slots = calloc(sq_quanta, sizeof(*t->qp.sq_slots));
	t->qp.rq = calloc(rq_size, 32u << rq_shift);
	t->qp.rq_size = rq_size;
	t->qp.rq_shift = rq_shift;
	t->qp.rq_wrid = calloc(rq_size, sizeof(uint64_t));
	t->qp.max_sq_frags = 13;
	t->qp.max_rq_frags = 13;
	t->qp.max_inline = 101;
	t->qp.qp_id = 0x2a;
	t->qp.ud = ud;
	t->qp.sq_db = &t->db;
	e810u_qp_reset(&t->qp);
}

static inline void tqp_fini(struct tqp *t)
{
	free(t->qp.sq);
	free(t->qp.sq_slots);
	free(t->qp.rq);
	free(t->qp.rq_wrid);
}

static inline uint64_t q64(const void *base, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)base + off, 8);
	return le64toh(v);
}

static inline uint8_t *sq_wqe(struct tqp *t, uint32_t idx)
{
	return t->qp.sq + (size_t)idx * 32;
}

struct tcq {
	struct e810u_cq cq;
	uint64_t shadow[8];
	uint32_t arm_db;
};

static inline void tcq_init(struct tcq *t, uint32_t size)
{
	memset(t, 0, sizeof(*t));
	t->cq.ring.buf = calloc(size, 32);
	t->cq.ring.size = size;
	t->cq.ring.pol = 1;
	t->cq.shadow = t->shadow;
	t->cq.arm_db = &t->arm_db;
	t->cq.cq_id = 7;
}

static inline void tcq_fini(struct tcq *t)
{
	free(t->cq.ring.buf);
}

/* Writes a CQE the way the device would (hw-reference 5.6). */
static inline void put_cqe(uint8_t *ring, uint32_t idx, uint64_t qw0,
			   void *ctx, uint64_t qw2, uint64_t hdr)
{
	uint64_t w[4] = { htole64(qw0), htole64((uintptr_t)ctx), htole64(qw2),
			  htole64(hdr) };

	memcpy(ring + (size_t)idx * 32, w, 32);
}

#define C_WQEIDX(i)	((uint64_t)(i) << 32)
#define C_MAJ(m)	((uint64_t)(m) << 16)
#define C_EXT		(1ull << 50)
#define C_ERROR		(1ull << 55)
#define C_OP(o)		((uint64_t)(o) << 56)
#define C_SQ		(1ull << 62)
#define C_VALID(p)	((uint64_t)(p) << 63)

#endif /* PROV_TEST_H */
