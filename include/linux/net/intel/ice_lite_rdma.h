/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The contract between the ice_lite PF driver and its RDMA auxiliary driver.
 *
 * Modelled on upstream's 6.16+ IIDC RDMA core-device info
 * (include/linux/net/intel/iidc_rdma.h): the auxiliary device carries what
 * the RDMA driver needs from its parent and nothing parent-internal. The
 * parent publishes "ice_lite.roce.<N>" in RoCEv2 mode and "ice_lite.iwarp.<N>"
 * in iWARP mode (devlink runtime params enable_roce / enable_iwarp, as ice);
 * <N> is allocated from 0 per PF and kept across re-plugs.
 */
#ifndef _ICE_LITE_RDMA_H_
#define _ICE_LITE_RDMA_H_

#include <linux/auxiliary_bus.h>
#include <linux/if_ether.h>
#include <linux/pci.h>
#include <linux/types.h>

#define ICE_LITE_RDMA_ROCE_NAME		"roce"
#define ICE_LITE_RDMA_IWARP_NAME	"iwarp"
#define ICE_LITE_RDMA_MAX_USER_PRIORITY	8
#define ICE_LITE_RDMA_MAX_DSCP		64

/* Bit values as IIDC_RDMA_PROTOCOL_*. */
enum ice_lite_rdma_protocol {
	ICE_LITE_RDMA_PROTOCOL_IWARP = BIT(0),
	ICE_LITE_RDMA_PROTOCOL_ROCEV2 = BIT(1),
};

enum ice_lite_rdma_event_type {
	ICE_LITE_RDMA_EVENT_BEFORE_MTU_CHANGE,
	ICE_LITE_RDMA_EVENT_AFTER_MTU_CHANGE,
	ICE_LITE_RDMA_EVENT_BEFORE_TC_CHANGE,
	ICE_LITE_RDMA_EVENT_AFTER_TC_CHANGE,
	ICE_LITE_RDMA_EVENT_WARN_RESET,
	ICE_LITE_RDMA_EVENT_CRIT_ERR,
	ICE_LITE_RDMA_EVENT_NBITS,
};

struct ice_lite_rdma_event {
	DECLARE_BITMAP(type, ICE_LITE_RDMA_EVENT_NBITS);
	u32 reg;	/* PFINT_OICR value for CRIT_ERR */
};

enum ice_lite_rdma_reset_type {
	ICE_LITE_RDMA_FUNC_RESET,
	ICE_LITE_RDMA_DEV_RESET,
};

struct ice_lite_rdma_qos_tc {
	u64 tc_ctx;
	u8 rel_bw;
	u8 prio_type;
	u8 egress_virt_up;
	u8 ingress_virt_up;
};

struct ice_lite_rdma_qos {
	struct ice_lite_rdma_qos_tc tc_info[ICE_LITE_RDMA_MAX_USER_PRIORITY];
	u8 up2tc[ICE_LITE_RDMA_MAX_USER_PRIORITY];
	u8 num_tc;
	u8 vport_relative_bw;
	u8 vport_priority_type;
	u8 pfc_mode;
	u8 dscp_map[ICE_LITE_RDMA_MAX_DSCP];
};

/* A transmit scheduler leaf for RDMA traffic of one traffic class. */
struct ice_lite_rdma_qset {
	u32 teid;	/* out: scheduler node id */
	u16 qs_handle;
	u16 vport_id;
	u8 tc;
};

struct ice_lite_rdma_dev_info;

/**
 * struct ice_lite_rdma_ops - services the parent provides to the RDMA driver
 * @add_qset: register a Tx scheduler leaf for RDMA (fills @qset->teid);
 *	@qset->vport_id must be @info->vport_id and @qset->tc < qos.num_tc
 * @del_qset: release a leaf added with @add_qset (same @qset)
 * @request_reset: ask the parent to reset the function; asynchronous: the
 *	parent sends WARN_RESET, withdraws the auxiliary device (the RDMA
 *	driver is unbound), resets and rebuilds the function and publishes
 *	the device again. Device resets are refused with -EOPNOTSUPP.
 * @update_vsi_filter: steer (or stop steering) RoCEv2 traffic to the engine;
 *	@vsi_id must be @info->vport_id
 *
 * All ops may sleep and return 0 or a negative errno; -EBUSY while the
 * parent's admin queue is down (during a reset), -EIO when the firmware
 * refused the command.
 */
struct ice_lite_rdma_ops {
	int (*add_qset)(struct ice_lite_rdma_dev_info *info,
			struct ice_lite_rdma_qset *qset);
	int (*del_qset)(struct ice_lite_rdma_dev_info *info,
			struct ice_lite_rdma_qset *qset);
	int (*request_reset)(struct ice_lite_rdma_dev_info *info,
			     enum ice_lite_rdma_reset_type type);
	int (*update_vsi_filter)(struct ice_lite_rdma_dev_info *info,
				 u16 vsi_id, bool enable);
};

/**
 * struct ice_lite_rdma_dev_info - what the RDMA driver gets from the parent
 * @pdev: the PF's PCI device (DMA, BAR0 physical start for mmap, devfn)
 * @adev: the auxiliary device carrying this info
 * @hw_addr: kernel mapping of BAR0 (whole BAR, including the doorbell page)
 * @netdev: the PF's Ethernet netdev (registered before the auxiliary
 *	device is published, unregistered after it is withdrawn)
 * @ops: parent services
 * @msix_entries: MSI-X vectors reserved for RDMA (index and Linux irq)
 * @msix_count: number of entries in @msix_entries
 * @qos: QoS parameters, refreshed before AFTER_TC_CHANGE
 * @rdma_protocol: ICE_LITE_RDMA_PROTOCOL_* enabled on this function: exactly
 *	one bit, matching the device name (ROCEV2 for "roce", IWARP for "iwarp")
 * @pf_id: PF number (PF_FUNC_RID.FUNC_NUM)
 * @vport_id: hardware VSI number of the PF's VSI (from add VSI, 0x0210)
 */
struct ice_lite_rdma_dev_info {
	struct pci_dev *pdev;
	struct auxiliary_device *adev;
	u8 __iomem *hw_addr;
	struct net_device *netdev;
	const struct ice_lite_rdma_ops *ops;
	struct msix_entry *msix_entries;
	u32 msix_count;
	struct ice_lite_rdma_qos qos;
	u32 rdma_protocol;
	u8 pf_id;
	u16 vport_id;
};

struct ice_lite_rdma_aux_dev {
	struct auxiliary_device adev;
	struct ice_lite_rdma_dev_info *info;
};

/**
 * struct ice_lite_rdma_aux_drv - the RDMA driver as the parent sees it
 * @adrv: the auxiliary driver
 * @event_handler: called by the parent, in process context, with the
 *	device lock of @info->adev held, for each event while bound. MTU
 *	events come from the parent's ndo_change_mtu with RTNL held, so the
 *	handler must not take RTNL; BEFORE_MTU_CHANGE sees the old MTU in
 *	@info->netdev, AFTER_MTU_CHANGE the new one.
 */
struct ice_lite_rdma_aux_drv {
	struct auxiliary_driver adrv;
	void (*event_handler)(struct ice_lite_rdma_dev_info *info,
			      struct ice_lite_rdma_event *event);
};

static inline struct ice_lite_rdma_dev_info *
ice_lite_rdma_adev_to_info(struct auxiliary_device *adev)
{
	return container_of(adev, struct ice_lite_rdma_aux_dev, adev)->info;
}

#endif /* _ICE_LITE_RDMA_H_ */
