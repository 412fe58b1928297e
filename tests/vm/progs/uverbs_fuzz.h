/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * uverbs_fuzz: raw uverbs commands (write() and ioctl()) against irdma.
 * Shared by uverbs_fuzz.c (the command layer, boundary and random passes)
 * and uverbs_race.c (concurrent RESIZE_CQ on one CQ).
 */
#ifndef UVERBS_FUZZ_H
#define UVERBS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "vt.h"

/* One command result: 0 or a negative errno. */

/* Issues a write() command: hdr + @in (its first u64 is the response
 * pointer where the command has one); in/out sizes in bytes.
 */
int uf_write(int fd, uint32_t cmd, void *in, size_t inlen, size_t outlen);

/* -S: the driver is the stock irdma (see uf_must_fail_ours()). */
extern bool uf_stock;

/* Records @err of @op; fails when it is not an errno a driver returns. */
void uf_errno(const char *op, int err);

/* A request that must be refused: records a failure if @err is 0. */
void uf_must_fail(const char *what, int err);

/* Registers a queue buffer (reg_type QP/CQ) or memory; -errno or 0. */
int uf_reg(int fd, uint32_t pd, void *start, uint64_t len, uint64_t iova,
	   uint32_t access, uint16_t reg_type, uint16_t cq_pages,
	   uint16_t rq_pages, uint16_t sq_pages, uint32_t *mr_handle);
int uf_dereg(int fd, uint32_t mr);
int uf_resize_cq(int fd, uint32_t cq, uint32_t cqe, uint64_t ring,
		 size_t udata_in);

/* The concurrent-resize test: returns the process exit status. */
int uf_race_main(const char *dev0, const char *dev1, const char *ip0,
		 const char *ip1, unsigned int iters);

#endif /* UVERBS_FUZZ_H */
