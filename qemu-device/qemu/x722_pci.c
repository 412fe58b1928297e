/*
 * QEMU glue for the emulated Intel X722 SFP+ PF ("-device x722").
 *
 * Everything the device does lives in the QEMU-free core
 * (../model/x722_*.c); this file connects it to QEMU: PCI identity and
 * BARs, MSI-X, DMA, the NIC backend, the bottom half for deferred work,
 * reset and logging (docs/hw-model-x722.md).
 *
 * Device properties:
 *   netdev=<id>   the QEMU netdev the port is attached to
 *   mac=<mac>     permanent MAC address (admin queue Manage MAC Read)
 *   x-iwarp-drop-ppm=N  the engine's iWARP TCP segments to the wire are
 *                 lost with probability N / 1000000 (0 .. 1000000; also
 *                 qom-set at run time), as e810's (docs/hw-model.md)
 * set with qom-set at run time:
 *   x-empr=true   the card's firmware does an EMP reset (every x722
 *                 function of the slot, docs/hw-model-x722.md)
 * and read with qom-get:
 *   x-stats       the model's counters, "name=value ..."
 *   x-pe-stats    the RDMA protocol engine's state and counters (CQP,
 *                 HMC counts, CEQs, AEQ, local MAC table), same format
 *   x-iwarp-tables, x-iwarp-stats, x-iwarp-conns  the engine's iWARP
 *                 tables, ILQ and connection counters, each connection's
 *                 state, as e810's (docs/hw-model.md)
 *
 * Migration and snapshots are refused, as for e810: guest memory is
 * registered with the device (the LAN HMC, the rings).
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
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "system/dma.h"

#include "card.h"
#include "e810_iw_conn.h"    /* e810_iw_format_stats() */
#include "e810_iwarp.h"     /* e810_iw_format_tables() */
#include "x722_core.h"
#include "trace.h"

#define TYPE_X722 "x722"
OBJECT_DECLARE_SIMPLE_TYPE(X722State, X722)

#define X722_MSI_CAP_OFFSET     0x50
#define X722_MSIX_CAP_OFFSET    0x70
#define X722_PCIE_CAP_OFFSET    0xa0

struct X722State {
    PCIDevice parent_obj;

    NICState *nic;
    NICConf conf;
    MemoryRegion mmio;
    MemoryRegion msix;
    QEMUBH *work_bh;
    QEMUTimer *pe_timer;        /* the engine's: iWARP retransmission */
    Error *migration_blocker;
    uint32_t iwarp_drop_ppm;    /* applied to the engine at realize */

    X722Core core;
};

static int x722_glue_dma_read(void *opaque, uint64_t addr, void *buf,
                              size_t len)
{
    return pci_dma_read(PCI_DEVICE(opaque), addr, buf, len) == MEMTX_OK ?
           0 : -1;
}

static int x722_glue_dma_write(void *opaque, uint64_t addr,
                               const void *buf, size_t len)
{
    return pci_dma_write(PCI_DEVICE(opaque), addr, buf, len) == MEMTX_OK ?
           0 : -1;
}

static void x722_msix_notify(void *opaque, unsigned vector)
{
    PCIDevice *pdev = PCI_DEVICE(opaque);

    if (msix_enabled(pdev)) {
        msix_notify(pdev, vector);
    }
}

static void x722_schedule_work(void *opaque)
{
    X722State *s = opaque;

    qemu_bh_schedule(s->work_bh);
}

static void x722_transmit(void *opaque, const uint8_t *frame, size_t len)
{
    X722State *s = opaque;

    qemu_send_packet(qemu_get_queue(s->nic), frame, len);
}

static void x722_rx_ready(void *opaque)
{
    X722State *s = opaque;

    qemu_flush_queued_packets(qemu_get_queue(s->nic));
}

static bool x722_glue_log_enabled(void *opaque, E810LogLevel level)
{
    return qemu_loglevel_mask(level == E810_LOG_GUEST_ERROR ?
                              LOG_GUEST_ERROR : LOG_UNIMP);
}

static void x722_glue_log(void *opaque, E810LogLevel level, const char *msg)
{
    const char *path = DEVICE(opaque)->canonical_path ?: "";

    qemu_log_mask(level == E810_LOG_GUEST_ERROR ? LOG_GUEST_ERROR : LOG_UNIMP,
                  "x722 %s: %s\n", path, msg);
}

/* The protocol engine's CQP operations (x722_rdma.c runs an E810 core). */
static void x722_glue_trace(void *opaque, E810TraceEvent ev, uint64_t a,
                            uint64_t b, uint64_t c)
{
    if (ev == E810_TRACE_CQP_OP &&
        trace_event_get_state_backends(TRACE_E810_CQP_OP)) {
        trace_e810_cqp_op(e810_cqp_op_name(a), b, c >> 16, c & 0xffff);
    }
}

/*
 * The protocol engine's one timer (its offloaded iWARP connections'
 * retransmission, delayed ACKs and keepalives) on the virtual clock, like
 * the guest's time; the LAN side has none.
 */
static uint64_t x722_now_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void x722_timer_mod(void *opaque, uint64_t deadline_ns)
{
    X722State *s = opaque;

    if (deadline_ns == UINT64_MAX) {
        timer_del(s->pe_timer);
    } else {
        timer_mod(s->pe_timer, (int64_t)MIN(deadline_ns, INT64_MAX));
    }
}

static void x722_timer_cb(void *opaque)
{
    X722State *s = opaque;

    x722_rdma_timer_fire(&s->core);
}

static const E810CoreOps x722_core_ops = {
    .dma_read = x722_glue_dma_read,
    .dma_write = x722_glue_dma_write,
    .msix_notify = x722_msix_notify,
    .schedule_work = x722_schedule_work,
    .transmit = x722_transmit,
    .rx_ready = x722_rx_ready,
    .log = x722_glue_log,
    .log_enabled = x722_glue_log_enabled,
    .trace = x722_glue_trace,
    .now_ns = x722_now_ns,
    .timer_mod = x722_timer_mod,
};

static void x722_work_bh(void *opaque)
{
    X722State *s = opaque;

    x722_core_run_work(&s->core);
}

static uint64_t x722_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    X722State *s = opaque;

    return x722_core_mmio_read(&s->core, addr, size);
}

static void x722_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                            unsigned size)
{
    X722State *s = opaque;

    x722_core_mmio_write(&s->core, addr, val, size);
}

static const MemoryRegionOps x722_mmio_ops = {
    .read = x722_mmio_read,
    .write = x722_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* The core checks size and alignment itself and logs bad accesses. */
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

static bool x722_can_receive(NetClientState *nc)
{
    X722State *s = qemu_get_nic_opaque(nc);

    return x722_core_can_receive(&s->core);
}

static ssize_t x722_receive(NetClientState *nc, const uint8_t *buf,
                            size_t size)
{
    X722State *s = qemu_get_nic_opaque(nc);

    return x722_core_receive(&s->core, buf, size);
}

static void x722_set_link_status(NetClientState *nc)
{
    X722State *s = qemu_get_nic_opaque(nc);

    x722_core_set_link(&s->core, !nc->link_down);
}

static NetClientInfo x722_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = x722_can_receive,
    .receive = x722_receive,
    .link_status_changed = x722_set_link_status,
};

/*
 * The x722 functions of one slot are one card: each sees the core,
 * global and EMP resets of the others (x722_core_join()).
 */
static void x722_join(PCIDevice *pdev, PCIDevice *other)
{
    x722_core_join(&X722(pdev)->core, &X722(other)->core);
}

static void x722_realize(PCIDevice *pdev, Error **errp)
{
    X722State *s = X722(pdev);
    int i;

    error_setg(&s->migration_blocker,
               "x722: a NIC with its queue contexts in guest memory "
               "cannot be migrated");
    if (migrate_add_blocker(&s->migration_blocker, errp) < 0) {
        return;
    }
    /* Before the core: its reset may already cancel the timer. */
    s->pe_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, x722_timer_cb, s);
    if (x722_core_init(&s->core, &x722_core_ops, s, PCI_FUNC(pdev->devfn))) {
        error_setg(errp, "x722: cannot initialise device core");
        goto err_timer;
    }
    pdev->config[PCI_CACHE_LINE_SIZE] = 0x10;
    pdev->config[PCI_INTERRUPT_PIN] = 1;

    memory_region_init_io(&s->mmio, OBJECT(s), &x722_mmio_ops, s,
                          "x722-mmio", X722_BAR0_SIZE);
    pci_register_bar(pdev, X722_BAR0,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->mmio);
    memory_region_init(&s->msix, OBJECT(s), "x722-msix", X722_BAR_MSIX_SIZE);
    pci_register_bar(pdev, X722_BAR_MSIX,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64 |
                     PCI_BASE_ADDRESS_MEM_PREFETCH, &s->msix);
    if (msix_init(pdev, X722_MSIX_VECTORS,
                  &s->msix, X722_BAR_MSIX, X722_MSIX_TABLE_OFFSET,
                  &s->msix, X722_BAR_MSIX, X722_MSIX_PBA_OFFSET,
                  X722_MSIX_CAP_OFFSET, errp)) {
        goto err_core;
    }
    for (i = 0; i < X722_MSIX_VECTORS; i++) {
        msix_vector_use(pdev, i);
    }
    if (pcie_endpoint_cap_init(pdev, X722_PCIE_CAP_OFFSET) < 0) {
        error_setg(errp, "x722: cannot add the PCIe capability");
        goto err_msix;
    }
    pcie_cap_flr_init(pdev);

    s->work_bh = qemu_bh_new_guarded(x722_work_bh, s,
                                     &DEVICE(pdev)->mem_reentrancy_guard);
    qemu_macaddr_default_if_unset(&s->conf.macaddr);
    s->nic = qemu_new_nic(&x722_net_info, &s->conf,
                          object_get_typename(OBJECT(s)), DEVICE(pdev)->id,
                          &DEVICE(pdev)->mem_reentrancy_guard, s);
    qemu_format_nic_info_str(qemu_get_queue(s->nic), s->conf.macaddr.a);
    x722_core_set_mac(&s->core, s->conf.macaddr.a);
    x722_core_set_link(&s->core, !qemu_get_queue(s->nic)->link_down);
    e810_core_set_iwarp_drop_ppm(s->core.pe, s->iwarp_drop_ppm);
    card_join_slot(pdev, TYPE_X722, x722_join);
    return;

err_msix:
    msix_uninit(pdev, &s->msix, &s->msix);
err_core:
    x722_core_fini(&s->core);
err_timer:
    timer_free(s->pe_timer);
    s->pe_timer = NULL;
err_blocker:
    migrate_del_blocker(&s->migration_blocker);
}

static void x722_exit(PCIDevice *pdev)
{
    X722State *s = X722(pdev);

    qemu_del_nic(s->nic);
    qemu_bh_delete(s->work_bh);
    pcie_cap_exit(pdev);
    msix_uninit(pdev, &s->msix, &s->msix);
    x722_core_fini(&s->core);
    timer_free(s->pe_timer);
    s->pe_timer = NULL;
    migrate_del_blocker(&s->migration_blocker);
}

static void x722_write_config(PCIDevice *pdev, uint32_t addr, uint32_t val,
                              int len)
{
    pci_default_write_config(pdev, addr, val, len);
    pcie_cap_flr_write_config(pdev, addr, val, len);
}

static void x722_reset_hold(Object *obj, ResetType type)
{
    X722State *s = X722(obj);

    qemu_bh_cancel(s->work_bh);
    x722_core_reset(&s->core);
    s->core.carrier = !qemu_get_queue(s->nic)->link_down;
    x722_rdma_set_link(&s->core);
}

static char *x722_get_stats(Object *obj, Error **errp)
{
    X722State *s = X722(obj);
    char *buf = g_malloc(1024);

    x722_core_format_stats(&s->core, buf, 1024);
    return buf;
}

static char *x722_get_pe_stats(Object *obj, Error **errp)
{
    X722State *s = X722(obj);
    char *buf = g_malloc(1024);

    x722_rdma_format_stats(&s->core, buf, 1024);
    return buf;
}

/* A "name=value ..." of the protocol engine (e810_core.h formatters). */
static char *x722_get_pe_formatted(Object *obj, Error **errp,
                                   const char *name,
                                   int (*fmt)(E810Core *, char *, size_t))
{
    X722State *s = X722(obj);
    char *buf;
    int n;

    if (!DEVICE(obj)->realized || !s->core.pe) {
        error_setg(errp, "%s: device not realized", name);
        return NULL;
    }
    n = fmt(s->core.pe, NULL, 0);
    if (n < 0) {
        error_setg(errp, "%s: cannot format the values", name);
        return NULL;
    }
    buf = g_malloc(n + 1);
    fmt(s->core.pe, buf, n + 1);
    return buf;
}

static char *x722_get_iwarp_tables(Object *obj, Error **errp)
{
    return x722_get_pe_formatted(obj, errp, "x-iwarp-tables",
                                 e810_iw_format_tables);
}

static char *x722_get_iwarp_stats(Object *obj, Error **errp)
{
    return x722_get_pe_formatted(obj, errp, "x-iwarp-stats",
                                 e810_iw_format_stats);
}

static char *x722_get_iwarp_conns(Object *obj, Error **errp)
{
    return x722_get_pe_formatted(obj, errp, "x-iwarp-conns",
                                 e810_iw_format_conns);
}

static void x722_get_iwarp_drop_ppm(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    X722State *s = X722(obj);

    visit_type_uint32(v, name, &s->iwarp_drop_ppm, errp);
}

static void x722_set_iwarp_drop_ppm(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    X722State *s = X722(obj);
    uint32_t ppm;

    if (!visit_type_uint32(v, name, &ppm, errp)) {
        return;
    }
    if (ppm > E810_ROCE_DROP_PPM_MAX) {
        error_setg(errp, "%s: %" PRIu32 " is above %u (parts per million)",
                   name, ppm, E810_ROCE_DROP_PPM_MAX);
        return;
    }
    s->iwarp_drop_ppm = ppm;
    /* Before realize there is no engine yet: realize applies it. */
    if (DEVICE(obj)->realized) {
        e810_core_set_iwarp_drop_ppm(s->core.pe, ppm);
    }
}

static void x722_set_empr(Object *obj, bool value, Error **errp)
{
    X722State *s = X722(obj);

    if (!DEVICE(obj)->realized) {
        error_setg(errp, "x-empr: device not realized");
        return;
    }
    if (value) {
        x722_core_empr(&s->core);
    }
}

static const Property x722_properties[] = {
    DEFINE_NIC_PROPERTIES(X722State, conf),
};

static void x722_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(oc);

    k->realize = x722_realize;
    k->exit = x722_exit;
    k->config_write = x722_write_config;
    k->vendor_id = X722_PCI_VENDOR_ID;
    k->device_id = X722_PCI_DEVICE_ID_SFP;
    k->revision = X722_PCI_REVISION;
    k->subsystem_vendor_id = X722_PCI_VENDOR_ID;
    k->subsystem_id = X722_PCI_SUBSYS_ID;
    k->class_id = PCI_CLASS_NETWORK_ETHERNET;

    dc->desc = "Intel X722 SFP+ Ethernet with iWARP (emulated)";
    rc->phases.hold = x722_reset_hold;
    device_class_set_props(dc, x722_properties);
    object_class_property_add_str(oc, "x-stats", x722_get_stats, NULL);
    object_class_property_set_description(oc, "x-stats",
        "debug: the model's counters, \"name=value ...\"");
    object_class_property_add_str(oc, "x-pe-stats", x722_get_pe_stats, NULL);
    object_class_property_set_description(oc, "x-pe-stats",
        "debug: the RDMA protocol engine's state, \"name=value ...\"");
    object_class_property_add_str(oc, "x-iwarp-tables",
                                  x722_get_iwarp_tables, NULL);
    object_class_property_set_description(oc, "x-iwarp-tables",
        "debug: the engine's iWARP tables and ILQ counters (as the E810's)");
    object_class_property_add_str(oc, "x-iwarp-stats",
                                  x722_get_iwarp_stats, NULL);
    object_class_property_set_description(oc, "x-iwarp-stats",
        "debug: the engine's offloaded iWARP connections (as the E810's)");
    object_class_property_add_str(oc, "x-iwarp-conns",
                                  x722_get_iwarp_conns, NULL);
    object_class_property_set_description(oc, "x-iwarp-conns",
        "debug: each offloaded iWARP connection's state (as the E810's)");
    object_class_property_add(oc, "x-iwarp-drop-ppm", "uint32",
                              x722_get_iwarp_drop_ppm,
                              x722_set_iwarp_drop_ppm, NULL, NULL);
    object_class_property_set_description(oc, "x-iwarp-drop-ppm",
        "test: lose the engine's iWARP TCP segments to the wire with "
        "probability N / 1000000 (as the E810's)");
    object_class_property_add_bool(oc, "x-empr", NULL, x722_set_empr);
    object_class_property_set_description(oc, "x-empr",
        "test: true makes the card's firmware do an EMP reset of every "
        "x722 function of the slot");
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
}

static const TypeInfo x722_info = {
    .name = TYPE_X722,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(X722State),
    .class_init = x722_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void x722_register_types(void)
{
    type_register_static(&x722_info);
}

type_init(x722_register_types)
