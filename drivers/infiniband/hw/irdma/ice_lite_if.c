// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: binding to the ice_lite parent ("ice_lite.roce.<N>" and
 * "ice_lite.iwarp.<N>" auxiliary devices, <linux/net/intel/ice_lite_rdma.h>). Everything that knows the
 * parent's data structures stays in this file.
 */

#include <linux/auxiliary_bus.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/net/intel/ice_lite_rdma.h>

#include "main.h"
#include "events.h"

static const char * const irdma_ice_lite_event_names[] = {
	[ICE_LITE_RDMA_EVENT_BEFORE_MTU_CHANGE] = "BEFORE_MTU_CHANGE",
	[ICE_LITE_RDMA_EVENT_AFTER_MTU_CHANGE] = "AFTER_MTU_CHANGE",
	[ICE_LITE_RDMA_EVENT_BEFORE_TC_CHANGE] = "BEFORE_TC_CHANGE",
	[ICE_LITE_RDMA_EVENT_AFTER_TC_CHANGE] = "AFTER_TC_CHANGE",
	[ICE_LITE_RDMA_EVENT_WARN_RESET] = "WARN_RESET",
	[ICE_LITE_RDMA_EVENT_CRIT_ERR] = "CRIT_ERR",
};

static_assert(ARRAY_SIZE(irdma_ice_lite_event_names) ==
	      ICE_LITE_RDMA_EVENT_NBITS);

/* Parent service: the VSI's RoCEv2 filter. */
static int irdma_ice_lite_vsi_filter(struct irdma_pci_f *rf, bool enable)
{
	struct ice_lite_rdma_dev_info *info = rf->ice_lite_info;

	return info->ops->update_vsi_filter(info, info->vport_id, enable);
}

/* Parent service: a function reset (asynchronous). */
static int irdma_ice_lite_request_reset(struct irdma_pci_f *rf)
{
	struct ice_lite_rdma_dev_info *info = rf->ice_lite_info;

	return info->ops->request_reset(info, ICE_LITE_RDMA_FUNC_RESET);
}

/* Parent service: an RDMA qset (Tx scheduler leaf) of traffic class @tc. */
static int irdma_ice_lite_add_qset(struct irdma_pci_f *rf, u8 tc,
				   u16 qs_handle, u32 *teid)
{
	struct ice_lite_rdma_dev_info *info = rf->ice_lite_info;
	struct ice_lite_rdma_qset qset = {
		.qs_handle = qs_handle,
		.vport_id = info->vport_id,
		.tc = tc,
	};
	int err;

	err = info->ops->add_qset(info, &qset);
	if (!err)
		*teid = qset.teid;
	return err;
}

/* Parent service: remove a qset irdma_ice_lite_add_qset() registered. */
static int irdma_ice_lite_del_qset(struct irdma_pci_f *rf, u8 tc,
				   u16 qs_handle, u32 teid)
{
	struct ice_lite_rdma_dev_info *info = rf->ice_lite_info;
	struct ice_lite_rdma_qset qset = {
		.teid = teid,
		.qs_handle = qs_handle,
		.vport_id = info->vport_id,
		.tc = tc,
	};

	return info->ops->del_qset(info, &qset);
}

/* The parent's QoS in the driver's own terms. */
static void irdma_ice_lite_qos(const struct ice_lite_rdma_dev_info *info,
			       struct irdma_qos *qos)
{
	unsigned int i;

	static_assert(ICE_LITE_RDMA_MAX_USER_PRIORITY == IRDMA_MAX_UP);
	qos->num_tc = info->qos.num_tc;
	for (i = 0; i < IRDMA_MAX_UP; i++) {
		qos->up2tc[i] = info->qos.up2tc[i];
		qos->rel_bw[i] = info->qos.tc_info[i].rel_bw;
	}
}

/**
 * irdma_ice_lite_event_handler() - take an event from the parent
 * @info: the parent's device info
 * @event: the event
 *
 * Each event is counted (events.c) and logged at debug level only. MTU
 * changes update the L2 parameters; TC changes suspend the active QPs
 * before the parent reconfigures and resume them after it (tc.c), with
 * the QoS the parent refreshed before AFTER_TC_CHANGE; a reset warning
 * is followed by our removal; a critical error stops device commands
 * and asks the parent for a reset.
 *
 * Context: Process context; the parent holds the auxiliary device lock.
 */
static void irdma_ice_lite_event_handler(struct ice_lite_rdma_dev_info *info,
					 struct ice_lite_rdma_event *event)
{
	struct irdma_pci_f *rf = auxiliary_get_drvdata(info->adev);
	struct device *dev = &info->adev->dev;
	struct irdma_qos qos;
	unsigned int type;

	for_each_set_bit(type, event->type, ICE_LITE_RDMA_EVENT_NBITS) {
		switch (type) {
		case ICE_LITE_RDMA_EVENT_BEFORE_MTU_CHANGE:
			if (rf)
				irdma_mtu_changed(rf, false);
			break;
		case ICE_LITE_RDMA_EVENT_AFTER_MTU_CHANGE:
			if (rf)
				irdma_mtu_changed(rf, true);
			break;
		case ICE_LITE_RDMA_EVENT_BEFORE_TC_CHANGE:
			dev_dbg(dev, "TC change: before, %u TCs\n",
				info->qos.num_tc);
			if (rf)
				irdma_tc_before(rf);
			break;
		case ICE_LITE_RDMA_EVENT_AFTER_TC_CHANGE:
			dev_dbg(dev, "TC change: after, %u TCs\n",
				info->qos.num_tc);
			if (rf) {
				irdma_ice_lite_qos(info, &qos);
				irdma_tc_after(rf, &qos);
			}
			break;
		case ICE_LITE_RDMA_EVENT_WARN_RESET:
			dev_dbg(dev, "reset warning: the parent resets the function\n");
			irdma_ev_inc(rf, IRDMA_EV_PARENT_RESETS);
			/* A hung CQP cannot take the teardown commands. */
			if (rf && rf->cqp.hung)
				WRITE_ONCE(rf->resetting, true);
			break;
		case ICE_LITE_RDMA_EVENT_CRIT_ERR:
			if (rf)
				irdma_crit_err(rf, event->reg);
			break;
		default:
			dev_dbg(dev, "event %s (reg 0x%08x)\n",
				irdma_ice_lite_event_names[type], event->reg);
			break;
		}
	}
}

/**
 * irdma_ice_lite_probe() - bind to an ice_lite RDMA auxiliary device
 * @adev: the auxiliary device
 * @id: the matching id table entry
 *
 * Allocates the per-function state, fills it from the parent's device info
 * and runs the common bind (irdma_bind()).
 *
 * Context: Process context; the auxiliary device lock is held.
 * Return: 0 or a negative errno.
 */
static int irdma_ice_lite_probe(struct auxiliary_device *adev,
				const struct auxiliary_device_id *id)
{
	struct ice_lite_rdma_dev_info *info = ice_lite_rdma_adev_to_info(adev);
	struct irdma_pci_f *rf;
	struct irdma_qos qos;

	/* Exactly one protocol bit (ice_lite_rdma.h); iWARP unless RoCEv2. */
	if (!(info->rdma_protocol & (ICE_LITE_RDMA_PROTOCOL_ROCEV2 |
				     ICE_LITE_RDMA_PROTOCOL_IWARP))) {
		dev_err(&adev->dev, "ice_lite offers no RDMA protocol (0x%x)\n",
			info->rdma_protocol);
		return -EOPNOTSUPP;
	}

	rf = kzalloc(sizeof(*rf), GFP_KERNEL);
	if (!rf)
		return -ENOMEM;

	rf->adev = adev;
	rf->pcidev = info->pdev;
	rf->hw_addr = info->hw_addr;
	rf->msix_entries = info->msix_entries;
	rf->msix_count = info->msix_count;
	rf->pf_id = info->pf_id;
	rf->netdev = info->netdev;
	rf->vsi_id = info->vport_id;
	rf->iwarp = !(info->rdma_protocol & ICE_LITE_RDMA_PROTOCOL_ROCEV2);
	rf->vsi_filter = irdma_ice_lite_vsi_filter;
	rf->request_reset = irdma_ice_lite_request_reset;
	rf->add_qset = irdma_ice_lite_add_qset;
	rf->del_qset = irdma_ice_lite_del_qset;
	rf->ice_lite_info = info;
	irdma_ice_lite_qos(info, &qos);
	return irdma_bind(rf, &qos);
}

/**
 * irdma_ice_lite_remove() - unbind from an ice_lite RDMA auxiliary device
 * @adev: the auxiliary device
 *
 * Context: Process context; the auxiliary device lock is held.
 */
static void irdma_ice_lite_remove(struct auxiliary_device *adev)
{
	irdma_unbind(auxiliary_get_drvdata(adev));
}

static const struct auxiliary_device_id irdma_ice_lite_id_table[] = {
	{ .name = "ice_lite." ICE_LITE_RDMA_ROCE_NAME },
	{ .name = "ice_lite." ICE_LITE_RDMA_IWARP_NAME },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, irdma_ice_lite_id_table);

static struct ice_lite_rdma_aux_drv irdma_ice_lite_aux_drv = {
	.adrv = {
		.name = "ice_lite",
		.id_table = irdma_ice_lite_id_table,
		.probe = irdma_ice_lite_probe,
		.remove = irdma_ice_lite_remove,
	},
	.event_handler = irdma_ice_lite_event_handler,
};

/**
 * irdma_ice_lite_register() - register the auxiliary driver for ice_lite
 *
 * Return: 0 or a negative errno.
 */
int irdma_ice_lite_register(void)
{
	return auxiliary_driver_register(&irdma_ice_lite_aux_drv.adrv);
}

/**
 * irdma_ice_lite_unregister() - undo irdma_ice_lite_register()
 */
void irdma_ice_lite_unregister(void)
{
	auxiliary_driver_unregister(&irdma_ice_lite_aux_drv.adrv);
}
