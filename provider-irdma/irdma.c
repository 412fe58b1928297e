// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma provider for the E810 project: device matching, context
 * allocation with ABI negotiation, the doorbell page and the ops table.
 *
 * Claims devices exported by the irdma kernel driver (driver id
 * RDMA_DRIVER_IRDMA, uverbs ABI 5), with the E810/E82x and X722 PCI ids as
 * a fallback for kernels that do not report the driver id. A context is
 * opened for a generation the ring layer has the geometry of
 * (e810u_geom(): GEN_1 X722, hw_rev 1, and GEN_2 E810, hw_rev 2); the
 * legacy libi40iw ABI (a kernel that reports no hw_rev) is not spoken.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "e810p.h"

#define E810P_PCI(dev)	VERBS_PCI_MATCH(0x8086, (dev), NULL)

static const struct verbs_match_ent e810p_match[] = {
	VERBS_DRIVER_ID(RDMA_DRIVER_IRDMA),
	/* E810 and E82x (ice) */
	E810P_PCI(0x124C), E810P_PCI(0x124D), E810P_PCI(0x124E),
	E810P_PCI(0x124F), E810P_PCI(0x151D), E810P_PCI(0x1591),
	E810P_PCI(0x1592), E810P_PCI(0x1593), E810P_PCI(0x1599),
	E810P_PCI(0x159A), E810P_PCI(0x159B), E810P_PCI(0x188A),
	E810P_PCI(0x188B), E810P_PCI(0x188C), E810P_PCI(0x188D),
	E810P_PCI(0x188E), E810P_PCI(0x1890), E810P_PCI(0x1891),
	E810P_PCI(0x1892), E810P_PCI(0x1893), E810P_PCI(0x1894),
	E810P_PCI(0x1897), E810P_PCI(0x1898), E810P_PCI(0x1899),
	E810P_PCI(0x189A),
	/* X722 (i40e): matched so that the open fails with a reason */
	E810P_PCI(0x374C), E810P_PCI(0x374D), E810P_PCI(0x37CE),
	E810P_PCI(0x37CF), E810P_PCI(0x37D0), E810P_PCI(0x37D1),
	E810P_PCI(0x37D2), E810P_PCI(0x37D3), E810P_PCI(0x37CD),
	E810P_PCI(0x37D9),
	{},
};

static void e810p_free_context(struct ibv_context *ibctx);

static const struct verbs_context_ops e810p_ctx_ops = {
	.query_device_ex = e810p_query_device_ex,
	.query_port = e810p_query_port,
	.alloc_pd = e810p_alloc_pd,
	.dealloc_pd = e810p_dealloc_pd,
	.reg_mr = e810p_reg_mr,
	.reg_dmabuf_mr = e810p_reg_dmabuf_mr,
	.rereg_mr = e810p_rereg_mr,
	.dereg_mr = e810p_dereg_mr,
	.alloc_mw = e810p_alloc_mw,
	.dealloc_mw = e810p_dealloc_mw,
	.bind_mw = e810p_bind_mw,
	.create_cq = e810p_create_cq,
	.create_cq_ex = e810p_create_cq_ex,
	.destroy_cq = e810p_destroy_cq,
	.poll_cq = e810p_poll_cq,
	.req_notify_cq = e810p_req_notify_cq,
	.resize_cq = e810p_resize_cq,
	.create_qp = e810p_create_qp,
	.create_qp_ex = e810p_create_qp_ex,
	.query_qp = e810p_query_qp,
	.modify_qp = e810p_modify_qp,
	.destroy_qp = e810p_destroy_qp,
	.post_send = e810p_post_send,
	.post_recv = e810p_post_recv,
	.attach_mcast = e810p_attach_mcast,
	.detach_mcast = e810p_detach_mcast,
	.create_ah = e810p_create_ah,
	.destroy_ah = e810p_destroy_ah,
	.free_context = e810p_free_context,
};

/* ABI 5 first (raw attributes), then 4 as older kernels accept. */
static int e810p_negotiate(struct e810p_context *ctx,
			   struct e810p_get_context_resp *resp)
{
	struct e810p_get_context cmd = {};
	static const uint8_t versions[] = { IRDMA_ABI_VER, 4 };
	unsigned int i;
	int ret = EOPNOTSUPP;

	for (i = 0; i < sizeof(versions); i++) {
		memset(resp, 0, sizeof(*resp));
		cmd.userspace_ver = versions[i];
		cmd.comp_mask = IRDMA_ALLOC_UCTX_USE_RAW_ATTR;
		ret = ibv_cmd_get_context(&ctx->vctx, &cmd.ibv_cmd,
					  sizeof(cmd), &resp->ibv_resp,
					  sizeof(*resp));
		if (!ret)
			return 0;
	}
	return ret;
}

static int e810p_take_limits(struct e810p_context *ctx,
			     const struct e810p_get_context_resp *resp)
{
	/*
	 * hw_rev 0 is the i40iw kernel's legacy ABI (upstream
	 * i40iw_set_hw_attrs()), which this provider does not speak.
	 */
	ctx->geom = resp->hw_rev ? e810u_geom(resp->hw_rev) : NULL;
	if (!ctx->geom) {
		verbs_err(&ctx->vctx,
			  "e810: hw_rev %u not supported (GEN_1 or GEN_2)\n",
			  resp->hw_rev);
		return EOPNOTSUPP;
	}
	ctx->hw_rev = resp->hw_rev;
	ctx->features = resp->feature_flags;
	ctx->max_frags = resp->max_hw_wq_frags;
	ctx->max_read_sges = resp->max_hw_read_sges;
	ctx->max_inline = resp->max_hw_inline;
	ctx->max_rq_quanta = resp->max_hw_rq_quanta;
	ctx->max_wq_quanta = resp->max_hw_wq_quanta;
	ctx->min_cq_size = resp->min_hw_cq_size;
	ctx->max_cq_size = resp->max_hw_cq_size;
	ctx->raw_attrs = resp->comp_mask & IRDMA_ALLOC_UCTX_USE_RAW_ATTR;
	ctx->min_wq_quanta =
		resp->comp_mask & IRDMA_ALLOC_UCTX_MIN_HW_WQ_SIZE ?
		resp->min_hw_wq_size : E810_MIN_WQ_QUANTA;
	/* keep the ring layer inside what the WQE format can express */
	if (ctx->max_frags > ctx->geom->max_frags)
		ctx->max_frags = ctx->geom->max_frags;
	if (ctx->max_read_sges > ctx->geom->max_read_sges)
		ctx->max_read_sges = ctx->geom->max_read_sges;
	if (ctx->max_rq_quanta > ctx->geom->max_rq_quanta)
		ctx->max_rq_quanta = ctx->geom->max_rq_quanta;
	if (ctx->max_wq_quanta > ctx->geom->max_wq_quanta)
		ctx->max_wq_quanta = ctx->geom->max_wq_quanta;
	if (ctx->max_inline > ctx->geom->max_inline)
		ctx->max_inline = ctx->geom->max_inline;
	if (!ctx->min_wq_quanta)
		ctx->min_wq_quanta = E810_MIN_WQ_QUANTA;
	return 0;
}

static struct verbs_context *e810p_alloc_context(struct ibv_device *ibdev,
						 int cmd_fd,
						 void *private_data)
{
	struct e810p_get_context_resp resp;
	struct e810p_context *ctx;
	int ret;

	(void)private_data;
	ctx = verbs_init_and_alloc_context(ibdev, cmd_fd, ctx, vctx,
					   RDMA_DRIVER_IRDMA);
	if (!ctx)
		return NULL;
	ret = e810p_negotiate(ctx, &resp);
	if (ret)
		goto err_ctx;
	ret = e810p_take_limits(ctx, &resp);
	if (ret)
		goto err_ctx;
	verbs_set_ops(&ctx->vctx, &e810p_ctx_ops);

	ctx->db = mmap(NULL, E810P_PAGE, PROT_READ | PROT_WRITE, MAP_SHARED,
		       cmd_fd, resp.db_mmap_key);
	if (ctx->db == MAP_FAILED) {
		ret = errno;
		goto err_ctx;
	}
	/* CQ rings are registered before the application has a PD */
	ctx->queue_pd = e810p_alloc_pd(&ctx->vctx.context);
	if (!ctx->queue_pd) {
		ret = errno;
		goto err_db;
	}
	return &ctx->vctx;

err_db:
	munmap(ctx->db, E810P_PAGE);
err_ctx:
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
	errno = ret;
	return NULL;
}

static void e810p_free_context(struct ibv_context *ibctx)
{
	struct e810p_context *ctx = to_ectx(ibctx);

	e810p_dealloc_pd(ctx->queue_pd);
	munmap(ctx->db, E810P_PAGE);
	verbs_uninit_context(&ctx->vctx);
	free(ctx);
}

static struct verbs_device *
e810p_device_alloc(struct verbs_sysfs_dev *sysfs_dev)
{
	struct e810p_device *dev;

	(void)sysfs_dev;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return NULL;
	return &dev->vdev;
}

static void e810p_device_free(struct verbs_device *vdev)
{
	free(container_of(vdev, struct e810p_device, vdev));
}

static const struct verbs_device_ops e810p_dev_ops = {
	.name = "irdma",
	.match_min_abi_version = 0,
	.match_max_abi_version = IRDMA_ABI_VER,
	.match_table = e810p_match,
	.alloc_device = e810p_device_alloc,
	.uninit_device = e810p_device_free,
	.alloc_context = e810p_alloc_context,
};

PROVIDER_DRIVER(irdma, e810p_dev_ops);
