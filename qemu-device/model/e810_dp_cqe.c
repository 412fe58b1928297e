/*
 * Emulated E810: CQEs of the RDMA data path (docs/hw-reference.md 5.6) and the
 * mapping from AE codes to completion statuses.
 *
 * SQ CQE: WQEIDX = first quantum of the WQE, OP = its SQ opcode, qword 1 =
 * the QP completion context, qword 2 = QP id, queue-type bit set. The byte
 * count of a send comes from the provider's own tracking, so PAYLDLEN is 0.
 * RQ CQE: PAYLDLEN, WQEIDX in quanta, OP = the IB BTH opcode, invalidated
 * STag or UD source QPN in qword 2; an extended slot follows when there is
 * immediate data or a UD source MAC. Error CQEs set ERROR with major/minor;
 * flush CQEs use major 1 and a flush code as minor.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <string.h>

#include "e810_core.h"
#include "e810_dp.h"

/* The kernel's AE -> flush code table (hw-reference 4.4). */
uint8_t e810_dp_flush_code(uint16_t ae)
{
    switch (ae) {
    case 0:
        return E810_FLUSH_INVALID;
    case E810_AE_AMP_UNALLOCATED_STAG:
    case E810_AE_AMP_BOUNDS_VIOLATION:
    case E810_AE_AMP_INVALID_STAG:
    case E810_AE_AMP_BAD_PD:
    case E810_AE_UDA_XMIT_BAD_PD:
        return E810_FLUSH_PROT_ERR;
    case E810_AE_AMP_BAD_QP:
    case E810_AE_WQE_UNEXPECTED_OPCODE:
        return E810_FLUSH_LOC_QP_OP_ERR;
    case E810_AE_AMP_BAD_STAG_KEY:
    case E810_AE_AMP_BAD_STAG_INDEX:
    case E810_AE_AMP_TO_WRAP:
    case E810_AE_AMP_RIGHTS_VIOLATION:
    case E810_AE_AMP_INVALIDATE_NO_REMOTE_ACCESS_RIGHTS:
    case E810_AE_PRIV_OPERATION_DENIED:
    case E810_AE_IB_INVALID_REQUEST:
    case E810_AE_IB_REMOTE_ACCESS_ERROR:
        return E810_FLUSH_REM_ACCESS_ERR;
    case E810_AE_LLP_SEGMENT_TOO_SMALL:
    case E810_AE_DDP_UBE_DDP_MESSAGE_TOO_LONG_FOR_AVAILABLE_BUFFER:
    case E810_AE_UDA_XMIT_DGRAM_TOO_LONG:
    case E810_AE_UDA_XMIT_DGRAM_TOO_SHORT:
    case E810_AE_UDA_L4LEN_INVALID:
    case E810_AE_ROCE_RSP_LENGTH_ERROR:
        return E810_FLUSH_LOC_LEN_ERR;
    case E810_AE_DDP_UBE_INVALID_MO:
    case E810_AE_IB_RREQ_AND_Q1_FULL:
    case E810_AE_LLP_RECEIVED_MPA_CRC_ERROR:
        return E810_FLUSH_GENERAL_ERR;
    case E810_AE_LLP_TOO_MANY_RETRIES:
        return E810_FLUSH_RETRY_EXC_ERR;
    case E810_AE_LLP_TOO_MANY_RNRS:
        /* Not in the kernel's table (it says FATAL); the flush code exists. */
        return E810_FLUSH_RNR_RETRY_EXC_ERR;
    case E810_AE_IB_REMOTE_OP_ERROR:
        return E810_FLUSH_REM_OP_ERR;
    case E810_AE_AMP_MWBIND_VALID_STAG:
    case E810_AE_AMP_MWBIND_OF_MR_STAG:
    case E810_AE_AMP_MWBIND_TO_ZERO_BASED_STAG:
    case E810_AE_AMP_MWBIND_TO_MW_STAG:
    case E810_AE_AMP_MWBIND_INVALID_RIGHTS:
    case E810_AE_AMP_MWBIND_INVALID_BOUNDS:
    case E810_AE_AMP_MWBIND_TO_INVALID_PARENT:
    case E810_AE_AMP_MWBIND_BIND_DISABLED:
    case E810_AE_AMP_MWBIND_ZERO_BASED_TYPE1_MW:
    case E810_AE_AMP_MWBIND_WRONG_TYPE:
        return E810_FLUSH_MW_BIND_ERR;
    default:
        return E810_FLUSH_FATAL_ERR;
    }
}

static uint32_t qp_id_of(E810Core *core, const E810Qp *qp)
{
    return qp - core->rdma.qp;
}

static void cqe_set(struct e810_cqe *c, unsigned off, uint64_t v)
{
    c->qw[E810_QW(off)] = htole64(v);
}

static bool post(E810Core *core, uint32_t cq, const struct e810_cqe *c,
                 unsigned n)
{
    if (!e810_cq_post(core, cq, c, n)) {
        return false;
    }
    core->rdma.stats.dp_cqes++;
    return true;
}

bool e810_dp_sq_cqe(E810Core *core, E810Qp *qp, uint32_t wqe_idx,
                    uint8_t opcode, uint16_t major, uint16_t minor)
{
    struct e810_cqe c;
    uint64_t hdr = FIELD_PREP(E810_CQE_WQEIDX, wqe_idx) |
                   FIELD_PREP(E810_CQE_OP, opcode) | E810_CQE_SQ;

    memset(&c, 0, sizeof(c));
    if (major || minor) {
        hdr |= E810_CQE_ERROR | FIELD_PREP(E810_CQE_MAJERR, major) |
               FIELD_PREP(E810_CQE_MINERR, minor);
    }
    cqe_set(&c, E810_CQE_CTX_OFF, qp->compl_ctx);
    cqe_set(&c, E810_CQE_QP_OFF, FIELD_PREP(E810_CQE_QPID,
                                            qp_id_of(core, qp)));
    cqe_set(&c, E810_CQE_HDR_OFF, hdr);
    return post(core, qp->send_cq, &c, 1);
}

bool e810_dp_rq_flush_cqe(E810Core *core, E810Qp *qp, uint32_t wqe_idx,
                          uint16_t major, uint16_t minor)
{
    struct e810_cqe c;

    memset(&c, 0, sizeof(c));
    cqe_set(&c, E810_CQE_CTX_OFF, qp->compl_ctx);
    cqe_set(&c, E810_CQE_QP_OFF, FIELD_PREP(E810_CQE_QPID,
                                            qp_id_of(core, qp)));
    cqe_set(&c, E810_CQE_HDR_OFF, FIELD_PREP(E810_CQE_WQEIDX, wqe_idx) |
            E810_CQE_ERROR | FIELD_PREP(E810_CQE_MAJERR, major) |
            FIELD_PREP(E810_CQE_MINERR, minor));
    return post(core, qp->recv_cq, &c, 1);
}

bool e810_dp_rq_cqe(E810Core *core, E810Qp *qp, uint32_t wqe_idx,
                    const E810RecvInfo *info)
{
    struct e810_cqe c[2];
    uint64_t hdr = FIELD_PREP(E810_CQE_WQEIDX, wqe_idx) |
                   FIELD_PREP(E810_CQE_OP, info->bth_opcode);
    uint64_t ext_hdr = 0, qp_word = FIELD_PREP(E810_CQE_QPID,
                                               qp_id_of(core, qp));
    bool ext = info->imm_valid || info->ud;

    memset(c, 0, sizeof(c));
    if (info->gen1_uda) {
        ext = false;
        qp_word |= FIELD_PREP(E810_GEN1_CQE_UDA_L3PROTO, info->l3proto) |
                   FIELD_PREP(E810_GEN1_CQE_UDA_L4PROTO, info->l4proto);
        if (info->vlan_valid) {
            hdr |= E810_GEN1_CQE_VLAN_TAG_VALID;
        }
    }
    if (info->solicited) {
        hdr |= E810_CQE_SOEVENT;
    }
    if (info->ud && !info->gen1_uda) {
        qp_word |= FIELD_PREP(E810_CQE_UDSRCQPN, info->src_qpn);
        if (info->ipv4) {
            hdr |= E810_CQE_IPV4;
        }
    } else if (info->inv_valid) {
        qp_word |= FIELD_PREP(E810_CQE_INVSTAG, info->inv_stag);
        hdr |= E810_CQE_STAG;
    }
    if (ext) {
        hdr |= E810_CQE_EXTCQE;
        if (info->imm_valid) {
            cqe_set(&c[1], E810_CQE_EXT_IMM_OFF, info->imm);
            ext_hdr |= E810_CQE_EXT_IMMVALID;
        }
        if (info->ud) {
            uint64_t mac = 0;
            unsigned i;

            for (i = 0; i < 6; i++) {
                mac = mac << 8 | info->src_mac[i];
            }
            cqe_set(&c[1], E810_CQE_EXT_UD_OFF,
                    FIELD_PREP(E810_CQE_EXT_UDSMAC, mac) |
                    FIELD_PREP(E810_CQE_EXT_UDVLAN, info->vlan));
            ext_hdr |= E810_CQE_EXT_UDSMACVALID |
                       (info->vlan_valid ? E810_CQE_EXT_UDVLANVALID : 0);
        }
        cqe_set(&c[1], E810_CQE_EXT_HDR_OFF, ext_hdr);
    }
    cqe_set(&c[0], E810_CQE_LEN_OFF,
            FIELD_PREP(E810_CQE_PAYLDLEN, info->byte_len) |
            FIELD_PREP(E810_CQE_TCPSEQNUMRTT, info->psn));
    cqe_set(&c[0], E810_CQE_CTX_OFF, qp->compl_ctx);
    cqe_set(&c[0], E810_CQE_QP_OFF, qp_word);
    cqe_set(&c[0], E810_CQE_HDR_OFF, hdr);
    return post(core, qp->recv_cq, c, ext ? 2 : 1);
}
