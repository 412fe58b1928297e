// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: binding to the kernel's stock i40e (the X722, whose RDMA engine is
 * irdma's GEN_1, iWARP only): the "i40e.iwarp.<N>" auxiliary devices and the
 * i40e client interface of <linux/net/intel/i40e_client.h>.
 *
 * As upstream's i40iw_if.c: the probe only registers our client with the
 * function (i40e_client_device_register()); i40e's service task then calls
 * the client's open, once the netdev is registered, and that is where the
 * engine is brought up. i40e calls close before a reset and when our
 * remove unregisters the client. Everything that knows i40e stays in this
 * file; the rest of the driver sees struct irdma_pci_f with the GEN_1
 * generation data (hw.c, include/hw/e810_gen.h).
 *
 * i40e's exported functions are looked up for each call (ice_sym.h), so
 * that irdma.ko does not load i40e.ko under the other parents.
 */

#include <linux/auxiliary_bus.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/net/intel/i40e_client.h>

#include "ice_sym.h"
#include "main.h"
#include "events.h"

static struct i40e_client irdma_i40e_client;

static struct irdma_pci_f *irdma_i40e_rf(struct i40e_info *ldev)
{
	return ldev->aux_dev ? auxiliary_get_drvdata(ldev->aux_dev) : NULL;
}

/* Parent service: PF reset (i40e's service task does it, closing us). */
static int irdma_i40e_request_reset(struct irdma_pci_f *rf)
{
	struct i40e_info *ldev = rf->i40e_ldev;

	ldev->ops->request_reset(ldev, &irdma_i40e_client,
				 I40E_CLIENT_RESET_LEVEL_PF);
	return 0;
}

/*
 * Parent service: the VSI's filter. i40e itself sets the VSI's TCP_ENA
 * queueing option (what lets the engine see TCP) while the netdev is up,
 * from its client subtask (i40e_client_update_vsi_ctxt()); upstream's
 * GEN_1 never asks for it.
 */
static int irdma_i40e_vsi_filter(struct irdma_pci_f *rf, bool enable)
{
	return 0;
}

/* GEN_1 makes no queue sets: the VSI's come from i40e (ws.c). */
static int irdma_i40e_add_qset(struct irdma_pci_f *rf, u8 tc, u16 qs_handle,
			       u32 *teid)
{
	return -EOPNOTSUPP;
}

static int irdma_i40e_del_qset(struct irdma_pci_f *rf, u8 tc, u16 qs_handle,
			       u32 teid)
{
	return -EOPNOTSUPP;
}

/* The user priorities' traffic classes as i40e hands them over. */
static void irdma_i40e_qos(const struct i40e_info *ldev, struct irdma_qos *qos)
{
	unsigned int i;

	static_assert(I40E_CLIENT_MAX_USER_PRIORITY == IRDMA_MAX_UP);
	memset(qos, 0, sizeof(*qos));
	qos->num_tc = 1;
	qos->rel_bw[0] = 100;
	for (i = 0; i < IRDMA_MAX_UP; i++)
		qos->up2tc[i] = ldev->params.qos.prio_qos[i].tc;
}

/**
 * irdma_i40e_open() - the client's open: bring the engine up
 * @ldev: i40e's information on the function
 * @client: our client
 *
 * Fills the per-function state as upstream's i40iw_fill_device_info()
 * reads struct i40e_info: BAR0 mapping, PCI device, the MSI-X vectors i40e
 * reserved for iWARP, PF number, netdev; GEN_1, iWARP; the VSI's queue set
 * of user priority 0. Then the common bind.
 *
 * Context: Process context (i40e's service task).
 * Return: 0 or a negative errno (i40e then forgets the instance).
 */
static int irdma_i40e_open(struct i40e_info *ldev, struct i40e_client *client)
{
	struct device *dev = &ldev->aux_dev->dev;
	struct irdma_pci_f *rf;
	struct irdma_qos qos;

	if (!ldev->netdev || !ldev->hw_addr || !ldev->msix_entries) {
		dev_err(dev, "i40e handed over no netdev, BAR or MSI-X vectors\n");
		return -EIO;
	}
	rf = kzalloc(sizeof(*rf), GFP_KERNEL);
	if (!rf)
		return -ENOMEM;
	irdma_i40e_qos(ldev, &qos);

	rf->adev = ldev->aux_dev;
	rf->pcidev = ldev->pcidev;
	rf->hw_addr = ldev->hw_addr;
	rf->msix_entries = ldev->msix_entries;
	rf->msix_count = ldev->msix_count;
	rf->pf_id = ldev->fid;
	rf->gen = &irdma_gen_1;
	rf->netdev = ldev->netdev;
	rf->vsi_id = 0;		/* upstream: vsi_num 0 on GEN_1 */
	rf->qs_handle = ldev->params.qos.prio_qos[0].qs_handle;
	rf->iwarp = true;
	rf->vsi_filter = irdma_i40e_vsi_filter;
	rf->request_reset = irdma_i40e_request_reset;
	rf->add_qset = irdma_i40e_add_qset;
	rf->del_qset = irdma_i40e_del_qset;
	rf->i40e_ldev = ldev;
	return irdma_bind(rf, &qos);
}

/**
 * irdma_i40e_close() - the client's close: take the engine down
 * @ldev: i40e's information on the function
 * @client: our client
 * @reset: i40e resets the function next: no device commands (as upstream's
 *	i40iw_close() marks the function reset)
 *
 * Context: Process context.
 */
static void irdma_i40e_close(struct i40e_info *ldev, struct i40e_client *client,
			     bool reset)
{
	struct irdma_pci_f *rf = irdma_i40e_rf(ldev);

	if (!rf)
		return;
	if (reset) {
		irdma_ev_inc(rf, IRDMA_EV_PARENT_RESETS);
		WRITE_ONCE(rf->resetting, true);
	}
	irdma_unbind(rf);
}

/* The client's l2_param_change: the MTU (i40e sends nothing else). */
static void irdma_i40e_l2_param_change(struct i40e_info *ldev,
				       struct i40e_client *client,
				       struct i40e_params *params)
{
	struct irdma_pci_f *rf = irdma_i40e_rf(ldev);

	if (rf)
		irdma_mtu_changed(rf, true);
}

static const struct i40e_client_ops irdma_i40e_client_ops = {
	.open = irdma_i40e_open,
	.close = irdma_i40e_close,
	.l2_param_change = irdma_i40e_l2_param_change,
};

static struct i40e_client irdma_i40e_client = {
	.name = "irdma",
	.ops = &irdma_i40e_client_ops,
	.type = I40E_CLIENT_IWARP,
};

static struct i40e_info *irdma_i40e_ldev(struct auxiliary_device *adev)
{
	return container_of(adev, struct i40e_auxiliary_device, aux_dev)->ldev;
}

/**
 * irdma_i40e_probe() - bind to an i40e iWARP auxiliary device
 * @adev: the auxiliary device ("i40e.iwarp.<N>")
 * @id: the matching id table entry
 *
 * Registers our client with the function; i40e opens it later.
 *
 * Context: Process context; the auxiliary device lock is held.
 * Return: 0, or -ENODEV when i40e's client interface cannot be reached.
 */
static int irdma_i40e_probe(struct auxiliary_device *adev,
			    const struct auxiliary_device_id *id)
{
	if (!irdma_ice_call_void(i40e_client_device_register,
				 irdma_i40e_ldev(adev), &irdma_i40e_client))
		return -ENODEV;
	return 0;
}

/**
 * irdma_i40e_remove() - unbind: i40e closes the client if it is open
 * @adev: the auxiliary device
 *
 * Context: Process context; the auxiliary device lock is held.
 */
static void irdma_i40e_remove(struct auxiliary_device *adev)
{
	irdma_ice_call_void(i40e_client_device_unregister,
			    irdma_i40e_ldev(adev));
}

static const struct auxiliary_device_id irdma_i40e_id_table[] = {
	{ .name = "i40e.iwarp" },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, irdma_i40e_id_table);

static struct auxiliary_driver irdma_i40e_aux_drv = {
	.name = "i40e",
	.id_table = irdma_i40e_id_table,
	.probe = irdma_i40e_probe,
	.remove = irdma_i40e_remove,
};

/**
 * irdma_i40e_register() - register the auxiliary driver for the stock i40e
 *
 * Return: 0 or a negative errno.
 */
int irdma_i40e_register(void)
{
	return auxiliary_driver_register(&irdma_i40e_aux_drv);
}

/**
 * irdma_i40e_unregister() - undo irdma_i40e_register()
 */
void irdma_i40e_unregister(void)
{
	auxiliary_driver_unregister(&irdma_i40e_aux_drv);
}
