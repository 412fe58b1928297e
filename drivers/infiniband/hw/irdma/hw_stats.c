// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: the protocol engine's hardware counters (`rdma statistic show`).
 *
 * GATHER_STATS copies the function's statistics instance into a 1 KiB
 * buffer (include/hw/e810_rdma_stats.h gives each counter's qword, shift
 * and width). The hardware counters run free and wrap at their width, so
 * every gather adds the difference to the previous raw value, modulo that
 * width, to a 64-bit total, as upstream's irdma_update_stats() does; the
 * totals are what ib_core shows. The names are upstream's
 * irdma_hw_stat_names[], in the same order (IRDMA_HW_STAT_INDEX_*), so
 * tools see the same counters as with the in-tree driver.
 */

#include <linux/bitops.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "main.h"
#include <hw/e810_rdma_stats.h>

static const struct rdma_stat_desc irdma_stat_names[E810_RSTAT_MAX] = {
	[E810_RSTAT_IP4RXDISCARD].name = "ip4InDiscards",
	[E810_RSTAT_IP4RXTRUNC].name = "ip4InTruncatedPkts",
	[E810_RSTAT_IP4TXNOROUTE].name = "ip4OutNoRoutes",
	[E810_RSTAT_IP6RXDISCARD].name = "ip6InDiscards",
	[E810_RSTAT_IP6RXTRUNC].name = "ip6InTruncatedPkts",
	[E810_RSTAT_IP6TXNOROUTE].name = "ip6OutNoRoutes",
	[E810_RSTAT_TCPRTXSEG].name = "tcpRetransSegs",
	[E810_RSTAT_TCPRXOPTERR].name = "tcpInOptErrors",
	[E810_RSTAT_TCPRXPROTOERR].name = "tcpInProtoErrors",
	[E810_RSTAT_RXVLANERR].name = "rxVlanErrors",
	[E810_RSTAT_IP4RXOCTS].name = "ip4InOctets",
	[E810_RSTAT_IP4RXPKTS].name = "ip4InPkts",
	[E810_RSTAT_IP4RXFRAGS].name = "ip4InReasmRqd",
	[E810_RSTAT_IP4RXMCPKTS].name = "ip4InMcastPkts",
	[E810_RSTAT_IP4TXOCTS].name = "ip4OutOctets",
	[E810_RSTAT_IP4TXPKTS].name = "ip4OutPkts",
	[E810_RSTAT_IP4TXFRAGS].name = "ip4OutSegRqd",
	[E810_RSTAT_IP4TXMCPKTS].name = "ip4OutMcastPkts",
	[E810_RSTAT_IP6RXOCTS].name = "ip6InOctets",
	[E810_RSTAT_IP6RXPKTS].name = "ip6InPkts",
	[E810_RSTAT_IP6RXFRAGS].name = "ip6InReasmRqd",
	[E810_RSTAT_IP6RXMCPKTS].name = "ip6InMcastPkts",
	[E810_RSTAT_IP6TXOCTS].name = "ip6OutOctets",
	[E810_RSTAT_IP6TXPKTS].name = "ip6OutPkts",
	[E810_RSTAT_IP6TXFRAGS].name = "ip6OutSegRqd",
	[E810_RSTAT_IP6TXMCPKTS].name = "ip6OutMcastPkts",
	[E810_RSTAT_TCPRXSEGS].name = "tcpInSegs",
	[E810_RSTAT_TCPTXSEG].name = "tcpOutSegs",
	[E810_RSTAT_RDMARXRDS].name = "iwInRdmaReads",
	[E810_RSTAT_RDMARXSNDS].name = "iwInRdmaSends",
	[E810_RSTAT_RDMARXWRS].name = "iwInRdmaWrites",
	[E810_RSTAT_RDMATXRDS].name = "iwOutRdmaReads",
	[E810_RSTAT_RDMATXSNDS].name = "iwOutRdmaSends",
	[E810_RSTAT_RDMATXWRS].name = "iwOutRdmaWrites",
	[E810_RSTAT_RDMAVBND].name = "iwRdmaBnd",
	[E810_RSTAT_RDMAVINV].name = "iwRdmaInv",
	[E810_RSTAT_IP4RXMCOCTS].name = "ip4InMcastOctets",
	[E810_RSTAT_IP4TXMCOCTS].name = "ip4OutMcastOctets",
	[E810_RSTAT_IP6RXMCOCTS].name = "ip6InMcastOctets",
	[E810_RSTAT_IP6TXMCOCTS].name = "ip6OutMcastOctets",
	[E810_RSTAT_UDPRXPKTS].name = "RxUDP",
	[E810_RSTAT_UDPTXPKTS].name = "TxUDP",
	[E810_RSTAT_RXNPECNMARKEDPKTS].name = "RxECNMrkd",
	[E810_RSTAT_RXRPCNPHANDLED].name = "cnpHandled",
	[E810_RSTAT_RXRPCNPIGNORED].name = "cnpIgnored",
	[E810_RSTAT_TXNPCNPSENT].name = "cnpSent",
};

struct irdma_stat_pos {
	u16 off;
	u8 shift;
	u8 bits;
};

static const struct irdma_stat_pos irdma_stat_layout[E810_RSTAT_MAX] =
	E810_RSTAT_LAYOUT;

/**
 * struct irdma_hw_stats - the counters of one function
 * @lock: serializes gathers (one buffer, one set of totals)
 * @buf: the GATHER_STATS buffer
 * @raw: each counter's raw value at the last gather
 * @total: each counter since the ib_device was registered
 * @primed: @raw holds a gather (the first one only sets the baseline)
 */
struct irdma_hw_stats {
	struct mutex lock;
	struct irdma_dma buf;
	u64 raw[E810_RSTAT_MAX];
	u64 total[E810_RSTAT_MAX];
	bool primed;
};

/* Reads the function's instance into @st->buf. Caller holds @st->lock. */
static int irdma_stats_gather(struct irdma_pci_f *rf, struct irdma_hw_stats *st)
{
	u64 q[8] = { };

	lockdep_assert_held(&st->lock);
	q[E810_QW(E810_CQPSQ_STATS_BUF_OFF)] = st->buf.pa;
	return irdma_cqp_exec(rf, E810_CQP_OP_GATHER_STATS, 0, q, NULL);
}

/* Folds the buffer into the totals. Caller holds @st->lock. */
static void irdma_stats_update(struct irdma_hw_stats *st)
{
	const __le64 *qw = st->buf.va;
	unsigned int i;

	lockdep_assert_held(&st->lock);
	for (i = 0; i < E810_RSTAT_MAX; i++) {
		const struct irdma_stat_pos *p = &irdma_stat_layout[i];
		u64 mask = GENMASK_ULL(p->bits - 1, 0);
		u64 raw = (le64_to_cpu(qw[p->off / 8]) >> p->shift) & mask;

		if (st->primed)
			st->total[i] += (raw - st->raw[i]) & mask;
		st->raw[i] = raw;
	}
	st->primed = true;
}

/**
 * irdma_hw_stats_init() - allocate the counters and take their baseline
 * @rf: per-function state; the CQP runs
 *
 * A failed baseline gather is not fatal: the first read takes it.
 *
 * Context: Process context, sleeps.
 * Return: 0 or -ENOMEM.
 */
int irdma_hw_stats_init(struct irdma_pci_f *rf)
{
	struct irdma_hw_stats *st;
	int err;

	/* GEN_1 has no GATHER_STATS (its GLPES_PF* registers: not read). */
	if (!irdma_has_ops(rf, E810_GEN_OP_STATS))
		return 0;
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	err = irdma_dma_alloc(rf, &st->buf, E810_GATHER_STATS_BUF_SIZE,
			      GFP_KERNEL);
	if (err) {
		kfree(st);
		return err;
	}
	mutex_init(&st->lock);
	mutex_lock(&st->lock);
	if (!irdma_stats_gather(rf, st))
		irdma_stats_update(st);
	mutex_unlock(&st->lock);
	rf->hw_stats = st;
	return 0;
}

/**
 * irdma_hw_stats_fini() - free what irdma_hw_stats_init() allocated
 * @rf: per-function state
 *
 * The buffer goes through irdma_dma_free(): a gather that timed out may
 * still land in it until the function is reset.
 *
 * Context: Process context, sleeps.
 */
void irdma_hw_stats_fini(struct irdma_pci_f *rf)
{
	struct irdma_hw_stats *st = rf->hw_stats;

	if (!st)
		return;
	rf->hw_stats = NULL;
	irdma_dma_free(rf, &st->buf);
	mutex_destroy(&st->lock);
	kfree(st);
}

static struct rdma_hw_stats *irdma_alloc_hw_port_stats(struct ib_device *ibdev,
						       u32 port_num)
{
	return rdma_alloc_hw_stats_struct(irdma_stat_names, E810_RSTAT_MAX,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/*
 * ib_core asks with its own cache lifespan (RDMA_HW_STATS_DEFAULT_LIFESPAN)
 * expired. If the gather fails (CQP gone, reset under way) the totals of
 * the last good one are shown.
 */
static int irdma_get_hw_stats(struct ib_device *ibdev,
			      struct rdma_hw_stats *stats, u32 port_num,
			      int index)
{
	struct irdma_pci_f *rf = to_iwdev(ibdev)->rf;
	struct irdma_hw_stats *st = rf->hw_stats;
	int err;

	if (!st)
		return -EOPNOTSUPP;
	mutex_lock(&st->lock);
	err = irdma_stats_gather(rf, st);
	if (!err)
		irdma_stats_update(st);
	else
		ibdev_dbg(ibdev, "GATHER_STATS failed (%d)\n", err);
	memcpy(stats->value, st->total,
	       sizeof(u64) * min_t(u32, stats->num_counters, E810_RSTAT_MAX));
	mutex_unlock(&st->lock);
	return stats->num_counters;
}

const struct ib_device_ops irdma_stats_ops = {
	.alloc_hw_port_stats = irdma_alloc_hw_port_stats,
	.get_hw_stats = irdma_get_hw_stats,
};
