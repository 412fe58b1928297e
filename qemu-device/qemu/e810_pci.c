/*
 * QEMU glue for the emulated Intel E810-C QSFP PF ("-device e810").
 *
 * Everything the device does lives in the QEMU-free core (../model); this
 * file only connects it to QEMU: PCI identity and BARs, MSI-X, DMA, the
 * NIC backend, the bottom half that runs deferred work, reset and logging.
 *
 * Device properties:
 *   netdev=<id>   the QEMU netdev the port is attached to
 *   mac=<mac>     permanent MAC address (read by the driver through the AQ)
 *
 * Migration and snapshots are refused (a migration blocker for the
 * device's lifetime): docs/qemu-device.md, "Limitations".
 *
 * Debug knobs, set at run time with QMP qom-set:
 *   x-inject-pe-criterr=true  the protocol engine reports a critical error
 *                             (GLPE_CRITERR, PFINT_OICR.PE_CRITERR); reads
 *                             back false
 *   x-inject-cqp-stall=true   the CQP stops consuming WQEs until the next
 *                             PF reset (a wedged engine); reads back false
 *   x-roce-drop-ppm=N         RoCE frames to the wire are lost with
 *                             probability N / 10^6 (0..1000000, default 0;
 *                             deterministic, kept across resets)
 *   x-roce-drop-seed=N        restarts the loss sequence from seed N (0: the
 *                             function's default)
 *   x-iwarp-drop-ppm=N        the iWARP engine's TCP segments to the wire are
 *                             lost with probability N / 10^6 (as
 *                             x-roce-drop-ppm, same sequence and seed)
 *   x-inject-ud-send-error=N  the next send of UD QP N (1: the GSI QP) fails
 *                             as with a bad lkey (Send Queue Error); reads
 *                             back N until it happened, then 0
 *   x-crc32=clmul|zlib        the CRC-32 of the ICRC: the model's
 *                             carry-less multiply one or zlib's, in every
 *                             e810 of the process (e810_set_crc32())
 * and read with qom-get:
 *   x-xport-stats             the RoCE transport counters, "name=value ..."
 *                             (tx_packets, tx_dropped_injected,
 *                             retransmits, rx_packets, ...)
 *   x-hmc-counts              the HMC object counts the driver committed,
 *                             "QP=n CQ=n MR=n FSIAV=n FSIMC=n PBLE=n"
 *   x-iwarp-tables            the engine's mode and iWARP tables, "mode=iwarp
 *                             apbvt=n qhash=n ... apbvt_ports=p,...
 *                             qhash_entries=syn/ip:port/qpN,..."
 *                             (e810_iw_format_tables())
 *   x-iwarp-stats             the iWARP engine's offloaded connections and
 *                             counters, "conns=n offloads=n tx_segs=n ...
 *                             tx_dropped_injected=n retransmits=n ...
 *                             fpdus_rx=n fpdus_tx=n ... drop_ppm=n"
 *                             (e810_iw_format_stats())
 *   x-iwarp-conns             each offloaded connection's TCP and RDMAP
 *                             state, "qp=n lport=n ... failed=0; ..."
 *                             (e810_iw_format_conns())
 *   x-core-stats              the device's counters, "pf_resets=n
 *                             core_resets=n global_resets=n valid_sds=n
 *                             ..." (e810_core_stats()); the e810 functions
 *                             of one slot are one card, whose core and
 *                             global resets each function counts
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "hw/pci/msix.h"
#include "hw/pci/pci_device.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "migration/blocker.h"
#include "net/net.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/crc32c.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "system/dma.h"

#include "card.h"
#include "e810_core.h"
#include "e810_crc32c.h"
#include "e810_iw_conn.h"
#include "trace.h"

#define TYPE_E810 "e810"
OBJECT_DECLARE_SIMPLE_TYPE(E810State, E810)

#define E810_PCIE_CAP_OFFSET    0xa0
#define E810_MSIX_CAP_OFFSET    0x70
#define E810_DSN_CAP_OFFSET     0x100

struct E810State {
    PCIDevice parent_obj;

    NICState *nic;
    NICConf conf;
    MemoryRegion mmio;
    MemoryRegion msix;
    QEMUBH *work_bh;
    QEMUTimer *xport_timer;     /* RoCE retransmission / RNR waits */
    /* FPM space of the function in SDs (QUERY_FPM_VAL MAX_PE_SDS). */
    uint32_t hmc_sds;
    /* MSI-X table size (the MSI-X capability's vector count). */
    uint32_t msix_vectors;
    /* Loss injector knobs; may be set before realize (-device ...). */
    uint32_t roce_drop_ppm;
    uint64_t roce_drop_seed;
    uint32_t iwarp_drop_ppm;
    /* Held from realize to unrealize: see e810_realize(). */
    Error *migration_blocker;

    E810Core core;
};

/* ---- core callbacks ---------------------------------------------------- */

static int e810_dma_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
    E810State *s = opaque;

    return pci_dma_read(PCI_DEVICE(s), addr, buf, len) == MEMTX_OK ? 0 : -1;
}

static int e810_dma_write(void *opaque, uint64_t addr, const void *buf,
                          size_t len)
{
    E810State *s = opaque;

    return pci_dma_write(PCI_DEVICE(s), addr, buf, len) == MEMTX_OK ? 0 : -1;
}

/*
 * Guest memory in place (E810CoreOps.dma_map): a payload that stays in
 * the device is read once, by the receive path, instead of copied into a
 * frame first. pci_dma_map() goes through the function's bus master
 * address space as pci_dma_read() does, and may map less than asked (the
 * core then reads the plain way). Only RAM is used in place: for anything
 * else address_space_map() hands out a bounce buffer and drops the
 * result of filling it, so MMIO, unassigned addresses, a failed IOMMU
 * translation or bus mastering off would read as data instead of
 * failing. Such a map is given back at once and NULL returned, and
 * e810_dma_read() reports the error as before. pci_dma_read() starts
 * with dma_barrier(); so does a map, so the payload is not read ahead of
 * the WQE that named it.
 */
static void *e810_dma_map(void *opaque, uint64_t addr, size_t *len,
                          bool write)
{
    PCIDevice *pdev = PCI_DEVICE(opaque);
    DMADirection dir = write ? DMA_DIRECTION_FROM_DEVICE :
                               DMA_DIRECTION_TO_DEVICE;
    dma_addr_t dlen = *len;
    ram_addr_t offset;
    void *p;

    smp_mb();
    p = pci_dma_map(pdev, addr, &dlen, dir);
    if (p && !memory_region_from_host(p, &offset)) {
        pci_dma_unmap(pdev, p, dlen, dir, 0);   /* a bounce buffer */
        p = NULL;
    }
    *len = p ? MIN(dlen, *len) : 0;
    return p;
}

static void e810_dma_unmap(void *opaque, void *ptr, size_t len, bool write,
                           size_t access_len)
{
    pci_dma_unmap(PCI_DEVICE(opaque), ptr, len,
                  write ? DMA_DIRECTION_FROM_DEVICE : DMA_DIRECTION_TO_DEVICE,
                  access_len);
}

static void e810_msix_notify(void *opaque, unsigned vector)
{
    trace_e810_msix_notify(vector);
    PCIDevice *pdev = PCI_DEVICE(opaque);

    if (msix_enabled(pdev)) {
        msix_notify(pdev, vector);
    }
}

static void e810_schedule_work(void *opaque)
{
    E810State *s = opaque;

    qemu_bh_schedule(s->work_bh);
}

static void e810_transmit(void *opaque, const uint8_t *frame, size_t len)
{
    E810State *s = opaque;

    trace_e810_tx(len);
    qemu_send_packet(qemu_get_queue(s->nic), frame, len);
}

static void e810_rx_ready(void *opaque)
{
    E810State *s = opaque;

    qemu_flush_queued_packets(qemu_get_queue(s->nic));
}

/*
 * The core's diagnostics: guest errors go to -d guest_errors and the
 * e810_err_guest trace event, the unmodelled to -d unimp and
 * e810_unsupported (as hw/nvme splits pci_nvme_err_* from the rest). The
 * core formats a message only when one of them is on.
 */
static bool e810_log_enabled(void *opaque, E810LogLevel level)
{
    if (level == E810_LOG_GUEST_ERROR) {
        return qemu_loglevel_mask(LOG_GUEST_ERROR) ||
               trace_event_get_state_backends(TRACE_E810_ERR_GUEST);
    }
    return qemu_loglevel_mask(LOG_UNIMP) ||
           trace_event_get_state_backends(TRACE_E810_UNSUPPORTED);
}

static void e810_log(void *opaque, E810LogLevel level, const char *msg)
{
    const char *path = DEVICE(opaque)->canonical_path ?: "";

    if (level == E810_LOG_GUEST_ERROR) {
        qemu_log_mask(LOG_GUEST_ERROR, "e810 %s: %s\n", path, msg);
        trace_e810_err_guest(msg);
    } else {
        qemu_log_mask(LOG_UNIMP, "e810 %s: %s\n", path, msg);
        trace_e810_unsupported(msg);
    }
}

/* The core's normal-path events, numbers only (E810TraceEvent). */
static void e810_trace(void *opaque, E810TraceEvent ev, uint64_t a,
                       uint64_t b, uint64_t c)
{
    switch (ev) {
    case E810_TRACE_AQ_CMD:
        trace_e810_aq_cmd(a, b, c);
        break;
    case E810_TRACE_CQP_OP:
        if (trace_event_get_state_backends(TRACE_E810_CQP_OP)) {
            trace_e810_cqp_op(e810_cqp_op_name(a), b, c >> 16, c & 0xffff);
        }
        break;
    }
}

/* The core's one timer runs on the virtual clock, like the guest's time. */
static uint64_t e810_now_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void e810_timer_mod(void *opaque, uint64_t deadline_ns)
{
    E810State *s = opaque;

    if (deadline_ns == UINT64_MAX) {
        timer_del(s->xport_timer);
    } else {
        timer_mod(s->xport_timer, (int64_t)MIN(deadline_ns, INT64_MAX));
    }
}

static void e810_timer_cb(void *opaque)
{
    E810State *s = opaque;

    e810_core_timer_fire(&s->core);
}

/*
 * The model's CRC32c (e810_crc32c.h: iWARP MPA, SCTP checksum offload):
 * QEMU's crc32c(), which leaves the inversions to its caller.
 */
uint32_t e810_crc32c(uint32_t crc, const void *buf, size_t len)
{
    return ~crc32c(~crc, buf, len);
}

static const E810CoreOps e810_core_ops = {
    .dma_read = e810_dma_read,
    .dma_write = e810_dma_write,
    .dma_map = e810_dma_map,
    .dma_unmap = e810_dma_unmap,
    .msix_notify = e810_msix_notify,
    .schedule_work = e810_schedule_work,
    .transmit = e810_transmit,
    .rx_ready = e810_rx_ready,
    .log = e810_log,
    .log_enabled = e810_log_enabled,
    .trace = e810_trace,
    .now_ns = e810_now_ns,
    .timer_mod = e810_timer_mod,
    .crc32 = e810_crc32_clmul,
};

static void e810_work_bh(void *opaque)
{
    E810State *s = opaque;

    e810_core_run_work(&s->core);
}

/* ---- BAR0 -------------------------------------------------------------- */

static uint64_t e810_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    E810State *s = opaque;
    uint64_t val = e810_core_mmio_read(&s->core, addr, size);

    trace_e810_mmio_read(addr, size, val);
    return val;
}

static void e810_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    E810State *s = opaque;

    trace_e810_mmio_write(addr, size, val);
    e810_core_mmio_write(&s->core, addr, val, size);
}

static const MemoryRegionOps e810_mmio_ops = {
    .read = e810_mmio_read,
    .write = e810_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* The core checks size and alignment itself and logs bad accesses. */
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

/* ---- network backend --------------------------------------------------- */

static bool e810_can_receive(NetClientState *nc)
{
    E810State *s = qemu_get_nic_opaque(nc);

    return e810_core_can_receive(&s->core);
}

/* Returns 0 to have the frame queued until e810_rx_ready() flushes it. */
static ssize_t e810_receive(NetClientState *nc, const uint8_t *buf,
                            size_t size)
{
    E810State *s = qemu_get_nic_opaque(nc);
    size_t ret = e810_core_receive(&s->core, buf, size);

    trace_e810_rx(size, ret);
    return ret;
}

static void e810_set_link_status(NetClientState *nc)
{
    E810State *s = qemu_get_nic_opaque(nc);

    trace_e810_link(!nc->link_down);
    e810_core_set_link(&s->core, !nc->link_down);
}

static NetClientInfo e810_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = e810_can_receive,
    .receive = e810_receive,
    .link_status_changed = e810_set_link_status,
};

/* ---- lifetime ---------------------------------------------------------- */

/*
 * The e810 functions of one slot are one card (04.0 and 04.1 in tools/vm's
 * topology): each gets the core and global resets any of them triggers
 * (e810_core_join(), docs/hw-model.md "Resets").
 */
static void e810_join(PCIDevice *pdev, PCIDevice *other)
{
    e810_core_join(&E810(pdev)->core, &E810(other)->core);
}

static void e810_realize(PCIDevice *pdev, Error **errp)
{
    E810State *s = E810(pdev);
    uint64_t dsn = 0;
    int ret, i;

    /*
     * The device state is not only in this object: the guest registered
     * its memory with the device (HMC backing pages, queue rings, memory
     * regions) and the remote ends of its queue pairs hold transport state
     * (PSNs, outstanding READs, TCP sequence numbers for iWARP) that a
     * migration would have to carry and re-establish. None of it is
     * described by a VMStateDescription, so every kind of migration and
     * snapshot is refused with a reason the user sees.
     */
    error_setg(&s->migration_blocker,
               "e810: an RDMA NIC with live queue pairs and guest memory "
               "registered with the device cannot be migrated");
    if (migrate_add_blocker(&s->migration_blocker, errp) < 0) {
        return;
    }

    /* Before the core: its reset may already cancel the timer. */
    s->xport_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, e810_timer_cb, s);
    ret = e810_core_init(&s->core, &e810_core_ops, s, PCI_FUNC(pdev->devfn));
    if (ret) {
        error_setg_errno(errp, -ret, "e810: cannot initialise device core");
        goto err_timer;
    }
    if (e810_core_set_hmc_sds(&s->core, s->hmc_sds)) {
        error_setg(errp, "e810: hmc-sds %" PRIu32 " is outside 1..%u",
                   s->hmc_sds, E810_PE_SDS_LIMIT);
        goto err_core;
    }
    if (e810_core_set_msix_vectors(&s->core, s->msix_vectors)) {
        error_setg(errp, "e810: msix-vectors %" PRIu32 " is outside %u..%u",
                   s->msix_vectors, E810_MSIX_VECTORS_MIN, E810_MAX_VECTORS);
        goto err_core;
    }
    /* Knobs given on the command line (the values were checked then). */
    e810_core_set_roce_drop_seed(&s->core, s->roce_drop_seed);
    e810_core_set_roce_drop_ppm(&s->core, s->roce_drop_ppm);
    e810_core_set_iwarp_drop_ppm(&s->core, s->iwarp_drop_ppm);

    pdev->config[PCI_CACHE_LINE_SIZE] = 0x10;
    pdev->config[PCI_INTERRUPT_PIN] = 1;

    memory_region_init_io(&s->mmio, OBJECT(s), &e810_mmio_ops, s,
                          "e810-mmio", E810_BAR0_SIZE);
    pci_register_bar(pdev, E810_BAR0,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->mmio);

    memory_region_init(&s->msix, OBJECT(s), "e810-msix", E810_BAR_MSIX_SIZE);
    pci_register_bar(pdev, E810_BAR_MSIX,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->msix);
    ret = msix_init(pdev, s->msix_vectors,
                    &s->msix, E810_BAR_MSIX, E810_MSIX_TABLE_OFFSET,
                    &s->msix, E810_BAR_MSIX, E810_MSIX_PBA_OFFSET,
                    E810_MSIX_CAP_OFFSET, errp);
    if (ret) {
        goto err_core;
    }
    for (i = 0; i < s->msix_vectors; i++) {
        msix_vector_use(pdev, i);
    }

    if (pcie_endpoint_cap_init(pdev, E810_PCIE_CAP_OFFSET) < 0) {
        error_setg(errp, "e810: cannot add the PCIe capability");
        goto err_msix;
    }
    /* E810 functions support FLR; ice's reset_prepare/reset_done use it. */
    pcie_cap_flr_init(pdev);
    /* Device serial number as on Intel NICs: the MAC with ff:fe inserted. */
    qemu_macaddr_default_if_unset(&s->conf.macaddr);
    for (i = 0; i < 3; i++) {
        dsn = (dsn << 8) | s->conf.macaddr.a[i];
    }
    dsn = (dsn << 16) | 0xfffe;
    for (i = 3; i < 6; i++) {
        dsn = (dsn << 8) | s->conf.macaddr.a[i];
    }
    pcie_dev_ser_num_init(pdev, E810_DSN_CAP_OFFSET, dsn);

    s->work_bh = qemu_bh_new_guarded(e810_work_bh, s,
                                     &DEVICE(pdev)->mem_reentrancy_guard);
    s->nic = qemu_new_nic(&e810_net_info, &s->conf,
                          object_get_typename(OBJECT(s)), DEVICE(pdev)->id,
                          &DEVICE(pdev)->mem_reentrancy_guard, s);
    qemu_format_nic_info_str(qemu_get_queue(s->nic), s->conf.macaddr.a);
    e810_core_set_mac(&s->core, s->conf.macaddr.a);
    e810_core_set_link(&s->core, !qemu_get_queue(s->nic)->link_down);
    card_join_slot(pdev, TYPE_E810, e810_join);
    return;

err_msix:
    msix_uninit(pdev, &s->msix, &s->msix);
err_core:
    e810_core_fini(&s->core);
err_timer:
    timer_free(s->xport_timer);
    s->xport_timer = NULL;
    migrate_del_blocker(&s->migration_blocker);
}

static void e810_exit(PCIDevice *pdev)
{
    E810State *s = E810(pdev);

    qemu_del_nic(s->nic);
    qemu_bh_delete(s->work_bh);
    pcie_cap_exit(pdev);
    msix_uninit(pdev, &s->msix, &s->msix);
    e810_core_fini(&s->core);
    timer_free(s->xport_timer);
    s->xport_timer = NULL;
    migrate_del_blocker(&s->migration_blocker);
}

static void e810_write_config(PCIDevice *pdev, uint32_t addr, uint32_t val,
                              int len)
{
    pci_default_write_config(pdev, addr, val, len);
    pcie_cap_flr_write_config(pdev, addr, val, len);
}

static void e810_reset_hold(Object *obj, ResetType type)
{
    E810State *s = E810(obj);
    PCIDevice *pdev = PCI_DEVICE(obj);
    uint16_t devctl = pci_get_word(pdev->config + pdev->exp.exp_cap +
                                   PCI_EXP_DEVCTL);

    qemu_bh_cancel(s->work_bh);
    timer_del(s->xport_timer);
    /*
     * pcie_cap_flr_write_config() clears BCR_FLR only after the reset: an
     * FLR resets the function (as a PF reset does), while what the device
     * holds for the whole card (the DDP package, the admin queue
     * registers) stays; any other reset is a power-on reset.
     */
    trace_e810_reset(devctl & PCI_EXP_DEVCTL_BCR_FLR);
    if (devctl & PCI_EXP_DEVCTL_BCR_FLR) {
        e810_core_flr(&s->core);
    } else {
        e810_core_reset(&s->core);
    }
    e810_core_set_link(&s->core, !qemu_get_queue(s->nic)->link_down);
}

static bool e810_get_inject_pe_criterr(Object *obj, Error **errp)
{
    return false;
}

static void e810_set_inject_pe_criterr(Object *obj, bool value, Error **errp)
{
    E810State *s = E810(obj);

    if (!value) {
        return;
    }
    if (!DEVICE(obj)->realized) {
        error_setg(errp, "x-inject-pe-criterr: device not realized");
        return;
    }
    e810_core_inject_pe_criterr(&s->core);
}

static bool e810_get_inject_cqp_stall(Object *obj, Error **errp)
{
    return false;
}

static void e810_set_inject_cqp_stall(Object *obj, bool value, Error **errp)
{
    E810State *s = E810(obj);

    if (!value) {
        return;
    }
    if (!DEVICE(obj)->realized) {
        error_setg(errp, "x-inject-cqp-stall: device not realized");
        return;
    }
    e810_cqp_inject_stall(&s->core);
}

/* A loss knob's value: parts per million, at most E810_ROCE_DROP_PPM_MAX. */
static bool e810_visit_drop_ppm(Visitor *v, const char *name, uint32_t *ppm,
                                Error **errp)
{
    if (!visit_type_uint32(v, name, ppm, errp)) {
        return false;
    }
    if (*ppm > E810_ROCE_DROP_PPM_MAX) {
        error_setg(errp, "%s: %" PRIu32 " is above %u (parts per million)",
                   name, *ppm, E810_ROCE_DROP_PPM_MAX);
        return false;
    }
    return true;
}

static void e810_get_roce_drop_ppm(Object *obj, Visitor *v, const char *name,
                                   void *opaque, Error **errp)
{
    E810State *s = E810(obj);

    visit_type_uint32(v, name, &s->roce_drop_ppm, errp);
}

static void e810_set_roce_drop_ppm(Object *obj, Visitor *v, const char *name,
                                   void *opaque, Error **errp)
{
    E810State *s = E810(obj);
    uint32_t ppm;

    if (!e810_visit_drop_ppm(v, name, &ppm, errp)) {
        return;
    }
    s->roce_drop_ppm = ppm;
    /* Before realize the core does not exist yet: realize applies it. */
    if (DEVICE(obj)->realized) {
        e810_core_set_roce_drop_ppm(&s->core, ppm);
    }
}

static void e810_get_iwarp_drop_ppm(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    E810State *s = E810(obj);

    visit_type_uint32(v, name, &s->iwarp_drop_ppm, errp);
}

static void e810_set_iwarp_drop_ppm(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    E810State *s = E810(obj);
    uint32_t ppm;

    if (!e810_visit_drop_ppm(v, name, &ppm, errp)) {
        return;
    }
    s->iwarp_drop_ppm = ppm;
    if (DEVICE(obj)->realized) {
        e810_core_set_iwarp_drop_ppm(&s->core, ppm);
    }
}

static void e810_get_inject_ud_send_error(Object *obj, Visitor *v,
                                          const char *name, void *opaque,
                                          Error **errp)
{
    E810State *s = E810(obj);
    uint32_t qp_id = s->core.inject_ud_send_err;

    visit_type_uint32(v, name, &qp_id, errp);
}

static void e810_set_inject_ud_send_error(Object *obj, Visitor *v,
                                          const char *name, void *opaque,
                                          Error **errp)
{
    E810State *s = E810(obj);
    uint32_t qp_id;

    if (!visit_type_uint32(v, name, &qp_id, errp)) {
        return;
    }
    if (!DEVICE(obj)->realized) {
        error_setg(errp, "%s: device not realized", name);
        return;
    }
    e810_core_inject_ud_send_error(&s->core, qp_id);
}

static void e810_get_roce_drop_seed(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    E810State *s = E810(obj);

    /* The seed last set, not the generator's current state. */
    visit_type_uint64(v, name, &s->roce_drop_seed, errp);
}

static void e810_set_roce_drop_seed(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    E810State *s = E810(obj);
    uint64_t seed;

    if (!visit_type_uint64(v, name, &seed, errp)) {
        return;
    }
    s->roce_drop_seed = seed;
    if (DEVICE(obj)->realized) {
        e810_core_set_roce_drop_seed(&s->core, seed);
    }
}

/* A read-only string property formatted by the core with fmt(). */
static char *e810_get_formatted(Object *obj, Error **errp, const char *name,
                                int (*fmt)(E810Core *, char *, size_t))
{
    E810State *s = E810(obj);
    char *buf;
    int n;

    if (!DEVICE(obj)->realized) {
        error_setg(errp, "%s: device not realized", name);
        return NULL;
    }
    n = fmt(&s->core, NULL, 0);
    if (n < 0) {
        error_setg(errp, "%s: cannot format the values", name);
        return NULL;
    }
    buf = g_malloc(n + 1);
    fmt(&s->core, buf, n + 1);
    return buf;
}

static char *e810_get_xport_stats(Object *obj, Error **errp)
{
    return e810_get_formatted(obj, errp, "x-xport-stats",
                              e810_core_xport_stats);
}

static char *e810_get_hmc_counts(Object *obj, Error **errp)
{
    return e810_get_formatted(obj, errp, "x-hmc-counts",
                              e810_core_hmc_counts);
}

static char *e810_get_iwarp_tables(Object *obj, Error **errp)
{
    return e810_get_formatted(obj, errp, "x-iwarp-tables",
                              e810_iw_format_tables);
}

static char *e810_get_iwarp_stats(Object *obj, Error **errp)
{
    return e810_get_formatted(obj, errp, "x-iwarp-stats",
                              e810_iw_format_stats);
}

static char *e810_get_iwarp_conns(Object *obj, Error **errp)
{
    return e810_get_formatted(obj, errp, "x-iwarp-conns",
                              e810_iw_format_conns);
}

static char *e810_get_core_stats(Object *obj, Error **errp)
{
    return e810_get_formatted(obj, errp, "x-core-stats", e810_core_stats);
}

/*
 * x-crc32: the CRC-32 of the model's ICRC, "clmul" (the model's
 * e810_crc32_clmul(), what realize installs) or "zlib" (zlib's
 * crc32_z()), to measure one against the other in one boot. It is
 * process-wide (e810_crc32_set_impl()): every e810 follows the last set.
 */
static E810Crc32Fn *e810_crc32_impl = e810_crc32_clmul;

static char *e810_get_crc32(Object *obj, Error **errp)
{
    return g_strdup(e810_crc32_impl ? "clmul" : "zlib");
}

static void e810_set_crc32(Object *obj, const char *value, Error **errp)
{
    if (!strcmp(value, "clmul")) {
        e810_crc32_impl = e810_crc32_clmul;
    } else if (!strcmp(value, "zlib")) {
        e810_crc32_impl = NULL;
    } else {
        error_setg(errp, "x-crc32: \"clmul\" or \"zlib\", not \"%s\"",
                   value);
        return;
    }
    e810_crc32_set_impl(e810_crc32_impl);
}

static const Property e810_properties[] = {
    DEFINE_NIC_PROPERTIES(E810State, conf),
    DEFINE_PROP_UINT32("hmc-sds", E810State, hmc_sds, E810_PE_SDS_DEFAULT),
    DEFINE_PROP_UINT32("msix-vectors", E810State, msix_vectors,
                       E810_MSIX_VECTORS),
};

static void e810_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(oc);

    k->realize = e810_realize;
    k->exit = e810_exit;
    k->config_write = e810_write_config;
    k->vendor_id = E810_PCI_VENDOR_ID;
    k->device_id = E810_PCI_DEVICE_ID_C_QSFP;
    k->revision = E810_PCI_REVISION;
    k->subsystem_vendor_id = E810_PCI_SUBSYS_VENDOR_ID;
    k->subsystem_id = E810_PCI_SUBSYS_ID_C_Q2;
    k->class_id = PCI_CLASS_NETWORK_ETHERNET;

    dc->desc = "Intel E810-C QSFP Ethernet with RDMA (emulated)";
    rc->phases.hold = e810_reset_hold;
    device_class_set_props(dc, e810_properties);
    object_class_property_add_bool(oc, "x-inject-pe-criterr",
                                   e810_get_inject_pe_criterr,
                                   e810_set_inject_pe_criterr);
    object_class_property_set_description(oc, "x-inject-pe-criterr",
        "debug: set to true to inject a protocol engine critical error");
    object_class_property_add_bool(oc, "x-inject-cqp-stall",
                                   e810_get_inject_cqp_stall,
                                   e810_set_inject_cqp_stall);
    object_class_property_set_description(oc, "x-inject-cqp-stall",
        "debug: set to true to stop the CQP until the next PF reset");
    object_class_property_add(oc, "x-roce-drop-ppm", "uint32",
                              e810_get_roce_drop_ppm, e810_set_roce_drop_ppm,
                              NULL, NULL);
    object_class_property_set_description(oc, "x-roce-drop-ppm",
        "debug: RoCE frames to the wire lost per million (0..1000000)");
    object_class_property_add(oc, "x-roce-drop-seed", "uint64",
                              e810_get_roce_drop_seed,
                              e810_set_roce_drop_seed, NULL, NULL);
    object_class_property_set_description(oc, "x-roce-drop-seed",
        "debug: restart the RoCE loss sequence from this seed (0: default)");
    object_class_property_add(oc, "x-iwarp-drop-ppm", "uint32",
                              e810_get_iwarp_drop_ppm,
                              e810_set_iwarp_drop_ppm, NULL, NULL);
    object_class_property_set_description(oc, "x-iwarp-drop-ppm",
        "debug: iWARP TCP segments to the wire lost per million (0..1000000)");
    object_class_property_add(oc, "x-inject-ud-send-error", "uint32",
                              e810_get_inject_ud_send_error,
                              e810_set_inject_ud_send_error, NULL, NULL);
    object_class_property_set_description(oc, "x-inject-ud-send-error",
        "debug: the next send of this UD QP id fails as with a bad lkey");
    object_class_property_add_str(oc, "x-crc32", e810_get_crc32,
                                  e810_set_crc32);
    object_class_property_set_description(oc, "x-crc32",
        "debug: the ICRC's CRC-32, \"clmul\" (default) or \"zlib\"; "
        "process-wide");
    object_class_property_add_str(oc, "x-xport-stats",
                                  e810_get_xport_stats, NULL);
    object_class_property_set_description(oc, "x-xport-stats",
        "debug: RoCE transport counters, \"name=value ...\"");
    object_class_property_add_str(oc, "x-hmc-counts",
                                  e810_get_hmc_counts, NULL);
    object_class_property_set_description(oc, "x-hmc-counts",
        "debug: committed HMC object counts, \"QP=n CQ=n ...\"");
    object_class_property_add_str(oc, "x-iwarp-tables",
                                  e810_get_iwarp_tables, NULL);
    object_class_property_set_description(oc, "x-iwarp-tables",
        "debug: iWARP mode, APBVT ports and quad hash entries");
    object_class_property_add_str(oc, "x-iwarp-stats",
                                  e810_get_iwarp_stats, NULL);
    object_class_property_set_description(oc, "x-iwarp-stats",
        "debug: iWARP offloaded connections and counters, \"conns=n ...\"");
    object_class_property_add_str(oc, "x-iwarp-conns",
                                  e810_get_iwarp_conns, NULL);
    object_class_property_set_description(oc, "x-iwarp-conns",
        "debug: each offloaded iWARP connection's state, \"qp=n ...; ...\"");
    object_class_property_add_str(oc, "x-core-stats",
                                  e810_get_core_stats, NULL);
    object_class_property_set_description(oc, "x-core-stats",
        "debug: device counters and state, \"pf_resets=n valid_sds=n ...\"");
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo e810_info = {
    .name = TYPE_E810,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(E810State),
    .class_init = e810_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void e810_register_types(void)
{
    type_register_static(&e810_info);
}

type_init(e810_register_types)
