/*
 * Emulated E810: RDMA protocol engine, control plane (private to the model).
 *
 * One E810Rdma per PCI function, inside E810Core. Object state (CQs, QPs,
 * MRs, ...) lives in tables sized by the counts the driver committed with
 * COMMIT_FPM_VAL; every object index is checked against them, and every
 * object must be backed by host memory through the HMC (e810_hmc.c).
 *
 * Execution context: CQP WQEs, CQ arms and CQP creation run from the
 * core's deferred work (e810_core_run_work). Functions marked "MMIO" are
 * register hooks: they do bounded work without DMA and may request work.
 * Cross-file prototypes are grouped by the file that defines them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_RDMA_H
#define E810_RDMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/e810_cqp.h"
#include "hw/e810_ctx.h"
#include "hw/e810_hmc.h"
#include "hw/e810_rdma_stats.h"
#include "e810_iwarp.h"

struct E810Core;
struct E810RegRef;
struct E810SendWqe;
struct E810RocePkt;

/* ---- device parameters (what QUERY_FPM_VAL and friends report) -------- */

enum {
    /*
     * SDs of this function's FPM space (QUERY_FPM_VAL MAX_PE_SDS): the
     * device property "hmc-sds", this by default; at most the SD indexes
     * PFHMC_SDCMD can name (docs/hw-reference.md 3.5).
     */
    E810_PE_SDS_DEFAULT = 32,
    E810_PE_SDS_LIMIT = 4096,
    E810_PE_MAX_CEQS = 256,
    E810_PE_HT_MULTIPLIER = 4,
    E810_PE_TIMER_BUCKET = 512,
    E810_PE_XF_BLOCK = 4,
    E810_PE_Q1_BLOCK = 64,
    E810_PE_RRF_BLOCK = 64,
    E810_PE_OOISCF_BLOCK = 64,
    E810_PE_MAX_PUSH_PAGES = 1024,
    E810_PE_FW_MAJOR = 1,           /* QUERY_RDMA_FEATURES FW_INFO: 1.74 */
    E810_PE_FW_MINOR = 74,
    E810_PE_HW_MAJOR = 2,           /* HW_VERSION_INFO: GEN_2 */
    E810_PE_PD_CACHE = 64,          /* cached PD entries (PFHMC_PDINV) */
    E810_PE_MAX_SDS_PER_WQE = 3 + 15, /* UPDATE_PE_SDS: inline + buffer */
};

/*
 * Minor codes the model reports with E810_CQP_MAJ_ERROR (or, for E810_
 * CQP_MIN_HMC, E810_CQP_MAJ_OBJCACHE_ERROR). Real firmware's codes for these
 * cases are not known; the driver only prints them.
 */
enum {
    E810_CQP_MIN_BAD_OPCODE = 0x8001,   /* opcode not implemented */
    E810_CQP_MIN_BAD_INDEX = 0x8002,    /* id beyond the committed count */
    E810_CQP_MIN_BAD_STATE = 0x8003,    /* object exists / does not exist */
    E810_CQP_MIN_BAD_SIZE = 0x8004,     /* ring size out of range */
    E810_CQP_MIN_BAD_ADDR = 0x8005,     /* misaligned address, DMA failure */
    E810_CQP_MIN_BAD_PARAM = 0x8006,    /* any other field */
    E810_CQP_MIN_BAD_FN = 0x8007,       /* HMC function id is not this PF */
    E810_CQP_MIN_HMC = 0x8008,          /* object not backed by an SD/PD */
    E810_CQP_MIN_BAD_VERSION = 0x8009,  /* CQP context of another GEN */
    /*
     * The one code here the hardware is known to use: "Invalid State",
     * which upstream irdma lists as non-critical (irdma_noncrit_err_list)
     * and the model gives a MODIFY_QP transition irdma never issues. It
     * shares its value with E810_CQP_MIN_BAD_INDEX.
     */
    E810_CQP_MIN_INVALID_STATE = 0x8002,
};

/* ---- CQP --------------------------------------------------------------- */

/* A WQE as read from the SQ, qwords in host order. */
typedef struct E810CqpWqe {
    uint64_t q[8];
    uint32_t index;         /* SQ slot, reported in the completion */
} E810CqpWqe;

static inline uint64_t e810_wqe(const E810CqpWqe *w, unsigned off)
{
    return w->q[off >> 3];
}

static inline uint64_t e810_wqe_hdr(const E810CqpWqe *w)
{
    return w->q[E810_QW(E810_CQPSQ_HDR_OFF)];
}

/* Outcome of one CQP op; major 0 is success. */
typedef struct E810CqpResult {
    uint16_t major;
    uint16_t minor;
    uint32_t ret_val;       /* op_ret_val in the CCQ CQE */
} E810CqpResult;

typedef void E810CqpOpFn(struct E810Core *core, const E810CqpWqe *wqe,
                         E810CqpResult *res);

typedef struct E810Cqp {
    bool created;
    uint64_t sq_pa;
    uint32_t sq_size;
    uint32_t tail;          /* next WQE the device processes (CQPTAIL) */
    uint32_t head;          /* last CQPDB value */
    bool polarity;          /* valid-bit value expected at tail */
    uint64_t compl_ctx;     /* host context off 24, echoed in CCQ CQEs */
    uint8_t protocol;
    uint8_t cur_op;         /* opcode of the WQE being executed, for logs */
    uint32_t cur_index;
    uint64_t ops;           /* WQEs completed */
    uint64_t errors;        /* of which failed */
    bool stalled;           /* debug knob: posted WQEs are left alone */
    uint32_t run_cost;      /* work units spent in this run (budget) */
} E810Cqp;

/*
 * Work units one CQP run spends at most; the rest waits for the next run.
 * A WQE costs one, a flush one more per E810_CQP_FLUSH_QUANTA SQ quanta it
 * walks (FLUSH_WQES of a 32768-quantum SQ costs nine).
 */
#define E810_CQP_RUN_BUDGET     64
#define E810_CQP_FLUSH_QUANTA   4096

/* ---- rings in host memory (CQ, CEQ, AEQ) ------------------------------- */

typedef struct E810Ring {
    uint64_t pa;            /* contiguous ring, when !virt */
    uint32_t first_pble;    /* level-1 PBL of the ring pages, when virt */
    bool virt;
    uint32_t size;          /* entries */
    uint32_t head;          /* next entry the device writes */
    bool polarity;          /* valid-bit value of the current pass */
} E810Ring;

/* ---- HMC --------------------------------------------------------------- */

typedef struct E810HmcObj {
    uint64_t base;          /* FPM address of object 0 */
    uint32_t cnt;           /* committed count; 0 before commit */
    uint32_t max;           /* reported by QUERY_FPM_VAL */
    uint32_t size;          /* bytes per object */
} E810HmcObj;

typedef struct E810Sd {
    bool valid;
    bool direct;            /* else paged: pa is the PD page */
    uint16_t bp_count;      /* backing pages (1..512) */
    uint64_t pa;
} E810Sd;

typedef struct E810PdCacheEntry {
    bool valid;
    uint16_t sd;
    uint16_t pd;
    uint64_t pa;            /* backing page */
} E810PdCacheEntry;

#define E810_PBLE_CACHE_BLOCKS  4
#define E810_PBLE_CACHE_RUN     32  /* entries read at once (256 bytes) */

typedef struct E810PbleBlock {
    uint64_t idx;           /* PBLE index of ent[0] */
    unsigned n;             /* 0: empty */
    uint64_t ent[E810_PBLE_CACHE_RUN];  /* little-endian, as in memory */
} E810PbleBlock;

typedef struct E810Hmc {
    bool committed;
    bool pages_allocated;   /* SHMC_PAGES_ALLOCATED seen */
    E810HmcObj obj[E810_HMC_OBJ_MAX];
    uint32_t sd_cnt;        /* SDs the committed layout spans */
    uint32_t max_sds;       /* SDs of the function (E810Core.hmc_sds) */
    uint32_t first_sd;      /* its first SD (E810Core.hmc_first_sd) */
    E810Sd sd[E810_PE_SDS_LIMIT];
    E810PdCacheEntry pd_cache[E810_PE_PD_CACHE];
    uint64_t faults;        /* translations refused */
    /*
     * PBLEs read ahead by e810_pble_resolve(), as the hardware's PBLE
     * cache would hold them: runs of consecutive entries.
     * e810_pble_cache_drop() empties every block at each message start
     * and whenever the device is told memory changed (every CQP op,
     * FAST_REG/BIND_MW/LOCAL_INV WQEs, SD and PD changes), so a message
     * never sees entries read for an older one.
     */
    unsigned pble_next;     /* block to refill next (round robin) */
    E810PbleBlock pble_cache[E810_PBLE_CACHE_BLOCKS];
} E810Hmc;

/*
 * Is SD @idx one of the function's PE SDs? They are first_sd ..
 * first_sd + max_sds - 1: first_sd is 0 unless the PE shares its SD table
 * with the LAN HMC (GEN_1, struct e810_hw_gen.sds_shared_with_lan).
 */
static inline bool e810_hmc_sd_ours(const E810Hmc *hmc, uint32_t idx)
{
    return idx >= hmc->first_sd && idx - hmc->first_sd < hmc->max_sds &&
           idx < E810_PE_SDS_LIMIT;
}

/* ---- objects ----------------------------------------------------------- */

typedef struct E810Cq {
    bool valid;
    bool error;             /* overflowed: no more CQEs are written */
    E810Ring ring;
    uint64_t shadow_pa;
    uint64_t ctx;           /* CREATE_CQ off 8, reported in CEQEs and AEs */
    uint16_t ceq_id;
    bool ceq_valid;
    bool ceqe_mask;
    bool chk_overflow;
    uint32_t read_threshold;
    bool arm_next;          /* armed: next CQE raises a CEQE */
    bool arm_se;            /* armed: next solicited CQE raises a CEQE */
    bool arm_pending;       /* an arm doorbell not applied yet */
    bool queued;            /* in arm_fifo for e810_cq_process_arms() */
    bool ceqe_out;          /* its CEQE is in the CEQ, not yet CQACKed */
    bool event_held;        /* an event while ceqe_out: posted after CQACK */
    bool resize_pending;    /* no overflow check until SW_CQ_SELECT moves */
    uint16_t sw_select;     /* SW_CQ_SELECT when the resize was done */
    uint32_t sw_head;       /* last CQEIDX read from the shadow area */
    uint64_t cqes;
    uint64_t events;
    uint64_t acks;
} E810Cq;

typedef struct E810Ceq {
    bool valid;
    E810Ring ring;
    uint64_t posted;
    uint32_t outstanding;   /* CQs whose CEQE is not yet CQACKed */
    uint64_t overflows;     /* CEQEs not written: the CEQ was full */
    bool destroyed;         /* destroyed by DESTROY_CEQ, not created since */
} E810Ceq;

typedef struct E810Aeq {
    bool valid;
    E810Ring ring;
    uint32_t outstanding;   /* written and not yet returned by AEQALLOC */
    bool overflow;          /* an AE was lost; flagged in the next AEQE */
    uint64_t posted;
    uint64_t dropped;
} E810Aeq;

/* An asynchronous event to report on the AEQ. */
typedef struct E810Ae {
    uint16_t code;          /* E810_AE_* */
    uint8_t source;         /* E810_AE_SOURCE_* */
    uint32_t id;            /* QP or CQ id */
    uint32_t wqe_idx;
    uint64_t ctx;           /* QP completion context, or CQ context */
    uint8_t qp_state;
    uint8_t tcp_state;      /* iWARP: AEQE TCP state */
    uint8_t q2data;         /* iWARP: the offending frame is in Q2 */
} E810Ae;

/* ---- data path: SQ/RQ state of a QP (e810_sq.c, e810_rq.c) ------------- */

/* What the device remembers of a fetched SQ WQE until its CQE is due. */
typedef struct E810SqSlot {
    uint8_t quanta;
    uint8_t opcode;
    bool signaled;
    bool done;              /* finished, waiting for older WQEs */
    uint16_t status;        /* AE code, 0 = success */
} E810SqSlot;

typedef struct E810SqState {
    bool ready;             /* geometry latched from the context */
    uint64_t base;          /* SQ PA, or first PBLE (E810Qp.virt) */
    uint32_t quanta;        /* ring size in quanta (power of two) */
    uint32_t fetch;         /* next quantum to read */
    bool fetch_pol;         /* valid-bit value expected at fetch */
    uint32_t retire;        /* oldest WQE whose CQE is not written yet */
    uint32_t pending;       /* WQEs fetched, not retired */
    uint32_t flushed_to;    /* fetch position of the last flush */
    E810SqSlot *slots;      /* one per quantum, at the WQE's first one */
    bool kick_pending;      /* queued in E810Rdma.sq_fifo */
    bool stalled;           /* transport refused: wait for its kick */
    bool idle;              /* the last fetch found no valid WQE */
    uint64_t wqes;          /* counters for tests and debugging */
    uint64_t cqes;
    uint32_t kicks;         /* e810_dp_sq_kick() calls, to spot one that
                             * came during a refused e810_xport_send() */
    bool wait_retire;       /* fence or full ring: kick on completions */
    uint64_t overruns;      /* WQEs found over outstanding ones */
} E810SqState;

typedef struct E810RqState {
    bool ready;
    uint64_t base;          /* RQ PA, or first PBLE (after the SQ's pages) */
    uint32_t quanta;        /* ring size in quanta */
    uint8_t shift;          /* WQE size = 32 << shift */
    uint32_t head;          /* next WQE (entry index) the device takes */
    bool pol;               /* valid-bit value expected at head */
    uint32_t outstanding;   /* taken, not completed */
    uint32_t oldest;        /* entry index of the oldest one outstanding */
    uint64_t taken;
} E810RqState;

typedef struct E810Qp {
    bool valid;
    uint8_t type;           /* E810_QP_TYPE_ROCE_RC / _UD */
    uint8_t state;          /* E810_QP_STATE_* */
    bool virt;              /* SQ/RQ addresses are PBLE indexes */
    bool flush_sq;
    bool flush_rq;
    bool suspended;
    bool sqd_ae_due;        /* RTS -> SQD: AE 0x0900 once the SQ drained */
    uint64_t ctx_pa;        /* host context the driver keeps rewriting */
    uint64_t shadow_pa;     /* doorbell shadow area */
    uint32_t send_cq;
    uint32_t recv_cq;
    uint64_t compl_ctx;     /* host context off 168 */
    uint16_t qs_handle;
    uint64_t ctx[E810_QP_CTX_SIZE / 8];   /* last loaded, host order */
    /* data path (M1: queues and memory) */
    E810SqState sq;
    E810RqState rq;
    bool fatal;             /* AE raised: no further AEs until reset */
    bool sq_error;          /* UD send error: SQ stopped, RQ live (IB SQE) */
    uint8_t tcp_state;      /* iWARP: TCP state for AEQEs (e810_iw_conn.c) */
    /*
     * iWARP: the connection entry key of the 4-tuple in the TOE part of
     * the context as the device last loaded it (MODIFY_QP with
     * TOECTXVALID; .valid once it did). A MODIFY_QP without that bit
     * leaves the TOE context as it was, whatever the host copy says:
     * upstream irdma rewrites the host context without the TCP fields for
     * TERMINATE and ERROR (irdma_sc_qp_setctx() without tcp_info_valid).
     */
    E810Qhash toe;
} E810Qp;

typedef struct E810Mr {
    bool valid;
    bool fast_reg_ok;       /* allocated by ALLOC_STAG for FAST_REG_MR */
    bool fr_valid;          /* fast-registered and not invalidated */
    bool is_mw;             /* a memory window (ALLOC_STAG without MR) */
    bool registered;        /* REG_MR done (else allocated for fast-reg) */
    bool mw_type1;
    bool zero_based;
    bool remote;            /* REMACCENABLED */
    uint8_t key;
    uint8_t rights;         /* E810_ACCESS_* */
    uint8_t lpbl;           /* E810_LPBL_* */
    uint8_t hpage;          /* E810_HPAGE_* */
    uint32_t pd;
    uint32_t first_pble;
    uint64_t va;
    uint64_t len;
    uint64_t pa;            /* single page, when lpbl is NONE */
    /* memory windows (BIND_MW, e810_mr.c); key/rights/va/len/zero_based
     * above then describe the window itself */
    bool mw_bound;          /* window: bound and not invalidated */
    uint32_t mw_parent;     /* window: table index of the parent MR */
    uint64_t mw_off;        /* window: parent byte offset of its byte 0 */
    uint32_t mw_qp;         /* type-2 window: the QP that bound it */
    uint32_t bound_mws;     /* MR: windows bound to it */
} E810Mr;

typedef struct E810Ah {
    bool valid;
    bool ipv4;
    bool insert_vlan;
    bool loopback;
    uint8_t smac[6];        /* the source MAC; the destination is arp_idx's */
    uint8_t tc;
    uint8_t hop_limit;
    uint16_t vlan;
    uint16_t arp_idx;
    uint32_t flow_label;
    uint32_t pd;
    uint32_t dip[4];        /* word 0 most significant; IPv4 in dip[3] */
    uint32_t sip[4];
} E810Ah;

/*
 * A node of the RDMA work-scheduler tree the driver builds with
 * WORK_SCHED_NODE (irdma_ws_add(): a root whose parent is itself, a node
 * per VSI, a leaf per traffic class whose QS handle the driver gives the
 * LAN scheduler and puts in QP contexts).
 */
typedef struct E810WsNode {
    bool used;
    bool leaf;
    bool enabled;
    uint8_t tc;
    uint8_t prio_type;
    uint8_t weight;
    uint16_t vsi;
    uint16_t parent;        /* == own id for a root */
    uint16_t children;
} E810WsNode;

typedef struct E810Mcg {
    bool valid;
    bool ipv4;
    bool vlan_valid;
    uint8_t dmac[6];
    uint16_t vlan;
    uint16_t qs_handle;
    uint32_t dip[4];
    uint8_t nqps;
    uint32_t qpn[E810_MG_MAX_QPS];
    uint16_t dport[E810_MG_MAX_QPS];
} E810Mcg;

typedef struct E810Arp {
    bool valid;
    bool permanent;
    uint8_t mac[6];
} E810Arp;

typedef struct E810RdmaStats {
    uint64_t cq_overflows;
    uint64_t events_dropped;    /* CEQE for a missing or invalid CEQ */
    uint64_t events_held;       /* CQ event while its CEQE was unacked */
    uint64_t bad_doorbells;
    uint64_t bad_qs_handles;    /* transmitting QPs on no live RDMA qset */
    uint64_t bad_qp_transitions; /* MODIFY_QP refused: no such transition */
    uint64_t destroy_live_qps;  /* DESTROY_QP of a QP still in RTS */
    /* data path */
    uint64_t sq_wqes;           /* SQ WQEs fetched */
    uint64_t sq_bad_wqes;       /* malformed or with a bad opcode */
    uint64_t dp_cqes;           /* SQ/RQ CQEs written (flush ones too) */
    uint64_t dp_access_errors;  /* STag checks that failed */
    uint64_t dp_dma_bytes;      /* payload moved through e810_mem.c */
} E810RdmaStats;

/* cq, qp, mr, ah, mcg, arp, arm_fifo, sq_fifo */
#define E810_RDMA_NTABLES   8

typedef struct E810Rdma {
    E810Cqp cqp;
    E810Hmc hmc;
    /* Tables of hmc.obj[type].cnt entries, allocated at COMMIT_FPM_VAL. */
    E810Cq *cq;
    E810Qp *qp;
    E810Mr *mr;
    E810Ah *ah;
    E810Mcg *mcg;
    E810Arp *arp;
    /* CQ arm doorbells waiting for deferred work, each CQ at most once. */
    uint32_t *arm_fifo;
    uint32_t arm_head;
    uint32_t arm_count;
    /* SQ doorbells waiting for deferred work, each QP at most once. */
    uint32_t *sq_fifo;
    uint32_t qp_alloc;      /* entries of qp[] and sq_fifo[] */
    /*
     * Bytes of each table above (e810_rdma.c's order), and the last
     * session's tables, kept over a reset for the next COMMIT_FPM_VAL.
     */
    size_t table_len[E810_RDMA_NTABLES];
    void *spare[E810_RDMA_NTABLES];
    size_t spare_len[E810_RDMA_NTABLES];
    uint32_t sq_head;
    uint32_t sq_count;
    E810Ceq ceq[E810_PE_MAX_CEQS];
    E810Aeq aeq;
    uint64_t stats_inst[E810_MAX_STATS_INST / 64];
    /*
     * Protocol statistics (e810_rdma_stats.c): the allocatable instances,
     * then the function's own one (E810_RSTAT_FN_INST). 64-bit event
     * counts; GATHER_STATS shows them modulo their hardware width.
     */
    uint64_t rstat[E810_MAX_STATS_INST + 1][E810_RSTAT_MAX];
    uint64_t push_pages[E810_PE_MAX_PUSH_PAGES / 64];
    E810WsNode ws[E810_WS_NODE_MAX];     /* the work-scheduler tree */
    uint64_t loc_mac_used;
    uint8_t loc_mac[E810_LOC_MAC_TABLE_SIZE][6];
    uint8_t up_map[8];
    E810Iwarp iw;           /* iWARP mode: APBVT, quad hash (e810_iwarp.c) */
    E810RdmaStats stats;
} E810Rdma;

/* ---- bitmaps used by the small resource pools -------------------------- */

static inline bool e810_bit_test(const uint64_t *map, unsigned n)
{
    return map[n / 64] & (1ull << (n % 64));
}

static inline void e810_bit_assign(uint64_t *map, unsigned n, bool on)
{
    if (on) {
        map[n / 64] |= 1ull << (n % 64);
    } else {
        map[n / 64] &= ~(1ull << (n % 64));
    }
}

/* A MAC address from the 48-bit big-endian integer the WQEs carry. */
static inline void e810_mac_from_u64(uint8_t mac[6], uint64_t v)
{
    unsigned i;

    for (i = 0; i < 6; i++) {
        mac[i] = v >> (8 * (5 - i));
    }
}

/* ---- e810_rdma.c: lifetime, register hooks, deferred work ---------------- */

void e810_rdma_reset(struct E810Core *core);
void e810_rdma_fini(struct E810Core *core);
/* MMIO: side effects of an RDMA register write; false if not ours. */
bool e810_rdma_write_register(struct E810Core *core, struct E810RegRef *ref,
                              uint32_t val);
/* MMIO: a 32-bit write into the user doorbell page. */
void e810_rdma_doorbell_page_write(struct E810Core *core, uint32_t offset,
                                   uint32_t val);
void e810_rdma_run_work(struct E810Core *core, uint32_t work);
/* Allocates the object tables for the committed counts; false on ENOMEM. */
bool e810_rdma_tables_alloc(struct E810Core *core);
void e810_rdma_tables_free(struct E810Core *core);
/* Any CQ, CEQ, AEQ or QP alive (a new COMMIT_FPM_VAL is refused then). */
bool e810_rdma_objects_exist(struct E810Core *core);

/* ---- e810_cqp.c: CQP lifetime, SQ processing, completions ---------------- */

/* MMIO: CCQPLOW written (CCQPHIGH holds the high half). */
void e810_cqp_ctx_written(struct E810Core *core);
/* MMIO: CQPDB written with the new SQ head. */
void e810_cqp_doorbell(struct E810Core *core, uint32_t val);
/* Work: creates or destroys the CQP from CCQPHIGH:CCQPLOW. */
void e810_cqp_process_ctx(struct E810Core *core);
/* Work: runs the posted WQEs (at most one lap of the SQ). */
void e810_cqp_process(struct E810Core *core);
/*
 * Debug knob: the engine stops consuming CQP WQEs (CQPTAIL freezes, no CCQ
 * completions) until the next PF reset, like wedged firmware; the driver's
 * watchdog must notice and have the function reset.
 */
void e810_cqp_inject_stall(struct E810Core *core);
/* Fails @res with @major/@minor and logs the reason as a guest error. */
void e810_cqp_fail(struct E810Core *core, E810CqpResult *res, uint16_t major,
                   uint16_t minor, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The common case: E810_CQP_MAJ_ERROR with @minor. */
#define e810_cqp_err(core, res, minor, ...) \
    e810_cqp_fail(core, res, E810_CQP_MAJ_ERROR, minor, __VA_ARGS__)

/* ---- e810_cqp_ops.c: opcode table and the small management ops ---------- */

/* Runs one WQE; @res says how it completed. */
void e810_cqp_execute(struct E810Core *core, const E810CqpWqe *wqe,
                      E810CqpResult *res);
const char *e810_cqp_op_name(unsigned opcode);

/* ---- e810_hmc.c: FPM, SDs/PDs, translation, PBLEs ------------------------ */

void e810_hmc_reset(struct E810Core *core);
/*
 * The one translation: host address of byte @off of object @idx of @type.
 * *@contig (may be NULL) gets the bytes contiguous from there (same page
 * or SD). False if @idx is beyond the committed count or not backed.
 */
bool e810_hmc_translate(struct E810Core *core, enum e810_hmc_obj_type type,
                        uint32_t idx, uint32_t off, uint64_t *pa,
                        uint32_t *contig);
/* Object bytes through the translation, split at page boundaries. */
bool e810_hmc_read(struct E810Core *core, enum e810_hmc_obj_type type,
                   uint32_t idx, uint32_t off, void *buf, uint32_t len);
bool e810_hmc_write(struct E810Core *core, enum e810_hmc_obj_type type,
                    uint32_t idx, uint32_t off, const void *buf, uint32_t len);
/* e810_hmc_count(): e810_core.h (inline: every packet asks it a few times) */
int e810_hmc_format_counts(struct E810Core *core, char *buf, size_t len);

/*
 * The MR/MW table index an STag names. Bits [31:8] of an STag carry the
 * index in their low max(log2 of the committed MR count rounded up, 14)
 * bits; the bits above belong to the driver (upstream irdma puts a random
 * key there: irdma_create_stag(), rf->mr_stagmask), the low byte is the
 * consumer key. @stag_hi is STag >> 8, as the CQP STag WQEs carry it.
 */
uint32_t e810_stag_index(struct E810Core *core, uint32_t stag_hi);
/* PBLEs read ahead are not used any more (E810Hmc.pble_cache). */
void e810_pble_cache_drop(struct E810Core *core);
/*
 * Host address of byte @off of a buffer described by a PBL starting at
 * PBLE @first (@lpbl: E810_LPBL_LEVEL1 or _LEVEL2, pages of 1 << @shift).
 */
bool e810_pble_resolve(struct E810Core *core, uint32_t first, uint8_t lpbl,
                       unsigned shift, uint64_t off, uint64_t *pa);
/* Checks an object is backed; fails @res with an HMC error if not. */
bool e810_hmc_check_backed(struct E810Core *core, enum e810_hmc_obj_type type,
                           uint32_t idx, E810CqpResult *res);
/* MMIO: PFHMC_SDCMD and PFHMC_PDINV. */
void e810_hmc_sdcmd_write(struct E810Core *core, uint32_t val);
void e810_hmc_pdinv_write(struct E810Core *core, uint32_t val);
E810CqpOpFn e810_op_query_fpm_val;
E810CqpOpFn e810_op_commit_fpm_val;
E810CqpOpFn e810_op_update_pe_sds;
E810CqpOpFn e810_op_shmc_pages_allocated;

/* ---- e810_ring.c: ring geometry shared by CQs, CEQs and AEQs ------------- */

/* Fills @ring from a create WQE's PA / PBL fields; false (and @res) if bad. */
bool e810_ring_setup(struct E810Core *core, E810Ring *ring, uint32_t size,
                     bool virt, uint8_t lpbl, uint64_t pa, uint32_t first_pble,
                     uint32_t align, E810CqpResult *res);
/* Host address of entry @idx (of @esize bytes) of @ring. */
bool e810_ring_addr(struct E810Core *core, const E810Ring *ring,
                    uint32_t idx, uint32_t esize, uint64_t *pa);
/* Moves head on by one, flipping the polarity at the wrap. */
void e810_ring_advance(E810Ring *ring);

/* ---- e810_cq.c: CQs, CQEs, arming ---------------------------------------- */

E810Cq *e810_cq_get(struct E810Core *core, uint32_t cq_id);
/*
 * Writes @n (1 or 2) 32-byte slots (header valid bits set here) to CQ
 * @cq_id and raises its CEQE if armed; false if the CQE was not written.
 */
bool e810_cq_post(struct E810Core *core, uint32_t cq_id,
                  const struct e810_cqe *cqe, unsigned n);
/* MMIO: CQARM (or doorbell page +0x40) and CQACK. */
void e810_cq_arm_doorbell(struct E810Core *core, uint32_t val);
void e810_cq_ack(struct E810Core *core, uint32_t val);
/* CEQ @ceq_id destroyed: its CQs' unacknowledged CEQEs are forgotten. */
void e810_cq_ceq_destroyed(struct E810Core *core, uint32_t ceq_id);
/* Work: applies the queued arm doorbells. */
void e810_cq_process_arms(struct E810Core *core);
E810CqpOpFn e810_op_create_cq;
E810CqpOpFn e810_op_modify_cq;
E810CqpOpFn e810_op_destroy_cq;

/* ---- e810_eq.c: CEQs and the AEQ ----------------------------------------- */

/* Writes a CEQE carrying @ctx to CEQ @ceq_id and fires its interrupt. */
bool e810_ceq_post(struct E810Core *core, uint32_t ceq_id, uint64_t ctx);
/* Writes an AEQE and fires the AEQ interrupt; false if it was lost. */
bool e810_aeq_post(struct E810Core *core, const E810Ae *ae);
/* MMIO: AEQALLOC, entries returned by the driver. */
void e810_aeq_alloc(struct E810Core *core, uint32_t val);
E810CqpOpFn e810_op_create_ceq;
E810CqpOpFn e810_op_destroy_ceq;
E810CqpOpFn e810_op_create_aeq;
E810CqpOpFn e810_op_destroy_aeq;

/* ---- e810_qp.c: QP contexts ---------------------------------------------- */

E810Qp *e810_qp_get(struct E810Core *core, uint32_t qp_id);
/* Raises AE @code from @source for QP @qp_id. */
void e810_qp_raise_ae(struct E810Core *core, uint32_t qp_id, uint16_t code,
                      uint8_t source, uint32_t wqe_idx);
/* True if MODIFY_QP takes a QP of @type from state @cur to @next. */
bool e810_qp_transition_ok(unsigned type, unsigned cur, unsigned next);
/* SQD: the suspend-complete AE once no fetched WQE is left (e810_qp.c). */
void e810_qp_sqd_drained(struct E810Core *core, struct E810Qp *qp);
E810CqpOpFn e810_op_create_qp;
E810CqpOpFn e810_op_modify_qp;
E810CqpOpFn e810_op_destroy_qp;
E810CqpOpFn e810_op_upload_context;
E810CqpOpFn e810_op_flush_wqes;
E810CqpOpFn e810_op_suspend_qp;
E810CqpOpFn e810_op_resume_qp;

/* ---- e810_mr.c: STags -------------------------------------------------- */

E810CqpOpFn e810_op_alloc_stag;
E810CqpOpFn e810_op_reg_mr;
E810CqpOpFn e810_op_dealloc_stag;

/* ---- data path, queues and memory (M1): e810_sq.c, e810_rq.c, e810_mem.c,
 *      e810_dp_cqe.c. The transport-facing API is in e810_dp.h. ---------- */

/*
 * Work bit of the SQ kicks. It shares the CQ-arm bit (both are cheap queue
 * scans, dispatched from e810_rdma_run_work) until e810_core.h gets its
 * own E810_WORK_SQ in E810_WORK_RDMA; then this line names that bit.
 */
#define E810_WORK_DP_SQ E810_WORK_CQ_ARM

/* MMIO: WQEALLOC or doorbell page +0: queue an SQ kick for @val's QP. */
void e810_sq_doorbell(struct E810Core *core, uint32_t val);
/* Work: fetches SQ WQEs of the kicked QPs (bounded, round robin). */
void e810_sq_process(struct E810Core *core);
/* QP @qp moved from @old_state to qp->state (MODIFY_QP): resets the
 * transport, or kicks the SQ for WQEs posted before RTS. */
void e810_dp_qp_state(struct E810Core *core, struct E810Qp *qp,
                      uint8_t old_state);
/* MODIFY_QP to RTS of a UD QP in Send Queue Error: what was posted is
 * flushed, then the SQ runs again from its fetch position. */
void e810_dp_qp_sq_recover(struct E810Core *core, struct E810Qp *qp);
/* QP destroyed (or the tables freed): drops the data-path state. */
void e810_dp_qp_release(struct E810Core *core, struct E810Qp *qp);
/*
 * FLUSH_WQES: flushes the requested queues with @sq_minor / @rq_minor;
 * returns the CQP minor code (E810_CQP_COMPL_*: what was flushed).
 */
uint16_t e810_dp_flush(struct E810Core *core, struct E810Qp *qp, bool sq,
                       bool rq, uint16_t sq_major, uint16_t sq_minor,
                       uint16_t rq_major, uint16_t rq_minor);

/* e810_dp_cqe.c: one SQ CQE (major/minor 0: success), RQ CQEs. */
bool e810_dp_sq_cqe(struct E810Core *core, struct E810Qp *qp,
                    uint32_t wqe_idx, uint8_t opcode, uint16_t major,
                    uint16_t minor);
bool e810_dp_rq_flush_cqe(struct E810Core *core, struct E810Qp *qp,
                          uint32_t wqe_idx, uint16_t major, uint16_t minor);
struct E810RecvInfo;
bool e810_dp_rq_cqe(struct E810Core *core, struct E810Qp *qp,
                    uint32_t wqe_idx, const struct E810RecvInfo *info);
/* e810_rq.c: flushes the RQ (posted and taken WQEs); true if any. */
bool e810_rq_flush(struct E810Core *core, struct E810Qp *qp, uint16_t major,
                   uint16_t minor);
/* e810_sq.c: the same for the SQ. */
bool e810_sq_flush(struct E810Core *core, struct E810Qp *qp, uint16_t major,
                   uint16_t minor);
/* e810_mr.c: FAST_REG_MR from an SQ WQE (qwords in host order). */
uint16_t e810_mr_fast_reg(struct E810Core *core, struct E810Qp *qp,
                          const uint64_t *q);
/* e810_mr.c: BIND_MW from an SQ WQE (qwords in host order); 0 or the AE. */
uint16_t e810_mr_bind_mw(struct E810Core *core, struct E810Qp *qp,
                         const uint64_t *q);
/* e810_mr.c: window @mw becomes unbound (invalidation, dealloc). */
void e810_mw_unbind(struct E810Core *core, E810Mr *mw);

/* ---- e810_rdma_stats.c: protocol statistics ------------------------------ */

/* Slot of E810Rdma.rstat the function's default instance lives in. */
#define E810_RSTAT_FN_INST E810_MAX_STATS_INST

/* Adds @n to counter @stat (E810_RSTAT_*) of the instance @qp counts in
 * (@qp NULL: the function's instance). */
void e810_rdma_stat_add(struct E810Core *core, const struct E810Qp *qp,
                        unsigned stat, uint64_t n);
/* A RoCE frame of @len bytes the engine put out for @qp (NULL: none). */
void e810_rdma_stat_tx(struct E810Core *core, const struct E810Qp *qp,
                       const struct E810RocePkt *p, size_t len);
/* A frame the receive path parsed into @p, for @qp (the QP it names, NULL
 * for none or multicast: the function's instance). */
void e810_rdma_stat_rx(struct E810Core *core, const struct E810Qp *qp,
                       const struct E810RocePkt *p, const uint8_t *frame,
                       size_t len);
/* A frame the parser refused: counted when it was a truncated datagram. */
void e810_rdma_stat_rx_short(struct E810Core *core, const uint8_t *frame,
                             size_t len);
/* A message sent for the first time / accepted in sequence: the packet
 * with BTH opcode @opcode starts it (other opcodes count nothing). */
void e810_rdma_stat_tx_msg(struct E810Core *core, const struct E810Qp *qp,
                           uint8_t opcode);
void e810_rdma_stat_rx_msg(struct E810Core *core, const struct E810Qp *qp,
                           uint8_t opcode);
/* Zeroes instance @inst (an index of E810Rdma.rstat). */
void e810_rdma_stat_clear(struct E810Core *core, unsigned inst);
/* GATHER_STATS: instance @inst in the buffer layout of hw/e810_rdma_stats.h
 * (little-endian qwords, each counter cut to its width). */
void e810_rdma_stat_fill(struct E810Core *core, unsigned inst,
                         uint8_t buf[E810_GATHER_STATS_BUF_SIZE]);

/* ---- e810_iwarp.c: iWARP connection tables (e810_iwarp.h) --------------- */

E810CqpOpFn e810_op_manage_apbvt;
E810CqpOpFn e810_op_manage_qhash;

/* ---- e810_ah.c: address handles and multicast groups --------------------- */

E810CqpOpFn e810_op_manage_ah;
E810CqpOpFn e810_op_manage_mcg;

#endif /* E810_RDMA_H */
