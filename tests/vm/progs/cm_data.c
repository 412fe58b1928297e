// SPDX-License-Identifier: GPL-2.0-only
/*
 * cm_data: an RDMA-CM client and server that move patterned payloads and
 * check every byte and every completion (docs/testing.md, "Compiled guest
 * programs"; scenarios iwarp_data, rdma_cm_data).
 *
 *   cm_data -s -a ADDR [-p PORT] [-T SECONDS]
 *   cm_data -c -a ADDR [-b SRCADDR] [-p PORT] [-S SIZES] [-r ROUNDS]
 *           [-T SECONDS] [-I] [-X STEP]
 *
 * Connection: rdma_resolve_addr/route, rdma_connect/rdma_accept, each side
 * handing the other its buffer (address, rkey, length) in the private data
 * (RDMA_PS_TCP: an MPA request/reply on iWARP, a CM REQ/REP on RoCE), an
 * RC QP on each rdma_cm_id with a completion channel.
 *
 * The client drives a list of steps the server derives from the client's
 * HELLO (sizes, rounds, immediate or not): for every size (default 1 B ..
 * 1 MiB) a SEND, a SEND with immediate, an RDMA WRITE (followed by a
 * SEND "done"), an RDMA WRITE with immediate and an RDMA READ; local
 * buffers of 1 or 3 SGEs (alternating, capped by the device's max_sge and,
 * for a READ, max_sge_rd; the pieces apart in memory, the gaps checked
 * untouched), a different pattern per step. The immediate
 * forms are left out when the device is iWARP (RDMAP has no immediate
 * data; the irdma providers refuse them) or with -I. The server posts the
 * receives of step k, answers READY(k) and checks what arrives: every
 * byte, the guard bytes around it, the receive completion's status,
 * opcode, byte_len and immediate. The client checks its own completions
 * likewise (byte_len: the work request's length, as irdma reports it for
 * the SQ) and every byte an RDMA READ brought. A READY carries the
 * server's verdict; the first failure ends the run. -X STEP flips a bit
 * of that step's payload on the client (before sending, or after a READ
 * brought it), for a scenario to see the checks fail.
 *
 * -K (client): no steps; once the server is READY the client posts one
 * 64-byte RDMA READ through the server's rkey with its key byte changed,
 * which the server's device refuses (a bad STag: on iWARP the server's
 * driver answers with a Terminate, docs/irdma.md "Terminate"). The READ
 * must complete with an error; both sides then wait for DISCONNECTED.
 * The client prints "cm_data client: bad rkey read status=N (NAME)
 * vendor_err=0xV wr_id=N".
 * -R (client): no steps; once the server is READY it destroys its QP
 * without a disconnect (on iWARP the driver resets the connection: an
 * RST). After DISCONNECTED the client posts a receive and calls
 * rdma_disconnect(), as rping does before it waits for its CQ thread:
 * the receive must complete, flushed, within 5 s. The client prints
 * "cm_data client: late receive status=N (NAME) vendor_err=0xV
 * wr_id=N".
 * Without private data in the accept the client takes rkey 0x00bad100
 * (an STag the server never made) and remote address 0.
 *
 * Each side ends with one line a scenario parses:
 *   cm_data <role>: transport=<iWARP|IB> steps=N send=N send_imm=N
 *     write=N write_imm=N read=N bytes=N cqes=N errors=N
 * (counts of payloads checked by that side; the server counts what it
 * received, the client what it read and what completed). Exit status 0
 * when all steps passed, 1 otherwise.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define CMD_MAGIC	0x434d4454u	/* "CMDT" */
#define CMD_VERSION	1

/* Buffer layout (each side): control slots, data area, READ source. */
#define CTRL_SLOT	256u
#define CTRL_SLOTS	16u
#define CTRL_LEN	(CTRL_SLOT * CTRL_SLOTS)
#define MAX_SIZE	(4u << 20)
#define GAP		61u		/* bytes between SGE pieces */
#define GUARD		64u		/* poisoned bytes before and after */
#define DATA_OFF	CTRL_LEN
#define DATA_LEN	(MAX_SIZE + 4 * GAP + 2 * GUARD + 4096)
#define RSRC_OFF	(DATA_OFF + DATA_LEN)
#define RSRC_LEN	(MAX_SIZE + 4096)
#define BUF_LEN		(RSRC_OFF + RSRC_LEN)
#define POISON		0xa5
#define MAX_SIZES	16
#define MAX_SGE		3
/* wr_id bases: the step's work request, control sends, READY receives. */
#define WR_STEP		(1ull << 40)
#define WR_CTRL		(2ull << 40)
#define WR_READY	(3ull << 40)

enum op { OP_SEND, OP_SEND_IMM, OP_WRITE, OP_WRITE_IMM, OP_READ, OP_MAX };
static const char *const op_name[OP_MAX] = {
	"send", "send_imm", "write", "write_imm", "read",
};
enum { MSG_HELLO = 1, MSG_READY, MSG_DONE };

/* Private data of the connect/accept (fits the 56 bytes of a CM REQ). */
struct cm_priv {
	uint32_t magic;
	uint32_t version;
	uint64_t addr;
	uint32_t rkey;
	uint32_t len;
} __attribute__((packed));

/* A control message (one slot). */
struct ctrl {
	uint32_t magic;
	uint32_t type;
	uint32_t step;
	uint32_t status;	/* READY: 0 or the server's first failure */
	uint32_t imm;		/* HELLO: immediate forms used */
	uint32_t rounds;
	uint32_t nsizes;
	uint32_t sizes[MAX_SIZES];
	uint64_t counts[OP_MAX];	/* READY: server's counts so far */
	uint32_t badkey;	/* HELLO: -K, no steps */
	uint32_t reset;		/* HELLO: -R, no steps */
} __attribute__((packed));

struct step {
	enum op op;
	uint32_t size;
	unsigned nsge;
	uint32_t seed;
	uint32_t roff;		/* remote offset (WRITE target, READ source) */
};

static struct {
	bool server;
	const char *addr, *src;
	const char *port;
	uint32_t sizes[MAX_SIZES];
	unsigned nsizes;
	unsigned rounds;
	int timeout_ms;
	bool no_imm;
	long corrupt;		/* -X: step whose payload the client spoils */
	bool badkey;		/* -K: one READ through a wrong rkey */
	bool reset;		/* -R: the server resets, a receive after */
} opt = {
	.port = "7471", .rounds = 1, .timeout_ms = 60000, .corrupt = -1,
};

static struct {
	struct rdma_event_channel *ech;
	struct rdma_cm_id *listen_id, *id;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cch;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct ibv_mr *mr;
	uint8_t *buf;
	uint64_t raddr;
	uint32_t rkey, rlen;
	bool iwarp;
	unsigned max_sge;
	unsigned max_sge_rd;	/* an RDMA READ's local SGEs (GEN_1: 1) */
	struct step *steps;
	unsigned nsteps;
	uint64_t counts[OP_MAX];
	uint64_t bytes, cqes, errors;
	unsigned done_steps;
	const char *role;
} g;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "FAIL: cm_data %s: ", g.role);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
	g.errors++;
}

static void summary(void)
{
	printf("cm_data %s: transport=%s steps=%u send=%" PRIu64
	       " send_imm=%" PRIu64 " write=%" PRIu64 " write_imm=%" PRIu64
	       " read=%" PRIu64 " bytes=%" PRIu64 " cqes=%" PRIu64
	       " errors=%" PRIu64 "\n", g.role, g.iwarp ? "iWARP" : "IB",
	       g.done_steps, g.counts[OP_SEND], g.counts[OP_SEND_IMM],
	       g.counts[OP_WRITE], g.counts[OP_WRITE_IMM], g.counts[OP_READ],
	       g.bytes, g.cqes, g.errors);
	fflush(stdout);
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2),
						      noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "FAIL: cm_data %s: ", g.role);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	g.errors++;
	summary();
	exit(1);
}

/* Byte i of the payload with this seed: not periodic in 256 or 4096. */
static inline uint8_t pat(uint32_t seed, uint32_t i)
{
	uint32_t x = i * 2654435761u + seed;

	x ^= x >> 15;
	x *= 0x2c1b3c6du;
	x ^= x >> 12;
	return (uint8_t)(x >> 7);
}

/* The pieces of a payload of "size" bytes at "base": 1 or 3 SGEs. */
static unsigned pieces(uint64_t base, uint32_t size, unsigned nsge,
		       uint64_t *addr, uint32_t *len)
{
	unsigned n = size < nsge ? size : nsge, k;
	uint64_t a = base;
	uint32_t left = size;

	if (!n)
		n = 1;
	for (k = 0; k < n; k++) {
		len[k] = k + 1 == n ? left : size / n;
		addr[k] = a;
		a += len[k] + GAP;
		left -= len[k];
	}
	return n;
}

/* Local data area of a step: an odd start inside the guard. */
static uint8_t *data_base(const struct step *s)
{
	return g.buf + DATA_OFF + GUARD + (s->seed % 7);
}

/* Poisons the area the pieces of step s (and its gaps, guards) cover. */
static void poison(const struct step *s)
{
	memset(g.buf + DATA_OFF, POISON,
	       GUARD + 7 + s->size + MAX_SGE * GAP + GUARD);
}

/*
 * -X: flips one bit of the last piece's middle byte of step k (what the
 * client sends, or what its READ brought), to show the checks catch it.
 */
static void spoil(unsigned k, uint64_t *addr, uint32_t *len, unsigned n)
{
	if ((long)k == opt.corrupt) {
		((uint8_t *)(uintptr_t)addr[n - 1])[len[n - 1] / 2] ^= 0x10;
		printf("cm_data client: step %u: one payload bit flipped (-X)\n",
		       k);
	}
}

/* Fills the pieces of step s (index k) with its pattern. */
static void fill(const struct step *s, unsigned k, uint64_t *addr,
		 uint32_t *len, unsigned n)
{
	uint32_t i = 0;
	unsigned m;

	for (m = 0; m < n; m++) {
		uint8_t *p = (uint8_t *)(uintptr_t)addr[m];
		uint32_t j;

		for (j = 0; j < len[m]; j++)
			p[j] = pat(s->seed, i++);
	}
	spoil(k, addr, len, n);
}

/*
 * Checks "size" bytes at the pieces against the pattern (starting at
 * index "first"), and that every other byte of the poisoned area is still
 * poison. Returns the number of wrong bytes (reporting the first).
 */
static uint64_t verify(const struct step *s, unsigned idx, uint32_t seed,
		       uint32_t first, uint64_t *addr, uint32_t *len,
		       unsigned n, const char *what)
{
	uint8_t *lo = g.buf + DATA_OFF;
	uint8_t *hi = lo + GUARD + 7 + s->size + MAX_SGE * GAP + GUARD;
	uint64_t bad = 0;
	uint32_t i = first;
	uint8_t *p = lo;
	unsigned k;

	for (k = 0; k < n; k++) {
		uint8_t *q = (uint8_t *)(uintptr_t)addr[k];
		uint32_t j;

		for (; p < q; p++) {
			if (*p != POISON && !bad++)
				fail("step %u %s %u B: byte at %+td outside the payload overwritten (0x%02x)",
				     idx, what, s->size, p - lo, *p);
		}
		for (j = 0; j < len[k]; j++, i++, p++) {
			if (*p != pat(seed, i) && !bad++)
				fail("step %u %s %u B: payload byte %u is 0x%02x, want 0x%02x",
				     idx, what, s->size, i - first, *p,
				     pat(seed, i));
		}
	}
	for (; p < hi; p++) {
		if (*p != POISON && !bad++)
			fail("step %u %s %u B: byte at %+td past the payload overwritten (0x%02x)",
			     idx, what, s->size, p - lo, *p);
	}
	return bad;
}

/* ---- completions --------------------------------------------------------- */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The next completion, waiting on the channel; dies on a timeout. */
static void get_wc(struct ibv_wc *wc, const char *what)
{
	double end = now_ms() + opt.timeout_ms;

	for (;;) {
		struct pollfd pfd = { .fd = g.cch->fd, .events = POLLIN };
		struct ibv_cq *cq;
		void *ctx;
		int n = ibv_poll_cq(g.cq, 1, wc);
		double left;

		if (n < 0)
			die("ibv_poll_cq: %d", n);
		if (n)
			break;
		if (ibv_req_notify_cq(g.cq, 0))
			die("ibv_req_notify_cq: %s", strerror(errno));
		n = ibv_poll_cq(g.cq, 1, wc);
		if (n < 0)
			die("ibv_poll_cq: %d", n);
		if (n)
			break;
		left = end - now_ms();
		if (left <= 0)
			die("no completion for %s in %d ms", what,
			    opt.timeout_ms);
		n = poll(&pfd, 1, (int)left + 1);
		if (n < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (n > 0) {
			if (ibv_get_cq_event(g.cch, &cq, &ctx))
				die("ibv_get_cq_event: %s", strerror(errno));
			ibv_ack_cq_events(cq, 1);
		}
	}
	g.cqes++;
}

/*
 * Successful completions that came while another was awaited. One CQ
 * serves both queues, and nothing orders a send queue's completions
 * against the receive queue's: the peer's answer to a SEND may complete
 * a receive before the SEND's own completion is written (siw writes it
 * from its transmit path, after the data went to TCP). Each is taken by
 * the expect_wc() that awaits its wr_id; one left at the end is an error
 * (no_stray_wc()).
 */
#define WC_EARLY_MAX	8
static struct ibv_wc wc_early[WC_EARLY_MAX];
static unsigned wc_early_n;

/* A completion that must be wr_id/opcode/byte_len, successful. */
static void expect_wc(struct ibv_wc *wc, uint64_t wr_id,
		      enum ibv_wc_opcode opcode, uint32_t byte_len,
		      const char *what)
{
	unsigned i;

	for (;;) {
		for (i = 0; i < wc_early_n; i++)
			if (wc_early[i].wr_id == wr_id)
				break;
		if (i < wc_early_n) {
			*wc = wc_early[i];
			wc_early[i] = wc_early[--wc_early_n];
			break;
		}
		get_wc(wc, what);
		if (wc->wr_id == wr_id || wc->status != IBV_WC_SUCCESS)
			break;
		if (wc_early_n == WC_EARLY_MAX)
			die("%s: %u completions of other work requests wait, then wr_id %" PRIu64,
			    what, wc_early_n, wc->wr_id);
		wc_early[wc_early_n++] = *wc;
	}
	if (wc->status != IBV_WC_SUCCESS)
		die("%s: completion status %s (%d), vendor_err 0x%x",
		    what, ibv_wc_status_str(wc->status), wc->status,
		    wc->vendor_err);
	if (wc->wr_id != wr_id)
		die("%s: completion of wr_id %" PRIu64 ", want %" PRIu64,
		    what, wc->wr_id, wr_id);
	if (wc->opcode != opcode)
		die("%s: completion opcode %d, want %d", what, wc->opcode,
		    opcode);
	if (wc->byte_len != byte_len)
		die("%s: completion byte_len %u, want %u", what, wc->byte_len,
		    byte_len);
	if (wc->qp_num != g.qp->qp_num)
		die("%s: completion of QP %u, want %u", what, wc->qp_num,
		    g.qp->qp_num);
}

/* At the end of a run: every completion was awaited. */
static void no_stray_wc(void)
{
	if (wc_early_n)
		die("a completion no step awaited: wr_id %" PRIu64 " opcode %d",
		    wc_early[0].wr_id, wc_early[0].opcode);
}

/* ---- posting ------------------------------------------------------------- */

/*
 * Control slots: those of step k (SSLOT(k)) take the step's control
 * receive (READY on the client, DONE or the WRITE immediate's receive on
 * the server) and the client's DONE; the server sends READY from
 * SLOT_READY, the client HELLO from SLOT_HELLO (received there too).
 */
#define SSLOT(k)	((k) % (CTRL_SLOTS - 2))
#define SLOT_READY	(CTRL_SLOTS - 2)
#define SLOT_HELLO	(CTRL_SLOTS - 1)

static struct ctrl *slot(unsigned i)
{
	return (struct ctrl *)(g.buf + i * CTRL_SLOT);
}

static void post_recv_sges(uint64_t wr_id, uint64_t *addr, uint32_t *len,
			   unsigned n)
{
	struct ibv_sge sge[MAX_SGE];
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = sge,
				  .num_sge = (int)n }, *bad;
	unsigned k;
	int rc;

	for (k = 0; k < n; k++) {
		sge[k].addr = addr[k];
		sge[k].length = len[k];
		sge[k].lkey = g.mr->lkey;
	}
	rc = ibv_post_recv(g.qp, &wr, &bad);
	if (rc)	/* the error is the return value, not errno */
		die("ibv_post_recv: %s", strerror(rc));
}

/* A receive for a control message into slot "i". */
static void post_ctrl_recv(unsigned i, uint64_t wr_id)
{
	uint64_t a = (uintptr_t)slot(i);
	uint32_t l = CTRL_SLOT;

	memset(slot(i), 0, CTRL_SLOT);
	post_recv_sges(wr_id, &a, &l, 1);
}

static void post_send(uint64_t wr_id, enum ibv_wr_opcode opcode,
		      uint64_t *addr, uint32_t *len, unsigned n,
		      uint64_t raddr, uint32_t imm)
{
	struct ibv_sge sge[MAX_SGE];
	struct ibv_send_wr wr = {
		.wr_id = wr_id, .sg_list = sge, .num_sge = (int)n,
		.opcode = opcode, .send_flags = IBV_SEND_SIGNALED,
	}, *bad;
	unsigned k;
	int rc;

	for (k = 0; k < n; k++) {
		sge[k].addr = addr[k];
		sge[k].length = len[k];
		sge[k].lkey = g.mr->lkey;
	}
	if (opcode == IBV_WR_SEND_WITH_IMM ||
	    opcode == IBV_WR_RDMA_WRITE_WITH_IMM)
		wr.imm_data = htonl(imm);
	if (opcode != IBV_WR_SEND && opcode != IBV_WR_SEND_WITH_IMM) {
		wr.wr.rdma.remote_addr = raddr;
		wr.wr.rdma.rkey = g.rkey;
	}
	rc = ibv_post_send(g.qp, &wr, &bad);
	if (rc)	/* the error is the return value, not errno */
		die("ibv_post_send (opcode %d, %u SGEs): %s", opcode, n,
		    strerror(rc));
}

/* Sends control message "c" from slot "i" and waits for its completion. */
static void send_ctrl(unsigned i, const struct ctrl *c)
{
	uint64_t a = (uintptr_t)slot(i);
	uint32_t l = sizeof(*c);
	struct ibv_wc wc;

	memcpy(slot(i), c, sizeof(*c));
	post_send(WR_CTRL + i, IBV_WR_SEND, &a, &l, 1, 0, 0);
	expect_wc(&wc, WR_CTRL + i, IBV_WC_SEND, l, "control send");
}

/* Waits for a control message of "type" in slot "i". */
static struct ctrl *recv_ctrl(unsigned i, uint64_t wr_id, uint32_t type,
			      uint32_t step)
{
	struct ctrl *c = slot(i);
	struct ibv_wc wc;

	expect_wc(&wc, wr_id, IBV_WC_RECV, sizeof(*c), "control receive");
	if (wc.wc_flags & IBV_WC_WITH_IMM)
		die("control receive: flagged WITH_IMM");
	if (c->magic != CMD_MAGIC || c->type != type || c->step != step)
		die("control message: magic 0x%x type %u step %u, want type %u step %u",
		    c->magic, c->type, c->step, type, step);
	return c;
}

/* ---- steps --------------------------------------------------------------- */

static void make_steps(bool imm)
{
	unsigned r, i, n = 0;

	g.steps = calloc((size_t)opt.rounds * opt.nsizes * OP_MAX,
			 sizeof(*g.steps));
	if (!g.steps)
		die("out of memory");
	for (r = 0; r < opt.rounds; r++) {
		for (i = 0; i < opt.nsizes; i++) {
			int o;

			for (o = 0; o < OP_MAX; o++) {
				struct step *s = &g.steps[n];

				if (!imm && (o == OP_SEND_IMM ||
					     o == OP_WRITE_IMM))
					continue;
				s->op = o;
				s->size = opt.sizes[i];
				s->nsge = (i + o + r) % 2 ? MAX_SGE : 1;
				if (s->nsge > g.max_sge)
					s->nsge = g.max_sge;
				if (o == OP_READ && s->nsge > g.max_sge_rd)
					s->nsge = g.max_sge_rd;
				s->seed = 0x5eed0000u + n * 0x9e3779b9u;
				s->roff = (n * 61u) % 4096u;
				n++;
			}
		}
	}
	g.nsteps = n;
}

static unsigned step_pieces(const struct step *s, uint64_t *addr,
			    uint32_t *len)
{
	return pieces((uintptr_t)data_base(s), s->size, s->nsge, addr, len);
}

/* Server: post what step k consumes from the RQ (wr_id WR_STEP + k). */
static void server_prepare(unsigned k)
{
	const struct step *s = &g.steps[k];
	uint64_t addr[MAX_SGE];
	uint32_t len[MAX_SGE];
	unsigned n;

	poison(s);
	switch (s->op) {
	case OP_SEND:
	case OP_SEND_IMM:
		n = step_pieces(s, addr, len);
		post_recv_sges(WR_STEP + k, addr, len, n);
		break;
	case OP_WRITE_IMM:
		/* The immediate takes a receive; its buffer stays unused. */
		post_ctrl_recv(SSLOT(k), WR_STEP + k);
		slot(SSLOT(k))->magic = 0xdeadbeef;
		break;
	default:
		post_ctrl_recv(SSLOT(k), WR_STEP + k);	/* the client's DONE */
		break;
	}
}

/* Server: the WRITE target of step s (remote offset, odd alignment). */
static uint64_t write_target_off(const struct step *s)
{
	return DATA_OFF + GUARD + (s->seed % 7);
}

static uint64_t server_check(unsigned k)
{
	const struct step *s = &g.steps[k];
	uint64_t addr[MAX_SGE], bad;
	uint32_t len[MAX_SGE];
	struct ibv_wc wc;
	unsigned n;
	char what[64];

	snprintf(what, sizeof(what), "step %u %s %u B", k, op_name[s->op],
		 s->size);
	switch (s->op) {
	case OP_SEND:
	case OP_SEND_IMM:
		expect_wc(&wc, WR_STEP + k, IBV_WC_RECV, s->size, what);
		if (s->op == OP_SEND_IMM) {
			if (!(wc.wc_flags & IBV_WC_WITH_IMM) ||
			    ntohl(wc.imm_data) != s->seed)
				die("%s: immediate %s 0x%x, want 0x%x", what,
				    wc.wc_flags & IBV_WC_WITH_IMM ? "" : "(none)",
				    ntohl(wc.imm_data), s->seed);
		} else if (wc.wc_flags & IBV_WC_WITH_IMM) {
			die("%s: completion flagged WITH_IMM", what);
		}
		n = step_pieces(s, addr, len);
		break;
	case OP_WRITE_IMM:
		expect_wc(&wc, WR_STEP + k, IBV_WC_RECV_RDMA_WITH_IMM, s->size,
			  what);
		if (!(wc.wc_flags & IBV_WC_WITH_IMM) ||
		    ntohl(wc.imm_data) != s->seed)
			die("%s: immediate 0x%x, want 0x%x", what,
			    ntohl(wc.imm_data), s->seed);
		if (slot(SSLOT(k))->magic != 0xdeadbeef)
			die("%s: the receive buffer was written", what);
		addr[0] = (uintptr_t)g.buf + write_target_off(s);
		len[0] = s->size;
		n = 1;
		break;
	case OP_WRITE:
		recv_ctrl(SSLOT(k), WR_STEP + k, MSG_DONE, k);
		addr[0] = (uintptr_t)g.buf + write_target_off(s);
		len[0] = s->size;
		n = 1;
		break;
	default:		/* READ: nothing arrives here but the DONE */
		recv_ctrl(SSLOT(k), WR_STEP + k, MSG_DONE, k);
		g.done_steps++;
		return 0;
	}
	bad = verify(s, k, s->seed, 0, addr, len, n, op_name[s->op]);
	if (!bad) {
		g.counts[s->op]++;
		g.bytes += s->size;
	}
	g.done_steps++;
	return bad;
}

static void client_step(unsigned k)
{
	const struct step *s = &g.steps[k];
	uint64_t addr[MAX_SGE], raddr, bad;
	uint32_t len[MAX_SGE];
	struct ibv_wc wc;
	struct ctrl c = { .magic = CMD_MAGIC, .type = MSG_DONE, .step = k };
	unsigned n = step_pieces(s, addr, len);
	char what[64];

	snprintf(what, sizeof(what), "step %u %s %u B (%u SGEs)", k,
		 op_name[s->op], s->size, n);
	switch (s->op) {
	case OP_SEND:
		fill(s, k, addr, len, n);
		post_send(WR_STEP + k, IBV_WR_SEND, addr, len, n, 0, 0);
		expect_wc(&wc, WR_STEP + k, IBV_WC_SEND, s->size, what);
		break;
	case OP_SEND_IMM:
		fill(s, k, addr, len, n);
		post_send(WR_STEP + k, IBV_WR_SEND_WITH_IMM, addr, len, n, 0,
			  s->seed);
		expect_wc(&wc, WR_STEP + k, IBV_WC_SEND, s->size, what);
		break;
	case OP_WRITE:
		fill(s, k, addr, len, n);
		raddr = g.raddr + write_target_off(s);
		post_send(WR_STEP + k, IBV_WR_RDMA_WRITE, addr, len, n, raddr, 0);
		expect_wc(&wc, WR_STEP + k, IBV_WC_RDMA_WRITE, s->size, what);
		send_ctrl(SSLOT(k), &c);
		break;
	case OP_WRITE_IMM:
		fill(s, k, addr, len, n);
		raddr = g.raddr + write_target_off(s);
		post_send(WR_STEP + k, IBV_WR_RDMA_WRITE_WITH_IMM, addr, len, n,
			  raddr, s->seed);
		expect_wc(&wc, WR_STEP + k, IBV_WC_RDMA_WRITE, s->size, what);
		break;
	default:
		poison(s);
		raddr = g.raddr + RSRC_OFF + s->roff;
		post_send(WR_STEP + k, IBV_WR_RDMA_READ, addr, len, n, raddr, 0);
		expect_wc(&wc, WR_STEP + k, IBV_WC_RDMA_READ, s->size, what);
		spoil(k, addr, len, n);
		/* The server's READ source: pattern 0 from its start. */
		bad = verify(s, k, 0, s->roff, addr, len, n, "read");
		if (bad)
			die("%s: %" PRIu64 " wrong bytes", what, bad);
		g.counts[OP_READ]++;
		g.bytes += s->size;
		send_ctrl(SSLOT(k), &c);
		break;
	}
	if (s->op != OP_READ) {
		g.counts[s->op]++;
		g.bytes += s->size;
	}
}

/* ---- connection ---------------------------------------------------------- */

static struct rdma_cm_event *cm_wait(enum rdma_cm_event_type want)
{
	struct rdma_cm_event *ev;
	struct pollfd pfd = { .fd = g.ech->fd, .events = POLLIN };

	if (poll(&pfd, 1, opt.timeout_ms) <= 0)
		die("no RDMA-CM event (want %s) in %d ms",
		    rdma_event_str(want), opt.timeout_ms);
	if (rdma_get_cm_event(g.ech, &ev))
		die("rdma_get_cm_event: %s", strerror(errno));
	if (ev->event != want)
		die("RDMA-CM event %s (status %d), want %s",
		    rdma_event_str(ev->event), ev->status,
		    rdma_event_str(want));
	return ev;
}

static void setup_qp(struct rdma_cm_id *id)
{
	struct ibv_qp_init_attr qa = { 0 };
	struct ibv_device_attr da;
	int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		  IBV_ACCESS_REMOTE_READ;

	g.iwarp = id->verbs->device->transport_type == IBV_TRANSPORT_IWARP;
	if (ibv_query_device(id->verbs, &da))
		die("ibv_query_device: %s", strerror(errno));
	g.max_sge = da.max_sge < MAX_SGE ? (unsigned)da.max_sge : MAX_SGE;
	/*
	 * A READ's scatter list has its own limit (irdma: the hardware's
	 * max_hw_read_sges, 1 on the X722's GEN_1; the provider refuses more
	 * with EINVAL).
	 */
	g.max_sge_rd = da.max_sge_rd < (int)g.max_sge ? (unsigned)da.max_sge_rd :
						       g.max_sge;
	if (!g.max_sge_rd)
		g.max_sge_rd = 1;
	g.pd = ibv_alloc_pd(id->verbs);
	g.cch = ibv_create_comp_channel(id->verbs);
	if (!g.pd || !g.cch)
		die("PD / completion channel: %s", strerror(errno));
	g.cq = ibv_create_cq(id->verbs, 64, NULL, g.cch, 0);
	if (!g.cq)
		die("ibv_create_cq: %s", strerror(errno));
	if (posix_memalign((void **)&g.buf, 4096, BUF_LEN))
		die("out of memory");
	memset(g.buf, 0, BUF_LEN);
	g.mr = ibv_reg_mr(g.pd, g.buf, BUF_LEN, acc);
	if (!g.mr)
		die("ibv_reg_mr (%u B): %s", BUF_LEN, strerror(errno));
	qa.send_cq = g.cq;
	qa.recv_cq = g.cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = 16;
	qa.cap.max_recv_wr = 16;
	qa.cap.max_send_sge = g.max_sge;
	qa.cap.max_recv_sge = g.max_sge;
	if (rdma_create_qp(id, g.pd, &qa))
		die("rdma_create_qp: %s", strerror(errno));
	g.qp = id->qp;
}

static void priv_fill(struct cm_priv *p)
{
	p->magic = htobe32(CMD_MAGIC);
	p->version = htobe32(CMD_VERSION);
	p->addr = htobe64((uintptr_t)g.buf);
	p->rkey = htobe32(g.mr->rkey);
	p->len = htobe32(BUF_LEN);
}

static void priv_take(const void *data, uint8_t len, const char *what)
{
	struct cm_priv p;

	/*
	 * -K needs no real buffer: without the server's private data any
	 * rkey is a wrong one (an STag the server never made).
	 */
	if (opt.badkey && (!data || !len)) {
		g.raddr = 0;
		g.rkey = 0x00bad100;
		g.rlen = BUF_LEN;
		printf("cm_data client: no private data in the %s, rkey 0x%x\n",
		       what, g.rkey);
		return;
	}
	if (!data || len < sizeof(p))
		die("%s: private data of %u bytes, want >= %zu", what, len,
		    sizeof(p));
	memcpy(&p, data, sizeof(p));
	if (be32toh(p.magic) != CMD_MAGIC || be32toh(p.version) != CMD_VERSION)
		die("%s: private data magic 0x%x version %u", what,
		    be32toh(p.magic), be32toh(p.version));
	g.raddr = be64toh(p.addr);
	g.rkey = be32toh(p.rkey);
	g.rlen = be32toh(p.len);
	if (g.rlen != BUF_LEN)
		die("%s: peer buffer of %u bytes, want %u", what, g.rlen,
		    BUF_LEN);
}

static void resolve(const char *host, struct sockaddr_storage *ss)
{
	struct addrinfo hints = { .ai_flags = AI_NUMERICHOST }, *res;

	if (getaddrinfo(host, opt.port, &hints, &res))
		die("bad address %s", host);
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
}

static void conn_param(struct rdma_conn_param *cp, struct cm_priv *p)
{
	memset(cp, 0, sizeof(*cp));
	cp->private_data = p;
	cp->private_data_len = sizeof(*p);
	cp->responder_resources = 1;
	cp->initiator_depth = 1;
	cp->retry_count = 7;
	cp->rnr_retry_count = 7;
}

static void fill_rsrc(void)
{
	uint32_t i;

	for (i = 0; i < RSRC_LEN; i++)
		g.buf[RSRC_OFF + i] = pat(0, i);
}

static int run_server(void)
{
	struct sockaddr_storage ss;
	struct rdma_cm_event *ev;
	struct rdma_conn_param cp;
	struct cm_priv mine;
	struct ctrl *hello, ready = { .magic = CMD_MAGIC, .type = MSG_READY };
	unsigned k;

	resolve(opt.addr, &ss);
	if (rdma_create_id(g.ech, &g.listen_id, NULL, RDMA_PS_TCP) ||
	    rdma_bind_addr(g.listen_id, (struct sockaddr *)&ss) ||
	    rdma_listen(g.listen_id, 1))
		die("listen on %s:%s: %s", opt.addr, opt.port,
		    strerror(errno));
	printf("cm_data server: listening on %s:%s\n", opt.addr, opt.port);
	fflush(stdout);
	ev = cm_wait(RDMA_CM_EVENT_CONNECT_REQUEST);
	g.id = ev->id;
	setup_qp(g.id);
	priv_take(ev->param.conn.private_data,
		  ev->param.conn.private_data_len, "connect request");
	fill_rsrc();
	post_ctrl_recv(SLOT_HELLO, 50);
	priv_fill(&mine);
	conn_param(&cp, &mine);
	if (rdma_accept(g.id, &cp))
		die("rdma_accept: %s", strerror(errno));
	rdma_ack_cm_event(ev);
	rdma_ack_cm_event(cm_wait(RDMA_CM_EVENT_ESTABLISHED));
	hello = recv_ctrl(SLOT_HELLO, 50, MSG_HELLO, 0);
	if (!hello->nsizes || hello->nsizes > MAX_SIZES || !hello->rounds ||
	    hello->rounds > 100)
		die("HELLO: %u sizes, %u rounds", hello->nsizes,
		    hello->rounds);
	opt.nsizes = hello->nsizes;
	opt.rounds = hello->rounds;
	for (k = 0; k < opt.nsizes; k++) {
		opt.sizes[k] = hello->sizes[k];
		if (!opt.sizes[k] || opt.sizes[k] > MAX_SIZE)
			die("HELLO: size %u", opt.sizes[k]);
	}
	if (hello->reset) {
		/*
		 * -R: the QP goes without a disconnect: the driver's destroy
		 * resets the offloaded connection (an RST on iWARP).
		 */
		send_ctrl(SLOT_READY, &ready);
		rdma_destroy_qp(g.id);
		g.qp = NULL;
		printf("cm_data server: reset run, QP destroyed, waiting for the disconnect\n");
		fflush(stdout);
		rdma_ack_cm_event(cm_wait(RDMA_CM_EVENT_DISCONNECTED));
		return 0;
	}
	if (hello->badkey) {
		send_ctrl(SLOT_READY, &ready);
		printf("cm_data server: bad rkey run, waiting for the disconnect\n");
		fflush(stdout);
		rdma_ack_cm_event(cm_wait(RDMA_CM_EVENT_DISCONNECTED));
		return 0;
	}
	make_steps(hello->imm);
	printf("cm_data server: %u steps, %s, immediate %s\n", g.nsteps,
	       g.iwarp ? "iWARP" : "IB", hello->imm ? "on" : "off");
	fflush(stdout);
	for (k = 0; k <= g.nsteps; k++) {
		if (k < g.nsteps)
			server_prepare(k);
		ready.step = k;
		memcpy(ready.counts, g.counts, sizeof(g.counts));
		send_ctrl(SLOT_READY, &ready);
		if (k < g.nsteps && server_check(k)) {
			ready.status = 1;
			ready.step = k + 1;
			send_ctrl(SLOT_READY, &ready);
			die("step %u: payload wrong", k);
		}
	}
	ev = cm_wait(RDMA_CM_EVENT_DISCONNECTED);
	rdma_ack_cm_event(ev);
	no_stray_wc();
	summary();
	return g.errors ? 1 : 0;
}

/*
 * -K: READY(0), then a READ the server's device must refuse; its error
 * completion, then DISCONNECTED (the connection ends with the error).
 */
static int client_badkey(void)
{
	uint64_t addr = (uint64_t)(uintptr_t)g.buf;
	uint32_t len = 64;
	struct ibv_wc wc;

	recv_ctrl(SSLOT(0), WR_READY, MSG_READY, 0);
	g.rkey ^= 0x5a;
	post_send(WR_STEP, IBV_WR_RDMA_READ, &addr, &len, 1, g.raddr, 0);
	get_wc(&wc, "bad rkey read");
	printf("cm_data client: bad rkey read status=%d (%s) vendor_err=0x%x wr_id=%" PRIu64 "\n",
	       wc.status, ibv_wc_status_str(wc.status), wc.vendor_err,
	       wc.wr_id);
	fflush(stdout);
	if (wc.status == IBV_WC_SUCCESS)
		die("READ through a wrong rkey succeeded");
	rdma_ack_cm_event(cm_wait(RDMA_CM_EVENT_DISCONNECTED));
	return 0;
}

/*
 * -R: READY(0), then the server destroys its QP: DISCONNECTED here once
 * the peer's RST ended the connection and the driver flushed the QP (its
 * queues are empty by then). A receive posted after that, and
 * rdma_disconnect() as an application does next, must still complete
 * (flushed) within 5 s: a thread waiting for the CQ's events would wait
 * forever otherwise.
 */
static int client_reset(void)
{
	struct ibv_wc wc;
	int rc;

	recv_ctrl(SSLOT(0), WR_READY, MSG_READY, 0);
	rdma_ack_cm_event(cm_wait(RDMA_CM_EVENT_DISCONNECTED));
	post_ctrl_recv(SSLOT(1), WR_READY + 1);
	rc = rdma_disconnect(g.id);
	printf("cm_data client: DISCONNECTED, receive posted, rdma_disconnect %s\n",
	       rc ? strerror(errno) : "0");
	fflush(stdout);
	opt.timeout_ms = 5000;
	get_wc(&wc, "receive posted after the disconnect");
	printf("cm_data client: late receive status=%d (%s) vendor_err=0x%x wr_id=%" PRIu64 "\n",
	       wc.status, ibv_wc_status_str(wc.status), wc.vendor_err,
	       wc.wr_id);
	fflush(stdout);
	if (wc.wr_id != WR_READY + 1 || wc.status != IBV_WC_WR_FLUSH_ERR)
		die("late receive: not flushed");
	return 0;
}

static int run_client(void)
{
	struct sockaddr_storage dst, src;
	struct rdma_conn_param cp;
	struct rdma_cm_event *ev;
	struct cm_priv mine;
	struct ctrl hello = { .magic = CMD_MAGIC, .type = MSG_HELLO }, *r;
	unsigned k;

	resolve(opt.addr, &dst);
	if (opt.src)
		resolve(opt.src, &src);
	if (rdma_create_id(g.ech, &g.id, NULL, RDMA_PS_TCP))
		die("rdma_create_id: %s", strerror(errno));
	if (opt.src)
		((struct sockaddr_in *)&src)->sin_port = 0;
	if (rdma_resolve_addr(g.id, opt.src ? (struct sockaddr *)&src : NULL,
			      (struct sockaddr *)&dst, opt.timeout_ms))
		die("rdma_resolve_addr: %s", strerror(errno));
	rdma_ack_cm_event(cm_wait(RDMA_CM_EVENT_ADDR_RESOLVED));
	if (rdma_resolve_route(g.id, opt.timeout_ms))
		die("rdma_resolve_route: %s", strerror(errno));
	rdma_ack_cm_event(cm_wait(RDMA_CM_EVENT_ROUTE_RESOLVED));
	setup_qp(g.id);
	if (opt.no_imm || g.iwarp)
		hello.imm = 0;
	else
		hello.imm = 1;
	make_steps(hello.imm);
	post_ctrl_recv(SSLOT(0), WR_READY);	/* READY(0) */
	priv_fill(&mine);
	conn_param(&cp, &mine);
	if (rdma_connect(g.id, &cp))
		die("rdma_connect: %s", strerror(errno));
	ev = cm_wait(RDMA_CM_EVENT_ESTABLISHED);
	priv_take(ev->param.conn.private_data,
		  ev->param.conn.private_data_len, "accept");
	rdma_ack_cm_event(ev);
	printf("cm_data client: connected, %u steps, %s, immediate %s, %u SGEs\n",
	       g.nsteps, g.iwarp ? "iWARP" : "IB", hello.imm ? "on" : "off",
	       g.max_sge);
	fflush(stdout);
	hello.rounds = opt.rounds;
	hello.nsizes = opt.nsizes;
	memcpy(hello.sizes, opt.sizes, sizeof(opt.sizes));
	hello.badkey = opt.badkey;
	hello.reset = opt.reset;
	send_ctrl(SLOT_HELLO, &hello);
	if (opt.badkey)
		return client_badkey();
	if (opt.reset)
		return client_reset();
	for (k = 0; k <= g.nsteps; k++) {
		r = recv_ctrl(SSLOT(k), WR_READY + k, MSG_READY, k);
		if (r->status)
			die("server: step %u failed", k ? k - 1 : 0);
		if (k == g.nsteps) {
			/* The server's counts: all it received, checked. */
			for (int o = 0; o < OP_MAX; o++) {
				uint64_t want = o == OP_READ ? 0 : g.counts[o];

				if (r->counts[o] != want)
					fail("server checked %" PRIu64 " %s payloads, client sent %" PRIu64,
					     r->counts[o], op_name[o], want);
			}
			break;
		}
		post_ctrl_recv(SSLOT(k + 1), WR_READY + k + 1);
		client_step(k);
		g.done_steps++;
	}
	if (rdma_disconnect(g.id))
		die("rdma_disconnect: %s", strerror(errno));
	rdma_ack_cm_event(cm_wait(RDMA_CM_EVENT_DISCONNECTED));
	no_stray_wc();
	summary();
	return g.errors ? 1 : 0;
}

static void parse_sizes(const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL;

	opt.nsizes = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long v = strtoul(tok, NULL, 0);

		if (opt.nsizes == MAX_SIZES || !v || v > MAX_SIZE) {
			fprintf(stderr, "cm_data: bad size list %s\n", s);
			exit(2);
		}
		opt.sizes[opt.nsizes++] = (uint32_t)v;
	}
	free(copy);
}

int main(int argc, char **argv)
{
	int c;

	parse_sizes("1,3,64,1000,4096,4097,65536,65537,262144,1048576");
	while ((c = getopt(argc, argv, "sca:b:p:S:r:T:IX:KR")) != -1) {
		switch (c) {
		case 's':
			opt.server = true;
			break;
		case 'c':
			opt.server = false;
			break;
		case 'a':
			opt.addr = optarg;
			break;
		case 'b':
			opt.src = optarg;
			break;
		case 'p':
			opt.port = optarg;
			break;
		case 'S':
			parse_sizes(optarg);
			break;
		case 'r':
			opt.rounds = (unsigned)strtoul(optarg, NULL, 0);
			break;
		case 'T':
			opt.timeout_ms = atoi(optarg) * 1000;
			break;
		case 'I':
			opt.no_imm = true;
			break;
		case 'X':
			opt.corrupt = strtol(optarg, NULL, 0);
			break;
		case 'K':
			opt.badkey = true;
			break;
		case 'R':
			opt.reset = true;
			break;
		default:
			fprintf(stderr, "usage: cm_data -s|-c -a ADDR [-b SRC] [-p PORT] [-S SIZES] [-r ROUNDS] [-T SECONDS] [-I] [-X STEP] [-K] [-R]\n");
			return 2;
		}
	}
	g.role = opt.server ? "server" : "client";
	if (!opt.addr || !opt.rounds || opt.rounds > 100 ||
	    opt.timeout_ms <= 0) {
		fprintf(stderr, "cm_data: -a ADDR, -r 1..100 and -T > 0 wanted\n");
		return 2;
	}
	g.ech = rdma_create_event_channel();
	if (!g.ech)
		die("rdma_create_event_channel: %s", strerror(errno));
	return opt.server ? run_server() : run_client();
}
