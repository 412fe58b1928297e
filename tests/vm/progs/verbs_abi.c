// SPDX-License-Identifier: GPL-2.0-only
/*
 * verbs_abi: the resource verbs (contexts, PDs, CQs, QPs, MRs, AHs)
 * through the stock rdma-core irdma provider, against our kernel driver
 * (the upstream uverbs ABI).
 *
 *   verbs_abi -d DEV -l LOCAL_IPV4 -p PEER_IPV4 [-n N] [-m BYTES] loop|neg|hold|data
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
 * data  bytes through the six MRs between two RC QPs of the device
 *       (verbs_abi_data.c): every page list entry the driver wrote is
 *       followed by the device and checked.
 *
 * -m leaves out the MRs larger than BYTES (diagnostics: is it the big
 * registrations?); the scenario always uses all six.
 *
 * The objects of one iteration are verbs_abi_set.c.
 *
 * LOCAL_IPV4 must be an address of DEV's netdev (its RoCEv2 GID is the
 * source GID); PEER_IPV4 must be resolvable to a MAC on that netdev (the
 * kernel resolves the AH's destination MAC for RTR and create_ah).
 *
 * Output lines follow tests/vm/lib/guest-lib.sh (ok/FAIL/SKIP); exit 0
 * when every check passed, 77 when the kernel does not implement a verb
 * yet (EOPNOTSUPP the first time it is used), 1 otherwise.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "verbs_abi.h"

#define VA_HOLD_TIMEOUT_S 300

bool va_first_use = true;

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
 * 1 if the @len bytes at page-aligned @p sit on physically consecutive 4 KiB
 * pages (/proc/self/pagemap: PFN in bits 54:0, present in bit 63; root
 * sees the PFNs), 0 if not, -1 if unknown. irdma then describes the MR with
 * no PBL at all (pbl_level 0), which a fresh guest's unfragmented memory
 * can give even a 256 MiB buffer.
 */
static int va_phys_contig(const void *p, size_t len)
{
	uint64_t ent, first = 0;
	size_t i, n = len / 4096;
	int fd, ret = 1;

	fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		return -1;
	for (i = 0; i < n && ret == 1; i++) {
		off_t off = (off_t)(((uintptr_t)p / 4096 + i) * sizeof(ent));

		if (pread(fd, &ent, sizeof(ent), off) != sizeof(ent) ||
		    !(ent >> 63) || !(ent & ((1ULL << 55) - 1)))
			ret = -1;
		else if (i == 0)
			first = ent & ((1ULL << 55) - 1);
		else if ((ent & ((1ULL << 55) - 1)) != first + i)
			ret = 0;
	}
	close(fd);
	return ret;
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
		printf(" mr%d_lkey=%u mr%d_len=%zu mr%d_contig=%d", i,
		       s.mr[i]->lkey, i, s.mr[i]->length, i,
		       va_phys_contig(env->buf[i], env->len[i]));
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
		"usage: verbs_abi -d DEV -l LOCAL_IPV4 -p PEER_IPV4 [-n ITER] [-m MAX_MR_BYTES] loop|neg|hold|data\n");
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

	if (strcmp(mode, "loop") && strcmp(mode, "neg") && strcmp(mode, "hold") &&
	    strcmp(mode, "data"))
		va_usage();
	va_setup(&env, dev, local, peer);
	if (!strcmp(mode, "neg")) {
		va_negative(&env);
	} else {
		va_map_buffers(&env, max_mr);
		if (!strcmp(mode, "loop"))
			va_loop(&env, iters);
		else if (!strcmp(mode, "data"))
			va_data(&env);
		else
			va_hold(&env);
	}

	ibv_close_device(env.ctx);
	printf("%s: %u check(s) failed\n", mode, vt_fails);
	return vt_fails ? 1 : 0;
}
