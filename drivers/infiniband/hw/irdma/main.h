/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irdma: per-function state and the prototypes shared between its files.
 */
#ifndef IRDMA_MAIN_H
#define IRDMA_MAIN_H

#include <linux/auxiliary_bus.h>
#include <linux/io.h>
#include <linux/pci.h>
#include <linux/types.h>

struct dentry;
struct ice_lite_rdma_dev_info;

/**
 * struct irdma_pci_f - state of the RDMA engine of one PCI function
 * @adev: the auxiliary device we are bound to
 * @pcidev: the PCI function (DMA, BAR0 physical address)
 * @hw_addr: the parent's kernel mapping of all of BAR0
 * @msix_entries: MSI-X vectors the parent reserved for RDMA
 * @msix_count: number of entries in @msix_entries
 * @pf_id: PF number
 * @dbg_dir: debugfs directory of this function
 * @ice_lite_info: parent data when the parent is ice_lite; only
 *	ice_lite_if.c looks inside it
 *
 * The core code never looks at the parent; each parent kind has its own
 * *_if.c file that fills the generic fields and owns its parent pointer.
 */
struct irdma_pci_f {
	struct auxiliary_device *adev;
	struct pci_dev *pcidev;
	u8 __iomem *hw_addr;
	struct msix_entry *msix_entries;
	u32 msix_count;
	u8 pf_id;
	struct dentry *dbg_dir;
	struct ice_lite_rdma_dev_info *ice_lite_info;
};

static inline struct device *irdma_rf_to_dev(struct irdma_pci_f *rf)
{
	return &rf->adev->dev;
}

static inline u32 irdma_rd32(struct irdma_pci_f *rf, u32 reg)
{
	return readl(rf->hw_addr + reg);
}

/* A BAR0 register and its name, for messages and debugfs. */
struct irdma_reg_name {
	const char *name;
	u32 offset;
};

/* Table entry for register E810_<r> from <hw/e810_regs.h>, named "<r>". */
#define IRDMA_REG_NAME(r)	{ .name = #r, .offset = E810_##r }

/* main.c */
int irdma_probe_pf(struct irdma_pci_f *rf);
void irdma_remove_pf(struct irdma_pci_f *rf);

/* hw.c */
int irdma_check_hw(struct irdma_pci_f *rf);

/* debugfs.c */
void irdma_dbg_init(void);
void irdma_dbg_exit(void);
void irdma_dbg_pf_init(struct irdma_pci_f *rf);
void irdma_dbg_pf_exit(struct irdma_pci_f *rf);

/* ice_lite_if.c */
int irdma_ice_lite_register(void);
void irdma_ice_lite_unregister(void);

#endif /* IRDMA_MAIN_H */
