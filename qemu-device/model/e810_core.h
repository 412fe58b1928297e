/*
 * Emulated Intel E810 PF: QEMU-free device core, public interface.
 *
 * The core never includes QEMU headers. Its embedder (the QEMU glue in
 * qemu-device/qemu/, or a host unit test) supplies E810CoreOps for
 * everything that touches the outside world, and calls in for MMIO,
 * deferred work and reset. MMIO handlers only record work and call
 * ops->schedule_work(); the work itself runs in e810_core_run_work(),
 * which the embedder calls later (a bottom half in QEMU). The control
 * QP's registers, which irdma polls for only ~10 ms, run one bounded run
 * in the write itself while there is no CCQ (e810_core_work_now()).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef E810_CORE_H
#define E810_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#if defined(__has_include)
#if __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#endif
#endif
#ifndef ASAN_POISON_MEMORY_REGION
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

#include "hw/e810_gen.h"
#include "hw/e810_regs.h"
#include "e810_aq.h"
#include "e810_ddp.h"
#include "e810_icrc.h"
#include "e810_intr.h"
#include "e810_lan.h"
#include "e810_nvm.h"
#include "e810_rdma.h"
#include "e810_regfile.h"
#include "e810_sched.h"
#include "e810_stats.h"
#include "e810_switch.h"

typedef enum E810LogLevel {
    E810_LOG_GUEST_ERROR,   /* the guest did something the hardware forbids */
    E810_LOG_UNIMP,         /* the guest used something not modelled */
} E810LogLevel;

/*
 * Normal-path events for the embedder's tracing (E810CoreOps.trace), with
 * their arguments as numbers: nothing is formatted in the core.
 */
typedef enum E810TraceEvent {
    E810_TRACE_AQ_CMD,      /* a: opcode, b: return code, c: response bytes */
    E810_TRACE_CQP_OP,      /* a: CQP opcode, b: SQ slot, c: major << 16 |
                             * minor */
} E810TraceEvent;

typedef struct E810CoreOps {
    /* Host memory access on behalf of the device; 0 on success. */
    int (*dma_read)(void *opaque, uint64_t addr, void *buf, size_t len);
    int (*dma_write)(void *opaque, uint64_t addr, const void *buf,
                     size_t len);
    /*
     * Optional (both or neither): host memory in place, so that a payload
     * is moved once instead of through a bounce buffer. dma_map() returns
     * a host pointer to [addr, addr + *len) for reading (@write false) or
     * writing, and may shorten *len; NULL when nothing can be mapped. The
     * core uses a mapping only when it covers the whole range, and falls
     * back to dma_read/dma_write otherwise, so a failed or short map
     * behaves exactly as the plain access would (a DMA error if that
     * fails too). Every pointer returned is given back with dma_unmap(),
     * @len as mapped, @access_len the bytes written (0 for a read).
     */
    void *(*dma_map)(void *opaque, uint64_t addr, size_t *len, bool write);
    void (*dma_unmap)(void *opaque, void *ptr, size_t len, bool write,
                      size_t access_len);
    /* Deliver MSI-X vector @vector (already checked against masks). */
    void (*msix_notify)(void *opaque, unsigned vector);
    /* Ask for e810_core_run_work() to be called soon, outside MMIO. */
    void (*schedule_work)(void *opaque);
    /* Send one Ethernet frame (no FCS) to the wire. */
    void (*transmit)(void *opaque, const uint8_t *frame, size_t len);
    /* Receive buffers were posted: frames held back may be retried. */
    void (*rx_ready)(void *opaque);
    /*
     * Diagnostics; may be NULL. log_enabled() (may be NULL: always) says
     * whether a message of @level would go anywhere; the core formats one
     * only then.
     */
    void (*log)(void *opaque, E810LogLevel level, const char *msg);
    bool (*log_enabled)(void *opaque, E810LogLevel level);
    /* Normal-path events (E810TraceEvent); may be NULL. */
    void (*trace)(void *opaque, E810TraceEvent ev, uint64_t a, uint64_t b,
                  uint64_t c);
    /*
     * The device's one timer (RoCE retransmission, RNR waits), on the
     * embedder's virtual clock in ns. timer_mod() (re)arms it to call
     * e810_core_timer_fire() once @deadline_ns has passed; UINT64_MAX
     * cancels it. Both may be NULL: the transport then never retransmits.
     */
    uint64_t (*now_ns)(void *opaque);
    void (*timer_mod)(void *opaque, uint64_t deadline_ns);
    /*
     * Optional: the CRC-32 of the RoCEv2 ICRC, with zlib's crc32()
     * conventions; NULL: zlib's crc32_z(). QEMU's glue installs the
     * model's e810_crc32_clmul() (e810_icrc.c says why); process-wide,
     * see e810_crc32_set_impl().
     */
    E810Crc32Fn *crc32;
} E810CoreOps;

/* Counters a test or a debugger can read; never reset by the guest. */
typedef struct E810CoreStats {
    uint64_t mmio_bad_access;   /* unaligned, wrong size or out of BAR */
    uint64_t mmio_unimplemented;/* no register at that offset */
    uint64_t mmio_ro_write;     /* write to a read-only register */
    uint64_t pf_resets;
    uint64_t core_resets;       /* GLGEN_RTRIG.CORER of any card function */
    uint64_t global_resets;     /* GLGEN_RTRIG.GLOBR, the same */
    uint64_t work_runs;
    uint64_t work_reentries;    /* run_work/timer entered while running */
    uint64_t dma_errors;
} E810CoreStats;

/* Work the MMIO side has recorded for e810_core_run_work(). */
enum {
    E810_WORK_PF_RESET = 1u << 0,
    E810_WORK_CORE_RESET = 1u << 1,
    E810_WORK_ATQ = 1u << 2,
    E810_WORK_TX = 1u << 3,
    E810_WORK_RX_READY = 1u << 4,
    /* RDMA control plane (e810_rdma.c) */
    E810_WORK_CQP_CTX = 1u << 5,    /* CCQPLOW written inside a run (e810_cqp.c) */
    E810_WORK_CQP = 1u << 6,        /* CQPDB written: run CQP WQEs */
    E810_WORK_CQ_ARM = 1u << 7,     /* CQARM written: apply CQ arms */
    /* RoCE transport (e810_xport.c): paced READ responses to continue */
    E810_WORK_XPORT = 1u << 8,
};

#define E810_WORK_RDMA  (E810_WORK_CQP_CTX | E810_WORK_CQP | E810_WORK_CQ_ARM)

/* PF_FUNC_RID.FUNC_NUM is three bits: at most eight PFs on a card. */
#define E810_CARD_PFS   8
/* GLGEN_RSTCTL.GRSTDEL's unit: a core reset comes GRSTDEL of them late. */
#define E810_GRSTDEL_UNIT_NS    (100 * 1000 * 1000ull)

typedef struct E810Core {
    const E810CoreOps *ops;
    void *opaque;
    uint8_t pf_id;
    uint8_t mac[6];
    bool link_up;

    E810RegFile regs;
    E810Intr intr;
    E810AqState aq;
    E810Nvm nvm;                        /* NVM and resource ownership */
    E810Sched sched;                    /* Tx scheduler tree */
    E810Ddp ddp;                        /* DDP package */
    E810Switch sw;                      /* switch, VSIs, rules, RSS */
    E810Lan lan;
    E810Rdma rdma;                      /* RDMA protocol engine */
    struct E810Xport *xport;            /* RoCEv2 transport (e810_xport.h) */
    struct E810Iw *iw;                  /* iWARP engine (e810_iw_conn.h) */
    E810Stats hwstats;                  /* GLPRT_* and GLV_* (e810_stats.c) */
    uint8_t aq_buf[E810_AQ_MAX_BUF];    /* indirect buffer of one command */

    uint32_t work_pending;
    bool in_work;                       /* e810_core_run_work() running */
    /*
     * The card's functions by PF number, this one included (the others
     * NULL until e810_core_join()): a core or global reset is the card's
     * and reaches each of them.
     */
    struct E810Core *card[E810_CARD_PFS];
    /*
     * A core or global reset warned and not yet done (its GLGEN_RSTAT
     * RESET_TYPE, 0: none) and when it is done. The embedder's one timer
     * carries the earlier of that and the transport's deadline
     * (xport_deadline); UINT64_MAX: none.
     */
    uint8_t grst_type;
    uint64_t grst_deadline;
    uint64_t xport_deadline;
    E810CoreStats stats;
    uint32_t inject_ud_send_err;        /* QP id, 0: none (debug knob) */
    uint32_t hmc_sds;                   /* FPM space in SDs (e810_hmc.c) */
    uint32_t hmc_first_sd;              /* the PE's first SD (e810_hmc.c) */
    /* The protocol engine's irdma generation (GEN_2 after init). */
    const struct e810_hw_gen *gen;
    uint32_t msix_vectors;              /* MSI-X table size of the function */
    /*
     * GEN_1 has no WORK_SCHED_NODE: its QPs transmit on the queue set the
     * parent's firmware gave the VSI (the X722's qs_handle, which i40e
     * hands to irdma), set here by the embedder (x722_rdma.c).
     */
    bool parent_qs_valid;
    uint16_t parent_qs_handle;
} E810Core;

/* Committed count of @type (0 before COMMIT_FPM_VAL). */
static inline uint32_t e810_hmc_count(const E810Core *core,
                                      enum e810_hmc_obj_type type)
{
    const E810Hmc *hmc = &core->rdma.hmc;

    return hmc->committed && type < E810_HMC_OBJ_MAX ? hmc->obj[type].cnt : 0;
}

/* Lifetime. @pf_id is the PCI function number (PF_FUNC_RID). */
int e810_core_init(E810Core *core, const E810CoreOps *ops, void *opaque,
                   uint8_t pf_id);
void e810_core_fini(E810Core *core);

/*
 * The function's FPM space in 2 MiB segments (QUERY_FPM_VAL MAX_PE_SDS,
 * E810_PE_SDS_DEFAULT after init); takes effect at the next HMC reset (PF
 * reset or power-on). -EINVAL outside 1..E810_PE_SDS_LIMIT.
 */
int e810_core_set_hmc_sds(E810Core *core, uint32_t sds);

/*
 * The protocol engine's generation (E810_GEN_1 or E810_GEN_2, the default)
 * and, for a generation whose PE shares the SD table with the LAN HMC,
 * the PE's first SD (QUERY_FPM_VAL FIRST_PE_SD_INDEX; 0 otherwise). For an
 * embedder that uses this core as another device's protocol engine (the
 * X722: x722_rdma.c); takes effect at the next HMC reset. -EINVAL for an
 * unknown generation or a first SD the table cannot hold.
 */
int e810_core_set_gen(E810Core *core, unsigned gen, uint32_t first_sd);

/*
 * Fewest MSI-X vectors a function may have: ice needs the misc (OICR,
 * admin queue) vector and one for its queues (ICE_MIN_MSIX). The most,
 * E810_MAX_VECTORS, fill BAR3's table up to the PBA at 0x8000.
 */
#define E810_MSIX_VECTORS_MIN   2

/*
 * The function's MSI-X vector count (E810_MSIX_VECTORS after init): the
 * MSI-X capability (0x0043) of the admin queue's capability lists and the
 * vectors an interrupt cause may raise. Set before the driver runs (the
 * embedder sizes its MSI-X table with the same number). -EINVAL outside
 * E810_MSIX_VECTORS_MIN..E810_MAX_VECTORS.
 */
int e810_core_set_msix_vectors(E810Core *core, uint32_t n);

/* Power-on reset: every register to its reset value, all state dropped. */
void e810_core_reset(E810Core *core);

/*
 * Functions of one card: @other (and the functions it was joined with)
 * and @core's join one card, whose core and global resets (GLGEN_RTRIG)
 * each function then gets. e810_core_fini() leaves the card;
 * e810_core_leave() does so before that.
 */
void e810_core_join(E810Core *core, E810Core *other);
void e810_core_leave(E810Core *core);

/*
 * Function-level reset (PCIe FLR): the function's state as after a PF
 * reset; what belongs to the device (DDP package, EMPR-domain registers
 * such as the admin queue's) is kept.
 */
void e810_core_flr(E810Core *core);

/* BAR0 access. @size is 1, 2, 4 or 8; anything else is a bad access. */
uint64_t e810_core_mmio_read(E810Core *core, uint64_t addr, unsigned size);
void e810_core_mmio_write(E810Core *core, uint64_t addr, uint64_t val,
                          unsigned size);

/* Runs recorded work; bounded, safe to call when nothing is pending. */
void e810_core_run_work(E810Core *core);

/* Port identity and state, set by the embedder. */
void e810_core_set_mac(E810Core *core, const uint8_t mac[6]);
void e810_core_set_link(E810Core *core, bool up);

/*
 * Debug knob: the protocol engine reports a critical error, as hardware
 * does. GLPE_CRITERR takes a non-benign value (E810_PE_CRITERR_INJECTED),
 * PFINT_OICR.PE_CRITERR is set and the OICR cause fires if PFINT_OICR_ENA
 * enables it. A PF reset clears GLPE_CRITERR.
 */
#define E810_PE_CRITERR_INJECTED    0x00000001u
void e810_core_inject_pe_criterr(E810Core *core);

/*
 * Debug knob: the next send that UD QP @qp_id (1: the GSI QP) fetches fails
 * as one with a bad lkey would (AE AMP_BAD_STAG_KEY, the QP enters Send
 * Queue Error), so a test can fail a send of ib_mad's QP1. One shot; 0
 * disarms. Survives device resets.
 */
void e810_core_inject_ud_send_error(E810Core *core, uint32_t qp_id);

/*
 * Debug knob: RoCE loss injection. Each RoCE frame the transport sends to
 * the wire (never a loopback frame) is dropped with probability
 * @ppm / 10^6, from a deterministic generator (seed 0: a per-function
 * default). Returns -EINVAL and changes nothing if @ppm is above
 * E810_ROCE_DROP_PPM_MAX. Survives device resets; drops are counted in
 * the transport statistics.
 */
#define E810_ROCE_DROP_PPM_MAX      1000000u
int e810_core_set_roce_drop_ppm(E810Core *core, uint32_t ppm);
uint32_t e810_core_roce_drop_ppm(E810Core *core);
/*
 * The same for the iWARP engine: each TCP segment of an offloaded
 * connection headed for the wire (not one looped back to this port, not
 * an ILQ frame of the driver's CM) is lost with probability @ppm / 10^6;
 * the engine's retransmission recovers. Same generator and seed as the
 * RoCE knob; drops are counted in the iWARP engine's statistics
 * (tx_dropped_injected, e810_iw_format_stats()).
 */
int e810_core_set_iwarp_drop_ppm(E810Core *core, uint32_t ppm);
uint32_t e810_core_iwarp_drop_ppm(E810Core *core);
void e810_core_set_roce_drop_seed(E810Core *core, uint64_t seed);
/*
 * The RoCE transport counters as one line of "name=value" pairs
 * (tx_packets, tx_dropped_injected, retransmits, rx_packets, ...), for
 * a debugger or a test. snprintf conventions: returns the length the
 * whole text needs, writes at most @len bytes including the NUL.
 */
int e810_core_xport_stats(E810Core *core, char *buf, size_t len);
int e810_core_hmc_counts(E810Core *core, char *buf, size_t len);
/*
 * The device's own counters and state as one "name=value ..." line:
 * pf_resets (PF resets and FLRs run), core_resets and global_resets (the
 * card's, done on this function), valid_sds (SDs of the function's HMC
 * valid now), hmc_faults, the rejected MMIO accesses and DMA errors
 * (E810CoreStats). snprintf conventions as above.
 */
int e810_core_stats(E810Core *core, char *buf, size_t len);

/* The timer armed with ops->timer_mod expired. */
void e810_core_timer_fire(E810Core *core);
/*
 * The transport's deadline (ns, UINT64_MAX: none) on the embedder's
 * timer, which also carries a pending core reset's (e810_core.c).
 */
void e810_core_timer_mod(E810Core *core, uint64_t deadline_ns);

/* Network backend: may a frame be delivered now; deliver one. */
bool e810_core_can_receive(E810Core *core);
size_t e810_core_receive(E810Core *core, const uint8_t *buf, size_t len);

/* Internal helpers shared by the core's files. */
void e810_core_log(E810Core *core, E810LogLevel level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline void e810_core_trace(E810Core *core, E810TraceEvent ev,
                                   uint64_t a, uint64_t b, uint64_t c)
{
    if (core->ops->trace) {
        core->ops->trace(core->opaque, ev, a, b, c);
    }
}
void e810_core_request_work(E810Core *core, uint32_t work);
void e810_core_work_now(E810Core *core, uint32_t work);
/*
 * Host memory through the embedder; false (and a log line) on failure.
 * Calls are ordered as issued, against the guest's CPUs too (QEMU's
 * dma_memory_rw() begins with a full barrier, dma_barrier()): a valid bit
 * written by a later call is seen after the data of an earlier one.
 */
bool e810_core_dma_read(E810Core *core, uint64_t addr, void *buf, size_t len);
bool e810_core_dma_write(E810Core *core, uint64_t addr, const void *buf,
                         size_t len);
/*
 * Payload (@len bytes at @addr) written from or read into @buf as
 * e810_core_dma_write() / e810_core_dma_read() do, but through a mapping
 * of the whole range when the embedder gives one (from
 * E810_DMA_MAP_PAYLOAD_MIN bytes: below that the map and unmap cost more
 * than the copy): the core then copies with memcpy(), once. A failed or
 * short map falls back to the plain access, with its error handling.
 */
#define E810_DMA_MAP_PAYLOAD_MIN    512
bool e810_core_dma_payload(E810Core *core, uint64_t addr, void *buf,
                           size_t len, bool write);
/*
 * A mapping of guest memory (ops->dma_map). e810_core_dma_map() maps all
 * of [addr, addr + len) for reading or returns false (no map op, a failed
 * or a short map: the caller reads with e810_core_dma_read() instead, and
 * nothing is counted or logged, the fallback reports any error). The
 * bytes may be read until e810_core_dma_unmap(); unmapping a map that
 * failed (ptr NULL) does nothing.
 */
typedef struct E810DmaMap {
    const uint8_t *ptr;
    size_t len;
} E810DmaMap;
bool e810_core_dma_map(E810Core *core, uint64_t addr, size_t len,
                       E810DmaMap *map);
void e810_core_dma_unmap(E810Core *core, E810DmaMap *map);
/*
 * Reads a @len-byte ring entry the guest publishes by writing the 8-byte
 * word at @valid_off last (its valid bit): that word first, the rest
 * after it, so an entry seen valid is seen whole.
 */
bool e810_core_dma_read_entry(E810Core *core, uint64_t addr, void *buf,
                              size_t len, size_t valid_off);

#endif /* E810_CORE_H */
