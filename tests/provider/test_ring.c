// SPDX-License-Identifier: GPL-2.0-only
/*
 * SQ ring behaviour: NOP padding at 256-byte chunk boundaries, polarity
 * across wraps, ahead-clearing, the reserved slack, doorbell batching
 * over a post list and ibv_wr_abort roll-back (docs/hw-reference.md 5.1, 5.5).
 */
#include "prov_test.h"

static struct tqp T;
/* enough entries for the 14-SGE (invalid) requests */
static const struct e810u_sge SG[14] = {
	{ 0x1000, 8, 1 }, { 0x2000, 8, 2 }, { 0x3000, 8, 3 }, { 0x4000, 8, 4 },
	{ 0x5000, 8, 5 },
};

static int setup(void **state)
{
	(void)state;
	tqp_init(&T, 512, 16, 0, false);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tqp_fini(&T);
	return 0;
}

static int post(unsigned int nsge, uint64_t wr_id, bool signaled)
{
	struct e810u_swr wr = { .op = 0x03, .sg = SG, .num_sge = nsge,
				.wr_id = wr_id, .signaled = signaled };

	return e810u_post_send(&T.qp, &wr);
}

static uint64_t hdr_at(uint32_t idx)
{
	return q64(sq_wqe(&T, idx), 24);
}

static void test_nop_padding(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < 6; i++)
		assert_int_equal(post(1, i, false), 0);
	/* 4 SGEs = 3 quanta would cover 6..8: pad 6 and 7 with NOPs */
	assert_int_equal(post(4, 100, true), 0);
	for (i = 6; i < 8; i++) {
		assert_int_equal(hdr_at(i), F_OP(0xc) | F_VALID);
		assert_int_equal(q64(sq_wqe(&T, i), 0), 0);
		assert_int_equal(q64(sq_wqe(&T, i), 8), 0);
		assert_int_equal(T.qp.sq_slots[i].op, 0xc);
		assert_int_equal(T.qp.sq_slots[i].quanta, 1);
	}
	assert_int_equal(hdr_at(8) & (0x3full << 32), F_OP(3));
	assert_int_equal(T.qp.sq_slots[8].wr_id, 100);
	assert_int_equal(T.qp.sq_head, 11);
	assert_int_equal(T.qp.unrung, 11);
	/* 2 quanta at 11: fits in 8..15, no padding */
	assert_int_equal(post(2, 101, true), 0);
	assert_int_equal(T.qp.sq_head, 13);
	/* 3 quanta at 13 end exactly at 16: no padding */
	assert_int_equal(post(5, 102, true), 0);
	assert_int_equal(T.qp.sq_slots[13].wr_id, 102);
	assert_int_equal(T.qp.sq_head, 16);
	/* 3 quanta at 22 would cross 24: 2 NOPs, WQE at 24 */
	assert_int_equal(post(5, 103, true), 0);
	assert_int_equal(post(5, 104, true), 0);
	assert_int_equal(T.qp.sq_head, 22);
	assert_int_equal(post(5, 102, true), 0);
	assert_int_equal(T.qp.sq_slots[22].op, 0xc);
	assert_int_equal(T.qp.sq_slots[23].op, 0xc);
	assert_int_equal(hdr_at(23), F_OP(0xc) | F_VALID);
	assert_int_equal(T.qp.sq_slots[24].wr_id, 102);
	assert_int_equal(T.qp.sq_head, 27);
}

static void test_no_wqe_crosses_chunk(void **state)
{
	unsigned int i, n;

	(void)state;
	/* mixed sizes for several laps, completing as we go */
	for (i = 0; i < 3000; i++) {
		uint32_t idx;

		n = (i * 7) % 14 + 1;	/* 1..14 SGEs: 1..8 quanta */
		if (n > 13)
			n = 13;
		{
			struct e810u_sge many[13];
			struct e810u_swr wr = { .op = 0x03, .sg = many,
						.num_sge = n };

			memset(many, 0, sizeof(many));
			assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
		}
		idx = (T.qp.sq_head + 512 - e810_frag_quanta(n)) % 512;
		assert_int_equal(idx / 8, (idx + e810_frag_quanta(n) - 1) / 8);
		T.qp.sq_tail = T.qp.sq_head;	/* device completed all */
	}
}

static void test_polarity_across_wraps(void **state)
{
	unsigned int lap, i;

	(void)state;
	for (lap = 0; lap < 3; lap++) {
		uint64_t want = lap % 2 ? 0 : F_VALID;

		for (i = 0; i < 512; i++) {
			assert_int_equal(post(1, i, true), 0);
			assert_int_equal(hdr_at(i) & F_VALID, want);
			assert_int_equal(q64(sq_wqe(&T, i), 8) >> 63,
					 want >> 63);
			T.qp.sq_tail = T.qp.sq_head;
		}
	}
	assert_int_equal(T.qp.sq_head, 0);
}

static void test_clear_ahead(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < 384; i++) {
		assert_int_equal(post(1, i, false), 0);
		T.qp.sq_tail = T.qp.sq_head;
	}
	/* quantum 384 starts a 128 window: 0..127 belong to the next pass
	 * (valid = 0), so they are filled with ones */
	assert_int_equal(post(1, 384, false), 0);
	for (i = 0; i < 128 * 32; i++)
		assert_int_equal(T.qp.sq[i], 0xff);
	assert_int_equal(T.qp.sq[128 * 32], 0);
	T.qp.sq_tail = T.qp.sq_head;
	for (i = 385; i <= 512 + 128; i++) {
		assert_int_equal(post(1, i, false), 0);
		T.qp.sq_tail = T.qp.sq_head;
	}
	/* at 128 of the second pass, 256..383 are cleared for pass 2 (0) */
	for (i = 256 * 32; i < 384 * 32; i++)
		assert_int_equal(T.qp.sq[i], 0xff);
}

static void test_ring_full(void **state)
{
	unsigned int i;

	(void)state;
	/* 512 quanta keep 257 free: 255 single-quantum WQEs fit */
	for (i = 0; i < 255; i++)
		assert_int_equal(post(1, i, true), 0);
	assert_int_equal(post(1, 999, true), -ENOMEM);
	assert_int_equal(T.qp.sq_head, 255);
	T.qp.sq_tail = 10;
	assert_int_equal(post(1, 1000, true), 0);
}

static void test_doorbell_batching(void **state)
{
	unsigned int i;

	(void)state;
	assert_false(e810u_sq_kick(&T.qp));
	assert_int_equal(T.qp.doorbells, 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(post(1, i, true), 0);
	assert_int_equal(T.qp.doorbells, 0);
	assert_true(e810u_sq_kick(&T.qp));
	assert_int_equal(T.qp.doorbells, 1);
	assert_int_equal(le32toh(T.db), 0x2a);
	assert_false(e810u_sq_kick(&T.qp));
	assert_int_equal(T.qp.doorbells, 1);
	/* a list that fails half way still gets its doorbell for the rest */
	T.db = 0;
	assert_int_equal(post(1, 10, true), 0);
	assert_int_equal(post(14, 11, true), -EINVAL);
	assert_true(e810u_sq_kick(&T.qp));
	assert_int_equal(T.qp.doorbells, 2);
	assert_int_equal(le32toh(T.db), 0x2a);
}

/*
 * With a shadow area the doorbell is skipped while the device's SQ tail
 * lies before the new WQEs (still fetching older ones) or already past
 * them, and rung when the tail is inside them (the device may have
 * stopped there). The wrap case counts modulo the ring.
 */
static void test_doorbell_shadow_tail(void **state)
{
	uint64_t shadow = 0;
	unsigned int i;

	(void)state;
	T.qp.shadow = &shadow;
	/* quanta 0-2: the tail (0) is the first new one: rung */
	for (i = 0; i < 3; i++)
		assert_int_equal(post(1, i, true), 0);
	assert_true(e810u_sq_kick(&T.qp));
	assert_int_equal(T.qp.doorbells, 1);
	/* quanta 3-4 while the device is at 1: still fetching, skipped */
	shadow = htole64(1);
	assert_int_equal(post(1, 3, true), 0);
	assert_int_equal(post(1, 4, true), 0);
	assert_false(e810u_sq_kick(&T.qp));
	assert_int_equal(T.qp.doorbells, 1);
	assert_int_equal(T.qp.doorbells_skipped, 1);
	assert_int_equal(T.qp.unrung, 0);
	/* quantum 5 with the tail on it: rung; other bits of the word
	 * (above the 15-bit tail) do not count */
	shadow = htole64(5 | 0xabcd0000ull << 16);
	assert_int_equal(post(1, 5, true), 0);
	assert_true(e810u_sq_kick(&T.qp));
	assert_int_equal(T.qp.doorbells, 2);
	/* quantum 6 already fetched (tail 7, past it): skipped */
	shadow = htole64(7);
	assert_int_equal(post(1, 6, true), 0);
	assert_false(e810u_sq_kick(&T.qp));
	assert_int_equal(T.qp.doorbells_skipped, 2);
	/* across the wrap: new quanta 510, 511, 0, 1 */
	T.qp.sq_head = 510;
	T.qp.sq_tail = 510;
	for (i = 0; i < 4; i++)
		assert_int_equal(post(1, 10 + i, true), 0);
	assert_int_equal(T.qp.sq_head, 2);
	shadow = htole64(0);		/* inside, after the wrap: rung */
	assert_true(e810u_sq_kick(&T.qp));
	assert_int_equal(T.qp.doorbells, 3);
	for (i = 0; i < 2; i++)
		assert_int_equal(post(1, 20 + i, true), 0);
	shadow = htole64(509);		/* behind, before the wrap: skipped */
	assert_false(e810u_sq_kick(&T.qp));
	assert_int_equal(T.qp.doorbells, 3);
	assert_int_equal(T.qp.doorbells_skipped, 3);
	T.qp.shadow = NULL;
}

static void test_rollback(void **state)
{
	struct e810u_sq_mark m;

	(void)state;
	assert_int_equal(post(1, 1, true), 0);
	assert_true(e810u_sq_kick(&T.qp));
	e810u_sq_mark(&T.qp, &m);
	assert_int_equal(post(2, 2, true), 0);
	assert_int_equal(post(1, 3, true), 0);
	e810u_sq_rollback(&T.qp, &m);
	assert_int_equal(T.qp.sq_head, 1);
	assert_int_equal(T.qp.unrung, 0);
	/* taken-back quanta read as invalid for the first pass */
	assert_int_equal(hdr_at(1) >> 63, 0);
	assert_int_equal(q64(sq_wqe(&T, 2), 8) >> 63, 0);
	assert_int_equal(hdr_at(3) >> 63, 0);
	assert_int_equal(hdr_at(0) >> 63, 1);
	assert_false(e810u_sq_kick(&T.qp));
	assert_int_equal(post(1, 4, true), 0);
	assert_int_equal(T.qp.sq_slots[1].wr_id, 4);
}

#define T_(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_(test_nop_padding),
		T_(test_no_wqe_crosses_chunk),
		T_(test_polarity_across_wraps),
		T_(test_clear_ahead),
		T_(test_ring_full),
		T_(test_doorbell_batching),
		T_(test_doorbell_shadow_tail),
		T_(test_rollback),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("provider_ring", tests, NULL, NULL);
}
