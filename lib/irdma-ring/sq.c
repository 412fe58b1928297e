// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * SQ side of the ring layer: queue geometry, WQE encoding for every GEN_2
 * opcode (the kernel's fast-register and read-with-invalidate included),
 * NOP padding so that no WQE crosses a 256-byte chunk,
 * ahead-clearing, and the doorbell batching decision
 * (docs/hw-reference.md 5.1-5.3, 5.5).
 */
#include "ring.h"
#include "hw/e810_cqp.h"

static uint32_t pow2_roundup(uint64_t v)
{
	uint64_t p = 1;

	while (p < v)
		p <<= 1;
	return p > (uint32_t)~0u ? 0 : (uint32_t)p;
}

static int wq_depth(uint32_t wr, unsigned int shift, uint32_t rsvd,
		    uint32_t min_quanta, uint32_t max_quanta, bool exact,
		    uint32_t *depth)
{
	uint64_t need = (uint64_t)wr << shift;
	uint32_t d;

	if (exact) {
		if (!need || (need & (need - 1)) || need > (uint32_t)~0u)
			return -EINVAL;
		d = (uint32_t)need;
	} else {
		d = pow2_roundup(need + rsvd);
		/* 0: more than 2^31 quanta, too big for any ring */
		if (!d)
			return -EINVAL;
	}
	if (d < ((uint64_t)min_quanta << shift))
		d = min_quanta << shift;
	if (!d || d > max_quanta)
		return -EINVAL;
	*depth = d;
	return 0;
}

static const struct e810_wq_geom geom_gen1 = E810_WQ_GEOM_GEN1;
static const struct e810_wq_geom geom_gen2 = E810_WQ_GEOM_GEN2;

/* Adding a generation: its include/hw entry here, and its encoder rules. */
static const struct e810_wq_geom *const geoms[] = {
	[E810_GEN_1] = &geom_gen1,
	[E810_GEN_2] = &geom_gen2,
};

const struct e810_wq_geom *e810u_geom(unsigned int gen)
{
	return gen < ARRAY_SIZE(geoms) ? geoms[gen] : NULL;
}

int e810u_wq_sizes(const struct e810_wq_geom *g,
		   const struct e810u_wq_caps *caps, uint32_t min_quanta,
		   uint32_t max_sq_quanta, uint32_t max_rq_quanta, bool exact,
		   struct e810u_wq_sizes *out)
{
	struct e810u_wq_sizes s;
	int ret;

	if (caps->max_send_sge > g->max_frags ||
	    caps->max_recv_sge > g->max_frags ||
	    caps->max_inline > g->max_inline)
		return -EINVAL;
	if (max_sq_quanta > g->max_wq_quanta)
		max_sq_quanta = g->max_wq_quanta;
	if (max_rq_quanta > g->max_rq_quanta)
		max_rq_quanta = g->max_rq_quanta;
	if (g->gen == E810_GEN_1) {
		/*
		 * GEN_1 (upstream irdma_get_wqe_shift(),
		 * irdma_uk_calc_shift_wq()): no immediate-data fragment,
		 * 2 quanta up to 3 fragments and 48 inline bytes; RQ WQEs
		 * of 4 quanta (IRDMA_MAX_RQ_WQE_SHIFT_GEN1, ABI 5).
		 */
		s.sq_shift = caps->max_send_sge <= 1 &&
			     caps->max_inline <= g->inline_q0_bytes ? 0 :
			     caps->max_send_sge < 4 &&
			     caps->max_inline <= g->max_inline ? 1 : 2;
		s.rq_shift = 2;
	} else {
		/* the SQ reserves room for the immediate-data fragment */
		s.sq_shift = e810_wqe_shift(caps->max_send_sge + 1,
					    caps->max_inline);
		s.rq_shift = e810_wqe_shift(caps->max_recv_sge, 0);
	}
	ret = wq_depth(caps->max_send_wr, s.sq_shift, g->sq_rsvd_quanta,
		       min_quanta, max_sq_quanta, exact, &s.sq_depth);
	if (ret)
		return ret;
	ret = wq_depth(caps->max_recv_wr, s.rq_shift, g->rq_rsvd_quanta,
		       min_quanta, max_rq_quanta, exact, &s.rq_depth);
	if (ret)
		return ret;
	s.max_send_wr = s.sq_depth > g->sq_rsvd_quanta ?
			(s.sq_depth - g->sq_rsvd_quanta) >> s.sq_shift : 0;
	s.max_recv_wr = s.rq_depth > g->rq_rsvd_quanta ?
			(s.rq_depth - g->rq_rsvd_quanta) >> s.rq_shift : 0;
	*out = s;
	return 0;
}

uint32_t e810u_max_qp_wr(const struct e810_wq_geom *g)
{
	return (g->max_wq_quanta - g->sq_rsvd_quanta) / g->max_sq_quanta;
}

uint32_t e810u_cq_entries(const struct e810_wq_geom *g, uint32_t cqe)
{
	uint64_t n = ((uint64_t)cqe + 1) * g->cqe_slots;

	return n < g->min_cq_entries ? g->min_cq_entries : (uint32_t)n;
}

void e810u_cq_bufs(const struct e810_wq_geom *g, bool resize_feature,
		   uint32_t cqe, uint32_t page_size, struct e810u_cq_bufs *out)
{
	uint32_t entries = e810u_cq_entries(g, cqe);
	uint64_t ring = (uint64_t)entries * E810_CQE_SIZE;

	out->entries = entries;
	out->cq_pages = (ring + page_size - 1) / page_size;
	out->ring_len = (size_t)out->cq_pages * page_size;
	out->shadow_off = 0;
	if (!resize_feature) {
		out->shadow_off = out->ring_len;
		out->ring_len += page_size;
	}
}

/* Fragment 0 in quantum 0, two per extra quantum (hw-reference 5.3). */
uint32_t e810u_frag_quanta(const struct e810_wq_geom *g, uint32_t frags)
{
	(void)g;
	return frags / 2 + 1;
}

void e810u_qp_reset(struct e810u_qp *qp)
{
	if (!qp->geom)
		qp->geom = &geom_gen2;
	/*
	 * The valid bit flips to 1 when index 0 is handed out; after the
	 * connection WQEs (iWARP) the first pass has already begun.
	 */
	qp->sq_head = qp->conn_wqes < qp->sq_quanta ? qp->conn_wqes : 0;
	qp->sq_tail = qp->sq_head;
	qp->sq_pol = qp->sq_head ? 1 : 0;
	qp->rq_head = 0;
	qp->rq_tail = 0;
	qp->rq_pol = 0;
	qp->unrung = 0;
}

uint32_t e810u_sq_used(const struct e810u_qp *qp)
{
	return (qp->sq_head + qp->sq_quanta - qp->sq_tail) % qp->sq_quanta;
}

static uint8_t *sq_at(struct e810u_qp *qp, uint32_t idx)
{
	return qp->sq + (size_t)idx * E810_WQE_QUANTUM;
}

/*
 * Hardware may read ahead of the tail it was told about, so 128 quanta
 * further on are made to look invalid for the pass that will use them
 * before software gets there (hw-reference 5.1, ahead-clearing).
 */
static void sq_clear_ahead(struct e810u_qp *qp, uint32_t idx)
{
	uint32_t window = qp->geom->clear_ahead_quanta;
	uint32_t ahead = idx + window;
	uint8_t pass_pol = qp->sq_pol;

	if (idx % window || qp->sq_quanta < 2 * window)
		return;
	if (ahead >= qp->sq_quanta) {
		ahead -= qp->sq_quanta;
		pass_pol = !pass_pol;
	}
	memset(sq_at(qp, ahead), pass_pol ? 0x00 : 0xff,
	       (size_t)window * E810_WQE_QUANTUM);
}

/* Hands out @quanta consecutive quanta at the head; no space checks. */
static uint32_t sq_take(struct e810u_qp *qp, unsigned int quanta)
{
	uint32_t idx = qp->sq_head;

	if (idx == 0)
		qp->sq_pol = !qp->sq_pol;
	sq_clear_ahead(qp, idx);
	qp->sq_head = (idx + quanta) % qp->sq_quanta;
	qp->unrung += quanta;
	return idx;
}

static void sq_write_nop(struct e810u_qp *qp)
{
	uint32_t idx = sq_take(qp, 1);
	uint8_t *wqe = sq_at(qp, idx);
	struct e810u_sq_slot *slot = &qp->sq_slots[idx];

	memset(slot, 0, sizeof(*slot));
	slot->quanta = 1;
	slot->op = E810_OP_NOP;
	e810u_put64(wqe, E810_WQE_FRAG0_ADDR_OFF, 0);
	e810u_put64(wqe, E810_WQE_FRAG0_DESC_OFF, 0);
	e810u_put64(wqe, E810_WQE_OPQ_OFF, 0);
	e810u_wmb();
	e810u_put64(wqe, E810_WQE_HDR_OFF,
		    FIELD_PREP(E810_WQE_OPCODE, E810_OP_NOP) |
		    FIELD_PREP(E810_WQE_VALID, qp->sq_pol));
}

/*
 * Reserves room for a WQE of @quanta quanta, padding the current 256-byte
 * chunk with NOPs first when the WQE would cross it. The ring always keeps
 * geometry's sq_slack_quanta free (ahead-clearing writes into that slack).
 */
static int sq_reserve(struct e810u_qp *qp, unsigned int quanta, uint32_t *idx)
{
	const struct e810_wq_geom *g = qp->geom;
	uint32_t in_chunk = qp->sq_head % g->chunk_quanta;
	uint32_t pad = 0;

	if (quanta > g->max_sq_quanta)
		return -EINVAL;
	if (in_chunk + quanta > g->chunk_quanta)
		pad = g->chunk_quanta - in_chunk;
	if ((uint64_t)e810u_sq_used(qp) + pad + quanta + g->sq_slack_quanta >
	    qp->sq_quanta)
		return -ENOMEM;
	while (pad--)
		sq_write_nop(qp);
	*idx = sq_take(qp, quanta);
	/*
	 * GEN_1's one encoder rule (upstream irdma_qp_get_next_send_wqe()):
	 * after a one-quantum WQE that leaves the head odd, the next
	 * quantum's header gets the other pass's valid bit, so that the
	 * device, which reads quanta in pairs, never takes its old contents
	 * for a WQE.
	 */
	if (g->gen == E810_GEN_1 && quanta == 1 && (qp->sq_head & 1))
		e810u_put64(sq_at(qp, qp->sq_head), E810_WQE_HDR_OFF,
			    FIELD_PREP(E810_WQE_VALID, qp->sq_pol ? 0 : 1));
	return 0;
}

static void put_frag(const struct e810_wq_geom *g, uint8_t *wqe, size_t off,
		     const struct e810u_sge *sg, uint8_t pol)
{
	uint64_t desc = e810u_field(g->frag_valid, pol);

	if (sg)
		desc |= e810u_field(g->frag_stag, sg->lkey) |
			e810u_field(g->frag_len, sg->len);
	e810u_put64(wqe, off, sg ? sg->addr : 0);
	e810u_put64(wqe, off + 8, desc);
}

/*
 * Writes the fragments of a WQE and returns its ADDFRAGCNT. Without
 * immediate data SGE 0 sits in quantum 0; with it, qword 0 holds the
 * immediate and every SGE moves to off 32. An even fragment count gets an
 * empty trailing fragment so every quantum ends with a valid bit.
 */
unsigned int e810u_put_frags(const struct e810_wq_geom *g, uint8_t *wqe,
			     const struct e810u_sge *sg, uint32_t num_sge,
			     bool imm, uint8_t pol)
{
	uint32_t frags = num_sge + (imm ? 1 : 0);
	unsigned int addfrags = frags > 1 ? frags - 1 : 0;
	size_t off = E810_WQE_EXT_FRAG_OFF;
	uint32_t i = 0;

	if (imm) {
		e810u_put64(wqe, E810_WQE_FRAG0_DESC_OFF, 0);
	} else {
		put_frag(g, wqe, E810_WQE_FRAG0_ADDR_OFF, num_sge ? sg : NULL,
			 pol);
		i = 1;
	}
	for (; i < num_sge; i++, off += E810_WQE_FRAG_SIZE)
		put_frag(g, wqe, off, &sg[i], pol);
	if (g->frag_pad && frags && !(frags & 1)) {
		put_frag(g, wqe, off, NULL, pol);
		addfrags++;
	}
	return addfrags;
}

static uint32_t sg_bytes(const struct e810u_sge *sg, uint32_t n)
{
	uint32_t total = 0;

	while (n--)
		total += sg++->len;
	return total;
}

/*
 * Inline payload: q0 bytes in quantum 0 at q0_off, then qn bytes from the
 * start of each extra quantum, whose last byte may be the inline-valid
 * byte (the generation's e810_inline_*() of include/hw).
 */
static uint32_t inline_quanta(const struct e810_wq_geom *g, uint32_t len)
{
	if (len <= g->inline_q0_bytes)
		return 1;
	return 1 + (len - g->inline_q0_bytes + g->inline_qn_bytes - 1) /
		   g->inline_qn_bytes;
}

/* Copies @len bytes from @src to payload byte @pos on. */
static void inline_put(const struct e810_wq_geom *g, uint8_t *wqe,
		       uint32_t pos, const uint8_t *src, uint32_t len)
{
	while (len) {
		uint32_t off, n;

		if (pos < g->inline_q0_bytes) {
			off = g->inline_q0_off + pos;
			n = g->inline_q0_bytes - pos;
		} else {
			uint32_t i = pos - g->inline_q0_bytes;

			off = (1 + i / g->inline_qn_bytes) * E810_WQE_QUANTUM +
			      i % g->inline_qn_bytes;
			n = g->inline_qn_bytes - i % g->inline_qn_bytes;
		}
		if (n > len)
			n = len;
		memcpy(wqe + off, src, n);
		src += n;
		pos += n;
		len -= n;
	}
}

/* Inline payload over quanta cleared first. */
static void put_inline(const struct e810_wq_geom *g, uint8_t *wqe,
		       const struct e810u_sge *sg, uint32_t num_sge,
		       uint32_t len, uint8_t pol)
{
	unsigned int quanta = inline_quanta(g, len);
	uint32_t done = 0;
	unsigned int q;

	memset(wqe + g->inline_q0_off, 0, g->inline_q0_bytes);
	for (q = 1; q < quanta; q++) {
		memset(wqe + q * E810_WQE_QUANTUM, 0, g->inline_qn_bytes);
		if (g->inline_valid_byte)
			wqe[(q + 1) * E810_WQE_QUANTUM - 1] =
				pol ? 1 << E810_INLINE_VALID_SHIFT : 0;
	}
	for (; num_sge; num_sge--, sg++) {
		inline_put(g, wqe, done, (const uint8_t *)(uintptr_t)sg->addr,
			   sg->len);
		done += sg->len;
	}
}

static bool op_takes_imm(uint8_t op)
{
	return op == E810_OP_RDMA_WRITE || op == E810_OP_RDMA_WRITE_SOL ||
	       op == E810_OP_SEND || op == E810_OP_SEND_SOL;
}

static int check_wr(const struct e810u_qp *qp, const struct e810u_swr *wr,
		    unsigned int *quanta, uint32_t *bytes)
{
	const struct e810_wq_geom *g = qp->geom;

	switch (wr->op) {
	case E810_OP_RDMA_WRITE:
	case E810_OP_RDMA_WRITE_SOL:
	case E810_OP_SEND:
	case E810_OP_SEND_SOL:
	case E810_OP_SEND_INV:
	case E810_OP_SEND_SOL_INV:
	case E810_OP_RDMA_READ:
	case E810_OP_RDMA_READ_LOC_INV:
	case E810_OP_LOCAL_INV:
	case E810_OP_BIND_MW:
	case E810_OP_FAST_REG:
		break;
	default:
		return -EINVAL;
	}
	/* the device takes these from privileged (kernel) QPs only */
	if ((wr->op == E810_OP_FAST_REG ||
	     wr->op == E810_OP_RDMA_READ_LOC_INV) && !qp->priv)
		return -EINVAL;
	if (wr->has_imm && (!op_takes_imm(wr->op) || !g->imm_frag))
		return -EINVAL;
	if (qp->ud && wr->op != E810_OP_SEND && wr->op != E810_OP_SEND_SOL)
		return -EINVAL;	/* UD has sends only, without invalidation */
	if (wr->op == E810_OP_LOCAL_INV || wr->op == E810_OP_BIND_MW ||
	    wr->op == E810_OP_FAST_REG) {
		*quanta = 1;
		*bytes = 0;
		return 0;
	}
	/* bound the list before walking it */
	if (wr->num_sge > g->max_frags + 2u ||
	    (!wr->inline_data && wr->num_sge > qp->max_sq_frags))
		return -EINVAL;
	/* GEN_1 reads into one buffer only (max_hw_read_sges) */
	if ((wr->op == E810_OP_RDMA_READ ||
	     wr->op == E810_OP_RDMA_READ_LOC_INV) &&
	    wr->num_sge > g->max_read_sges)
		return -EINVAL;
	*bytes = sg_bytes(wr->sg, wr->num_sge);
	if (wr->inline_data) {
		if (wr->op == E810_OP_RDMA_READ ||
		    wr->op == E810_OP_RDMA_READ_LOC_INV ||
		    *bytes > qp->max_inline ||
		    *bytes > g->max_inline)
			return -EINVAL;
		*quanta = inline_quanta(g, *bytes);
		return 0;
	}
	*quanta = e810u_frag_quanta(g, wr->num_sge + (wr->has_imm ? 1 : 0));
	return *quanta > g->max_sq_quanta ? -EINVAL : 0;
}

int e810u_post_send(struct e810u_qp *qp, const struct e810u_swr *wr)
{
	const struct e810_wq_geom *g = qp->geom;
	unsigned int quanta, addfrags = 0;
	struct e810u_sq_slot *slot;
	uint64_t hdr, opq = 0;
	uint32_t idx, bytes;
	uint8_t *wqe;
	int ret;

	ret = check_wr(qp, wr, &quanta, &bytes);
	if (ret)
		return ret;
	ret = sq_reserve(qp, quanta, &idx);
	if (ret)
		return ret;
	wqe = sq_at(qp, idx);

	hdr = FIELD_PREP(E810_WQE_OPCODE, wr->op) |
	      FIELD_PREP(E810_WQE_READFENCE, wr->read_fence) |
	      FIELD_PREP(E810_WQE_LOCALFENCE, wr->local_fence) |
	      FIELD_PREP(E810_WQE_SIGCOMPL, wr->signaled) |
	      FIELD_PREP(E810_WQE_VALID, qp->sq_pol);

	switch (wr->op) {
	case E810_OP_RDMA_WRITE:
	case E810_OP_RDMA_WRITE_SOL:
	case E810_OP_RDMA_READ:
	case E810_OP_RDMA_READ_LOC_INV:
		opq = wr->remote_addr;
		hdr |= FIELD_PREP(E810_WQE_REMSTAG, wr->rkey);
		break;
	case E810_OP_SEND_INV:
	case E810_OP_SEND_SOL_INV:
		hdr |= FIELD_PREP(E810_WQE_REMSTAG, wr->inv_stag);
		break;
	default:
		break;
	}
	if (qp->ud) {
		opq = FIELD_PREP(E810_WQE_UD_QKEY, wr->qkey) |
		      FIELD_PREP(E810_WQE_UD_DESTQPN, wr->dest_qpn);
		hdr |= FIELD_PREP(E810_WQE_AHID, wr->ah_id);
	}

	if (wr->op == E810_OP_BIND_MW) {
		/*
		 * One quantum (irdma_uk_mw_bind()): window VA, parent and
		 * window STags, length; rights and addressing in the header.
		 */
		e810u_put64(wqe, E810_WQE_FRAG0_ADDR_OFF,
			    wr->bind_zero_based ? 0 : wr->remote_addr);
		e810u_put64(wqe, E810_WQE_FRAG0_DESC_OFF,
			    e810u_field(g->bind_parent_stag,
					wr->bind_mr_stag) |
			    e810u_field(g->bind_mw_stag, wr->rkey));
		opq = FIELD_PREP(E810_WQE_BIND_LEN, wr->bind_len);
		hdr |= FIELD_PREP(E810_WQE_STAGRIGHTS, wr->bind_rights &
				  (E810_ACCESS_REMOTE_READ |
				   E810_ACCESS_REMOTE_WRITE)) |
		       (wr->bind_zero_based ? 0 : E810_WQE_VABASEDTO) |
		       FIELD_PREP(E810_WQE_MEMWINDOWTYPE, wr->bind_type1);
	} else if (wr->op == E810_OP_FAST_REG) {
		/*
		 * One quantum (irdma_sc_mr_fast_register()): VA, PBL address
		 * and first PBLE, length; the STag and PBL shape in the
		 * header.
		 */
		e810u_put64(wqe, E810_WQE_FRAG0_ADDR_OFF, wr->remote_addr);
		e810u_put64(wqe, E810_WQE_FRAG0_DESC_OFF,
			    (wr->fr_pbl_pa & E810_WQE_FR_PBLADDR) |
			    FIELD_PREP(E810_WQE_FR_PBLIDX_HI,
				       wr->fr_first_pble >> 16));
		opq = FIELD_PREP(E810_WQE_FR_LEN, wr->fr_len) |
		      FIELD_PREP(E810_WQE_FR_PBLIDX_LO,
				 wr->fr_first_pble & 0xFFFF);
		hdr |= FIELD_PREP(E810_WQE_FR_STAGKEY, wr->rkey & 0xFF) |
		       FIELD_PREP(E810_WQE_FR_STAGINDEX, wr->rkey >> 8) |
		       FIELD_PREP(E810_WQE_FR_LPBLSIZE, wr->fr_levels) |
		       FIELD_PREP(E810_WQE_FR_HPAGESIZE, wr->fr_page_code) |
		       FIELD_PREP(E810_WQE_STAGRIGHTS, wr->fr_rights) |
		       E810_WQE_VABASEDTO;
	} else if (wr->op == E810_OP_LOCAL_INV) {
		/* qword 1 carries the STag with the valid bit clear */
		e810u_put64(wqe, E810_WQE_FRAG0_ADDR_OFF, 0);
		e810u_put64(wqe, E810_WQE_FRAG0_DESC_OFF,
			    FIELD_PREP(E810_WQE_INV_STAG, wr->inv_stag));
	} else if (wr->inline_data) {
		e810u_put64(wqe, E810_WQE_IMM_OFF, wr->has_imm ? wr->imm : 0);
		put_inline(g, wqe, wr->sg, wr->num_sge, bytes, qp->sq_pol);
		hdr |= E810_WQE_INLINEDATAFLAG |
		       FIELD_PREP(E810_WQE_INLINEDATALEN, bytes);
	} else {
		if (wr->has_imm)
			e810u_put64(wqe, E810_WQE_IMM_OFF, wr->imm);
		addfrags = e810u_put_frags(g, wqe, wr->sg, wr->num_sge,
					   wr->has_imm, qp->sq_pol);
		hdr |= FIELD_PREP(E810_WQE_ADDFRAGCNT, addfrags);
	}
	if (wr->has_imm)
		hdr |= E810_WQE_IMMDATAFLAG;
	e810u_put64(wqe, E810_WQE_OPQ_OFF, opq);

	slot = &qp->sq_slots[idx];
	slot->wr_id = wr->wr_id;
	slot->bytes = bytes;
	slot->quanta = quanta;
	slot->op = wr->op;
	slot->signaled = wr->signaled;

	/* the header's valid bit publishes the WQE: everything else first */
	e810u_wmb();
	e810u_put64(wqe, E810_WQE_HDR_OFF, hdr);
	return 0;
}

/*
 * The doorbell is skipped while the device is still fetching older WQEs:
 * its SQ tail in the shadow area lies before the first new quantum, and it
 * walks on while valid bits match (hw-reference 5.1: it writes its tail,
 * then looks at the ring once more before it stops). This is the kernel's
 * irdma_uk_qp_post_wr() rule; a tail inside the new WQEs means it may have
 * stopped there, so it is told. Under emulation each doorbell is a trap
 * into the device model, on hardware an uncached write.
 */
bool e810u_sq_kick(struct e810u_qp *qp)
{
	uint32_t n = qp->sq_quanta, from, hw;

	if (!qp->unrung)
		return false;
	from = (qp->sq_head + n - qp->unrung) % n;
	qp->unrung = 0;
	/*
	 * headers visible to the device, and stored before the tail is
	 * loaded (a store-load order: a full barrier)
	 */
	e810u_wmb();
	e810u_mb();
	if (qp->shadow) {
		hw = FIELD_GET(E810_QP_DBSA_HW_SQ_TAIL,
			       e810u_shadow_get(qp->shadow, 0)) % n;
		if ((hw + n - from) % n >= (qp->sq_head + n - from) % n) {
			qp->doorbells_skipped++;
			return false;
		}
	}
	e810u_mmio_write32(qp->sq_db, qp->qp_id);
	qp->doorbells++;
	return true;
}

void e810u_sq_mark(const struct e810u_qp *qp, struct e810u_sq_mark *m)
{
	m->head = qp->sq_head;
	m->pol = qp->sq_pol;
	m->unrung = qp->unrung;
}

/*
 * Takes back everything written since @m (ibv_wr_abort, or a failed
 * ibv_wr_complete): the quanta are made invalid for the pass they were
 * written in, so that a later doorbell cannot expose them.
 */
void e810u_sq_rollback(struct e810u_qp *qp, const struct e810u_sq_mark *m)
{
	uint8_t pol = m->pol;
	uint32_t i;

	for (i = m->head; i != qp->sq_head; i = (i + 1) % qp->sq_quanta) {
		if (i == 0)
			pol = !pol;
		memset(sq_at(qp, i), pol ? 0x00 : 0xff, E810_WQE_QUANTUM);
		memset(&qp->sq_slots[i], 0, sizeof(qp->sq_slots[i]));
	}
	qp->sq_head = m->head;
	qp->sq_pol = m->pol;
	qp->unrung = m->unrung;
}
