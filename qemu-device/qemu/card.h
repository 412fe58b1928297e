/*
 * QEMU glue of the e810 and x722 devices: the functions of one PCI slot
 * are one card (model/e810_card.h), as the E810 and X722 PFs of one
 * adapter are on silicon.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_GLUE_CARD_H
#define E810_GLUE_CARD_H

#include "hw/pci/pci_device.h"

/* @join(pdev, d) for each realized @type device d in @pdev's slot. */
static inline void card_join_slot(PCIDevice *pdev, const char *type,
                                  void (*join)(PCIDevice *pdev,
                                               PCIDevice *other))
{
    PCIBus *bus = pci_get_bus(pdev);
    int fn;

    for (fn = 0; fn < 8; fn++) {
        PCIDevice *d = pci_find_device(bus, pci_bus_num(bus),
                                       PCI_DEVFN(PCI_SLOT(pdev->devfn), fn));

        if (d && d != pdev && object_dynamic_cast(OBJECT(d), type) &&
            DEVICE(d)->realized) {
            join(pdev, d);
        }
    }
}

#endif /* E810_GLUE_CARD_H */
