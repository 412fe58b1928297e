// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * Device-level verbs of the E810 provider: device and port queries,
 * protection domains, memory regions, address handles, and the
 * registered queue buffers that CQs and QPs are built on (docs/hw-reference.md
 * 6.4).
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e810p.h"

int e810p_query_device_ex(struct ibv_context *ctx,
			  const struct ibv_query_device_ex_input *input,
			  struct ibv_device_attr_ex *attr, size_t attr_size)
{
	struct ib_uverbs_ex_query_device_resp resp = {};
	size_t resp_size = sizeof(resp);
	uint64_t fw;
	int ret;

	ret = ibv_cmd_query_device_any(ctx, input, attr, attr_size, &resp,
				       &resp_size);
	if (ret)
		return ret;
	/* the kernel packs the firmware version as major << 32 | minor */
	fw = resp.base.fw_ver;
	snprintf(attr->orig_attr.fw_ver, sizeof(attr->orig_attr.fw_ver),
		 "%u.%u", (unsigned int)((fw >> 32) & 0xffff),
		 (unsigned int)(fw & 0xffff));
	return 0;
}

int e810p_query_port(struct ibv_context *ctx, uint8_t port,
		     struct ibv_port_attr *attr)
{
	struct ibv_query_port cmd;

	return ibv_cmd_query_port(ctx, port, attr, &cmd, sizeof(cmd));
}

struct ibv_pd *e810p_alloc_pd(struct ibv_context *ctx)
{
	struct e810p_alloc_pd_resp resp = {};
	struct ibv_alloc_pd cmd;
	struct e810p_pd *pd;
	int ret;

	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return NULL;
	ret = ibv_cmd_alloc_pd(ctx, &pd->ibv_pd, &cmd, sizeof(cmd),
			       &resp.ibv_resp, sizeof(resp));
	if (ret) {
		free(pd);
		errno = ret;
		return NULL;
	}
	pd->pd_id = resp.pd_id;
	return &pd->ibv_pd;
}

int e810p_dealloc_pd(struct ibv_pd *ibpd)
{
	int ret = ibv_cmd_dealloc_pd(ibpd);

	if (!ret)
		free(to_epd(ibpd));
	return ret;
}

struct ibv_mr *e810p_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			    uint64_t hca_va, int access)
{
	struct ib_uverbs_reg_mr_resp resp;
	struct e810p_reg_mr cmd = {};
	struct verbs_mr *vmr;
	int ret;

	vmr = calloc(1, sizeof(*vmr));
	if (!vmr)
		return NULL;
	cmd.reg_type = IRDMA_MEMREG_TYPE_MEM;
	ret = ibv_cmd_reg_mr(pd, addr, length, hca_va, access, vmr,
			     &cmd.ibv_cmd, sizeof(cmd), &resp, sizeof(resp));
	if (ret) {
		free(vmr);
		errno = ret;
		return NULL;
	}
	return &vmr->ibv_mr;
}

/* dma-buf MRs carry no driver data: the kernel treats them as MEM. */
struct ibv_mr *e810p_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				   size_t length, uint64_t iova, int fd,
				   int access)
{
	struct verbs_mr *vmr;
	int ret;

	vmr = calloc(1, sizeof(*vmr));
	if (!vmr)
		return NULL;
	ret = ibv_cmd_reg_dmabuf_mr(pd, offset, length, iova, fd, access, vmr,
				    NULL);
	if (ret) {
		free(vmr);
		errno = ret;
		return NULL;
	}
	return &vmr->ibv_mr;
}

int e810p_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		   void *addr, size_t length, int access)
{
	struct ib_uverbs_rereg_mr_resp resp;
	struct e810p_rereg_mr cmd = {};

	cmd.reg_type = IRDMA_MEMREG_TYPE_MEM;
	return ibv_cmd_rereg_mr(vmr, flags, addr, length, (uintptr_t)addr,
				access, pd, &cmd.ibv_cmd, sizeof(cmd), &resp,
				sizeof(resp));
}

int e810p_dereg_mr(struct verbs_mr *vmr)
{
	int ret = ibv_cmd_dereg_mr(vmr);

	if (!ret)
		free(vmr);
	return ret;
}

struct ibv_ah *e810p_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)
{
	struct e810p_create_ah_resp resp = {};
	struct e810p_ah *ah;
	int ret;

	/* iWARP has no address handles (no UD QPs to use them) */
	if (pd->context->device->transport_type == IBV_TRANSPORT_IWARP) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	ah = calloc(1, sizeof(*ah));
	if (!ah)
		return NULL;
	ret = ibv_cmd_create_ah(pd, &ah->ibv_ah, attr, &resp.ibv_resp,
				sizeof(resp));
	if (ret) {
		free(ah);
		errno = ret;
		return NULL;
	}
	ah->ah_id = resp.ah_id;
	return &ah->ibv_ah;
}

int e810p_destroy_ah(struct ibv_ah *ibah)
{
	int ret = ibv_cmd_destroy_ah(ibah);

	if (!ret)
		free(to_eah(ibah));
	return ret;
}

/* Queue memory: page aligned, zeroed (entries start invalid), kept out
 * of fork()ed children because the device keeps writing to it. */
int e810p_qbuf_alloc(struct e810p_qbuf *b, size_t len)
{
	int ret;

	memset(b, 0, sizeof(*b));
	len = (len + E810P_PAGE - 1) & ~(size_t)(E810P_PAGE - 1);
	ret = posix_memalign(&b->va, E810P_PAGE, len);
	if (ret)
		return ret;
	memset(b->va, 0, len);
	ret = ibv_dontfork_range(b->va, len);
	if (ret) {
		free(b->va);
		b->va = NULL;
		return ret;
	}
	b->len = len;
	return 0;
}

/* Registers a queue buffer: no STag, the kernel only pins and records the
 * pages for the create/resize command that follows. */
int e810p_qbuf_register(struct e810p_qbuf *b, struct ibv_pd *pd,
			struct irdma_mem_reg_req *req)
{
	struct ib_uverbs_reg_mr_resp resp;
	struct e810p_reg_mr cmd = {};
	int ret;

	cmd.reg_type = req->reg_type;
	cmd.cq_pages = req->cq_pages;
	cmd.rq_pages = req->rq_pages;
	cmd.sq_pages = req->sq_pages;
	ret = ibv_cmd_reg_mr(pd, b->va, b->len, (uintptr_t)b->va,
			     IBV_ACCESS_LOCAL_WRITE, &b->mr, &cmd.ibv_cmd,
			     sizeof(cmd), &resp, sizeof(resp));
	if (!ret)
		b->registered = true;
	return ret;
}

void e810p_qbuf_free(struct e810p_qbuf *b)
{
	if (!b->va)
		return;
	if (b->registered)
		ibv_cmd_dereg_mr(&b->mr);
	ibv_dofork_range(b->va, b->len);
	free(b->va);
	memset(b, 0, sizeof(*b));
}
