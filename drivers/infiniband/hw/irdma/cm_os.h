/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernel shim of the iWARP connection manager library (lib/irdma-cm/cm.h
 * lists what a shim provides).
 */
#ifndef IRDMA_CM_OS_H
#define IRDMA_CM_OS_H

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>

#endif /* IRDMA_CM_OS_H */
