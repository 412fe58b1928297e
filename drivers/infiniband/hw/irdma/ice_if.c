// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: binding to the kernel's stock ice driver ("ice.roce.<N>" auxiliary
 * devices, IIDC of <linux/net/intel/iidc.h>, Linux 5.14 to 6.15).
 *
 * The IIDC auxiliary device carries only a struct ice_pf, which is private
 * to ice: its layout comes from ice.h of the source of exactly the kernel
 * being built (Kbuild finds it, see ICE_SRC there). Everything that knows
 * ice stays in this file; the rest of the driver sees struct irdma_pci_f.
 *
 * ice's exported services (ice_rdma_update_vsi_filter(),
 * ice_rdma_request_reset(), ice_get_qos_params(), ice_add_rdma_qset(),
 * ice_del_rdma_qset()) are looked up for each call (ice_sym.h).
 *
 * Linux 6.16 replaced this interface (iidc_rdma.h: struct
 * iidc_rdma_core_dev_info, no struct ice_pf): Kbuild builds ice_rdma_if.c
 * there instead.
 *
 * A private header describes one build of ice only: a stable or
 * distribution update can change struct ice_pf and keep the kernel
 * release, and the module would load and misread it. So Kbuild records
 * the GNU build id of the ice.ko it built against (IRDMA_ICE_BUILD_ID,
 * also in modinfo as ice_build_id) and the probe refuses any other ice.
 */

#include <linux/auxiliary_bus.h>
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/elf.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/net/intel/iidc.h>

#include "ice.h"

#include "ice_sym.h"
#include "main.h"
#include "events.h"

MODULE_INFO(ice_build_id, IRDMA_ICE_BUILD_ID);

/*
 * A GNU build id note: its header, the name "GNU" and a SHA-1 id (type 3,
 * NT_GNU_BUILD_ID of the ELF gABI; the kernel defines it only in
 * lib/buildid.c).
 */
#define IRDMA_NT_GNU_BUILD_ID	3
#define IRDMA_BUILD_ID_LEN	20
#define IRDMA_BUILD_ID_NOTE	(sizeof(struct elf_note) + 4 + IRDMA_BUILD_ID_LEN)

static struct ice_pf *irdma_ice_adev_to_pf(struct auxiliary_device *adev)
{
	return container_of(adev, struct iidc_auxiliary_dev, adev)->pf;
}

/*
 * irdma_ice_build_id() - the GNU build id of the loaded module @mod
 * @mod: the module
 * @id: where the id goes
 *
 * The linker's .note.gnu.build-id section is allocated, so the module
 * loader places it with the read-only data (layout_sections()), where
 * /sys/module/<name>/notes/ also finds it. Without
 * CONFIG_STACKTRACE_BUILD_ID (Debian) the kernel keeps no parsed copy, so
 * the note is looked up there: a 4-byte aligned NT_GNU_BUILD_ID note with
 * the name "GNU" and a 20-byte id. That memory is no C object (KASAN
 * keeps redzones between the module's globals), so it is read through
 * copy_from_kernel_nofault(), a window at a time.
 *
 * Return: true if @id was found.
 */
static bool irdma_ice_build_id(const struct module *mod,
			       u8 id[IRDMA_BUILD_ID_LEN])
{
	const size_t win = 1024;
	const u8 *p, *end;
	size_t len, off;
	bool found = false;
	u8 *buf;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	p = mod->mem[MOD_RODATA].base;
	end = p + mod->mem[MOD_RODATA].size;
#else
	p = (const u8 *)mod->core_layout.base + mod->core_layout.text_size;
	end = (const u8 *)mod->core_layout.base + mod->core_layout.ro_size;
#endif
	buf = kmalloc(win, GFP_KERNEL);
	if (!buf)
		return false;
	/* Windows overlap by a note, so none is missed at an edge. */
	for (p = PTR_ALIGN(p, 4); !found && p + IRDMA_BUILD_ID_NOTE <= end;
	     p += win - ALIGN(IRDMA_BUILD_ID_NOTE, 4)) {
		len = min_t(size_t, win, end - p);
		if (copy_from_kernel_nofault(buf, p, len))
			break;
		for (off = 0; off + IRDMA_BUILD_ID_NOTE <= len; off += 4) {
			const struct elf_note *n = (const void *)(buf + off);

			if (n->n_namesz == 4 &&
			    n->n_descsz == IRDMA_BUILD_ID_LEN &&
			    n->n_type == IRDMA_NT_GNU_BUILD_ID &&
			    !memcmp(buf + off + sizeof(*n), "GNU", 4)) {
				memcpy(id, buf + off + sizeof(*n) + 4,
				       IRDMA_BUILD_ID_LEN);
				found = true;
				break;
			}
		}
	}
	kfree(buf);
	return found;
}

/*
 * irdma_ice_check_build() - is the bound ice the one ice.h describes?
 *
 * The owner of the PCI driver bound to the function is the ice module
 * (pci_register_driver() records it); it cannot unload while its
 * auxiliary device is being probed.
 */
static int irdma_ice_check_build(struct auxiliary_device *adev)
{
	struct device_driver *drv = adev->dev.parent ? adev->dev.parent->driver : NULL;
	char have[2 * IRDMA_BUILD_ID_LEN + 1] = "none";
	u8 id[IRDMA_BUILD_ID_LEN];
	bool found = false;

	if (drv && drv->owner)
		found = irdma_ice_build_id(drv->owner, id);
	if (found)
		snprintf(have, sizeof(have), "%*phN", IRDMA_BUILD_ID_LEN, id);
	if (found && !strcmp(have, IRDMA_ICE_BUILD_ID))
		return 0;
	dev_err(&adev->dev,
		"irdma was built for the ice.ko with build id %s, the running ice has %s: rebuild irdma against this kernel's ice (make install, or dkms)\n",
		IRDMA_ICE_BUILD_ID, have);
	return -ENOEXEC;
}

/* Parent service: the VSI's RoCEv2 filter. */
static int irdma_ice_vsi_filter(struct irdma_pci_f *rf, bool enable)
{
	return irdma_ice_call(ice_rdma_update_vsi_filter, rf->ice_pf,
			      rf->vsi_id, enable);
}

/* Parent service: a PF reset (asynchronous: ice unbinds and rebinds us). */
static int irdma_ice_request_reset(struct irdma_pci_f *rf)
{
	return irdma_ice_call(ice_rdma_request_reset, rf->ice_pf, IIDC_PFR);
}

/*
 * Parent service: an RDMA qset of traffic class @tc (ice_add_rdma_qset():
 * a Tx scheduler leaf named @qs_handle under the main VSI's TC node).
 * vport_id is the VSI's hardware number, as upstream's
 * irdma_lan_register_qset() passes it (ice_del_rdma_qset() looks it up).
 */
static int irdma_ice_add_qset(struct irdma_pci_f *rf, u8 tc, u16 qs_handle,
			      u32 *teid)
{
	struct iidc_rdma_qset_params qset = {
		.qs_handle = qs_handle,
		.vport_id = rf->vsi_id,
		.tc = tc,
	};
	int err;

	err = irdma_ice_call(ice_add_rdma_qset, rf->ice_pf, &qset);
	if (!err)
		*teid = qset.teid;
	return err;
}

/* Parent service: remove a qset irdma_ice_add_qset() registered. */
static int irdma_ice_del_qset(struct irdma_pci_f *rf, u8 tc, u16 qs_handle,
			      u32 teid)
{
	struct iidc_rdma_qset_params qset = {
		.teid = teid,
		.qs_handle = qs_handle,
		.vport_id = rf->vsi_id,
		.tc = tc,
	};

	return irdma_ice_call(ice_del_rdma_qset, rf->ice_pf, &qset);
}

/* The parent's QoS (DCBX configuration, PRTDCB_TUP2TC) in our terms. */
static int irdma_ice_qos(struct ice_pf *pf, struct irdma_qos *qos)
{
	struct iidc_qos_params *p;
	unsigned int i;

	static_assert(IIDC_MAX_USER_PRIORITY == IRDMA_MAX_UP);
	static_assert(IEEE_8021QAZ_MAX_TCS == IRDMA_MAX_UP);
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	if (!irdma_ice_call_void(ice_get_qos_params, pf, p)) {
		kfree(p);
		return -ENODEV;
	}

	qos->num_tc = p->num_tc;
	for (i = 0; i < IRDMA_MAX_UP; i++) {
		qos->up2tc[i] = p->up2tc[i];
		qos->rel_bw[i] = p->tc_info[i].rel_bw;
	}
	kfree(p);
	return 0;
}

/* A reset is under way; with ICE_RESET_OICR_RECV it already happened. */
static bool irdma_ice_resetting(struct ice_pf *pf, bool *done)
{
	*done = test_bit(ICE_RESET_OICR_RECV, pf->state);
	return *done || test_bit(ICE_PREPARED_FOR_RESET, pf->state) ||
	       test_bit(ICE_PFR_REQ, pf->state) ||
	       test_bit(ICE_CORER_REQ, pf->state) ||
	       test_bit(ICE_GLOBR_REQ, pf->state);
}

/**
 * irdma_ice_event_handler() - take an IIDC event from ice
 * @pf: the parent
 * @event: the event
 *
 * The same actions, counters and debug lines as the ice_lite binding. ice sends no
 * BEFORE_MTU_CHANGE (only AFTER_MTU_CHANGE, from its service task, without
 * RTNL) and no reset warning: before a reset it withdraws the auxiliary
 * device (ice_prepare_for_reset()), and irdma_ice_remove() looks at its
 * reset state then. Link changes reach us through the netdev notifier
 * (main.c), as with ice_lite.
 *
 * Context: Process context; ice holds the auxiliary device lock.
 */
static void irdma_ice_event_handler(struct ice_pf *pf,
				    struct iidc_event *event)
{
	struct irdma_pci_f *rf = auxiliary_get_drvdata(pf->adev);
	struct device *dev = &pf->adev->dev;
	struct irdma_qos qos;
	unsigned int type;
	int err;

	if (!rf)
		return;
	for_each_set_bit(type, event->type, IIDC_EVENT_NBITS) {
		switch (type) {
		case IIDC_EVENT_BEFORE_MTU_CHANGE:
			irdma_mtu_changed(rf, false);
			break;
		case IIDC_EVENT_AFTER_MTU_CHANGE:
			irdma_mtu_changed(rf, true);
			break;
		case IIDC_EVENT_BEFORE_TC_CHANGE:
			dev_dbg(dev, "TC change: before, %u TCs\n",
				rf->tc.qos.num_tc);
			irdma_tc_before(rf);
			break;
		case IIDC_EVENT_AFTER_TC_CHANGE:
			err = irdma_ice_qos(pf, &qos);
			if (err) {
				dev_err(dev, "TC change: QoS not read: %d\n",
					err);
				qos = rf->tc.qos;
			}
			dev_dbg(dev, "TC change: after, %u TCs\n", qos.num_tc);
			irdma_tc_after(rf, &qos);
			break;
		case IIDC_EVENT_CRIT_ERR:
			irdma_crit_err(rf, event->reg);
			break;
		default:
			dev_dbg(dev, "event %u (reg 0x%08x)\n", type,
				event->reg);
			break;
		}
	}
}

/**
 * irdma_ice_probe() - bind to an ice RDMA auxiliary device
 * @adev: the auxiliary device ("ice.roce.<N>" or "ice.iwarp.<N>")
 * @id: the matching id table entry
 *
 * Refuses an ice other than the build ice.h describes. Then fills the
 * per-function state from struct ice_pf as upstream's
 * irdma_fill_device_info() reads it: BAR0 mapping, PCI device, the MSI-X
 * vectors ice reserved for RDMA, PF number, the main VSI's hardware number
 * and netdev; then the common bind, in iWARP mode when ice's RoCEv2 bit is
 * clear (ice.iwarp.<N>).
 *
 * Context: Process context; the auxiliary device lock is held.
 * Return: 0 or a negative errno.
 */
static int irdma_ice_probe(struct auxiliary_device *adev,
			   const struct auxiliary_device_id *id)
{
	struct ice_pf *pf = irdma_ice_adev_to_pf(adev);
	struct irdma_pci_f *rf;
	struct ice_vsi *vsi;
	struct irdma_qos qos;
	int err;

	/* Before the first look into struct ice_pf. */
	err = irdma_ice_check_build(adev);
	if (err)
		return err;
	vsi = ice_get_main_vsi(pf);
	/* As upstream irdma_fill_device_info(): iWARP unless RoCEv2. */
	if (!(pf->rdma_mode & (IIDC_RDMA_PROTOCOL_ROCEV2 |
			       IIDC_RDMA_PROTOCOL_IWARP))) {
		dev_err(&adev->dev, "ice offers no RDMA protocol (0x%x)\n",
			pf->rdma_mode);
		return -EOPNOTSUPP;
	}
	if (!vsi || !vsi->netdev) {
		dev_err(&adev->dev, "ice has no main VSI with a netdev\n");
		return -EIO;
	}
	if (!pf->msix_entries || !pf->num_rdma_msix) {
		dev_err(&adev->dev, "ice reserved no MSI-X vectors for RDMA\n");
		return -EIO;
	}
	err = irdma_ice_qos(pf, &qos);
	if (err)
		return err;

	rf = kzalloc(sizeof(*rf), GFP_KERNEL);
	if (!rf)
		return -ENOMEM;

	rf->adev = adev;
	rf->pcidev = pf->pdev;
	rf->hw_addr = pf->hw.hw_addr;
	rf->msix_entries = &pf->msix_entries[pf->rdma_base_vector];
	rf->msix_count = pf->num_rdma_msix;
	rf->pf_id = pf->hw.pf_id;
	rf->netdev = vsi->netdev;
	rf->vsi_id = vsi->vsi_num;
	rf->iwarp = !(pf->rdma_mode & IIDC_RDMA_PROTOCOL_ROCEV2);
	rf->vsi_filter = irdma_ice_vsi_filter;
	rf->request_reset = irdma_ice_request_reset;
	rf->add_qset = irdma_ice_add_qset;
	rf->del_qset = irdma_ice_del_qset;
	rf->ice_pf = pf;
	return irdma_bind(rf, &qos);
}

/**
 * irdma_ice_remove() - unbind from an ice RDMA auxiliary device
 * @adev: the auxiliary device
 *
 * ice withdraws the device before it unloads, before a PF reset it
 * requested (the function still works: the usual teardown runs) and after
 * a reset the hardware announced (ICE_RESET_OICR_RECV: the function lost
 * its state, so no device commands are sent, as after a critical error).
 *
 * Context: Process context; the auxiliary device lock is held.
 */
static void irdma_ice_remove(struct auxiliary_device *adev)
{
	struct irdma_pci_f *rf = auxiliary_get_drvdata(adev);
	bool done;

	if (irdma_ice_resetting(rf->ice_pf, &done)) {
		dev_dbg(&adev->dev, "ice resets the function%s\n",
			done ? " (already reset)" : "");
		irdma_ev_inc(rf, IRDMA_EV_PARENT_RESETS);
		/* Nor can a hung CQP take the teardown commands. */
		if (done || rf->cqp.hung)
			WRITE_ONCE(rf->resetting, true);
	}
	irdma_unbind(rf);
}

static const struct auxiliary_device_id irdma_ice_id_table[] = {
	{ .name = "ice.roce" },
	{ .name = "ice.iwarp" },
	{ }
};
MODULE_DEVICE_TABLE(auxiliary, irdma_ice_id_table);

/* ice finds the event handler with container_of() on the driver. */
static struct iidc_auxiliary_drv irdma_ice_aux_drv = {
	.adrv = {
		.name = "ice",
		.id_table = irdma_ice_id_table,
		.probe = irdma_ice_probe,
		.remove = irdma_ice_remove,
	},
	.event_handler = irdma_ice_event_handler,
};

/**
 * irdma_ice_register() - register the auxiliary driver for the stock ice
 *
 * Return: 0 or a negative errno.
 */
int irdma_ice_register(void)
{
	return auxiliary_driver_register(&irdma_ice_aux_drv.adrv);
}

/**
 * irdma_ice_unregister() - undo irdma_ice_register()
 */
void irdma_ice_unregister(void)
{
	auxiliary_driver_unregister(&irdma_ice_aux_drv.adrv);
}
