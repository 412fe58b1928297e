// SPDX-License-Identifier: GPL-2.0-only
/*
 * uverbs_fuzz: boundary and random uverbs commands against irdma, issued
 * raw through the write() and ioctl() interfaces of /dev/infiniband/uverbsN.
 * Meant to run as an
 * unprivileged user.
 *
 *   uverbs_fuzz -d DEV [-g GID_INDEX] [-S] [--seed N] [--iters N] fuzz
 *   uverbs_fuzz -d DEV0 -D DEV1 -l IPV4_0 -p IPV4_1 [--iters N] race
 *
 * fuzz  opens its own user context (GET_CONTEXT with irdma's ABI) and runs
 *       a boundary pass (every case below; those marked "must fail" are
 *       requests no driver may accept) and a random pass of N commands
 *       (create/destroy/resize CQ, create/modify/destroy QP, reg/dereg MR
 *       and queue buffers, alloc/dealloc PD, mmap of the device fd) from a
 *       seeded PRNG (the seed is printed). Every error code is recorded;
 *       each must be one a driver returns for a refused request (EIO,
 *       ETIMEDOUT and friends mean the device or the driver broke).
 * race  the concurrent RESIZE_CQ test (uverbs_race.c).
 *
 * Output lines follow tests/vm/lib/guest-lib.sh; exit 0 when every check
 * passed, 1 otherwise.
 */
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/irdma-abi.h>
#include <rdma/rdma_user_ioctl.h>

#include "uverbs_fuzz.h"

#define UF_PAGE 4096
#define UF_ABI_VER 5
/* The arena queue buffers and MRs come from (pages). */
#define UF_ARENA_PAGES 256
#define UF_MAX_OBJ 64
#define UF_ACCESS_LW 1u		/* IB_ACCESS_LOCAL_WRITE */
#define UF_MEM 0		/* IRDMA_MEMREG_TYPE_MEM */
#define UF_QP 1			/* IRDMA_MEMREG_TYPE_QP */
#define UF_CQ 2			/* IRDMA_MEMREG_TYPE_CQ */

/* ---- the command layer ---------------------------------------------------- */

int uf_write(int fd, uint32_t cmd, void *in, size_t inlen, size_t outlen)
{
	uint8_t buf[512];
	struct ib_uverbs_cmd_hdr *h = (void *)buf;

	if (inlen + sizeof(*h) > sizeof(buf))
		return -E2BIG;
	h->command = cmd;
	h->in_words = (sizeof(*h) + inlen) / 4;
	h->out_words = outlen / 4;
	memcpy(buf + sizeof(*h), in, inlen);
	if (write(fd, buf, sizeof(*h) + inlen) < 0)
		return -errno;
	return 0;
}

/* Errnos a driver or ib_core returns for a request it refuses. */
static const int uf_ok_errnos[] = {
	EINVAL, ENOMEM, EFAULT, EOPNOTSUPP, EPERM, EACCES, ENOENT, EBUSY,
	ERANGE, ENOSPC, ENXIO, EPROTO, ENODATA, E2BIG, EOVERFLOW, EAGAIN,
	ENOSYS, ENODEV,
};

#define UF_MAX_OPS 24
#define UF_MAX_ERR 160
static struct {
	const char *op;
	unsigned int n[UF_MAX_ERR];
	unsigned int ok;
} uf_stats[UF_MAX_OPS];

static unsigned int *uf_slot(const char *op, int err)
{
	int i;

	for (i = 0; i < UF_MAX_OPS && uf_stats[i].op; i++)
		if (!strcmp(uf_stats[i].op, op))
			break;
	if (i == UF_MAX_OPS)
		i = UF_MAX_OPS - 1;
	uf_stats[i].op = op;
	if (!err)
		return &uf_stats[i].ok;
	return &uf_stats[i].n[-err < UF_MAX_ERR ? -err : 0];
}

void uf_errno(const char *op, int err)
{
	unsigned int i;

	(*uf_slot(op, err))++;
	if (!err)
		return;
	for (i = 0; i < sizeof(uf_ok_errnos) / sizeof(uf_ok_errnos[0]); i++)
		if (-err == uf_ok_errnos[i])
			return;
	/*
	 * The stock irdma passes requests it does not check to the device,
	 * and irdma_handle_cqp_op() turns the CQP's refusal into EIO.
	 */
	if (err == -EIO && uf_stock)
		return;
	vt_fail("%s: errno %d (%s) is not a refusal a driver gives", op, -err,
		strerror(-err));
}

bool uf_stock;

/*
 * A request our irdma refuses but upstream irdma accepts (it trusts its
 * provider there): a failure for ours, a note for the stock driver.
 */
static void uf_must_fail_ours(const char *what, int err)
{
	if (!err && uf_stock) {
		vt_info("note: the stock irdma accepts: %s", what);
		return;
	}
	uf_must_fail(what, err);
}

/*
 * A request that must be accepted. Upstream irdma_get_pbl() takes a
 * queue buffer off the context's list at the first CREATE/RESIZE that
 * looks it up, even one that then fails: with the stock driver a buffer
 * an earlier case used is gone (EPROTO), a note there.
 */
static bool uf_must_work(const char *what, int err)
{
	static unsigned int notes;

	if (err == -EPROTO && uf_stock) {
		if (++notes <= 5)
			vt_info("note: the stock irdma no longer has the buffer: %s%s",
				what, notes == 5 ? " (no more such notes)" : "");
		return false;
	}
	return vt_check(!err, "%s: %s", what, strerror(-err));
}

void uf_must_fail(const char *what, int err)
{
	if (err)
		vt_check(true, "%s refused: %s", what, strerror(-err));
	else
		vt_fail("%s: accepted, must be refused", what);
}

static void uf_print_stats(void)
{
	int i, e;

	for (i = 0; i < UF_MAX_OPS && uf_stats[i].op; i++) {
		char line[512];
		int o;

		o = snprintf(line, sizeof(line), "%-12s ok %u", uf_stats[i].op,
			     uf_stats[i].ok);
		for (e = 0; e < UF_MAX_ERR && o < (int)sizeof(line) - 32; e++)
			if (uf_stats[i].n[e])
				o += snprintf(line + o, sizeof(line) - o,
					      ", %s %u", strerrorname_np(e) ?
					      strerrorname_np(e) : "?",
					      uf_stats[i].n[e]);
		vt_info("%s", line);
	}
}

/* ---- raw context and objects ---------------------------------------------- */

struct uf_ctx {
	int fd;
	uint32_t ncomp;
	uint64_t db_key;
	uint32_t pd;
	uint8_t *arena;		/* UF_ARENA_PAGES pages, read-write */
	uint8_t *ro;		/* 4 read-only pages, never written */
	uint32_t seed;
	uint32_t driver_id;	/* of the ioctl header: RDMA_DRIVER_IRDMA */
	uint8_t gid;		/* source GID index of the RTR requests */
};

static int uf_open_dev(const char *name)
{
	char path[300], ib[64];
	struct dirent *d;
	int fd = -1;
	DIR *dir;

	dir = opendir("/sys/class/infiniband_verbs");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		FILE *f;

		if (strncmp(d->d_name, "uverbs", 6))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/class/infiniband_verbs/%s/ibdev", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%63s", ib) == 1 && !strcmp(ib, name)) {
			snprintf(path, sizeof(path), "/dev/infiniband/%s",
				 d->d_name);
			fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				vt_fail("open %s: %s", path, strerror(errno));
		}
		fclose(f);
	}
	closedir(dir);
	return fd;
}

static int uf_get_context(struct uf_ctx *c, size_t inlen, size_t outlen)
{
	struct {
		struct ib_uverbs_get_context cmd;
		struct irdma_alloc_ucontext_req req;
	} in = { };
	struct {
		struct ib_uverbs_get_context_resp core;
		struct irdma_alloc_ucontext_resp drv;
	} out = { };
	int err;

	in.cmd.response = (uintptr_t)&out;
	in.req.userspace_ver = UF_ABI_VER;
	err = uf_write(c->fd, IB_USER_VERBS_CMD_GET_CONTEXT, &in, inlen,
		       outlen);
	if (!err) {
		c->ncomp = out.core.num_comp_vectors;
		c->db_key = out.drv.db_mmap_key;
		close(out.core.async_fd);
	}
	return err;
}

static int uf_alloc_pd(struct uf_ctx *c, uint32_t *pd)
{
	struct {
		struct ib_uverbs_alloc_pd cmd;
	} in = { };
	struct {
		struct ib_uverbs_alloc_pd_resp core;
		struct irdma_alloc_pd_resp drv;
	} out = { };
	int err;

	in.cmd.response = (uintptr_t)&out;
	err = uf_write(c->fd, IB_USER_VERBS_CMD_ALLOC_PD, &in, sizeof(in),
		       sizeof(out));
	*pd = out.core.pd_handle;
	return err;
}

static int uf_dealloc_pd(int fd, uint32_t pd)
{
	struct ib_uverbs_dealloc_pd in = { .pd_handle = pd };

	return uf_write(fd, IB_USER_VERBS_CMD_DEALLOC_PD, &in, sizeof(in), 0);
}

int uf_reg(int fd, uint32_t pd, void *start, uint64_t len, uint64_t iova,
	   uint32_t access, uint16_t reg_type, uint16_t cq_pages,
	   uint16_t rq_pages, uint16_t sq_pages, uint32_t *mr_handle)
{
	struct {
		struct ib_uverbs_reg_mr cmd;
		struct irdma_mem_reg_req req;
	} in = { };
	struct ib_uverbs_reg_mr_resp out = { };
	int err;

	in.cmd.response = (uintptr_t)&out;
	in.cmd.start = (uintptr_t)start;
	in.cmd.length = len;
	in.cmd.hca_va = iova;
	in.cmd.pd_handle = pd;
	in.cmd.access_flags = access;
	in.req.reg_type = reg_type;
	in.req.cq_pages = cq_pages;
	in.req.rq_pages = rq_pages;
	in.req.sq_pages = sq_pages;
	err = uf_write(fd, IB_USER_VERBS_CMD_REG_MR, &in, sizeof(in),
		       sizeof(out));
	*mr_handle = out.mr_handle;
	return err;
}

int uf_dereg(int fd, uint32_t mr)
{
	struct ib_uverbs_dereg_mr in = { .mr_handle = mr };

	return uf_write(fd, IB_USER_VERBS_CMD_DEREG_MR, &in, sizeof(in), 0);
}

/* CREATE_CQ through write(): @inlen/@outlen are the driver's udata bytes. */
static int uf_create_cq(struct uf_ctx *c, uint32_t cqe, uint32_t vec,
			uint64_t ring, uint64_t shadow, size_t inlen,
			size_t outlen, uint32_t *cq)
{
	struct {
		struct ib_uverbs_create_cq cmd;
		struct irdma_create_cq_req req;
		uint64_t extra[4];
	} in = { };
	struct {
		struct ib_uverbs_create_cq_resp core;
		struct irdma_create_cq_resp drv;
		uint64_t extra[4];
	} out = { };
	int err;

	in.cmd.response = (uintptr_t)&out;
	in.cmd.cqe = cqe;
	in.cmd.comp_vector = vec;
	in.cmd.comp_channel = -1;
	in.req.user_cq_buf = ring;
	in.req.user_shadow_area = shadow;
	err = uf_write(c->fd, IB_USER_VERBS_CMD_CREATE_CQ, &in,
		       sizeof(in.cmd) + inlen, sizeof(out.core) + outlen);
	*cq = out.core.cq_handle;
	return err;
}

/*
 * CREATE_CQ through the ioctl() interface, where udata sizes are bytes:
 * @in/@out point at the driver's udata (any address, any length).
 */
static int uf_ioctl_create_cq(struct uf_ctx *c, uint32_t cqe, void *uin,
			      uint16_t inlen, void *uout, uint16_t outlen,
			      uint32_t *cq)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr a[7];
	} m = { };
	uint32_t resp_cqe = 0;
	uint32_t vec = 0;
	int n = 0;

	m.a[n++] = (struct ib_uverbs_attr){
		.attr_id = UVERBS_ATTR_CREATE_CQ_HANDLE,
		.flags = UVERBS_ATTR_F_MANDATORY,
	};
	m.a[n++] = (struct ib_uverbs_attr){
		.attr_id = UVERBS_ATTR_CREATE_CQ_CQE, .len = 4,
		.flags = UVERBS_ATTR_F_MANDATORY, .data = cqe,
	};
	m.a[n++] = (struct ib_uverbs_attr){
		.attr_id = UVERBS_ATTR_CREATE_CQ_USER_HANDLE, .len = 8,
		.flags = UVERBS_ATTR_F_MANDATORY, .data = 0x5a5a,
	};
	m.a[n++] = (struct ib_uverbs_attr){
		.attr_id = UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, .len = 4,
		.flags = UVERBS_ATTR_F_MANDATORY, .data = vec,
	};
	m.a[n++] = (struct ib_uverbs_attr){
		.attr_id = UVERBS_ATTR_CREATE_CQ_RESP_CQE, .len = 4,
		.flags = UVERBS_ATTR_F_MANDATORY,
		.data = (uintptr_t)&resp_cqe,
	};
	if (uin)
		m.a[n++] = (struct ib_uverbs_attr){
			.attr_id = UVERBS_ATTR_UHW_IN, .len = inlen,
			.data = (uintptr_t)uin,
		};
	if (uout)
		m.a[n++] = (struct ib_uverbs_attr){
			.attr_id = UVERBS_ATTR_UHW_OUT, .len = outlen,
			.data = (uintptr_t)uout,
		};
	/* Inline data: up to 8 bytes travel in .data itself. */
	if (uin && inlen <= 8) {
		uint64_t v = 0;

		memcpy(&v, uin, inlen);
		m.a[5].data = v;
	}
	m.hdr.length = sizeof(m.hdr) + n * sizeof(m.a[0]);
	m.hdr.object_id = UVERBS_OBJECT_CQ;
	m.hdr.method_id = UVERBS_METHOD_CQ_CREATE;
	m.hdr.num_attrs = n;
	m.hdr.driver_id = c->driver_id;
	if (ioctl(c->fd, RDMA_VERBS_IOCTL, &m))
		return -errno;
	*cq = m.a[0].data;
	return 0;
}

static int uf_destroy_cq(int fd, uint32_t cq)
{
	struct ib_uverbs_destroy_cq_resp out;
	struct ib_uverbs_destroy_cq in = {
		.response = (uintptr_t)&out, .cq_handle = cq,
	};

	return uf_write(fd, IB_USER_VERBS_CMD_DESTROY_CQ, &in, sizeof(in),
			sizeof(out));
}

int uf_resize_cq(int fd, uint32_t cq, uint32_t cqe, uint64_t ring,
		 size_t udata_in)
{
	struct {
		struct ib_uverbs_resize_cq cmd;
		struct irdma_resize_cq_req req;
	} in = { };
	struct ib_uverbs_resize_cq_resp out = { };

	in.cmd.response = (uintptr_t)&out;
	in.cmd.cq_handle = cq;
	in.cmd.cqe = cqe;
	in.req.user_cq_buffer = ring;
	return uf_write(fd, IB_USER_VERBS_CMD_RESIZE_CQ, &in,
			sizeof(in.cmd) + udata_in, sizeof(out));
}

struct uf_qp_req {
	uint32_t pd, scq, rcq;
	uint32_t swr, rwr, ssge, rsge, inl;
	uint8_t type;
	uint64_t wqe_buf;
	size_t inlen, outlen;	/* driver udata bytes */
};

static int uf_create_qp(int fd, const struct uf_qp_req *r, uint32_t *qp,
			uint32_t *qpn)
{
	struct {
		struct ib_uverbs_create_qp cmd;
		struct irdma_create_qp_req req;
		uint64_t extra[2];
	} in = { };
	struct {
		struct ib_uverbs_create_qp_resp core;
		struct irdma_create_qp_resp drv;
		uint64_t extra[2];
	} out = { };
	int err;

	in.cmd.response = (uintptr_t)&out;
	in.cmd.pd_handle = r->pd;
	in.cmd.send_cq_handle = r->scq;
	in.cmd.recv_cq_handle = r->rcq;
	in.cmd.max_send_wr = r->swr;
	in.cmd.max_recv_wr = r->rwr;
	in.cmd.max_send_sge = r->ssge;
	in.cmd.max_recv_sge = r->rsge;
	in.cmd.max_inline_data = r->inl;
	in.cmd.qp_type = r->type;
	in.req.user_wqe_bufs = r->wqe_buf;
	in.req.user_compl_ctx = 0x1234;
	err = uf_write(fd, IB_USER_VERBS_CMD_CREATE_QP, &in,
		       sizeof(in.cmd) + r->inlen,
		       sizeof(out.core) + r->outlen);
	*qp = out.core.qp_handle;
	if (qpn)
		*qpn = out.core.qpn;
	return err;
}

static int uf_destroy_qp(int fd, uint32_t qp)
{
	struct ib_uverbs_destroy_qp_resp out;
	struct ib_uverbs_destroy_qp in = {
		.response = (uintptr_t)&out, .qp_handle = qp,
	};

	return uf_write(fd, IB_USER_VERBS_CMD_DESTROY_QP, &in, sizeof(in),
			sizeof(out));
}

static int uf_modify_qp(int fd, struct ib_uverbs_modify_qp *m)
{
	return uf_write(fd, IB_USER_VERBS_CMD_MODIFY_QP, m, sizeof(*m), 0);
}

/* ---- the boundary pass ---------------------------------------------------- */

/* A CQ queue buffer of @pages pages at arena page @at (0 or -errno). */
static int uf_cq_buf(struct uf_ctx *c, unsigned int at, unsigned int pages,
		     uint32_t *mr)
{
	return uf_reg(c->fd, c->pd, c->arena + at * UF_PAGE,
		      (uint64_t)pages * UF_PAGE,
		      (uintptr_t)(c->arena + at * UF_PAGE), UF_ACCESS_LW, UF_CQ,
		      pages, 0, 0, mr);
}

static uint64_t uf_va(struct uf_ctx *c, unsigned int page)
{
	return (uintptr_t)(c->arena + page * UF_PAGE);
}

/* CREATE_CQ that must be refused; destroys what it got otherwise. */
static void uf_cq_check(struct uf_ctx *c, void (*check)(const char *, int),
			const char *what, uint32_t cqe, uint32_t vec,
			uint64_t ring, uint64_t shadow, size_t inlen,
			size_t outlen)
{
	uint32_t cq;
	int err = uf_create_cq(c, cqe, vec, ring, shadow, inlen, outlen, &cq);

	uf_errno("create_cq", err);
	check(what, err);
	if (!err)
		uf_destroy_cq(c->fd, cq);
}

#define uf_cq_refused(c, ...) uf_cq_check(c, uf_must_fail, __VA_ARGS__)
/*
 * A ring smaller than the entries: upstream irdma_create_cq() and
 * irdma_resize_cq() do not compare the two (the device would write past
 * the registered pages); ours does (irdma_cq_user_ring()).
 */
#define uf_cq_refused_ours(c, ...) \
	uf_cq_check(c, uf_must_fail_ours, __VA_ARGS__)

/* Arena pages of the boundary pass. */
enum {
	UF_RING = 0,		/* 2 pages: 256 CQEs */
	UF_SHADOW = 2,		/* 1 page */
	UF_RING2 = 3,		/* 4 pages: 512 CQEs */
	UF_QPBUF = 8,		/* 2 SQ + 2 RQ + 1 shadow page */
	UF_MEMBUF = 16,		/* 16 pages of plain memory */
	UF_SPARE = 40,		/* never registered */
	UF_UDATA = 44,		/* 2 + 1 pages: the udata cases */
};

static void uf_boundary_cq(struct uf_ctx *c, uint32_t *cq_out)
{
	uint64_t ring = uf_va(c, UF_RING), shadow = uf_va(c, UF_SHADOW);
	uint32_t cq, mr;
	int err;

	/* Entries: ib_uverbs passes them through; irdma refuses 0, more
	 * than the ring holds and more than the device's maximum.
	 */
	/* Upstream irdma_create_cq() rounds a user CQ up to 4 entries. */
	uf_cq_refused_ours(c, "create_cq cqe 0", 0, 0, ring, shadow, 16, 8);
	uf_cq_refused_ours(c, "create_cq cqe 257 (ring of 256)", 257, 0, ring,
		      shadow, 16, 8);
	uf_cq_refused_ours(c, "create_cq cqe 1048575 (max_hw_cq_size, ring of 256)",
			   1048575, 0, ring, shadow, 16, 8);
	uf_cq_refused(c, "create_cq cqe 1048576 (max_hw_cq_size + 1)", 1048576,
		      0, ring, shadow, 16, 8);
	/* Ours takes rings up to CREATE_CQ's 21-bit CQSIZE, no more. */
	uf_cq_refused(c, "create_cq cqe 2097152 (CQSIZE + 1)", 2097152, 0, ring,
		      shadow, 16, 8);
	uf_cq_refused(c, "create_cq cqe 2^31", 1u << 31, 0, ring, shadow, 16,
		      8);
	uf_cq_refused(c, "create_cq cqe 2^32-1", ~0u, 0, ring, shadow, 16, 8);
	/* ib_uverbs create_cq(): comp_vector >= num_comp_vectors. */
	uf_cq_refused(c, "create_cq comp_vector = num_comp_vectors", 64,
		      c->ncomp, ring, shadow, 16, 8);
	uf_cq_refused(c, "create_cq comp_vector 2^32-1", 64, ~0u, ring,
		      shadow, 16, 8);
	/* udata: upstream irdma_create_cq() wants the whole request and
	 * response (IRDMA_CREATE_CQ_MIN_REQ_LEN / _RESP_LEN).
	 */
	uf_cq_refused(c, "create_cq udata in 0", 64, 0, ring, shadow, 0, 8);
	uf_cq_refused(c, "create_cq udata in 8 (no shadow)", 64, 0, ring,
		      shadow, 8, 8);
	uf_cq_refused(c, "create_cq udata out 0", 64, 0, ring, shadow, 16, 0);
	/* Buffers the context did not register as CQ memory. */
	uf_cq_refused(c, "create_cq unregistered ring", 64, 0,
		      uf_va(c, UF_SPARE), shadow, 16, 8);
	uf_cq_refused(c, "create_cq unaligned ring (+8)", 64, 0, ring + 8,
		      shadow, 16, 8);
	uf_cq_refused(c, "create_cq ring 0", 64, 0, 0, shadow, 16, 8);
	uf_cq_refused(c, "create_cq ring ~0", 64, 0, ~0ull, shadow, 16, 8);
	/* Ours: one registration is one queue's memory (irdma_qbuf_claim()). */
	err = uf_create_cq(c, 64, 0, ring, ring, 16, 8, &cq);
	uf_errno("create_cq", err);
	uf_must_fail_ours("create_cq shadow = ring", err);
	if (!err)
		uf_destroy_cq(c->fd, cq);
	uf_cq_refused(c, "create_cq ring = QP buffer", 64, 0,
		      uf_va(c, UF_QPBUF), shadow, 16, 8);
	uf_cq_refused_ours(c, "create_cq 129 CQEs in a 1-page ring", 129, 0,
		      shadow, ring, 16, 8);

	/* Accepted: 1 entry, the full ring, spare udata bytes. */
	err = uf_create_cq(c, 1, 0, ring, shadow, 16, 8, &cq);
	uf_errno("create_cq", err);
	uf_must_work("create_cq cqe 1", err);
	if (!err)
		uf_errno("destroy_cq", uf_destroy_cq(c->fd, cq));
	err = uf_create_cq(c, 256, c->ncomp - 1, ring, shadow, 48, 40, &cq);
	uf_errno("create_cq", err);
	uf_must_work("create_cq cqe 256, last vector, 48/40 udata bytes", err);
	if (err) {
		*cq_out = ~0u;
		return;
	}
	*cq_out = cq;
	/* A buffer a CQ uses: its MR cannot go (irdma keeps it busy). */
	err = uf_resize_cq(c->fd, cq, 256, ring, 8);
	uf_errno("resize_cq", err);
	uf_must_fail_ours("resize_cq to the ring in use", err);

	/* RESIZE_CQ boundaries: none may move the CQ. */
	err = uf_cq_buf(c, UF_RING2, 4, &mr);
	uf_errno("reg_cqbuf", err);
	vt_check(!err, "CQ buffer of 4 pages registered: %s", strerror(-err));
	if (err)
		return;
	uf_must_fail("resize_cq cqe 0",
		     uf_resize_cq(c->fd, cq, 0, uf_va(c, UF_RING2), 8));
	uf_must_fail_ours("resize_cq cqe 513 (ring of 512)",
		     uf_resize_cq(c->fd, cq, 513, uf_va(c, UF_RING2), 8));
	uf_must_fail("resize_cq cqe 2^31",
		     uf_resize_cq(c->fd, cq, 1u << 31, uf_va(c, UF_RING2), 8));
	uf_must_fail("resize_cq cqe 2^32-1",
		     uf_resize_cq(c->fd, cq, ~0u, uf_va(c, UF_RING2), 8));
	uf_must_fail("resize_cq udata in 0",
		     uf_resize_cq(c->fd, cq, 256, uf_va(c, UF_RING2), 0));
	uf_must_fail("resize_cq unregistered buffer",
		     uf_resize_cq(c->fd, cq, 64, uf_va(c, UF_SPARE), 8));
	uf_must_fail("resize_cq bogus CQ handle",
		     uf_resize_cq(c->fd, 0x7fff, 64, uf_va(c, UF_RING2), 8));
	/* Valid: to the 4-page ring and back to the first one. */
	err = uf_resize_cq(c->fd, cq, 512, uf_va(c, UF_RING2), 8);
	uf_errno("resize_cq", err);
	uf_must_work("resize_cq to 512", err);
	if (!err) {
		err = uf_dereg(c->fd, mr);
		uf_errno("dereg_cqbuf", err);
		uf_must_fail_ours("dereg of the ring a CQ uses", err);
		err = uf_resize_cq(c->fd, cq, 256, ring, 8);
		uf_errno("resize_cq", err);
		uf_must_work("resize_cq back to 256", err);
	}
	err = uf_dereg(c->fd, mr);
	uf_errno("dereg_cqbuf", err);
	vt_check(!err, "dereg of the ring the CQ left: %s", strerror(-err));
}

/* ioctl CREATE_CQ with udata of every size from 0 to past the struct. */
static void uf_boundary_udata(struct uf_ctx *c)
{
	struct irdma_create_cq_req req = {
		.user_cq_buf = uf_va(c, UF_UDATA),
		.user_shadow_area = uf_va(c, UF_UDATA + 2),
	};
	uint8_t in[64] = { }, out[64];
	uint32_t cq, mr_ring, mr_shadow;
	unsigned int il, ol;
	int err;

	/* A ring and shadow page of their own (the boundary CQ holds its). */
	err = uf_cq_buf(c, UF_UDATA, 2, &mr_ring);
	if (!err)
		err = uf_cq_buf(c, UF_UDATA + 2, 1, &mr_shadow);
	uf_errno("reg_cqbuf", err);
	if (!vt_check(!err, "CQ buffers for the udata cases: %s",
		      strerror(-err)))
		return;
	memcpy(in, &req, sizeof(req));
	/* ib_uverbs_cmd_verbs(): the header names another driver. */
	c->driver_id = RDMA_DRIVER_MLX5;
	err = uf_ioctl_create_cq(c, 64, in, 16, out, 8, &cq);
	c->driver_id = RDMA_DRIVER_IRDMA;
	uf_errno("ioctl_create_cq", err);
	uf_must_fail("ioctl create_cq with driver_id MLX5", err);
	if (!err)
		uf_destroy_cq(c->fd, cq);
	for (il = 0; il <= 40; il += il < 24 ? 1 : 8) {
		for (ol = 0; ol <= 24; ol += ol < 16 ? 1 : 8) {
			char what[80];

			err = uf_ioctl_create_cq(c, 64, in, il, out, ol, &cq);
			uf_errno("ioctl_create_cq", err);
			snprintf(what, sizeof(what),
				 "ioctl create_cq udata in %u out %u", il, ol);
			if (il < sizeof(req) || ol < 8)
				uf_must_fail(what, err);
			else if (err)
				uf_must_work(what, err);
			if (!err)
				uf_errno("destroy_cq",
					 uf_destroy_cq(c->fd, cq));
		}
	}
	vt_ok("ioctl create_cq: udata sizes 0..40 in, 0..24 out");
	/* Udata the kernel cannot read or write. */
	err = uf_ioctl_create_cq(c, 64, (void *)8, 16, out, 8, &cq);
	uf_errno("ioctl_create_cq", err);
	uf_must_fail("ioctl create_cq udata in at an unmapped address", err);
	err = uf_ioctl_create_cq(c, 64, in, 16, c->ro, 8, &cq);
	uf_errno("ioctl_create_cq", err);
	uf_must_fail("ioctl create_cq udata out in read-only memory", err);
	if (!err)
		uf_destroy_cq(c->fd, cq);
	err = uf_ioctl_create_cq(c, 64, in, 16, (void *)8, 8, &cq);
	uf_errno("ioctl_create_cq", err);
	uf_must_fail("ioctl create_cq udata out at an unmapped address", err);
	if (!err)
		uf_destroy_cq(c->fd, cq);
	/* The legacy response pointer unmapped: write() create_cq. */
	{
		struct {
			struct ib_uverbs_create_cq cmd;
			struct irdma_create_cq_req req;
		} w = { };

		w.cmd.response = 16;
		w.cmd.cqe = 64;
		w.cmd.comp_channel = -1;
		w.req = req;
		err = uf_write(c->fd, IB_USER_VERBS_CMD_CREATE_CQ, &w,
			       sizeof(w), 16);
		uf_errno("create_cq", err);
		uf_must_fail("create_cq response at an unmapped address", err);
	}
	uf_errno("dereg_cqbuf", uf_dereg(c->fd, mr_ring));
	uf_errno("dereg_cqbuf", uf_dereg(c->fd, mr_shadow));
}

/* Queue-buffer and memory registrations. */
static void uf_boundary_mr(struct uf_ctx *c)
{
	uint8_t *m = c->arena + UF_MEMBUF * UF_PAGE;
	uint32_t mr;
	int err;

#define UF_MR_CHECK(check, what, ...)				\
	do {								\
		err = uf_reg(c->fd, __VA_ARGS__, &mr);			\
		uf_errno("reg_mr", err);				\
		check(what, err);					\
		if (!err)						\
			uf_dereg(c->fd, mr);				\
	} while (0)
#define UF_MR_REFUSED(...) UF_MR_CHECK(uf_must_fail, __VA_ARGS__)

	UF_MR_REFUSED("reg_mr length 0", c->pd, m, 0, (uintptr_t)m,
		      UF_ACCESS_LW, UF_MEM, 0, 0, 0);
	UF_MR_REFUSED("reg_mr start + length wraps", c->pd,
		      (void *)~0xfffull, 0x2000, ~0xfffull, UF_ACCESS_LW,
		      UF_MEM, 0, 0, 0);
	UF_MR_REFUSED("reg_mr length 2^63", c->pd, m, 1ull << 63,
		      (uintptr_t)m, UF_ACCESS_LW, UF_MEM, 0, 0, 0);
	/* ib_uverbs reg_mr(): start and iova must share the page offset. */
	UF_MR_REFUSED("reg_mr iova page offset != start's", c->pd, m + 100,
		      UF_PAGE, (uintptr_t)m + 200, UF_ACCESS_LW, UF_MEM, 0, 0,
		      0);
	UF_MR_REFUSED("reg_mr unmapped memory", c->pd, (void *)0x10000,
		      UF_PAGE, 0x10000, UF_ACCESS_LW, UF_MEM, 0, 0, 0);
	UF_MR_REFUSED("reg_mr LOCAL_WRITE on read-only memory", c->pd, c->ro,
		      UF_PAGE, (uintptr_t)c->ro, UF_ACCESS_LW, UF_MEM, 0, 0, 0);
	/* ib_check_mr_access(): remote write/atomic need local write. */
	UF_MR_REFUSED("reg_mr REMOTE_WRITE without LOCAL_WRITE", c->pd, m,
		      UF_PAGE, (uintptr_t)m, 2, UF_MEM, 0, 0, 0);
	UF_MR_REFUSED("reg_mr REMOTE_ATOMIC without LOCAL_WRITE", c->pd, m,
		      UF_PAGE, (uintptr_t)m, 8, UF_MEM, 0, 0, 0);
	UF_MR_REFUSED("reg_mr unknown access bit 1 << 30", c->pd, m, UF_PAGE,
		      (uintptr_t)m, UF_ACCESS_LW | (1u << 30), UF_MEM, 0, 0, 0);
	UF_MR_REFUSED("reg_mr ON_DEMAND (no ODP)", c->pd, m, UF_PAGE,
		      (uintptr_t)m, UF_ACCESS_LW | (1u << 6), UF_MEM, 0, 0, 0);
	UF_MR_REFUSED("reg_mr bogus PD handle", 0x7fff, m, UF_PAGE,
		      (uintptr_t)m, UF_ACCESS_LW, UF_MEM, 0, 0, 0);
	/* irdma_reg_user_mr(): reg_type beyond QP/CQ/MEM. */
	UF_MR_REFUSED("reg_mr reg_type 7", c->pd, m, UF_PAGE, (uintptr_t)m,
		      UF_ACCESS_LW, 7, 1, 0, 0);
	/* Queue buffers: aligned, as large as announced. */
	/* Upstream irdma_reg_user_mr() leaves the alignment to its provider. */
	UF_MR_CHECK(uf_must_fail_ours, "reg CQ buffer at page offset 64",
		    c->pd, m + 64,
		      UF_PAGE, (uintptr_t)m + 64, UF_ACCESS_LW, UF_CQ, 1, 0, 0);
	UF_MR_REFUSED("reg CQ buffer cq_pages 4 in 2 pages", c->pd, m,
		      2 * UF_PAGE, (uintptr_t)m, UF_ACCESS_LW, UF_CQ, 4, 0, 0);
	UF_MR_REFUSED("reg QP buffer sq 2 rq 2 in 4 pages (no shadow)", c->pd,
		      m, 4 * UF_PAGE, (uintptr_t)m, UF_ACCESS_LW, UF_QP, 0, 2,
		      2);
	/*
	 * A queue buffer the device writes (CQEs) registered without
	 * LOCAL_WRITE: ib_umem_get() pins it read-only (for never-written
	 * anonymous memory, the shared zero page). It must be refused.
	 */
	UF_MR_CHECK(uf_must_fail_ours,
		    "reg CQ buffer without LOCAL_WRITE (read-only memory)",
		      c->pd, c->ro, UF_PAGE, (uintptr_t)c->ro, 0, UF_CQ, 1, 0,
		      0);
	UF_MR_CHECK(uf_must_fail_ours, "reg QP buffer without LOCAL_WRITE",
		    c->pd, m,
		      3 * UF_PAGE, (uintptr_t)m, 0, UF_QP, 0, 1, 1);
	/* Accepted: plain memory, every valid access combination. */
	{
		static const uint32_t acc[] = { 0, 1, 3, 5, 7, 0x11, 0x17 };
		unsigned int i;

		for (i = 0; i < sizeof(acc) / sizeof(acc[0]); i++) {
			err = uf_reg(c->fd, c->pd, m, 3 * UF_PAGE + 5,
				     (uintptr_t)m, acc[i], UF_MEM, 0, 0, 0,
				     &mr);
			uf_errno("reg_mr", err);
			vt_check(!err, "reg_mr access 0x%x: %s", acc[i],
				 strerror(-err));
			if (!err)
				uf_errno("dereg_mr", uf_dereg(c->fd, mr));
		}
		/* A different iova (same page offset) and one byte. */
		err = uf_reg(c->fd, c->pd, m + 7, 1, 0x1000007, UF_ACCESS_LW,
			     UF_MEM, 0, 0, 0, &mr);
		uf_errno("reg_mr", err);
		vt_check(!err, "reg_mr 1 byte, iova 0x1000007: %s",
			 strerror(-err));
		if (!err)
			uf_errno("dereg_mr", uf_dereg(c->fd, mr));
	}
	uf_must_fail("dereg_mr bogus handle", uf_dereg(c->fd, 0x7fff));
#undef UF_MR_REFUSED
#undef UF_MR_CHECK
}

static void uf_qp_req_init(struct uf_ctx *c, struct uf_qp_req *r, uint32_t cq)
{
	memset(r, 0, sizeof(*r));
	r->pd = c->pd;
	r->scq = cq;
	r->rcq = cq;
	r->swr = 16;
	r->rwr = 16;
	r->ssge = 1;
	r->rsge = 1;
	r->type = IB_UVERBS_QPT_RC;
	r->wqe_buf = uf_va(c, UF_QPBUF);
	r->inlen = sizeof(struct irdma_create_qp_req);
	r->outlen = sizeof(struct irdma_create_qp_resp);
}

static void uf_qp_refused(struct uf_ctx *c, const char *what,
			  const struct uf_qp_req *r)
{
	uint32_t qp;
	int err = uf_create_qp(c->fd, r, &qp, NULL);

	uf_errno("create_qp", err);
	uf_must_fail(what, err);
	if (!err)
		uf_destroy_qp(c->fd, qp);
}


static void uf_boundary_qp(struct uf_ctx *c, uint32_t cq)
{
	struct ib_uverbs_modify_qp m;
	struct uf_qp_req r;
	uint32_t qp, qpn, mr, h;
	int err;

	/* SQ 2 pages (256 quanta), RQ 2 pages, shadow 1 page. */
	err = uf_reg(c->fd, c->pd, c->arena + UF_QPBUF * UF_PAGE,
		     5 * UF_PAGE, uf_va(c, UF_QPBUF), UF_ACCESS_LW, UF_QP, 0, 2,
		     2, &mr);
	uf_errno("reg_qpbuf", err);
	if (!vt_check(!err, "QP buffer registered: %s", strerror(-err)))
		return;
#define UF_QPR(what, field, val)					\
	do {								\
		uf_qp_req_init(c, &r, cq);				\
		r.field = val;						\
		uf_qp_refused(c, what, &r);				\
	} while (0)
	UF_QPR("create_qp bogus PD handle", pd, 0x7fff);
	UF_QPR("create_qp bogus send CQ handle", scq, 0x7fff);
	UF_QPR("create_qp bogus recv CQ handle", rcq, 0x7fff);
	UF_QPR("create_qp PD handle given as CQ", scq, c->pd);
	UF_QPR("create_qp max_send_wr 32769", swr, 32769);
	UF_QPR("create_qp max_recv_wr 2^32-1", rwr, ~0u);
	UF_QPR("create_qp max_send_sge 14", ssge, 14);
	UF_QPR("create_qp max_recv_sge 2^31", rsge, 1u << 31);
	UF_QPR("create_qp max_inline_data 102", inl, 102);
	/* Upstream irdma_create_qp() does not size the buffer; ours does. */
	uf_qp_req_init(c, &r, cq);
	r.swr = 512;
	err = uf_create_qp(c->fd, &r, &qp, NULL);
	uf_errno("create_qp", err);
	uf_must_fail_ours("create_qp SQ larger than its 2 buffer pages", err);
	if (!err)
		uf_destroy_qp(c->fd, qp);
	UF_QPR("create_qp type 0xff", type, 0xff);
	UF_QPR("create_qp unregistered WQE buffer", wqe_buf, uf_va(c, UF_SPARE));
	UF_QPR("create_qp CQ ring as WQE buffer", wqe_buf, uf_va(c, UF_RING));
	UF_QPR("create_qp WQE buffer + 8", wqe_buf, uf_va(c, UF_QPBUF) + 8);
	UF_QPR("create_qp udata in 8", inlen, 8);
	UF_QPR("create_qp udata in 0", inlen, 0);
	UF_QPR("create_qp udata out 0", outlen, 0);
#undef UF_QPR

	uf_qp_req_init(c, &r, cq);
	err = uf_create_qp(c->fd, &r, &qp, &qpn);
	uf_errno("create_qp", err);
	if (!uf_must_work("create_qp RC 16/16", err))
		goto out_mr;
	/* Objects in use (ib_core's usecnt, irdma's busy buffer). */
	err = uf_destroy_cq(c->fd, cq);
	uf_errno("destroy_cq", err);
	uf_must_fail("destroy_cq of a CQ a QP uses", err);
	err = uf_dealloc_pd(c->fd, c->pd);
	uf_errno("dealloc_pd", err);
	uf_must_fail("dealloc_pd of a PD in use", err);
	err = uf_dereg(c->fd, mr);
	uf_errno("dereg_qpbuf", err);
	uf_must_fail_ours("dereg of the WQE buffer a QP uses", err);
	uf_qp_req_init(c, &r, cq);
	err = uf_create_qp(c->fd, &r, &h, NULL);
	uf_errno("create_qp", err);
	uf_must_fail_ours("create_qp on a WQE buffer another QP uses", err);
	if (!err)
		uf_destroy_qp(c->fd, h);

	/* MODIFY_QP: illegal transitions and attribute values. */
#define UF_MOD(what, mask, ...)						\
	do {								\
		memset(&m, 0, sizeof(m));				\
		m.qp_handle = qp;					\
		m.attr_mask = (mask);					\
		__VA_ARGS__;						\
		err = uf_modify_qp(c->fd, &m);				\
		uf_errno("modify_qp", err);				\
		uf_must_fail(what, err);				\
	} while (0)
	UF_MOD("modify_qp RESET->RTS", 1, m.qp_state = IBV_QPS_RTS);
	UF_MOD("modify_qp RESET->RTR", 1, m.qp_state = IBV_QPS_RTR);
	UF_MOD("modify_qp to state 8", 1, m.qp_state = 8);
	UF_MOD("modify_qp to state 255", 1, m.qp_state = 255);
	UF_MOD("modify_qp RESET->INIT without port/pkey/access", 1,
	       m.qp_state = IBV_QPS_INIT);
	UF_MOD("modify_qp RESET->INIT port 0", 1 | 0x10 | 0x20 | 0x8,
	       m.qp_state = IBV_QPS_INIT; m.port_num = 0);
	UF_MOD("modify_qp RESET->INIT port 2", 1 | 0x10 | 0x20 | 0x8,
	       m.qp_state = IBV_QPS_INIT; m.port_num = 2);
	UF_MOD("modify_qp RESET->INIT pkey_index 1", 1 | 0x10 | 0x20 | 0x8,
	       m.qp_state = IBV_QPS_INIT; m.port_num = 1;
	       m.pkey_index = 1);
	UF_MOD("modify_qp unknown mask bit 1 << 30", 1u << 30, (void)0);
	UF_MOD("modify_qp bogus QP handle", 1, m.qp_handle = 0x7fff;
	       m.qp_state = IBV_QPS_ERR);
	/* To INIT, then RTR with bad values. */
	memset(&m, 0, sizeof(m));
	m.qp_handle = qp;
	m.attr_mask = 1 | 0x10 | 0x20 | 0x8;
	m.qp_state = IBV_QPS_INIT;
	m.port_num = 1;
	m.qp_access_flags = 1;
	err = uf_modify_qp(c->fd, &m);
	uf_errno("modify_qp", err);
	vt_check(!err, "modify_qp RESET->INIT: %s", strerror(-err));
	/* RTR mask: state, AV, path MTU, dest QPN, RQ PSN, max dest rd
	 * atomic, min RNR timer.
	 */
#define UF_RTR (1 | 0x80 | 0x100 | 0x100000 | 0x1000 | 0x20000 | 0x8000)
#define UF_RTR_SET							\
	m.qp_state = IBV_QPS_RTR; m.path_mtu = 3;			\
	m.dest_qp_num = 2; m.dest.is_global = 1; m.dest.port_num = 1;	\
	m.dest.hop_limit = 64; m.dest.dgid[10] = 0xff;			\
	m.dest.dgid[11] = 0xff; m.dest.dgid[12] = 192;			\
	m.dest.dgid[13] = 168; m.dest.dgid[14] = 81; m.dest.dgid[15] = 2
	UF_MOD("modify_qp RTR sgid_index 255", UF_RTR, UF_RTR_SET;
	       m.dest.sgid_index = 255);
	UF_MOD("modify_qp RTR without AV", UF_RTR & ~0x80, UF_RTR_SET);
	UF_MOD("modify_qp RTR dest port 7", UF_RTR, UF_RTR_SET;
	       m.dest.port_num = 7);
	UF_MOD("modify_qp INIT->RTS", 1, m.qp_state = IBV_QPS_RTS);
	UF_MOD("modify_qp INIT->SQD", 1, m.qp_state = IBV_QPS_SQD);
	/* Anything -> ERR -> RESET is allowed. */
	memset(&m, 0, sizeof(m));
	m.qp_handle = qp;
	m.attr_mask = 1;
	m.qp_state = IBV_QPS_ERR;
	err = uf_modify_qp(c->fd, &m);
	uf_errno("modify_qp", err);
	vt_check(!err, "modify_qp INIT->ERR: %s", strerror(-err));
	m.qp_state = IBV_QPS_RESET;
	err = uf_modify_qp(c->fd, &m);
	uf_errno("modify_qp", err);
	vt_check(!err, "modify_qp ERR->RESET: %s", strerror(-err));
#undef UF_MOD
	err = uf_destroy_qp(c->fd, qp);
	uf_errno("destroy_qp", err);
	vt_check(!err, "destroy_qp: %s", strerror(-err));
	uf_must_fail("destroy_qp twice", uf_destroy_qp(c->fd, qp));
out_mr:
	err = uf_dereg(c->fd, mr);
	uf_errno("dereg_qpbuf", err);
	vt_check(!err, "dereg of the QP buffer after destroy_qp: %s",
		 strerror(-err));
}

/* mmap of the device fd: only the doorbell page, only shared, only 4 KiB. */
static void uf_boundary_mmap(struct uf_ctx *c)
{
	static const struct {
		const char *what;
		int64_t off_delta;	/* from the doorbell key */
		size_t len;
		int prot, flags;
		bool valid;
	} t[] = {
		{ "doorbell page rw shared", 0, 4096, PROT_READ | PROT_WRITE,
		  MAP_SHARED, true },
		{ "doorbell page 8 KiB", 0, 8192, PROT_READ | PROT_WRITE,
		  MAP_SHARED, false },
		{ "doorbell page private", 0, 4096, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE, false },
		{ "doorbell key + 1 page", 4096, 4096, PROT_READ, MAP_SHARED,
		  false },
		{ "doorbell key + 1 MiB", 1 << 20, 4096, PROT_READ, MAP_SHARED,
		  false },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		void *p = mmap(NULL, t[i].len, t[i].prot, t[i].flags, c->fd,
			       c->db_key + t[i].off_delta);
		int err = p == MAP_FAILED ? -errno : 0;

		uf_errno("mmap", err);
		if (t[i].valid)
			vt_check(!err, "mmap %s: %s", t[i].what,
				 strerror(-err));
		else
			uf_must_fail(t[i].what, err);
		if (!err)
			munmap(p, t[i].len);
	}
	/* Offsets nothing was inserted at. */
	for (i = 0; i < 8; i++) {
		uint64_t off = ((uint64_t)vt_rand(&c->seed) << 12) & ~0xfffull;
		void *p;

		if (off == c->db_key)
			continue;
		p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, c->fd, off);
		uf_errno("mmap", p == MAP_FAILED ? -errno : 0);
		uf_must_fail("mmap at a random offset", p == MAP_FAILED ? -errno : 0);
		if (p != MAP_FAILED)
			munmap(p, 4096);
	}
}

static void uf_boundary(struct uf_ctx *c)
{
	uint32_t ring_mr, shadow_mr, cq = ~0u;
	int err;

	err = uf_cq_buf(c, UF_RING, 2, &ring_mr);
	uf_errno("reg_cqbuf", err);
	if (!vt_check(!err, "CQ ring of 2 pages registered: %s",
		      strerror(-err)))
		return;
	err = uf_cq_buf(c, UF_SHADOW, 1, &shadow_mr);
	uf_errno("reg_cqbuf", err);
	if (!vt_check(!err, "CQ shadow page registered: %s", strerror(-err)))
		return;
	uf_boundary_cq(c, &cq);
	uf_boundary_udata(c);
	uf_boundary_mr(c);
	if (cq != ~0u) {
		uf_boundary_qp(c, cq);
		err = uf_destroy_cq(c->fd, cq);
		uf_errno("destroy_cq", err);
		vt_check(!err, "destroy_cq: %s", strerror(-err));
		uf_must_fail("destroy_cq twice", uf_destroy_cq(c->fd, cq));
	}
	uf_boundary_mmap(c);
	uf_errno("dereg_cqbuf", uf_dereg(c->fd, ring_mr));
	uf_errno("dereg_cqbuf", uf_dereg(c->fd, shadow_mr));
}

/* ---- the random pass ------------------------------------------------------ */

struct uf_pool {
	uint32_t h[UF_MAX_OBJ];
	unsigned int n;
};

static void uf_add(struct uf_pool *p, uint32_t h)
{
	if (p->n < UF_MAX_OBJ)
		p->h[p->n++] = h;
}

/* A live handle (maybe taken out), or now and then a bogus one. */
static uint32_t uf_pick(struct uf_ctx *c, struct uf_pool *p, bool take)
{
	unsigned int i;
	uint32_t h;

	if (!p->n || vt_rand(&c->seed) % 16 == 0)
		return vt_rand(&c->seed) % 4 ? vt_rand(&c->seed) % 64 :
		       vt_rand(&c->seed);
	i = vt_rand(&c->seed) % p->n;
	h = p->h[i];
	if (take)
		p->h[i] = p->h[--p->n];
	return h;
}

static uint32_t uf_rval(struct uf_ctx *c)
{
	static const uint32_t edge[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 63, 64, 255, 256, 257, 4095,
		4096, 32767, 32768, 32769, 1048575, 1048576, 0x7fffffff,
		0x80000000, 0xffffffff,
	};
	uint32_t r = vt_rand(&c->seed);

	if (r % 3)
		return edge[(r >> 8) % (sizeof(edge) / sizeof(edge[0]))];
	return vt_rand(&c->seed) >> (r % 32);
}

/* Start addresses of the queue buffers the random pass registered. */
static uint64_t uf_qva[UF_MAX_OBJ];
static unsigned int uf_nqva;

/*
 * An address: mostly one a queue buffer was registered at (so that
 * creates get past the buffer look-up), else an arena page, sometimes
 * unaligned, sometimes wild.
 */
static uint64_t uf_raddr(struct uf_ctx *c)
{
	uint32_t r = vt_rand(&c->seed);

	if (uf_nqva && r % 8 >= 3)
		return uf_qva[vt_rand(&c->seed) % uf_nqva];

	if (r % 8 == 0)
		return (uint64_t)vt_rand(&c->seed) << 12 | r % 4096;
	return uf_va(c, (r >> 4) % UF_ARENA_PAGES) + (r % 8 == 1 ? r % 64 : 0);
}

/*
 * The structured half of the random pass: requests built to be valid
 * (registered queue buffers of the right type and size, live handles,
 * the QP state machine in order) with, one time in four, one field
 * replaced by a random or boundary value. These reach the driver's
 * deeper paths (CREATE_QP, MODIFY_QP to RTS, RESIZE_CQ) that purely
 * random requests rarely get past ib_core for.
 */
#define UF_SLOTS 32
#define UF_SLOT_PAGES 6
#define UF_SLOT0 64		/* arena page of slot 0 */

struct uf_qb {
	uint64_t va;
	uint32_t mr;
	uint16_t pages;
	uint8_t type;		/* 0: free slot */
};

struct uf_tqp {
	uint32_t h;
	uint8_t ud, state;
};

struct uf_world {
	struct uf_qb qb[UF_SLOTS];
	struct uf_tqp qp[UF_MAX_OBJ];
	unsigned int nqp;
	struct uf_pool *cqs;
};

static struct uf_qb *uf_qb_pick(struct uf_ctx *c, struct uf_world *w,
				uint8_t type, struct uf_qb *not)
{
	unsigned int i, start = vt_rand(&c->seed) % UF_SLOTS;

	for (i = 0; i < UF_SLOTS; i++) {
		struct uf_qb *q = &w->qb[(start + i) % UF_SLOTS];

		if (q->type == type && q != not)
			return q;
	}
	return NULL;
}

/* One time in four: true (the caller replaces one field). */
static bool uf_mutate(struct uf_ctx *c, unsigned int *which, unsigned int n)
{
	if (vt_rand(&c->seed) % 4)
		return false;
	*which = vt_rand(&c->seed) % n;
	return true;
}

static void uf_s_reg(struct uf_ctx *c, struct uf_world *w)
{
	unsigned int i = vt_rand(&c->seed) % UF_SLOTS;
	struct uf_qb *q = &w->qb[i];
	uint8_t type = vt_rand(&c->seed) % 2 ? UF_CQ : UF_QP;
	uint16_t pages = type == UF_CQ ? 1 + vt_rand(&c->seed) % 4 : 5;
	int err;

	if (q->type) {
		err = uf_dereg(c->fd, q->mr);
		uf_errno("dereg_qbuf", err);
		/* Busy: a queue uses it. Else gone (the random half). */
		if (err == -EBUSY)
			return;
		q->type = 0;
	}
	q->va = uf_va(c, UF_SLOT0 + i * UF_SLOT_PAGES);
	err = uf_reg(c->fd, c->pd, (void *)(uintptr_t)q->va,
		     (uint64_t)pages * UF_PAGE, q->va, UF_ACCESS_LW, type,
		     type == UF_CQ ? pages : 0, type == UF_QP ? 2 : 0,
		     type == UF_QP ? 2 : 0, &q->mr);
	uf_errno("reg_qbuf", err);
	if (!err) {
		q->type = type;
		q->pages = pages;
	}
}

static void uf_s_destroy(struct uf_ctx *c, struct uf_world *w);

static void uf_s_create_cq(struct uf_ctx *c, struct uf_world *w)
{
	struct uf_qb *ring = uf_qb_pick(c, w, UF_CQ, NULL);
	struct uf_qb *shadow = uf_qb_pick(c, w, UF_CQ, ring);
	uint64_t rva, sva;
	uint32_t cqe, vec, h;
	size_t il = 16, ol = 8;
	unsigned int m;
	int err;

	if (!ring || !shadow)
		return;
	rva = ring->va;
	sva = shadow->va;
	cqe = 1 + vt_rand(&c->seed) % (ring->pages * 128u);
	vec = vt_rand(&c->seed) % c->ncomp;
	if (uf_mutate(c, &m, 5)) {
		switch (m) {
		case 0:
			cqe = uf_rval(c);
			break;
		case 1:
			vec = uf_rval(c);
			break;
		case 2:
			rva += vt_rand(&c->seed) % 4096;
			break;
		case 3:
			il = (vt_rand(&c->seed) % 6) * 8;
			break;
		default:
			ol = (vt_rand(&c->seed) % 3) * 8;
			break;
		}
	}
	if (w->cqs->n == UF_MAX_OBJ) {
		uf_s_destroy(c, w);
		return;
	}
	err = uf_create_cq(c, cqe, vec, rva, sva, il, ol, &h);
	uf_errno("create_cq", err);
	if (!err)
		uf_add(w->cqs, h);
}

static void uf_s_create_qp(struct uf_ctx *c, struct uf_world *w)
{
	struct uf_qb *q = uf_qb_pick(c, w, UF_QP, NULL);
	unsigned int m, shift;
	struct uf_qp_req r;
	uint32_t h;
	int err;

	if (!q || !w->cqs->n || w->nqp == UF_MAX_OBJ)
		return;
	uf_qp_req_init(c, &r, uf_pick(c, w->cqs, false));
	r.rcq = uf_pick(c, w->cqs, false);
	r.wqe_buf = q->va;
	r.type = vt_rand(&c->seed) % 2 ? IB_UVERBS_QPT_UD : IB_UVERBS_QPT_RC;
	r.ssge = vt_rand(&c->seed) % 2;
	shift = r.ssge;
	/* Quanta powers of two that fit the 2-page SQ and RQ. */
	r.swr = (8u << (vt_rand(&c->seed) % 6)) >> shift;
	r.rwr = 8u << (vt_rand(&c->seed) % 6);
	if (uf_mutate(c, &m, 7)) {
		switch (m) {
		case 0:
			r.swr = uf_rval(c);
			break;
		case 1:
			r.rwr = uf_rval(c);
			break;
		case 2:
			r.ssge = uf_rval(c) % 32;
			break;
		case 3:
			r.inl = uf_rval(c) % 256;
			break;
		case 4:
			r.type = vt_rand(&c->seed) % 16;
			break;
		case 5:
			r.wqe_buf += vt_rand(&c->seed) % 8192;
			break;
		default:
			r.rsge = uf_rval(c) % 32;
			break;
		}
	}
	err = uf_create_qp(c->fd, &r, &h, NULL);
	uf_errno("create_qp", err);
	if (!err)
		w->qp[w->nqp++] = (struct uf_tqp){
			.h = h, .ud = r.type == IB_UVERBS_QPT_UD,
			.state = IBV_QPS_RESET,
		};
}

/* The next state of the usual bring-up, or ERR/RESET now and then. */
static void uf_s_modify_qp(struct uf_ctx *c, struct uf_world *w)
{
	struct ib_uverbs_modify_qp mq = { };
	struct uf_tqp *t;
	unsigned int m;
	int err;

	if (!w->nqp)
		return;
	t = &w->qp[vt_rand(&c->seed) % w->nqp];
	mq.qp_handle = t->h;
	mq.attr_mask = IBV_QP_STATE;
	switch (vt_rand(&c->seed) % 8 ? t->state : IBV_QPS_ERR) {
	case IBV_QPS_RESET:
		mq.qp_state = IBV_QPS_INIT;
		mq.port_num = 1;
		mq.qkey = 0x11111111;
		mq.qp_access_flags = 1 | 2 | 4;
		mq.attr_mask |= (1 << 4) | (1 << 5) |
				(t->ud ? (1 << 6) : (1 << 3));
		break;
	case IBV_QPS_INIT:
		mq.qp_state = IBV_QPS_RTR;
		if (t->ud)
			break;
		mq.path_mtu = 1 + vt_rand(&c->seed) % 5;
		mq.dest_qp_num = vt_rand(&c->seed) & 0xffffff;
		mq.rq_psn = vt_rand(&c->seed) & 0xffffff;
		mq.max_dest_rd_atomic = vt_rand(&c->seed) % 2;
		mq.min_rnr_timer = vt_rand(&c->seed) % 32;
		mq.dest.is_global = 1;
		mq.dest.port_num = 1;
		mq.dest.hop_limit = 64;
		mq.dest.sgid_index = c->gid;
		mq.dest.dgid[10] = 0xff;
		mq.dest.dgid[11] = 0xff;
		mq.dest.dgid[12] = 192;
		mq.dest.dgid[13] = 168;
		mq.dest.dgid[14] = 81;
		mq.dest.dgid[15] = 2;
		mq.attr_mask |= (1 << 7) | (1 << 8) | (1 << 20) | (1 << 12) |
				(1 << 17) | (1 << 15);
		break;
	case IBV_QPS_RTR:
		mq.qp_state = IBV_QPS_RTS;
		mq.sq_psn = vt_rand(&c->seed) & 0xffffff;
		mq.attr_mask |= 1 << 16;
		if (t->ud)
			break;
		mq.timeout = vt_rand(&c->seed) % 32;
		mq.retry_cnt = vt_rand(&c->seed) % 8;
		mq.rnr_retry = vt_rand(&c->seed) % 8;
		mq.max_rd_atomic = vt_rand(&c->seed) % 2;
		mq.attr_mask |= (1 << 9) | (1 << 10) | (1 << 11) | (1 << 13);
		break;
	case IBV_QPS_ERR:
		mq.qp_state = vt_rand(&c->seed) % 2 ? IBV_QPS_RESET :
			      IBV_QPS_ERR;
		break;
	default:
		mq.qp_state = vt_rand(&c->seed) % 2 ? IBV_QPS_SQD :
			      IBV_QPS_ERR;
		break;
	}
	if (uf_mutate(c, &m, 8)) {
		switch (m) {
		case 0:
			mq.path_mtu = vt_rand(&c->seed) % 8;
			mq.attr_mask |= 1 << 8;
			break;
		case 1:
			mq.dest.sgid_index = vt_rand(&c->seed);
			break;
		case 2:
			mq.timeout = vt_rand(&c->seed);
			mq.attr_mask |= 1 << 9;
			break;
		case 3:
			mq.retry_cnt = vt_rand(&c->seed);
			mq.rnr_retry = vt_rand(&c->seed);
			break;
		case 4:
			mq.max_rd_atomic = vt_rand(&c->seed);
			mq.max_dest_rd_atomic = vt_rand(&c->seed);
			break;
		case 5:
			mq.port_num = vt_rand(&c->seed) % 4;
			mq.dest.port_num = vt_rand(&c->seed) % 4;
			break;
		case 6:
			mq.attr_mask ^= 1u << (vt_rand(&c->seed) % 21);
			break;
		default:
			mq.qp_state = vt_rand(&c->seed) % 8;
			break;
		}
	}
	err = uf_modify_qp(c->fd, &mq);
	uf_errno("modify_qp", err);
	if (!err && (mq.attr_mask & 1))
		t->state = mq.qp_state;
}

static void uf_s_resize_cq(struct uf_ctx *c, struct uf_world *w)
{
	struct uf_qb *ring = uf_qb_pick(c, w, UF_CQ, NULL);
	uint32_t cqe;
	unsigned int m;

	if (!ring || !w->cqs->n)
		return;
	cqe = 1 + vt_rand(&c->seed) % (ring->pages * 128u);
	if (uf_mutate(c, &m, 2))
		cqe = m ? uf_rval(c) : cqe + ring->pages * 128u;
	uf_errno("resize_cq", uf_resize_cq(c->fd, uf_pick(c, w->cqs, false),
					   cqe, ring->va, 8));
}

static void uf_s_destroy(struct uf_ctx *c, struct uf_world *w)
{
	unsigned int i;
	int err;

	if (w->nqp && vt_rand(&c->seed) % 2) {
		i = vt_rand(&c->seed) % w->nqp;
		err = uf_destroy_qp(c->fd, w->qp[i].h);
		uf_errno("destroy_qp", err);
		w->qp[i] = w->qp[--w->nqp];
	} else if (w->cqs->n) {
		uint32_t h = uf_pick(c, w->cqs, true);

		err = uf_destroy_cq(c->fd, h);
		uf_errno("destroy_cq", err);
		/* A CQ a QP still uses stays. */
		if (err == -EBUSY)
			uf_add(w->cqs, h);
	}
}

static void uf_structured(struct uf_ctx *c, struct uf_world *w)
{
	/* Destroys as often as creates: the 32 buffer slots stay in use. */
	switch (vt_rand(&c->seed) % 9) {
	case 0:
		uf_s_reg(c, w);
		break;
	case 1:
		uf_s_create_cq(c, w);
		break;
	case 2:
		uf_s_create_qp(c, w);
		break;
	case 3:
	case 4:
		uf_s_modify_qp(c, w);
		break;
	case 5:
		uf_s_resize_cq(c, w);
		break;
	default:
		uf_s_destroy(c, w);
		break;
	}
}

static void uf_random(struct uf_ctx *c, unsigned int iters)
{
	struct uf_pool cqs = { }, qps = { }, mrs = { }, pds = { };
	static struct uf_world w;
	unsigned int i;
	uint32_t h;
	int err;

	uf_add(&pds, c->pd);
	w.cqs = &cqs;
	for (i = 0; i < iters; i++) {
		uint32_t op = vt_rand(&c->seed) % 12;

		if (vt_rand(&c->seed) % 2) {
			uf_structured(c, &w);
			continue;
		}

		switch (op) {
		case 0: {	/* queue buffer */
			uint64_t va = vt_rand(&c->seed) % 8 ?
				      uf_va(c, vt_rand(&c->seed) %
					    (UF_ARENA_PAGES - 8)) :
				      uf_raddr(c);
			uint32_t pages = 1 + vt_rand(&c->seed) % 8;
			uint16_t type = vt_rand(&c->seed) % 4 ? UF_CQ : UF_QP;

			err = uf_reg(c->fd, uf_pick(c, &pds, false),
				     (void *)(uintptr_t)va,
				     (uint64_t)pages * UF_PAGE, va,
				     vt_rand(&c->seed) % 8 ? UF_ACCESS_LW :
				     vt_rand(&c->seed) & 0x1f, type,
				     type == UF_CQ ? vt_rand(&c->seed) % 9 : 0,
				     vt_rand(&c->seed) % 4,
				     vt_rand(&c->seed) % 5, &h);
			uf_errno("reg_qbuf", err);
			if (!err) {
				uf_add(&mrs, h);
				uf_qva[uf_nqva++ % UF_MAX_OBJ] = va;
				if (uf_nqva > UF_MAX_OBJ)
					uf_nqva = UF_MAX_OBJ;
			}
			break;
		}
		case 1: {	/* memory */
			uint64_t va = uf_raddr(c);
			uint64_t len = vt_rand(&c->seed) % 4 ? uf_rval(c) :
				       ((uint64_t)uf_rval(c) << 32);

			err = uf_reg(c->fd, uf_pick(c, &pds, false),
				     (void *)(uintptr_t)va, len,
				     vt_rand(&c->seed) % 4 ? va : uf_rval(c),
				     vt_rand(&c->seed) % 4 ? 1 | (vt_rand(&c->seed) & 0x16) :
				     vt_rand(&c->seed), UF_MEM, 0, 0, 0, &h);
			uf_errno("reg_mr", err);
			if (!err)
				uf_add(&mrs, h);
			break;
		}
		case 2:
			err = uf_dereg(c->fd, uf_pick(c, &mrs, true));
			uf_errno("dereg_mr", err);
			break;
		case 3:
			err = uf_create_cq(c, vt_rand(&c->seed) % 2 ?
					   1 + vt_rand(&c->seed) % 256 : uf_rval(c),
					   vt_rand(&c->seed) % 8 ? vt_rand(&c->seed) % (c->ncomp + 1) :
					   uf_rval(c), uf_raddr(c), uf_raddr(c),
					   vt_rand(&c->seed) % 4 ? 16 :
					   (vt_rand(&c->seed) % 6) * 8,
					   vt_rand(&c->seed) % 4 ? 8 :
					   (vt_rand(&c->seed) % 4) * 8, &h);
			uf_errno("create_cq", err);
			if (!err)
				uf_add(&cqs, h);
			break;
		case 4:
			err = uf_destroy_cq(c->fd, uf_pick(c, &cqs, true));
			uf_errno("destroy_cq", err);
			break;
		case 5:
			err = uf_resize_cq(c->fd, uf_pick(c, &cqs, false),
					   uf_rval(c), uf_raddr(c),
					   vt_rand(&c->seed) % 4 ? 8 : 0);
			uf_errno("resize_cq", err);
			break;
		case 6: {
			struct uf_qp_req r = {
				.pd = uf_pick(c, &pds, false),
				.scq = uf_pick(c, &cqs, false),
				.rcq = uf_pick(c, &cqs, false),
				.swr = uf_rval(c) % (vt_rand(&c->seed) % 2 ? 64 : ~0u),
				.rwr = uf_rval(c) % (vt_rand(&c->seed) % 2 ? 64 : ~0u),
				.ssge = vt_rand(&c->seed) % 16,
				.rsge = vt_rand(&c->seed) % 16,
				.inl = vt_rand(&c->seed) % 2 ? 0 : uf_rval(c) % 128,
				.type = vt_rand(&c->seed) % 4 ? 2 :
					vt_rand(&c->seed) % 16,
				.wqe_buf = uf_raddr(c),
				.inlen = vt_rand(&c->seed) % 4 ? 16 :
					 (vt_rand(&c->seed) % 4) * 8,
				.outlen = vt_rand(&c->seed) % 4 ? 24 :
					  (vt_rand(&c->seed) % 5) * 8,
			};

			err = uf_create_qp(c->fd, &r, &h, NULL);
			uf_errno("create_qp", err);
			if (!err)
				uf_add(&qps, h);
			break;
		}
		case 7:
			err = uf_destroy_qp(c->fd, uf_pick(c, &qps, true));
			uf_errno("destroy_qp", err);
			break;
		case 8: {
			struct ib_uverbs_modify_qp m = { };
			uint8_t *b = (uint8_t *)&m;
			unsigned int k;

			for (k = 0; k < sizeof(m); k++)
				b[k] = vt_rand(&c->seed) % 3 ? 0 :
				       vt_rand(&c->seed);
			m.qp_handle = uf_pick(c, &qps, false);
			m.attr_mask = vt_rand(&c->seed) & 0x1fffff;
			if (vt_rand(&c->seed) % 2)
				m.attr_mask |= 1;
			m.qp_state = vt_rand(&c->seed) % 9;
			m.port_num = vt_rand(&c->seed) % 3;
			m.path_mtu = vt_rand(&c->seed) % 8;
			m.dest.port_num = vt_rand(&c->seed) % 3;
			m.dest.sgid_index = vt_rand(&c->seed) % 4 ?
					    vt_rand(&c->seed) % 4 : vt_rand(&c->seed);
			m.timeout = vt_rand(&c->seed) % 40;
			m.retry_cnt = vt_rand(&c->seed) % 10;
			err = uf_modify_qp(c->fd, &m);
			uf_errno("modify_qp", err);
			break;
		}
		case 9:
			if (vt_rand(&c->seed) % 2) {
				err = uf_alloc_pd(c, &h);
				uf_errno("alloc_pd", err);
				if (!err)
					uf_add(&pds, h);
			} else {
				h = uf_pick(c, &pds, true);
				err = uf_dealloc_pd(c->fd, h);
				uf_errno("dealloc_pd", err);
				if (err == -EBUSY)
					uf_add(&pds, h);
			}
			break;
		case 10: {
			size_t len = vt_rand(&c->seed) % 4 ? 4096 :
				     (1 + vt_rand(&c->seed) % 4) * 4096;
			uint64_t off = vt_rand(&c->seed) % 2 ? c->db_key :
				       (uint64_t)uf_rval(c) << 12;
			void *p = mmap(NULL, len, vt_rand(&c->seed) % 4 ?
				       PROT_READ | PROT_WRITE : PROT_READ,
				       vt_rand(&c->seed) % 4 ? MAP_SHARED :
				       MAP_PRIVATE, c->fd, off);

			uf_errno("mmap", p == MAP_FAILED ? -errno : 0);
			if (p != MAP_FAILED)
				munmap(p, len);
			break;
		}
		default: {
			uint8_t in[48], out[48];
			unsigned int k;

			for (k = 0; k < sizeof(in); k++)
				in[k] = vt_rand(&c->seed);
			if (vt_rand(&c->seed) % 2) {
				struct irdma_create_cq_req q = {
					.user_cq_buf = uf_raddr(c),
					.user_shadow_area = uf_raddr(c),
				};
				memcpy(in, &q, sizeof(q));
			}
			err = uf_ioctl_create_cq(c, uf_rval(c), in,
						 vt_rand(&c->seed) % 49, out,
						 vt_rand(&c->seed) % 49, &h);
			uf_errno("ioctl_create_cq", err);
			if (!err)
				uf_add(&cqs, h);
			break;
		}
		}
	}
	/* Tear down in a random order; the file close cleans what is left. */
	for (i = 0; i < w.nqp; i++)
		uf_add(&qps, w.qp[i].h);
	for (i = 0; i < UF_SLOTS; i++)
		if (w.qb[i].type)
			uf_add(&mrs, w.qb[i].mr);
	while (qps.n || cqs.n || mrs.n) {
		switch (vt_rand(&c->seed) % 3) {
		case 0:
			if (qps.n)
				uf_errno("destroy_qp",
					 uf_destroy_qp(c->fd, uf_pick(c, &qps, true)));
			break;
		case 1:
			if (cqs.n)
				uf_errno("destroy_cq",
					 uf_destroy_cq(c->fd, uf_pick(c, &cqs, true)));
			break;
		default:
			if (mrs.n)
				uf_errno("dereg_mr",
					 uf_dereg(c->fd, uf_pick(c, &mrs, true)));
			break;
		}
	}
	vt_ok("random pass: %u commands", iters);
}

static int uf_fuzz_main(const char *dev, uint32_t seed, unsigned int iters,
			uint8_t gid)
{
	struct uf_ctx c = {
		.seed = seed, .driver_id = RDMA_DRIVER_IRDMA, .gid = gid,
	};
	int err, i;

	vt_info("seed %u, %u random commands", seed, iters);
	c.fd = uf_open_dev(dev);
	if (c.fd < 0) {
		vt_fail("no uverbs device for %s", dev);
		return 1;
	}
	c.arena = mmap(NULL, UF_ARENA_PAGES * UF_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	c.ro = mmap(NULL, 4 * UF_PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (c.arena == MAP_FAILED || c.ro == MAP_FAILED) {
		vt_fail("mmap: %s", strerror(errno));
		return 1;
	}
	madvise(c.arena, UF_ARENA_PAGES * UF_PAGE, MADV_NOHUGEPAGE);
	memset(c.arena, 0, UF_ARENA_PAGES * UF_PAGE);

	/* GET_CONTEXT: short requests are refused, then one is made. */
	uf_must_fail("get_context without the driver request",
		     uf_get_context(&c, sizeof(struct ib_uverbs_get_context),
				    sizeof(struct ib_uverbs_get_context_resp) +
				    sizeof(struct irdma_alloc_ucontext_resp)));
	for (i = 0; i < 3; i++) {
		err = uf_get_context(&c, sizeof(struct ib_uverbs_get_context) +
				     sizeof(struct irdma_alloc_ucontext_req),
				     sizeof(struct ib_uverbs_get_context_resp) +
				     sizeof(struct irdma_alloc_ucontext_resp));
		if (err != -EAGAIN)
			break;
	}
	uf_errno("get_context", err);
	if (!vt_check(!err, "get_context: %s (%u vectors, doorbell key 0x%llx)",
		      strerror(-err), c.ncomp, (unsigned long long)c.db_key))
		return 1;
	uf_must_fail("a second get_context",
		     uf_get_context(&c, sizeof(struct ib_uverbs_get_context) +
				    sizeof(struct irdma_alloc_ucontext_req),
				    sizeof(struct ib_uverbs_get_context_resp) +
				    sizeof(struct irdma_alloc_ucontext_resp)));
	err = uf_alloc_pd(&c, &c.pd);
	uf_errno("alloc_pd", err);
	if (!vt_check(!err, "alloc_pd: %s", strerror(-err)))
		return 1;
	uf_must_fail("unknown write() command 200",
		     uf_write(c.fd, 200, &c, 8, 0));

	uf_boundary(&c);
	vt_info("boundary pass done, %u failures", vt_fails);
	vt_quiet = true;
	uf_random(&c, iters);
	vt_quiet = false;
	uf_print_stats();
	close(c.fd);
	vt_check(!vt_fails, "uverbs_fuzz: %u failed checks", vt_fails);
	return vt_fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "iters", required_argument, NULL, 'n' },
		{ }
	};
	const char *dev = NULL, *dev1 = NULL, *ip0 = NULL, *ip1 = NULL;
	unsigned int iters = 0, gid = 1;
	uint32_t seed = time(NULL) ^ getpid();
	int o;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((o = getopt_long(argc, argv, "d:D:l:p:s:n:g:S", lo, NULL)) != -1) {
		switch (o) {
		case 'S':
			uf_stock = true;
			break;
		case 'g':
			gid = strtoul(optarg, NULL, 0);
			break;
		case 'd':
			dev = optarg;
			break;
		case 'D':
			dev1 = optarg;
			break;
		case 'l':
			ip0 = optarg;
			break;
		case 'p':
			ip1 = optarg;
			break;
		case 's':
			seed = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			iters = strtoul(optarg, NULL, 0);
			break;
		default:
			goto usage;
		}
	}
	if (!dev || optind != argc - 1)
		goto usage;
	if (!strcmp(argv[optind], "fuzz"))
		return uf_fuzz_main(dev, seed ? seed : 1, iters ? iters : 3000,
				    gid);
	if (!strcmp(argv[optind], "race") && dev1 && ip0 && ip1)
		return uf_race_main(dev, dev1, ip0, ip1, iters ? iters : 200);
usage:
	fprintf(stderr,
		"usage: %s -d DEV [-g GID_INDEX] [-S] [--seed N] [--iters N] fuzz\n"
		"       %s -d DEV0 -D DEV1 -l IPV4_0 -p IPV4_1 [--iters N] race\n",
		argv[0], argv[0]);
	return 2;
}
