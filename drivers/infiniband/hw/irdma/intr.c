// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: CEQ 0 and the AEQ on the parent's RDMA MSI-X vectors
 * (docs/hw-reference.md 4.2-4.5, docs/irdma.md "Interrupts").
 *
 * Vector entry 0 of the parent's list serves the AEQ. With more entries
 * than online CPUs CEQ 0 gets entry 1 and CEQ k entry k + 1; otherwise
 * entry 0 serves the AEQ and CEQ 0 from one handler and CEQ k gets entry
 * k, as upstream's irdma_save_msix_info() and irdma_cfg_ceq_vector()
 * ("AEQCEQ") share it. The device masks a vector when it fires; the
 * hard interrupt handler only schedules the queue's tasklet, which drains
 * the queues and re-enables the vector through GLINT_DYN_CTL, as
 * upstream's irdma_irq_handler() / irdma_ceq_handler() schedule
 * irdma_dpc() / irdma_ceq_dpc(). A threaded handler would cost a second
 * wake-up (the irq thread, then the waiter) per completion event
 * (docs/irdma.md "Interrupts"). Everything below runs in softirq
 * context and must not sleep. CEQ 0 carries the CCQ's events: the
 * tasklet completes CQP requests and re-arms the CCQ.
 */

#include <linux/bitfield.h>
#include <linux/interrupt.h>

#include <hw/e810_ctx.h>
#include <hw/e810_regs.h>

#include "main.h"

#define IRDMA_CEQ0_SIZE_MIN	64
#define IRDMA_AEQ_SIZE_MIN	64

struct irdma_ae_desc {
	u16 code;
	const char *text;
};

static const struct irdma_ae_desc irdma_ae_descs[] = {
	{ E810_AE_AMP_UNALLOCATED_STAG, "unallocated STag" },
	{ E810_AE_AMP_INVALID_STAG, "invalid STag" },
	{ E810_AE_AMP_BAD_QP, "bad QP" },
	{ E810_AE_AMP_BAD_PD, "bad PD" },
	{ E810_AE_AMP_BAD_STAG_KEY, "bad STag key" },
	{ E810_AE_AMP_BAD_STAG_INDEX, "bad STag index" },
	{ E810_AE_AMP_BOUNDS_VIOLATION, "memory bounds violation" },
	{ E810_AE_AMP_RIGHTS_VIOLATION, "memory access rights violation" },
	{ E810_AE_AMP_TO_WRAP, "tagged offset wrap" },
	{ E810_AE_AMP_FASTREG_VALID_STAG, "fast register of a valid STag" },
	{ E810_AE_AMP_FASTREG_MW_STAG, "fast register of a MW STag" },
	{ E810_AE_AMP_FASTREG_INVALID_RIGHTS, "fast register: invalid rights" },
	{ E810_AE_AMP_FASTREG_INVALID_LENGTH, "fast register: invalid length" },
	{ E810_AE_AMP_INVALIDATE_SHARED, "invalidate of a shared STag" },
	{ E810_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS,
	  "invalidate without remote access rights" },
	{ E810_AE_AMP_INVALIDATE_MR_WITH_BOUND_WINDOWS,
	  "invalidate of a MR with bound windows" },
	{ E810_AE_AMP_MWBIND_VALID_STAG, "MW bind to a valid STag" },
	{ E810_AE_AMP_MWBIND_OF_MR_STAG, "MW bind of a MR STag" },
	{ E810_AE_AMP_MWBIND_TO_ZERO_BASED_STAG, "MW bind to a zero-based STag" },
	{ E810_AE_AMP_MWBIND_TO_MW_STAG, "MW bind to a MW STag" },
	{ E810_AE_AMP_MWBIND_INVALID_RIGHTS, "MW bind: invalid rights" },
	{ E810_AE_AMP_MWBIND_INVALID_BOUNDS, "MW bind: invalid bounds" },
	{ E810_AE_AMP_MWBIND_TO_INVALID_PARENT, "MW bind to an invalid parent" },
	{ E810_AE_AMP_MWBIND_BIND_DISABLED, "MW bind disabled" },
	{ E810_AE_PRIV_OPERATION_DENIED, "privileged operation denied" },
	{ E810_AE_AMP_INVALIDATE_TYPE1_MW, "invalidate of a type 1 MW" },
	{ E810_AE_AMP_MWBIND_ZERO_BASED_TYPE1_MW,
	  "MW bind: zero-based type 1 MW" },
	{ E810_AE_AMP_FASTREG_INVALID_PBL_HPS_CFG,
	  "fast register: invalid PBL page size" },
	{ E810_AE_AMP_MWBIND_WRONG_TYPE, "MW bind: wrong type" },
	{ E810_AE_AMP_FASTREG_PBLE_MISMATCH, "fast register: PBLE mismatch" },
	{ E810_AE_UDA_XMIT_DGRAM_TOO_LONG, "UD send: datagram too long" },
	{ E810_AE_UDA_XMIT_BAD_PD, "UD send: bad PD" },
	{ E810_AE_UDA_XMIT_DGRAM_TOO_SHORT, "UD send: datagram too short" },
	{ E810_AE_UDA_L4LEN_INVALID, "UD: invalid L4 length" },
	{ E810_AE_BAD_CLOSE, "bad close" },
	{ E810_AE_RDMAP_ROE_BAD_LLP_CLOSE, "RDMAP: bad LLP close" },
	{ E810_AE_CQ_OPERATION_ERROR, "CQ operation error (overflow?)" },
	{ E810_AE_RDMA_READ_WHILE_ORD_ZERO, "RDMA read while ORD is zero" },
	{ E810_AE_STAG_ZERO_INVALID, "STag zero invalid" },
	{ E810_AE_IB_RREQ_AND_Q1_FULL, "read request with Q1 full" },
	{ E810_AE_IB_INVALID_REQUEST, "invalid request" },
	{ E810_AE_WQE_UNEXPECTED_OPCODE, "unexpected WQE opcode" },
	{ E810_AE_WQE_INVALID_PARAMETER, "invalid WQE parameter" },
	{ E810_AE_WQE_INVALID_FRAG_DATA, "invalid WQE fragment data" },
	{ E810_AE_IB_REMOTE_ACCESS_ERROR, "remote access error" },
	{ E810_AE_IB_REMOTE_OP_ERROR, "remote operation error" },
	{ E810_AE_WQE_LSMM_TOO_LONG, "LSMM too long" },
	{ E810_AE_DDP_INVALID_MSN_GAP_IN_MSN, "DDP: gap in MSN" },
	{ E810_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER,
	  "DDP: message too long for the buffer" },
	{ E810_AE_DDP_UBE_INVALID_DDP_VERSION, "DDP: invalid version" },
	{ E810_AE_DDP_UBE_INVALID_MO, "DDP: invalid MO" },
	{ E810_AE_DDP_UBE_INVALID_MSN_NO_BUFFER_AVAILABLE,
	  "DDP: no buffer for MSN" },
	{ E810_AE_DDP_UBE_INVALID_QN, "DDP: invalid QN" },
	{ E810_AE_DDP_NO_L_BIT, "DDP: no L bit" },
	{ E810_AE_RDMAP_ROE_INVALID_RDMAP_VERSION, "RDMAP: invalid version" },
	{ E810_AE_RDMAP_ROE_UNEXPECTED_OPCODE, "RDMAP: unexpected opcode" },
	{ E810_AE_ROE_INVALID_RDMA_READ_REQUEST, "invalid RDMA read request" },
	{ E810_AE_ROE_INVALID_RDMA_WRITE_OR_READ_RESP,
	  "invalid RDMA write or read response" },
	{ E810_AE_ROCE_RSP_LENGTH_ERROR, "RoCE response length error" },
	{ E810_AE_ROCE_EMPTY_MCG, "RoCE: empty multicast group" },
	{ E810_AE_ROCE_BAD_MC_IP_ADDR, "RoCE: bad multicast IP address" },
	{ E810_AE_ROCE_BAD_MC_QPID, "RoCE: bad multicast QP" },
	{ E810_AE_MCG_QP_PROTOCOL_MISMATCH, "multicast QP protocol mismatch" },
	{ E810_AE_INVALID_ARP_ENTRY, "invalid ARP entry" },
	{ E810_AE_INVALID_TCP_OPTION_RCVD, "invalid TCP option received" },
	{ E810_AE_STALE_ARP_ENTRY, "stale ARP entry" },
	{ E810_AE_INVALID_AH_ENTRY, "invalid AH entry" },
	{ E810_AE_LLP_CLOSE_COMPLETE, "LLP close complete" },
	{ E810_AE_LLP_CONNECTION_RESET, "LLP connection reset" },
	{ E810_AE_LLP_FIN_RECEIVED, "LLP FIN received" },
	{ E810_AE_LLP_RECEIVED_MARKER_AND_LENGTH_FIELDS_DONT_MATCH,
	  "LLP marker and length mismatch" },
	{ E810_AE_LLP_RECEIVED_MPA_CRC_ERROR, "LLP MPA CRC error" },
	{ E810_AE_LLP_SEGMENT_TOO_SMALL, "LLP segment too small" },
	{ E810_AE_LLP_SYN_RECEIVED, "LLP SYN received" },
	{ E810_AE_LLP_TERMINATE_RECEIVED, "terminate received" },
	{ E810_AE_LLP_TOO_MANY_RETRIES, "too many retries" },
	{ E810_AE_LLP_TOO_MANY_KEEPALIVE_RETRIES, "too many keepalive retries" },
	{ E810_AE_LLP_DOUBT_REACHABILITY, "doubt reachability" },
	{ E810_AE_LLP_CONNECTION_ESTABLISHED, "connection established" },
	{ E810_AE_LLP_TOO_MANY_RNRS, "too many RNR NAKs" },
	{ E810_AE_RESOURCE_EXHAUSTION, "resource exhaustion" },
	{ E810_AE_RESET_SENT, "reset sent" },
	{ E810_AE_TERMINATE_SENT, "terminate sent" },
	{ E810_AE_RESET_NOT_SENT, "reset not sent" },
	{ E810_AE_LCE_QP_CATASTROPHIC, "QP catastrophic error" },
	{ E810_AE_LCE_FUNCTION_CATASTROPHIC, "function catastrophic error" },
	{ E810_AE_LCE_CQ_CATASTROPHIC, "CQ catastrophic error" },
	{ E810_AE_REMOTE_QP_CATASTROPHIC, "remote QP catastrophic error" },
	{ E810_AE_LOCAL_QP_CATASTROPHIC, "local QP catastrophic error" },
	{ E810_AE_RCE_QP_CATASTROPHIC, "RCE QP catastrophic error" },
	{ E810_AE_QP_SUSPEND_COMPLETE, "QP suspend complete" },
	{ E810_AE_CQP_DEFERRED_COMPLETE, "CQP deferred completion" },
	{ E810_AE_ADAPTER_CATASTROPHIC, "adapter catastrophic error" },
};

/**
 * irdma_ae_name() - readable text of an AE code
 * @code: the AE code of an AEQE
 *
 * Return: the text, or "unknown AE" for a code E810_AE_* does not name.
 */
const char *irdma_ae_name(u16 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(irdma_ae_descs); i++)
		if (irdma_ae_descs[i].code == code)
			return irdma_ae_descs[i].text;
	return "unknown AE";
}

/*
 * The dynamic control register of @eq's vector: GEN_2's GLINT_DYN_CTL(v),
 * GEN_1's PFINT_DYN_CTLN(v - 1) (upstream irdma_ena_intr(),
 * i40iw_ena_irq()); the fields are the same.
 */
static u32 irdma_eq_dyn_ctl(const struct irdma_eq *eq)
{
	const struct e810_pe_regs *r = &eq->rf->gen->regs;

	return r->dyn_ctl + 4 * (eq->vector - r->dyn_ctl_first);
}

/* Re-enables the vector of @eq (the device masked it when it fired). */
static void irdma_eq_enable(struct irdma_eq *eq)
{
	irdma_wr32(eq->rf, irdma_eq_dyn_ctl(eq),
		   E810_GLINT_DYN_CTL_INTENA | E810_GLINT_DYN_CTL_CLEARPBA |
		   FIELD_PREP(E810_GLINT_DYN_CTL_ITR_INDX, E810_ITR_IDX_NONE));
}

static void irdma_eq_disable(struct irdma_eq *eq)
{
	irdma_wr32(eq->rf, irdma_eq_dyn_ctl(eq), 0);
}

/*
 * Routes CEQ @eq's events to its vector (or, @on false, stops them):
 * GLINT_CEQCTL on GEN_2; on GEN_1 PFINT_CEQCTL ending the vector's cause
 * list, which PFINT_LNKLSTN starts with the CEQ (upstream
 * i40iw_config_ceq()).
 */
static void irdma_ceq_route(struct irdma_pci_f *rf, struct irdma_eq *eq,
			    bool on)
{
	u32 ctl = IRDMA_REG(rf, ceqctl) + 4 * eq->id;

	if (!on) {
		irdma_wr32(rf, ctl, 0);
		return;
	}
	if (IRDMA_REG(rf, lnklstn)) {
		irdma_wr32(rf, IRDMA_REG(rf, lnklstn) +
			   4 * (eq->vector - IRDMA_REG(rf, dyn_ctl_first)),
			   FIELD_PREP(E810_GEN1_LNKLSTN_FIRSTQ_INDX, eq->id) |
			   FIELD_PREP(E810_GEN1_LNKLSTN_FIRSTQ_TYPE,
				      E810_GEN1_QUEUE_TYPE_PE_CEQ));
		irdma_wr32(rf, ctl, E810_INT_CTL_CAUSE_ENA |
			   FIELD_PREP(E810_INT_CTL_MSIX_INDX, eq->vector) |
			   FIELD_PREP(E810_INT_CTL_ITR_INDX, E810_ITR_IDX_NONE) |
			   FIELD_PREP(E810_GEN1_CEQCTL_NEXTQ_INDX,
				      E810_GEN1_CEQCTL_NEXTQ_NONE));
		return;
	}
	irdma_wr32(rf, ctl, E810_INT_CTL_CAUSE_ENA |
		   FIELD_PREP(E810_INT_CTL_MSIX_INDX, eq->vector) |
		   FIELD_PREP(E810_INT_CTL_ITR_INDX, E810_ITR_IDX_NONE));
}

static void irdma_eq_advance(struct irdma_eq *eq)
{
	eq->head++;
	eq->events++;
	if (eq->head == eq->size) {
		eq->head = 0;
		eq->polarity = !eq->polarity;
	}
}

/* A CEQ: every CEQE names a CQ by its context; CEQ 0 also the CCQ. */
static void irdma_ceq_drain(struct irdma_eq *eq)
{
	struct irdma_pci_f *rf = eq->rf;
	bool ccq = false;
	u64 e, ctx;

	for (;;) {
		e = irdma_get64(&eq->ring, eq->head * E810_CEQE_SIZE);
		if (!!(e & E810_CEQE_VALID) != eq->polarity)
			break;
		irdma_eq_advance(eq);
		ctx = FIELD_GET(E810_CEQE_CQCTX, e);
		if (eq->id == 0 && ctx == 0)
			ccq = true;
		else if (ctx && ctx <= E810_CQPSQ_CQ_CQID)
			/* Verbs CQs: the context is the CQ id (cq.c). */
			irdma_cq_ceq_event(rf, ctx);
		else
			dev_warn_ratelimited(irdma_rf_to_dev(rf),
					     "CEQ %u: event for unknown CQ context 0x%llx\n",
					     eq->id, ctx);
	}
	if (ccq) {
		irdma_ccq_process(rf);
		irdma_wr32(rf, IRDMA_REG(rf, cqack), FIELD_PREP(E810_CQACK_CQID, 0));
		irdma_ccq_arm(rf);
		/* Anything that came before the arm took effect. */
		irdma_ccq_process(rf);
	}
}

/* CEQ k's tasklet (upstream's irdma_ceq_dpc()). */
static void irdma_ceq_dpc(struct tasklet_struct *t)
{
	struct irdma_eq *eq = from_tasklet(eq, t, dpc);

	irdma_ceq_drain(eq);
	irdma_eq_enable(eq);
}

/*
 * An AE about a verbs QP or CQ goes to qp.c / cq.c, which look the object
 * up by the id in the AEQE. Returns true if such an object took it.
 */
static bool irdma_ae_dispatch(struct irdma_pci_f *rf, u64 info, u32 id)
{
	u16 code = FIELD_GET(E810_AEQE_AECODE, info);
	u8 src = FIELD_GET(E810_AEQE_AESRC, info);

	/* Counted for the TC change waiting on it, then the QP sees it too. */
	if (code == E810_AE_QP_SUSPEND_COMPLETE)
		irdma_tc_suspend_ae(rf, id);
	switch (src) {
	case E810_AE_SOURCE_CQ:
	case E810_AE_SOURCE_CQ_0110:
	case E810_AE_SOURCE_CQ_1010:
	case E810_AE_SOURCE_CQ_1110:
		return irdma_cq_ae(rf, id, code);
	default:
		if (code == E810_AE_LCE_FUNCTION_CATASTROPHIC ||
		    code == E810_AE_ADAPTER_CATASTROPHIC)
			return false;
		return irdma_qp_ae(rf, id, code, src,
				   FIELD_GET(E810_AEQE_WQDESCIDX, info),
				   FIELD_GET(E810_AEQE_Q2DATA, info),
				   FIELD_GET(E810_AEQE_TCPSTATE, info),
				   FIELD_GET(E810_AEQE_IWSTATE, info));
	}
}

/* The AEQ: decode and log each entry, give the entries back. */
static void irdma_aeq_drain(struct irdma_eq *eq)
{
	struct irdma_pci_f *rf = eq->rf;
	u32 n = 0, id;
	u64 info, ctx;
	u16 code;

	for (;;) {
		size_t off = (size_t)eq->head * E810_AEQE_SIZE;

		info = irdma_get64(&eq->ring, off + E810_AEQE_INFO_OFF);
		if (!!(info & E810_AEQE_VALID) != eq->polarity)
			break;
		dma_rmb();
		ctx = irdma_get64(&eq->ring, off + E810_AEQE_CTX_OFF);
		code = FIELD_GET(E810_AEQE_AECODE, info);
		id = FIELD_GET(E810_AEQE_QPCQID_LOW, info) |
		     (FIELD_GET(E810_AEQE_QPCQID_HI, info) << 18);
		irdma_eq_advance(eq);
		n++;
		if (irdma_ae_dispatch(rf, info, id))
			continue;
		dev_warn_ratelimited(irdma_rf_to_dev(rf),
				     "AE 0x%04x (%s): source 0x%llx id %u wqe %llu ctx 0x%llx%s\n",
				     code, irdma_ae_name(code),
				     FIELD_GET(E810_AEQE_AESRC, info), id,
				     FIELD_GET(E810_AEQE_WQDESCIDX, info), ctx,
				     (info & E810_AEQE_OVERFLOW) ?
				     " (AEQ overflow)" : "");
		if (code == E810_AE_LCE_FUNCTION_CATASTROPHIC ||
		    code == E810_AE_ADAPTER_CATASTROPHIC)
			irdma_schedule_reset(rf, irdma_ae_name(code));
	}
	if (n)
		irdma_wr32(rf, IRDMA_REG(rf, aeqalloc), n);
}

/* The AEQ's own vector's tasklet (upstream's irdma_dpc(), not shared). */
static void irdma_aeq_dpc(struct tasklet_struct *t)
{
	struct irdma_eq *eq = from_tasklet(eq, t, dpc);

	irdma_aeq_drain(eq);
	irdma_eq_enable(eq);
}

/*
 * Entry 0 when it is shared (the tasklet is CEQ 0's): CEQ 0, then the AEQ
 * once it exists, then the vector re-enabled once, as upstream's
 * irdma_dpc().
 */
static void irdma_aeqceq_dpc(struct tasklet_struct *t)
{
	struct irdma_eq *ceq = from_tasklet(ceq, t, dpc);
	struct irdma_pci_f *rf = ceq->rf;

	irdma_ceq_drain(ceq);
	/* Pairs with the release in irdma_aeq_setup(): the AEQ is set up. */
	if (smp_load_acquire(&rf->aeq_on_ceq0))
		irdma_aeq_drain(&rf->aeq);
	irdma_eq_enable(ceq);
}

/* Every vector: the device masked it; the tasklet does the rest. */
static irqreturn_t irdma_eq_irq_handler(int irq, void *data)
{
	struct irdma_eq *eq = data;

	tasklet_schedule(&eq->dpc);
	return IRQ_HANDLED;
}

/* Ring and CREATE_CEQ / CREATE_AEQ (CCQ completions must work). */
static int irdma_eq_create(struct irdma_pci_f *rf, struct irdma_eq *eq,
			   bool aeq, u32 size)
{
	u64 q[8] = { };
	int err;

	eq->rf = rf;
	eq->size = size;
	eq->head = 0;
	eq->polarity = true;
	err = irdma_dma_alloc(rf, &eq->ring,
			      size * (aeq ? E810_AEQE_SIZE : E810_CEQE_SIZE),
			      GFP_KERNEL);
	if (err)
		return err;
	q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = aeq ?
		FIELD_PREP(E810_CQPSQ_AEQ_AEQECNT, size) :
		FIELD_PREP(E810_CQPSQ_CEQ_CEQSIZE, size);
	q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = eq->ring.pa;
	err = irdma_cqp_exec(rf, aeq ? E810_CQP_OP_CREATE_AEQ :
			     E810_CQP_OP_CREATE_CEQ,
			     aeq ? 0 : FIELD_PREP(E810_CQPSQ_CEQ_CEQID, eq->id),
			     q, NULL);
	if (err) {
		irdma_dma_free(rf, &eq->ring);
		return err;
	}
	eq->created = true;
	return 0;
}

static void irdma_eq_destroy(struct irdma_pci_f *rf, struct irdma_eq *eq,
			     bool aeq)
{
	u64 q[8] = { };

	if (!eq->created)
		return;
	q[E810_QW(E810_CQPSQ_EQ_SIZE_OFF)] = aeq ?
		FIELD_PREP(E810_CQPSQ_AEQ_AEQECNT, eq->size) :
		FIELD_PREP(E810_CQPSQ_CEQ_CEQSIZE, eq->size);
	q[E810_QW(E810_CQPSQ_EQ_PA_OFF)] = eq->ring.pa;
	if (!rf->resetting &&
	    irdma_cqp_exec(rf, aeq ? E810_CQP_OP_DESTROY_AEQ :
			   E810_CQP_OP_DESTROY_CEQ,
			   aeq ? 0 : FIELD_PREP(E810_CQPSQ_CEQ_CEQID, eq->id),
			   q, NULL))
		dev_warn(irdma_rf_to_dev(rf), "%s destroy failed\n",
			 aeq ? "AEQ" : "CEQ");
	eq->created = false;
	irdma_dma_free(rf, &eq->ring);
}

static int irdma_eq_irq(struct irdma_pci_f *rf, struct irdma_eq *eq,
			u32 msix_idx,
			void (*dpc)(struct tasklet_struct *t),
			const char *what)
{
	int err;

	if (msix_idx >= rf->msix_count)
		return -EINVAL;
	eq->msix_idx = msix_idx;
	eq->vector = rf->msix_entries[msix_idx].entry;
	eq->irq = rf->msix_entries[msix_idx].vector;
	snprintf(eq->name, sizeof(eq->name), "irdma-%s-%s",
		 dev_name(irdma_rf_to_dev(rf)), what);
	tasklet_setup(&eq->dpc, dpc);
	err = request_irq(eq->irq, irdma_eq_irq_handler, 0, eq->name, eq);
	if (err) {
		dev_err(irdma_rf_to_dev(rf), "%s: irq %u: %d\n", what, eq->irq,
			err);
		return err;
	}
	eq->irq_on = true;
	return 0;
}

/*
 * The queue's cause is off already. No hard interrupt after free_irq()
 * schedules the tasklet again; the last run may re-enable the vector, so
 * it is masked only after tasklet_kill() (upstream's irdma_destroy_irq()
 * and tasklet_kill() of the CEQ's dpc).
 */
static void irdma_eq_free_irq(struct irdma_eq *eq)
{
	if (!eq->irq_on)
		return;
	free_irq(eq->irq, eq);
	tasklet_kill(&eq->dpc);
	irdma_eq_disable(eq);
	eq->irq_on = false;
}

/* Vector entry of CEQ @id (entry 0 is the AEQ's, shared or not). */
static u32 irdma_ceq_msix_idx(struct irdma_pci_f *rf, u32 id)
{
	return rf->msix_shared ? id : id + 1;
}

/**
 * irdma_ceq0_setup() - CEQ 0, its interrupt, and CQP completions by event
 * @rf: per-function state; the CCQ exists (completions polled)
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_ceq0_setup(struct irdma_pci_f *rf)
{
	struct irdma_eq *eq = &rf->ceq;
	u32 size;
	int err;

	/* Room for an event of every CQ plus the CCQ. */
	size = max_t(u32, IRDMA_CEQ0_SIZE_MIN,
		     roundup_pow_of_two(rf->hmc.obj[E810_HMC_CQ].cnt + 1));
	size = min_t(u32, size, E810_CEQ_MAX_ENTRIES);
	eq->id = 0;
	/* Fixed here: CPUs going on- or offline later change nothing. */
	rf->msix_shared = rf->msix_count <= num_online_cpus();
	err = irdma_eq_create(rf, eq, false, size);
	if (err)
		return err;
	if (rf->msix_shared)
		err = irdma_eq_irq(rf, eq, 0, irdma_aeqceq_dpc, "aeqceq0");
	else
		err = irdma_eq_irq(rf, eq, 1, irdma_ceq_dpc, "ceq0");
	if (err)
		goto err_destroy;
	irdma_ceq_route(rf, eq, true);
	irdma_eq_enable(eq);
	/* From now on CQP completions come by interrupt. */
	rf->cqp.mode = IRDMA_CQP_IRQ;
	irdma_ccq_arm(rf);
	dev_dbg(irdma_rf_to_dev(rf), "INIT: CEQ 0 of %u on vector %u (irq %u)\n",
		size, eq->vector, eq->irq);
	return 0;

err_destroy:
	irdma_eq_destroy(rf, eq, false);
	return err;
}

/**
 * irdma_ceq0_quiesce() - back to polled CQP completions
 * @rf: per-function state
 *
 * CEQ 0's cause and vector off, its handler gone; CQP completions are
 * polled on the CCQ again. Done before the AEQ is destroyed, so that the
 * completion of that destroy consumes the CCQ's arm while CEQ 0 still
 * exists and the CCQ is no longer armed when CEQ 0 goes. Idempotent.
 *
 * Context: Process context, sleeps.
 */
void irdma_ceq0_quiesce(struct irdma_pci_f *rf)
{
	irdma_ceq_route(rf, &rf->ceq, false);
	irdma_eq_free_irq(&rf->ceq);
	rf->cqp.mode = IRDMA_CQP_POLL_CCQ;
}

/**
 * irdma_ceq0_teardown() - undo irdma_ceq0_setup()
 * @rf: per-function state
 *
 * Context: Process context, sleeps.
 */
void irdma_ceq0_teardown(struct irdma_pci_f *rf)
{
	irdma_ceq0_quiesce(rf);
	irdma_eq_destroy(rf, &rf->ceq, false);
}

/**
 * irdma_aeq_setup() - the AEQ and its interrupt
 * @rf: per-function state
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_aeq_setup(struct irdma_pci_f *rf)
{
	struct irdma_eq *eq = &rf->aeq;
	u32 size;
	int err;

	/* Two events per QP and one per CQ in flight, as upstream sizes it. */
	size = max_t(u32, IRDMA_AEQ_SIZE_MIN,
		     roundup_pow_of_two(2 * rf->hmc.obj[E810_HMC_QP].cnt +
					rf->hmc.obj[E810_HMC_CQ].cnt));
	size = min_t(u32, size, E810_AEQ_MAX_ENTRIES);
	eq->id = 0;
	err = irdma_eq_create(rf, eq, true, size);
	if (err)
		return err;
	if (rf->msix_shared) {
		/* CEQ 0's handler drains the AEQ from now on. */
		eq->msix_idx = rf->ceq.msix_idx;
		eq->vector = rf->ceq.vector;
		eq->irq = rf->ceq.irq;
		/* The handler sees the ring and head set before this. */
		smp_store_release(&rf->aeq_on_ceq0, true);
	} else {
		err = irdma_eq_irq(rf, eq, 0, irdma_aeq_dpc, "aeq");
		if (err)
			goto err_destroy;
	}
	irdma_wr32(rf, IRDMA_REG(rf, aeqctl), E810_INT_CTL_CAUSE_ENA |
		   FIELD_PREP(E810_INT_CTL_MSIX_INDX, eq->vector) |
		   FIELD_PREP(E810_INT_CTL_ITR_INDX, E810_ITR_IDX_NONE));
	if (!rf->msix_shared)
		irdma_eq_enable(eq);
	dev_dbg(irdma_rf_to_dev(rf), "INIT: AEQ of %u on vector %u (irq %u)\n",
		size, eq->vector, eq->irq);
	return 0;

err_destroy:
	irdma_eq_destroy(rf, eq, true);
	return err;
}

/**
 * irdma_aeq_teardown() - undo irdma_aeq_setup()
 * @rf: per-function state
 *
 * Context: Process context, sleeps.
 */
void irdma_aeq_teardown(struct irdma_pci_f *rf)
{
	struct irdma_eq *eq = &rf->aeq;

	irdma_wr32(rf, IRDMA_REG(rf, aeqctl), 0);
	if (rf->aeq_on_ceq0) {
		/*
		 * Normally CEQ 0's interrupt is gone already (quiesce); if
		 * not, a tasklet run that still saw the AEQ ends before the
		 * AEQ goes, and later runs leave it alone.
		 */
		WRITE_ONCE(rf->aeq_on_ceq0, false);
		if (rf->ceq.irq_on) {
			synchronize_irq(rf->ceq.irq);
			tasklet_unlock_wait(&rf->ceq.dpc);
		}
	}
	irdma_eq_free_irq(eq);
	irdma_eq_destroy(rf, eq, true);
}

/**
 * irdma_ceqs_setup() - the completion CEQs beyond CEQ 0, one per CPU
 * @rf: per-function state; CQP completions by interrupt
 *
 * CEQ k (k >= 1) uses parent vector entry k + 1, or entry k when entry 0
 * serves the AEQ and CEQ 0 together, as long as there are entries,
 * online CPUs and CEQs the HMC allows. CEQ 0 is completion vector 0.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_ceqs_setup(struct irdma_pci_f *rf)
{
	u32 n, k, size;
	int err;

	/* Entries left after the AEQ's and CEQ 0's. */
	n = rf->msix_count - irdma_ceq_msix_idx(rf, 1);
	n = min3(n, num_online_cpus() - 1, rf->hmc.max_ceqs - 1);
	if (!n)
		return 0;
	rf->ceqs = kcalloc(n, sizeof(*rf->ceqs), GFP_KERNEL);
	if (!rf->ceqs)
		return -ENOMEM;
	size = max_t(u32, IRDMA_CEQ0_SIZE_MIN,
		     roundup_pow_of_two(rf->hmc.obj[E810_HMC_CQ].cnt / (n + 1) + 1));
	for (k = 0; k < n; k++) {
		struct irdma_eq *eq = &rf->ceqs[k];
		char what[16];

		eq->id = k + 1;
		err = irdma_eq_create(rf, eq, false, size);
		if (err)
			goto err_unwind;
		snprintf(what, sizeof(what), "ceq%u", eq->id);
		err = irdma_eq_irq(rf, eq, irdma_ceq_msix_idx(rf, eq->id),
				   irdma_ceq_dpc, what);
		if (err) {
			irdma_eq_destroy(rf, eq, false);
			goto err_unwind;
		}
		irdma_ceq_route(rf, eq, true);
		irdma_eq_enable(eq);
		rf->ceq_cnt = k + 1;
	}
	dev_dbg(irdma_rf_to_dev(rf), "INIT: %u more CEQs of %u\n", n, size);
	return 0;

err_unwind:
	irdma_ceqs_teardown(rf);
	return err;
}

/**
 * irdma_ceqs_teardown() - undo irdma_ceqs_setup()
 * @rf: per-function state
 *
 * Context: Process context, sleeps.
 */
void irdma_ceqs_teardown(struct irdma_pci_f *rf)
{
	u32 k;

	for (k = rf->ceq_cnt; k-- > 0;) {
		struct irdma_eq *eq = &rf->ceqs[k];

		irdma_ceq_route(rf, eq, false);
		irdma_eq_free_irq(eq);
		irdma_eq_destroy(rf, eq, false);
	}
	rf->ceq_cnt = 0;
	kfree(rf->ceqs);
	rf->ceqs = NULL;
}
