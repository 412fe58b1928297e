/* SPDX-License-Identifier: GPL-2.0-only */
/* ice_lite: private definitions shared by the files of the PF driver.
 */
#ifndef _ICE_LITE_H_
#define _ICE_LITE_H_

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/etherdevice.h>
#include <linux/io.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/workqueue.h>
#include <linux/net/intel/ice_lite_rdma.h>
#include <net/dcbnl.h>

#include <hw/e810_aq.h>
#include <hw/e810_lan.h>

struct dentry;

/* MSI-X layout of the PF: fixed vectors first, then the slice reserved for
 * the RDMA auxiliary driver (the MSI-X table index is the vector number the
 * device uses in GLINT_DYN_CTL(n) and the *_CTL MSIX_INDX fields).
 */
enum ice_lite_msix_vector {
	ICE_LITE_MSIX_MISC,		/* OICR and admin queue */
	ICE_LITE_MSIX_LAN,		/* the one LAN queue pair */
	ICE_LITE_MSIX_RDMA_BASE,	/* first RDMA vector */
};

/* RDMA needs one AEQ vector and at least one CEQ vector. */
#define ICE_LITE_MIN_RDMA_MSIX	2U

/* ---- admin queue ------------------------------------------------------ */

#define ICE_LITE_AQ_LEN		64	/* descriptors in the ATQ and the ARQ */
#define ICE_LITE_AQ_BUF_SZ	E810_AQ_MAX_BUF

/**
 * struct ice_lite_aq_ring - one admin queue ring (ATQ or ARQ)
 * @desc: the descriptors (coherent DMA)
 * @desc_pa: bus address of @desc
 * @bufs: one 4 KiB coherent buffer per descriptor
 * @bufs_pa: bus addresses of @bufs
 * @count: number of descriptors
 * @next_to_use: ATQ: next slot to post; ARQ: unused
 * @next_to_clean: ATQ: oldest slot not reclaimed; ARQ: next event
 * @reg_head: offset of the HEAD register
 * @reg_tail: offset of the TAIL register
 * @reg_len: offset of the LEN register
 * @reg_bal: offset of the base-low register
 * @reg_bah: offset of the base-high register
 */
struct ice_lite_aq_ring {
	struct e810_aq_desc *desc;
	dma_addr_t desc_pa;
	void **bufs;
	dma_addr_t *bufs_pa;
	u16 count;
	u16 next_to_use;
	u16 next_to_clean;
	u32 reg_head;
	u32 reg_tail;
	u32 reg_len;
	u32 reg_bal;
	u32 reg_bah;
};

/**
 * struct ice_lite_aq - the PF admin queue
 * @atq: command ring (driver to firmware)
 * @arq: event ring (firmware to driver)
 * @atq_lock: serialises commands; protects @atq, @last_status
 * @arq_lock: serialises event cleaning; protects @arq
 * @ready: both rings are programmed; set and cleared holding both locks
 * @last_status: retval of the last completed command (enum e810_aq_rc)
 */
struct ice_lite_aq {
	struct ice_lite_aq_ring atq;
	struct ice_lite_aq_ring arq;
	struct mutex atq_lock;	/* see above */
	struct mutex arq_lock;	/* see above */
	bool ready;
	u16 last_status;
};

/* ---- capabilities and link --------------------------------------------- */

/**
 * struct ice_lite_caps - what list-capabilities reported
 * @valid_functions: device: bitmap of enabled PFs
 * @num_rxq: function: Rx queues
 * @rxq_first: function: first absolute Rx queue
 * @num_txq: function: Tx queues
 * @txq_first: function: first absolute Tx queue
 * @num_msix: function: MSI-X vectors
 * @max_mtu: function: largest MTU (0 if not reported)
 * @rdma: function and device have RDMA (and at most 4 PFs are enabled)
 */
struct ice_lite_caps {
	u32 valid_functions;
	u32 num_rxq;
	u32 rxq_first;
	u32 num_txq;
	u32 txq_first;
	u32 num_msix;
	u32 max_mtu;
	bool rdma;
};

/**
 * struct ice_lite_link - link state from get-link-status and its events
 * @up: link is up
 * @speed: one E810_AQ_LINK_SPEED_* bit, 0 if unknown
 * @max_frame: largest frame the MAC accepts
 */
struct ice_lite_link {
	bool up;
	u16 speed;
	u16 max_frame;
};

/* ---- LAN rings --------------------------------------------------------- */

/* The one queue pair: PF-relative queue 0 (register index and AQ id). */
#define ICE_LITE_LAN_Q		0

#define ICE_LITE_TX_DESC	256	/* multiple of 32, as ice requires */
#define ICE_LITE_RX_DESC	256
/* Wake the Tx queue again once this many descriptors are free. */
#define ICE_LITE_TX_WAKE_THRESH	32

/* Every ring length ice_lite uses must be one the hardware accepts. */
static_assert(ICE_LITE_TX_DESC % 32 == 0 &&
	      ICE_LITE_TX_DESC <= E810_LAN_RING_MAX);
static_assert(ICE_LITE_RX_DESC % 32 == 0 &&
	      ICE_LITE_RX_DESC <= E810_LAN_RING_MAX);

/**
 * struct ice_lite_stats - counters of one ring, kept across ring restarts
 * @packets: packets completed
 * @bytes: bytes completed
 * @errors: Rx frames the device flagged with RXE
 * @length_errors: Rx frames that did not fit one buffer
 * @syncp: 64-bit counter consistency on 32-bit hosts
 */
struct ice_lite_stats {
	u64 packets;
	u64 bytes;
	u64 errors;
	u64 length_errors;
	struct u64_stats_sync syncp;
};

/**
 * struct ice_lite_tx_buf - what a Tx descriptor carries
 * @skb: the packet, NULL when the slot is free
 * @dma: its mapping
 * @len: mapped length
 */
struct ice_lite_tx_buf {
	struct sk_buff *skb;
	dma_addr_t dma;
	unsigned int len;
};

/**
 * struct ice_lite_tx_ring - Tx queue 0
 * @desc: descriptors (coherent DMA)
 * @dma: bus address of @desc
 * @bufs: per-descriptor packets
 * @count: number of descriptors
 * @next_to_use: next slot start_xmit fills (written only by start_xmit)
 * @next_to_clean: oldest slot not completed (written only by NAPI)
 * @teid: scheduler node of the queue, from add-Tx-queues
 * @added: the device knows the queue (0x0C30 succeeded)
 */
struct ice_lite_tx_ring {
	struct e810_tx_desc *desc;
	dma_addr_t dma;
	struct ice_lite_tx_buf *bufs;
	u16 count;
	u16 next_to_use;
	u16 next_to_clean;
	u32 teid;
	bool added;
};

/* A 32-byte Rx descriptor: written by us in read format, by the device back. */
union ice_lite_rx_desc {
	struct e810_rx_desc_read read;
	struct e810_rx_flex_desc_nic wb;
};

/**
 * struct ice_lite_rx_buf - what an Rx descriptor carries
 * @skb: the receive buffer, NULL when the slot has none
 * @dma: mapping of @skb's data, @buf_len bytes of the ring
 */
struct ice_lite_rx_buf {
	struct sk_buff *skb;
	dma_addr_t dma;
};

/**
 * struct ice_lite_rx_ring - Rx queue 0
 * @desc: descriptors (coherent DMA)
 * @dma: bus address of @desc
 * @bufs: per-descriptor buffers
 * @count: number of descriptors
 * @next_to_use: next slot to give a buffer
 * @next_to_clean: next slot the device completes
 * @buf_len: size of every buffer; a frame always fits one
 * @discarding: dropping the rest of a frame that spanned buffers
 */
struct ice_lite_rx_ring {
	union ice_lite_rx_desc *desc;
	dma_addr_t dma;
	struct ice_lite_rx_buf *bufs;
	u16 count;
	u16 next_to_use;
	u16 next_to_clean;
	u32 buf_len;
	bool discarding;
};

/* ---- Tx scheduler ------------------------------------------------------ */

/* Nodes ice_lite adds: TC..VSI layer, then a LAN and an RDMA branch. */
#define ICE_LITE_SCHED_MAX_NODES	8

/**
 * struct ice_lite_sched - the PF's branch of the Tx scheduler tree
 * @nodes: the nodes added (0x0401), in order; each with its parent
 * @num_nodes: entries of @nodes in use
 * @lan_qgrp: queue-group node of the Tx LAN queues (0: none)
 * @rdma_qgrp: queue-group node of the RDMA qsets (0: none)
 */
struct ice_lite_sched {
	struct ice_lite_sched_node {
		u32 parent;
		u32 teid;
	} nodes[ICE_LITE_SCHED_MAX_NODES];
	unsigned int num_nodes;
	u32 lan_qgrp;
	u32 rdma_qgrp;
};

/* ---- the PF ------------------------------------------------------------- */

/* What ice_lite counts per PF (debugfs "events", ice_lite_debugfs.c). */
enum ice_lite_ev {
	ICE_LITE_EV_PF_RESETS,		/* PF resets issued (PFSWR) */
	ICE_LITE_EV_RESET_REQUESTS,	/* reset-and-rebuilds scheduled */
	ICE_LITE_EV_REBUILDS,		/* reset-and-rebuilds completed */
	ICE_LITE_EV_REBUILD_ERRORS,	/* reset-and-rebuilds that failed */
	ICE_LITE_EV_LINK_UP,		/* link went up */
	ICE_LITE_EV_LINK_DOWN,		/* link went down */
	ICE_LITE_EV_MTU_CHANGES,	/* MTU changes applied */
	ICE_LITE_EV_CRIT_ERRORS,	/* critical OICR causes forwarded */
	ICE_LITE_EV_ETS_APPLIED,	/* ETS settings applied */
	ICE_LITE_EV_ETS_REFUSED,	/* ETS settings refused (-EINVAL) */
	ICE_LITE_EV_NUM,
};

/* Bits of ice_lite_pf.state. */
enum ice_lite_state {
	ICE_LITE_STATE_REMOVING,	/* remove started: no new resets */
	ICE_LITE_STATE_RESETTING,	/* reset scheduled or running */
	ICE_LITE_STATE_MISC_IRQ,	/* misc vector requested */
	ICE_LITE_STATE_UP,		/* rings running */
	ICE_LITE_STATE_NBITS,
};

/**
 * struct ice_lite_pf - state of one E810 physical function
 * @pdev: the PCI function
 * @hw_addr: kernel mapping of all of BAR0
 * @pf_id: PF number (PF_FUNC_RID.FUNC_NUM)
 * @lport: logical port of the function (the model has one, number 0)
 * @state: ICE_LITE_STATE_* bits
 * @num_msix: MSI-X vectors allocated for the function
 * @rdma_msix: the RDMA slice of the vectors (table index and Linux irq)
 * @num_rdma_msix: number of entries in @rdma_msix
 * @aq: the admin queue
 * @caps: capabilities
 * @fw_version: firmware and API version for ethtool -i
 * @perm_addr: the LAN MAC address from manage-MAC-read
 * @vsi_lock: serialises VSI updates; protects @vsi_props
 * @vsi_num: hardware number of the PF VSI
 * @vsi_props: VSI properties as last given to the firmware
 * @fltr: the PF VSI's switch rules
 * @sched: the PF VSI's Tx scheduler nodes
 * @link_lock: protects @link and @link_netdev
 * @link: current link state
 * @link_netdev: the netdev whose carrier follows @link, or NULL
 * @misc_irq_name: name of the misc vector's handler
 * @aq_work: drains the ARQ
 * @crit_work: forwards critical OICR causes to the RDMA driver
 * @reset_work: PF reset and rebuild requested by the RDMA driver
 * @oicr_lock: protects @oicr_err_reg
 * @oicr_err_reg: accumulated critical OICR value not yet forwarded
 * @netdev: the Ethernet netdev, NULL until it is allocated
 * @napi: NAPI context of the LAN vector
 * @lan_irq_name: name of the LAN vector's handler
 * @tx_ring: Tx queue 0
 * @rx_ring: Rx queue 0
 * @tx_stats: Tx counters
 * @rx_stats: Rx counters
 * @tx_dropped: packets start_xmit dropped
 * @rdma_info: what the RDMA auxiliary driver gets from us
 * @adev_mutex: serialises publishing/withdrawing @adev against events
 * @adev: the published RDMA auxiliary device, NULL while there is none
 * @dcbx_cap: DCB_CAP_DCBX_* mode (software IEEE DCBX, as ice without LLDP
 *	agent in firmware); 0 until the netdev is created
 * @ets: the IEEE 802.1Qaz ETS configuration set with dcbnl; written with
 *	RTNL and @adev_mutex held, read with either
 * @dbg_dir: debugfs directory of the PF
 * @ev: event counters (enum ice_lite_ev), shown in debugfs
 */
/**
 * struct ice_lite_fltr - the PF VSI's switch rules (ice_lite_switch.c)
 * @mac: the unicast address of @uc
 * @uc: rule index of the unicast MAC rule
 * @bc: rule index of the broadcast MAC rule
 * @mc: rule index of the Rx multicast-promiscuous rule
 * @added: the three rules are in the switch
 */
struct ice_lite_fltr {
	u8 mac[ETH_ALEN];
	u16 uc;
	u16 bc;
	u16 mc;
	bool added;
};

struct ice_lite_pf {
	struct pci_dev *pdev;
	u8 __iomem *hw_addr;
	u8 pf_id;
	u8 lport;
	DECLARE_BITMAP(state, ICE_LITE_STATE_NBITS);
	unsigned int num_msix;
	struct msix_entry *rdma_msix;
	unsigned int num_rdma_msix;

	struct ice_lite_aq aq;
	struct ice_lite_caps caps;
	char fw_version[32];
	u8 perm_addr[ETH_ALEN];
	struct mutex vsi_lock;		/* see above */
	u16 vsi_num;
	struct e810_aqc_vsi_props vsi_props;
	struct ice_lite_fltr fltr;
	struct ice_lite_sched sched;

	spinlock_t link_lock;		/* see above */
	struct ice_lite_link link;
	struct net_device *link_netdev;

	char misc_irq_name[32];
	struct work_struct aq_work;
	struct work_struct crit_work;
	struct work_struct reset_work;
	spinlock_t oicr_lock;		/* see above */
	u32 oicr_err_reg;

	struct net_device *netdev;
	struct napi_struct napi;
	char lan_irq_name[32];
	struct ice_lite_tx_ring tx_ring;
	struct ice_lite_rx_ring rx_ring;
	struct ice_lite_stats tx_stats;
	struct ice_lite_stats rx_stats;
	atomic64_t tx_dropped;

	struct ice_lite_rdma_dev_info rdma_info;
	struct mutex adev_mutex;	/* protects adev */
	struct ice_lite_rdma_aux_dev *adev;
	/* Serialises publishing and withdrawing the auxiliary device (probe,
	 * remove, reset, devlink) and protects rdma_mode.
	 */
	struct mutex rdma_lock;
	u32 rdma_mode;			/* ICE_LITE_RDMA_PROTOCOL_* chosen */
	int aux_id;			/* <N> of ice_lite.<protocol>.<N> */
	struct devlink *devlink;

	u8 dcbx_cap;
	struct ieee_ets ets;

	struct dentry *dbg_dir;
	atomic64_t ev[ICE_LITE_EV_NUM];
};

static inline void ice_lite_ev_inc(struct ice_lite_pf *pf, enum ice_lite_ev ev)
{
	atomic64_inc(&pf->ev[ev]);
}

/* The private area of our netdev. */
struct ice_lite_netdev_priv {
	struct ice_lite_pf *pf;
};

static inline struct ice_lite_pf *ice_lite_netdev_to_pf(struct net_device *nd)
{
	return ((struct ice_lite_netdev_priv *)netdev_priv(nd))->pf;
}

static inline struct device *ice_lite_pf_to_dev(struct ice_lite_pf *pf)
{
	return &pf->pdev->dev;
}

static inline u32 ice_lite_rd32(struct ice_lite_pf *pf, u32 reg)
{
	return readl(pf->hw_addr + reg);
}

static inline void ice_lite_wr32(struct ice_lite_pf *pf, u32 reg, u32 val)
{
	writel(val, pf->hw_addr + reg);
}

/* ice_lite_main.c */
int ice_lite_init_hw(struct ice_lite_pf *pf);
int ice_lite_init_sw(struct ice_lite_pf *pf);

/* ice_lite_reset.c */
int ice_lite_pf_reset(struct ice_lite_pf *pf);
int ice_lite_schedule_reset(struct ice_lite_pf *pf);
void ice_lite_reset_work(struct work_struct *work);

/* ice_lite_aq.c */
void ice_lite_aq_init_locks(struct ice_lite_pf *pf);
void ice_lite_aq_destroy_locks(struct ice_lite_pf *pf);
int ice_lite_aq_init(struct ice_lite_pf *pf);
void ice_lite_aq_deinit(struct ice_lite_pf *pf, bool unloading);
void ice_lite_aq_fill_desc(struct e810_aq_desc *desc, u16 opcode);
int ice_lite_aq_send(struct ice_lite_pf *pf, struct e810_aq_desc *desc,
		     void *buf, u16 buf_size);
void ice_lite_aq_work(struct work_struct *work);

/* ice_lite_caps.c */
int ice_lite_get_fw_version(struct ice_lite_pf *pf);
int ice_lite_clear_pf_cfg(struct ice_lite_pf *pf);
int ice_lite_get_caps(struct ice_lite_pf *pf);
int ice_lite_read_mac(struct ice_lite_pf *pf);
int ice_lite_send_driver_version(struct ice_lite_pf *pf);

/* ice_lite_link.c */
int ice_lite_set_mac_cfg(struct ice_lite_pf *pf);
int ice_lite_init_link(struct ice_lite_pf *pf);
void ice_lite_link_event(struct ice_lite_pf *pf, const void *buf, u16 len);
void ice_lite_link_attach(struct ice_lite_pf *pf, struct net_device *netdev);
void ice_lite_link_detach(struct ice_lite_pf *pf);
void ice_lite_link_get(struct ice_lite_pf *pf, struct ice_lite_link *link);
u32 ice_lite_link_speed_mbps(u16 speed);

/* ice_lite_vsi.c */
int ice_lite_add_vsi(struct ice_lite_pf *pf);
int ice_lite_free_vsi(struct ice_lite_pf *pf);
int ice_lite_vsi_set_pe_filter(struct ice_lite_pf *pf, bool enable);

/* ice_lite_switch.c */
int ice_lite_fltr_add(struct ice_lite_pf *pf);
void ice_lite_fltr_remove(struct ice_lite_pf *pf);
int ice_lite_set_mac_address(struct net_device *netdev, void *p);

/* ice_lite_sched.c */
int ice_lite_sched_init(struct ice_lite_pf *pf);
void ice_lite_sched_deinit(struct ice_lite_pf *pf);
int ice_lite_add_txq(struct ice_lite_pf *pf, u16 txq_id, const u8 *ctx,
		     u32 *teid);
int ice_lite_dis_txq(struct ice_lite_pf *pf, u16 txq_id);
int ice_lite_add_rdma_qset(struct ice_lite_pf *pf, u16 qset_id, u32 *teid);
int ice_lite_dis_rdma_qset(struct ice_lite_pf *pf, u16 qset_id);

/* ice_lite_irq.c */
int ice_lite_init_msix(struct ice_lite_pf *pf);
void ice_lite_clear_msix(struct ice_lite_pf *pf);
int ice_lite_req_misc_irq(struct ice_lite_pf *pf);
void ice_lite_free_misc_irq(struct ice_lite_pf *pf);
void ice_lite_misc_enable(struct ice_lite_pf *pf);
void ice_lite_misc_disable(struct ice_lite_pf *pf);
void ice_lite_crit_work(struct work_struct *work);

/* ice_lite_txrx.c */
int ice_lite_up(struct ice_lite_pf *pf);
void ice_lite_down(struct ice_lite_pf *pf);
netdev_tx_t ice_lite_start_xmit(struct sk_buff *skb, struct net_device *nd);
int ice_lite_napi_poll(struct napi_struct *napi, int budget);

/* ice_lite_netdev.c */
int ice_lite_netdev_create(struct ice_lite_pf *pf);
void ice_lite_netdev_destroy(struct ice_lite_pf *pf);

/* ice_lite_ethtool.c */
void ice_lite_set_ethtool_ops(struct net_device *netdev);

/* ice_lite_dcb.c */
void ice_lite_dcb_setup(struct ice_lite_pf *pf, struct net_device *netdev);
void ice_lite_dcb_qos(const struct ice_lite_pf *pf,
		      struct ice_lite_rdma_qos *qos);

/* ice_lite_debugfs.c */
void ice_lite_dbg_init(void);
void ice_lite_dbg_exit(void);
void ice_lite_dbg_pf_init(struct ice_lite_pf *pf);
void ice_lite_dbg_pf_exit(struct ice_lite_pf *pf);

/* ice_lite_rdma.c */
bool ice_lite_rdma_capable(struct ice_lite_pf *pf);
int ice_lite_rdma_init(struct ice_lite_pf *pf);
void ice_lite_rdma_deinit(struct ice_lite_pf *pf);
int ice_lite_rdma_plug(struct ice_lite_pf *pf);
void ice_lite_rdma_unplug(struct ice_lite_pf *pf);
void ice_lite_rdma_send_event(struct ice_lite_pf *pf,
			      struct ice_lite_rdma_event *event);
void ice_lite_rdma_notify(struct ice_lite_pf *pf,
			  enum ice_lite_rdma_event_type type, u32 reg);
void ice_lite_rdma_tc_change(struct ice_lite_pf *pf,
			     const struct ieee_ets *ets);

/* ice_lite_devlink.c */
int ice_lite_devlink_init(struct ice_lite_pf *pf);
void ice_lite_devlink_unregister(struct ice_lite_pf *pf);
void ice_lite_devlink_free(struct ice_lite_pf *pf);

#endif /* _ICE_LITE_H_ */
