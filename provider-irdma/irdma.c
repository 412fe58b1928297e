// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma provider for the E810 project: device matching and registration.
 *
 * This is the skeleton of the provider: it claims E810 devices exported by
 * the irdma kernel driver (driver id RDMA_DRIVER_IRDMA, ABI version 5), so
 * that a run that selects it really loads it, and refuses to open a context
 * until the verbs are written (issue 8). The stock provider is the default.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>

#include <infiniband/driver.h>
#include <rdma/irdma-abi.h>

#include "hw/e810_regs.h"

struct irdma_e810_device {
	struct verbs_device ibv_dev;
};

static const struct verbs_match_ent irdma_e810_match[] = {
	VERBS_DRIVER_ID(RDMA_DRIVER_IRDMA),
	VERBS_PCI_MATCH(E810_PCI_VENDOR_ID, E810_PCI_DEVICE_ID_C_QSFP, NULL),
	{},
};

static struct verbs_context *irdma_e810_alloc_context(struct ibv_device *ibdev,
						      int cmd_fd,
						      void *private_data)
{
	(void)ibdev;
	(void)cmd_fd;
	(void)private_data;
	/* No verbs yet: fail the open the way an unsupported device does. */
	errno = EOPNOTSUPP;
	return NULL;
}

static struct verbs_device *
irdma_e810_device_alloc(struct verbs_sysfs_dev *sysfs_dev)
{
	struct irdma_e810_device *dev;

	(void)sysfs_dev;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	return &dev->ibv_dev;
}

static void irdma_e810_device_free(struct verbs_device *ibv_dev)
{
	free(container_of(ibv_dev, struct irdma_e810_device, ibv_dev));
}

static const struct verbs_device_ops irdma_e810_dev_ops = {
	.name = "irdma",
	.match_min_abi_version = IRDMA_ABI_VER,
	.match_max_abi_version = IRDMA_ABI_VER,
	.match_table = irdma_e810_match,
	.alloc_device = irdma_e810_device_alloc,
	.uninit_device = irdma_e810_device_free,
	.alloc_context = irdma_e810_alloc_context,
};

PROVIDER_DRIVER(irdma, irdma_e810_dev_ops);
