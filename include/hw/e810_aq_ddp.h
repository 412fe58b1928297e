/* SPDX-License-Identifier: GPL-2.0-only OR BSD-3-Clause */
/*
 * E810 admin queue: the ddp commands' wire formats (see e810_aq.h for the
 * descriptor). Shared by the device model and the drivers.
 */
#ifndef E810_AQ_DDP_H
#define E810_AQ_DDP_H

#endif /* E810_AQ_DDP_H */
