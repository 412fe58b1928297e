// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring layer on GEN_1 (X722) as the provider drives it: WQE words
 * compared qword by qword with words built from upstream's GEN_1 layout
 * (rdma-core providers/irdma uk.c: irdma_set_fragment_gen_1(),
 * irdma_copy_inline_data_gen_1(), irdma_set_mw_bind_wqe_gen_1(), the
 * GEN_1 branch of irdma_qp_get_next_send_wqe(); i40iw_hw.h limits) with
 * literal shifts, the ring sizes, and the CQ buffer layout without the CQ
 * resize feature (uverbs.c ucreate_cq()). Each test also fails if GEN_2's
 * rule were applied instead.
 */
#include "prov_test.h"

/* GEN_1 fragment descriptor: LEN [31:0], STAG [63:32], no valid bit. */
#define G1_DESC(lkey, len)	((uint64_t)(len) | (uint64_t)(lkey) << 32)
#define FILL			0x5a5a5a5a5a5a5a5aull

static struct tqp T;

static int setup(void **state)
{
	(void)state;
	tqp_init(&T, 512, 16, 2, false);
	T.qp.geom = e810u_geom(E810_GEN_1);
	T.qp.max_sq_frags = 3;
	T.qp.max_rq_frags = 3;
	T.qp.max_inline = 48;
	/* stale contents, to see which bytes a post writes */
	memset(T.qp.sq, 0x5a, 512 * 32);
	memset(T.qp.rq, 0x5a, 16 * 128);
	e810u_qp_reset(&T.qp);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tqp_fini(&T);
	return 0;
}

static const struct e810u_sge SG[3] = {
	{ .addr = 0x1000a000, .len = 100, .lkey = 0x11 },
	{ .addr = 0x2000b000, .len = 200, .lkey = 0x22 },
	{ .addr = 0x3000c000, .len = 300, .lkey = 0x33 },
};

static void expect_words(const uint8_t *base, const uint64_t *w,
			 unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		assert_int_equal(q64(base, 8 * i), w[i]);
}

static void test_three_sges(void **state)
{
	struct e810u_swr wr = { .wr_id = 9, .op = 0x03, .signaled = true,
				.sg = SG, .num_sge = 3 };
	uint64_t w[8] = { 0x1000a000, G1_DESC(0x11, 100), 0,
			  F_OP(3) | F_ADDFRAG(2) | F_SIGNALED | F_VALID,
			  0x2000b000, G1_DESC(0x22, 200),
			  0x3000c000, G1_DESC(0x33, 300) };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(sq_wqe(&T, 0), w, 8);
	assert_int_equal(T.qp.sq_slots[0].quanta, 2);
	assert_int_equal(T.qp.sq_slots[0].bytes, 600);
	assert_int_equal(T.qp.sq_head, 2);
}

/* An even count gets no empty fragment (GEN_2 pads, for its valid bit). */
static void test_two_sges_no_pad(void **state)
{
	struct e810u_swr wr = { .op = 0x00, .sg = SG, .num_sge = 2,
				.remote_addr = 0xabc000, .rkey = 0x4242 };
	uint64_t w[8] = { 0x1000a000, G1_DESC(0x11, 100), 0xabc000,
			  0x4242 | F_OP(0) | F_ADDFRAG(1) | F_VALID,
			  0x2000b000, G1_DESC(0x22, 200), FILL, FILL };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(sq_wqe(&T, 0), w, 8);
}

/* 16 bytes at offset 0 of quantum 0, then 32 in quantum 1, no valid byte. */
static void test_inline(void **state)
{
	uint8_t data[48], q1[32];
	struct e810u_sge sg = { .addr = (uintptr_t)data, .len = 40 };
	struct e810u_swr wr = { .op = 0x03, .inline_data = true, .sg = &sg,
				.num_sge = 1 };
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(data); i++)
		data[i] = 0x80 + i;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	assert_memory_equal(sq_wqe(&T, 0), data, 16);
	assert_int_equal(q64(sq_wqe(&T, 0), 16), 0);
	assert_int_equal(q64(sq_wqe(&T, 0), 24),
			 F_OP(3) | F_INLLEN(40) | F_INLFLAG | F_VALID);
	memset(q1, 0, sizeof(q1));
	memcpy(q1, data + 16, 24);
	assert_memory_equal(sq_wqe(&T, 1), q1, 32);
	assert_int_equal(T.qp.sq_slots[0].quanta, 2);

	/* 16 bytes fit quantum 0 alone (GEN_2: 8 bytes) */
	sg.len = 16;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	assert_int_equal(T.qp.sq_slots[2].quanta, 1);
	assert_memory_equal(sq_wqe(&T, 2), data, 16);

	/* 48 bytes at most */
	sg.len = 48;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	sg.len = 49;
	assert_int_equal(e810u_post_send(&T.qp, &wr), -EINVAL);
}

/*
 * A one-quantum WQE that leaves the head odd writes the next quantum's
 * header with the other pass's valid bit; WQEs never cross a 2-quantum
 * chunk (a NOP pads).
 */
static void test_odd_slot_and_chunk(void **state)
{
	struct e810u_swr one = { .op = 0x03, .sg = SG, .num_sge = 1 };
	struct e810u_swr two = { .op = 0x03, .sg = SG, .num_sge = 2 };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &one), 0);
	/* pass 1: quantum 1's header now says "not yet" (valid 0) */
	assert_int_equal(q64(sq_wqe(&T, 1), 24), 0);
	assert_int_equal(q64(sq_wqe(&T, 1), 0), FILL);
	assert_int_equal(e810u_post_send(&T.qp, &one), 0);
	assert_int_equal(q64(sq_wqe(&T, 1), 24), F_OP(3) | F_VALID);
	/* head even again: quantum 2 untouched */
	assert_int_equal(q64(sq_wqe(&T, 2), 24), FILL);
	assert_int_equal(e810u_post_send(&T.qp, &one), 0);
	assert_int_equal(q64(sq_wqe(&T, 3), 24), 0);
	/* a 2-quantum WQE at index 3: a NOP at 3, the WQE at 4 and 5 */
	assert_int_equal(e810u_post_send(&T.qp, &two), 0);
	assert_int_equal(q64(sq_wqe(&T, 3), 24), F_OP(0x0c) | F_VALID);
	assert_int_equal(q64(sq_wqe(&T, 4), 24),
			 F_OP(3) | F_ADDFRAG(1) | F_VALID);
	assert_int_equal(T.qp.sq_head, 6);
	assert_int_equal(q64(sq_wqe(&T, 6), 24), FILL);
}

/* No immediate data; one READ SGE (i40iw_hw.h I40IW_MAX_SGE_RD). */
static void test_refusals(void **state)
{
	struct e810u_swr wr = { .op = 0x00, .has_imm = true, .imm = 1,
				.sg = SG, .num_sge = 1 };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), -EINVAL);
	wr.has_imm = false;
	wr.op = 0x01;
	wr.num_sge = 2;
	assert_int_equal(e810u_post_send(&T.qp, &wr), -EINVAL);
	wr.num_sge = 1;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	wr.op = 0x03;
	wr.num_sge = 4;
	assert_int_equal(e810u_post_send(&T.qp, &wr), -EINVAL);
	assert_int_equal(T.qp.sq_head, 1);
}

/* The window's STag in [63:32], the parent MR's in [31:0]. */
static void test_bind_mw_swapped(void **state)
{
	struct e810u_swr wr = { .op = 0x08, .remote_addr = 0x7f0000001000,
				.rkey = 0x12345601, .bind_mr_stag = 0xabcdef02,
				.bind_len = 8192, .bind_rights = 0x04,
				.bind_type1 = true };
	uint64_t w[4] = { 0x7f0000001000,
			  (uint64_t)0x12345601 << 32 | 0xabcdef02, 8192,
			  F_OP(8) | (uint64_t)0x4 << 48 | 1ull << 53 |
			  1ull << 54 | F_VALID };

	(void)state;
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	expect_words(sq_wqe(&T, 0), w, 4);
}

/* RQ WQEs of 128 bytes, GEN_1 fragments. */
static void test_recv(void **state)
{
	uint64_t w[8] = { 0x1000a000, G1_DESC(0x11, 100), 0,
			  F_ADDFRAG(2) | F_VALID,
			  0x2000b000, G1_DESC(0x22, 200),
			  0x3000c000, G1_DESC(0x33, 300) };

	(void)state;
	assert_int_equal(e810u_post_recv(&T.qp, 7, SG, 3), 0);
	expect_words(T.qp.rq, w, 8);
	assert_int_equal(e810u_post_recv(&T.qp, 8, SG, 1), 0);
	assert_int_equal(q64(T.qp.rq + 128, 8), G1_DESC(0x11, 100));
	assert_int_equal(q64(T.qp.rq + 128, 24), F_VALID);
	assert_int_equal(e810u_post_recv(&T.qp, 9, SG, 4), -EINVAL);
}

static int sizes(uint32_t swr, uint32_t ssge, uint32_t inl, uint32_t rwr,
		 struct e810u_wq_sizes *s)
{
	const struct e810_wq_geom *g = e810u_geom(E810_GEN_1);
	struct e810u_wq_caps c = { .max_send_wr = swr, .max_recv_wr = rwr,
				   .max_send_sge = ssge, .max_recv_sge = 1,
				   .max_inline = inl };

	/* as the provider calls it with the stock kernel's limits */
	return e810u_wq_sizes(g, &c, 4, 2048, 16384, false, s);
}

/*
 * i40iw_hw.h: SQ up to 2048 quanta (I40IW_QP_SW_MAX_WQ_QUANTA), RQ up
 * to 16384 (I40IW_QP_SW_MAX_RQ_QUANTA) of 4-quantum WQEs.
 */
static void test_sizes(void **state)
{
	const struct e810_wq_geom *g = e810u_geom(E810_GEN_1);
	struct e810u_wq_sizes s;

	(void)state;
	assert_int_equal(g->max_read_sges, 1);
	assert_int_equal(g->max_rq_quanta, 16384);
	assert_int_equal(g->max_wq_quanta, 2048);
	/* perftest's default RQ, 512 WRs: 2049 quanta -> 4096 */
	assert_int_equal(sizes(128, 1, 0, 512, &s), 0);
	assert_int_equal(s.rq_shift, 2);
	assert_int_equal(s.rq_depth, 4096);
	assert_int_equal(s.max_recv_wr, 1023);
	assert_int_equal(s.sq_shift, 0);
	assert_int_equal(s.sq_depth, 512);
	assert_int_equal(sizes(128, 1, 0, 4096, &s), -EINVAL);
	/* 3 SGEs or up to 48 inline bytes: 2 quanta a WQE */
	assert_int_equal(sizes(512, 3, 0, 1, &s), 0);
	assert_int_equal(s.sq_shift, 1);
	assert_int_equal(s.sq_depth, 2048);
	assert_int_equal(sizes(1024, 3, 0, 1, &s), -EINVAL);
	assert_int_equal(sizes(16, 1, 17, 1, &s), 0);
	assert_int_equal(s.sq_shift, 1);
}

/*
 * No CQ resize on GEN_1: one ring entry a CQE, and the shadow area in the
 * page after the ring's, inside the ring's registration (cq_pages counts
 * the ring only). GEN_2 keeps a shadow buffer of its own.
 */
static void test_cq_bufs(void **state)
{
	/* generation, CQ resize feature, CQEs asked, then the layout */
	static const struct {
		int gen;
		bool resize;
		uint32_t cqe, entries, cq_pages, shadow_off, ring_len;
	} t[] = {
		{ E810_GEN_1, false, 99, 100, 1, 4096, 8192 },
		{ E810_GEN_1, false, 200, 201, 2, 8192, 12288 },
		{ E810_GEN_1, false, 1, 4, 1, 4096, 8192 },
		{ E810_GEN_2, true, 99, 200, 2, 0, 8192 },
	};
	struct e810u_cq_bufs l;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		e810u_cq_bufs(e810u_geom(t[i].gen), t[i].resize, t[i].cqe, 4096,
			      &l);
		assert_int_equal(l.entries, t[i].entries);
		assert_int_equal(l.cq_pages, t[i].cq_pages);
		assert_int_equal(l.shadow_off, t[i].shadow_off);
		assert_int_equal(l.ring_len, t[i].ring_len);
	}
}

#define T_(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_(test_three_sges),
		T_(test_two_sges_no_pad),
		T_(test_inline),
		T_(test_odd_slot_and_chunk),
		T_(test_refusals),
		T_(test_bind_mw_swapped),
		T_(test_recv),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_cq_bufs),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("provider_gen1", tests, NULL, NULL);
}
