/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irdma: calling the stock ice's exported RDMA services (ice_if.c for the
 * IIDC of Linux 5.14 to 6.15, ice_rdma_if.c for the iidc_rdma one of 6.16+).
 *
 * Each call looks the symbol up with symbol_get(): a link-time dependency
 * would make irdma.ko load ice.ko under ice_lite too, and holding the
 * symbols while bound would keep ice from unloading. While one of its
 * auxiliary devices is bound to us, ice is loaded.
 */

#ifndef IRDMA_ICE_SYM_H
#define IRDMA_ICE_SYM_H

#include <linux/errno.h>
#include <linux/module.h>

/*
 * Calls ice's exported function @fn (returning int) with the arguments that
 * follow; the result is -ENODEV when ice is not loaded.
 */
#define irdma_ice_call(fn, ...)					\
({								\
	typeof(&fn) __f = symbol_get(fn);			\
	int __ret = -ENODEV;					\
								\
	if (__f) {						\
		__ret = __f(__VA_ARGS__);			\
		symbol_put(fn);					\
	}							\
	__ret;							\
})

/* The same for a function returning nothing; false when ice is not loaded. */
#define irdma_ice_call_void(fn, ...)				\
({								\
	typeof(&fn) __f = symbol_get(fn);			\
								\
	if (__f) {						\
		__f(__VA_ARGS__);				\
		symbol_put(fn);					\
	}							\
	!!__f;							\
})

#endif /* IRDMA_ICE_SYM_H */
