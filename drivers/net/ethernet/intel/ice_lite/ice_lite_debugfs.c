// SPDX-License-Identifier: GPL-2.0-only
/* ice_lite: debugfs, /sys/kernel/debug/ice_lite/<PCI function>/ (as ice's
 * /sys/kernel/debug/ice/<PCI function>/): "events" counts what happened to
 * the function (resets, rebuilds, link changes, MTU and ETS changes,
 * critical errors) instead of logging each healthy-path step; see
 * docs/debugging.md. The directory lives as long as the PF is bound.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "ice_lite.h"

static struct dentry *ice_lite_dbg_root;

static const char * const ice_lite_ev_names[ICE_LITE_EV_NUM] = {
	[ICE_LITE_EV_PF_RESETS] = "pf_resets",
	[ICE_LITE_EV_RESET_REQUESTS] = "reset_requests",
	[ICE_LITE_EV_REBUILDS] = "rebuilds",
	[ICE_LITE_EV_REBUILD_ERRORS] = "rebuild_errors",
	[ICE_LITE_EV_LINK_UP] = "link_up",
	[ICE_LITE_EV_LINK_DOWN] = "link_down",
	[ICE_LITE_EV_MTU_CHANGES] = "mtu_changes",
	[ICE_LITE_EV_CRIT_ERRORS] = "crit_errors",
	[ICE_LITE_EV_ETS_APPLIED] = "ets_applied",
	[ICE_LITE_EV_ETS_REFUSED] = "ets_refused",
};

/* One "name value" line per counter, then the link as last reported. */
static int ice_lite_events_show(struct seq_file *m, void *unused)
{
	struct ice_lite_pf *pf = m->private;
	struct ice_lite_link link;
	unsigned int i;

	for (i = 0; i < ICE_LITE_EV_NUM; i++)
		seq_printf(m, "%s %lld\n", ice_lite_ev_names[i],
			   (long long)atomic64_read(&pf->ev[i]));
	ice_lite_link_get(pf, &link);
	seq_printf(m, "link %s\nlink_speed_mbps %u\n", link.up ? "up" : "down",
		   ice_lite_link_speed_mbps(link.speed));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ice_lite_events);

/**
 * ice_lite_dbg_pf_init() - create the debugfs directory of one PF
 * @pf: the PF; must stay valid until ice_lite_dbg_pf_exit()
 *
 * debugfs failures are not errors: the driver works without it.
 */
void ice_lite_dbg_pf_init(struct ice_lite_pf *pf)
{
	pf->dbg_dir = debugfs_create_dir(pci_name(pf->pdev), ice_lite_dbg_root);
	debugfs_create_file("events", 0400, pf->dbg_dir, pf,
			    &ice_lite_events_fops);
}

/**
 * ice_lite_dbg_pf_exit() - remove the debugfs directory of one PF
 * @pf: the PF
 */
void ice_lite_dbg_pf_exit(struct ice_lite_pf *pf)
{
	debugfs_remove_recursive(pf->dbg_dir);
	pf->dbg_dir = NULL;
}

/**
 * ice_lite_dbg_init() - create the "ice_lite" debugfs root
 */
void ice_lite_dbg_init(void)
{
	ice_lite_dbg_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
}

/**
 * ice_lite_dbg_exit() - remove the "ice_lite" debugfs root
 */
void ice_lite_dbg_exit(void)
{
	debugfs_remove_recursive(ice_lite_dbg_root);
	ice_lite_dbg_root = NULL;
}
