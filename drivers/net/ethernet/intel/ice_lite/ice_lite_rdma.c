// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: the RDMA auxiliary device "ice_lite.roce.<N>" (RoCEv2 mode) or
 * "ice_lite.iwarp.<N>" (iWARP mode, chosen with devlink as for ice:
 * ice_lite_devlink.c). Publishes and withdraws it, delivers parent events
 * to the bound driver, and provides the parent services (struct
 * ice_lite_rdma_ops) the RDMA driver calls.
 */

#include <linux/auxiliary_bus.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "ice_lite.h"

/* Auxiliary device ids: one per PF from probe to remove, so that a re-plug
 * in the other protocol keeps <N> (ice: pf->aux_idx).
 */
static DEFINE_IDA(ice_lite_aux_ida);

static struct ice_lite_pf *ice_lite_info_to_pf(struct ice_lite_rdma_dev_info *info)
{
	return container_of(info, struct ice_lite_pf, rdma_info);
}

/* Parent services. They may sleep; while a reset rebuilds the function
 * the admin queue is down and they fail with -EBUSY.
 */

/**
 * ice_lite_rdma_add_qset() - add a Tx scheduler leaf for RDMA (0x0C33)
 * @info: our device info
 * @qset: qs_handle, vport_id and tc in; teid out
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_rdma_add_qset(struct ice_lite_rdma_dev_info *info,
				  struct ice_lite_rdma_qset *qset)
{
	struct ice_lite_pf *pf = ice_lite_info_to_pf(info);

	if (qset->vport_id != pf->vsi_num || qset->tc >= info->qos.num_tc) {
		dev_err(ice_lite_pf_to_dev(pf),
			"RDMA qset for VSI %u TC %u: no such VSI or TC\n",
			qset->vport_id, qset->tc);
		return -EINVAL;
	}
	return ice_lite_add_rdma_qset(pf, qset->qs_handle, &qset->teid);
}

/**
 * ice_lite_rdma_del_qset() - remove a leaf added by add_qset (0x0C31)
 * @info: our device info
 * @qset: the qset as add_qset returned it
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_rdma_del_qset(struct ice_lite_rdma_dev_info *info,
				  struct ice_lite_rdma_qset *qset)
{
	return ice_lite_dis_rdma_qset(ice_lite_info_to_pf(info),
				      qset->qs_handle);
}

/**
 * ice_lite_rdma_request_reset() - the RDMA driver asks for a reset
 * @info: our device info
 * @type: function or device reset
 *
 * A function reset is scheduled: the RDMA driver gets WARN_RESET, is
 * unbound, the PF is reset and rebuilt, and the auxiliary device is
 * published again. Device (core) resets are not supported.
 *
 * Context: Process context; may be called with the auxiliary device
 * lock held (the work does the rest).
 * Return: 0, -EOPNOTSUPP for a device reset, -ENODEV while removing.
 */
static int ice_lite_rdma_request_reset(struct ice_lite_rdma_dev_info *info,
				       enum ice_lite_rdma_reset_type type)
{
	struct ice_lite_pf *pf = ice_lite_info_to_pf(info);

	if (type != ICE_LITE_RDMA_FUNC_RESET) {
		dev_err(ice_lite_pf_to_dev(pf),
			"RDMA asked for a device reset; only function resets are supported\n");
		return -EOPNOTSUPP;
	}
	return ice_lite_schedule_reset(pf);
}

/**
 * ice_lite_rdma_update_vsi_filter() - steer RoCEv2 to the engine or not
 * @info: our device info
 * @vsi_id: the VSI, must be ours (@info->vport_id)
 * @enable: set or clear the VSI's PE filter (0x0211)
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
static int ice_lite_rdma_update_vsi_filter(struct ice_lite_rdma_dev_info *info,
					   u16 vsi_id, bool enable)
{
	struct ice_lite_pf *pf = ice_lite_info_to_pf(info);

	if (vsi_id != pf->vsi_num)
		return -EINVAL;
	return ice_lite_vsi_set_pe_filter(pf, enable);
}

static const struct ice_lite_rdma_ops ice_lite_rdma_ops = {
	.add_qset = ice_lite_rdma_add_qset,
	.del_qset = ice_lite_rdma_del_qset,
	.request_reset = ice_lite_rdma_request_reset,
	.update_vsi_filter = ice_lite_rdma_update_vsi_filter,
};

/**
 * ice_lite_rdma_init_info() - fill what the RDMA driver gets from us
 * @pf: the PF
 *
 * Called once the netdev is registered. QoS follows the ETS setting
 * (ice_lite_dcb.c): one traffic class with all the bandwidth and all
 * user priorities until a user changes it.
 */
static void ice_lite_rdma_init_info(struct ice_lite_pf *pf)
{
	struct ice_lite_rdma_dev_info *info = &pf->rdma_info;

	memset(info, 0, sizeof(*info));
	info->pdev = pf->pdev;
	info->hw_addr = pf->hw_addr;
	info->netdev = pf->netdev;
	info->ops = &ice_lite_rdma_ops;
	info->msix_entries = pf->rdma_msix;
	info->msix_count = pf->num_rdma_msix;
	mutex_lock(&pf->adev_mutex);
	ice_lite_dcb_qos(pf, &info->qos);
	mutex_unlock(&pf->adev_mutex);
	info->rdma_protocol = pf->rdma_mode;
	info->pf_id = pf->pf_id;
	info->vport_id = pf->vsi_num;
}

/**
 * ice_lite_rdma_capable() - can this PF offer RDMA at all
 * @pf: the PF
 *
 * The function has the RDMA capability and MSI-X vectors were reserved
 * for it (ice_lite_init_msix()); ice: ICE_FLAG_RDMA_ENA.
 *
 * Return: true if an RDMA auxiliary device can be published.
 */
bool ice_lite_rdma_capable(struct ice_lite_pf *pf)
{
	return pf->caps.rdma && pf->num_rdma_msix;
}

/**
 * ice_lite_rdma_init() - choose RoCEv2 and reserve the auxiliary device id
 * @pf: the PF
 *
 * Every probe starts in RoCEv2 mode, as ice_init_rdma() does.
 *
 * Return: 0 or a negative errno.
 */
int ice_lite_rdma_init(struct ice_lite_pf *pf)
{
	int id;

	pf->aux_id = -1;
	pf->rdma_mode = 0;
	if (!ice_lite_rdma_capable(pf))
		return 0;
	id = ida_alloc(&ice_lite_aux_ida, GFP_KERNEL);
	if (id < 0)
		return id;
	pf->aux_id = id;
	pf->rdma_mode = ICE_LITE_RDMA_PROTOCOL_ROCEV2;
	return 0;
}

/**
 * ice_lite_rdma_deinit() - undo ice_lite_rdma_init()
 * @pf: the PF, with the auxiliary device withdrawn
 */
void ice_lite_rdma_deinit(struct ice_lite_pf *pf)
{
	if (pf->aux_id >= 0)
		ida_free(&ice_lite_aux_ida, pf->aux_id);
	pf->aux_id = -1;
	pf->rdma_mode = 0;
}

/**
 * ice_lite_adev_release() - free an auxiliary device
 * @dev: the device embedded in the auxiliary device
 *
 * Called by the driver core when the last reference goes away.
 */
static void ice_lite_adev_release(struct device *dev)
{
	kfree(container_of(dev, struct ice_lite_rdma_aux_dev, adev.dev));
}

/**
 * ice_lite_rdma_plug() - publish the RDMA auxiliary device
 * @pf: the PF, with its netdev registered
 *
 * Creates "ice_lite.roce.<N>" (RoCEv2 mode) or "ice_lite.iwarp.<N>" (iWARP
 * mode) below the PCI device, as ice_plug_aux_dev() names ice's. If irdma
 * is loaded it probes from inside this call. Nothing is published when
 * no protocol is enabled (devlink) or the PF cannot do RDMA
 * (ice_lite_rdma_capable()), nor a second device when one is published.
 *
 * Context: Process context; @pf->rdma_lock held; takes @pf->adev_mutex.
 * Return: 0 or a negative errno.
 */
int ice_lite_rdma_plug(struct ice_lite_pf *pf)
{
	struct device *dev = ice_lite_pf_to_dev(pf);
	struct ice_lite_rdma_aux_dev *iadev;
	struct auxiliary_device *adev;
	int err;

	lockdep_assert_held(&pf->rdma_lock);
	if (!pf->rdma_mode || pf->aux_id < 0 || pf->rdma_info.adev)
		return 0;
	ice_lite_rdma_init_info(pf);

	iadev = kzalloc(sizeof(*iadev), GFP_KERNEL);
	if (!iadev)
		return -ENOMEM;

	adev = &iadev->adev;
	iadev->info = &pf->rdma_info;
	adev->name = pf->rdma_mode & ICE_LITE_RDMA_PROTOCOL_ROCEV2 ?
		     ICE_LITE_RDMA_ROCE_NAME : ICE_LITE_RDMA_IWARP_NAME;
	adev->id = pf->aux_id;
	adev->dev.parent = dev;
	adev->dev.release = ice_lite_adev_release;

	err = auxiliary_device_init(adev);
	if (err) {
		kfree(iadev);
		return err;
	}

	/* From here on ice_lite_adev_release() frees @iadev. */
	pf->rdma_info.adev = adev;
	err = auxiliary_device_add(adev);
	if (err)
		goto err_uninit_adev;

	mutex_lock(&pf->adev_mutex);
	pf->adev = iadev;
	mutex_unlock(&pf->adev_mutex);
	return 0;

err_uninit_adev:
	dev_err(dev, "cannot add RDMA auxiliary device: %d\n", err);
	pf->rdma_info.adev = NULL;
	auxiliary_device_uninit(adev);
	return err;
}

/**
 * ice_lite_rdma_unplug() - withdraw the RDMA auxiliary device
 * @pf: the PF
 *
 * Unbinds the RDMA driver (its remove runs from inside this call) and
 * drops our reference. Safe to call when nothing is published.
 *
 * Context: Process context; @pf->rdma_lock held; takes @pf->adev_mutex.
 */
void ice_lite_rdma_unplug(struct ice_lite_pf *pf)
{
	struct ice_lite_rdma_aux_dev *iadev;

	lockdep_assert_held(&pf->rdma_lock);
	mutex_lock(&pf->adev_mutex);
	iadev = pf->adev;
	pf->adev = NULL;
	mutex_unlock(&pf->adev_mutex);

	if (!iadev)
		return;

	auxiliary_device_delete(&iadev->adev);
	pf->rdma_info.adev = NULL;
	auxiliary_device_uninit(&iadev->adev);
}

/* Calls the bound RDMA driver's event handler, if a driver is bound and
 * has one. The caller holds @pf->adev_mutex and, @pf->adev being set, its
 * device lock, so the driver cannot go away meanwhile.
 */
static void ice_lite_rdma_deliver(struct ice_lite_pf *pf,
				  struct ice_lite_rdma_event *event)
{
	struct device *dev = &pf->adev->adev.dev;
	const struct ice_lite_rdma_aux_drv *iadrv;

	lockdep_assert_held(&pf->adev_mutex);
	device_lock_assert(dev);

	if (!dev->driver)
		return;
	iadrv = container_of(to_auxiliary_drv(dev->driver),
			     struct ice_lite_rdma_aux_drv, adrv);
	if (iadrv->event_handler)
		iadrv->event_handler(&pf->rdma_info, event);
}

/**
 * ice_lite_rdma_send_event() - deliver an event to the bound RDMA driver
 * @pf: the PF
 * @event: the event; only read
 *
 * Does nothing if no auxiliary device is published or no driver is bound.
 * The handler runs with the auxiliary device's lock held, so the driver
 * cannot be unbound while it runs.
 *
 * Context: Process context; takes @pf->adev_mutex, then the device lock.
 */
void ice_lite_rdma_send_event(struct ice_lite_pf *pf,
			      struct ice_lite_rdma_event *event)
{
	mutex_lock(&pf->adev_mutex);
	if (pf->adev) {
		device_lock(&pf->adev->adev.dev);
		ice_lite_rdma_deliver(pf, event);
		device_unlock(&pf->adev->adev.dev);
	}
	mutex_unlock(&pf->adev_mutex);
}

/**
 * ice_lite_rdma_notify() - deliver one event to the bound RDMA driver
 * @pf: the PF
 * @type: the event
 * @reg: PFINT_OICR value for CRIT_ERR, else 0
 *
 * Context: Process context; see ice_lite_rdma_send_event().
 */
void ice_lite_rdma_notify(struct ice_lite_pf *pf,
			  enum ice_lite_rdma_event_type type, u32 reg)
{
	struct ice_lite_rdma_event event = { .reg = reg };

	set_bit(type, event.type);
	ice_lite_rdma_send_event(pf, &event);
}

/**
 * ice_lite_rdma_tc_change() - apply a new ETS setting around the RDMA driver
 * @pf: the PF
 * @ets: the validated setting
 *
 * As ice does on a DCB change: BEFORE_TC_CHANGE (the RDMA driver suspends
 * its QPs and waits for them), the new setting and the QoS in the device
 * info, AFTER_TC_CHANGE (it reads the QoS and resumes the QPs). The device
 * lock is held across the three steps so the driver cannot be unbound or
 * bound in between and see only one of the events.
 *
 * Context: Process context, RTNL held; takes @pf->adev_mutex, then the
 * device lock (the order the MTU events use).
 */
void ice_lite_rdma_tc_change(struct ice_lite_pf *pf,
			     const struct ieee_ets *ets)
{
	struct ice_lite_rdma_event event = { };

	mutex_lock(&pf->adev_mutex);
	if (pf->adev) {
		device_lock(&pf->adev->adev.dev);
		set_bit(ICE_LITE_RDMA_EVENT_BEFORE_TC_CHANGE, event.type);
		ice_lite_rdma_deliver(pf, &event);
	}
	pf->ets = *ets;
	ice_lite_dcb_qos(pf, &pf->rdma_info.qos);
	if (pf->adev) {
		bitmap_zero(event.type, ICE_LITE_RDMA_EVENT_NBITS);
		set_bit(ICE_LITE_RDMA_EVENT_AFTER_TC_CHANGE, event.type);
		ice_lite_rdma_deliver(pf, &event);
		device_unlock(&pf->adev->adev.dev);
	}
	mutex_unlock(&pf->adev_mutex);
}
