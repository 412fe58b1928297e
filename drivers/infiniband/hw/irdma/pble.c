// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: the PBLE pool (docs/hw-reference.md 3.6).
 *
 * PBLEs are the 8-byte entries of the HMC PBLE object: PBLE i lives at FPM
 * address PBLE base + 8 * i, and the driver writes them into the host pages
 * that back that FPM range. The device follows the same translation (SD,
 * PD, page) to read them.
 *
 * The pool starts at the first 4 KiB-aligned FPM address of the object and
 * is cut into chunks of IRDMA_PBLE_CHUNK entries (256 KiB of FPM). A chunk
 * is backed (irdma_hmc_back_page(): a direct or paged SD, then pages) the
 * first time the pool runs out, and from then on stays backed until the
 * HMC goes; each chunk has a bitmap of the entries handed out. A page list
 * is a run of entries inside one chunk (level 1), or, when it is longer
 * than a chunk or no run is free, a root run naming leaf runs of up to 512
 * entries (level 2). Root entries hold PBLE indexes, leaves page addresses.
 */

#include <linux/bitmap.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "main.h"
#include "pble.h"

/**
 * struct irdma_pble_chunk - IRDMA_PBLE_CHUNK PBLEs, backed together
 * @map: entries handed out
 * @first: first PBLE index
 * @len: entries (the last chunk may be short)
 * @used: bits set in @map
 */
struct irdma_pble_chunk {
	unsigned long *map;
	u32 first;
	u32 len;
	u32 used;
};

/**
 * struct irdma_pble_pool - the PBLE pool of one function
 * @lock: protects everything below (growth issues CQP ops: a mutex)
 * @base: FPM address of PBLE 0
 * @start: first PBLE the pool hands out (4 KiB aligned in FPM)
 * @cnt: committed PBLE count
 * @max_chunks: chunks the committed count allows
 * @nchunks: chunks backed so far
 * @chunks: @max_chunks entries, the first @nchunks backed
 * @used: entries handed out
 * @peak: highest @used
 * @lists: page lists handed out, per level (1, 2)
 * @grows: chunks backed
 * @failures: requests that could not be met
 */
struct irdma_pble_pool {
	struct mutex lock;	/* chunks, bitmaps, counters */
	u64 base;
	u32 start;
	u32 cnt;
	u32 max_chunks;
	u32 nchunks;
	struct irdma_pble_chunk *chunks;
	u64 used;
	u64 peak;
	u64 lists[2];
	u64 grows;
	u64 failures;
};

/* Writes PBLE @idx; its page is backed (it belongs to a backed chunk). */
static void irdma_pble_write(struct irdma_pci_f *rf, u32 idx, u64 val)
{
	__le64 *p = irdma_hmc_fpm_va(rf, rf->hmc.pble->base + (u64)idx * 8);

	if (WARN_ON_ONCE(!p))
		return;
	WRITE_ONCE(*p, cpu_to_le64(val));
}

/* Backs the next chunk. Caller holds pool->lock. */
static int irdma_pble_grow(struct irdma_pci_f *rf)
{
	struct irdma_pble_pool *pool = rf->hmc.pble;
	struct irdma_pble_chunk *c;
	u64 fpm, bytes, off;
	int err;

	lockdep_assert_held(&pool->lock);

	if (pool->nchunks >= pool->max_chunks)
		return -ENOSPC;
	c = &pool->chunks[pool->nchunks];
	c->first = pool->start + pool->nchunks * IRDMA_PBLE_CHUNK;
	c->len = min_t(u32, IRDMA_PBLE_CHUNK, pool->cnt - c->first);
	c->used = 0;
	fpm = pool->base + (u64)c->first * 8;
	bytes = (u64)c->len * 8;
	for (off = 0; off < bytes; off += E810_HMC_PD_SIZE) {
		err = irdma_hmc_back_page(rf, fpm + off);
		if (err)
			return err;	/* what is backed stays for a retry */
	}
	c->map = bitmap_zalloc(c->len, GFP_KERNEL);
	if (!c->map)
		return -ENOMEM;
	pool->nchunks++;
	pool->grows++;
	return 0;
}

/* A run of @n free entries in chunk @c, or -ENOSPC. */
static int irdma_pble_run_in(struct irdma_pble_chunk *c, u32 n)
{
	unsigned long pos;

	if (c->len - c->used < n)
		return -ENOSPC;
	pos = bitmap_find_next_zero_area(c->map, c->len, 0, n, 0);
	if (pos + n > c->len)
		return -ENOSPC;
	bitmap_set(c->map, pos, n);
	c->used += n;
	return c->first + pos;
}

/*
 * A run of @n (1..IRDMA_PBLE_CHUNK) consecutive entries, growing the pool
 * if no backed chunk has one. Returns the first PBLE index or a negative
 * errno. Caller holds pool->lock.
 */
static int irdma_pble_run(struct irdma_pci_f *rf, u32 n)
{
	struct irdma_pble_pool *pool = rf->hmc.pble;
	int idx, err;
	u32 i;

	lockdep_assert_held(&pool->lock);

	for (i = 0; i < pool->nchunks; i++) {
		idx = irdma_pble_run_in(&pool->chunks[i], n);
		if (idx >= 0)
			goto found;
	}
	err = irdma_pble_grow(rf);
	if (err)
		return err;
	idx = irdma_pble_run_in(&pool->chunks[pool->nchunks - 1], n);
	if (idx < 0)
		return idx;
found:
	pool->used += n;
	pool->peak = max(pool->peak, pool->used);
	return idx;
}

/* Frees a run from irdma_pble_run(). Caller holds pool->lock. */
static void irdma_pble_unrun(struct irdma_pble_pool *pool, u32 idx, u32 n)
{
	struct irdma_pble_chunk *c;

	lockdep_assert_held(&pool->lock);

	if (WARN_ON_ONCE(idx < pool->start))
		return;
	c = &pool->chunks[(idx - pool->start) / IRDMA_PBLE_CHUNK];
	bitmap_clear(c->map, idx - c->first, n);
	c->used -= n;
	pool->used -= n;
}

/* Level 2: a root run and leaf runs of up to 512. Caller holds the lock. */
static int irdma_pble_get_l2(struct irdma_pci_f *rf,
			     struct irdma_pble_alloc *a, u32 npages)
{
	struct irdma_pble_pool *pool = rf->hmc.pble;
	u32 nleaves = DIV_ROUND_UP(npages, E810_PBLE_LEAF_ENTRIES);
	u32 k, n;
	int idx;

	lockdep_assert_held(&pool->lock);

	if (nleaves > IRDMA_PBLE_CHUNK)
		return -E2BIG;
	a->leaf = kcalloc(nleaves, sizeof(*a->leaf), GFP_KERNEL);
	if (!a->leaf)
		return -ENOMEM;
	idx = irdma_pble_run(rf, nleaves);
	if (idx < 0)
		goto err_free;
	a->idx = idx;
	for (k = 0; k < nleaves; k++) {
		n = min_t(u32, E810_PBLE_LEAF_ENTRIES,
			  npages - k * E810_PBLE_LEAF_ENTRIES);
		idx = irdma_pble_run(rf, n);
		if (idx < 0)
			goto err_unrun;
		a->leaf[k] = idx;
		/* A root entry: the leaf's PBLE index (hw-reference 3.6). */
		irdma_pble_write(rf, a->idx + k, idx);
	}
	a->nleaves = nleaves;
	a->level = E810_LPBL_LEVEL2;
	return 0;

err_unrun:
	while (k--)
		irdma_pble_unrun(pool, a->leaf[k],
				 min_t(u32, E810_PBLE_LEAF_ENTRIES,
				       npages - k * E810_PBLE_LEAF_ENTRIES));
	irdma_pble_unrun(pool, a->idx, nleaves);
err_free:
	kfree(a->leaf);
	a->leaf = NULL;
	return idx;
}

/**
 * irdma_pble_get() - PBLEs for a list of @npages pages
 * @rf: per-function state
 * @a: filled with the allocation (level, first entry, leaves)
 * @npages: pages to describe
 * @level1_only: the user of the list can only take level 1 (queues)
 *
 * Tries one run of @npages entries (level 1); a list longer than a chunk,
 * or one for which no run is free, gets level 2 unless @level1_only or it
 * is short enough (512 pages) that level 2 would not help. The entries are
 * not written: see irdma_pble_set().
 *
 * Context: Process context, sleeps (may back more of the pool).
 * Return: 0, -ENOSPC when the pool is exhausted, -E2BIG, -ENOMEM.
 */
int irdma_pble_get(struct irdma_pci_f *rf, struct irdma_pble_alloc *a,
		   u32 npages, bool level1_only)
{
	struct irdma_pble_pool *pool = rf->hmc.pble;
	int idx = -E2BIG;

	memset(a, 0, sizeof(*a));
	if (!npages)
		return -EINVAL;
	if (!pool)
		return -ENODEV;
	mutex_lock(&pool->lock);
	if (npages <= IRDMA_PBLE_CHUNK) {
		idx = irdma_pble_run(rf, npages);
		if (idx >= 0) {
			a->level = E810_LPBL_LEVEL1;
			a->idx = idx;
			goto done;
		}
	}
	if (level1_only || npages <= E810_PBLE_LEAF_ENTRIES)
		goto fail;
	idx = irdma_pble_get_l2(rf, a, npages);
	if (idx < 0)
		goto fail;
done:
	a->npages = npages;
	pool->lists[a->level == E810_LPBL_LEVEL2]++;
	mutex_unlock(&pool->lock);
	return 0;
fail:
	pool->failures++;
	mutex_unlock(&pool->lock);
	return idx;
}

/**
 * irdma_pble_put() - free PBLEs from irdma_pble_get()
 * @rf: per-function state
 * @a: the allocation, cleared; nothing to do if it holds none
 *
 * Context: Process context (takes the pool mutex). The device must no
 * longer use the list.
 */
void irdma_pble_put(struct irdma_pci_f *rf, struct irdma_pble_alloc *a)
{
	struct irdma_pble_pool *pool = rf->hmc.pble;
	u32 k;

	if (a->level == E810_LPBL_NONE || !pool)
		return;
	mutex_lock(&pool->lock);
	if (a->level == E810_LPBL_LEVEL1) {
		irdma_pble_unrun(pool, a->idx, a->npages);
	} else {
		for (k = 0; k < a->nleaves; k++)
			irdma_pble_unrun(pool, a->leaf[k],
					 min_t(u32, E810_PBLE_LEAF_ENTRIES,
					       a->npages -
					       k * E810_PBLE_LEAF_ENTRIES));
		irdma_pble_unrun(pool, a->idx, a->nleaves);
	}
	mutex_unlock(&pool->lock);
	kfree(a->leaf);
	memset(a, 0, sizeof(*a));
}

/* PBLE index of page @k of list @a; @k is below a->npages. */
static u32 irdma_pble_idx(const struct irdma_pble_alloc *a, u32 k)
{
	if (a->level == E810_LPBL_LEVEL2)
		return a->leaf[k / E810_PBLE_LEAF_ENTRIES] +
		       k % E810_PBLE_LEAF_ENTRIES;
	return a->idx + k;
}

/**
 * irdma_pble_set() - write the address of page @k of a list
 * @rf: per-function state
 * @a: the list
 * @k: page number, below @a->npages
 * @pa: bus address of the page
 *
 * Context: Any context.
 */
void irdma_pble_set(struct irdma_pci_f *rf, const struct irdma_pble_alloc *a,
		    u32 k, u64 pa)
{
	if (WARN_ON_ONCE(k >= a->npages))
		return;
	irdma_pble_write(rf, irdma_pble_idx(a, k), pa);
}

/**
 * irdma_pble_fill() - write the addresses of a run of pages of a list
 * @rf: per-function state
 * @a: the list
 * @k: first page number
 * @pa: bus address of page @k
 * @step: page size; page @k + i is at @pa + i * @step
 * @n: pages in the run; @k + @n is at most @a->npages
 *
 * The same entries irdma_pble_set() would write one by one, for the
 * physically consecutive pages a pinning mostly consists of: the host page
 * behind the entries is looked up once per 4 KiB of entries (a level-2
 * leaf of 512 entries spans at most two such pages) instead of once per
 * entry. A 256 MiB MR is 65536 entries.
 *
 * Context: Any context.
 */
void irdma_pble_fill(struct irdma_pci_f *rf, const struct irdma_pble_alloc *a,
		     u32 k, u64 pa, u64 step, u32 n)
{
	u64 base = rf->hmc.pble->base;
	u32 idx, run, i;
	__le64 *p;
	u64 fpm;

	if (WARN_ON_ONCE(k > a->npages || n > a->npages - k))
		return;
	while (n) {
		idx = irdma_pble_idx(a, k);
		fpm = base + (u64)idx * 8;
		/* To the end of this leaf and of this backing page. */
		run = (E810_HMC_PD_SIZE - (fpm & (E810_HMC_PD_SIZE - 1))) / 8;
		if (a->level == E810_LPBL_LEVEL2)
			run = min_t(u32, run, E810_PBLE_LEAF_ENTRIES -
					      k % E810_PBLE_LEAF_ENTRIES);
		run = min(run, n);
		p = irdma_hmc_fpm_va(rf, fpm);
		if (WARN_ON_ONCE(!p))
			return;
		for (i = 0; i < run; i++, pa += step)
			WRITE_ONCE(p[i], cpu_to_le64(pa));
		k += run;
		n -= run;
	}
}

/**
 * irdma_pble_dma() - bus address of the host memory holding PBLE @idx
 * @rf: per-function state
 * @idx: a PBLE handed out by the pool
 *
 * Context: Any context.
 * Return: the address, 0 if @idx is not backed.
 */
dma_addr_t irdma_pble_dma(struct irdma_pci_f *rf, u32 idx)
{
	if (!rf->hmc.pble)
		return 0;
	return irdma_hmc_fpm_dma(rf, rf->hmc.pble->base + (u64)idx * 8);
}

/**
 * irdma_pble_init() - set up the pool and back its first chunk
 * @rf: per-function state; the HMC is committed
 *
 * Context: Process context, sleeps.
 * Return: 0 or a negative errno.
 */
int irdma_pble_init(struct irdma_pci_f *rf)
{
	const struct irdma_hmc_obj *o = &rf->hmc.obj[E810_HMC_PBLE];
	struct irdma_pble_pool *pool;
	u64 start;
	int err;

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return -ENOMEM;
	mutex_init(&pool->lock);
	pool->base = o->base;
	pool->cnt = o->cnt;
	start = (round_up(o->base, E810_HMC_PD_SIZE) - o->base) / 8;
	if (start < o->cnt) {
		pool->start = start;
		pool->max_chunks = DIV_ROUND_UP(o->cnt - pool->start,
						IRDMA_PBLE_CHUNK);
	}
	pool->chunks = kcalloc(max(pool->max_chunks, 1U),
			       sizeof(*pool->chunks), GFP_KERNEL);
	if (!pool->chunks) {
		kfree(pool);
		return -ENOMEM;
	}
	rf->hmc.pble = pool;
	if (!pool->max_chunks)
		return 0;
	mutex_lock(&pool->lock);
	err = irdma_pble_grow(rf);
	mutex_unlock(&pool->lock);
	if (err) {
		irdma_pble_fini(rf);
		return err;
	}
	return 0;
}

/**
 * irdma_pble_fini() - free the pool's bookkeeping
 * @rf: per-function state
 *
 * The backing pages are the HMC's and go with it.
 *
 * Context: Process context.
 */
void irdma_pble_fini(struct irdma_pci_f *rf)
{
	struct irdma_pble_pool *pool = rf->hmc.pble;
	u32 i;

	if (!pool)
		return;
	if (pool->used)
		dev_warn(irdma_rf_to_dev(rf), "PBLE pool: %llu entries still in use\n",
			 pool->used);
	for (i = 0; i < pool->nchunks; i++)
		bitmap_free(pool->chunks[i].map);
	kfree(pool->chunks);
	mutex_destroy(&pool->lock);
	kfree(pool);
	rf->hmc.pble = NULL;
}

/**
 * irdma_pble_show() - pool usage for the debugfs "hmc" file
 * @m: the seq_file
 * @rf: per-function state
 *
 * Context: Process context (takes the pool mutex).
 */
void irdma_pble_show(struct seq_file *m, struct irdma_pci_f *rf)
{
	struct irdma_pble_pool *pool = rf->hmc.pble;
	u32 i;

	if (!pool)
		return;
	mutex_lock(&pool->lock);
	seq_printf(m, "pble: count %u first %u chunks %u/%u backed %llu used %llu peak %llu lists_l1 %llu lists_l2 %llu grows %llu failures %llu\n",
		   pool->cnt, pool->start, pool->nchunks, pool->max_chunks,
		   (u64)pool->nchunks ?
		   (u64)pool->chunks[pool->nchunks - 1].first +
		   pool->chunks[pool->nchunks - 1].len - pool->start : 0,
		   pool->used, pool->peak, pool->lists[0], pool->lists[1],
		   pool->grows, pool->failures);
	for (i = 0; i < pool->nchunks; i++)
		seq_printf(m, "pble chunk %u: first %u len %u used %u\n", i,
			   pool->chunks[i].first, pool->chunks[i].len,
			   pool->chunks[i].used);
	mutex_unlock(&pool->lock);
}
