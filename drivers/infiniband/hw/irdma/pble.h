/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irdma: the PBLE pool (page-buffer-list entries in the HMC PBLE object,
 * docs/hw-reference.md 3.6).
 */
#ifndef IRDMA_PBLE_H
#define IRDMA_PBLE_H

#include <linux/types.h>

struct irdma_pci_f;
struct seq_file;

/*
 * PBLEs per pool chunk: 256 KiB of FPM. The pool grows a chunk at a time
 * and a level-1 list never crosses a chunk, so this is also the longest
 * level-1 list; longer page lists use level 2.
 */
#define IRDMA_PBLE_CHUNK	32768

/**
 * struct irdma_pble_alloc - the PBLEs of one page list
 * @level: E810_LPBL_LEVEL1 or E810_LPBL_LEVEL2 (E810_LPBL_NONE: nothing)
 * @idx: level 1: first PBLE of the list; level 2: first root PBLE
 * @npages: pages the list describes
 * @nleaves: level 2: leaf lists (and root entries)
 * @leaf: level 2: first PBLE of each leaf list
 */
struct irdma_pble_alloc {
	u8 level;
	u32 idx;
	u32 npages;
	u32 nleaves;
	u32 *leaf;
};

/* pble.c */
int irdma_pble_init(struct irdma_pci_f *rf);
void irdma_pble_fini(struct irdma_pci_f *rf);
int irdma_pble_get(struct irdma_pci_f *rf, struct irdma_pble_alloc *a,
		   u32 npages, bool level1_only);
void irdma_pble_put(struct irdma_pci_f *rf, struct irdma_pble_alloc *a);
void irdma_pble_set(struct irdma_pci_f *rf, const struct irdma_pble_alloc *a,
		    u32 k, u64 pa);
void irdma_pble_fill(struct irdma_pci_f *rf, const struct irdma_pble_alloc *a,
		     u32 k, u64 pa, u64 step, u32 n);
dma_addr_t irdma_pble_dma(struct irdma_pci_f *rf, u32 idx);
void irdma_pble_show(struct seq_file *m, struct irdma_pci_f *rf);

#endif /* IRDMA_PBLE_H */
