/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Host shim of the iWARP connection manager library (lib/irdma-cm/cm.h
 * lists what a shim provides), for test_cm and fuzz_mpa.
 */
#ifndef E810CM_HOST_CM_OS_H
#define E810CM_HOST_CM_OS_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;

#ifndef fallthrough
#define fallthrough __attribute__((__fallthrough__))
#endif

#endif /* E810CM_HOST_CM_OS_H */
