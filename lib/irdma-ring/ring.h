/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The E810 ring layer, one copy for the kernel's QPs (irdma.ko) and the
 * rdma-core provider: SQ/RQ WQE encoding, NOP padding, ahead-clearing,
 * slack, polarity, doorbell batching decisions and CQE decoding (upstream
 * keeps this as irdma's uk.c, user/kernel). Formats: include/hw/e810_uk.h
 * and e810_ctx.h, described in docs/hw-reference.md chapter 5.
 *
 * Nothing here depends on libibverbs or on kernel objects: each home
 * compiles these files against its own "ring_os.h" (found on its include
 * path; provider-irdma/ and drivers/infiniband/hw/irdma/), which
 * provides the C types, errno values, memset() and ARRAY_SIZE(), and
 *   e810u_wmb(), e810u_rmb(), e810u_mb()  barriers towards/from the device
 *   E810U_DB, e810u_mmio_write32(db, v)    a 32-bit doorbell register
 *   E810U_SHADOW, e810u_shadow_get/set()   little-endian shadow-area qwords
 *   e810u_put64(), e810u_get64()           little-endian WQE/CQE qwords
 * The glue of each home translates its work requests (ibv_* or ib_*) into
 * e810u_* ones. tests/provider/ drives the layer on plain host memory.
 * Functions return 0 or a negative errno value, as the kernel's do; the
 * provider turns them into the positive ones libibverbs expects.
 */
#ifndef E810U_RING_H
#define E810U_RING_H

#include "ring_os.h"	/* from the including home: see above */
#include "hw/e810_uk.h"
#include "hw/e810_ctx.h"

/* One gather element; for inline data addr is a host pointer. */
struct e810u_sge {
	uint64_t addr;
	uint32_t len;
	uint32_t lkey;
};

/* A send work request in hardware terms (the glue fills it). */
struct e810u_swr {
	uint64_t wr_id;
	uint8_t op;		/* E810_OP_* */
	bool signaled;
	bool read_fence;
	bool local_fence;
	bool inline_data;
	bool has_imm;
	uint32_t imm;		/* host order, goes into qword 0 */
	const struct e810u_sge *sg;
	uint32_t num_sge;
	uint64_t remote_addr;	/* RDMA write/read */
	uint32_t rkey;		/* RDMA write/read: REMSTAG */
	uint32_t inv_stag;	/* SEND_INV: REMSTAGINV; LOCAL_INV: target */
	uint32_t ah_id;		/* UD */
	uint32_t dest_qpn;	/* UD */
	uint32_t qkey;		/* UD */
	/* BIND_MW: window VA (0 zero-based) in remote_addr, its STag in rkey */
	uint32_t bind_mr_stag;	/* parent MR */
	uint64_t bind_len;
	uint8_t bind_rights;	/* E810_ACCESS_REMOTE_READ/_WRITE */
	bool bind_type1;
	bool bind_zero_based;
	/*
	 * FAST_REG (kernel QPs): the region's VA in remote_addr and its STag
	 * in rkey; its page list and rights (E810_ACCESS_*).
	 */
	uint64_t fr_pbl_pa;	/* PBL (or single page) address */
	uint64_t fr_len;
	uint32_t fr_first_pble;
	uint8_t fr_levels;	/* E810_WQE_FR_LPBLSIZE */
	uint8_t fr_page_code;	/* E810_HPAGE_* */
	uint8_t fr_rights;
};

/*
 * The geometry and field layout of a hardware generation (include/hw,
 * struct e810_wq_geom), or NULL for one the layer does not know. Every
 * e810u_qp names its generation's; e810u_qp_reset() gives one without
 * any GEN_2's.
 */
const struct e810_wq_geom *e810u_geom(unsigned int gen);

/* FIELD_PREP() for a mask known at run time only (0: no such field). */
static inline uint64_t e810u_field(uint64_t mask, uint64_t v)
{
	return mask ? (v << __builtin_ctzll(mask)) & mask : 0;
}

/* Per-SQ-quantum bookkeeping: what completes when a CQE names it. */
struct e810u_sq_slot {
	uint64_t wr_id;
	uint32_t bytes;
	uint8_t quanta;
	uint8_t op;
	bool signaled;
};

struct e810u_qp {
	const struct e810_wq_geom *geom;
	/* SQ: ring of sq_quanta 32-byte quanta. */
	uint8_t *sq;
	uint32_t sq_quanta;
	uint32_t sq_head;	/* next free quantum */
	uint32_t sq_tail;	/* oldest outstanding quantum */
	uint8_t sq_pol;		/* valid bit of the current pass */
	struct e810u_sq_slot *sq_slots;	/* sq_quanta entries */
	uint32_t max_sq_frags;
	uint32_t max_inline;
	/* RQ: rq_size WQEs of (1 << rq_shift) quanta. */
	uint8_t *rq;
	uint32_t rq_size;
	uint8_t rq_shift;
	uint32_t rq_head;
	uint32_t rq_tail;
	uint8_t rq_pol;
	uint64_t *rq_wrid;	/* rq_size entries */
	uint32_t max_rq_frags;
	/* QP doorbell shadow area: the device's SQ tail (e810u_sq_kick). */
	E810U_SHADOW *shadow;
	uint32_t qp_id;
	/*
	 * iWARP: the first quanta of the SQ belong to the connection
	 * manager, which writes them on the first pass (valid bit 1) before
	 * the QP moves to RTS: the LSMM (MPA reply) or the RTR message, and
	 * with RTS_AE also a NOP with local fence and the GEN_RTS_AE WQE
	 * (upstream irdma_sc_send_lsmm(), irdma_sc_send_rtt(),
	 * irdma_sc_gen_rts_ae()). The device starts the SQ at index 0, so
	 * the first WQE of the owner goes right after them (upstream
	 * irdma_setup_connection_wqes()). 0 for RoCEv2 (create_qp's lsmm 0).
	 */
	uint8_t conn_wqes;
	bool ud;
	/* a kernel QP (FASTREGEN, PRIVEN): FAST_REG, RDMA_READ_LOC_INV */
	bool priv;
	/* Doorbell batching: quanta written since the last doorbell. */
	uint32_t unrung;
	E810U_DB *sq_db;	/* doorbell page + 0 */
	uint64_t doorbells;		/* rings so far (statistics, tests) */
	uint64_t doorbells_skipped;	/* device was still fetching */
	void *owner;		/* glue object (the completion context) */
};

/*
 * Ring sizes (hw-reference 5.1), the same for the kernel's QPs and CQs and
 * the provider's: both homes size their rings here, from their
 * generation's table, never from constants of their own.
 */
struct e810u_wq_caps {
	uint32_t max_send_wr;
	uint32_t max_recv_wr;
	uint32_t max_send_sge;
	uint32_t max_recv_sge;
	uint32_t max_inline;
};

/*
 * The caps of either home's verbs QP capabilities (struct ib_qp_cap and
 * struct ibv_qp_cap name their fields alike).
 */
#define E810U_WQ_CAPS(cap) {						\
	.max_send_wr = (cap)->max_send_wr,				\
	.max_recv_wr = (cap)->max_recv_wr,				\
	.max_send_sge = (cap)->max_send_sge,				\
	.max_recv_sge = (cap)->max_recv_sge,				\
	.max_inline = (cap)->max_inline_data,				\
}

struct e810u_wq_sizes {
	uint32_t sq_depth;	/* quanta, a power of two */
	uint32_t rq_depth;
	uint8_t sq_shift;	/* log2 of the quanta of one WQE */
	uint8_t rq_shift;
	uint32_t max_send_wr;	/* WQEs the rings really hold */
	uint32_t max_recv_wr;
};

/*
 * @min_quanta: fewest WQEs of a ring (min_hw_wq_size), @max_sq_quanta and
 * @max_rq_quanta the largest rings (the kernel tells the provider these
 * three; the kernel itself takes them from @g). @exact: the WR counts are
 * WQEs whose quanta must already be a power of two (providers without
 * raw attributes); otherwise the reserved quanta are added and the depth
 * rounded up. 0 or -EINVAL.
 */
int e810u_wq_sizes(const struct e810_wq_geom *g,
		   const struct e810u_wq_caps *caps, uint32_t min_quanta,
		   uint32_t max_sq_quanta, uint32_t max_rq_quanta, bool exact,
		   struct e810u_wq_sizes *out);
/* query_device's max_qp_wr: the largest WQEs in the largest SQ. */
uint32_t e810u_max_qp_wr(const struct e810_wq_geom *g);
/* CQ ring entries for @cqe completions: a CQE may take cqe_slots. */
uint32_t e810u_cq_entries(const struct e810_wq_geom *g, uint32_t cqe);

/*
 * The memory of a user CQ (hw-reference 6.4): the ring in whole pages and
 * its 64-byte shadow area. With the CQ resize feature (alloc_ucontext
 * feature_flags; GEN_2) the shadow is a buffer registered on its own, as
 * a resize replaces the ring only. Without it (GEN_1) the shadow is the
 * page after the ring, in the ring's registration, whose cq_pages count
 * the ring's pages only: the kernel takes the shadow from the page after
 * them (upstream rdma-core ucreate_cq(), irdma_reg_user_mr()).
 */
struct e810u_cq_bufs {
	uint32_t entries;	/* ring entries: the create command's cqe */
	uint32_t cq_pages;	/* irdma_mem_reg_req cq_pages of the ring */
	size_t ring_len;	/* bytes of the ring's buffer/registration */
	size_t shadow_off;	/* shadow in the ring's buffer; 0: its own */
};

void e810u_cq_bufs(const struct e810_wq_geom *g, bool resize_feature,
		   uint32_t cqe, uint32_t page_size, struct e810u_cq_bufs *out);
/* Quanta of a WQE with @frags fragments (the immediate counted). */
uint32_t e810u_frag_quanta(const struct e810_wq_geom *g, uint32_t frags);

/*
 * Quanta the connection manager takes at the start of an iWARP SQ (see
 * conn_wqes above): the LSMM or RTR WQE alone, or with the device's
 * RTS_AE feature (alloc_ucontext feature_flags) the NOP and the
 * GEN_RTS_AE WQE after it.
 */
#define E810U_CONN_WQES		1
#define E810U_CONN_WQES_RTS_AE	3

/*
 * SQ (sq.c). All return 0 or a negative errno. e810u_qp_reset() starts
 * the rings empty, the SQ at conn_wqes.
 */
void e810u_qp_reset(struct e810u_qp *qp);
int e810u_post_send(struct e810u_qp *qp, const struct e810u_swr *wr);
uint32_t e810u_sq_used(const struct e810u_qp *qp);
/* Position to roll back to (ibv_wr_abort). */
struct e810u_sq_mark {
	uint32_t head;
	uint32_t unrung;
	uint8_t pol;
};
void e810u_sq_mark(const struct e810u_qp *qp, struct e810u_sq_mark *m);
void e810u_sq_rollback(struct e810u_qp *qp, const struct e810u_sq_mark *m);
/* Rings the SQ doorbell once if anything was written since the last. */
bool e810u_sq_kick(struct e810u_qp *qp);

/* Fragment writer shared by SQ and RQ WQEs; returns ADDFRAGCNT. */
unsigned int e810u_put_frags(const struct e810_wq_geom *g, uint8_t *wqe,
			     const struct e810u_sge *sg, uint32_t num_sge,
			     bool imm, uint8_t pol);

/* RQ (rq.c). */
int e810u_post_recv(struct e810u_qp *qp, uint64_t wr_id,
		    const struct e810u_sge *sg, uint32_t num_sge);

/* CQ (cq.c). */
struct e810u_cq_ring {
	uint8_t *buf;
	uint32_t size;		/* 32-byte entries */
	uint32_t head;
	uint8_t pol;		/* expected valid bit at head */
};

struct e810u_cq {
	struct e810u_cq_ring ring;
	struct e810u_cq_ring old;	/* ring before a resize, drained first */
	bool draining;
	uint32_t resizes_done;	/* not yet reported in SW_CQ_SELECT */
	E810U_SHADOW *shadow;	/* 64-byte CQ shadow area */
	E810U_DB *arm_db;	/* doorbell page + 0x40 */
	uint32_t cq_id;
};

enum e810u_status {
	E810U_OK = 0,
	E810U_FLUSHED,		/* minor = flush code */
	E810U_ERROR,		/* major/minor = hardware codes */
};

/* One decoded completion. */
struct e810u_cqe {
	struct e810u_qp *qp;	/* from the completion context */
	uint64_t wr_id;
	enum e810u_status status;
	uint16_t major;
	uint16_t minor;
	bool sq;
	uint8_t op;		/* SQ: E810_OP_*; RQ: BTH opcode */
	uint32_t bytes;
	uint32_t qp_id;
	uint32_t src_qpn;	/* UD receive */
	uint32_t inv_stag;
	bool stag_valid;
	bool ipv4;
	bool solicited;
	bool imm_valid;
	uint32_t imm;		/* host order */
	bool smac_valid;
	uint8_t smac[6];
	bool vlan_valid;
	uint16_t vlan;
};

/*
 * The pieces e810u_cq_poll_one() is made of, for a home that finds the QP
 * of a CQE its own way (the kernel: by QP id) and keeps its own flush
 * bookkeeping. e810u_cqe_peek() reads the CQE at the head of @r (and its
 * extension) without consuming it: 0, or -ENOENT while it is not valid.
 */
struct e810u_cqe_raw {
	uint64_t hdr;
	uint64_t qw0;		/* E810_CQE_LEN_OFF */
	uint64_t ctx;		/* E810_CQE_CTX_OFF: the completion context */
	uint64_t qw2;		/* E810_CQE_QP_OFF */
	const uint8_t *ext;	/* the extension entry, or NULL */
};

bool e810u_cq_ring_has_cqe(const struct e810u_cq_ring *r);
int e810u_cqe_peek(const struct e810u_cq_ring *r, struct e810u_cqe_raw *raw);
/* Fills *out from @raw (qp left NULL); @ud: the QP is a UD QP. */
void e810u_cqe_decode(const struct e810u_cqe_raw *raw, bool ud,
		      struct e810u_cqe *out);
/* Steps @r past the entry peeked (two slots with an extension). */
void e810u_cq_ring_step(struct e810u_cq_ring *r, bool ext);
/*
 * Completes the SQ WQE at quantum @idx / the RQ WQE at @wqe_idx (the CQE's
 * WQEIDX); -EAGAIN for an index the ring does not hold.
 */
int e810u_sq_complete(struct e810u_qp *qp, uint32_t idx,
		      struct e810u_cqe *out);
int e810u_rq_complete(struct e810u_qp *qp, uint32_t wqe_idx,
		      struct e810u_cqe *out);

/*
 * Returns 0 and fills *out, -ENOENT when empty. A CQE's completion
 * context is the struct e810u_qp of its QP (user_compl_ctx).
 */
int e810u_cq_poll_one(struct e810u_cq *cq, struct e810u_cqe *out);
void e810u_cq_arm(struct e810u_cq *cq, bool solicited_only);
void e810u_cq_resize_begin(struct e810u_cq *cq, uint8_t *buf, uint32_t size);
/* Ends the drain of the old ring if it holds no CQE (before a resize). */
void e810u_cq_retire_old(struct e810u_cq *cq);
/* Neutralises the CQEs of a QP being destroyed (ctx set to 0). */
void e810u_cq_forget(struct e810u_cq *cq, void *ctx);
/* The same in one ring, for a home that finds CQEs' QPs by id. */
void e810u_cq_ring_forget_qp(struct e810u_cq_ring *r, uint32_t qp_id);

#endif /* E810U_RING_H */
