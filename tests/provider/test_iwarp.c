// SPDX-License-Identifier: GPL-2.0-only
/*
 * An iWARP SQ: the connection manager owns its first quanta (the LSMM or
 * RTR WQE, the NOP with local fence, the GEN_RTS_AE WQE; upstream
 * irdma_sc_send_lsmm(), irdma_sc_gen_rts_ae()), written with valid bit 1
 * before the QP reaches RTS, and the device starts the SQ at index 0. The
 * ring layer must start after them in the first pass, leave them alone,
 * ring the doorbell when the device stopped behind them, and take the
 * first-pass valid bit for what it writes (docs/hw-reference.md 5.1).
 */
#include "prov_test.h"

static struct tqp T;
static struct tcq C;
static const struct e810u_sge SG[2] = { { 0x1000, 64, 1 }, { 0x2000, 32, 2 } };
/* what the kernel left in quanta 0-2 (opcode, a mark, valid bit 1) */
static const uint64_t CONN_HDR[3] = {
	F_OP(0x03) | 0x5a5a | F_VALID,
	F_OP(0x0c) | 0x5a5b | F_VALID,
	F_OP(0x30) | 0x5a5c | F_VALID,
};

static void kernel_writes_conn_wqes(void)
{
	unsigned int i;

	for (i = 0; i < 3; i++) {
		uint64_t v = htole64(CONN_HDR[i]);

		memcpy(sq_wqe(&T, i) + 24, &v, 8);
	}
}

static int setup(void **state)
{
	(void)state;
	tqp_init(&T, 512, 16, 0, false);
	T.qp.conn_wqes = E810U_CONN_WQES_RTS_AE;
	e810u_qp_reset(&T.qp);
	kernel_writes_conn_wqes();
	tcq_init(&C, 16);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tqp_fini(&T);
	tcq_fini(&C);
	return 0;
}

static int post(uint64_t wr_id, bool signaled)
{
	struct e810u_swr wr = { .op = 0x03, .sg = SG, .num_sge = 1,
				.wr_id = wr_id, .signaled = signaled };

	return e810u_post_send(&T.qp, &wr);
}

static uint64_t hdr_at(uint32_t idx)
{
	return q64(sq_wqe(&T, idx), 24);
}

/* The first SEND goes to quantum 3 with valid bit 1; 0-2 stay as written. */
static void test_first_send_after_conn_wqes(void **state)
{
	unsigned int i;

	(void)state;
	assert_int_equal(E810U_CONN_WQES_RTS_AE, 3);
	assert_int_equal(E810U_CONN_WQES, 1);
	assert_int_equal(T.qp.sq_head, 3);
	assert_int_equal(T.qp.sq_tail, 3);
	assert_int_equal(e810u_sq_used(&T.qp), 0);
	assert_int_equal(post(100, true), 0);
	assert_int_equal(hdr_at(3), F_OP(0x03) | F_SIGNALED | F_VALID);
	assert_int_equal(q64(sq_wqe(&T, 3), 0), 0x1000);
	assert_int_equal(q64(sq_wqe(&T, 3), 8), F_DESC(1, 64, 1));
	assert_int_equal(T.qp.sq_slots[3].wr_id, 100);
	for (i = 0; i < 3; i++) {
		assert_int_equal(hdr_at(i), CONN_HDR[i]);
		assert_int_equal(T.qp.sq_slots[i].quanta, 0);
	}
	assert_int_equal(T.qp.sq_head, 4);
	assert_int_equal(T.qp.unrung, 1);
}

/*
 * The device ran the connection WQEs and stopped at 3 (its tail in the
 * shadow area): the first doorbell must be rung.
 */
static void test_doorbell_after_conn_wqes(void **state)
{
	uint64_t shadow = htole64(3);

	(void)state;
	T.qp.shadow = &shadow;
	assert_int_equal(post(1, true), 0);
	assert_true(e810u_sq_kick(&T.qp));
	assert_int_equal(T.db, 0x2a);
	assert_int_equal(T.qp.doorbells, 1);
	T.qp.shadow = NULL;
}

/*
 * A 6-quantum WQE (11 SGEs) from 3 would cross the 256-byte chunk: NOPs
 * at 3..7 in the first pass, the WQE at 8. Around the ring the second
 * pass takes valid bit 0, quanta 0-2 included.
 */
static void test_padding_and_wrap(void **state)
{
	struct e810u_sge sg11[11];
	struct e810u_swr wr = { .op = 0x03, .sg = sg11, .num_sge = 11,
				.wr_id = 7, .signaled = true };
	unsigned int i;

	(void)state;
	for (i = 0; i < 11; i++)
		sg11[i] = (struct e810u_sge){ 0x1000 * (i + 1), 8, i };
	assert_int_equal(e810u_post_send(&T.qp, &wr), 0);
	for (i = 3; i < 8; i++)
		assert_int_equal(hdr_at(i), F_OP(0xc) | F_VALID);
	assert_int_equal(T.qp.sq_slots[8].wr_id, 7);
	assert_int_equal(hdr_at(8) >> 63, 1);
	/* complete everything, then go round: 14 .. 511, 0, 1 */
	T.qp.sq_tail = T.qp.sq_head;
	for (i = 0; T.qp.sq_head != 2; i++) {
		assert_int_equal(post(200 + i, true), 0);
		T.qp.sq_tail = T.qp.sq_head;
	}
	assert_int_equal(hdr_at(511) >> 63, 1);
	assert_int_equal(hdr_at(0), F_OP(0x03) | F_SIGNALED);
	assert_int_equal(hdr_at(1), F_OP(0x03) | F_SIGNALED);
	assert_int_equal(T.qp.sq_pol, 0);
}

/*
 * CQEs: the first SEND's completes its WR; one naming a connection WQE
 * (none are signaled, but a device may report them) completes nothing
 * and is consumed.
 */
static void test_cqes(void **state)
{
	struct e810u_cqe c;

	(void)state;
	assert_int_equal(post(100, true), 0);
	put_cqe(C.cq.ring.buf, 0, 0, &T.qp, (uint64_t)0x2a << 32,
		C_WQEIDX(0) | C_SQ | C_VALID(1));
	put_cqe(C.cq.ring.buf, 1, 0, &T.qp, (uint64_t)0x2a << 32,
		C_WQEIDX(3) | C_SQ | C_VALID(1));
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), 0);
	assert_int_equal(c.wr_id, 100);
	assert_int_equal(c.bytes, 64);
	assert_int_equal(T.qp.sq_tail, 4);
	assert_int_equal(C.cq.ring.head, 2);
	assert_int_equal(e810u_cq_poll_one(&C.cq, &c), -ENOENT);
}

/* Back to RESET: the connection WQEs' quanta are skipped again. */
static void test_reset(void **state)
{
	(void)state;
	assert_int_equal(post(1, true), 0);
	assert_int_equal(post(2, true), 0);
	memset(T.qp.sq, 0, 512 * 32);
	e810u_qp_reset(&T.qp);
	assert_int_equal(T.qp.sq_head, 3);
	assert_int_equal(T.qp.sq_pol, 1);
	assert_int_equal(post(3, true), 0);
	assert_int_equal(hdr_at(3) >> 63, 1);
	/* RoCEv2 (no connection WQEs): index 0, as before */
	T.qp.conn_wqes = 0;
	e810u_qp_reset(&T.qp);
	assert_int_equal(T.qp.sq_head, 0);
	assert_int_equal(post(4, true), 0);
	assert_int_equal(T.qp.sq_slots[0].wr_id, 4);
	assert_int_equal(T.qp.sq_pol, 1);
}

#define T_(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T_(test_first_send_after_conn_wqes),
		T_(test_doorbell_after_conn_wqes),
		T_(test_padding_and_wrap),
		T_(test_cqes),
		T_(test_reset),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests_name("provider_iwarp", tests, NULL, NULL);
}
