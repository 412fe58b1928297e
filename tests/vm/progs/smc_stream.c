// SPDX-License-Identifier: GPL-2.0-only
/*
 * smc_stream: a TCP application on the SMC socket API (AF_SMC, the
 * transparent way smc_run moves one), or on plain TCP for comparison.
 *
 *   smc_stream server smc|tcp ADDR PORT BYTES [both|to-server|to-client]
 *   smc_stream client smc|tcp ADDR PORT BYTES [both|to-server|to-client]
 *   smc_stream ueid-add NAME
 *
 * The server accepts one connection on ADDR:PORT, the client connects to
 * it (retrying for 60 s while nobody listens). Both then stream BYTES of
 * pseudo-random data to each other at the same time (a sender thread and
 * the receiving main thread), each checking every received byte against
 * the stream the peer generates, and print "RESULT key value" lines:
 *   sent_sum / recv_sum  FNV-1a 64 of what went out / came in (the
 *                        script compares one side's sent with the
 *                        other's recv)
 *   recv_bytes, data ok | data bad at OFFSET
 *   ms, mibps            elapsed time of both directions together and
 *                        the total (both directions) in MiB/s
 * and for smc, read from the kernel's smc_diag (sock_diag, the interface
 * smcss uses) for this very socket (by inode) while it is open:
 *   mode smcr|fallback|smcd, fallback_reason 0x..., ib NAME, ibport N,
 *   gid ..., peer_gid ..., role client|server
 * The exit status is 0 when the data is complete and right, whatever
 * the mode (the script decides what mode it wants).
 *
 * With to-server or to-client (both sides must be given the same) only
 * that direction carries BYTES, for throughput (tests/bench/ulp.sh): the
 * sender sends one 64 KiB block of the stream over and over, the
 * receiver counts the bytes without checking them (generating and
 * checking every byte would cost more CPU under TCG than either
 * transport), and mibps is that one direction.
 *
 * ueid-add puts NAME into the kernel's user-defined EID table (generic
 * netlink SMC_GEN_NETLINK, SMC_NETLINK_ADD_UEID, what "smcr ueid add"
 * sends): SMC-Rv2 is only proposed and accepted with an EID both sides
 * share (net/smc smc_find_proposal_devices(): smc_clc_ueid_count()), and
 * off s390 there is no system EID. An EID already there counts as added.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/smc.h>
#include <linux/smc_diag.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef AF_SMC
#define AF_SMC 43
#endif
#define SMCPROTO_SMC 0 /* net/smc: IPv4 sockets of AF_SMC */

#define CHUNK (64 * 1024)
#define SEED_FROM_SERVER 0x5e7e50c0ffee0001ULL
#define SEED_FROM_CLIENT 0xc11e47c0ffee0002ULL

struct dir {
	int fd;
	uint64_t seed;
	uint64_t bytes;
	uint64_t sum;
	int err;
	int raw;	/* one block, sent over and over, no sum */
};

/* splitmix64 of the word index: byte o of the stream is byte o % 8 of word o / 8 */
static uint64_t word_at(uint64_t seed, uint64_t idx)
{
	uint64_t z = seed + (idx + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void fill(uint64_t seed, uint64_t off, unsigned char *buf, size_t len)
{
	size_t i = 0;

	while (i < len) {
		uint64_t o = off + i, w = word_at(seed, o / 8) >> (8 * (o % 8));

		for (unsigned b = o % 8; b < 8 && i < len; b++, w >>= 8) {
			buf[i++] = (unsigned char)w;
		}
	}
}

static uint64_t fnv(uint64_t h, const unsigned char *buf, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		h = (h ^ buf[i]) * 0x100000001b3ULL;
	}
	return h;
}

static void *sender(void *arg)
{
	static unsigned char buf[CHUNK];
	struct dir *d = arg;
	uint64_t off = 0;

	while (off < d->bytes) {
		size_t n = d->bytes - off < CHUNK ? d->bytes - off : CHUNK;
		size_t done = 0;

		if (!d->raw || !off) {
			fill(d->seed, d->raw ? 0 : off, buf, d->raw ? CHUNK : n);
		}
		if (!d->raw) {
			d->sum = fnv(d->sum, buf, n);
		}
		while (done < n) {
			ssize_t r = send(d->fd, buf + done, n - done, 0);

			if (r < 0) {
				if (errno == EINTR) {
					continue;
				}
				d->err = errno;
				return NULL;
			}
			done += r;
		}
		off += n;
	}
	return NULL;
}

static const char *mode_name(unsigned mode)
{
	switch (mode) {
	case SMC_DIAG_MODE_SMCR:
		return "smcr";
	case SMC_DIAG_MODE_FALLBACK_TCP:
		return "fallback";
	case SMC_DIAG_MODE_SMCD:
		return "smcd";
	}
	return "unknown";
}

static void print_attr(const struct nlattr *a)
{
	const void *p = (const char *)a + NLA_HDRLEN;

	if (a->nla_type == SMC_DIAG_FALLBACK &&
		a->nla_len >= NLA_HDRLEN + sizeof(struct smc_diag_fallback)) {
		const struct smc_diag_fallback *f = p;

		printf("RESULT fallback_reason 0x%x\n", f->reason);
		printf("RESULT peer_diagnosis 0x%x\n", f->peer_diagnosis);
	} else if (a->nla_type == SMC_DIAG_LGRINFO &&
			   a->nla_len >= NLA_HDRLEN + sizeof(struct smc_diag_lgrinfo)) {
		const struct smc_diag_lgrinfo *l = p;

		printf("RESULT ib %.*s\n", (int)sizeof(l->lnk[0].ibname),
			   (const char *)l->lnk[0].ibname);
		printf("RESULT ibport %u\n", l->lnk[0].ibport);
		printf("RESULT gid %.*s\n", 40, (const char *)l->lnk[0].gid);
		printf("RESULT peer_gid %.*s\n", 40, (const char *)l->lnk[0].peer_gid);
		printf("RESULT role %s\n", l->role ? "server" : "client");
	} else if (a->nla_type == SMC_DIAG_CONNINFO &&
			   a->nla_len >= NLA_HDRLEN + sizeof(struct smc_diag_conninfo)) {
		const struct smc_diag_conninfo *c = p;

		printf("RESULT sndbuf %u rmbe %u peer_rmbe %u\n", c->sndbuf_size,
			   c->rmbe_size, c->peer_rmbe_size);
	}
}

/* One smc_diag dump of this namespace; prints the entry of inode ino. */
static int smc_diag(unsigned long ino)
{
	struct {
		struct nlmsghdr nlh;
		struct smc_diag_req req;
	} q = {
		.nlh.nlmsg_len = sizeof(q),
		.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY,
		.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		.req.diag_family = AF_SMC,
		.req.diag_ext = (1 << (SMC_DIAG_CONNINFO - 1)) |
						(1 << (SMC_DIAG_LGRINFO - 1)),
	};
	static char buf[32768];
	int nl, found = 0, done = 0;

	nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0 || send(nl, &q, sizeof(q), 0) < 0) {
		printf("RESULT diag_error %s\n", strerror(errno));
		return -1;
	}
	while (!done) {
		ssize_t len = recv(nl, buf, sizeof(buf), 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;

		if (len <= 0) {
			break;
		}
		for (; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			const struct smc_diag_msg *m = NLMSG_DATA(h);
			const struct nlattr *a;
			int rest;

			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)) ||
				m->diag_inode != ino || found) {
				continue;
			}
			found = 1;
			printf("RESULT mode %s\n", mode_name(m->diag_mode));
			a = (const struct nlattr *)((const char *)m + NLMSG_ALIGN(sizeof(*m)));
			rest = h->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(sizeof(*m)));
			while (rest >= (int)NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
				   a->nla_len <= rest) {
				print_attr(a);
				rest -= NLA_ALIGN(a->nla_len);
				a = (const struct nlattr *)((const char *)a + NLA_ALIGN(a->nla_len));
			}
		}
	}
	close(nl);
	if (!found) {
		printf("RESULT mode not-in-smc_diag\n");
	}
	return found ? 0 : -1;
}

/*
 * One request on a generic netlink socket and the first message back:
 * the ACK's error (0 or -errno), or the reply's length with it in buf.
 */
static int genl_call(int nl, void *req, size_t len, char *buf, size_t cap)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	ssize_t n;

	if (send(nl, req, len, 0) < 0) {
		return -errno;
	}
	n = recv(nl, buf, cap, 0);
	if (n < (ssize_t)NLMSG_HDRLEN || !NLMSG_OK(h, n)) {
		return -EIO;
	}
	if (h->nlmsg_type == NLMSG_ERROR) {
		return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	}
	return n;
}

struct genl_req {
	struct nlmsghdr nlh;
	struct genlmsghdr g;
	struct nlattr a;
	char data[64];
};

static void genl_req_init(struct genl_req *r, uint16_t type, uint16_t flags,
			  uint8_t cmd, uint8_t version, uint16_t attr,
			  const void *val, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + NLA_HDRLEN + len);
	r->nlh.nlmsg_type = type;
	r->nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	r->g.cmd = cmd;
	r->g.version = version;
	r->a.nla_type = attr;
	r->a.nla_len = NLA_HDRLEN + len;
	memcpy(r->data, val, len);
}

static int ueid_add(const char *name)
{
	static char buf[8192];
	char eid[SMC_MAX_EID_LEN + 1];
	struct genl_req r;
	struct nlattr *a;
	int nl, n, fam = -1, rc;

	if (strlen(name) > SMC_MAX_EID_LEN) {
		fprintf(stderr, "ueid-add: %s is longer than %d\n", name, SMC_MAX_EID_LEN);
		return 2;
	}
	nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (nl < 0) {
		perror("socket(NETLINK_GENERIC)");
		return 1;
	}
	/* no ACK asked: the reply is the one message to read */
	genl_req_init(&r, GENL_ID_CTRL, 0, CTRL_CMD_GETFAMILY, 1,
		      CTRL_ATTR_FAMILY_NAME, SMC_GENL_FAMILY_NAME,
		      sizeof(SMC_GENL_FAMILY_NAME));
	n = genl_call(nl, &r, r.nlh.nlmsg_len, buf, sizeof(buf));
	if (n < 0) {
		fprintf(stderr, "ueid-add: no %s family: %s\n", SMC_GENL_FAMILY_NAME,
			strerror(-n));
		return 1;
	}
	a = (struct nlattr *)(buf + NLMSG_HDRLEN + GENL_HDRLEN);
	for (int rest = n - NLMSG_HDRLEN - GENL_HDRLEN;
	     rest >= (int)NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rest;
	     rest -= NLA_ALIGN(a->nla_len),
	     a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len))) {
		if (a->nla_type == CTRL_ATTR_FAMILY_ID) {
			fam = *(uint16_t *)((char *)a + NLA_HDRLEN);
		}
	}
	if (fam < 0) {
		fprintf(stderr, "ueid-add: no family id in the reply\n");
		return 1;
	}
	/* 32 characters, blank padded, NUL terminated, as smc-tools sends it */
	memset(eid, ' ', SMC_MAX_EID_LEN);
	memcpy(eid, name, strlen(name));
	eid[SMC_MAX_EID_LEN] = 0;
	genl_req_init(&r, fam, NLM_F_ACK, SMC_NETLINK_ADD_UEID, SMC_GENL_FAMILY_VERSION,
		      SMC_NLA_EID_TABLE_ENTRY, eid, sizeof(eid));
	rc = genl_call(nl, &r, r.nlh.nlmsg_len, buf, sizeof(buf));
	close(nl);
	if (rc < 0 && rc != -EEXIST) {
		fprintf(stderr, "ueid-add %s: %s\n", name, strerror(-rc));
		return 1;
	}
	printf("RESULT ueid %s%s\n", name, rc == -EEXIST ? " (already there)" : "");
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int open_conn(int server, int smc, const char *addr, int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd, one = 1;

	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		fprintf(stderr, "bad address %s\n", addr);
		return -1;
	}
	for (int tries = 0; tries < 600; tries++) {
		fd = smc ? socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC)
				 : socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0) {
			perror("socket");
			return -1;
		}
		if (server) {
			int c;

			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
				listen(fd, 1) < 0) {
				perror("bind/listen");
				return -1;
			}
			printf("RESULT listening\n");
			fflush(stdout);
			c = accept(fd, NULL, NULL);
			if (c < 0) {
				perror("accept");
			}
			close(fd);
			return c;
		}
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			return fd;
		}
		if (errno != ECONNREFUSED) {
			perror("connect");
			close(fd);
			return -1;
		}
		close(fd);
		usleep(100000);
	}
	fprintf(stderr, "connect: nobody listening on %s:%d\n", addr, port);
	return -1;
}

int main(int argc, char **argv)
{
	static unsigned char buf[CHUNK], want[CHUNK];
	struct dir tx = { .sum = 0xcbf29ce484222325ULL };
	uint64_t rx_sum = 0xcbf29ce484222325ULL, got = 0, bad_at = UINT64_MAX;
	uint64_t bytes, want_rx;
	int server, smc, fd, oneway = 0;
	pthread_t th;
	struct stat st;
	double t0, dt;

	if (argc == 3 && !strcmp(argv[1], "ueid-add")) {
		return ueid_add(argv[2]);
	}
	if (argc == 7 && !strcmp(argv[6], "to-server")) {
		oneway = 1;
	} else if (argc == 7 && !strcmp(argv[6], "to-client")) {
		oneway = 2;
	}
	if ((argc != 6 && argc != 7) ||
	    (argc == 7 && !oneway && strcmp(argv[6], "both"))) {
		fprintf(stderr, "usage: %s server|client smc|tcp ADDR PORT BYTES"
			" [both|to-server|to-client]\n"
			"       %s ueid-add NAME\n", argv[0], argv[0]);
		return 2;
	}
	server = !strcmp(argv[1], "server");
	smc = !strcmp(argv[2], "smc");
	bytes = strtoull(argv[5], NULL, 0);
	tx.bytes = bytes;
	want_rx = bytes;
	if (oneway) {
		/* the client sends to-server, the server to-client */
		int sends = (oneway == 1) != server;

		tx.bytes = sends ? bytes : 0;
		want_rx = sends ? 0 : bytes;
		tx.raw = 1;
	}
	fd = open_conn(server, smc, argv[3], atoi(argv[4]));
	if (fd < 0) {
		return 1;
	}
	tx.fd = fd;
	tx.seed = server ? SEED_FROM_SERVER : SEED_FROM_CLIENT;
	t0 = now();
	if (pthread_create(&th, NULL, sender, &tx)) {
		return 1;
	}
	while (got < want_rx) {
		size_t n = want_rx - got < CHUNK ? want_rx - got : CHUNK;
		ssize_t r = recv(fd, buf, n, 0);

		if (r <= 0) {
			if (r < 0 && errno == EINTR) {
				continue;
			}
			printf("RESULT recv_error %s\n", r ? strerror(errno) : "EOF");
			break;
		}
		if (oneway) {
			got += r;
			continue;
		}
		fill(server ? SEED_FROM_CLIENT : SEED_FROM_SERVER, got, want, r);
		if (bad_at == UINT64_MAX && memcmp(buf, want, r)) {
			for (ssize_t i = 0; i < r; i++) {
				if (buf[i] != want[i]) {
					bad_at = got + i;
					break;
				}
			}
		}
		rx_sum = fnv(rx_sum, buf, r);
		got += r;
	}
	pthread_join(th, NULL);
	dt = now() - t0;
	if (tx.err) {
		printf("RESULT send_error %s\n", strerror(tx.err));
	}
	printf("RESULT sent_sum %016llx\n", (unsigned long long)tx.sum);
	printf("RESULT recv_sum %016llx\n", (unsigned long long)rx_sum);
	printf("RESULT recv_bytes %llu\n", (unsigned long long)got);
	if (bad_at == UINT64_MAX) {
		printf("RESULT data ok\n");
	} else {
		printf("RESULT data bad at %llu\n", (unsigned long long)bad_at);
	}
	printf("RESULT ms %.0f\n", dt * 1000);
	printf("RESULT mibps %.1f\n",
	       (oneway ? (double)(got + tx.bytes) : 2.0 * got) / dt / (1 << 20));
	if (smc && fstat(fd, &st) == 0) {
		smc_diag(st.st_ino);
	}
	fflush(stdout);
	/* Let the peer read its diag before the connection goes away. */
	shutdown(fd, SHUT_WR);
	while (recv(fd, buf, sizeof(buf), 0) > 0) {
	}
	close(fd);
	return !(got == want_rx && bad_at == UINT64_MAX && !tx.err);
}
