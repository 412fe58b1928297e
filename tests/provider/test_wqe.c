// SPDX-License-Identifier: GPL-2.0-only
/*
 * SQ and RQ WQE encoding for every GEN_2 user opcode, compared qword by
 * qword with words built from the bit layout of
 * docs/hw-reference.md 5.2-5.4 (literal shifts).
 */
#include "prov_test.h"

static struct tqp T;

static int setup(void **state)
{
	(void)state;
	tqp_init(&T, 512, 64, 1, false);
	return 0;
}

static int setup_ud(void **state)
{
	(void)state;
	tqp_init(&T, 512, 64, 1, true);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tqp_fini(&T);
	return 0;
}

static const struct e810u_sge SG[4] = {
	{ .addr = 0x1000a000, .len = 100, .lkey = 0x11 },
	{ .addr = 0x2000b000, .len = 200, .lkey = 0x22 },
	{ .addr = 0x3000c000, .len = 300, .lkey = 0x33 },
	{ .addr = 0x4000d000, .len = 400, .lkey = 0x44 },
};

static void expect_words(uint32_t idx, const uint64_t *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		assert_int_equal(q64(sq_wqe(&T, idx), 8 * i), w[i]);
}

static void test_send_one_sge(void **state)
{
	struct e810u_swr wr = { .wr_id = 5, .op = 0x03, .signaled = true,
				.sg = SG, .num_sge = 1 };
	uint64_t w[4] = { 0x1000a000, F_DESC(0x11, 100, 1), 0,
			  F_OP(3) | F_SIGNALED | F_VALID };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(0, w, 4);
	assert_int_equal(T.qp.sq_head, 1);
	assert_int_equal(T.qp.sq_slots[0].wr_id, 5);
	assert_int_equal(T.qp.sq_slots[0].bytes, 100);
}

static void test_send_two_sges_padded(void **state)
{
	struct e810u_swr wr = { .op = 0x03, .sg = SG, .num_sge = 2 };
	/* even count: an empty fragment follows, counted in ADDFRAGCNT */
	uint64_t w[8] = { 0x1000a000, F_DESC(0x11, 100, 1), 0,
			  F_OP(3) | F_ADDFRAG(2) | F_VALID,
			  0x2000b000, F_DESC(0x22, 200, 1), 0, F_VALID };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(0, w, 8);
	assert_int_equal(T.qp.sq_slots[0].quanta, 2);
}

static void test_send_three_sges(void **state)
{
	struct e810u_swr wr = { .op = 0x03, .sg = SG, .num_sge = 3 };
	uint64_t w[8] = { 0x1000a000, F_DESC(0x11, 100, 1), 0,
			  F_OP(3) | F_ADDFRAG(2) | F_VALID,
			  0x2000b000, F_DESC(0x22, 200, 1),
			  0x3000c000, F_DESC(0x33, 300, 1) };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(0, w, 8);
	assert_int_equal(T.qp.sq_slots[0].bytes, 600);
}

static void test_send_imm(void **state)
{
	struct e810u_swr wr = { .op = 0x03, .has_imm = true, .imm = 0xcafe,
				.sg = SG, .num_sge = 1, .signaled = true };
	/* imm in qword 0, SGE 0 moves to off 32, pad fragment at off 48 */
	uint64_t w[8] = { 0xcafe, 0, 0,
			  F_OP(3) | F_ADDFRAG(2) | F_IMMFLAG | F_SIGNALED |
			  F_VALID,
			  0x1000a000, F_DESC(0x11, 100, 1), 0, F_VALID };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(0, w, 8);
}

static void test_send_imm_no_sge(void **state)
{
	struct e810u_swr wr = { .op = 0x03, .has_imm = true, .imm = 7 };
	uint64_t w[4] = { 7, 0, 0, F_OP(3) | F_IMMFLAG | F_VALID };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(0, w, 4);
	assert_int_equal(T.qp.sq_slots[0].quanta, 1);
}

static void test_send_zero_sge(void **state)
{
	struct e810u_swr wr = { .op = 0x03 };
	uint64_t w[4] = { 0, F_VALID, 0, F_OP(3) | F_VALID };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(0, w, 4);
}

static void test_send_inv_and_solicited(void **state)
{
	struct e810u_swr inv = { .op = 0x04, .inv_stag = 0xabcdef01,
				 .sg = SG, .num_sge = 1 };
	struct e810u_swr sol = { .op = 0x05, .sg = SG, .num_sge = 1 };
	struct e810u_swr solinv = { .op = 0x06, .inv_stag = 0x1234,
				    .sg = SG, .num_sge = 1 };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &inv), 0);
	assert_int_equal(e810u_post_send(&T.qp, &sol), 0);
	assert_int_equal(e810u_post_send(&T.qp, &solinv), 0);
	assert_int_equal(q64(sq_wqe(&T, 0), 24),
			 0xabcdef01 | F_OP(4) | F_VALID);
	assert_int_equal(q64(sq_wqe(&T, 1), 24), F_OP(5) | F_VALID);
	assert_int_equal(q64(sq_wqe(&T, 2), 24), 0x1234 | F_OP(6) | F_VALID);
}

static void test_rdma_write(void **state)
{
	struct e810u_swr wr = { .op = 0x00, .sg = SG, .num_sge = 1,
				.remote_addr = 0x7f0012345678, .rkey = 0x5566,
				.read_fence = true };
	uint64_t w[4] = { 0x1000a000, F_DESC(0x11, 100, 1), 0x7f0012345678,
			  0x5566 | F_OP(0) | F_READFENCE | F_VALID };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(0, w, 4);
}

static void test_rdma_write_imm_and_sol(void **state)
{
	struct e810u_swr wr = { .op = 0x00, .has_imm = true, .imm = 0x99,
				.sg = SG, .num_sge = 2, .remote_addr = 0x8000,
				.rkey = 0x77 };
	struct e810u_swr sol = { .op = 0x0d, .sg = SG, .num_sge = 1,
				 .remote_addr = 0x9000, .rkey = 0x78 };
	/* imm + 2 SGEs = 3 fragments: odd, no pad */
	uint64_t w[8] = { 0x99, 0, 0x8000,
			  0x77 | F_OP(0) | F_ADDFRAG(2) | F_IMMFLAG | F_VALID,
			  0x1000a000, F_DESC(0x11, 100, 1),
			  0x2000b000, F_DESC(0x22, 200, 1) };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(0, w, 8);
	assert_int_equal(e810u_post_send(&T.qp, &sol), 0);
	assert_int_equal(q64(sq_wqe(&T, 2), 24), 0x78 | F_OP(0xd) | F_VALID);
	assert_int_equal(q64(sq_wqe(&T, 2), 16), 0x9000);
}

static void test_rdma_read(void **state)
{
	struct e810u_swr wr = { .op = 0x01, .sg = SG, .num_sge = 4,
				.remote_addr = 0xdead0000, .rkey = 0xbeef,
				.signaled = true };
	/* 4 fragments: pad at off 80, ADDFRAGCNT 3 + 1, 3 quanta */
	uint64_t w[12] = { 0x1000a000, F_DESC(0x11, 100, 1), 0xdead0000,
			   0xbeef | F_OP(1) | F_ADDFRAG(4) | F_SIGNALED |
			   F_VALID,
			   0x2000b000, F_DESC(0x22, 200, 1),
			   0x3000c000, F_DESC(0x33, 300, 1),
			   0x4000d000, F_DESC(0x44, 400, 1), 0, F_VALID };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(0, w, 12);
	assert_int_equal(T.qp.sq_slots[0].quanta, 3);
	assert_int_equal(T.qp.sq_head, 3);
}

static void test_local_inv(void **state)
{
	struct e810u_swr wr = { .op = 0x0a, .inv_stag = 0x4321,
				.signaled = true };
	/* qword 1 holds the STag with the valid bit clear */
	uint64_t w[4] = { 0, 0x4321, 0, F_OP(0xa) | F_SIGNALED | F_VALID };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(0, w, 4);
}

static void test_bind_mw(void **state)
{
	/* type 1, VA-based, remote read and write */
	struct e810u_swr t1 = { .op = 0x08, .signaled = true,
				.remote_addr = 0x7f0012345000, .rkey = 0x12345601,
				.bind_mr_stag = 0xabcdef02, .bind_len = 0x1000000,
				.bind_rights = 0x04 | 0x08, .bind_type1 = true };
	uint64_t w1[4] = { 0x7f0012345000,
			   (uint64_t)0xabcdef02 << 32 | 0x12345601, 0x1000000,
			   F_OP(8) | (uint64_t)0xc << 48 | 1ull << 53 |
			   1ull << 54 | F_SIGNALED | F_VALID };
	/* type 2, zero-based (the VA is not sent), write only */
	struct e810u_swr t2 = { .op = 0x08, .remote_addr = 0x5000,
				.rkey = 0x777777aa, .bind_mr_stag = 0x100,
				.bind_len = 4096, .bind_rights = 0x08 | 0x02,
				.bind_zero_based = true };
	uint64_t w2[4] = { 0, (uint64_t)0x100 << 32 | 0x777777aa, 4096,
			   F_OP(8) | (uint64_t)0x8 << 48 | F_VALID };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &t1), 0);
	expect_words(0, w1, 4);
	assert_int_equal(T.qp.sq_slots[0].quanta, 1);
	assert_int_equal(T.qp.sq_slots[0].bytes, 0);
	assert_int_equal(e810u_post_send(&T.qp, &t2), 0);
	expect_words(1, w2, 4);
}

static void test_ud_send(void **state)
{
	struct e810u_swr wr = { .op = 0x03, .sg = SG, .num_sge = 1,
				.ah_id = 0x1abcd, .dest_qpn = 0x123456,
				.qkey = 0x11111111, .signaled = true };
	uint64_t w[4] = { 0x1000a000, F_DESC(0x11, 100, 1),
			  0x11111111 | (uint64_t)0x123456 << 32,
			  0x1abcd | F_OP(3) | F_SIGNALED | F_VALID };
	struct e810u_swr wr_write = { .op = 0x00, .sg = SG, .num_sge = 1 };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(0, w, 4);
	/* UD carries sends only */
	assert_int_equal(e810u_post_send(&T.qp, &wr_write), -EINVAL);
	wr_write.op = 0x08;	/* nor binds */
	wr_write.num_sge = 0;
	assert_int_equal(e810u_post_send(&T.qp, &wr_write), -EINVAL);
}

static void test_inline_short(void **state)
{
	static const char msg[5] = "hello";
	struct e810u_sge s = { .addr = (uintptr_t)msg, .len = 5 };
	struct e810u_swr wr = { .op = 0x03, .inline_data = true, .sg = &s,
				.num_sge = 1 };
	uint64_t q1 = 0;

	(void)state;
	memcpy(&q1, msg, 5);
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	assert_int_equal(q64(sq_wqe(&T, 0), 8), le64toh(q1));
	assert_int_equal(q64(sq_wqe(&T, 0), 24),
			 F_OP(3) | F_INLFLAG | F_INLLEN(5) | F_VALID);
	assert_int_equal(T.qp.sq_slots[0].quanta, 1);
}

static void test_inline_multi_quanta(void **state)
{
	uint8_t a[25], b[15], expect[40];
	struct e810u_sge s[2] = { { .addr = (uintptr_t)a, .len = 25 },
				  { .addr = (uintptr_t)b, .len = 15 } };
	struct e810u_swr wr = { .op = 0x00, .inline_data = true, .sg = s,
				.num_sge = 2, .remote_addr = 0x5000,
				.rkey = 9, .has_imm = true, .imm = 0x42 };
	uint8_t *w = sq_wqe(&T, 0);
	unsigned int i;

	(void)state;
	for (i = 0; i < 25; i++)
		a[i] = expect[i] = i + 1;
	for (i = 0; i < 15; i++)
		b[i] = expect[25 + i] = 0x80 + i;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	/* 40 bytes: 8 in qword 1, 31 in quantum 1, 1 in quantum 2 */
	assert_int_equal(T.qp.sq_slots[0].quanta, 3);
	assert_memory_equal(w + 8, expect, 8);
	assert_memory_equal(w + 32, expect + 8, 31);
	assert_int_equal(w[63], 0x80);		/* inline-valid byte */
	assert_int_equal(w[64], expect[39]);
	assert_int_equal(w[95], 0x80);
	assert_int_equal(q64(w, 0), 0x42);
	assert_int_equal(q64(w, 16), 0x5000);
	assert_int_equal(q64(w, 24), 9 | F_OP(0) | F_IMMFLAG | F_INLFLAG |
				     F_INLLEN(40) | F_VALID);
}

static void test_invalid_requests(void **state)
{
	uint8_t big[102] = { 0 };
	struct e810u_sge s = { .addr = (uintptr_t)big, .len = sizeof(big) };
	struct e810u_swr too_long = { .op = 0x03, .inline_data = true,
				      .sg = &s, .num_sge = 1 };
	struct e810u_swr read_imm = { .op = 0x01, .has_imm = true };
	struct e810u_swr bad_op = { .op = 0x09 };
	struct e810u_sge many[14] = { { 0 } };
	struct e810u_swr too_many = { .op = 0x03, .sg = many, .num_sge = 14 };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &too_long), -EINVAL);
	assert_int_equal(e810u_post_send(&T.qp, &read_imm), -EINVAL);
	assert_int_equal(e810u_post_send(&T.qp, &bad_op), -EINVAL);
	assert_int_equal(e810u_post_send(&T.qp, &too_many), -EINVAL);
	assert_int_equal(T.qp.sq_head, 0);
	assert_int_equal(T.qp.unrung, 0);
}

static void test_recv_wqe(void **state)
{
	uint8_t *w;

	(void)state;
	/* rq_shift 1: 64-byte RQ WQEs */
	assert_int_equal(e810u_post_recv(&T.qp, 0x77, SG, 2), 0);
	assert_int_equal(e810u_post_recv(&T.qp, 0x78, SG, 1), 0);
	w = T.qp.rq;
	assert_int_equal(q64(w, 0), 0x1000a000);
	assert_int_equal(q64(w, 8), F_DESC(0x11, 100, 1));
	assert_int_equal(q64(w, 16), 0);
	assert_int_equal(q64(w, 24), F_ADDFRAG(2) | F_VALID);	/* no opcode */
	assert_int_equal(q64(w, 32), 0x2000b000);
	assert_int_equal(q64(w, 40), F_DESC(0x22, 200, 1));
	assert_int_equal(q64(w, 56), F_VALID);
	assert_int_equal(q64(w + 64, 24), F_VALID);
	assert_int_equal(T.qp.rq_wrid[0], 0x77);
	assert_int_equal(T.qp.rq_wrid[1], 0x78);
	/* 4 SGEs need 3 quanta: more than a 64-byte WQE holds */
	assert_int_equal(e810u_post_recv(&T.qp, 1, SG, 4), -EINVAL);
}

static void test_recv_full_and_polarity(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < 63; i++)
		assert_int_equal(e810u_post_recv(&T.qp, i, SG, 1), 0);
	assert_int_equal(e810u_post_recv(&T.qp, 99, SG, 1), -ENOMEM);
	/* consume everything, the next lap writes valid bit 0 */
	T.qp.rq_tail = T.qp.rq_head;
	assert_int_equal(e810u_post_recv(&T.qp, 100, SG, 1), 0);
	assert_int_equal(e810u_post_recv(&T.qp, 101, SG, 1), 0);
	assert_int_equal(q64(T.qp.rq + 63 * 64, 24) >> 63, 1);
	assert_int_equal(q64(T.qp.rq, 24) >> 63, 0);
	assert_int_equal(q64(T.qp.rq, 8) >> 63, 0);
}

/* Ring sizes of one capability set, as e810u_wq_sizes() gives them. */
static int sizes(const struct e810_wq_geom *g, uint32_t swr, uint32_t ssge,
		 uint32_t inl, uint32_t rwr, uint32_t rsge, bool exact,
		 struct e810u_wq_sizes *s)
{
	const struct e810u_wq_caps c = {
		.max_send_wr = swr, .max_send_sge = ssge, .max_inline = inl,
		.max_recv_wr = rwr, .max_recv_sge = rsge,
	};

	return e810u_wq_sizes(g, &c, g->min_wq_quanta, g->max_wq_quanta,
			      g->max_wq_quanta, exact, s);
}

static void test_geometry(void **state)
{
	const struct e810_wq_geom *g = e810u_geom(E810_GEN_2);
	struct e810u_wq_sizes s;

	(void)state;
	/*
	 * The generations the layer has a table entry for: GEN_2 and GEN_1
	 * (the latter's rules are tests/unit's test_gen1_geometry).
	 */
	assert_non_null(g);
	assert_non_null(e810u_geom(E810_GEN_1));
	assert_int_equal(e810u_geom(E810_GEN_1)->gen, E810_GEN_1);
	assert_null(e810u_geom(200));
	/*
	 * The kernel (irdma_qp_sizes(), irdma_query_device(), the
	 * ucontext response, CQ creation) and the provider (qp_geometry(),
	 * its CQ rings) size rings only through these calls on this entry.
	 * Expected values written out from upstream's GEN_2 rules
	 * (irdma_get_sqdepth(), IRDMA_MAX_QP_WRS(), irdma_ucreate_cq(),
	 * icrdma_init_hw()).
	 */
	assert_int_equal(g->min_wq_quanta, 8);
	assert_int_equal(g->max_wq_quanta, 32768);
	assert_int_equal(g->chunk_quanta, 8);
	assert_int_equal(g->max_frags, 13);
	assert_int_equal(g->max_inline, 101);
	assert_int_equal(g->max_cq_entries, 1048575);
	assert_int_equal(e810u_max_qp_wr(g), 4063);
	/* 10 WRs of 64 B (2 SGEs + the immediate) + 258 reserved -> 512 */
	assert_int_equal(sizes(g, 10, 2, 0, 1, 1, false, &s), 0);
	assert_int_equal(s.sq_shift, 1);
	assert_int_equal(s.sq_depth, 512);
	assert_int_equal(s.max_send_wr, (512 - 258) / 2);
	/* 1 RQ WR of 32 B: the minimum of 8 WQEs */
	assert_int_equal(s.rq_shift, 0);
	assert_int_equal(s.rq_depth, 8);
	assert_int_equal(s.max_recv_wr, 7);
	/* 100 RQ WRs of 4 SGEs (128 B) + 1 -> 512 quanta */
	assert_int_equal(sizes(g, 1, 0, 0, 100, 4, false, &s), 0);
	assert_int_equal(s.rq_shift, 2);
	assert_int_equal(s.rq_depth, 512);
	assert_int_equal(s.max_recv_wr, 127);
	/* inline data sizes the SQ WQE as well: 40 bytes take 128 B */
	assert_int_equal(sizes(g, 1, 0, 40, 1, 1, false, &s), 0);
	assert_int_equal(s.sq_shift, 2);
	/* max_qp_wr WQEs of 256 B are the largest SQ */
	assert_int_equal(sizes(g, 4063, 13, 0, 1, 1, false, &s), 0);
	assert_int_equal(s.sq_depth, 32768);
	assert_int_equal(s.max_send_wr, 4063);
	assert_int_equal(sizes(g, 4064, 13, 0, 1, 1, false, &s), -EINVAL);
	assert_int_equal(sizes(g, 32768, 13, 0, 1, 1, false, &s), -EINVAL);
	/*
	 * counts whose rounded depth passes 2^31 quanta (pyverbs'
	 * test_create_raw_qp_ex_with_illegal_caps_*: 0xffffffff) are
	 * refused, not taken for the minimum ring
	 */
	assert_int_equal(sizes(g, 0xffffffff, 1, 0, 1, 1, false, &s), -EINVAL);
	assert_int_equal(sizes(g, 1, 1, 0, 0xffffffff, 1, false, &s), -EINVAL);
	assert_int_equal(sizes(g, 0x80000000, 0, 0, 1, 1, false, &s), -EINVAL);
	/* beyond the WQE format */
	assert_int_equal(sizes(g, 1, 14, 0, 1, 1, false, &s), -EINVAL);
	assert_int_equal(sizes(g, 1, 1, 0, 1, 14, false, &s), -EINVAL);
	assert_int_equal(sizes(g, 1, 1, 102, 1, 1, false, &s), -EINVAL);
	/* without raw attributes: WQEs of the shift, a power of two */
	assert_int_equal(sizes(g, 64, 0, 0, 16, 1, true, &s), 0);
	assert_int_equal(s.sq_depth, 64);
	assert_int_equal(s.rq_depth, 16);
	assert_int_equal(sizes(g, 48, 0, 0, 16, 1, true, &s), -EINVAL);
	/* CQ rings: two slots a CQE, at least 4 entries */
	assert_int_equal(e810u_cq_entries(g, 1), 4);
	assert_int_equal(e810u_cq_entries(g, 100), 202);
	assert_int_equal(e810u_cq_entries(g, 1048574), 2097150);
}

#define T_(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
#define TUD(fn) cmocka_unit_test_setup_teardown(fn, setup_ud, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_(test_send_one_sge),
		T_(test_send_two_sges_padded),
		T_(test_send_three_sges),
		T_(test_send_imm),
		T_(test_send_imm_no_sge),
		T_(test_send_zero_sge),
		T_(test_send_inv_and_solicited),
		T_(test_rdma_write),
		T_(test_rdma_write_imm_and_sol),
		T_(test_rdma_read),
		T_(test_local_inv),
		T_(test_bind_mw),
		TUD(test_ud_send),
		T_(test_inline_short),
		T_(test_inline_multi_quanta),
		T_(test_invalid_requests),
		T_(test_recv_wqe),
		T_(test_recv_full_and_polarity),
		cmocka_unit_test(test_geometry),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("provider_wqe", tests, NULL, NULL);
}
