// SPDX-License-Identifier: GPL-2.0-only
/*
 * Result reporting and verbs look-ups for the guest test programs (vt.h).
 * Output goes to stdout, line-buffered, so that a scenario that reads it
 * while the program runs (the "hold" modes) sees every line at once.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt.h"

unsigned int vt_fails;
bool vt_quiet;

static void vt_vprint(const char *tag, const char *fmt, va_list ap)
{
	fputs(tag, stdout);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
}

void vt_ok(const char *fmt, ...)
{
	va_list ap;

	if (vt_quiet)
		return;
	va_start(ap, fmt);
	vt_vprint("ok: ", fmt, ap);
	va_end(ap);
}

void vt_fail(const char *fmt, ...)
{
	va_list ap;

	vt_fails++;
	/* A broken driver would fail every iteration: keep the log readable. */
	if (vt_fails > 50)
		return;
	va_start(ap, fmt);
	vt_vprint("FAIL: ", fmt, ap);
	va_end(ap);
}

void vt_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vt_vprint("  ", fmt, ap);
	va_end(ap);
}

void vt_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vt_vprint("SKIP: ", fmt, ap);
	va_end(ap);
	exit(VT_EXIT_SKIP);
}

bool vt_check(bool cond, const char *fmt, ...)
{
	va_list ap;

	if (cond && vt_quiet)
		return true;
	if (!cond && ++vt_fails > 50)
		return false;
	va_start(ap, fmt);
	vt_vprint(cond ? "ok: " : "FAIL: ", fmt, ap);
	va_end(ap);
	return cond;
}

bool vt_expect_u64(const char *what, uint64_t want, uint64_t got)
{
	if (want == got)
		return vt_check(true, "%s = %llu", what, (unsigned long long)got);
	return vt_check(false, "%s: want %llu, got %llu", what,
			(unsigned long long)want, (unsigned long long)got);
}

bool vt_expect_ge(const char *what, uint64_t want, uint64_t got)
{
	return vt_check(got >= want, "%s = %llu (requested %llu)", what,
			(unsigned long long)got, (unsigned long long)want);
}

/* "EINVAL" for EINVAL; a number for values glibc has no name for. */
static const char *vt_errname(int err, char *buf, unsigned int len)
{
	const char *n = strerrorname_np(err);

	if (n)
		return n;
	snprintf(buf, len, "errno %d", err);
	return buf;
}

bool vt_expect_errno(const char *what, bool failed, int err, int want)
{
	char b1[32], b2[32];

	if (!failed)
		return vt_check(false, "%s: succeeded, want %s", what,
				vt_errname(want, b1, sizeof(b1)));
	return vt_check(err == want, "%s: %s (want %s)", what,
			vt_errname(err, b1, sizeof(b1)),
			vt_errname(want, b2, sizeof(b2)));
}

struct ibv_qp *vt_create_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			    enum ibv_qp_type type, int cqe, uint32_t wr,
			    struct ibv_cq **cq)
{
	struct ibv_qp_init_attr ia = { 0 };
	struct ibv_qp *qp;

	*cq = ibv_create_cq(ctx, cqe, NULL, NULL, 0);
	if (!*cq) {
		vt_fail("create_cq: %s", strerror(errno));
		exit(1);
	}
	ia.send_cq = *cq;
	ia.recv_cq = *cq;
	ia.qp_type = type;
	ia.cap.max_send_wr = wr;
	ia.cap.max_recv_wr = wr;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	qp = ibv_create_qp(pd, &ia);
	if (!qp) {
		vt_fail("create_qp: %s", strerror(errno));
		exit(1);
	}
	return qp;
}

struct ibv_context *vt_open_device(const char *name)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	int i, n;

	list = ibv_get_device_list(&n);
	if (!list) {
		vt_fail("ibv_get_device_list: %s", strerror(errno));
		exit(1);
	}
	for (i = 0; i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), name))
			continue;
		ctx = ibv_open_device(list[i]);
		if (!ctx)
			vt_fail("ibv_open_device(%s): %s", name,
				strerror(errno));
		break;
	}
	ibv_free_device_list(list);
	if (i == n)
		vt_fail("no device %s among %d", name, n);
	if (!ctx)
		exit(1);
	return ctx;
}

int vt_rc_connect(struct ibv_qp *qp, uint32_t dqpn, const union ibv_gid *dgid,
		  int sgid_index, enum ibv_mtu mtu, uint32_t psn, int access)
{
	struct ibv_qp_attr a = { 0 };
	int ret;

	a.qp_state = IBV_QPS_INIT;
	a.port_num = 1;
	a.qp_access_flags = access;
	ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = mtu;
	a.dest_qp_num = dqpn;
	a.rq_psn = psn;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *dgid;
	a.ah_attr.grh.sgid_index = sgid_index;
	a.ah_attr.grh.hop_limit = 64;
	a.ah_attr.port_num = 1;
	ret = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			    IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			    IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (ret)
		return ret;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = psn;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	return ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN |
			     IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			     IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
}

bool vt_ipv4_gid(const char *ipv4, union ibv_gid *gid)
{
	struct in_addr a;

	if (inet_pton(AF_INET, ipv4, &a) != 1)
		return false;
	memset(gid, 0, sizeof(*gid));
	gid->raw[10] = 0xff;
	gid->raw[11] = 0xff;
	memcpy(&gid->raw[12], &a, 4);
	return true;
}

int vt_find_roce_v2_ipv4_gid(struct ibv_context *ctx, const char *ipv4)
{
	struct ibv_port_attr pattr;
	struct ibv_gid_entry e;
	union ibv_gid want;
	int i;

	if (!vt_ipv4_gid(ipv4, &want) || ibv_query_port(ctx, 1, &pattr))
		return -1;
	for (i = 0; i < pattr.gid_tbl_len; i++) {
		/* Empty entries fail with ENODATA: just skip them. */
		if (ibv_query_gid_ex(ctx, 1, i, &e, 0))
			continue;
		if (e.gid_type == IBV_GID_TYPE_ROCE_V2 &&
		    !memcmp(&e.gid, &want, sizeof(want)))
			return i;
	}
	return -1;
}

const char *vt_gid_str(const union ibv_gid *gid, char *buf, unsigned int len)
{
	const uint8_t *r = gid->raw;

	snprintf(buf, len,
		 "%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x:%02x%02x",
		 r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9],
		 r[10], r[11], r[12], r[13], r[14], r[15]);
	return buf;
}

uint32_t vt_rand(uint32_t *state)
{
	uint32_t x = *state ? *state : 0x2545f491;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}
