// SPDX-License-Identifier: GPL-2.0-only
/*
 * verbs_abi: one iteration's objects (verbs_abi.h): PD, two CQs, six MRs,
 * an RC and a UD QP, two AHs; both QPs driven to RTS and queried back,
 * every attribute that was set compared with what the query returns.
 */
#include <stdio.h>
#include <string.h>

#include "verbs_abi.h"

#define VA_MR_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
		      IBV_ACCESS_REMOTE_READ)
#define VA_QP_ACCESS VA_MR_ACCESS

static const char *const va_mr_name[VA_NR_MR] = {
	"4 KiB", "4 KiB at offset 100 (2 pages)", "64 KiB", "2 MiB",
	"64 MiB", "256 MiB",
};

/* A power of two in [1, max] (RD atomic depths; 0 if max is 0). */
static uint8_t va_pow2_upto(uint32_t *rs, int max)
{
	uint8_t v = 1;
	int n = vt_rand(rs) % 6;

	if (max <= 0)
		return 0;
	while (n-- && v * 2 <= max)
		v *= 2;
	return v;
}

static void va_choose(const struct va_env *env, unsigned int iter,
		      struct va_want *w)
{
	uint32_t rs = 0x9e3779b9u * (iter + 1);
	enum ibv_mtu mtus[] = { IBV_MTU_256, IBV_MTU_512, IBV_MTU_1024 };
	int i;

	memset(w, 0, sizeof(*w));
	w->rc_cap.max_send_wr = 16 + vt_rand(&rs) % 256;
	w->rc_cap.max_recv_wr = 16 + vt_rand(&rs) % 256;
	w->rc_cap.max_send_sge = 1 + vt_rand(&rs) % 4;
	w->rc_cap.max_recv_sge = 1 + vt_rand(&rs) % 4;
	w->rc_cap.max_inline_data = vt_rand(&rs) % 65;
	w->ud_cap.max_send_wr = 8 + vt_rand(&rs) % 64;
	w->ud_cap.max_recv_wr = 8 + vt_rand(&rs) % 64;
	w->ud_cap.max_send_sge = 1;
	w->ud_cap.max_recv_sge = 1 + vt_rand(&rs) % 2;
	w->ud_cap.max_inline_data = vt_rand(&rs) % 33;
	w->scq_cqe = 64 + vt_rand(&rs) % 512;
	w->rcq_cqe = 64 + vt_rand(&rs) % 512;

	/* Path MTUs up to the port's (1024 with the netdev's 1500). */
	do
		w->mtu = mtus[vt_rand(&rs) % 3];
	while (w->mtu > env->pattr.active_mtu && w->mtu != IBV_MTU_256);
	/* A made-up remote QP: no data moves, RTR only records it. */
	w->dqpn = 2 + vt_rand(&rs) % 0xfffffd;
	w->rq_psn = vt_rand(&rs) & 0xffffff;
	w->sq_psn = vt_rand(&rs) & 0xffffff;
	w->timeout = vt_rand(&rs) % 32;
	w->retry_cnt = vt_rand(&rs) % 8;
	w->rnr_retry = vt_rand(&rs) % 8;
	w->min_rnr_timer = vt_rand(&rs) % 32;
	w->max_rd_atomic = va_pow2_upto(&rs, env->dattr.max_qp_init_rd_atom);
	w->max_dest_rd_atomic = va_pow2_upto(&rs, env->dattr.max_qp_rd_atom);
	w->hop_limit = 1 + vt_rand(&rs) % 255;
	/*
	 * DSCP class selectors only (TOS bits 1-4 clear): rt_tos2priority()
	 * maps them to user priority 0, the one traffic class ice_lite sets
	 * up, while the value itself still must come back unchanged.
	 */
	w->tclass = (vt_rand(&rs) % 8) << 5;
	/* Q_Keys with the high bit set are privileged: stay below. */
	w->ud_qkey = vt_rand(&rs) & 0x7fffffff;
	w->ud_sq_psn = vt_rand(&rs) & 0xffffff;
	for (i = 0; i < 2; i++) {
		w->ah_hop[i] = 1 + vt_rand(&rs) % 255;
		w->ah_tclass[i] = (vt_rand(&rs) % 8) << 5;
	}
}

static struct ibv_qp *va_create_qp(struct va_set *s, enum ibv_qp_type type,
				   const struct ibv_qp_cap *cap)
{
	struct ibv_qp_init_attr ia = {
		.send_cq = s->scq,
		.recv_cq = s->rcq,
		.cap = *cap,
		.qp_type = type,
	};
	const char *tn = type == IBV_QPT_RC ? "RC" : "UD";
	struct ibv_qp *qp;
	char what[64];

	qp = ibv_create_qp(s->pd, &ia);
	if (!qp) {
		int err = errno;

		va_skip_if_unsupported(type == IBV_QPT_RC ?
				       "ibv_create_qp(RC)" : "ibv_create_qp(UD)",
				       err);
		vt_fail("ibv_create_qp(%s, send_wr %u recv_wr %u sge %u/%u inline %u): %s",
			tn, cap->max_send_wr, cap->max_recv_wr,
			cap->max_send_sge, cap->max_recv_sge,
			cap->max_inline_data, strerror(err));
		return NULL;
	}
	/* The provider reports what it built: at least what was asked. */
	snprintf(what, sizeof(what), "%s create cap.max_send_wr", tn);
	vt_expect_ge(what, cap->max_send_wr, ia.cap.max_send_wr);
	snprintf(what, sizeof(what), "%s create cap.max_recv_wr", tn);
	vt_expect_ge(what, cap->max_recv_wr, ia.cap.max_recv_wr);
	vt_check(qp->qp_num > 1, "%s QP number %u (not 0/1, the special QPs)",
		 tn, qp->qp_num);
	return qp;
}

static bool va_create(struct va_env *env, struct va_set *s)
{
	const struct va_want *w = &s->w;
	int i;

	s->pd = ibv_alloc_pd(env->ctx);
	if (!s->pd) {
		vt_fail("ibv_alloc_pd: %s", strerror(errno));
		return false;
	}
	s->scq = ibv_create_cq(env->ctx, w->scq_cqe, NULL, NULL, 0);
	if (!s->scq)
		va_skip_if_unsupported("ibv_create_cq", errno);
	s->rcq = s->scq ? ibv_create_cq(env->ctx, w->rcq_cqe, NULL, NULL, 0) :
		NULL;
	if (!s->scq || !s->rcq) {
		vt_fail("ibv_create_cq(%d/%d): %s", w->scq_cqe, w->rcq_cqe,
			strerror(errno));
		return false;
	}
	vt_expect_ge("send CQ cqe", w->scq_cqe, s->scq->cqe);
	vt_expect_ge("recv CQ cqe", w->rcq_cqe, s->rcq->cqe);

	for (i = 0; i < env->nr_mr; i++) {
		s->mr[i] = ibv_reg_mr(s->pd, env->buf[i], env->len[i],
				      VA_MR_ACCESS);
		if (!s->mr[i]) {
			int err = errno;

			va_skip_if_unsupported("ibv_reg_mr", err);
			vt_fail("ibv_reg_mr %s: %s", va_mr_name[i],
				strerror(err));
			return false;
		}
		vt_check(s->mr[i]->addr == env->buf[i] &&
			 s->mr[i]->length == env->len[i],
			 "MR %s: addr/length as registered", va_mr_name[i]);
	}
	/* Every MR has its own STag. */
	for (i = 1; i < env->nr_mr; i++) {
		int j;

		for (j = 0; j < i; j++)
			if (s->mr[i]->lkey == s->mr[j]->lkey ||
			    s->mr[i]->rkey == s->mr[j]->rkey)
				vt_fail("MR %s and %s share a key (0x%x/0x%x)",
					va_mr_name[i], va_mr_name[j],
					s->mr[i]->lkey, s->mr[i]->rkey);
	}

	s->rc = va_create_qp(s, IBV_QPT_RC, &w->rc_cap);
	s->ud = s->rc ? va_create_qp(s, IBV_QPT_UD, &w->ud_cap) : NULL;
	if (!s->rc || !s->ud)
		return false;

	for (i = 0; i < 2; i++) {
		struct ibv_ah_attr aa = {
			.is_global = 1,
			.port_num = 1,
			.grh = {
				.dgid = env->dgid,
				.sgid_index = env->gid_index,
				.hop_limit = w->ah_hop[i],
				.traffic_class = w->ah_tclass[i],
			},
		};

		s->ah[i] = ibv_create_ah(s->pd, &aa);
		if (!s->ah[i]) {
			int err = errno;

			va_skip_if_unsupported("ibv_create_ah", err);
			vt_fail("ibv_create_ah(hop %u tclass 0x%x): %s",
				w->ah_hop[i], w->ah_tclass[i], strerror(err));
			return false;
		}
	}
	return true;
}

static bool va_modify(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask,
		      const char *what)
{
	int ret = ibv_modify_qp(qp, a, mask);

	if (ret) {
		va_skip_if_unsupported(what, ret);
		vt_fail("%s (QP %u): %s", what, qp->qp_num, strerror(ret));
		return false;
	}
	return true;
}

static bool va_query(struct ibv_qp *qp, struct ibv_qp_attr *a,
		     struct ibv_qp_init_attr *ia, const char *what)
{
	int ret;

	memset(a, 0, sizeof(*a));
	memset(ia, 0, sizeof(*ia));
	ret = ibv_query_qp(qp, a, IBV_QP_STATE | IBV_QP_CUR_STATE |
			   IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			   IBV_QP_ACCESS_FLAGS | IBV_QP_QKEY | IBV_QP_AV |
			   IBV_QP_PATH_MTU | IBV_QP_TIMEOUT |
			   IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			   IBV_QP_RQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC |
			   IBV_QP_MIN_RNR_TIMER | IBV_QP_SQ_PSN |
			   IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_DEST_QPN |
			   IBV_QP_CAP, ia);
	if (ret) {
		va_skip_if_unsupported("ibv_query_qp", ret);
		vt_fail("ibv_query_qp %s (QP %u): %s", what, qp->qp_num,
			strerror(ret));
		return false;
	}
	return true;
}

static bool va_expect_state(struct ibv_qp *qp, enum ibv_qp_state want,
			    const char *what)
{
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	char name[64];

	if (!va_query(qp, &a, &ia, what))
		return false;
	snprintf(name, sizeof(name), "%s: qp_state", what);
	return vt_expect_u64(name, want, a.qp_state);
}

/* The capabilities a query returns: at least what the QP was created with. */
static void va_check_cap(const char *tn, const struct ibv_qp_cap *want,
			 const struct ibv_qp_attr *a,
			 const struct ibv_qp_init_attr *ia)
{
	char n[64];

	snprintf(n, sizeof(n), "%s cap.max_send_wr", tn);
	vt_expect_ge(n, want->max_send_wr, a->cap.max_send_wr);
	snprintf(n, sizeof(n), "%s cap.max_recv_wr", tn);
	vt_expect_ge(n, want->max_recv_wr, a->cap.max_recv_wr);
	snprintf(n, sizeof(n), "%s cap.max_send_sge", tn);
	vt_expect_ge(n, want->max_send_sge, a->cap.max_send_sge);
	snprintf(n, sizeof(n), "%s cap.max_recv_sge", tn);
	vt_expect_ge(n, want->max_recv_sge, a->cap.max_recv_sge);
	snprintf(n, sizeof(n), "%s cap.max_inline_data", tn);
	vt_expect_ge(n, want->max_inline_data, a->cap.max_inline_data);
	snprintf(n, sizeof(n), "%s init_attr.cap.max_send_wr", tn);
	vt_expect_ge(n, want->max_send_wr, ia->cap.max_send_wr);
	snprintf(n, sizeof(n), "%s init_attr.cap.max_recv_wr", tn);
	vt_expect_ge(n, want->max_recv_wr, ia->cap.max_recv_wr);
}

/*
 * Access flags: what was set must come back. IBV_ACCESS_MW_BIND may be
 * added (upstream irdma always enables binding in the QP context and
 * reports it); nothing else may.
 */
static void va_check_access(const char *tn, int want, int got)
{
	vt_check((got & want) == want &&
		 !(got & ~(want | IBV_ACCESS_MW_BIND)),
		 "%s qp_access_flags 0x%x (set 0x%x)", tn, got, want);
}

static bool va_rc_to_rts(const struct va_env *env, struct va_set *s)
{
	const struct va_want *w = &s->w;
	struct ibv_qp_attr a;

	if (!va_expect_state(s->rc, IBV_QPS_RESET, "RC after create"))
		return false;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	a.qp_access_flags = VA_QP_ACCESS;
	if (!va_modify(s->rc, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
		       IBV_QP_PORT | IBV_QP_ACCESS_FLAGS, "RC RESET->INIT") ||
	    !va_expect_state(s->rc, IBV_QPS_INIT, "RC after INIT"))
		return false;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = w->mtu;
	a.dest_qp_num = w->dqpn;
	a.rq_psn = w->rq_psn;
	a.max_dest_rd_atomic = w->max_dest_rd_atomic;
	a.min_rnr_timer = w->min_rnr_timer;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.dgid = env->dgid;
	a.ah_attr.grh.sgid_index = env->gid_index;
	a.ah_attr.grh.hop_limit = w->hop_limit;
	a.ah_attr.grh.traffic_class = w->tclass;
	if (!va_modify(s->rc, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
		       IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
		       IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER,
		       "RC INIT->RTR") ||
	    !va_expect_state(s->rc, IBV_QPS_RTR, "RC after RTR"))
		return false;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = w->sq_psn;
	a.timeout = w->timeout;
	a.retry_cnt = w->retry_cnt;
	a.rnr_retry = w->rnr_retry;
	a.max_rd_atomic = w->max_rd_atomic;
	return va_modify(s->rc, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			 IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			 IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC,
			 "RC RTR->RTS");
}

static void va_check_rc(const struct va_env *env, const struct va_set *s)
{
	const struct va_want *w = &s->w;
	const struct ibv_global_route *g;
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	if (!va_query(s->rc, &a, &ia, "RC at RTS"))
		return;
	vt_expect_u64("RC qp_state", IBV_QPS_RTS, a.qp_state);
	vt_expect_u64("RC path_mtu", w->mtu, a.path_mtu);
	vt_expect_u64("RC dest_qp_num", w->dqpn, a.dest_qp_num);
	vt_expect_u64("RC rq_psn", w->rq_psn, a.rq_psn);
	vt_expect_u64("RC sq_psn", w->sq_psn, a.sq_psn);
	vt_expect_u64("RC timeout", w->timeout, a.timeout);
	vt_expect_u64("RC retry_cnt", w->retry_cnt, a.retry_cnt);
	vt_expect_u64("RC rnr_retry", w->rnr_retry, a.rnr_retry);
	vt_expect_u64("RC min_rnr_timer", w->min_rnr_timer, a.min_rnr_timer);
	vt_expect_u64("RC max_rd_atomic", w->max_rd_atomic, a.max_rd_atomic);
	vt_expect_u64("RC max_dest_rd_atomic", w->max_dest_rd_atomic,
		      a.max_dest_rd_atomic);
	vt_expect_u64("RC pkey_index", 0, a.pkey_index);
	vt_expect_u64("RC port_num", 1, a.port_num);
	va_check_access("RC", VA_QP_ACCESS, a.qp_access_flags);
	g = &a.ah_attr.grh;
	vt_expect_u64("RC ah_attr.is_global", 1, a.ah_attr.is_global);
	vt_expect_u64("RC ah_attr.port_num", 1, a.ah_attr.port_num);
	vt_expect_u64("RC ah_attr.grh.sgid_index", env->gid_index,
		      g->sgid_index);
	/*
	 * Not the value set: for RoCE unicast ib_core replaces the hop limit
	 * with the route's when it resolves the destination MAC
	 * (ib_resolve_unicast_gid_dmac(), drivers/infiniband/core/verbs.c).
	 */
	vt_expect_u64("RC ah_attr.grh.hop_limit (the route's)", env->route_ttl,
		      g->hop_limit);
	vt_expect_u64("RC ah_attr.grh.traffic_class", w->tclass,
		      g->traffic_class);
	if (memcmp(&g->dgid, &env->dgid, sizeof(g->dgid))) {
		char want[64], got[64];

		vt_fail("RC ah_attr.grh.dgid: want %s, got %s",
			vt_gid_str(&env->dgid, want, sizeof(want)),
			vt_gid_str(&g->dgid, got, sizeof(got)));
	} else {
		vt_ok("RC ah_attr.grh.dgid");
	}
	va_check_cap("RC", &w->rc_cap, &a, &ia);
}

static bool va_ud_to_rts(struct va_set *s)
{
	const struct va_want *w = &s->w;
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	a.qkey = w->ud_qkey;
	if (!va_modify(s->ud, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
		       IBV_QP_PORT | IBV_QP_QKEY, "UD RESET->INIT"))
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	if (!va_modify(s->ud, &a, IBV_QP_STATE, "UD INIT->RTR"))
		return false;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = w->ud_sq_psn;
	return va_modify(s->ud, &a, IBV_QP_STATE | IBV_QP_SQ_PSN,
			 "UD RTR->RTS");
}

static void va_check_ud(const struct va_set *s)
{
	const struct va_want *w = &s->w;
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;

	if (!va_query(s->ud, &a, &ia, "UD at RTS"))
		return;
	vt_expect_u64("UD qp_state", IBV_QPS_RTS, a.qp_state);
	vt_expect_u64("UD qkey", w->ud_qkey, a.qkey);
	vt_expect_u64("UD sq_psn", w->ud_sq_psn, a.sq_psn);
	vt_expect_u64("UD pkey_index", 0, a.pkey_index);
	vt_expect_u64("UD port_num", 1, a.port_num);
	va_check_cap("UD", &w->ud_cap, &a, &ia);
}

/* Destroys in reverse order of creation; every verb must return 0. */
bool va_destroy(struct va_set *s)
{
	unsigned int before = vt_fails;
	int i, ret;

	for (i = 1; i >= 0; i--)
		if (s->ah[i] && (ret = ibv_destroy_ah(s->ah[i])))
			vt_fail("ibv_destroy_ah: %s", strerror(ret));
	if (s->ud && (ret = ibv_destroy_qp(s->ud)))
		vt_fail("ibv_destroy_qp(UD): %s", strerror(ret));
	if (s->rc && (ret = ibv_destroy_qp(s->rc)))
		vt_fail("ibv_destroy_qp(RC): %s", strerror(ret));
	for (i = VA_NR_MR - 1; i >= 0; i--)
		if (s->mr[i] && (ret = ibv_dereg_mr(s->mr[i])))
			vt_fail("ibv_dereg_mr %s: %s", va_mr_name[i],
				strerror(ret));
	if (s->rcq && (ret = ibv_destroy_cq(s->rcq)))
		vt_fail("ibv_destroy_cq: %s", strerror(ret));
	if (s->scq && (ret = ibv_destroy_cq(s->scq)))
		vt_fail("ibv_destroy_cq: %s", strerror(ret));
	if (s->pd && (ret = ibv_dealloc_pd(s->pd)))
		vt_fail("ibv_dealloc_pd: %s", strerror(ret));
	memset(s, 0, sizeof(*s));
	return vt_fails == before;
}

/*
 * One iteration up to both QPs at RTS, checked. Returns whether all the
 * objects exist at RTS; failed checks are only counted (vt_fails).
 */
bool va_build(struct va_env *env, unsigned int iter, struct va_set *s)
{
	memset(s, 0, sizeof(*s));
	va_choose(env, iter, &s->w);
	if (!va_create(env, s) || !va_rc_to_rts(env, s) || !va_ud_to_rts(s))
		return false;
	va_check_rc(env, s);
	va_check_ud(s);
	return true;
}
