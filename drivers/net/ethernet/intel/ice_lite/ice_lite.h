/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ice_lite: private definitions shared by the files of the PF driver.
 */
#ifndef _ICE_LITE_H_
#define _ICE_LITE_H_

#include <linux/io.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/types.h>
#include <linux/net/intel/ice_lite_rdma.h>

/*
 * MSI-X layout of the PF: fixed vectors first, then the slice reserved for
 * the RDMA auxiliary driver (the MSI-X table index is the vector number the
 * device uses in GLINT_DYN_CTL(n) and the *_CTL MSIX_INDX fields).
 */
enum ice_lite_msix_vector {
	ICE_LITE_MSIX_MISC,		/* OICR and admin queue */
	ICE_LITE_MSIX_LAN,		/* the one LAN queue pair */
	ICE_LITE_MSIX_RDMA_BASE,	/* first RDMA vector */
};

/* RDMA needs one AEQ vector and at least one CEQ vector. */
#define ICE_LITE_MIN_RDMA_MSIX	2U

/**
 * struct ice_lite_pf - state of one E810 physical function
 * @pdev: the PCI function
 * @hw_addr: kernel mapping of all of BAR0
 * @pf_id: PF number (PF_FUNC_RID.FUNC_NUM)
 * @num_msix: MSI-X vectors allocated for the function
 * @rdma_msix: the RDMA slice of the vectors (table index and Linux irq)
 * @num_rdma_msix: number of entries in @rdma_msix
 * @rdma_info: what the RDMA auxiliary driver gets from us
 * @adev_mutex: serialises publishing/withdrawing @adev against events
 * @adev: the published RDMA auxiliary device, NULL while there is none
 */
struct ice_lite_pf {
	struct pci_dev *pdev;
	u8 __iomem *hw_addr;
	u8 pf_id;
	unsigned int num_msix;
	struct msix_entry *rdma_msix;
	unsigned int num_rdma_msix;
	struct ice_lite_rdma_dev_info rdma_info;
	struct mutex adev_mutex;	/* protects adev */
	struct ice_lite_rdma_aux_dev *adev;
};

static inline struct device *ice_lite_pf_to_dev(struct ice_lite_pf *pf)
{
	return &pf->pdev->dev;
}

static inline u32 ice_lite_rd32(struct ice_lite_pf *pf, u32 reg)
{
	return readl(pf->hw_addr + reg);
}

static inline void ice_lite_wr32(struct ice_lite_pf *pf, u32 reg, u32 val)
{
	writel(val, pf->hw_addr + reg);
}

/* ice_lite_reset.c */
int ice_lite_pf_reset(struct ice_lite_pf *pf);

/* ice_lite_irq.c */
int ice_lite_init_msix(struct ice_lite_pf *pf);
void ice_lite_clear_msix(struct ice_lite_pf *pf);

/* ice_lite_rdma.c */
int ice_lite_rdma_plug(struct ice_lite_pf *pf);
void ice_lite_rdma_unplug(struct ice_lite_pf *pf);
void ice_lite_rdma_send_event(struct ice_lite_pf *pf,
			      struct ice_lite_rdma_event *event);

#endif /* _ICE_LITE_H_ */
