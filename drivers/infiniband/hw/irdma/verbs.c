// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: the ib_device, RoCEv2 or (iw.c) iWARP. Attributes come from the committed HMC and
 * the GEN_2 limits (docs/hw-reference.md 2.7); atomics, SRQ, XRC and UC
 * are not advertised, memory windows are (mw.c). The port follows the
 * netdev (ib_device_set_netdev(): ib_core's RoCE GID management fills the
 * GID table from its addresses).
 *
 * Here: user contexts (ABI handshake, doorbell page mmap) and PDs (ids
 * only on the E810). CQs are in cq.c, QPs in qp.c (context: qp_ctx.c,
 * kernel rings: uk.c), MRs and AHs in mr.c and ah.c.
 */

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/version.h>
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_verbs.h>
#include <rdma/irdma-abi.h>
#include <rdma/uverbs_ioctl.h>

#include <hw/e810_ctx.h>
#include <hw/e810_regs.h>

#include "cq.h"
#include "main.h"
#include "events.h"
#include "iw.h"
#include "mr.h"
#include "qp.h"

/* GEN_2 limits (hw-reference 2.7); the QP ones are in qp.h. */
#define IRDMA_MAX_MR_SIZE	0x200000000000ULL
#define IRDMA_MAX_PDS		262144
#define IRDMA_MAX_MSG_SIZE	0x7FFFFFFF
#define IRDMA_GID_TBL_LEN	32
#define IRDMA_PKEY_TBL_LEN	1
#define IRDMA_DEFAULT_PKEY	0xFFFF

/* Values the E810 kernel driver reports to the provider (hw-reference 6.2). */
#define IRDMA_FEATURE_RTS_AE	BIT_ULL(0)
#define IRDMA_FEATURE_CQ_RESIZE	BIT_ULL(1)

/* PD ids the generation's STag PD field holds (GEN_1: 15 bits). */
static u32 irdma_max_pds(const struct irdma_pci_f *rf)
{
	return irdma_is_gen1(rf) ? E810_GEN1_MAX_PDS : IRDMA_MAX_PDS;
}

/* An mmap-able BAR0 range (the doorbell page). */
struct irdma_mmap_entry {
	struct rdma_user_mmap_entry rdma_entry;
	u64 bar_offset;
};

static int irdma_query_device(struct ib_device *ibdev,
			      struct ib_device_attr *props,
			      struct ib_udata *udata)
{
	struct irdma_pci_f *rf = to_iwdev(ibdev)->rf;
	const struct e810_wq_geom *g = irdma_geom(rf);
	struct irdma_hmc_obj *o = rf->hmc.obj;
	struct pci_dev *pdev = rf->pcidev;

	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;

	memset(props, 0, sizeof(*props));
	addrconf_addr_eui48((u8 *)&props->sys_image_guid,
			    rf->netdev->dev_addr);
	props->fw_ver = (u64)rf->fw_major << 32 | rf->fw_minor;
	/* The engine sends RNR NAKs when a SEND finds no receive WQE. */
	props->device_cap_flags = IB_DEVICE_MEM_MGT_EXTENSIONS |
				  IB_DEVICE_MEM_WINDOW |
				  IB_DEVICE_MEM_WINDOW_TYPE_2B |
				  IB_DEVICE_RC_RNR_NAK_GEN;
	props->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	props->vendor_id = pdev->vendor;
	props->vendor_part_id = pdev->device;
	props->hw_ver = pdev->revision;
	/* GEN_1: 4K and 2M pages (i40iw_init_hw()) */
	props->page_size_cap = SZ_4K | SZ_2M;
	if (!irdma_is_gen1(rf))
		props->page_size_cap |= SZ_1G;
	props->max_mr_size = IRDMA_MAX_MR_SIZE;
	/*
	 * As upstream, what is left after the ids the driver keeps: QP 0-1,
	 * CQ 0 (the CCQ), MR/STag index 0 and AH 0 are never handed out.
	 */
	props->max_qp = o[E810_HMC_QP].cnt - IRDMA_FIRST_QP_ID;
	props->max_qp_wr = e810u_max_qp_wr(g);
	props->max_send_sge = g->max_frags;
	props->max_recv_sge = g->max_frags;
	props->max_sge_rd = g->max_read_sges;
	props->max_cq = o[E810_HMC_CQ].cnt - 1;
	props->max_cqe = irdma_max_cq_req(rf);
	props->max_mr = o[E810_HMC_MR].cnt - 1;
	/* Windows take their STags from the same index space. */
	props->max_mw = props->max_mr;
	/* PD 0 is never handed out (irdma_alloc_pd()). */
	props->max_pd = irdma_max_pds(rf) - 1;
	props->max_qp_rd_atom = irdma_is_gen1(rf) ? E810_GEN1_MAX_IRD :
						    IRDMA_MAX_IRD;
	props->max_qp_init_rd_atom = irdma_is_gen1(rf) ? E810_GEN1_MAX_ORD :
							 IRDMA_MAX_ORD;
	props->atomic_cap = IB_ATOMIC_NONE;
	/* GEN_1 has no address handles nor multicast groups (FSIAV, FSIMC). */
	props->max_ah = o[E810_HMC_FSIAV].cnt ? o[E810_HMC_FSIAV].cnt - 1 : 0;
	/*
	 * A group is an FSIMC object (mcast.c hands out indexes below its
	 * committed count), so that is how many there can be. Upstream's
	 * irdma_initialize_hw_rsrc() reports its QP count instead (max_mcg),
	 * more groups than the device holds.
	 */
	props->max_mcast_grp = o[E810_HMC_FSIMC].cnt;
	props->max_mcast_qp_attach = E810_MG_MAX_QPS;
	props->max_total_mcast_qp_attach = o[E810_HMC_FSIMC].cnt *
					   E810_MG_MAX_QPS;
	props->max_pkeys = IRDMA_PKEY_TBL_LEN;
	/*
	 * irdma_query_device(): IRDMA_MAX_PAGES_PER_FMR. NFS/RDMA and SMB
	 * Direct refuse a device that reports 0 here.
	 */
	props->max_fast_reg_page_list_len = IRDMA_MAX_FR_PAGES;
	return 0;
}

static bool irdma_port_up(struct irdma_pci_f *rf)
{
	return netif_running(rf->netdev) && netif_carrier_ok(rf->netdev);
}

static int irdma_query_port(struct ib_device *ibdev, u32 port,
			    struct ib_port_attr *props)
{
	struct irdma_pci_f *rf = to_iwdev(ibdev)->rf;
	struct net_device *netdev = rf->netdev;

	/* ib_core zeroed @props. */
	if (irdma_port_up(rf)) {
		props->state = IB_PORT_ACTIVE;
		props->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	} else {
		props->state = IB_PORT_DOWN;
		props->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	}
	ib_get_eth_speed(ibdev, port, &props->active_speed,
			 &props->active_width);
	props->max_mtu = IB_MTU_4096;
	props->active_mtu = ib_mtu_int_to_enum(READ_ONCE(netdev->mtu));
	props->lid = 1;
	props->lmc = 0;
	props->sm_lid = 0;
	props->sm_sl = 0;
	if (rf->iwarp) {
		/* One GID, the MAC (upstream irdma_query_gid()); no P_Keys. */
		props->gid_tbl_len = 1;
	} else {
		props->gid_tbl_len = IRDMA_GID_TBL_LEN;
		props->ip_gids = true;
		props->pkey_tbl_len = IRDMA_PKEY_TBL_LEN;
	}
	props->port_cap_flags = IB_PORT_CM_SUP | IB_PORT_REINIT_SUP;
	props->max_msg_sz = IRDMA_MAX_MSG_SIZE;
	return 0;
}

static int irdma_get_port_immutable(struct ib_device *ibdev, u32 port,
				    struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr;
	int err;

	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	err = ib_query_port(ibdev, port, &attr);
	if (err)
		return err;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer irdma_get_link_layer(struct ib_device *ibdev,
						 u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int irdma_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			    u16 *pkey)
{
	if (index >= IRDMA_PKEY_TBL_LEN)
		return -EINVAL;
	*pkey = IRDMA_DEFAULT_PKEY;
	return 0;
}

static void irdma_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	struct irdma_pci_f *rf = to_iwdev(ibdev)->rf;

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u", rf->fw_major,
		 rf->fw_minor);
}

/* ---- user context, PD (CQs: cq.c, QPs: qp.c, MRs: mr.c, AHs: ah.c) ------ */

/*
 * A user context: the ABI handshake and the doorbell page mmap key
 * (hw-reference 6.1-6.3).
 */
static int irdma_alloc_ucontext(struct ib_ucontext *uctx,
				struct ib_udata *udata)
{
	struct irdma_ucontext *ucontext = to_irdma_uctx(uctx);
	struct irdma_pci_f *rf = to_iwdev(uctx->device)->rf;
	const struct e810_wq_geom *g = irdma_geom(rf);
	struct irdma_alloc_ucontext_resp resp = { };
	struct irdma_alloc_ucontext_req req = { };
	struct irdma_mmap_entry *entry;
	int err;

	if (udata->inlen < offsetofend(struct irdma_alloc_ucontext_req,
				       rsvd8) ||
	    udata->outlen < offsetofend(struct irdma_alloc_ucontext_resp,
					rsvd))
		return -EINVAL;
	if (ib_copy_from_udata(&req, udata, min(sizeof(req), udata->inlen)))
		return -EFAULT;
	if (req.userspace_ver < 4 || req.userspace_ver > IRDMA_ABI_VER) {
		ibdev_dbg(uctx->device, "user ABI %u not supported\n",
			  req.userspace_ver);
		return -EINVAL;
	}
	/* A 16-byte response is libi40iw's legacy mode: GEN_1 only. */
	if (udata->outlen == offsetofend(struct irdma_alloc_ucontext_resp,
					 rsvd))
		return -EOPNOTSUPP;
	ucontext->use_raw_attrs = !!(req.comp_mask &
				     IRDMA_ALLOC_UCTX_USE_RAW_ATTR);
	INIT_LIST_HEAD(&ucontext->qbufs);
	spin_lock_init(&ucontext->qbuf_lock);

	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return -ENOMEM;
	entry->bar_offset = IRDMA_REG(rf, db_addr);
	err = rdma_user_mmap_entry_insert(uctx, &entry->rdma_entry,
					  E810_DB_PAGE_SIZE);
	if (err) {
		kfree(entry);
		return err;
	}
	ucontext->db_entry = &entry->rdma_entry;

	resp.kernel_ver = req.userspace_ver;
	/* GEN_1 has neither (upstream sets them in icrdma_init_hw() only). */
	if (!irdma_is_gen1(rf))
		resp.feature_flags = IRDMA_FEATURE_RTS_AE |
				     IRDMA_FEATURE_CQ_RESIZE;
	resp.db_mmap_key = rdma_user_mmap_get_offset(ucontext->db_entry);
	/* the provider's ring layer sizes from the same table entry */
	resp.max_hw_wq_frags = g->max_frags;
	resp.max_hw_read_sges = g->max_read_sges;
	resp.max_hw_inline = g->max_inline;
	resp.max_hw_rq_quanta = g->max_rq_quanta;
	resp.max_hw_wq_quanta = g->max_wq_quanta;
	resp.min_hw_cq_size = 1;
	resp.max_hw_cq_size = g->max_cq_entries;
	resp.max_hw_sq_chunk = g->chunk_quanta;
	resp.hw_rev = rf->gen->hw.gen;
	/* create_qp takes the consumer's capabilities (raw attributes). */
	resp.comp_mask |= IRDMA_ALLOC_UCTX_USE_RAW_ATTR;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
	resp.comp_mask |= IRDMA_ALLOC_UCTX_MIN_HW_WQ_SIZE;
	resp.min_hw_wq_size = g->min_wq_quanta;
#endif
	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err) {
		rdma_user_mmap_entry_remove(ucontext->db_entry);
		return -EFAULT;
	}
	ibdev_dbg(uctx->device, "user context for %s, ABI %u\n",
		  pci_name(rf->pcidev), req.userspace_ver);
	return 0;
}

static void irdma_dealloc_ucontext(struct ib_ucontext *uctx)
{
	struct irdma_ucontext *ucontext = container_of(uctx,
						       struct irdma_ucontext,
						       ibucontext);

	rdma_user_mmap_entry_remove(ucontext->db_entry);
}

/*
 * Hot unplug and parent resets with user contexts open: ib_uverbs zaps the
 * doorbell mappings and destroys the objects itself, then tells the process
 * (IB_EVENT_DEVICE_FATAL). Without this op it would wait for every process
 * to close the device, and a parent unbind or reset would hang until then.
 */
static void irdma_disassociate_ucontext(struct ib_ucontext *uctx)
{
}

static void irdma_mmap_free(struct rdma_user_mmap_entry *rdma_entry)
{
	kfree(container_of(rdma_entry, struct irdma_mmap_entry, rdma_entry));
}

/* Maps the doorbell page, uncached, for the provider. */
static int irdma_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct irdma_pci_f *rf = to_iwdev(uctx->device)->rf;
	struct rdma_user_mmap_entry *rdma_entry;
	struct irdma_mmap_entry *entry;
	u64 pfn;
	int err;

	rdma_entry = rdma_user_mmap_entry_get(uctx, vma);
	if (!rdma_entry)
		return -EINVAL;
	entry = container_of(rdma_entry, struct irdma_mmap_entry, rdma_entry);
	pfn = (pci_resource_start(rf->pcidev, E810_BAR0) + entry->bar_offset) >>
	      PAGE_SHIFT;
	err = rdma_user_mmap_io(uctx, vma, pfn, E810_DB_PAGE_SIZE,
				pgprot_noncached(vma->vm_page_prot),
				rdma_entry);
	rdma_user_mmap_entry_put(rdma_entry);
	return err;
}

/* A PD is only an id on the E810 (0 is reserved): no device command. */
static int irdma_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct irdma_pd *pd = container_of(ibpd, struct irdma_pd, ibpd);
	struct irdma_device *iwdev = to_iwdev(ibpd->device);
	struct irdma_alloc_pd_resp resp = { };
	int id;

	if (udata && udata->outlen < sizeof(resp))
		return -EINVAL;
	id = ida_alloc_range(&iwdev->pd_ida, 1, irdma_max_pds(iwdev->rf) - 1,
			     GFP_KERNEL);
	if (id < 0)
		return id;
	pd->pd_id = id;
	if (udata) {
		resp.pd_id = id;
		if (ib_copy_to_udata(udata, &resp, sizeof(resp))) {
			ida_free(&iwdev->pd_ida, id);
			return -EFAULT;
		}
	}
	return 0;
}

static int irdma_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct irdma_pd *pd = container_of(ibpd, struct irdma_pd, ibpd);

	ida_free(&to_iwdev(ibpd->device)->pd_ida, pd->pd_id);
	return 0;
}

static const struct ib_device_ops irdma_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_IRDMA,
	.uverbs_abi_ver = IRDMA_ABI_VER,

	.query_device = irdma_query_device,
	.query_port = irdma_query_port,
	.get_port_immutable = irdma_get_port_immutable,
	.get_link_layer = irdma_get_link_layer,
	.query_pkey = irdma_query_pkey,
	.get_dev_fw_str = irdma_get_dev_fw_str,

	.alloc_ucontext = irdma_alloc_ucontext,
	.dealloc_ucontext = irdma_dealloc_ucontext,
	.disassociate_ucontext = irdma_disassociate_ucontext,
	.mmap = irdma_mmap,
	.mmap_free = irdma_mmap_free,
	.alloc_pd = irdma_alloc_pd,
	.dealloc_pd = irdma_dealloc_pd,
	.create_cq = irdma_create_cq,
	.destroy_cq = irdma_destroy_cq,
#ifdef IRDMA_HAVE_RESIZE_USER_CQ
	.resize_user_cq = irdma_resize_cq_user_op,
#else
	.resize_cq = irdma_resize_cq,
#endif
	.poll_cq = irdma_poll_cq,
	.req_notify_cq = irdma_req_notify_cq,
	.create_qp = irdma_create_qp,
	.modify_qp = irdma_modify_qp,
	.query_qp = irdma_query_qp,
	.destroy_qp = irdma_destroy_qp,
	.post_send = irdma_post_send,
	.post_recv = irdma_post_recv,
	.fill_res_qp_entry = irdma_fill_res_qp_entry,
	.fill_res_qp_entry_raw = irdma_fill_res_qp_entry_raw,
	.fill_res_cq_entry = irdma_fill_res_cq_entry,
	.fill_res_cq_entry_raw = irdma_fill_res_cq_entry_raw,

	INIT_RDMA_OBJ_SIZE(ib_ucontext, irdma_ucontext, ibucontext),
	INIT_RDMA_OBJ_SIZE(ib_pd, irdma_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_cq, irdma_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_qp, irdma_qp, ibqp),
};

/**
 * irdma_ib_port_event() - tell ib_core the port went up or down
 * @rf: per-function state
 * @active: the port is ACTIVE now
 *
 * Only changes are dispatched.
 *
 * Context: Any context that may sleep.
 */
void irdma_ib_port_event(struct irdma_pci_f *rf, bool active)
{
	struct ib_event ev = { };

	if (!rf->iwdev || rf->port_active == active)
		return;
	rf->port_active = active;
	ev.device = &rf->iwdev->ibdev;
	ev.element.port_num = 1;
	ev.event = active ? IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR;
	ib_dispatch_event(&ev);
	irdma_ev_inc(rf, active ? IRDMA_EV_PORT_UP : IRDMA_EV_PORT_DOWN);
	ibdev_dbg(&rf->iwdev->ibdev, "port 1 %s\n",
		  active ? "ACTIVE" : "DOWN");
}

/**
 * irdma_ib_register() - allocate and register the ib_device as irdma%d
 * @rf: per-function state; the engine is up
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_ib_register(struct irdma_pci_f *rf)
{
	struct irdma_device *iwdev;
	struct ib_device *ibdev;
	int err;

	iwdev = ib_alloc_device(irdma_device, ibdev);
	if (!iwdev)
		return -ENOMEM;
	iwdev->rf = rf;
	ida_init(&iwdev->pd_ida);
	xa_init_flags(&rf->cqs, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_BH);
	xa_init_flags(&rf->qps, XA_FLAGS_ALLOC | XA_FLAGS_LOCK_BH);
	init_waitqueue_head(&rf->suspend_wq);
	ibdev = &iwdev->ibdev;
	ibdev->node_type = rf->iwarp ? RDMA_NODE_RNIC : RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = 1 + rf->ceq_cnt;
	ibdev->dev.parent = &rf->pcidev->dev;
	addrconf_addr_eui48((u8 *)&ibdev->node_guid, rf->netdev->dev_addr);
	strscpy(ibdev->node_desc, "irdma", sizeof(ibdev->node_desc));
	/*
	 * ib_set_device_ops() fills only ops not set yet: the iWARP ones
	 * (port immutable data, iw_cm, the MAC as the one GID) go first.
	 * No AH, no multicast on iWARP.
	 */
	if (rf->iwarp) {
		irdma_iw_set_device_ops(ibdev);
		memcpy(ibdev->iw_ifname, rf->netdev->name,
		       sizeof(ibdev->iw_ifname));
	} else {
		ib_set_device_ops(ibdev, &irdma_roce_ops);
	}
	ib_set_device_ops(ibdev, &irdma_dev_ops);
	ib_set_device_ops(ibdev, &irdma_mem_ops);
	if (irdma_has_ops(rf, E810_GEN_OP_STATS))
		ib_set_device_ops(ibdev, &irdma_stats_ops);
	ib_set_device_ops(ibdev, &irdma_mw_ops);

	err = ib_device_set_netdev(ibdev, rf->netdev, 1);
	if (err)
		goto err_dealloc;
	err = irdma_hw_stats_init(rf);
	if (err)
		goto err_dealloc;
	err = ib_register_device(ibdev, "irdma%d", &rf->pcidev->dev);
	if (err)
		goto err_stats;
	rf->iwdev = iwdev;
	rf->port_active = false;
	irdma_ib_port_event(rf, irdma_port_up(rf));
	ibdev_dbg(ibdev, "registered on %s: %u QPs, %u CQs, %u MRs, firmware %u.%u\n",
		  netdev_name(rf->netdev), rf->hmc.obj[E810_HMC_QP].cnt,
		  rf->hmc.obj[E810_HMC_CQ].cnt, rf->hmc.obj[E810_HMC_MR].cnt,
		  rf->fw_major, rf->fw_minor);
	return 0;

err_stats:
	irdma_hw_stats_fini(rf);
err_dealloc:
	ib_dealloc_device(ibdev);
	return err;
}

/**
 * irdma_ib_unregister() - undo irdma_ib_register()
 * @rf: per-function state
 *
 * Context: Process context, sleeps.
 */
void irdma_ib_unregister(struct irdma_pci_f *rf)
{
	struct irdma_device *iwdev = rf->iwdev;

	if (!iwdev)
		return;
	rf->iwdev = NULL;
	ib_unregister_device(&iwdev->ibdev);
	irdma_hw_stats_fini(rf);
	ida_destroy(&iwdev->pd_ida);
	ib_dealloc_device(&iwdev->ibdev);
	/* ib_core destroyed every CQ and QP before unregistering returned. */
	WARN_ON(!xa_empty(&rf->cqs) || !xa_empty(&rf->qps));
	xa_destroy(&rf->cqs);
	xa_destroy(&rf->qps);
}
