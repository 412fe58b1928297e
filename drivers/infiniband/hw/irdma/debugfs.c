// SPDX-License-Identifier: GPL-2.0-only
/*
 * irdma: debugfs, /sys/kernel/debug/irdma/<aux device>/: "regs" shows, on
 * each read, live values of the BAR0 registers that matter for bring-up;
 * "hmc" the committed HMC layout and its SDs; "cqp" CQP statistics; "tc"
 * the QoS and the QP suspend/resume counters of traffic-class changes;
 * /sys/kernel/debug/irdma/quarantine the memory held for functions that
 * await a reset (quarantine.c); /sys/kernel/debug/irdma/events/<PCI
 * function> the function's event counters (events.c).
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include <hw/e810_regs.h>

#include "main.h"
#include "events.h"
#include "iw.h"
#include "quarantine.h"

static struct dentry *irdma_dbg_root;
static struct dentry *irdma_dbg_events;

static const struct irdma_reg_name irdma_dbg_regs[] = {
	IRDMA_REG_NAME(GLPE_CPUSTATUS0),
	IRDMA_REG_NAME(GLPE_CPUSTATUS1),
	IRDMA_REG_NAME(GLPE_CPUSTATUS2),
	IRDMA_REG_NAME(GLPCI_LBARCTRL),
	IRDMA_REG_NAME(GLGEN_RSTAT),
	IRDMA_REG_NAME(GLNVM_ULD),
	IRDMA_REG_NAME(GLNVM_FLA),
	IRDMA_REG_NAME(GL_MNG_FWSM),
	IRDMA_REG_NAME(PF_FUNC_RID),
	IRDMA_REG_NAME(PFGEN_CTRL),
	IRDMA_REG_NAME(CQPTAIL),
	IRDMA_REG_NAME(CCQPSTATUS),
	IRDMA_REG_NAME(CQPERRCODES),
};

static void irdma_dbg_reg(struct seq_file *m, struct irdma_pci_f *rf,
			  const char *name, u32 offset)
{
	seq_printf(m, "%-16s 0x%08x 0x%08x\n", name, offset,
		   irdma_rd32(rf, offset));
}

/*
 * One line per register: name, BAR0 offset, value read now. GEN_1 (X722):
 * the PE's own registers only, at their GEN_1 offsets.
 */
static int irdma_regs_show(struct seq_file *m, void *unused)
{
	struct irdma_pci_f *rf = m->private;
	const struct e810_pe_regs *r = &rf->gen->regs;
	unsigned int i;

	if (irdma_is_gen1(rf)) {
		for (i = 0; i < ARRAY_SIZE(r->cpustatus); i++) {
			char name[20];

			snprintf(name, sizeof(name), "GLPE_CPUSTATUS%u", i);
			irdma_dbg_reg(m, rf, name, r->cpustatus[i]);
		}
		irdma_dbg_reg(m, rf, "GLPCI_LBARCTRL", r->lbarctrl);
		irdma_dbg_reg(m, rf, "CQPTAIL", r->cqptail);
		irdma_dbg_reg(m, rf, "CCQPSTATUS", r->ccqpstatus);
		irdma_dbg_reg(m, rf, "CQPERRCODES", r->cqperrcodes);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(irdma_dbg_regs); i++)
		seq_printf(m, "%-16s 0x%08x 0x%08x\n", irdma_dbg_regs[i].name,
			   irdma_dbg_regs[i].offset,
			   irdma_rd32(rf, irdma_dbg_regs[i].offset));

	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_regs);

/* The committed HMC layout and the SDs, as the driver and the device see
 * them.
 */
static int irdma_hmc_dbg_show(struct seq_file *m, void *unused)
{
	return irdma_hmc_show(m, m->private);
}
DEFINE_SHOW_ATTRIBUTE(irdma_hmc_dbg);

/* CQP statistics: requests per opcode, completions, errors, timeouts. */
static int irdma_arp_dbg_show(struct seq_file *m, void *unused)
{
	return irdma_arp_show(m, m->private);
}
DEFINE_SHOW_ATTRIBUTE(irdma_arp_dbg);

/* QoS from the parent and the suspend/resume counters (tc.c). */
static int irdma_tc_dbg_show(struct seq_file *m, void *unused)
{
	return irdma_tc_show(m, m->private);
}
DEFINE_SHOW_ATTRIBUTE(irdma_tc_dbg);

static int irdma_iw_dbg_show(struct seq_file *m, void *unused)
{
	return irdma_iw_show(m, m->private);
}
DEFINE_SHOW_ATTRIBUTE(irdma_iw_dbg);

static int irdma_cqp_show(struct seq_file *m, void *unused)
{
	struct irdma_pci_f *rf = m->private;
	struct irdma_cqp_stats *st = &rf->cqp.stats;
	static const char * const modes[] = {
		[IRDMA_CQP_POLL_TAIL] = "poll-cqptail",
		[IRDMA_CQP_POLL_CCQ] = "poll-ccq",
		[IRDMA_CQP_IRQ] = "interrupt",
	};
	unsigned int op;
	u64 posted = 0;

	for (op = 0; op <= E810_CQP_OP_MAX; op++)
		posted += st->posted[op];
	seq_printf(m, "mode %s\nsq_size %u\nhead %u\nin_flight %u\nhung %d\n",
		   modes[rf->cqp.mode], rf->cqp.sq_size, rf->cqp.head,
		   rf->cqp.in_flight, rf->cqp.hung);
	seq_printf(m, "posted %llu\ncompleted %llu\nerrors %llu\ntimeouts %llu\nstale %llu\nmax_wait_us %llu\n",
		   posted, st->completed, st->errors, st->timeouts, st->stale,
		   st->max_wait_us);
	seq_printf(m, "ceq0_events %llu\naeq_events %llu\nceqs %u\n",
		   rf->ceq.events, rf->aeq.events, 1 + rf->ceq_cnt);
	for (op = 0; op <= E810_CQP_OP_MAX; op++)
		if (st->posted[op])
			seq_printf(m, "op %-28s %llu\n", irdma_cqp_op_name(op),
				   st->posted[op]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_cqp);

/**
 * irdma_dbg_pf_init() - create the debugfs directory of one function
 * @rf: per-function state; must stay valid until irdma_dbg_pf_exit()
 *
 * debugfs failures are not errors: the driver works without it.
 */
void irdma_dbg_pf_init(struct irdma_pci_f *rf)
{
	rf->dbg_dir = debugfs_create_dir(dev_name(irdma_rf_to_dev(rf)),
					 irdma_dbg_root);
	debugfs_create_file("regs", 0400, rf->dbg_dir, rf, &irdma_regs_fops);
	debugfs_create_file("hmc", 0400, rf->dbg_dir, rf, &irdma_hmc_dbg_fops);
	debugfs_create_file("cqp", 0400, rf->dbg_dir, rf, &irdma_cqp_fops);
	debugfs_create_file("arp", 0400, rf->dbg_dir, rf, &irdma_arp_dbg_fops);
	debugfs_create_file("tc", 0400, rf->dbg_dir, rf, &irdma_tc_dbg_fops);
	debugfs_create_file("iwarp", 0400, rf->dbg_dir, rf, &irdma_iw_dbg_fops);
}

/**
 * irdma_dbg_pf_exit() - remove the debugfs directory of one function
 * @rf: per-function state
 *
 * Returns only after readers in flight have left, so BAR0 may be given
 * back afterwards.
 */
void irdma_dbg_pf_exit(struct irdma_pci_f *rf)
{
	debugfs_remove_recursive(rf->dbg_dir);
	rf->dbg_dir = NULL;
}

/* Memory held for functions awaiting a reset (quarantine.c). */
static int irdma_qrn_dbg_show(struct seq_file *m, void *unused)
{
	irdma_quarantine_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_qrn_dbg);

/* The event counters of one PCI function (events.c). */
static int irdma_events_dbg_show(struct seq_file *m, void *unused)
{
	irdma_events_show(m, m->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(irdma_events_dbg);

/**
 * irdma_dbg_events_add() - show a function's event counters
 * @name: the function's PCI name
 * @ev: its counters, kept until irdma_dbg_exit()
 */
void irdma_dbg_events_add(const char *name, struct irdma_fn_events *ev)
{
	debugfs_create_file(name, 0400, irdma_dbg_events, ev,
			    &irdma_events_dbg_fops);
}

/**
 * irdma_dbg_init() - create the "irdma" debugfs root
 */
void irdma_dbg_init(void)
{
	irdma_dbg_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("quarantine", 0400, irdma_dbg_root, NULL,
			    &irdma_qrn_dbg_fops);
	irdma_dbg_events = debugfs_create_dir("events", irdma_dbg_root);
}

/**
 * irdma_dbg_exit() - remove the "irdma" debugfs root
 */
void irdma_dbg_exit(void)
{
	debugfs_remove_recursive(irdma_dbg_root);
	irdma_dbg_root = NULL;
	irdma_dbg_events = NULL;
}
