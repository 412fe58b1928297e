/*
 * The queue layer's transport seam for host test programs: a program
 * linked with -Wl,--wrap=e810_xport_send gets every SQ WQE the model hands
 * to the transport in its __wrap_e810_xport_send() (model_harness.c's, or
 * a fuzzer's own), which may play the transport itself or pass the WQE on
 * to the real one, __real_e810_xport_send(). Same contract as
 * e810_xport_send() (e810_dp.h); QEMU links the model without it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef XPORT_SEAM_H
#define XPORT_SEAM_H

#include "e810_dp.h"

bool __real_e810_xport_send(E810Core *core, E810Qp *qp,
                            const E810SendWqe *wqe);
bool __wrap_e810_xport_send(E810Core *core, E810Qp *qp,
                            const E810SendWqe *wqe);

#endif
