// SPDX-License-Identifier: GPL-2.0-only
/*
 * CQ side of the ring layer: CQE decoding (SQ and RQ, extended part,
 * errors), polarity across wraps, the CQ head in the shadow area, GEN_2
 * flush synthesis, destroyed-QP entries, arming and resize
 * (docs/hw-reference.md 5.6/5.7).
 */
#include "prov_test.h"

static struct tqp T;
static struct tcq C;
static const struct e810u_sge SG[2] = { { 0x1000, 64, 1 }, { 0x2000, 32, 2 } };

static int setup(void **state)
{
	(void)state;
	tqp_init(&T, 512, 16, 1, false);
	tcq_init(&C, 8);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tqp_fini(&T);
	tcq_fini(&C);
	return 0;
}

static int post(uint8_t op, unsigned int nsge, uint64_t wr_id, bool sig)
{
	struct e810u_swr wr = { .op = op, .sg = SG, .num_sge = nsge,
				.wr_id = wr_id, .signaled = sig };

	return e810u_post_send(&T.qp, &wr);
}

static uint64_t shadow_head(void)
{
	return le64toh(C.shadow[0]) & 0xfffff;
}

static void test_sq_cqe(void **state)
{
	struct e810u_cqe c;

	(void)state;
	assert_int_equal(post(0x03, 1, 10, false), 0);	/* idx 0 */
	assert_int_equal(post(0x00, 2, 11, true), 0);	/* idx 1..2 */
	assert_int_equal(post(0x01, 1, 12, true), 0);	/* idx 3 */
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), -ENOENT);
	put_cqe(C.cq.ring.buf, 0, 0, &T.qp, (uint64_t)0x2a << 32,
		C_WQEIDX(1) | C_OP(0) | C_SQ | C_VALID(1));
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_ptr_equal(c.qp, &T.qp);
	assert_int_equal(c.status, E810U_OK);
	assert_true(c.sq);
	assert_int_equal(c.wr_id, 11);
	assert_int_equal(c.bytes, 96);
	assert_int_equal(c.op, 0x00);
	assert_int_equal(c.qp_id, 0x2a);
	/* the unsignaled send before it is implied: tail moved past both */
	assert_int_equal(T.qp.sq_tail, 3);
	assert_int_equal(shadow_head(), 1);
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), -ENOENT);
}

static void test_rq_cqe_with_imm(void **state)
{
	struct e810u_cqe c;

	(void)state;
	assert_int_equal(e810u_post_recv(&T.qp, 0x100, SG, 1), 0);
	assert_int_equal(e810u_post_recv(&T.qp, 0x101, SG, 2), 0);
	/* RQ index in quanta: entry 1 of 64-byte WQEs = quantum 2 */
	put_cqe(C.cq.ring.buf, 0, 77, &T.qp, 0x2aull << 32 | 0x55,
		C_WQEIDX(2) | C_EXT | C_OP(0x0b) | (1ull << 53) | C_VALID(1));
	/* the extension is only taken once its valid bit is there */
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), -ENOENT);
	put_cqe(C.cq.ring.buf, 1, 0x12345678, NULL,
		0x0123456789abull | (uint64_t)0xa005 << 48,
		(1ull << 60) | (1ull << 61) | (1ull << 62) | C_VALID(1));
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_false(c.sq);
	assert_int_equal(c.wr_id, 0x101);
	assert_int_equal(c.bytes, 77);
	assert_int_equal(c.op, 0x0b);
	assert_true(c.imm_valid);
	assert_int_equal(c.imm, 0x12345678);
	assert_true(c.smac_valid);
	assert_int_equal(c.smac[0], 0x01);
	assert_int_equal(c.smac[5], 0xab);
	assert_true(c.vlan_valid);
	assert_int_equal(c.vlan, 0xa005);
	assert_true(c.stag_valid);
	assert_int_equal(c.inv_stag, 0x55);
	assert_int_equal(T.qp.rq_tail, 2);
	/* two slots consumed */
	assert_int_equal(C.cq.ring.head, 2);
	assert_int_equal(shadow_head(), 2);
}

static void test_polarity_across_wraps(void **state)
{
	struct e810u_cqe c;
	unsigned int i, pol = 1;

	(void)state;
	for (i = 0; i < 8 * 3 + 3; i++) {
		uint32_t slot = i % 8;

		if (i && slot == 0)
			pol = !pol;
		assert_int_equal(post(0x03, 1, 1000 + i, true), 0);
		/* a stale entry of the previous pass is not a completion */
		assert_int_equal(e810u_cq_poll_one(&C.cq, &c), -ENOENT);
		put_cqe(C.cq.ring.buf, slot, 0, &T.qp, 0,
			C_WQEIDX(T.qp.sq_tail) | C_SQ | C_VALID(pol));
		assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
		assert_int_equal(c.wr_id, 1000 + i);
		assert_int_equal(C.cq.ring.pol, slot == 7 ? !pol : pol);
		assert_int_equal(shadow_head(), (slot + 1) % 8);
	}
}

static void test_ext_cqe_wrapping(void **state)
{
	struct e810u_cqe c;
	unsigned int i;

	(void)state;
	/* move the head to the last slot */
	for (i = 0; i < 7; i++) {
		assert_int_equal(post(0x03, 1, i, true), 0);
		put_cqe(C.cq.ring.buf, i, 0, &T.qp, 0,
			C_WQEIDX(T.qp.sq_tail) | C_SQ | C_VALID(1));
		assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	}
	assert_int_equal(e810u_post_recv(&T.qp, 0x200, SG, 1), 0);
	put_cqe(C.cq.ring.buf, 7, 5, &T.qp, 0,
		C_WQEIDX(0) | C_EXT | C_VALID(1));
	/* the extension sits in slot 0, on the next pass: valid is 0 */
	put_cqe(C.cq.ring.buf, 0, 0xbeef, NULL, 0, (1ull << 62) | C_VALID(1));
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), -ENOENT);
	put_cqe(C.cq.ring.buf, 0, 0xbeef, NULL, 0, (1ull << 62) | C_VALID(0));
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_int_equal(c.wr_id, 0x200);
	assert_int_equal(c.imm, 0xbeef);
	assert_int_equal(C.cq.ring.head, 1);
	assert_int_equal(C.cq.ring.pol, 0);
}

static void test_sq_flush(void **state)
{
	struct e810u_cqe c;
	unsigned int i;

	(void)state;
	assert_int_equal(post(0x03, 1, 1, true), 0);	/* 0 */
	for (i = 1; i < 7; i++)
		assert_int_equal(post(0x03, 1, 1, false), 0);
	/* 2 quanta at 7 -> NOP at 7, WQE at 8..9 */
	assert_int_equal(post(0x03, 2, 2, false), 0);
	assert_int_equal(post(0x00, 1, 3, true), 0);	/* 10 */
	T.qp.sq_tail = 7;	/* 0..6 completed earlier */
	/* one hardware flush CQE stands for every WQE still queued */
	put_cqe(C.cq.ring.buf, 0, 0, &T.qp, 0,
		C_WQEIDX(7) | C_ERROR | C_MAJ(1) | 1 | C_SQ | C_VALID(1));
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_int_equal(c.status, E810U_FLUSHED);
	assert_int_equal(c.minor, 1);
	assert_int_equal(c.wr_id, 2);	/* the NOP is skipped */
	assert_int_equal(C.cq.ring.head, 0);	/* entry re-read */
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_int_equal(c.wr_id, 3);
	assert_int_equal(c.op, 0x00);
	assert_int_equal(C.cq.ring.head, 1);
	assert_int_equal(T.qp.sq_tail, T.qp.sq_head);
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), -ENOENT);
}

static void test_rq_flush(void **state)
{
	struct e810u_cqe c;
	unsigned int i;

	(void)state;
	for (i = 0; i < 3; i++)
		assert_int_equal(e810u_post_recv(&T.qp, 0x300 + i, SG, 1), 0);
	put_cqe(C.cq.ring.buf, 0, 0, &T.qp, 0,
		C_WQEIDX(0) | C_ERROR | C_MAJ(1) | 5 | C_VALID(1));
	for (i = 0; i < 3; i++) {
		assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
		assert_int_equal(c.wr_id, 0x300 + i);
		assert_int_equal(c.status, E810U_FLUSHED);
		assert_int_equal(c.minor, 5);
	}
	assert_int_equal(C.cq.ring.head, 1);
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), -ENOENT);
	/* a second flush CQE with nothing left is consumed silently */
	put_cqe(C.cq.ring.buf, 1, 0, &T.qp, 0,
		C_WQEIDX(0) | C_ERROR | C_MAJ(1) | 5 | C_VALID(1));
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), -ENOENT);
	assert_int_equal(C.cq.ring.head, 2);
}

static void test_errors(void **state)
{
	struct e810u_cqe c;

	(void)state;
	assert_int_equal(post(0x03, 1, 1, true), 0);
	assert_int_equal(post(0x03, 1, 2, true), 0);
	put_cqe(C.cq.ring.buf, 0, 0, &T.qp, 0,
		C_WQEIDX(0) | C_ERROR | C_MAJ(0x8003) | 0x12 | C_SQ |
		C_VALID(1));
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_int_equal(c.status, E810U_ERROR);
	assert_int_equal(c.major, 0x8003);
	assert_int_equal(c.minor, 0x12);
	assert_int_equal(c.wr_id, 1);
	/* 0xE... majors on a UD SQ are not errors */
	T.qp.ud = true;
	put_cqe(C.cq.ring.buf, 1, 0, &T.qp, 0,
		C_WQEIDX(1) | C_ERROR | C_MAJ(0xe001) | C_SQ | C_VALID(1));
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_int_equal(c.status, E810U_OK);
	assert_int_equal(c.wr_id, 2);
	/* an out-of-range SQ index is dropped, not dereferenced */
	put_cqe(C.cq.ring.buf, 2, 0, &T.qp, 0,
		C_WQEIDX(0x7fff) | C_SQ | C_VALID(1));
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), -ENOENT);
	assert_int_equal(C.cq.ring.head, 3);
}

static void test_forget(void **state)
{
	struct e810u_cqe c;
	struct tqp other;

	(void)state;
	tqp_init(&other, 512, 16, 0, false);
	assert_int_equal(post(0x03, 1, 1, true), 0);
	assert_int_equal(e810u_post_send(&other.qp, &(struct e810u_swr){
		.op = 0x03, .wr_id = 9, .signaled = true }), 0);
	put_cqe(C.cq.ring.buf, 0, 0, &T.qp, 0, C_SQ | C_VALID(1));
	put_cqe(C.cq.ring.buf, 1, 0, &other.qp, 0, C_SQ | C_VALID(1));
	e810u_cq_forget(&C.cq, &T.qp);
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_ptr_equal(c.qp, &other.qp);
	assert_int_equal(c.wr_id, 9);
	assert_int_equal(C.cq.ring.head, 2);
	tqp_fini(&other);
}

/* The kernel's variant: CQEs found by QP id, an extended one included. */
static void test_forget_qp_id(void **state)
{
	struct e810u_cqe c;
	struct tqp other;

	(void)state;
	tqp_init(&other, 512, 16, 0, false);
	other.qp.qp_id = 0x2b;
	assert_int_equal(post(0x03, 1, 1, true), 0);
	assert_int_equal(post(0x03, 1, 2, true), 0);
	assert_int_equal(e810u_post_send(&other.qp, &(struct e810u_swr){
		.op = 0x03, .wr_id = 9, .signaled = true }), 0);
	put_cqe(C.cq.ring.buf, 0, 0, &T.qp, (uint64_t)0x2a << 32,
		C_EXT | C_SQ | C_VALID(1));
	put_cqe(C.cq.ring.buf, 1, 0, NULL, 0, C_VALID(1));
	put_cqe(C.cq.ring.buf, 2, 0, &T.qp, (uint64_t)0x2a << 32,
		C_WQEIDX(1) | C_SQ | C_VALID(1));
	put_cqe(C.cq.ring.buf, 3, 0, &other.qp, (uint64_t)0x2b << 32,
		C_SQ | C_VALID(1));
	e810u_cq_ring_forget_qp(&C.cq.ring, 0x2a);
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_ptr_equal(c.qp, &other.qp);
	assert_int_equal(c.wr_id, 9);
	assert_int_equal(C.cq.ring.head, 4);
	tqp_fini(&other);
}

static void test_arm(void **state)
{
	uint64_t v;

	(void)state;
	C.shadow[4] = htole64(3);	/* SW_CQ_SELECT from earlier resizes */
	e810u_cq_arm(&C.cq, false);
	v = le64toh(C.shadow[4]);
	assert_int_equal(v, 3 | 1 << 14 | 1 << 15 | 1 << 16);
	assert_int_equal(le32toh(C.arm_db), 7);
	C.arm_db = 0;
	e810u_cq_arm(&C.cq, true);
	v = le64toh(C.shadow[4]);
	assert_int_equal(v, 3 | 1 << 15 | 2 << 16);
	assert_int_equal(le32toh(C.arm_db), 7);
	e810u_cq_arm(&C.cq, false);
	e810u_cq_arm(&C.cq, false);
	/* the 2-bit sequence number wraps */
	assert_int_equal((le64toh(C.shadow[4]) >> 16) & 3, 0);
}

static void test_resize_drains_old_ring(void **state)
{
	uint8_t *nbuf = calloc(16, 32);
	struct e810u_cqe c;

	(void)state;
	assert_int_equal(post(0x03, 1, 1, true), 0);
	assert_int_equal(post(0x03, 1, 2, true), 0);
	put_cqe(C.cq.ring.buf, 0, 0, &T.qp, 0, C_WQEIDX(0) | C_SQ | C_VALID(1));
	e810u_cq_resize_begin(&C.cq, nbuf, 16);
	put_cqe(nbuf, 0, 0, &T.qp, 0, C_WQEIDX(1) | C_SQ | C_VALID(1));
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_int_equal(c.wr_id, 1);
	assert_true(C.cq.draining);
	assert_int_equal(le64toh(C.shadow[4]) & 0x3fff, 0);
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_int_equal(c.wr_id, 2);
	assert_false(C.cq.draining);
	/* the device learns the old ring is done */
	assert_int_equal(le64toh(C.shadow[4]) & 0x3fff, 1);
	assert_int_equal(shadow_head(), 1);
	C.cq.ring.buf = C.cq.old.buf;	/* teardown frees the first ring */
	free(nbuf);
}

/* A second resize may retire an old ring only once it holds no CQE. */
static void test_retire_old_ring(void **state)
{
	uint8_t *nbuf = calloc(16, 32);
	struct e810u_cqe c;

	(void)state;
	assert_int_equal(post(0x03, 1, 1, true), 0);
	put_cqe(C.cq.ring.buf, 0, 0, &T.qp, 0, C_WQEIDX(0) | C_SQ | C_VALID(1));
	e810u_cq_resize_begin(&C.cq, nbuf, 16);
	/* a CQE is still in the old ring: it stays */
	e810u_cq_retire_old(&C.cq);
	assert_true(C.cq.draining);
	assert_int_equal(le64toh(C.shadow[4]) & 0x3fff, 0);
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_int_equal(c.wr_id, 1);
	/* polled: the old ring is empty and retired without another poll */
	e810u_cq_retire_old(&C.cq);
	assert_false(C.cq.draining);
	assert_int_equal(le64toh(C.shadow[4]) & 0x3fff, 1);
	/* nothing left to retire: no second count */
	e810u_cq_retire_old(&C.cq);
	assert_int_equal(le64toh(C.shadow[4]) & 0x3fff, 1);
	C.cq.ring.buf = C.cq.old.buf;	/* teardown frees the first ring */
	free(nbuf);
}

#define T_(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_(test_sq_cqe),
		T_(test_rq_cqe_with_imm),
		T_(test_polarity_across_wraps),
		T_(test_ext_cqe_wrapping),
		T_(test_sq_flush),
		T_(test_rq_flush),
		T_(test_errors),
		T_(test_forget),
		T_(test_forget_qp_id),
		T_(test_arm),
		T_(test_resize_drains_old_ring),
		T_(test_retire_old_ring),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("provider_cq", tests, NULL, NULL);
}
