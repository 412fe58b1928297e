/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Verbs glue of the E810 provider: the objects libibverbs hands around,
 * wrapping the state of the shared ring layer (lib/irdma-ring/ring.h),
 * and the uverbs commands with the irdma driver data (ABI version 5,
 * docs/hw-reference.md chapter 6).
 */
#ifndef E810P_H
#define E810P_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <infiniband/driver.h>
#include <infiniband/kern-abi.h>
#include <rdma/irdma-abi.h>
#include <kernel-abi/irdma-abi.h>

#include "hw/e810_regs.h"
#include "ring.h"

#define E810P_PAGE		4096
#define E810P_HW_REV_GEN2	2
#define E810P_FEAT_RTS_AE	(1ull << 0)
#define E810P_FEAT_CQ_RESIZE	(1ull << 1)
/* create_qp response qp_caps (docs/hw-reference.md 6.2) */
#define E810P_QP_CAP_WRITE_IMM	(1u << 0)
#define E810P_QP_CAP_SEND_IMM	(1u << 1)

DECLARE_DRV_CMD(e810p_get_context, IB_USER_VERBS_CMD_GET_CONTEXT,
		irdma_alloc_ucontext_req, irdma_alloc_ucontext_resp);
DECLARE_DRV_CMD(e810p_alloc_pd, IB_USER_VERBS_CMD_ALLOC_PD,
		empty, irdma_alloc_pd_resp);
DECLARE_DRV_CMD(e810p_reg_mr, IB_USER_VERBS_CMD_REG_MR,
		irdma_mem_reg_req, empty);
DECLARE_DRV_CMD(e810p_rereg_mr, IB_USER_VERBS_CMD_REREG_MR,
		irdma_mem_reg_req, empty);
DECLARE_DRV_CMD(e810p_create_cq, IB_USER_VERBS_EX_CMD_CREATE_CQ,
		irdma_create_cq_req, irdma_create_cq_resp);
DECLARE_DRV_CMD(e810p_resize_cq, IB_USER_VERBS_CMD_RESIZE_CQ,
		irdma_resize_cq_req, empty);
DECLARE_DRV_CMD(e810p_create_qp, IB_USER_VERBS_CMD_CREATE_QP,
		irdma_create_qp_req, irdma_create_qp_resp);
DECLARE_DRV_CMD(e810p_create_ah, IB_USER_VERBS_CMD_CREATE_AH,
		empty, irdma_create_ah_resp);

struct e810p_device {
	struct verbs_device vdev;
};

struct e810p_context {
	struct verbs_context vctx;
	void *db;			/* mmapped doorbell page */
	struct ibv_pd *queue_pd;	/* registers CQ rings and shadows */
	uint64_t features;
	uint8_t hw_rev;
	const struct e810_wq_geom *geom;	/* e810u_geom(hw_rev) */
	bool raw_attrs;
	uint32_t max_frags;
	uint32_t max_read_sges;
	uint32_t max_inline;
	uint32_t max_rq_quanta;
	uint32_t max_wq_quanta;
	uint32_t min_cq_size;
	uint32_t max_cq_size;
	uint32_t min_wq_quanta;
};

struct e810p_pd {
	struct ibv_pd ibv_pd;
	uint32_t pd_id;
};

/* A page-aligned zeroed buffer registered with the kernel. */
struct e810p_qbuf {
	void *va;
	size_t len;
	struct verbs_mr mr;
	bool registered;
};

struct e810p_cq {
	struct verbs_cq vcq;
	pthread_spinlock_t lock;
	struct e810u_cq uk;
	struct e810p_qbuf ring;
	struct e810p_qbuf old_ring;	/* until drained after a resize */
	struct e810p_qbuf shadow;
	uint64_t wc_flags;		/* extended CQ: requested fields */
	struct e810u_cqe cur;		/* extended CQ: current entry */
};

struct e810p_qp {
	struct verbs_qp vqp;
	pthread_spinlock_t lock;
	struct e810u_qp uk;
	struct e810p_qbuf buf;
	uint32_t sq_size;		/* WRs the application may post */
	uint32_t rq_size;
	/*
	 * E810P_QP_CAP_*: the immediate forms the kernel allows (iWARP:
	 * no SEND with immediate, hence no RoCE opcode in receive CQEs)
	 */
	uint32_t caps;
	bool sig_all;
	/* ibv_wr_* state: one WR is assembled, then written to the ring */
	struct {
		bool open;
		bool pending;
		int err;
		struct e810u_sq_mark mark;
		struct e810u_swr wr;
		struct e810u_sge sge[E810_MAX_FRAGS + 2];
		uint8_t inl[E810_MAX_INLINE + 1];
	} x;
};

struct e810p_ah {
	struct ibv_ah ibv_ah;
	uint32_t ah_id;
};

#define to_ectx(c)	container_of((c), struct e810p_context, vctx.context)
#define to_epd(p)	container_of((p), struct e810p_pd, ibv_pd)
#define to_ecq(c)	container_of((c), struct e810p_cq, vcq.cq)
#define to_eqp(q)	container_of((q), struct e810p_qp, vqp.qp)
#define to_eah(a)	container_of((a), struct e810p_ah, ibv_ah)

/* verbs_dev.c */
int e810p_query_device_ex(struct ibv_context *ctx,
			  const struct ibv_query_device_ex_input *input,
			  struct ibv_device_attr_ex *attr, size_t attr_size);
int e810p_query_port(struct ibv_context *ctx, uint8_t port,
		     struct ibv_port_attr *attr);
struct ibv_pd *e810p_alloc_pd(struct ibv_context *ctx);
int e810p_dealloc_pd(struct ibv_pd *pd);
struct ibv_mr *e810p_reg_mr(struct ibv_pd *pd, void *addr, size_t length,
			    uint64_t hca_va, int access);
struct ibv_mr *e810p_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset,
				   size_t length, uint64_t iova, int fd,
				   int access);
int e810p_rereg_mr(struct verbs_mr *vmr, int flags, struct ibv_pd *pd,
		   void *addr, size_t length, int access);
int e810p_dereg_mr(struct verbs_mr *vmr);
struct ibv_ah *e810p_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr);
int e810p_destroy_ah(struct ibv_ah *ah);
int e810p_qbuf_alloc(struct e810p_qbuf *b, size_t len);
int e810p_qbuf_register(struct e810p_qbuf *b, struct ibv_pd *pd,
			struct irdma_mem_reg_req *req);
void e810p_qbuf_free(struct e810p_qbuf *b);

/* verbs_cq.c */
struct ibv_cq *e810p_create_cq(struct ibv_context *ctx, int cqe,
			       struct ibv_comp_channel *ch, int vec);
struct ibv_cq_ex *e810p_create_cq_ex(struct ibv_context *ctx,
				     struct ibv_cq_init_attr_ex *attr);
int e810p_destroy_cq(struct ibv_cq *cq);
int e810p_poll_cq(struct ibv_cq *cq, int n, struct ibv_wc *wc);
int e810p_req_notify_cq(struct ibv_cq *cq, int solicited_only);
int e810p_resize_cq(struct ibv_cq *cq, int cqe);
enum ibv_wc_status e810p_wc_status(const struct e810u_cqe *c);
enum ibv_wc_opcode e810p_wc_opcode(const struct e810u_cqe *c);

/* verbs_qp.c */
struct ibv_qp *e810p_create_qp(struct ibv_pd *pd,
			       struct ibv_qp_init_attr *attr);
struct ibv_qp *e810p_create_qp_ex(struct ibv_context *ctx,
				  struct ibv_qp_init_attr_ex *attr);
int e810p_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask,
		   struct ibv_qp_init_attr *init);
int e810p_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask);
int e810p_destroy_qp(struct ibv_qp *qp);
int e810p_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr,
		    struct ibv_send_wr **bad);
int e810p_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr,
		    struct ibv_recv_wr **bad);
int e810p_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		       uint16_t lid);
int e810p_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid,
		       uint16_t lid);

/* verbs_mw.c */
struct ibv_mw *e810p_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type);
int e810p_dealloc_mw(struct ibv_mw *mw);
int e810p_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw,
		  struct ibv_mw_bind *bind);
int e810p_bind_wr_to_uk(bool ud, const struct ibv_send_wr *wr,
			struct e810u_swr *s);

/* verbs_qpx.c */
void e810p_qpx_init(struct e810p_qp *qp, uint64_t send_ops);
#define E810P_QPX_SEND_OPS \
	(IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM | \
	 IBV_QP_EX_WITH_SEND_WITH_INV | IBV_QP_EX_WITH_RDMA_WRITE | \
	 IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM | IBV_QP_EX_WITH_RDMA_READ | \
	 IBV_QP_EX_WITH_LOCAL_INV | IBV_QP_EX_WITH_BIND_MW)

#endif /* E810P_H */
