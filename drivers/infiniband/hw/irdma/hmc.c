// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: the Host Memory Cache (docs/hw-reference.md chapter 3).
 *
 * QUERY_FPM_VAL tells what the function may have; the driver sizes every
 * object for a resource profile (module parameter limits_sel), commits the
 * counts with COMMIT_FPM_VAL, which returns the base of each object in the
 * function's private memory (FPM), and backs the 2 MiB segments (SDs) the
 * objects span with host memory through UPDATE_PE_SDS: direct SDs (one
 * contiguous 2 MiB buffer) for the objects, falling back to paged SDs (a
 * page of 512 PD entries naming 4 KiB pages) when 2 MiB cannot be had. The
 * PBLE object is backed on demand, page by page, by the PBLE pool (pble.c)
 * through irdma_hmc_back_page(). Teardown clears every SD it set, then
 * frees the memory.
 *
 * The software side of some objects lives here too: an index allocator per
 * object type (MR STags, AHs, multicast groups) sized by the committed
 * count, so that no index the device would reject is ever handed out.
 */

#include <linux/bitfield.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <hw/e810_regs.h>

#include "main.h"
#include "events.h"
#include "mr.h"
#include "pble.h"

/* QP count per profile, as Intel's rsrc_limits_table (hw-reference 3.3). */
static const u32 irdma_qp_limits[] = {
	128, 1024, 2048, 4096, 16384, 65536, 131072, 262144,
};

/* Upstream GEN_2 always asks for the largest profile (irdma_fill_device_info). */
static unsigned int limits_sel = 7;
module_param(limits_sel, uint, 0444);
MODULE_PARM_DESC(limits_sel,
		 "Resource profile 0-7: QPs 128, 1K, 2K, 4K, 16K, 64K, 128K, 256K (capped by the device and its HMC space; default 7)");

#define IRDMA_MAX_HW_IRD	127	/* hw-reference 2.7 */
#define IRDMA_GEN1_LIMITS_SEL	5
#define IRDMA_FPM_MAX_LOOPS	2000
#define IRDMA_FPM_MULTIPLIER	1024	/* upstream FPM_MULTIPLIER */
#define IRDMA_FPM_FAR_SDS	128	/* "far over": halve, do not trim */
#define IRDMA_FPM_MIN_QPS	128
#define IRDMA_PBLES_PER_SPARE_SD	(256 * IRDMA_FPM_MULTIPLIER)
#define IRDMA_SD_ENTRIES_INLINE	E810_CQPSQ_UPESD_INLINE_ENTRIES

static const char * const irdma_hmc_obj_names[E810_HMC_OBJ_MAX] = {
	[E810_HMC_QP] = "QP", [E810_HMC_CQ] = "CQ", [E810_HMC_SRQ] = "SRQ",
	[E810_HMC_HTE] = "HTE", [E810_HMC_ARP] = "ARP",
	[E810_HMC_APBVT] = "APBVT", [E810_HMC_MR] = "MR", [E810_HMC_XF] = "XF",
	[E810_HMC_XFFL] = "XFFL", [E810_HMC_Q1] = "Q1",
	[E810_HMC_Q1FL] = "Q1FL", [E810_HMC_TIMER] = "TIMER",
	[E810_HMC_FSIMC] = "FSIMC", [E810_HMC_FSIAV] = "FSIAV",
	[E810_HMC_PBLE] = "PBLE", [E810_HMC_RRF] = "RRF",
	[E810_HMC_RRFFL] = "RRFFL", [E810_HMC_HDR] = "HDR", [E810_HMC_MD] = "MD",
	[E810_HMC_OOISC] = "OOISC", [E810_HMC_OOISCFFL] = "OOISCFFL",
};

/* Offsets of each object's qword in the query and the commit buffers. */
static const u8 irdma_fpm_query_off[E810_HMC_OBJ_MAX] = E810_FPM_QUERY_OFFSETS;

static const u8 irdma_fpm_commit_off[E810_HMC_OBJ_MAX] = E810_FPM_COMMIT_OFFSETS;

/* Object type @t exists on the function's generation. */
static bool irdma_hmc_has(const struct irdma_pci_f *rf, unsigned int t)
{
	return rf->gen->hw.fpm_objs & E810_HMC_OBJ_BIT(t);
}

/*
 * The query buffer qword at @off, or 0 beyond what the generation writes
 * (GEN_1: offsets 0..120, irdma_sc_parse_fpm_query_buf()).
 */
static u64 irdma_hmc_query_val(const struct irdma_pci_f *rf, size_t off)
{
	if (off + 8 > rf->gen->hw.fpm_query_len)
		return 0;
	return irdma_get64(&rf->cqp.fpm_buf, off);
}

static bool irdma_hmc_is_fl(unsigned int t)
{
	return t == E810_HMC_XFFL || t == E810_HMC_Q1FL ||
	       t == E810_HMC_RRFFL || t == E810_HMC_OOISCFFL;
}

/* QUERY_FPM_VAL, parsed into hmc->obj[].max/size and the misc fields. */
static int irdma_hmc_query(struct irdma_pci_f *rf)
{
	struct irdma_hmc *hmc = &rf->hmc;
	struct irdma_dma *buf = &rf->cqp.fpm_buf;
	u64 q[8] = { };
	unsigned int t;
	u64 v, lg;
	int err;

	memset(buf->va, 0, buf->size);
	q[E810_QW(E810_CQPSQ_FPM_FN_OFF)] =
		FIELD_PREP(E810_CQPSQ_FPM_HMCFNID, rf->pf_id);
	q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = buf->pa;
	err = irdma_cqp_exec(rf, E810_CQP_OP_QUERY_FPM_VAL, 0, q, NULL);
	if (err)
		return err;

	v = irdma_get64(buf, E810_FPM_QUERY_SD_OFF);
	hmc->first_sd = FIELD_GET(E810_FPM_FIRST_PE_SD_INDEX, v);
	hmc->max_sds = FIELD_GET(E810_FPM_MAX_PE_SDS, v);
	/*
	 * Where the SDs share one table with the LAN HMC's (GEN_1), the
	 * bases COMMIT_FPM_VAL returns start at FIRST_PE_SD_INDEX: index
	 * the SDs as the device does, the LAN's below first_sd unused.
	 */
	hmc->sd_slots = hmc->max_sds;
	if (rf->gen->hw.sds_shared_with_lan)
		hmc->sd_slots += hmc->first_sd;
	for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
		if (!irdma_fpm_query_off[t] || !irdma_hmc_has(rf, t))
			continue;
		v = irdma_hmc_query_val(rf, irdma_fpm_query_off[t]);
		hmc->obj[t].max = FIELD_GET(E810_FPM_MAX_CNT, v);
		lg = FIELD_GET(E810_FPM_OBJ_SIZE_LOG2, v);
		if (!irdma_hmc_is_fl(t) && t != E810_HMC_PBLE)
			hmc->obj[t].size = lg < 32 ? 1U << lg : 0;
	}
	v = irdma_get64(buf, E810_FPM_QUERY_QP_OFF);
	hmc->obj[E810_HMC_QP].max = FIELD_GET(E810_FPM_MAX_QPS, v);
	v = irdma_get64(buf, E810_FPM_QUERY_CQ_OFF);
	hmc->obj[E810_HMC_CQ].max = FIELD_GET(E810_FPM_MAX_CQS, v);
	hmc->obj[E810_HMC_APBVT].max = 1;
	hmc->obj[E810_HMC_APBVT].size = E810_HMC_APBVT_OBJ_SIZE;
	hmc->obj[E810_HMC_PBLE].size = E810_HMC_PBLE_OBJ_SIZE;
	hmc->obj[E810_HMC_XFFL].size = E810_HMC_FL_OBJ_SIZE;
	hmc->obj[E810_HMC_Q1FL].size = E810_HMC_FL_OBJ_SIZE;
	hmc->obj[E810_HMC_RRFFL].size = E810_HMC_FL_OBJ_SIZE;
	hmc->obj[E810_HMC_OOISCFFL].size = E810_HMC_FL_OBJ_SIZE;
	hmc->xf_block = FIELD_GET(E810_FPM_BLOCK_SIZE,
				  irdma_get64(buf, E810_FPM_QUERY_XFFL_OFF));
	hmc->q1_block = FIELD_GET(E810_FPM_BLOCK_SIZE,
				  irdma_get64(buf, E810_FPM_QUERY_Q1FL_OFF));
	hmc->rrf_block = FIELD_GET(E810_FPM_BLOCK_SIZE,
				   irdma_hmc_query_val(rf,
						       E810_FPM_QUERY_RRFFL_OFF));
	hmc->ooiscf_block =
		FIELD_GET(E810_FPM_BLOCK_SIZE,
			  irdma_hmc_query_val(rf, E810_FPM_QUERY_OOISCFFL_OFF));
	v = irdma_get64(buf, E810_FPM_QUERY_MISC_OFF);
	hmc->max_ceqs = FIELD_GET(E810_FPM_MAX_CEQS, v);
	hmc->ht_mult = FIELD_GET(E810_FPM_HTMULTIPLIER, v);
	hmc->timer_bucket = FIELD_GET(E810_FPM_TIMERBUCKET, v);

	if (!hmc->max_sds || !hmc->xf_block || !hmc->q1_block ||
	    (hmc->obj[E810_HMC_RRFFL].max && !hmc->rrf_block) ||
	    (hmc->obj[E810_HMC_OOISCFFL].max && !hmc->ooiscf_block) ||
	    hmc->first_sd + hmc->max_sds > E810_HMC_MAX_SD_COUNT) {
		dev_err(irdma_rf_to_dev(rf),
			"QUERY_FPM_VAL: unusable values (SDs %u+%u, XF block %u, Q1 block %u)\n",
			hmc->first_sd, hmc->max_sds, hmc->xf_block,
			hmc->q1_block);
		return -EIO;
	}
	return 0;
}

/* SDs the counts need (the driver's estimate, hw-reference 3.3). */
static u32 irdma_hmc_est_sds(struct irdma_hmc *hmc)
{
	u64 size = 0;
	unsigned int t;

	for (t = 0; t < E810_HMC_OBJ_MAX; t++)
		size += round_up((u64)hmc->obj[t].cnt * hmc->obj[t].size,
				 E810_FPM_BASE_UNIT);
	return DIV_ROUND_UP_ULL(size, E810_HMC_SD_SIZE);
}

/* Q1 entries for @qp QPs: upstream irdma_q1_cnt(). */
static u32 irdma_hmc_q1_cnt(const struct irdma_pci_f *rf, u32 qp)
{
	if (irdma_is_gen1(rf))
		return roundup_pow_of_two(E810_GEN1_MAX_IRD * 2 * qp);
	if (rf->iwarp)
		return IRDMA_MAX_HW_IRD * 2 * qp;
	return roundup_pow_of_two(IRDMA_MAX_HW_IRD * 2 * qp + 512);
}

/*
 * One step of shrinking a layout that needs @over more SDs than the function
 * has, in the order of upstream's irdma_cfg_fpm_val(), so that a profile
 * gives the same counts under both drivers: far over, QPs and MR/PBLEs are
 * halved in turn; close, PBLEs go first, then MRs a block at a time and QPs
 * every tenth step; at 128 QPs multicast groups and AHs give way.
 */
static void irdma_hmc_shrink(struct irdma_hmc_obj *o, u32 over,
			     unsigned int step, u32 *qp, u32 *mr, u32 *pble)
{
	if (over > IRDMA_FPM_FAR_SDS) {
		if (!(step % 2) && *qp > IRDMA_FPM_MIN_QPS) {
			*qp /= 2;
		} else {
			*mr /= 2;
			*pble /= 2;
		}
		return;
	}
	if (*pble > 512 * IRDMA_FPM_MULTIPLIER * over) {
		*pble -= 256 * IRDMA_FPM_MULTIPLIER * over;
		return;
	}
	if (*pble > 100 * IRDMA_FPM_MULTIPLIER) {
		*pble -= 10 * IRDMA_FPM_MULTIPLIER;
	} else if (*pble > IRDMA_FPM_MULTIPLIER) {
		*pble -= IRDMA_FPM_MULTIPLIER;
	} else if (*qp <= IRDMA_FPM_MIN_QPS) {
		if (o[E810_HMC_FSIMC].cnt > 256)
			o[E810_HMC_FSIMC].cnt /= 2;
		if (o[E810_HMC_FSIAV].cnt > 256)
			o[E810_HMC_FSIAV].cnt /= 2;
	}
	if (*mr > IRDMA_FPM_MULTIPLIER)
		*mr -= IRDMA_FPM_MULTIPLIER;
	if (!(step % 10) && *qp > IRDMA_FPM_MIN_QPS) {
		*qp /= 2;
		if (o[E810_HMC_FSIAV].cnt > 256)
			o[E810_HMC_FSIAV].cnt /= 2;
	}
}

/* Sizes every object for qp_wanted QPs (cfg_fpm_val, hw-reference 3.3). */
static int irdma_hmc_size(struct irdma_pci_f *rf)
{
	struct irdma_hmc *hmc = &rf->hmc;
	struct irdma_hmc_obj *o = hmc->obj;
	u32 qp, mr, pble, sds = 0;
	unsigned int t, loops;

	for (t = 0; t < E810_HMC_OBJ_MAX; t++)
		o[t].cnt = o[t].max;
	/* GEN_1 always asks for profile 5 (upstream i40iw_fill_device_info()). */
	hmc->qp_wanted = irdma_qp_limits[irdma_is_gen1(rf) ?
					 IRDMA_GEN1_LIMITS_SEL :
					 min_t(unsigned int, limits_sel,
					       ARRAY_SIZE(irdma_qp_limits) - 1)];
	qp = min(hmc->qp_wanted, o[E810_HMC_QP].max);
	if (!qp)
		return -EIO;
	qp = rounddown_pow_of_two(qp);
	while (qp > 1 && irdma_hmc_q1_cnt(rf, qp) > o[E810_HMC_Q1].max)
		qp /= 2;
	mr = o[E810_HMC_MR].max;
	pble = o[E810_HMC_PBLE].max;
	o[E810_HMC_APBVT].cnt = 1;
	o[E810_HMC_SRQ].cnt = 0;

	for (loops = 1; loops <= IRDMA_FPM_MAX_LOOPS; loops++) {
		o[E810_HMC_QP].cnt = qp;
		o[E810_HMC_CQ].cnt = min(2 * qp, o[E810_HMC_CQ].cnt);
		o[E810_HMC_MR].cnt = mr;
		o[E810_HMC_HTE].cnt =
			roundup_pow_of_two(round_up(qp + o[E810_HMC_FSIMC].cnt,
						    512)) * hmc->ht_mult;
		/* upstream cfg_fpm_value_gen_1() / _gen_2() */
		if (irdma_is_gen1(rf))
			o[E810_HMC_XF].cnt = roundup_pow_of_two(qp *
						E810_GEN1_MAX_WQ_ENTRIES);
		else
			o[E810_HMC_XF].cnt = 4 * hmc->xf_block * qp;
		if (irdma_hmc_has(rf, E810_HMC_HDR))
			o[E810_HMC_HDR].cnt = qp;
		if (o[E810_HMC_RRF].max)
			o[E810_HMC_RRF].cnt = 32 * qp;
		if (o[E810_HMC_RRFFL].max)
			o[E810_HMC_RRFFL].cnt = o[E810_HMC_RRF].cnt /
						hmc->rrf_block;
		if (o[E810_HMC_OOISC].max)
			o[E810_HMC_OOISC].cnt = 32 * qp;
		if (o[E810_HMC_OOISCFFL].max)
			o[E810_HMC_OOISCFFL].cnt = o[E810_HMC_OOISC].cnt /
						   hmc->ooiscf_block;
		o[E810_HMC_Q1].cnt = irdma_hmc_q1_cnt(rf, qp);
		o[E810_HMC_XFFL].cnt = o[E810_HMC_XF].cnt / hmc->xf_block;
		o[E810_HMC_Q1FL].cnt = o[E810_HMC_Q1].cnt / hmc->q1_block;
		o[E810_HMC_TIMER].cnt = (round_up(qp, 512) / 512 + 1) *
					hmc->timer_bucket;
		o[E810_HMC_PBLE].cnt = pble;
		sds = irdma_hmc_est_sds(hmc);
		if (sds <= hmc->max_sds)
			break;
		irdma_hmc_shrink(o, sds - hmc->max_sds, loops, &qp, &mr, &pble);
	}
	if (sds > hmc->max_sds) {
		dev_err(irdma_rf_to_dev(rf), "HMC: no layout fits %u SDs\n",
			hmc->max_sds);
		return -ENOSPC;
	}
	/* As upstream: the SDs left over hold PBLEs (256K per SD). */
	if (loops > 1 && sds < hmc->max_sds)
		o[E810_HMC_PBLE].cnt = min_t(u64, o[E810_HMC_PBLE].max,
					     pble + (u64)(hmc->max_sds - sds) *
					     IRDMA_PBLES_PER_SPARE_SD);
	return 0;
}

/* COMMIT_FPM_VAL; parses the bases and the SD count written back. */
static int irdma_hmc_commit(struct irdma_pci_f *rf)
{
	struct irdma_hmc *hmc = &rf->hmc;
	struct irdma_dma *buf = &rf->cqp.fpm_buf;
	struct irdma_hmc_obj *o = hmc->obj;
	u64 q[8] = { };
	u64 v, end, max_end = 0;
	unsigned int t;
	int err;

	memset(buf->va, 0, buf->size);
	for (t = 0; t < E810_HMC_OBJ_MAX; t++)
		if (t != E810_HMC_SRQ && t != E810_HMC_APBVT &&
		    irdma_hmc_has(rf, t))
			irdma_set64(buf, irdma_fpm_commit_off[t],
				    FIELD_PREP(E810_FPM_COMMIT_CNT, o[t].cnt));
	q[E810_QW(E810_CQPSQ_FPM_FN_OFF)] =
		FIELD_PREP(E810_CQPSQ_FPM_HMCFNID, rf->pf_id);
	q[E810_QW(E810_CQPSQ_FPM_BUF_OFF)] = buf->pa;
	err = irdma_cqp_exec(rf, E810_CQP_OP_COMMIT_FPM_VAL,
			     FIELD_PREP(E810_CQPSQ_BUFSIZE, E810_FPM_BUF_SIZE),
			     q, NULL);
	if (err)
		return err;

	for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
		if (t == E810_HMC_SRQ || !irdma_hmc_has(rf, t)) {
			o[t].cnt = 0;
			continue;
		}
		v = irdma_get64(buf, irdma_fpm_commit_off[t]);
		if (t == E810_HMC_QP)
			o[t].cnt = FIELD_GET(E810_FPM_COMMIT_QPCNT, v);
		else if (t == E810_HMC_CQ)
			o[t].cnt = irdma_fget(rf->gen->hw.fpm_commit_cqcnt, v);
		else if (t == E810_HMC_APBVT)
			o[t].cnt = 1;
		else
			o[t].cnt = FIELD_GET(E810_FPM_COMMIT_CNT, v);
		o[t].base = FIELD_GET(E810_FPM_COMMIT_BASE, v) *
			    E810_FPM_BASE_UNIT;
		end = o[t].base + (u64)o[t].cnt * o[t].size;
		if (o[t].cnt && end > max_end)
			max_end = end;
	}
	hmc->sd_cnt = DIV_ROUND_UP_ULL(max_end, E810_HMC_SD_SIZE);
	if (hmc->sd_cnt > hmc->sd_slots) {
		dev_err(irdma_rf_to_dev(rf),
			"COMMIT_FPM_VAL: layout spans %u SDs, the function has %u\n",
			hmc->sd_cnt, hmc->sd_slots);
		return -EIO;
	}
	return 0;
}

/* The SD data qword: set (valid, address) or clear. */
static u64 irdma_sd_data(const struct irdma_hmc_sd *sd, bool valid)
{
	u64 v = FIELD_PREP(E810_HMC_SDDATA_BPCOUNT, E810_HMC_MAX_BP_COUNT) |
		FIELD_PREP(E810_HMC_SDDATA_TYPE,
			   sd->direct ? E810_HMC_SD_TYPE_DIRECT :
					E810_HMC_SD_TYPE_PAGED);

	if (valid)
		v |= (sd->mem.pa & E810_HMC_SDDATA_ADDR) |
		     E810_HMC_SDDATA_VALID;
	return v;
}

static u32 irdma_sd_cmd(u32 idx)
{
	return FIELD_PREP(E810_HMC_SDCMD_IDX, idx) | E810_HMC_SDCMD_PARTSEL |
	       E810_HMC_SDCMD_WR;
}

/*
 * UPDATE_PE_SDS for SDs @first..@first+@n-1, set or cleared, three inline
 * entries per WQE.
 */
static int irdma_hmc_update_sds(struct irdma_pci_f *rf, u32 first, u32 n,
				bool valid)
{
	static const u8 cmd_off[IRDMA_SD_ENTRIES_INLINE] = {
		E810_CQPSQ_UPESD_E0_CMD_OFF, E810_CQPSQ_UPESD_E1_CMD_OFF,
		E810_CQPSQ_UPESD_E2_CMD_OFF,
	};
	struct irdma_hmc *hmc = &rf->hmc;
	u32 i, k;
	int err;

	for (i = 0; i < n; i += IRDMA_SD_ENTRIES_INLINE) {
		u64 q[8] = { };

		q[E810_QW(E810_CQPSQ_UPESD_BUF_OFF)] =
			FIELD_PREP(E810_CQPSQ_UPESD_HMCFNID, rf->pf_id);
		for (k = 0; k < IRDMA_SD_ENTRIES_INLINE && i + k < n; k++) {
			u32 idx = first + i + k;

			q[E810_QW(cmd_off[k])] = irdma_sd_cmd(idx) |
				(k ? E810_CQPSQ_UPESD_ENTRY_VALID : 0);
			q[E810_QW(cmd_off[k] + 8)] =
				irdma_sd_data(&hmc->sd[idx], valid);
		}
		err = irdma_cqp_exec(rf, E810_CQP_OP_UPDATE_PE_SDS, 0, q, NULL);
		if (err)
			return err;
		for (k = 0; k < IRDMA_SD_ENTRIES_INLINE && i + k < n; k++)
			hmc->sd[first + i + k].valid = valid;
	}
	return 0;
}

static void irdma_hmc_free_sd(struct irdma_pci_f *rf, struct irdma_hmc_sd *sd)
{
	unsigned int i;

	if (sd->pages) {
		for (i = 0; i < E810_HMC_PD_PER_SD; i++)
			irdma_dma_free(rf, &sd->pages[i]);
		kfree(sd->pages);
		sd->pages = NULL;
	}
	irdma_dma_free(rf, &sd->mem);
}

/*
 * Allocates the backing of one SD: direct if @direct and 2 MiB can be
 * had, otherwise paged with its first @pages PDs backed.
 */
static int irdma_hmc_alloc_sd(struct irdma_pci_f *rf, struct irdma_hmc_sd *sd,
			      bool direct, u32 pages)
{
	unsigned int i;
	int err;

	if (direct && !irdma_dma_alloc(rf, &sd->mem, E810_HMC_SD_SIZE,
				       GFP_KERNEL | __GFP_NOWARN)) {
		sd->direct = true;
		return 0;
	}
	sd->direct = false;
	err = irdma_dma_alloc(rf, &sd->mem, E810_HMC_PD_SIZE, GFP_KERNEL);
	if (err)
		return err;
	sd->pages = kcalloc(E810_HMC_PD_PER_SD, sizeof(*sd->pages),
			    GFP_KERNEL);
	if (!sd->pages)
		goto err_free;
	for (i = 0; i < pages; i++) {
		err = irdma_dma_alloc(rf, &sd->pages[i], E810_HMC_PD_SIZE,
				      GFP_KERNEL);
		if (err)
			goto err_free;
		irdma_set64(&sd->mem, i * 8,
			    (sd->pages[i].pa & E810_HMC_PDE_ADDR) |
			    E810_HMC_PDE_VALID);
	}
	return 0;

err_free:
	irdma_hmc_free_sd(rf, sd);
	return -ENOMEM;
}

/* SD range [*first, *last] object @t spans; false if it has no objects. */
static bool irdma_hmc_obj_sds(const struct irdma_hmc_obj *o, u32 *first,
			      u32 *last)
{
	if (!o->cnt || !o->size)
		return false;
	*first = o->base >> E810_HMC_SD_SHIFT;
	*last = (o->base + (u64)o->cnt * o->size - 1) >> E810_HMC_SD_SHIFT;
	return true;
}

/* Backs every SD an object other than PBLE uses (PBLEs: pble.c). */
static int irdma_hmc_back(struct irdma_pci_f *rf)
{
	struct irdma_hmc *hmc = &rf->hmc;
	u32 first, last, i;
	unsigned int t;
	bool *need;
	int err = 0;

	need = kcalloc(hmc->sd_cnt, sizeof(*need), GFP_KERNEL);
	if (!need)
		return -ENOMEM;
	for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
		if (t == E810_HMC_PBLE ||
		    !irdma_hmc_obj_sds(&hmc->obj[t], &first, &last))
			continue;
		for (i = first; i <= last && i < hmc->sd_cnt; i++)
			need[i] = true;
	}
	for (i = 0; i < hmc->sd_cnt && !err; i++) {
		if (!need[i])
			continue;
		err = irdma_hmc_alloc_sd(rf, &hmc->sd[i], true,
					 E810_HMC_PD_PER_SD);
		if (!err)
			err = irdma_hmc_update_sds(rf, i, 1, true);
		if (!err)
			hmc->sd_obj_cnt++;
	}
	kfree(need);
	return err;
}

/* Clears every valid SD in the device, then frees all backing. */
static void irdma_hmc_unback(struct irdma_pci_f *rf)
{
	struct irdma_hmc *hmc = &rf->hmc;
	u32 i;

	if (!hmc->sd)
		return;
	for (i = 0; i < hmc->sd_slots; i++) {
		if (hmc->sd[i].valid && !rf->resetting &&
		    irdma_hmc_update_sds(rf, i, 1, false))
			dev_warn(irdma_rf_to_dev(rf),
				 "HMC: SD %u not cleared\n", i);
		irdma_hmc_free_sd(rf, &hmc->sd[i]);
	}
	hmc->sd_obj_cnt = 0;
}

/**
 * irdma_hmc_back_page() - make sure the 4 KiB of FPM at @fpm have memory
 * @rf: per-function state
 * @fpm: FPM address (function-relative) inside the committed layout
 *
 * An SD not yet valid gets 2 MiB of direct backing if that much contiguous
 * memory can be had, else a PD page, and is programmed with UPDATE_PE_SDS.
 * In a paged SD the page gets a backing page, its PD entry is written and
 * PFHMC_PDINV drops whatever the device cached for it. Used by the PBLE
 * pool, which grows on demand; the caller serializes calls.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_hmc_back_page(struct irdma_pci_f *rf, u64 fpm)
{
	struct irdma_hmc *hmc = &rf->hmc;
	u32 idx = fpm >> E810_HMC_SD_SHIFT;
	u32 pd = (fpm >> E810_HMC_PD_SHIFT) & (E810_HMC_PD_PER_SD - 1);
	struct irdma_hmc_sd *sd;
	struct irdma_dma *page;
	int err;

	if (!hmc->sd || idx >= hmc->sd_cnt)
		return -ENOSPC;
	sd = &hmc->sd[idx];
	if (!sd->valid) {
		err = irdma_hmc_alloc_sd(rf, sd, true, 0);
		if (err)
			return err;
		err = irdma_hmc_update_sds(rf, idx, 1, true);
		if (err) {
			irdma_hmc_free_sd(rf, sd);
			return err;
		}
	}
	if (sd->direct || sd->pages[pd].va)
		return 0;
	page = &sd->pages[pd];
	err = irdma_dma_alloc(rf, page, E810_HMC_PD_SIZE, GFP_KERNEL);
	if (err)
		return err;
	irdma_set64(&sd->mem, pd * 8,
		    (page->pa & E810_HMC_PDE_ADDR) | E810_HMC_PDE_VALID);
	/* The PD entry is in memory before the invalidate makes it visible. */
	wmb();
	irdma_wr32(rf, IRDMA_REG(rf, pdinv),
		   FIELD_PREP(E810_PFHMC_PDINV_PMSDIDX, idx) |
		   E810_PFHMC_PDINV_PMSDPARTSEL |
		   FIELD_PREP(E810_PFHMC_PDINV_PMPDIDX, pd));
	return 0;
}

/**
 * irdma_hmc_fpm_va() - kernel address of FPM address @fpm
 * @rf: per-function state
 * @fpm: FPM address (function-relative)
 *
 * Context: Any context; the page must stay backed while it is used.
 * Return: the address, or NULL if @fpm has no backing.
 */
void *irdma_hmc_fpm_va(struct irdma_pci_f *rf, u64 fpm)
{
	struct irdma_hmc *hmc = &rf->hmc;
	u32 idx = fpm >> E810_HMC_SD_SHIFT;
	u32 pd = (fpm >> E810_HMC_PD_SHIFT) & (E810_HMC_PD_PER_SD - 1);
	struct irdma_hmc_sd *sd;

	if (!hmc->sd || idx >= hmc->sd_cnt || !hmc->sd[idx].valid)
		return NULL;
	sd = &hmc->sd[idx];
	if (sd->direct)
		return sd->mem.va + (fpm & (E810_HMC_SD_SIZE - 1));
	if (!sd->pages[pd].va)
		return NULL;
	return sd->pages[pd].va + (fpm & (E810_HMC_PD_SIZE - 1));
}

/**
 * irdma_hmc_fpm_dma() - bus address of the host memory behind @fpm
 * @rf: per-function state
 * @fpm: FPM address (function-relative), backed
 *
 * Context: Any context.
 * Return: the DMA address, or 0 if @fpm has no backing.
 */
dma_addr_t irdma_hmc_fpm_dma(struct irdma_pci_f *rf, u64 fpm)
{
	struct irdma_hmc *hmc = &rf->hmc;
	u32 idx = fpm >> E810_HMC_SD_SHIFT;
	u32 pd = (fpm >> E810_HMC_PD_SHIFT) & (E810_HMC_PD_PER_SD - 1);
	struct irdma_hmc_sd *sd;

	if (!hmc->sd || idx >= hmc->sd_cnt || !hmc->sd[idx].valid)
		return 0;
	sd = &hmc->sd[idx];
	if (sd->direct)
		return sd->mem.pa + (fpm & (E810_HMC_SD_SIZE - 1));
	if (!sd->pages[pd].va)
		return 0;
	return sd->pages[pd].pa + (fpm & (E810_HMC_PD_SIZE - 1));
}

/**
 * irdma_hmc_id_alloc() - a free index of HMC object type @type
 * @rf: per-function state
 * @type: E810_HMC_MR, E810_HMC_FSIAV or E810_HMC_FSIMC
 * @min: lowest index to hand out (index 0 of some types is reserved)
 *
 * Context: Process context.
 * Return: the index (below the committed count) or a negative errno.
 */
int irdma_hmc_id_alloc(struct irdma_pci_f *rf, unsigned int type, u32 min)
{
	return irdma_hmc_id_alloc_gfp(rf, type, min, GFP_KERNEL);
}

/**
 * irdma_hmc_id_alloc_gfp() - irdma_hmc_id_alloc() with allocation flags
 * @rf: per-function state
 * @type: E810_HMC_MR, E810_HMC_FSIAV or E810_HMC_FSIMC
 * @min: lowest index to hand out
 * @gfp: GFP_ATOMIC for callers that cannot sleep (AHs of the IB CM)
 *
 * Context: Any context @gfp allows.
 * Return: the index or a negative errno.
 */
int irdma_hmc_id_alloc_gfp(struct irdma_pci_f *rf, unsigned int type, u32 min,
			   gfp_t gfp)
{
	u32 cnt;

	if (type >= E810_HMC_OBJ_MAX)
		return -EINVAL;
	cnt = rf->hmc.obj[type].cnt;
	if (cnt <= min)
		return -ENOSPC;
	return ida_alloc_range(&rf->hmc.ids[type], min, cnt - 1, gfp);
}

/**
 * irdma_hmc_id_free() - give back an index from irdma_hmc_id_alloc()
 * @rf: per-function state
 * @type: its object type
 * @id: the index
 *
 * Context: Any context.
 */
void irdma_hmc_id_free(struct irdma_pci_f *rf, unsigned int type, u32 id)
{
	ida_free(&rf->hmc.ids[type], id);
}

/* Serializes PFHMC_SDCMD read-backs. */
static DEFINE_MUTEX(irdma_sdcmd_mutex);

/* The device's view of SD @idx, read back through PFHMC_SDCMD. */
static u64 irdma_hmc_read_sd(struct irdma_pci_f *rf, u32 idx)
{
	u64 v;

	mutex_lock(&irdma_sdcmd_mutex);
	irdma_wr32(rf, IRDMA_REG(rf, sdcmd),
		   FIELD_PREP(E810_HMC_SDCMD_IDX, idx) |
		   E810_HMC_SDCMD_PARTSEL);
	v = ((u64)irdma_rd32(rf, IRDMA_REG(rf, sddatahigh)) << 32) |
	    irdma_rd32(rf, IRDMA_REG(rf, sddatalow));
	mutex_unlock(&irdma_sdcmd_mutex);
	return v;
}

/**
 * irdma_hmc_setup() - query, size, commit and back the HMC
 * @rf: per-function state; the CQP exists (completions by CQPTAIL)
 *
 * Ends with SHMC_PAGES_ALLOCATED. irdma_hmc_teardown() undoes it.
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_hmc_setup(struct irdma_pci_f *rf)
{
	struct irdma_hmc *hmc = &rf->hmc;
	u64 q[8] = { };
	unsigned int t;
	int err;

	err = irdma_hmc_query(rf);
	if (err)
		return err;
	err = irdma_hmc_size(rf);
	if (err)
		return err;
	err = irdma_hmc_commit(rf);
	if (err)
		return err;
	hmc->sd = kcalloc(hmc->sd_slots, sizeof(*hmc->sd), GFP_KERNEL);
	if (!hmc->sd)
		return -ENOMEM;
	err = irdma_hmc_back(rf);
	if (err)
		goto err_unback;
	q[E810_QW(E810_CQPSQ_SHMC_FN_OFF)] =
		FIELD_PREP(E810_CQPSQ_SHMC_HMC_FN_ID, rf->pf_id);
	err = irdma_cqp_exec(rf, E810_CQP_OP_SHMC_PAGES_ALLOCATED, 0, q, NULL);
	if (err)
		goto err_unback;
	for (t = 0; t < E810_HMC_OBJ_MAX; t++)
		ida_init(&hmc->ids[t]);
	INIT_LIST_HEAD(&hmc->mcgs);
	mutex_init(&hmc->mcg_lock);
	err = irdma_pble_init(rf);
	if (err)
		goto err_ids;
	dev_dbg(irdma_rf_to_dev(rf),
		"INIT: HMC committed: %u QPs, %u CQs, %u MRs, %u SDs (%u backed for objects)\n",
		hmc->obj[E810_HMC_QP].cnt, hmc->obj[E810_HMC_CQ].cnt,
		hmc->obj[E810_HMC_MR].cnt, hmc->sd_cnt, hmc->sd_obj_cnt);
	return 0;

err_ids:
	for (t = 0; t < E810_HMC_OBJ_MAX; t++)
		ida_destroy(&hmc->ids[t]);
err_unback:
	irdma_hmc_unback(rf);
	kfree(hmc->sd);
	hmc->sd = NULL;
	return err;
}

/**
 * irdma_hmc_teardown() - undo irdma_hmc_setup()
 * @rf: per-function state; completions by CQPTAIL again
 *
 * Context: Process context, sleeps.
 */
void irdma_hmc_teardown(struct irdma_pci_f *rf)
{
	unsigned int t;
	u32 i, left = 0;

	if (rf->hmc.pble) {
		irdma_mcast_fini(rf);
		irdma_pble_fini(rf);
		for (t = 0; t < E810_HMC_OBJ_MAX; t++)
			ida_destroy(&rf->hmc.ids[t]);
	}
	irdma_hmc_unback(rf);
	/* What the device still has: nothing, or memory would leak into it. */
	if (rf->hmc.sd && !rf->resetting && IRDMA_REG(rf, sdcmd)) {
		for (i = 0; i < rf->hmc.sd_slots; i++)
			if (irdma_hmc_read_sd(rf, i) & E810_HMC_SDDATA_VALID)
				left++;
		if (left)
			dev_warn(irdma_rf_to_dev(rf),
				 "HMC torn down: the device reports %u valid SDs\n",
				 left);
		irdma_ev_inc(rf, left ? IRDMA_EV_HMC_TEARDOWNS_LEFTOVER :
				 IRDMA_EV_HMC_TEARDOWNS_CLEAN);
	} else if (rf->hmc.sd) {
		irdma_ev_inc(rf, rf->resetting ? IRDMA_EV_HMC_TEARDOWNS_RESET :
				 IRDMA_EV_HMC_TEARDOWNS_CLEAN);
	}
	kfree(rf->hmc.sd);
	rf->hmc.sd = NULL;
}

/**
 * irdma_hmc_show() - the HMC layout for debugfs
 * @m: the seq_file
 * @rf: per-function state
 *
 * One line per object (count, size, base, SDs and their type), then one
 * line per SD the driver programmed or the device reports valid, with the
 * device's own view read back through PFHMC_SDCMD.
 *
 * Return: 0.
 */
int irdma_hmc_show(struct seq_file *m, struct irdma_pci_f *rf)
{
	struct irdma_hmc *hmc = &rf->hmc;
	u32 first, last, i;
	unsigned int t;
	u64 dev_sd;

	seq_printf(m, "limits_sel %u qp_wanted %u first_sd %u max_sds %u sd_cnt %u sd_obj %u max_ceqs %u\n",
		   limits_sel, hmc->qp_wanted, hmc->first_sd, hmc->max_sds,
		   hmc->sd_cnt, hmc->sd_obj_cnt, hmc->max_ceqs);
	seq_printf(m, "%-9s %10s %10s %8s %12s %8s %s\n", "object", "max",
		   "count", "size", "base", "sds", "type");
	for (t = 0; t < E810_HMC_OBJ_MAX; t++) {
		const struct irdma_hmc_obj *o = &hmc->obj[t];
		const char *type = "-";
		char sds[24] = "-";

		if (irdma_hmc_obj_sds(o, &first, &last)) {
			snprintf(sds, sizeof(sds), "%u-%u", first, last);
			if (hmc->sd && first < hmc->sd_slots)
				type = !hmc->sd[first].valid ? "none" :
				       hmc->sd[first].direct ? "direct" :
				       "paged";
		}
		seq_printf(m, "%-9s %10u %10u %8u 0x%010llx %8s %s\n",
			   irdma_hmc_obj_names[t], o->max, o->cnt, o->size,
			   o->base, sds, type);
	}
	if (!hmc->sd)
		return 0;
	irdma_pble_show(m, rf);
	seq_puts(m, "sd   driver  device_data\n");
	for (i = 0; i < hmc->sd_slots; i++) {
		dev_sd = IRDMA_REG(rf, sdcmd) ? irdma_hmc_read_sd(rf, i) : 0;
		if (!hmc->sd[i].valid && !(dev_sd & E810_HMC_SDDATA_VALID))
			continue;
		seq_printf(m, "%-4u %-7s 0x%016llx %s\n", i,
			   !hmc->sd[i].valid ? "none" :
			   hmc->sd[i].direct ? "direct" : "paged", dev_sd,
			   (dev_sd & E810_HMC_SDDATA_VALID) ?
			   (FIELD_GET(E810_HMC_SDDATA_TYPE, dev_sd) ==
			    E810_HMC_SD_TYPE_DIRECT ? "direct" : "paged") :
			   "invalid");
	}
	return 0;
}
