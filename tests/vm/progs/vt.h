/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small helpers shared by the guest test programs: result lines in the
 * format of tests/vm/lib/guest-lib.sh ("ok: ...", "FAIL: ...", "SKIP: ...")
 * and a few verbs look-ups every program needs.
 */
#ifndef VT_H
#define VT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/* Exit status of a skipped program (the runner's convention). */
#define VT_EXIT_SKIP 77

extern unsigned int vt_fails;
/* When set, vt_ok() prints nothing (the 1000-iteration loop). */
extern bool vt_quiet;

void vt_ok(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vt_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vt_skip(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* Records a check: ok when cond holds, else FAIL; returns cond. */
bool vt_check(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Compares two unsigned values; "what" names the attribute. */
bool vt_expect_u64(const char *what, uint64_t want, uint64_t got);
/* got >= want (capabilities a driver may round up). */
bool vt_expect_ge(const char *what, uint64_t want, uint64_t got);

/*
 * A call that must fail with errno "want": "failed" says whether it did
 * (NULL object or non-zero return), "err" is the errno it left.
 */
bool vt_expect_errno(const char *what, bool failed, int err, int want);

/* Opens the device called "name"; exits with a FAIL when it cannot. */
struct ibv_context *vt_open_device(const char *name);

/*
 * A CQ of "cqe" entries (in *cq) and a QP of "type" on it for both queues,
 * "wr" work requests deep each way with one SGE; exits with a FAIL when
 * either cannot be created.
 */
struct ibv_qp *vt_create_qp(struct ibv_context *ctx, struct ibv_pd *pd,
			    enum ibv_qp_type type, int cqe, uint32_t wr,
			    struct ibv_cq **cq);

/*
 * Index of the RoCEv2 GID of port 1 that holds the IPv4-mapped address
 * ipv4 (dotted quad), or -1.
 */
int vt_find_roce_v2_ipv4_gid(struct ibv_context *ctx, const char *ipv4);

/* The IPv4-mapped GID ::ffff:a.b.c.d of a dotted quad; false if invalid. */
bool vt_ipv4_gid(const char *ipv4, union ibv_gid *gid);

/* Formats a GID as 8 groups of 4 hex digits (sysfs style). */
const char *vt_gid_str(const union ibv_gid *gid, char *buf, unsigned int len);

/*
 * Drives an RC QP of port 1 RESET -> INIT -> RTR -> RTS towards QP @dqpn
 * at @dgid from source GID @sgid_index: @access for the responder, @mtu,
 * @psn both ways, one RDMA READ / atomic in flight each way, RNR timer
 * 12, timeout 14, seven retries. Returns ibv_modify_qp()'s error (0).
 */
int vt_rc_connect(struct ibv_qp *qp, uint32_t dqpn, const union ibv_gid *dgid,
		  int sgid_index, enum ibv_mtu mtu, uint32_t psn, int access);

/* A 32-bit pseudo-random sequence (xorshift), reproducible by seed. */
uint32_t vt_rand(uint32_t *state);

#endif /* VT_H */
