// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: the 256-byte RoCEv2 QP host context (docs/hw-reference.md 4.1).
 *
 * The whole context is rebuilt from the QP's software state before every
 * CREATE_QP and MODIFY_QP, the way the device expects it (it reloads the
 * context at the same PA each time). Fields irdma_sc_qp_setctx_roce()
 * leaves alone stay 0.
 */

#include <linux/bitfield.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/log2.h>

#include <hw/e810_ctx.h>

#include "qp.h"

#define IRDMA_ROCE_DEST_PORT	4791
#define IRDMA_ACK_CREDITS	0x1E
#define IRDMA_CWND_ROCE		0x400
#define IRDMA_RTO_MIN		5
#define IRDMA_DEF_RETRY		2
#define IRDMA_DEF_TTL		0x40
#define IRDMA_LSN_DEFAULT	0xFFFF
#define IRDMA_DEF_PKEY		0xFFFF

/*
 * iWARP fields of the host context (upstream defs.h IRDMAQPC_*, set by
 * irdma_sc_qp_setctx(); docs/irdma.md "iWARP mode").
 */
#define IRDMA_IWQPC_DDP_VER		GENMASK_ULL(1, 0)
#define IRDMA_IWQPC_IBRDENABLE		BIT_ULL(2)
#define IRDMA_IWQPC_ECN_EN		BIT_ULL(14)
#define IRDMA_IWQPC_DROPOOOSEG		BIT_ULL(15)
#define IRDMA_IWQPC_RDMAP_VER		GENMASK_ULL(63, 62)
#define IRDMA_IWQPC_WSCALE		BIT_ULL(20)
#define IRDMA_IWQPC_IGNORE_TCP_OPT	BIT_ULL(22)
#define IRDMA_IWQPC_IGNORE_TCP_UNS_OPT	BIT_ULL(23)
#define IRDMA_IWQPC_TCPSTATE		GENMASK_ULL(31, 28)
#define IRDMA_IWQPC_RCVSCALE		GENMASK_ULL(35, 32)
#define IRDMA_IWQPC_SNDSCALE		GENMASK_ULL(43, 40)
#define IRDMA_IWQPC_LO			GENMASK_ULL(31, 0)
#define IRDMA_IWQPC_HI			GENMASK_ULL(63, 32)
#define IRDMA_IWQPC_MAXSNDWND		GENMASK_ULL(31, 0)
#define IRDMA_IWQPC_Q2ADDR		GENMASK_ULL(63, 8)
#define IRDMA_IWQPC_IWARPMODE		BIT_ULL(28)
#define IRDMA_IWQPC_RCVMARKOFFSET	GENMASK_ULL(40, 32)
#define IRDMA_IWQPC_SNDMARKOFFSET	GENMASK_ULL(56, 48)
#define IRDMA_IWQPC_EXCEPTION_LAN_QUEUE	GENMASK_ULL(43, 32)
/* Values of upstream irdma_iw_fill_and_set_qpctx_info(), _init_tcp_ctx(). */
#define IRDMA_IW_DDP_VER		1
#define IRDMA_IW_RDMAP_VER		1
#define IRDMA_IW_TCP_ESTABLISHED	5
#define IRDMA_IW_RTTVAR			6
#define IRDMA_IW_SSTHRESH		0x3FFFFFFF
#define IRDMA_IW_REXMIT_THRESH		8
#define IRDMA_IW_ECT0			0x2
#define IRDMA_IW_IEQ_QP_ID		2
#define IRDMA_IW_Q2_OFF			256	/* Q2 after the context */

/**
 * irdma_qp_wq_size_code() - context encoding of an SQ/RQ size
 * @quanta: ring size in 32-byte quanta (a power of two, 8..32768)
 *
 * Return: log2(@quanta) - 2.
 */
u32 irdma_qp_wq_size_code(u32 quanta)
{
	return ilog2(quanta) - 2;
}

/* IRDSIZE: roundup_pow_of_two(2 * ird) 256 -> 4, 128 -> 3, >= 32 -> 2, ... */
static u32 irdma_ird_code(u32 ird)
{
	u32 v = roundup_pow_of_two(2 * max_t(u32, ird, 1));

	if (v >= 256)
		return 4;
	if (v >= 128)
		return 3;
	if (v >= 32)
		return 2;
	if (v >= 8)
		return 1;
	return 0;
}

/* IP words are host-order u32s, word 0 most significant (hw-reference 2.5). */
static u64 irdma_ip_pair(const u32 *w)
{
	return FIELD_PREP(E810_QPC_IP_HI, w[0]) | FIELD_PREP(E810_QPC_IP_LO, w[1]);
}

/*
 * The context is built in a zeroed array of qwords (c[]) by area, the way
 * irdma_sc_qp_setctx_roce() groups its fields; a qword shared by two areas
 * gets each area's fields ORed in.
 */

/**
 * irdma_qp_ctx_queues() - ring addresses and sizes, PD, CQs, qset
 * @qp: the QP
 * @c: the context qwords
 *
 * Context: Any context.
 */
static void irdma_qp_ctx_queues(const struct irdma_qp *qp, u64 *c)
{
	c[E810_QW(E810_QPC_CFG_OFF)] |=
		FIELD_PREP(E810_QPC_RQWQESIZE, qp->rq_shift) |
		FIELD_PREP(E810_QPC_PDIDXHI, qp->pd_id >> 16);
	c[E810_QW(E810_QPC_SQADDR_OFF)] |= qp->sq_addr;
	c[E810_QW(E810_QPC_RQADDR_OFF)] |= qp->rq_addr;
	c[E810_QW(E810_QPC_SIZES_OFF)] |=
		FIELD_PREP(E810_QPC_RQSIZE, irdma_qp_wq_size_code(qp->rq_depth)) |
		FIELD_PREP(E810_QPC_SQSIZE, irdma_qp_wq_size_code(qp->sq_depth));
	c[E810_QW(E810_QPC_PKEY_OFF)] |=
		FIELD_PREP(E810_QPC_PDIDX, qp->pd_id & 0xFFFF);
	c[E810_QW(E810_QPC_CQ_OFF)] |=
		FIELD_PREP(E810_QPC_TXCQNUM, qp->scq->cq_id) |
		FIELD_PREP(E810_QPC_RXCQNUM, qp->rcq->cq_id);
	c[E810_QW(E810_QPC_COMPL_CTX_OFF)] |= qp->compl_ctx;
	/* The qset of the QP's priority (ws.c, irdma_sc_qp_setctx_roce()). */
	c[E810_QW(E810_QPC_QS_OFF)] |=
		FIELD_PREP(E810_QPC_QSHANDLE, READ_ONCE(qp->qs_handle));
}

/**
 * irdma_qp_ctx_roce_addr() - RoCEv2 addressing: IP, UDP, VLAN, MACs, ARP
 * @qp: the QP (its address vector, if valid)
 * @c: the context qwords
 *
 * Context: Any context.
 */
static void irdma_qp_ctx_roce_addr(const struct irdma_qp *qp, u64 *c)
{
	const struct irdma_qp_av *av = &qp->av;
	bool vlan = av->valid && av->vlan < VLAN_N_VID;
	bool arp = av->valid && av->arp_idx >= 0;

	c[E810_QW(E810_QPC_CFG_OFF)] |=
		(av->valid && av->ipv4 ? E810_QPC_IPV4 : 0) |
		(vlan ? E810_QPC_INSERTVLANTAG : 0);
	c[E810_QW(E810_QPC_SIZES_OFF)] |=
		FIELD_PREP(E810_QPC_TTL, av->valid ? av->hop_limit :
			   IRDMA_DEF_TTL) |
		FIELD_PREP(E810_QPC_TOS, av->valid ? av->tclass : 0) |
		FIELD_PREP(E810_QPC_SRCPORTNUM, av->valid ? av->sport : 0xC000) |
		FIELD_PREP(E810_QPC_DESTPORTNUM, IRDMA_ROCE_DEST_PORT);
	if (av->valid) {
		/* Address words 0,1 and 2,3: one qword each, both ends. */
		c[E810_QW(E810_QPC_DESTIP23_OFF)] |= irdma_ip_pair(&av->dip[2]);
		c[E810_QW(E810_QPC_DESTIP01_OFF)] |= irdma_ip_pair(&av->dip[0]);
		c[E810_QW(E810_QPC_LOCALIP23_OFF)] |= irdma_ip_pair(&av->sip[2]);
		c[E810_QW(E810_QPC_LOCALIP01_OFF)] |= irdma_ip_pair(&av->sip[0]);
	}
	c[E810_QW(E810_QPC_MSS_OFF)] |=
		(vlan ? FIELD_PREP(E810_QPC_VLANTAG,
				   av->vlan | (u16)av->up << VLAN_PRIO_SHIFT) : 0) |
		(arp ? FIELD_PREP(E810_QPC_ARPIDX, av->arp_idx) : 0);
	c[E810_QW(E810_QPC_PKEY_OFF)] |=
		FIELD_PREP(E810_QPC_FLOWLABEL, av->valid ? av->flow_label : 0);
	c[E810_QW(E810_QPC_MAC_OFF)] |=
		FIELD_PREP(E810_QPC_MACADDRESS, ether_addr_to_u64(qp->rf->mac));
	if (arp)
		c[E810_QW(E810_QPC_REMEP_OFF)] |=
			FIELD_PREP(E810_QPC_REMENDPOINTIDX, av->arp_idx);
}

/**
 * irdma_qp_ctx_transport() - RoCE transport: MSS, P_Key, QPs, PSNs, retries
 * @qp: the QP (its saved attributes)
 * @c: the context qwords
 *
 * Context: Any context.
 */
static void irdma_qp_ctx_transport(const struct irdma_qp *qp, u64 *c)
{
	const struct ib_qp_attr *a = &qp->attr;
	u32 mtu = ib_mtu_enum_to_int(a->path_mtu ? a->path_mtu : IB_MTU_1024);
	bool rc = qp->hw_type == E810_QP_TYPE_ROCE_RC;

	c[E810_QW(E810_QPC_MSS_OFF)] |= FIELD_PREP(E810_QPC_SNDMSS, mtu);
	c[E810_QW(E810_QPC_PKEY_OFF)] |=
		FIELD_PREP(E810_QPC_ACKCREDITS, IRDMA_ACK_CREDITS) |
		FIELD_PREP(E810_QPC_PKEY, IRDMA_DEF_PKEY);
	c[E810_QW(E810_QPC_DEST_OFF)] |=
		FIELD_PREP(E810_QPC_DESTQP, rc ? a->dest_qp_num : 0) |
		FIELD_PREP(E810_QPC_QKEY, a->qkey);
	c[E810_QW(E810_QPC_PSN_OFF)] |=
		FIELD_PREP(E810_QPC_PSNNXT, a->sq_psn) |
		FIELD_PREP(E810_QPC_LSN, IRDMA_LSN_DEFAULT);
	c[E810_QW(E810_QPC_EPSN_OFF)] |= FIELD_PREP(E810_QPC_EPSN, a->rq_psn);
	c[E810_QW(E810_QPC_PSNMAX_OFF)] |=
		FIELD_PREP(E810_QPC_PSNMAX, a->sq_psn) |
		FIELD_PREP(E810_QPC_PSNUNA, a->sq_psn);
	c[E810_QW(E810_QPC_CWND_OFF)] |=
		FIELD_PREP(E810_QPC_CWNDROCE, IRDMA_CWND_ROCE);
	c[E810_QW(E810_QPC_RETRY_OFF)] |=
		FIELD_PREP(E810_QPC_REXMIT_THRESH, a->retry_cnt) |
		FIELD_PREP(E810_QPC_RNRNAK_THRESH, a->rnr_retry) |
		FIELD_PREP(E810_QPC_RTOMIN, IRDMA_RTO_MIN);
}

/**
 * irdma_qp_ctx_flags() - the flags qword: ORD/IRD, rights, privileges
 * @qp: the QP
 *
 * Context: Any context.
 * Return: the qword.
 */
static u64 irdma_qp_ctx_flags(const struct irdma_qp *qp)
{
	const struct ib_qp_attr *a = &qp->attr;
	bool rc = qp->hw_type == E810_QP_TYPE_ROCE_RC;
	u64 flags;

	flags = FIELD_PREP(E810_QPC_ORDSIZE, rc ? a->max_rd_atomic : 0) |
		FIELD_PREP(E810_QPC_IRDSIZE,
			   irdma_ird_code(rc ? a->max_dest_rd_atomic : 0));
	if (rc) {
		/* Read responses land in local memory: always accepted. */
		flags |= E810_QPC_WRRDRSPOK;
		if (a->qp_access_flags & IB_ACCESS_REMOTE_READ)
			flags |= E810_QPC_RDOK;
	}
	if (!qp->user)
		flags |= E810_QPC_UDPRIVCQENABLE | E810_QPC_FASTREGEN |
			 E810_QPC_PRIVEN;
	/* Windows may be bound on every QP (upstream's bind_en = true). */
	flags |= E810_QPC_BINDEN;
	return flags;
}

/* IP words of @w as the iWARP context wants them: IPv4 in word 3. */
static void irdma_iw_ip(u64 *c, u32 off23, u32 off01, bool ipv4,
			const u32 *w)
{
	if (ipv4) {
		c[E810_QW(off23)] |= FIELD_PREP(IRDMA_IWQPC_LO, w[0]);
		return;
	}
	c[E810_QW(off23)] |= FIELD_PREP(IRDMA_IWQPC_HI, w[2]) |
			     FIELD_PREP(IRDMA_IWQPC_LO, w[3]);
	c[E810_QW(off01)] |= FIELD_PREP(IRDMA_IWQPC_HI, w[0]) |
			     FIELD_PREP(IRDMA_IWQPC_LO, w[1]);
}

/*
 * The TCP group of an offloaded iWARP connection (upstream
 * irdma_init_tcp_ctx() values, placed as irdma_sc_qp_setctx() does).
 */
static void irdma_qp_ctx_iw_tcp(const struct irdma_qp *qp, u64 *c)
{
	const struct irdma_iw_tcp *t = &qp->iw_tcp;
	bool vlan = t->vlan < VLAN_N_VID;
	u8 tos = t->tos;

	/* ECN on: ECT(0) unless the TOS names a code point already. */
	if (!(tos & 0x3))
		tos |= IRDMA_IW_ECT0;
	c[E810_QW(E810_QPC_CFG_OFF)] |=
		(t->ipv4 ? E810_QPC_IPV4 : 0) |
		(vlan ? E810_QPC_INSERTVLANTAG : 0) | IRDMA_IWQPC_DROPOOOSEG;
	c[E810_QW(E810_QPC_SIZES_OFF)] |=
		FIELD_PREP(E810_QPC_TTL, IRDMA_DEF_TTL) |
		FIELD_PREP(E810_QPC_TOS, tos) |
		FIELD_PREP(E810_QPC_SRCPORTNUM, t->lport) |
		FIELD_PREP(E810_QPC_DESTPORTNUM, t->rport);
	irdma_iw_ip(c, E810_QPC_DESTIP23_OFF, E810_QPC_DESTIP01_OFF, t->ipv4,
		    t->rip);
	irdma_iw_ip(c, E810_QPC_LOCALIP23_OFF, E810_QPC_LOCALIP01_OFF,
		    t->ipv4, t->lip);
	c[E810_QW(E810_QPC_MSS_OFF)] |=
		FIELD_PREP(E810_QPC_SNDMSS, t->mss) |
		(vlan ? FIELD_PREP(E810_QPC_VLANTAG,
				   t->vlan | (u16)t->up << VLAN_PRIO_SHIFT) : 0) |
		FIELD_PREP(E810_QPC_ARPIDX, t->arp_idx);
	c[E810_QW(E810_QPC_PKEY_OFF)] |=
		IRDMA_IWQPC_WSCALE | IRDMA_IWQPC_IGNORE_TCP_OPT |
		IRDMA_IWQPC_IGNORE_TCP_UNS_OPT |
		FIELD_PREP(IRDMA_IWQPC_TCPSTATE, IRDMA_IW_TCP_ESTABLISHED) |
		FIELD_PREP(IRDMA_IWQPC_RCVSCALE, t->rcv_wscale) |
		FIELD_PREP(IRDMA_IWQPC_SNDSCALE, t->snd_wscale);
	/* SNDNXT/SNDWND, RCVNXT/RCVWND, SNDMAX/SNDUNA (off 80..96). */
	c[10] = FIELD_PREP(IRDMA_IWQPC_LO, t->snd_nxt) |
		FIELD_PREP(IRDMA_IWQPC_HI, t->snd_wnd);
	c[11] = FIELD_PREP(IRDMA_IWQPC_LO, t->rcv_nxt) |
		FIELD_PREP(IRDMA_IWQPC_HI, t->rcv_wnd);
	c[12] = FIELD_PREP(IRDMA_IWQPC_LO, t->snd_nxt) |
		FIELD_PREP(IRDMA_IWQPC_HI, t->snd_nxt);
	/* SRTT 0 / RTTVAR, SSTHRESH / CWND, SNDWL1 / SNDWL2 (off 104..120). */
	c[13] = FIELD_PREP(IRDMA_IWQPC_HI, IRDMA_IW_RTTVAR);
	c[14] = FIELD_PREP(IRDMA_IWQPC_LO, IRDMA_IW_SSTHRESH) |
		FIELD_PREP(IRDMA_IWQPC_HI, 2 * t->mss);
	c[15] = FIELD_PREP(IRDMA_IWQPC_LO, t->rcv_nxt) |
		FIELD_PREP(IRDMA_IWQPC_HI, t->snd_nxt);
	c[E810_QW(E810_QPC_RETRY_OFF)] |=
		FIELD_PREP(IRDMA_IWQPC_MAXSNDWND, t->snd_wnd) |
		FIELD_PREP(E810_QPC_REXMIT_THRESH, IRDMA_IW_REXMIT_THRESH);
}

/*
 * The iWARP group (upstream irdma_iw_fill_and_set_qpctx_info(), written
 * at create and with the TCP group at the offload): versions, Q2, the
 * IEQ as exception queue, rights, and ORD/IRD once agreed.
 */
static void irdma_qp_ctx_iwarp(const struct irdma_qp *qp, u64 *c)
{
	const struct irdma_iw_tcp *t = &qp->iw_tcp;
	bool tcp = qp->iw_offloaded;
	u64 flags;

	c[E810_QW(E810_QPC_CFG_OFF)] |=
		FIELD_PREP(IRDMA_IWQPC_DDP_VER, IRDMA_IW_DDP_VER) |
		FIELD_PREP(IRDMA_IWQPC_RDMAP_VER, IRDMA_IW_RDMAP_VER) |
		IRDMA_IWQPC_IBRDENABLE | IRDMA_IWQPC_ECN_EN;
	c[E810_QW(E810_QPC_RETRY_OFF)] |=
		FIELD_PREP(E810_QPC_RTOMIN, IRDMA_RTO_MIN);
	c[E810_QW(E810_QPC_STAT_OFF)] |=
		FIELD_PREP(IRDMA_IWQPC_Q2ADDR,
			   (qp->ctx.pa + IRDMA_IW_Q2_OFF) >> 8);
	/*
	 * GEN_1 names the source MAC by its local MAC table entry (upstream
	 * irdma_sc_qp_setctx(): IRDMAQPC_GEN1_SRCMACADDRIDX) and leaves the
	 * MAC field 0.
	 */
	if (irdma_is_gen1(qp->rf))
		c[E810_QW(E810_QPC_SIZES_OFF)] |=
			FIELD_PREP(E810_GEN1_QPC_SRCMACADDRIDX, qp->rf->mac_idx);
	else
		c[E810_QW(E810_QPC_MAC_OFF)] |=
			FIELD_PREP(E810_QPC_MACADDRESS,
				   ether_addr_to_u64(qp->rf->mac));
	c[E810_QW(E810_QPC_QS_OFF)] |=
		FIELD_PREP(IRDMA_IWQPC_EXCEPTION_LAN_QUEUE, IRDMA_IW_IEQ_QP_ID);
	flags = E810_QPC_WRRDRSPOK | E810_QPC_RDOK | E810_QPC_BINDEN |
		IRDMA_IWQPC_IWARPMODE;
	if (tcp)
		flags |= FIELD_PREP(E810_QPC_ORDSIZE, t->ord) |
			 FIELD_PREP(E810_QPC_IRDSIZE, irdma_ird_code(t->ird)) |
			 FIELD_PREP(IRDMA_IWQPC_RCVMARKOFFSET,
				    t->rcv_nxt & 0x1ff) |
			 FIELD_PREP(IRDMA_IWQPC_SNDMARKOFFSET,
				    t->snd_nxt & 0x1ff);
	if (!qp->user)
		flags |= E810_QPC_FASTREGEN | E810_QPC_PRIVEN;
	c[E810_QW(E810_QPC_FLAGS_OFF)] = flags;
	if (tcp)
		irdma_qp_ctx_iw_tcp(qp, c);
}

/**
 * irdma_qp_ctx_write() - build @qp's host context in its DMA buffer
 * @qp: the QP; caller holds its mutex, or the QP is not published yet
 *	(irdma_create_qp())
 *
 * Context: Any context.
 */
void irdma_qp_ctx_write(struct irdma_qp *qp)
{
	u64 c[E810_QP_CTX_SIZE / 8] = { };
	unsigned int i;

	irdma_qp_ctx_queues(qp, c);
	if (qp->hw_type == E810_QP_TYPE_IWARP) {
		irdma_qp_ctx_iwarp(qp, c);
		goto write;
	}
	irdma_qp_ctx_roce_addr(qp, c);
	irdma_qp_ctx_transport(qp, c);
	c[E810_QW(E810_QPC_FLAGS_OFF)] = irdma_qp_ctx_flags(qp);
write:
	for (i = 0; i < ARRAY_SIZE(c); i++)
		irdma_set64(&qp->ctx, i * 8, c[i]);
}
