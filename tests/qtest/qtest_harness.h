/*
 * tests/unit's Harness API over a QEMU process (qtest_harness.c), plus
 * what only a real QEMU has: PCI configuration space and QMP.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef QTEST_HARNESS_H
#define QTEST_HARNESS_H

#include "model_harness.h"

/* The device's slot on q35's pcie.0 (function 0). */
#define QT_SLOT 4

/* Configuration space of the device, @size 1, 2 or 4 bytes. */
uint32_t qt_cfg_read(unsigned reg, unsigned size);
void qt_cfg_write(unsigned reg, uint32_t val, unsigned size);
/* Places the BARs and enables memory decoding and bus mastering. */
void qt_pci_enable(void);
/* Sends one QMP command (a full line); returns its return or error line. */
const char *qt_qmp(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/* A counter of the device's x-core-stats property (QMP qom-get). */
uint64_t qt_core_stat(const char *name);

#endif /* QTEST_HARNESS_H */
