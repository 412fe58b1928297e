/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * Portability for the include/hw/ headers: the kernel provides BIT(),
 * GENMASK() and FIELD_PREP()/FIELD_GET() in <linux/bits.h> and
 * <linux/bitfield.h>; user space (the QEMU device model, the rdma-core
 * provider, host unit tests) gets equivalent definitions here, and
 * memcpy() from its usual header on either side.
 */
#ifndef E810_COMPAT_H
#define E810_COMPAT_H

#ifdef __KERNEL__
#include <linux/bits.h>
#include <linux/bitfield.h>
#include <linux/string.h>
#include <linux/types.h>
#define E810_PACKED		__packed
#else
#include <stdint.h>
#include <string.h>
#include <linux/types.h>	/* __u8, __le16, ... as in the kernel */

#define E810_PACKED		__attribute__((packed))

#ifndef BIT
#define BIT(n)			(1UL << (n))
#endif
#ifndef BIT_ULL
#define BIT_ULL(n)		(1ULL << (n))
#endif
#ifndef GENMASK
#define GENMASK(h, l)		(((~0UL) >> (63 - (h))) & ~((1UL << (l)) - 1))
#endif
#ifndef GENMASK_ULL
#define GENMASK_ULL(h, l)	(((~0ULL) >> (63 - (h))) & ~((1ULL << (l)) - 1))
#endif
/* Shift of the lowest set bit of a constant mask. */
#ifndef E810_MASK_SHIFT
#define E810_MASK_SHIFT(m)	__builtin_ctzll(m)
#endif
#ifndef FIELD_PREP
#define FIELD_PREP(m, v)	(((uint64_t)(v) << E810_MASK_SHIFT(m)) & (m))
#endif
#ifndef FIELD_GET
#define FIELD_GET(m, r)		(((r) & (m)) >> E810_MASK_SHIFT(m))
#endif
#endif /* __KERNEL__ */

#endif /* E810_COMPAT_H */
