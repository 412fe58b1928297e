/*
 * Emulated Intel X722 PF (the Ethernet function i40e drives): QEMU-free
 * device core, public interface.
 *
 * The X722 shares its embedder interface with the E810 model: the
 * embedder supplies an E810CoreOps (e810_core.h: DMA, MSI-X, deferred
 * work, transmit, diagnostics) and calls in for MMIO, deferred work,
 * received frames and reset. The admin queue descriptor is the design
 * both families share (include/hw/e810_aq.h); everything behind it (the
 * opcode set, the NVM, the LAN HMC and queue formats, the interrupt
 * linking) is the X722's own and lives in the x722_*.c files.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef X722_CORE_H
#define X722_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "e810_core.h"      /* E810CoreOps, E810LogLevel */
#include "x722_regs.h"

/* Shadow RAM: GLNVM_GENS SR_SIZE 2 = 4 KiB (2048 words). */
#define X722_SR_WORDS           2048
#define X722_AQ_BUF_MAX         4096
#define X722_MAX_MACS           64
#define X722_FRAME_MAX          (16 * 1024)
#define X722_TX_PKT_MAX         (256 * 1024 + 1024)
#define X722_TX_MAX_BUFS        8   /* data descriptors of a non-TSO packet */
#define X722_QS_HANDLE          0x0010  /* the VSI's TC0 queue set */

/* AQ return codes (i40e_adminq_cmd.h enum i40e_admin_queue_err). */
enum x722_aq_rc {
    X722_AQ_RC_OK = 0,
    X722_AQ_RC_EPERM = 1,
    X722_AQ_RC_ENOENT = 2,
    X722_AQ_RC_ESRCH = 3,
    X722_AQ_RC_EIO = 5,
    X722_AQ_RC_ENOMEM = 9,
    X722_AQ_RC_EBUSY = 12,
    X722_AQ_RC_EEXIST = 13,
    X722_AQ_RC_EINVAL = 14,
    X722_AQ_RC_ENOSPC = 16,
    X722_AQ_RC_ENOSYS = 17,
    X722_AQ_RC_EFBIG = 27,
};

typedef struct X722TxQueue {
    bool enabled;
    uint64_t base;
    uint32_t qlen;
    uint32_t head;
    uint32_t tail;
    bool head_wb;
    uint64_t head_wb_addr;
} X722TxQueue;

typedef struct X722RxQueue {
    bool enabled;
    uint64_t base;
    uint32_t qlen;
    uint32_t dbuf;      /* data buffer bytes */
    uint32_t rxmax;
    uint32_t head;
    uint32_t tail;
    bool crcstrip;
} X722RxQueue;

typedef struct X722Stats {
    uint64_t aq_commands, aq_errors, aq_unknown;
    uint64_t events_posted, events_dropped;
    uint64_t mmio_bad_access, mmio_ro_write;
    uint64_t pf_resets, core_resets, global_resets, emp_resets, dma_errors;
    uint64_t hmc_sd_writes, hmc_faults, bad_ctx;
    uint64_t tx_packets, tx_bytes, tx_bad_desc, tx_dropped, tx_tso_segs;
    uint64_t rx_packets, rx_bytes, rx_no_desc, rx_filtered, rx_oversize;
    uint64_t pe_reg_writes;     /* writes to the PE's registers */
    /* CQP WQEs run and failed by CQPs already destroyed (x722_rdma.c) */
    uint64_t pe_cqp_ops_done, pe_cqp_errors_done;
} X722Stats;

/* What the firmware remembers between commands. */
/* The engine's GLPES_PF* counters (x722_rdma.c). */
enum x722_pes {
    X722_PES_IP4RXOCTS, X722_PES_IP4RXPKTS, X722_PES_IP4RXTRUNC,
    X722_PES_IP4RXMCOCTS, X722_PES_IP4RXMCPKTS,
    X722_PES_IP6RXOCTS, X722_PES_IP6RXPKTS, X722_PES_IP6RXTRUNC,
    X722_PES_IP6RXMCOCTS, X722_PES_IP6RXMCPKTS,
    X722_PES_IP4TXOCTS, X722_PES_IP4TXPKTS,
    X722_PES_IP4TXMCOCTS, X722_PES_IP4TXMCPKTS,
    X722_PES_IP6TXOCTS, X722_PES_IP6TXPKTS,
    X722_PES_IP6TXMCOCTS, X722_PES_IP6TXMCPKTS,
    X722_PES_TCPRXSEGS, X722_PES_TCPTXSEG, X722_PES_TCPRTXSEG,
    X722_PES_RDMARXWRS, X722_PES_RDMARXRDS, X722_PES_RDMARXSNDS,
    X722_PES_RDMATXWRS, X722_PES_RDMATXRDS, X722_PES_RDMATXSNDS,
    X722_PES_RDMAVBND, X722_PES_RDMAVINV,
    X722_PES_MAX
};

typedef struct X722Fw {
    bool lse_enabled;
    uint16_t max_frame;         /* 0x0603; 0: MAX_FRAME (x722_aq.c) */
    bool nvm_owned;             /* 0x0008 granted, not yet released */
    bool bcast, uc_promisc, mc_promisc;
    uint16_t vsi_queue_opt;     /* queueing_opt_flags (TCP_ENA, ...) */
    uint8_t port_vlan_flags;    /* VSI props 12: VLAN mode, EMOD */
    uint8_t vsi_map[50];        /* VSI props 28..77: queue and TC map */
    uint16_t nmacs;
    uint8_t macs[X722_MAX_MACS][6];
    bool rss_key_set, rss_lut_set;
    uint8_t rss_key[52];        /* standard 40 bytes, extended 12 */
    uint8_t rss_lut[512];       /* the PF LUT */
    char driver_ver[32];
} X722Fw;

#define X722_CARD_PFS           4   /* PRTGEN_CNF(0..3): ports of a card */

typedef struct X722Core X722Core;

struct X722Core {
    const E810CoreOps *ops;
    void *opaque;
    unsigned pf_id;
    /*
     * The card's functions by PF number, this one included (the others
     * joined by x722_core_join()): a core, global or EMP reset is the
     * card's and reaches each of them.
     */
    X722Core *card[X722_CARD_PFS];
    uint8_t mac[6];
    bool carrier;

    uint32_t *regs;             /* X722_REG_SPACE / 4 words */
    bool atq_pending;
    bool running;
    /* Interrupts: causes waiting for their vector's INTENA. */
    bool icr0_pending;
    uint8_t vec_pending[(X722_MSIX_VECTORS + 7) / 8];

    uint16_t sr[X722_SR_WORDS]; /* shadow RAM */
    X722Fw fw;

    /* LAN HMC: direct SDs. */
    uint64_t sd_addr[X722_HMC_MAX_SDS];
    uint32_t sd_bpcount[X722_HMC_MAX_SDS];
    bool sd_valid[X722_HMC_MAX_SDS];

    /* The RDMA protocol engine: an E810 core run as GEN_1 (x722_rdma.c). */
    E810Core *pe;
    E810CoreOps pe_ops;         /* the engine's: ours, counting its frames */
    uint64_t pes[X722_PES_MAX]; /* GLPES_PF* (Reset: PE_CORER) */
    uint64_t pes_rtx_base;      /* the engine's retransmissions at PE_CORER */
    /*
     * The one timer of the glue (E810CoreOps.timer_mod), shared by the
     * engine's (pe_deadline) and a core or global reset's (grst_deadline).
     */
    uint64_t pe_deadline, grst_deadline;
    uint8_t grst_type;          /* X722_RESET_*: warned, not yet done */

    X722TxQueue txq[X722_NUM_QUEUES];
    X722RxQueue rxq[X722_NUM_QUEUES];
    X722Stats stats;

    uint8_t aq_buf[X722_AQ_BUF_MAX];
    uint8_t frame[X722_TX_PKT_MAX];
    uint8_t seg[X722_FRAME_MAX];
    uint8_t rx_frame[X722_FRAME_MAX];   /* a received frame, tag stripped */
};

int x722_core_init(X722Core *core, const E810CoreOps *ops, void *opaque,
                   unsigned pf_id);
void x722_core_fini(X722Core *core);
/* Power-on reset: every register, the firmware's state, the queues. */
void x722_core_reset(X722Core *core);
/*
 * Functions of one card: @other (and the functions it was joined with)
 * and @core see each other's core, global and EMP resets. A function
 * leaves its card before x722_core_fini().
 */
void x722_core_join(X722Core *core, X722Core *other);
void x722_core_leave(X722Core *core);
/*
 * The EMP reset the card's firmware does on its own (after an NVM update,
 * on a firmware fault): warned on each function as a core reset is, then
 * the whole function reset, the admin queue's registers too.
 */
void x722_core_empr(X722Core *core);
void x722_core_set_mac(X722Core *core, const uint8_t mac[6]);
void x722_core_set_link(X722Core *core, bool up);

uint64_t x722_core_mmio_read(X722Core *core, uint64_t addr, unsigned size);
void x722_core_mmio_write(X722Core *core, uint64_t addr, uint64_t val,
                          unsigned size);
void x722_core_run_work(X722Core *core);

bool x722_core_can_receive(X722Core *core);
/* Returns @len when the frame was taken or dropped, 0 to hold it back. */
size_t x722_core_receive(X722Core *core, const uint8_t *buf, size_t len);

/* "name=value ..." of X722Stats, for the glue's debug property. */
void x722_core_format_stats(X722Core *core, char *out, size_t n);
/* "name=value ..." of the RDMA protocol engine (x722_rdma.c). */
void x722_rdma_format_stats(X722Core *core, char *out, size_t n);

/* ---- inside the model ---- */
uint32_t *x722_reg(X722Core *core, uint32_t off);
void x722_log(X722Core *core, E810LogLevel level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool x722_dma_read(X722Core *core, uint64_t addr, void *buf, size_t len);
bool x722_dma_write(X722Core *core, uint64_t addr, const void *buf,
                    size_t len);
/* Raise a vector-0 cause (PFINT_ICR0 bit). */
void x722_icr0_cause(X722Core *core, uint32_t cause);
/* Raise MSI-X vector @v (>= 1) as a queue cause would. */
void x722_vector_cause(X722Core *core, unsigned v);

/* GLGEN_RTRIG's reset, GRST_DELAY_NS after its warning (x722_core.c). */
#define X722_GRST_DELAY_NS      (100 * 1000 * 1000ull)
void x722_core_grst_done(X722Core *core);
/* Arms the reset's timer (x722_rdma.c); false when the glue has none. */
bool x722_timer_grst(X722Core *core, uint64_t delay_ns);

/* x722_aq.c */
void x722_aq_reset(X722Core *core);
void x722_aq_process_atq(X722Core *core);
bool x722_aq_post_event(X722Core *core, uint16_t opcode, const void *params,
                        const void *data, uint16_t len);
void x722_aq_link_changed(X722Core *core);
/*
 * Executes one command: @desc is the 32-byte descriptor (updated in
 * place), @buf its indirect buffer of @buf_len bytes (NULL for direct);
 * *@resp_len gets the bytes of @buf to return. Exposed for the fuzzer.
 */
enum x722_aq_rc x722_aq_execute(X722Core *core, uint8_t *desc, uint8_t *buf,
                                uint16_t buf_len, uint16_t *resp_len);

/* x722_nvm.c */
void x722_nvm_init(X722Core *core);
enum x722_aq_rc x722_nvm_read(X722Core *core, uint8_t module, uint32_t off,
                              uint16_t len, uint8_t *out);

/* x722_lan.c */
void x722_lan_reset(X722Core *core);
void x722_lan_sd_cmd(X722Core *core, uint32_t val);
void x722_lan_qtx_ena(X722Core *core, unsigned q, uint32_t val);
void x722_lan_qrx_ena(X722Core *core, unsigned q, uint32_t val);
void x722_lan_qtx_tail(X722Core *core, unsigned q, uint32_t val);
void x722_lan_qrx_tail(X722Core *core, unsigned q, uint32_t val);
void x722_lan_process_tx(X722Core *core);
/*
 * The RSS packet classifier type of an IP frame (@l3: its L3 header's
 * offset, @ethertype that of the frame), or -1 for one that is not IP.
 */
int x722_rss_pctype(const uint8_t *frame, size_t len, size_t l3,
                    uint16_t ethertype);
bool x722_lan_can_receive(X722Core *core);
size_t x722_lan_receive(X722Core *core, const uint8_t *buf, size_t len);
/* FPM address of an HMC object -> guest address; false on a fault. */
bool x722_hmc_translate(X722Core *core, uint64_t fpm, size_t len,
                        uint64_t *pa);

/*
 * x722_rdma.c: the protocol engine. The LAN HMC holds SDs
 * 0..X722_HMC_MAX_SDS - 1 of the function's table, the engine the
 * X722_PE_SDS after them (QUERY_FPM_VAL's FIRST_PE_SD_INDEX).
 */
#define X722_PE_FIRST_SD        X722_HMC_MAX_SDS
#define X722_PE_SDS             32
int x722_rdma_init(X722Core *core);
void x722_rdma_fini(X722Core *core);
/* @por: power-on; else the PF reset (PFGEN_CTRL.PFSWR). */
void x722_rdma_reset(X722Core *core, bool por);
void x722_rdma_set_link(X722Core *core);
/* A PE register (or the doorbell page): handled, true; else false. */
bool x722_rdma_mmio_read(X722Core *core, uint32_t off, uint32_t *val);
bool x722_rdma_mmio_write(X722Core *core, uint32_t off, uint32_t val);
/* PFINT_DYN_CTLN(@v - 1) was written: the engine's gate of vector @v. */
void x722_rdma_dyn_ctl(X722Core *core, unsigned v, uint32_t val);
void x722_rdma_run_work(X722Core *core);
/* The timer the engine armed (E810CoreOps.timer_mod) expired. */
void x722_rdma_timer_fire(X722Core *core);
/* The VSI's TCP_ENA queueing option changed (AQ 0x0211). */
void x722_rdma_set_tcp_ena(X722Core *core);
/* A frame from the wire the engine takes (true), or the LAN's (false). */
bool x722_rdma_receive(X722Core *core, const uint8_t *buf, size_t len);

#endif /* X722_CORE_H */
