/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * irdma: per-function state and the prototypes shared between its files.
 */
#ifndef IRDMA_MAIN_H
#define IRDMA_MAIN_H

#include <linux/atomic.h>
#include <linux/auxiliary_bus.h>
#include <linux/bitops.h>
#include <linux/completion.h>
#include <linux/idr.h>
#include <linux/if_ether.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include <hw/e810_cqp.h>
#include <hw/e810_gen.h>
#include <hw/e810_hmc.h>

struct dentry;
struct seq_file;
struct i40e_info;
struct ice_lite_rdma_dev_info;
struct ice_pf;
struct iidc_rdma_core_dev_info;
struct irdma_fn_events;
struct irdma_pci_f;
struct irdma_pble_pool;

/**
 * struct irdma_gen - what differs between the hardware generations, as data
 * @hw: formats and operations (include/hw/e810_gen.h)
 * @regs: the PE registers' offsets in BAR0
 */
struct irdma_gen {
	struct e810_hw_gen hw;
	struct e810_pe_regs regs;
};

extern const struct irdma_gen irdma_gen_1;
extern const struct irdma_gen irdma_gen_2;

/* BAR0 offset of PE register @r (a field of struct e810_pe_regs). */
#define IRDMA_REG(rf, r)	((rf)->gen->regs.r)

/* User priorities and traffic classes (IEEE 802.1Qaz). */
#define IRDMA_MAX_UP		8

/*
 * Fewest MSI-X vectors irdma runs on: the AEQ's and one CEQ's, shared or
 * not (upstream's IRDMA_MIN_MSIX; ice 6.12's ICE_MIN_RDMA_MSIX).
 */
#define IRDMA_MIN_MSIX		2

/* One coherent DMA buffer. */
struct irdma_dma {
	void *va;
	dma_addr_t pa;
	size_t size;
};

/* One HMC object type as queried (max, size) and committed (cnt, base). */
struct irdma_hmc_obj {
	u64 base;
	u32 cnt;
	u32 max;
	u32 size;
};

/**
 * struct irdma_hmc_sd - one 2 MiB segment of the function's FPM space
 * @mem: direct backing (2 MiB) or, for a paged SD, the PD page
 * @pages: the 512 backing pages of a paged SD (NULL when direct)
 * @valid: programmed valid in the device
 * @direct: direct (true) or paged
 */
struct irdma_hmc_sd {
	struct irdma_dma mem;
	struct irdma_dma *pages;
	bool valid;
	bool direct;
};

/**
 * struct irdma_hmc - the committed HMC of one function
 * @obj: per object type, from QUERY_FPM_VAL and COMMIT_FPM_VAL
 * @first_sd: FIRST_PE_SD_INDEX
 * @max_sds: MAX_PE_SDS (SDs the function may use)
 * @sd_slots: entries of @sd: @max_sds, or with SDs shared with the LAN
 *	HMC (GEN_1) @first_sd + @max_sds
 * @max_ceqs: CEQs the function may create
 * @ht_mult: hash table multiplier
 * @timer_bucket: timer buckets
 * @xf_block: XF block size (XFFL)
 * @q1_block: Q1 block size (Q1FL)
 * @rrf_block: RRF block size (RRFFL)
 * @ooiscf_block: OOISC block size (OOISCFFL)
 * @qp_wanted: QPs the resource profile asked for
 * @sd_cnt: SDs the committed layout spans
 * @sd_obj_cnt: SDs backed for the objects other than PBLEs
 * @sd: @max_sds segment descriptors as the driver programmed them
 * @pble: the PBLE pool (pble.c)
 * @ids: per object type, the indexes handed out (MR, FSIAV, FSIMC)
 * @mcgs: multicast groups (FSIMC objects) in use (mcast.c)
 * @mcg_lock: protects @mcgs
 */
struct irdma_hmc {
	struct irdma_hmc_obj obj[E810_HMC_OBJ_MAX];
	u32 first_sd;
	u32 max_sds;
	u32 sd_slots;
	u32 max_ceqs;
	u32 ht_mult;
	u32 timer_bucket;
	u32 xf_block;
	u32 q1_block;
	u32 rrf_block;
	u32 ooiscf_block;
	u32 qp_wanted;
	u32 sd_cnt;
	u32 sd_obj_cnt;
	struct irdma_hmc_sd *sd;
	struct irdma_pble_pool *pble;
	struct ida ids[E810_HMC_OBJ_MAX];
	struct list_head mcgs;
	struct mutex mcg_lock;	/* mcgs */
};

/* How CQP completions are detected (docs/hw-reference.md 2.3, 2.6). */
enum irdma_cqp_mode {
	IRDMA_CQP_POLL_TAIL,	/* no CCQ: CQPTAIL moves */
	IRDMA_CQP_POLL_CCQ,	/* CCQ, no interrupts: poll its CQEs */
	IRDMA_CQP_IRQ,		/* CCQ armed, CQEs announced on CEQ 0 */
};

/* Completion callback of an asynchronous CQP request. */
typedef void (*irdma_cqp_cb)(struct irdma_pci_f *rf, u32 id, int status,
			     u32 ret_val);

/**
 * struct irdma_cqp_req - one CQP request in flight
 * @id: the request id, kept per SQ slot (the "scratch") and looked up
 *	when the completion arrives; never a pointer
 * @op: CQP opcode
 * @done: completion seen
 * @error: the device reported an error
 * @major: major error code
 * @minor: minor error code
 * @ret_val: op_ret_val of the completion
 * @cmpl: signalled on completion (synchronous requests)
 * @cb: called on completion (asynchronous requests, which are freed then)
 */
struct irdma_cqp_req {
	u32 id;
	u8 op;
	bool done;
	bool error;
	u16 major;
	u16 minor;
	u32 ret_val;
	struct completion cmpl;
	irdma_cqp_cb cb;
};

/* CQP statistics (debugfs "cqp"). */
struct irdma_cqp_stats {
	u64 posted[E810_CQP_OP_MAX + 1];
	u64 completed;
	u64 errors;
	u64 timeouts;
	u64 stale;
	u64 max_wait_us;
};

/**
 * struct irdma_cqp - the control QP, its CCQ and the command layer
 * @ctx: host context
 * @sq: SQ ring of @sq_size WQEs
 * @fpm_buf: QUERY_FPM_VAL / COMMIT_FPM_VAL buffer
 * @feat_buf: QUERY_RDMA_FEATURES buffer
 * @scratch: request id per SQ slot
 * @sq_size: SQ entries
 * @head: next SQ slot to fill
 * @in_flight: WQEs posted and not completed
 * @polarity: valid bit of the current pass over the SQ
 * @ccq_ring: CCQ ring
 * @ccq_shadow: CCQ shadow area
 * @ccq_size: CCQ entries
 * @ccq_head: next CCQ entry to read
 * @ccq_polarity: valid bit expected at @ccq_head
 * @ccq_armseq: arm sequence number
 * @mode: how completions are detected
 * @lock: protects the SQ, the CCQ and @reqs; taken with interrupts off
 *	(CEQ 0's tasklet reaps the CCQ, ARP writes post under arp.lock)
 * @mutex: serializes requests while completions are polled
 * @reqs: requests in flight by id
 * @ah_waits: non-sleeping AH ops by request id (ah.c)
 * @next_id: next request id
 * @hung: the watchdog gave up on the CQP
 * @stats: statistics
 */
struct irdma_cqp {
	struct irdma_dma ctx;
	struct irdma_dma sq;
	struct irdma_dma fpm_buf;
	struct irdma_dma feat_buf;
	u32 *scratch;
	u32 sq_size;
	u32 head;
	u32 in_flight;
	bool polarity;
	struct irdma_dma ccq_ring;
	struct irdma_dma ccq_shadow;
	u32 ccq_size;
	u32 ccq_head;
	bool ccq_polarity;
	u32 ccq_armseq;
	enum irdma_cqp_mode mode;
	spinlock_t lock;	/* SQ, CCQ, reqs */
	struct mutex mutex;	/* polled requests */
	struct xarray reqs;
	struct xarray ah_waits;
	u32 next_id;
	bool hung;
	struct irdma_cqp_stats stats;
	/* Watchdog of the requests nobody waits for (irdma_cqp_post_async). */
	u32 async_pending;
	struct delayed_work async_wd;
	unsigned long wd_last;
	u64 wd_seen;
	u32 wd_tail;
};

/**
 * struct irdma_eq - a CEQ or the AEQ
 * @rf: owner
 * @ring: the ring
 * @size: entries
 * @head: next entry to read
 * @polarity: valid bit expected at @head
 * @id: CEQ id (0 for the AEQ)
 * @msix_idx: index into the parent's vector list
 * @vector: MSI-X vector number (GLINT_DYN_CTL index)
 * @irq: Linux irq
 * @created: created in the device
 * @irq_on: handler installed
 * @events: entries processed
 * @dpc: drains the queue(s) of the vector; scheduled by its hard handler
 * @name: irq name
 */
struct irdma_eq {
	struct irdma_pci_f *rf;
	struct irdma_dma ring;
	u32 size;
	u32 head;
	bool polarity;
	u32 id;
	u32 msix_idx;
	u32 vector;
	u32 irq;
	bool created;
	bool irq_on;
	u64 events;
	struct tasklet_struct dpc;
	char name[48];
};

/**
 * struct irdma_arp_entry - one entry of the engine's ARP cache
 * @ip: IPv4 in ip[0] (host order) or IPv6, ip[0] most significant
 * @mac: the MAC the device has for it
 * @ipv4: @ip is IPv4
 * @local: one of the netdev's own addresses
 * @stale: scratch flag of irdma_arp_sync_local()
 * @refs: QPs and AHs using the entry
 */
struct irdma_arp_entry {
	u32 ip[4];
	u8 mac[ETH_ALEN];
	bool ipv4;
	bool local;
	bool stale;
	u32 refs;
};

/**
 * struct irdma_arp - the ARP cache (arp.c)
 * @tbl: @size entries, one per HMC ARP object; entry 0 is reserved
 * @size: entries
 * @lock: protects @tbl and serializes the MANAGE_ARP commands
 * @sync_work: re-reads the netdev's addresses (address notifiers)
 */
struct irdma_arp {
	struct irdma_arp_entry *tbl;
	u32 size;
	spinlock_t lock;	/* tbl; taken in atomic context (kernel AHs) */
	struct work_struct sync_work;
};

/* QoS as the parent reports it (a copy the core code may read). */
struct irdma_qos {
	u8 num_tc;
	u8 up2tc[IRDMA_MAX_UP];
	u8 rel_bw[IRDMA_MAX_UP];
};

/**
 * struct irdma_tc - traffic-class changes: QP suspend and resume (tc.c)
 * @lock: serializes the BEFORE/AFTER handling and guards @suspended
 * @wq: woken when the last suspend AE arrives and when a change ends
 * @pending: BEFORE_TC_CHANGE seen, AFTER_TC_CHANGE not yet
 * @suspends_left: SUSPEND_QP requests whose AE 0x0900 has not arrived
 * @suspended: bitmap of the QP ids this change suspended (@nbits bits)
 * @nbits: bits in @suspended
 * @qos: QoS last read from the parent
 * @rdma_tc: traffic class of user priority 0 (the default priority)
 * @moved: QPs a change moved to another qset (ws.c)
 * @changes: BEFORE_TC_CHANGE events handled
 * @suspends: SUSPEND_QP requests the device accepted
 * @suspend_aes: AEs 0x0900 seen (late ones too)
 * @resumes: RESUME_QP requests the device accepted
 * @resumed: RESUME_QP requests accepted in the change being finished
 * @timeouts: changes whose suspend AEs did not all arrive in time
 * @errors: SUSPEND_QP / RESUME_QP requests the device refused
 */
struct irdma_tc {
	struct mutex lock;	/* change handling, suspended */
	wait_queue_head_t wq;
	bool pending;
	atomic_t suspends_left;
	unsigned long *suspended;
	u32 nbits;
	struct irdma_qos qos;
	u8 rdma_tc;
	u64 moved;
	u64 changes;
	u64 suspends;
	atomic64_t suspend_aes;
	u64 resumes;
	u32 resumed;
	u64 timeouts;
	u64 errors;
};

/**
 * struct irdma_ws_leaf - the RDMA qset of one traffic class (ws.c)
 * @node: its work-scheduler node id (0: no leaf)
 * @qs_handle: what the device returned for it; QP contexts carry it
 * @teid: the parent's Tx scheduler node for it
 * @refs: QPs using it
 */
struct irdma_ws_leaf {
	u16 node;
	u16 qs_handle;
	u32 teid;
	u32 refs;
};

/**
 * struct irdma_ws - the work-scheduler tree (ws.c)
 * @lock: protects everything here and the QPs' qset fields
 * @ids: node ids 1.. (the root is 0)
 * @root: the root node exists
 * @vsi_node: id of the VSI's node (0: none)
 * @leaf: per traffic class
 * @qps: the QPs holding a leaf (struct irdma_qp.ws_link)
 * @adds: leaves made
 * @removes: leaves removed
 * @errors: leaves that could not be made
 */
struct irdma_ws {
	struct mutex lock;	/* everything here */
	struct ida ids;
	bool root;
	u16 vsi_node;
	struct irdma_ws_leaf leaf[IRDMA_MAX_UP];
	struct list_head qps;
	u64 adds;
	u64 removes;
	u64 errors;
};

struct irdma_ilq;

/**
 * struct irdma_iw - iWARP mode: the engine's tables and the listeners (iw.c)
 * @lock: protects @listeners, @listens and the connections (cm.c)
 * @listeners: struct irdma_listener, one per iw_cm listening id
 * @listens: listeners created so far
 * @apbvt_lock: serializes APBVT changes
 * @apbvt: users per local TCP port in the APBVT (xa_mk_value)
 * @rx_dropped: ILQ segments no connection took
 * @rx_malformed: ILQ segments refused by the parser
 * @rx_listen_syns: connection requests (SYN) for a listener
 * @terms_sent: Terminates the driver had the device send (qp.c)
 * @terms_rcvd: Terminates received (AE 0x0509)
 * @terms_timeouts: Terminate exchanges ended by the 1 s timer
 * @qh_lock: guards the listeners' address lists against the receive path
 * @addr_work: follows the netdev's addresses for wildcard listeners
 * @cm: the connections (cm.c)
 */
struct irdma_iw {
	struct mutex lock;	/* listeners, listens */
	struct list_head listeners;
	u64 listens;
	struct mutex apbvt_lock;	/* APBVT changes */
	struct xarray apbvt;
	atomic64_t rx_dropped;
	atomic64_t rx_malformed;
	atomic64_t rx_listen_syns;
	atomic64_t terms_sent;
	atomic64_t terms_rcvd;
	atomic64_t terms_timeouts;
	spinlock_t qh_lock;	/* listeners' address lists */
	struct work_struct addr_work;
	struct irdma_cm *cm;
};

/* Steps of the bring-up, for the reverse-order undo. */
enum irdma_init_state {
	IRDMA_INIT_NONE,
	IRDMA_INIT_CQP,
	IRDMA_INIT_HMC,
	IRDMA_INIT_CCQ,
	IRDMA_INIT_CEQ0,
	IRDMA_INIT_CEQS,
	IRDMA_INIT_AEQ,
	IRDMA_INIT_LOCAL_MAC,
	IRDMA_INIT_ARP,
	IRDMA_INIT_VSI_FILTER,
	IRDMA_INIT_ILQ,
	IRDMA_INIT_IBDEV,
};

/**
 * struct irdma_device - the ib_device of one function
 * @ibdev: the ib_device (first: ib_alloc_device() contract)
 * @rf: the function
 * @pd_ida: PD ids
 */
struct irdma_device {
	struct ib_device ibdev;
	struct irdma_pci_f *rf;
	struct ida pd_ida;
};

static inline struct irdma_device *to_iwdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct irdma_device, ibdev);
}

/**
 * struct irdma_ucontext - a user context
 * @ibucontext: the ib_ucontext (first)
 * @db_entry: mmap entry of the doorbell page
 * @qbufs: queue buffers registered with reg_type QP/CQ (mr.c)
 * @qbuf_lock: protects @qbufs
 * @use_raw_attrs: create_qp carries the consumer's capabilities (ABI
 *	comp_mask IRDMA_ALLOC_UCTX_USE_RAW_ATTR), not ring sizes
 */
struct irdma_ucontext {
	struct ib_ucontext ibucontext;
	struct rdma_user_mmap_entry *db_entry;
	bool use_raw_attrs;
	struct list_head qbufs;
	spinlock_t qbuf_lock;	/* qbufs */
};

static inline struct irdma_ucontext *to_irdma_uctx(struct ib_ucontext *uctx)
{
	return container_of(uctx, struct irdma_ucontext, ibucontext);
}

/* A PD is only an id on the E810. */
struct irdma_pd {
	struct ib_pd ibpd;
	u32 pd_id;
};

static inline struct irdma_pd *to_irdma_pd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct irdma_pd, ibpd);
}

/**
 * struct irdma_pci_f - state of the RDMA engine of one PCI function
 * @adev: the auxiliary device we are bound to
 * @pcidev: the PCI function (DMA, BAR0 physical address)
 * @hw_addr: the parent's kernel mapping of all of BAR0
 * @msix_entries: MSI-X vectors the parent reserved for RDMA
 * @msix_count: number of entries in @msix_entries (at least
 *	%IRDMA_MIN_MSIX)
 * @msix_shared: no more entries than online CPUs when CEQ 0 was set up:
 *	entry 0 serves the AEQ and CEQ 0 with one handler (intr.c)
 * @aeq_on_ceq0: with @msix_shared, the AEQ exists and CEQ 0's handler
 *	drains it
 * @pf_id: PF number
 * @gen: the hardware generation (irdma_bind() defaults it to GEN_2)
 * @dbg_dir: debugfs directory of this function
 * @events: the function's event counters (events.c), or NULL
 * @ice_lite_info: parent data when the parent is ice_lite; only
 *	ice_lite_if.c looks inside it
 * @ice_pf: the parent when it is the stock ice of Linux 6.15 and older;
 *	only ice_if.c looks inside it
 * @ice_cdev: the parent when it is the stock ice of Linux 6.16+; only
 *	ice_rdma_if.c looks inside it
 * @i40e_ldev: the parent when it is the stock i40e (X722, GEN_1); only
 *	i40e_if.c looks inside it
 * @qs_handle: GEN_1: the VSI's queue set for user priority 0, which the
 *	parent made (no work-scheduler nodes on GEN_1)
 * @ice_reset_asked: ice_rdma_if.c: ice took our function-reset request,
 *	so its next withdrawal of the device is that reset
 * @netdev: the parent's Ethernet netdev
 * @vsi_id: hardware number of the parent's VSI
 * @iwarp: the parent offers iWARP, not RoCEv2: the engine runs iWARP
 *	(CQP PROTOCOL_USED), the ib_device is an RNIC with the iw_cm ops
 *	(iw.c), the ILQ carries the connection manager's segments (ilq.c)
 * @vsi_filter: parent service: RoCEv2 VSI filter on/off
 * @request_reset: parent service: schedule a function reset
 * @add_qset: parent service: register the RDMA qset @qs_handle of traffic
 *	class @tc (a Tx scheduler leaf), returning its TEID
 * @del_qset: parent service: remove a qset @add_qset registered
 * @state: how far the bring-up got
 * @resetting: the parent resets the function: skip device commands
 * @engine_reset: the function was seen reset while @resetting: its memory
 *	can be freed at once (quarantine.c)
 * @fw_major: firmware version from QUERY_RDMA_FEATURES
 * @fw_minor: firmware version from QUERY_RDMA_FEATURES
 * @hmc: HMC
 * @cqp: control QP
 * @ceq: CEQ 0
 * @ceqs: completion CEQs 1..@ceq_cnt (per CPU)
 * @ceq_cnt: entries in @ceqs
 * @aeq: the AEQ
 * @iwdev: the registered ib_device
 * @list: entry in the list the netdev notifier walks
 * @reset_work: asks the parent for a reset (watchdog, critical error)
 * @port_active: last port state reported to ib_core
 * @mac: the MAC in the local MAC table
 * @mac_idx: its entry
 * @arp: the ARP cache
 * @cqs: verbs CQs by CQ id (the id is also the CQ context in CEQEs); the
 *	CEQ tasklets read it, process context locks it with BH off
 * @qps: verbs QPs by QP id (AEQEs and CQEs name QPs by id); the AEQ
 *	tasklet reads it, process context locks it with BH off
 * @suspend_wq: modify to SQD waits here for the QP's suspend-complete AE
 * @tc: traffic-class changes (suspend/resume)
 * @ws: the work-scheduler tree and the RDMA qsets
 * @ilq: iWARP mode: the ILQ (ilq.c), NULL otherwise
 * @iw: iWARP mode: APBVT, listeners (iw.c)
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
	bool msix_shared;
	bool aeq_on_ceq0;
	u8 pf_id;
	const struct irdma_gen *gen;
	struct dentry *dbg_dir;
	struct irdma_fn_events *events;
	struct ice_lite_rdma_dev_info *ice_lite_info;
	struct ice_pf *ice_pf;
	struct iidc_rdma_core_dev_info *ice_cdev;
	struct i40e_info *i40e_ldev;
	u16 qs_handle;
	bool ice_reset_asked;
	struct net_device *netdev;
	u16 vsi_id;
	bool iwarp;
	struct irdma_hw_stats *hw_stats;
	int (*vsi_filter)(struct irdma_pci_f *rf, bool enable);
	int (*request_reset)(struct irdma_pci_f *rf);
	int (*add_qset)(struct irdma_pci_f *rf, u8 tc, u16 qs_handle,
			u32 *teid);
	int (*del_qset)(struct irdma_pci_f *rf, u8 tc, u16 qs_handle,
			u32 teid);
	enum irdma_init_state state;
	bool resetting;
	bool engine_reset;
	u16 fw_major;
	u16 fw_minor;
	struct irdma_hmc hmc;
	struct irdma_cqp cqp;
	struct irdma_eq ceq;
	struct irdma_eq *ceqs;
	u32 ceq_cnt;
	struct irdma_eq aeq;
	struct irdma_device *iwdev;
	struct list_head list;
	struct work_struct reset_work;
	bool port_active;
	u8 mac[ETH_ALEN];
	u32 mac_idx;
	struct irdma_arp arp;
	struct xarray cqs;
	struct xarray qps;
	wait_queue_head_t suspend_wq;
	struct irdma_tc tc;
	struct irdma_ws ws;
	struct irdma_ilq *ilq;
	struct irdma_iw iw;
};

/* The function's engine is GEN_1 (X722). */
static inline bool irdma_is_gen1(const struct irdma_pci_f *rf)
{
	return rf->gen->hw.gen == E810_GEN_1;
}

/* The function's engine has optional CQP operations @ops (E810_GEN_OP_*). */
static inline bool irdma_has_ops(const struct irdma_pci_f *rf, u32 ops)
{
	return (rf->gen->hw.ops & ops) == ops;
}

/* FIELD_PREP()/FIELD_GET() for a mask known at run time (generation data). */
static inline u64 irdma_fprep(u64 mask, u64 val)
{
	return (val << __ffs64(mask)) & mask;
}

static inline u64 irdma_fget(u64 mask, u64 v)
{
	return (v & mask) >> __ffs64(mask);
}

/* A CQ's id and CEQ id in a CREATE/MODIFY/DESTROY_CQ header. */
static inline u64 irdma_cq_hdr_ids(const struct irdma_pci_f *rf, u32 cq_id)
{
	return irdma_fprep(rf->gen->hw.cq_cqid, cq_id);
}

static inline u64 irdma_cq_hdr_ceq(const struct irdma_pci_f *rf, u32 ceq_id)
{
	return irdma_fprep(rf->gen->hw.cq_ceqid, ceq_id);
}

/* The PD id of an ALLOC_STAG / REG_MR / DEALLOC_STAG request. */
static inline u64 irdma_stag_pdid(const struct irdma_pci_f *rf, u32 pd_id)
{
	return irdma_fprep(rf->gen->hw.stag_pdid, pd_id);
}

static inline struct device *irdma_rf_to_dev(struct irdma_pci_f *rf)
{
	return &rf->adev->dev;
}

static inline u32 irdma_rd32(struct irdma_pci_f *rf, u32 reg)
{
	return readl(rf->hw_addr + reg);
}

static inline void irdma_wr32(struct irdma_pci_f *rf, u32 reg, u32 val)
{
	writel(val, rf->hw_addr + reg);
}

static inline u64 irdma_get64(const struct irdma_dma *mem, size_t off)
{
	return le64_to_cpu(READ_ONCE(((__le64 *)mem->va)[off / 8]));
}

static inline void irdma_set64(struct irdma_dma *mem, size_t off, u64 val)
{
	WRITE_ONCE(((__le64 *)mem->va)[off / 8], cpu_to_le64(val));
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
void irdma_schedule_reset(struct irdma_pci_f *rf, const char *why);
void irdma_mtu_changed(struct irdma_pci_f *rf, bool after);
void irdma_port_update(struct irdma_pci_f *rf);
int irdma_bind(struct irdma_pci_f *rf, const struct irdma_qos *qos);
void irdma_unbind(struct irdma_pci_f *rf);
void irdma_crit_err(struct irdma_pci_f *rf, u32 oicr);

/* hw.c */
int irdma_check_hw(struct irdma_pci_f *rf);
int irdma_dma_alloc(struct irdma_pci_f *rf, struct irdma_dma *mem,
		    size_t size, gfp_t gfp);
void irdma_dma_free(struct irdma_pci_f *rf, struct irdma_dma *mem);

/* ctrl.c: the CQP, its CCQ and the command layer */
int irdma_cqp_create(struct irdma_pci_f *rf);
void irdma_cqp_destroy(struct irdma_pci_f *rf);
int irdma_ccq_create(struct irdma_pci_f *rf);
void irdma_ccq_destroy(struct irdma_pci_f *rf);
void irdma_ccq_arm(struct irdma_pci_f *rf);
void irdma_ccq_process(struct irdma_pci_f *rf);
int irdma_cqp_exec(struct irdma_pci_f *rf, u8 op, u64 hdr, const u64 *q,
		   u32 *ret_val);
int irdma_cqp_post_async(struct irdma_pci_f *rf, u8 op, u64 hdr,
			 const u64 *q, irdma_cqp_cb cb, u32 *id);
int irdma_query_features(struct irdma_pci_f *rf);
int irdma_local_mac_add(struct irdma_pci_f *rf);
void irdma_local_mac_del(struct irdma_pci_f *rf);
int irdma_local_mac_update(struct irdma_pci_f *rf);
const char *irdma_cqp_op_name(u8 op);

/* hw_stats.c: hardware counters (GATHER_STATS) */
struct irdma_hw_stats;
int irdma_hw_stats_init(struct irdma_pci_f *rf);
void irdma_hw_stats_fini(struct irdma_pci_f *rf);
extern const struct ib_device_ops irdma_stats_ops;

/* arp.c: the ARP cache */
int irdma_arp_init(struct irdma_pci_f *rf);
void irdma_arp_fini(struct irdma_pci_f *rf);
void irdma_arp_sync_local(struct irdma_pci_f *rf);
int irdma_arp_get(struct irdma_pci_f *rf, const u32 ip[4], bool ipv4,
		  const u8 *mac);
void irdma_arp_put(struct irdma_pci_f *rf, int idx);
int irdma_arp_show(struct seq_file *m, struct irdma_pci_f *rf);

/* hmc.c */
int irdma_hmc_setup(struct irdma_pci_f *rf);
void irdma_hmc_teardown(struct irdma_pci_f *rf);
int irdma_hmc_show(struct seq_file *m, struct irdma_pci_f *rf);
int irdma_hmc_back_page(struct irdma_pci_f *rf, u64 fpm);
void *irdma_hmc_fpm_va(struct irdma_pci_f *rf, u64 fpm);
dma_addr_t irdma_hmc_fpm_dma(struct irdma_pci_f *rf, u64 fpm);
int irdma_hmc_id_alloc(struct irdma_pci_f *rf, unsigned int type, u32 min);
int irdma_hmc_id_alloc_gfp(struct irdma_pci_f *rf, unsigned int type, u32 min,
			   gfp_t gfp);
void irdma_hmc_id_free(struct irdma_pci_f *rf, unsigned int type, u32 id);

/* intr.c: CEQ 0 and the AEQ */
int irdma_ceq0_setup(struct irdma_pci_f *rf);
void irdma_ceq0_quiesce(struct irdma_pci_f *rf);
void irdma_ceq0_teardown(struct irdma_pci_f *rf);
int irdma_ceqs_setup(struct irdma_pci_f *rf);
void irdma_ceqs_teardown(struct irdma_pci_f *rf);
int irdma_aeq_setup(struct irdma_pci_f *rf);
void irdma_aeq_teardown(struct irdma_pci_f *rf);
const char *irdma_ae_name(u16 code);

/* verbs.c */
int irdma_ib_register(struct irdma_pci_f *rf);
void irdma_ib_unregister(struct irdma_pci_f *rf);
void irdma_ib_port_event(struct irdma_pci_f *rf, bool active);

/* cq.c, qp.c: events from CEQs and the AEQ */
void irdma_cq_ceq_event(struct irdma_pci_f *rf, u32 cq_id);
bool irdma_cq_ae(struct irdma_pci_f *rf, u32 cq_id, u16 code);
bool irdma_qp_ae(struct irdma_pci_f *rf, u32 qp_id, u16 code, u8 src,
		 u32 wqe_idx, u8 q2, u8 tcp_state, u8 iw_state);

/* tc.c: traffic-class changes (parent events BEFORE/AFTER_TC_CHANGE) */
void irdma_tc_init(struct irdma_pci_f *rf, const struct irdma_qos *qos);
void irdma_tc_fini(struct irdma_pci_f *rf);
void irdma_tc_before(struct irdma_pci_f *rf);
void irdma_tc_after(struct irdma_pci_f *rf, const struct irdma_qos *qos);
void irdma_tc_suspend_ae(struct irdma_pci_f *rf, u32 qp_id);
int irdma_tc_wait_idle(struct irdma_pci_f *rf);
int irdma_tc_show(struct seq_file *m, struct irdma_pci_f *rf);

/* ws.c: work-scheduler tree, RDMA qsets (QPs: qp.h) */
void irdma_ws_init(struct irdma_pci_f *rf);
void irdma_ws_reset(struct irdma_pci_f *rf);
void irdma_ws_fini(struct irdma_pci_f *rf);
u32 irdma_ws_tc_changed(struct irdma_pci_f *rf, unsigned long *suspended,
			u32 nbits,
			int (*resume)(struct irdma_pci_f *rf, u32 id, u16 qs));
void irdma_ws_show(struct seq_file *m, struct irdma_pci_f *rf);
int irdma_ws_ref(struct irdma_pci_f *rf, u8 up, u8 *tc, u16 *qs_handle);
void irdma_ws_unref(struct irdma_pci_f *rf, u8 tc);

/* debugfs.c */
void irdma_dbg_init(void);
void irdma_dbg_exit(void);
void irdma_dbg_pf_init(struct irdma_pci_f *rf);
void irdma_dbg_pf_exit(struct irdma_pci_f *rf);
void irdma_dbg_events_add(const char *name, struct irdma_fn_events *ev);

/* events.c */
void irdma_events_show(struct seq_file *m, struct irdma_fn_events *ev);

/* ice_lite_if.c */
int irdma_ice_lite_register(void);
void irdma_ice_lite_unregister(void);

/* i40e_if.c: the binding to the stock i40e (X722, GEN_1) */
#ifdef IRDMA_I40E
int irdma_i40e_register(void);
void irdma_i40e_unregister(void);
#else
static inline int irdma_i40e_register(void)
{
	return 0;
}

static inline void irdma_i40e_unregister(void)
{
}
#endif

/*
 * The binding to the stock ice (IRDMA_ICE, see Kbuild): ice_if.c when
 * Kbuild found ice's source for a kernel before 6.16, ice_rdma_if.c for
 * 6.16+ (public iidc_rdma headers).
 */
#ifdef IRDMA_ICE
int irdma_ice_register(void);
void irdma_ice_unregister(void);
#else
static inline int irdma_ice_register(void)
{
	return 0;
}

static inline void irdma_ice_unregister(void)
{
}
#endif

#endif /* IRDMA_MAIN_H */
