// SPDX-License-Identifier: GPL-2.0-only
/*
 * verbs_abi: the resource verbs of issue 6 through the stock rdma-core
 * irdma provider, against our kernel driver (the upstream uverbs ABI).
 *
 *   verbs_abi -d DEV -l LOCAL_IPV4 -p PEER_IPV4 [-n N] [-m BYTES] loop|neg|hold
 *
 * -m leaves out the MRs larger than BYTES (diagnostics: is it the big
 * registrations?); the scenario always uses all six.
 *
 * loop  N iterations (default 1000) of: PD, two CQs, an RC and a UD QP,
 *       six MRs (4 KiB .. 256 MiB), two AHs; the RC QP driven RESET ->
 *       INIT -> RTR -> RTS and the UD QP to RTS, each queried back with
 *       ibv_query_qp and every attribute that was set compared; then all
 *       of it destroyed, every destroy checked. The attribute values come
 *       from a pseudo-random sequence seeded by the iteration number, so
 *       a driver that returns stale or default values is caught.
 * neg   the negative cases (verbs_abi_neg.c), each with the errno
 *       upstream gives.
 * hold  one iteration's objects, left at RTS: prints "READY key=value..."
 *       (QP numbers, PSNs, sizes, keys) and waits for SIGUSR1 (or 300 s)
 *       so that a scenario can look at `rdma resource show`; then destroys
 *       everything.
 *
 * LOCAL_IPV4 must be an address of DEV's netdev (its RoCEv2 GID is the
 * source GID); PEER_IPV4 must be resolvable to a MAC on that netdev (the
 * kernel resolves the AH's destination MAC for RTR and create_ah).
 *
 * Output lines follow tests/vm/lib/guest-lib.sh (ok/FAIL/SKIP); exit 0
 * when every check passed, 77 when the kernel does not implement a verb
 * yet (EOPNOTSUPP the first time it is used), 1 otherwise.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "verbs_abi.h"

bool va_first_use = true;

#define VA_MR_ACCESS (IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | \
		      IBV_ACCESS_REMOTE_READ)
#define VA_QP_ACCESS VA_MR_ACCESS
#define VA_HOLD_TIMEOUT_S 300

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

static const char *const va_mr_name[VA_NR_MR] = {
	"4 KiB", "4 KiB at offset 100 (2 pages)", "64 KiB", "2 MiB",
	"64 MiB", "256 MiB",
};

void va_skip_if_unsupported(const char *verb, int err)
{
	if (err == EOPNOTSUPP && va_first_use)
		vt_skip("%s: EOPNOTSUPP: the kernel does not implement this verb yet",
			verb);
}

static double va_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The MR buffers, mapped and faulted in once: registering them 1000 times
 * then measures the driver, not page allocation. Transparent huge pages
 * are refused so that every MR is built from 4 KiB pages: 256 MiB is
 * 65536 pages, more than one PBLE page can describe (level 2).
 */
static void va_map_buffers(struct va_env *env, size_t max_mr)
{
	static const size_t sizes[VA_NR_MR] = {
		4096, 4096, 64 << 10, 2 << 20, 64 << 20, 256 << 20,
	};
	int i;

	for (i = 0; i < VA_NR_MR && sizes[i] <= max_mr; i++) {
		size_t map = i == 1 ? 2 * 4096 : sizes[i];
		uint8_t *p;

		p = mmap(NULL, map, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			vt_fail("mmap %zu bytes: %s", map, strerror(errno));
			exit(1);
		}
		madvise(p, map, MADV_NOHUGEPAGE);
		memset(p, 0x5a, map);
		env->map_len[i] = map;
		env->len[i] = sizes[i];
		/* Starts inside the first page and ends in the second. */
		env->buf[i] = i == 1 ? p + 100 : p;
	}
	env->nr_mr = i;
}

/*
 * The hop limit ib_core gives a RoCEv2 IPv4 path: the route's, which is
 * the default TTL when the route sets none (ip4_dst_hoplimit()).
 */
static unsigned int va_route_ttl(void)
{
	FILE *f = fopen("/proc/sys/net/ipv4/ip_default_ttl", "r");
	unsigned int ttl = 64;

	if (f) {
		if (fscanf(f, "%u", &ttl) != 1)
			ttl = 64;
		fclose(f);
	}
	return ttl;
}

static void va_setup(struct va_env *env, const char *dev, const char *local,
		     const char *peer)
{
	char g[64];

	env->ctx = vt_open_device(dev);
	if (ibv_query_device(env->ctx, &env->dattr) ||
	    ibv_query_port(env->ctx, 1, &env->pattr)) {
		vt_fail("ibv_query_device/port: %s", strerror(errno));
		exit(1);
	}
	env->gid_index = vt_find_roce_v2_ipv4_gid(env->ctx, local);
	if (env->gid_index < 0) {
		vt_fail("%s: no RoCEv2 GID for %s on port 1", dev, local);
		exit(1);
	}
	if (!vt_ipv4_gid(peer, &env->dgid)) {
		vt_fail("bad peer address %s", peer);
		exit(1);
	}
	vt_info("%s: max_qp_wr %d max_sge %d max_cqe %d max_qp_rd_atom %d max_qp_init_rd_atom %d active_mtu %d gid_tbl_len %d",
		dev, env->dattr.max_qp_wr, env->dattr.max_sge,
		env->dattr.max_cqe, env->dattr.max_qp_rd_atom,
		env->dattr.max_qp_init_rd_atom, env->pattr.active_mtu,
		env->pattr.gid_tbl_len);
	vt_info("source GID index %d (RoCEv2, %s), destination GID %s",
		env->gid_index, local, vt_gid_str(&env->dgid, g, sizeof(g)));
	env->route_ttl = va_route_ttl();
}

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
static bool va_destroy(struct va_set *s)
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
static bool va_build(struct va_env *env, unsigned int iter, struct va_set *s)
{
	memset(s, 0, sizeof(*s));
	va_choose(env, iter, &s->w);
	if (!va_create(env, s) || !va_rc_to_rts(env, s) || !va_ud_to_rts(s))
		return false;
	va_check_rc(env, s);
	va_check_ud(s);
	return true;
}

static void va_loop(struct va_env *env, unsigned int iters)
{
	double t0 = va_now(), t;
	unsigned int i, bad = 0, step = iters >= 100 ? iters / 10 : 1;
	struct va_set s;

	for (i = 0; i < iters; i++) {
		unsigned int before = vt_fails;
		bool good = va_build(env, i, &s) && vt_fails == before;

		/* The first iteration prints every check, then quietly. */
		va_first_use = false;
		vt_quiet = true;
		if (!va_destroy(&s))
			good = false;
		if (!good && ++bad >= 5) {
			vt_fail("stopping after %u failed iterations (last %u)",
				bad, i);
			i++;
			break;
		}
		if ((i + 1) % step == 0)
			vt_info("iteration %u: %.1f s", i + 1, va_now() - t0);
	}
	t = va_now() - t0;
	vt_quiet = false;
	vt_check(bad == 0, "%u of %u iterations passed every check (%.1f s, %.0f ms each)",
		 i - bad, i, t, i ? t * 1000 / i : 0.0);
}

/* " rc_send_wr=.. rc_recv_wr=.. rc_send_sge=.. ..." for the READY line. */
static void va_print_cap(const char *p, const struct ibv_qp_cap *c)
{
	printf(" %s_send_wr=%u %s_recv_wr=%u %s_send_sge=%u %s_recv_sge=%u %s_inline=%u",
	       p, c->max_send_wr, p, c->max_recv_wr, p, c->max_send_sge, p,
	       c->max_recv_sge, p, c->max_inline_data);
}

static void va_hold(struct va_env *env)
{
	struct timespec to = { .tv_sec = VA_HOLD_TIMEOUT_S };
	struct va_set s;
	sigset_t set;
	int i, sig;

	/* Block first: the scenario may signal as soon as it sees READY. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (!va_build(env, 0, &s)) {
		va_destroy(&s);
		return;
	}
	printf("READY pid=%d rc_qpn=%u ud_qpn=%u dqpn=%u rq_psn=%u sq_psn=%u ud_sq_psn=%u ud_qkey=%u scq_req=%d rcq_req=%d scq_cqe=%d rcq_cqe=%d path_mtu=%d",
	       (int)getpid(), s.rc->qp_num, s.ud->qp_num, s.w.dqpn,
	       s.w.rq_psn, s.w.sq_psn, s.w.ud_sq_psn, s.w.ud_qkey,
	       s.w.scq_cqe, s.w.rcq_cqe, s.scq->cqe, s.rcq->cqe, 128 << s.w.mtu);
	va_print_cap("rc", &s.w.rc_cap);
	va_print_cap("ud", &s.w.ud_cap);
	for (i = 0; i < env->nr_mr; i++)
		printf(" mr%d_lkey=%u mr%d_len=%zu", i, s.mr[i]->lkey, i,
		       s.mr[i]->length);
	printf("\n");
	fflush(stdout);
	sig = sigtimedwait(&set, NULL, &to);
	vt_check(sig > 0, "released by %s", sig > 0 ? strsignal(sig) :
		 "nothing (timeout)");
	vt_check(va_destroy(&s), "hold set destroyed");
}

static void va_usage(void)
{
	fprintf(stderr,
		"usage: verbs_abi -d DEV -l LOCAL_IPV4 -p PEER_IPV4 [-n ITER] [-m MAX_MR_BYTES] loop|neg|hold\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dev = NULL, *local = NULL, *peer = NULL, *mode;
	unsigned int iters = 1000;
	size_t max_mr = SIZE_MAX;
	struct va_env env = { 0 };
	int c;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((c = getopt(argc, argv, "d:l:p:n:m:")) != -1) {
		switch (c) {
		case 'd':
			dev = optarg;
			break;
		case 'l':
			local = optarg;
			break;
		case 'p':
			peer = optarg;
			break;
		case 'n':
			iters = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			max_mr = strtoull(optarg, NULL, 0);
			break;
		default:
			va_usage();
		}
	}
	if (!dev || !local || !peer || optind != argc - 1)
		va_usage();
	mode = argv[optind];

	if (strcmp(mode, "loop") && strcmp(mode, "neg") && strcmp(mode, "hold"))
		va_usage();
	va_setup(&env, dev, local, peer);
	if (!strcmp(mode, "neg")) {
		va_negative(&env);
	} else {
		va_map_buffers(&env, max_mr);
		if (!strcmp(mode, "loop"))
			va_loop(&env, iters);
		else
			va_hold(&env);
	}

	ibv_close_device(env.ctx);
	printf("%s: %u check(s) failed\n", mode, vt_fails);
	return vt_fails ? 1 : 0;
}
