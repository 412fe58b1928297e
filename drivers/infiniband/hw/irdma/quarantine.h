/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irdma: memory the engine may still reach (quarantine.c).
 */
#ifndef IRDMA_QUARANTINE_H
#define IRDMA_QUARANTINE_H

#include <linux/types.h>

struct ib_umem;
struct irdma_dma;
struct irdma_pci_f;
struct seq_file;

/**
 * struct irdma_qrn_stats - module-wide quarantine counters
 * @bufs: DMA buffers held now
 * @bytes: their bytes
 * @umems: user memory pinnings held now
 * @umem_bytes: their bytes
 * @released: buffers freed after their function was reset
 * @lost: buffers left allocated because no entry could be allocated
 */
struct irdma_qrn_stats {
	unsigned int bufs;
	size_t bytes;
	unsigned int umems;
	size_t umem_bytes;
	u64 released;
	u64 lost;
};

bool irdma_engine_may_reach(struct irdma_pci_f *rf);
void irdma_engine_check_reset(struct irdma_pci_f *rf);
void irdma_quarantine_dma(struct irdma_pci_f *rf, struct irdma_dma *mem);
void irdma_quarantine_umem(struct irdma_pci_f *rf, struct ib_umem *umem);
void irdma_umem_retire(struct irdma_pci_f *rf, struct ib_umem *umem);
void irdma_quarantine_release(struct irdma_pci_f *rf);
unsigned int irdma_quarantine_count(struct irdma_pci_f *rf, size_t *bytes);
void irdma_quarantine_show(struct seq_file *m);
void irdma_quarantine_exit(void);

#endif /* IRDMA_QUARANTINE_H */
