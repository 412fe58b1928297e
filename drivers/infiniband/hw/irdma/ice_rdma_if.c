// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: binding to the kernel's stock ice driver ("ice.roce.<N>" auxiliary
 * devices) through the IIDC of Linux 6.16 and later:
 * <linux/net/intel/iidc_rdma.h> and <linux/net/intel/iidc_rdma_ice.h>.
 *
 * The auxiliary device carries a struct iidc_rdma_core_dev_info whose
 * iidc_priv is ice's struct iidc_rdma_priv_dev_info (BAR0 mapping, PF
 * number, main VSI and its netdev, QoS): public headers only, so this
 * builds against a kernel's headers package without ice's source. Only
 * this file knows that interface; the rest of the driver sees struct
 * irdma_pci_f.
 *
 * ice no longer reserves MSI-X vectors for RDMA: upstream irdma's
 * icrdma_init_interrupts() asks ice_alloc_rdma_qvector() for one vector per
 * online CPU plus the AEQ's, and so does this binding. ice's services
 * (ice_alloc_rdma_qvector(), ice_free_rdma_qvector(), ice_add_rdma_qset(),
 * ice_del_rdma_qset(), ice_rdma_request_reset(),
 * ice_rdma_update_vsi_filter()) are looked up for each call (ice_sym.h).
 */

#include <linux/auxiliary_bus.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/net/intel/iidc_rdma.h>
#include <linux/net/intel/iidc_rdma_ice.h>

#include <hw/e810_regs.h>

#include "ice_sym.h"
#include "main.h"
#include "events.h"

/*
 * Fewest vectors the binding runs with: the AEQ's and CEQ 0's, as
 * upstream's IRDMA_MIN_MSIX.
 */
#define IRDMA_ICE_MIN_MSIX	2

static struct iidc_rdma_priv_dev_info *
irdma_ice_priv(const struct iidc_rdma_core_dev_info *cdev)
{
	return cdev->iidc_priv;
}

/* Parent service: the VSI's RoCEv2 filter. */
static int irdma_ice_vsi_filter(struct irdma_pci_f *rf, bool enable)
{
	return irdma_ice_call(ice_rdma_update_vsi_filter, rf->ice_cdev,
			      rf->vsi_id, enable);
}

/*
 * Parent service: a function reset (asynchronous: ice withdraws the
 * auxiliary device before it resets and adds it again after).
 */
static int irdma_ice_request_reset(struct irdma_pci_f *rf)
{
	int err;

	err = irdma_ice_call(ice_rdma_request_reset, rf->ice_cdev,
			     IIDC_FUNC_RESET);
	/*
	 * ice keeps its reset state private (ice_schedule_reset() only
	 * sets a bit in pf->state): remember that the withdrawal coming
	 * from its ice_prepare_for_reset() is this reset.
	 */
	if (!err)
		WRITE_ONCE(rf->ice_reset_asked, true);
	return err;
}

/*
 * Parent service: an RDMA qset of traffic class @tc (ice_add_rdma_qset():
 * a Tx scheduler leaf named @qs_handle under the main VSI's TC node).
 * vport_id is the VSI's hardware number, as upstream's
 * icrdma_lan_register_qset() passes it.
 */
static int irdma_ice_add_qset(struct irdma_pci_f *rf, u8 tc, u16 qs_handle,
			      u32 *teid)
{
	struct iidc_rdma_qset_params qset = {
		.qs_handle = qs_handle,
		.vport_id = rf->vsi_id,
		.tc = tc,
	};
	int err;

	err = irdma_ice_call(ice_add_rdma_qset, rf->ice_cdev, &qset);
	if (!err)
		*teid = qset.teid;
	return err;
}

/* Parent service: remove a qset irdma_ice_add_qset() registered. */
static int irdma_ice_del_qset(struct irdma_pci_f *rf, u8 tc, u16 qs_handle,
			      u32 teid)
{
	struct iidc_rdma_qset_params qset = {
		.teid = teid,
		.qs_handle = qs_handle,
		.vport_id = rf->vsi_id,
		.tc = tc,
	};

	return irdma_ice_call(ice_del_rdma_qset, rf->ice_cdev, &qset);
}

/*
 * ice's QoS in our terms. ice refreshes iidc_rdma_priv_dev_info.qos_info
 * (ice_setup_dcb_qos_info()) before it plugs the device and before it
 * sends AFTER_TC_CHANGE (ice_pf_dcb_recfg()).
 */
static void irdma_ice_qos(const struct iidc_rdma_core_dev_info *cdev,
			  struct irdma_qos *qos)
{
	const struct iidc_rdma_qos_params *p = &irdma_ice_priv(cdev)->qos_info;
	unsigned int i;

	static_assert(IIDC_MAX_USER_PRIORITY == IRDMA_MAX_UP);
	static_assert(IEEE_8021QAZ_MAX_TCS == IRDMA_MAX_UP);
	qos->num_tc = p->num_tc;
	for (i = 0; i < IRDMA_MAX_UP; i++) {
		qos->up2tc[i] = p->up2tc[i];
		qos->rel_bw[i] = p->tc_info[i].rel_bw;
	}
}

/* Gives back the first @count vectors of @entries and frees the array. */
static void irdma_ice_put_vectors(struct iidc_rdma_core_dev_info *cdev,
				  struct msix_entry *entries, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++)
		irdma_ice_call_void(ice_free_rdma_qvector, cdev, &entries[i]);
	kfree(entries);
}

/*
 * MSI-X vectors from ice, one at a time as upstream's
 * icrdma_init_interrupts() takes them: as many as online CPUs plus one
 * (the AEQ's), at least IRDMA_ICE_MIN_MSIX.
 */
static int irdma_ice_get_vectors(struct iidc_rdma_core_dev_info *cdev,
				 struct msix_entry **entries, u32 *count)
{
	u32 want = num_online_cpus() + 1, i;
	struct msix_entry *e;

	e = kcalloc(want, sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	for (i = 0; i < want; i++)
		if (irdma_ice_call(ice_alloc_rdma_qvector, cdev, &e[i]))
			break;
	if (i < IRDMA_ICE_MIN_MSIX) {
		dev_err(&cdev->adev->dev,
			"ice gave %u MSI-X vectors, %u needed\n", i,
			IRDMA_ICE_MIN_MSIX);
		irdma_ice_put_vectors(cdev, e, i);
		return -ENOSPC;
	}
	*entries = e;
	*count = i;
	return 0;
}

/*
 * The function lost its RDMA state: the CQP the bring-up created is no
 * longer enabled (CCQPSTATUS.CCQP_DONE clear, or all ones: the function
 * is gone). ice 6.16+ sends no reset warning and keeps its reset state
 * private; a reset it announced (ICE_RESET_OICR_RECV) has already cleared
 * the PE registers when it withdraws the auxiliary device.
 */
static bool irdma_ice_state_lost(struct irdma_pci_f *rf)
{
	u32 status;

	if (rf->state < IRDMA_INIT_CQP)
		return false;
	status = irdma_rd32(rf, IRDMA_REG(rf, ccqpstatus));
	return status == U32_MAX || !(status & E810_CCQPSTATUS_CCQP_DONE);
}

/**
 * irdma_ice_event_handler() - take an IIDC event from ice
 * @cdev: ice's device info
 * @event: the event
 *
 * The same actions, counters and debug lines as the other bindings. ice sends
 * AFTER_MTU_CHANGE, BEFORE_TC_CHANGE, AFTER_TC_CHANGE (the QoS already
 * refreshed) and CRIT_ERR (the OICR in @event->reg); WARN_RESET is taken
 * as from ice_lite although ice sends none. Link changes reach us through
 * the netdev notifier (main.c).
 *
 * Context: Process context; ice holds the auxiliary device lock.
 */
static void irdma_ice_event_handler(struct iidc_rdma_core_dev_info *cdev,
				    struct iidc_rdma_event *event)
{
	struct irdma_pci_f *rf = auxiliary_get_drvdata(cdev->adev);
	struct device *dev = &cdev->adev->dev;
	struct irdma_qos qos;
	unsigned int type;

	if (!rf)
		return;
	for_each_set_bit(type, event->type, IIDC_RDMA_EVENT_NBITS) {
		switch (type) {
		case IIDC_RDMA_EVENT_BEFORE_MTU_CHANGE:
			irdma_mtu_changed(rf, false);
			break;
		case IIDC_RDMA_EVENT_AFTER_MTU_CHANGE:
			irdma_mtu_changed(rf, true);
			break;
		case IIDC_RDMA_EVENT_BEFORE_TC_CHANGE:
			dev_dbg(dev, "TC change: before, %u TCs\n",
				rf->tc.qos.num_tc);
			irdma_tc_before(rf);
			break;
		case IIDC_RDMA_EVENT_AFTER_TC_CHANGE:
			irdma_ice_qos(cdev, &qos);
			dev_dbg(dev, "TC change: after, %u TCs\n", qos.num_tc);
			irdma_tc_after(rf, &qos);
			break;
		case IIDC_RDMA_EVENT_WARN_RESET:
			dev_dbg(dev, "reset warning: the parent resets the function\n");
			irdma_ev_inc(rf, IRDMA_EV_PARENT_RESETS);
			/* A hung CQP cannot take the teardown commands. */
			if (rf->cqp.hung)
				WRITE_ONCE(rf->resetting, true);
			break;
		case IIDC_RDMA_EVENT_CRIT_ERR:
			irdma_crit_err(rf, event->reg);
			break;
		default:
			dev_dbg(dev, "event %u (reg 0x%08x)\n", type,
				event->reg);
			break;
		}
	}
}

/**
 * irdma_ice_probe() - bind to an ice RDMA auxiliary device
 * @adev: the auxiliary device ("ice.roce.<N>")
 * @id: the matching id table entry
 *
 * Fills the per-function state from ice's device info as upstream's
 * icrdma_fill_device_info() reads it (BAR0 mapping, PCI device, PF number,
 * main VSI's hardware number and netdev), takes MSI-X vectors from ice,
 * then runs the common bind. iWARP is refused.
 *
 * Context: Process context; the auxiliary device lock is held.
 * Return: 0 or a negative errno.
 */
static int irdma_ice_probe(struct auxiliary_device *adev,
			   const struct auxiliary_device_id *id)
{
	struct iidc_rdma_core_dev_info *cdev =
		container_of(adev, struct iidc_rdma_core_auxiliary_dev,
			     adev)->cdev_info;
	struct iidc_rdma_priv_dev_info *priv = irdma_ice_priv(cdev);
	struct msix_entry *entries;
	struct irdma_pci_f *rf;
	struct irdma_qos qos;
	u32 count;
	int err;

	if (!(cdev->rdma_protocol & IIDC_RDMA_PROTOCOL_ROCEV2)) {
		dev_err(&adev->dev,
			"ice offers iWARP (rdma_protocol 0x%x): only RoCEv2 is supported; set devlink param enable_roce\n",
			cdev->rdma_protocol);
		return -EOPNOTSUPP;
	}
	if (!priv || !priv->netdev || !priv->hw_addr) {
		dev_err(&adev->dev, "ice has no main VSI with a netdev\n");
		return -EIO;
	}
	err = irdma_ice_get_vectors(cdev, &entries, &count);
	if (err)
		return err;

	rf = kzalloc(sizeof(*rf), GFP_KERNEL);
	if (!rf) {
		irdma_ice_put_vectors(cdev, entries, count);
		return -ENOMEM;
	}

	rf->adev = adev;
	rf->pcidev = cdev->pdev;
	rf->hw_addr = priv->hw_addr;
	rf->msix_entries = entries;
	rf->msix_count = count;
	rf->pf_id = priv->pf_id;
	rf->netdev = priv->netdev;
	rf->vsi_id = priv->vport_id;
	rf->vsi_filter = irdma_ice_vsi_filter;
	rf->request_reset = irdma_ice_request_reset;
	rf->add_qset = irdma_ice_add_qset;
	rf->del_qset = irdma_ice_del_qset;
	rf->ice_cdev = cdev;
	irdma_ice_qos(cdev, &qos);
	/* irdma_bind() frees @rf when it fails; the vectors are ours. */
	err = irdma_bind(rf, &qos);
	if (err)
		irdma_ice_put_vectors(cdev, entries, count);
	return err;
}

/**
 * irdma_ice_remove() - unbind from an ice RDMA auxiliary device
 * @adev: the auxiliary device
 *
 * ice withdraws the device before it unloads, before a reset it was asked
 * for (the function still works: the usual teardown runs; counted as a
 * parent reset when this binding asked for it) and after a
 * reset the hardware announced (the function lost its state: no device
 * commands are sent, as after a critical error). The MSI-X vectors go
 * back to ice once irdma_unbind() freed their interrupts.
 *
 * Context: Process context; the auxiliary device lock is held.
 */
static void irdma_ice_remove(struct auxiliary_device *adev)
{
	struct irdma_pci_f *rf = auxiliary_get_drvdata(adev);
	struct iidc_rdma_core_dev_info *cdev = rf->ice_cdev;
	struct msix_entry *entries = rf->msix_entries;
	u32 count = rf->msix_count;

	if (irdma_ice_state_lost(rf)) {
		dev_dbg(&adev->dev, "ice resets the function (already reset)\n");
		irdma_ev_inc(rf, IRDMA_EV_PARENT_RESETS);
		WRITE_ONCE(rf->resetting, true);
	} else if (READ_ONCE(rf->ice_reset_asked)) {
		/* before the reset we asked for: the function still works */
		dev_dbg(&adev->dev, "ice resets the function\n");
		irdma_ev_inc(rf, IRDMA_EV_PARENT_RESETS);
		if (rf->cqp.hung)
			WRITE_ONCE(rf->resetting, true);
	} else if (rf->cqp.hung) {
		/* Nor can a hung CQP take the teardown commands. */
		WRITE_ONCE(rf->resetting, true);
	}
	irdma_unbind(rf);
	irdma_ice_put_vectors(cdev, entries, count);
}

static const struct auxiliary_device_id irdma_ice_id_table[] = {
	{ .name = "ice.roce" },
	{ .name = "ice.iwarp" },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, irdma_ice_id_table);

/* ice finds the event handler with container_of() on the driver. */
static struct iidc_rdma_core_auxiliary_drv irdma_ice_aux_drv = {
	.adrv = {
		.name = "ice",
		.id_table = irdma_ice_id_table,
		.probe = irdma_ice_probe,
		.remove = irdma_ice_remove,
	},
	.event_handler = irdma_ice_event_handler,
};

/**
 * irdma_ice_register() - register the auxiliary driver for the stock ice
 *
 * Return: 0 or a negative errno.
 */
int irdma_ice_register(void)
{
	return auxiliary_driver_register(&irdma_ice_aux_drv.adrv);
}

/**
 * irdma_ice_unregister() - undo irdma_ice_register()
 */
void irdma_ice_unregister(void)
{
	auxiliary_driver_unregister(&irdma_ice_aux_drv.adrv);
}
