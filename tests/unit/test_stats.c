/*
 * Device model: the port (GLPRT_*, PRTRPB_RDPC) and VSI (GLV_*) statistics
 * registers ice's service task reads, with 32- and 64-bit MMIO.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <endian.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "e810_roce_pkt.h"
#include "lan_rig.h"

/* Offsets: ice_hw_autogen.h (port 0, the lport the model reports). */
#define GLPRT_GORCL     0x00380000u
#define GLPRT_CRCERRS   0x00380100u
#define GLPRT_RUC       0x00380200u
#define GLPRT_ROC       0x00380240u
#define GLPRT_PXONRXC(i, j) (0x00380300u + (i) * 8 + (j) * 64)
#define GLPRT_PRC64L    0x00380900u     /* + 0x40 per bucket */
#define GLPRT_GOTCL     0x00380B40u
#define GLPRT_PTC64L    0x00380B80u     /* + 0x40 per bucket */
#define GLPRT_UPTCL     0x003811C0u
#define GLPRT_MPTCL     0x00381200u
#define GLPRT_BPTCL     0x00381240u
#define GLPRT_TDOLD     0x00381280u
#define GLPRT_UPRCL     0x00381300u
#define GLPRT_MPRCL     0x00381340u
#define GLPRT_BPRCL     0x00381380u
#define GLSTAT_FD_CNT0L(i) (0x003A0000u + (i) * 8)
#define PRTRPB_RDPC     0x000AC260u
#define GLV_RDPC(v)     (0x00294C04u + (v) * 4)
#define GLV_GOTCL(v)    (0x00300000u + (v) * 8)
#define GLV_UPTCL(v)    (0x0030A000u + (v) * 8)
#define GLV_MPTCL(v)    (0x0030C000u + (v) * 8)
#define GLV_BPTCL(v)    (0x0030E000u + (v) * 8)
#define GLV_TEPC(v)     (0x00312000u + (v) * 4)
#define GLV_GORCL(v)    (0x003B0000u + (v) * 8)
#define GLV_UPRCL(v)    (0x003B2000u + (v) * 8)
#define GLV_MPRCL(v)    (0x003B4000u + (v) * 8)
#define GLV_BPRCL(v)    (0x003B6000u + (v) * 8)

static const uint8_t mc_mac[6] = { 0x01, 0x00, 0x5e, 0, 0, 1 };
static const uint8_t mc_other[6] = { 0x01, 0x00, 0x5e, 0, 0, 9 };
static const uint8_t bc_mac[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

static uint64_t rd64(Harness *h, uint32_t off)
{
    return e810_core_mmio_read(&h->core, off, 8);
}

/* A 40-bit counter as ice reads it, checked against its two halves. */
static uint64_t stat40(Harness *h, uint32_t off)
{
    uint64_t v = rd64(h, off);

    assert_int_equal(v >> 40, 0);
    assert_int_equal(rd32(h, off), (uint32_t)v);
    assert_int_equal(rd32(h, off + 4), (uint32_t)(v >> 32));
    return v;
}

static void frame_to(uint8_t *fr, size_t len, const uint8_t *da)
{
    size_t i;

    for (i = 0; i < len; i++) {
        fr[i] = (uint8_t)(i * 13 + 1);
    }
    memcpy(fr, da, 6);
    memcpy(fr + 6, "\x02\x00\x00\x00\x00\x09", 6);
    fr[12] = 0x88;      /* an ethertype nothing else claims */
    fr[13] = 0xb5;
}

static size_t rx(Fixture *f, const uint8_t *da, size_t len)
{
    static uint8_t fr[E810_FRAME_MAX];

    frame_to(fr, len, da);
    return e810_core_receive(&f->h->core, fr, len);
}

static void rx_ready(Fixture *f)
{
    rx_enable(f, 2048, 9728, 1);
    rx_post(f, 0, RING - 8, 2048);
}

static void test_rx_classes_and_sizes(void **state)
{
    Fixture *f = *state;
    /* Frame lengths without FCS, as the network backend hands them. */
    static const struct { const uint8_t *da; size_t len; bool vsi; } in[] = {
        { rig_mac, 60, true },      /* wire 64: PRC64 */
        { rig_mac, 42, true },      /* short, padded on the wire: PRC64 */
        { rig_mac, 100, true },     /* 104: PRC127 */
        { bc_mac, 200, true },      /* 204: PRC255 */
        { mc_mac, 500, true },      /* 504: PRC511 */
        { rig_mac, 1000, true },    /* 1004: PRC1023 */
        { rig_mac, 1518, true },    /* 1522: PRC1522 */
        { mc_other, 1600, false },  /* 1604: PRC9522; no rule takes it */
        { rig_mac, 9000, true },    /* 9004: PRC9522 */
    };
    static const uint64_t prc[7] = { 2, 1, 1, 1, 1, 1, 2 };
    uint64_t port_bytes = 0, vsi_bytes = 0;
    unsigned i;

    aq_add_mac_rule(f->h, &f->aq, f->vsi, mc_mac);
    rx_ready(f);
    for (i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
        assert_int_equal(rx(f, in[i].da, in[i].len), in[i].len);
        port_bytes += (in[i].len < 60 ? 60 : in[i].len) + 4;
        vsi_bytes += in[i].vsi ? in[i].len : 0;
    }
    assert_int_equal(f->h->core.lan.stats.rx_packets, 8);
    assert_int_equal(stat40(f->h, GLPRT_GORCL), port_bytes);
    assert_int_equal(stat40(f->h, GLPRT_UPRCL), 6);
    assert_int_equal(stat40(f->h, GLPRT_MPRCL), 2);
    assert_int_equal(stat40(f->h, GLPRT_BPRCL), 1);
    for (i = 0; i < 7; i++) {
        assert_int_equal(stat40(f->h, GLPRT_PRC64L + i * 0x40), prc[i]);
        assert_int_equal(stat40(f->h, GLPRT_PTC64L + i * 0x40), 0);
    }
    assert_int_equal(rd32(f->h, GLPRT_RUC), 0);
    assert_int_equal(rd32(f->h, GLPRT_ROC), 0);
    assert_int_equal(rd32(f->h, PRTRPB_RDPC), 0);
    /* The VSI the switch steered them to, without the dropped one. */
    assert_int_equal(stat40(f->h, GLV_GORCL(f->vsi)), vsi_bytes);
    assert_int_equal(stat40(f->h, GLV_UPRCL(f->vsi)), 6);
    assert_int_equal(stat40(f->h, GLV_MPRCL(f->vsi)), 1);
    assert_int_equal(stat40(f->h, GLV_BPRCL(f->vsi)), 1);
    assert_int_equal(rd32(f->h, GLV_RDPC(f->vsi)), 0);
    /* Another VSI, another port: nothing. */
    assert_int_equal(stat40(f->h, GLV_GORCL(f->vsi + 1)), 0);
    assert_int_equal(stat40(f->h, GLPRT_GORCL + 8), 0);
    assert_int_equal(stat40(f->h, GLPRT_GOTCL), 0);
    assert_int_equal(f->h->core.stats.mmio_bad_access, 0);
    assert_int_equal(f->h->core.stats.mmio_unimplemented, 0);
}

static void test_rx_runt_oversize_and_drops(void **state)
{
    Fixture *f = *state;

    rx_enable(f, 2048, 9728, 1);
    /* No buffers: held (not counted), then taken once buffers come. */
    assert_int_equal(rx(f, rig_mac, 300), 0);
    assert_int_equal(stat40(f->h, GLPRT_UPRCL), 0);
    rx_post(f, 0, 8, 2048);
    assert_int_equal(rx(f, rig_mac, 300), 300);
    assert_int_equal(stat40(f->h, GLPRT_UPRCL), 1);
    assert_int_equal(stat40(f->h, GLV_UPRCL(f->vsi)), 1);
    /* The MAC drops runts and frames over the maximum frame size. */
    assert_int_equal(rx(f, rig_mac, 10), 10);
    assert_int_equal(rx(f, rig_mac, 9725), 9725);
    assert_int_equal(rd32(f->h, GLPRT_RUC), 1);
    assert_int_equal(rd32(f->h, GLPRT_ROC), 1);
    assert_int_equal(stat40(f->h, GLPRT_UPRCL), 1);
    assert_int_equal(stat40(f->h, GLPRT_GORCL), 304);
    /* A frame for a disabled queue: received by the port, dropped at
     * the VSI's queue. */
    wr32(f->h, E810_QRX_CTRL(0), 0);
    assert_int_equal(rx(f, rig_mac, 128), 128);
    assert_int_equal(rd32(f->h, PRTRPB_RDPC), 1);
    assert_int_equal(rd32(f->h, GLV_RDPC(f->vsi)), 1);
    assert_int_equal(stat40(f->h, GLPRT_UPRCL), 2);
    assert_int_equal(stat40(f->h, GLPRT_PRC64L + 2 * 0x40), 1);  /* 132 */
    assert_int_equal(stat40(f->h, GLV_UPRCL(f->vsi)), 1);
    /* Longer than the queue's RXMAX: dropped there too. */
    rx_enable(f, 2048, 256, 1);
    rx_post(f, 0, 8, 2048);
    assert_int_equal(rx(f, rig_mac, 300), 300);
    assert_int_equal(rd32(f->h, PRTRPB_RDPC), 2);
    assert_int_equal(rd32(f->h, GLV_RDPC(f->vsi)), 2);
    assert_int_equal(stat40(f->h, GLV_GORCL(f->vsi)), 300);
}

static void tx_one(Fixture *f, unsigned *slot, const uint8_t *da, size_t len)
{
    uint64_t buf = f->bufs + (uint64_t)*slot * 2048 * 5;

    frame_to(mem_ptr(f->h, buf), len, da);
    put_txd(f, *slot, buf, len, E810_TX_DESC_CMD_EOP | E810_TX_DESC_CMD_RS,
            E810_TX_DESC_DTYPE_DATA);
    (*slot)++;
}

static void test_tx_classes_sizes_and_errors(void **state)
{
    Fixture *f = *state;
    static const struct { const uint8_t *da; size_t len; } out[] = {
        { mc_other, 60 },           /* 64 */
        { mc_other, 20 },           /* padded: 64 */
        { bc_mac, 123 },            /* 127 */
        { rig_mac, 251 },           /* 255 */
        { rig_mac, 507 },           /* 511 */
        { rig_mac, 1019 },          /* 1023 */
        { rig_mac, 1019 + 499 },    /* 1522 */
        { bc_mac, 1519 },           /* 1523: the big bucket */
    };
    static const uint64_t ptc[7] = { 2, 1, 1, 1, 1, 1, 1 };
    uint64_t port_bytes = 0, vsi_bytes = 0;
    unsigned i, slot = 0;

    assert_int_equal(add_txq(f, 0, RING, 0, NULL), E810_AQ_RC_OK);
    for (i = 0; i < sizeof(out) / sizeof(out[0]); i++) {
        tx_one(f, &slot, out[i].da, out[i].len);
        port_bytes += (out[i].len < 60 ? 60 : out[i].len) + 4;
        vsi_bytes += out[i].len;
    }
    /* A packet too short to be Ethernet: a Tx error of the VSI. */
    tx_one(f, &slot, rig_mac, 10);
    wr32(f->h, E810_QTX_COMM_DBELL(0), slot);
    harness_run_work(f->h);
    assert_int_equal(f->h->tx_frames, 8);
    assert_int_equal(stat40(f->h, GLPRT_GOTCL), port_bytes);
    assert_int_equal(stat40(f->h, GLPRT_UPTCL), 4);
    assert_int_equal(stat40(f->h, GLPRT_MPTCL), 2);
    assert_int_equal(stat40(f->h, GLPRT_BPTCL), 2);
    for (i = 0; i < 7; i++) {
        assert_int_equal(stat40(f->h, GLPRT_PTC64L + i * 0x40), ptc[i]);
    }
    assert_int_equal(stat40(f->h, GLV_GOTCL(f->vsi)), vsi_bytes);
    assert_int_equal(stat40(f->h, GLV_UPTCL(f->vsi)), 4);
    assert_int_equal(stat40(f->h, GLV_MPTCL(f->vsi)), 2);
    assert_int_equal(stat40(f->h, GLV_BPTCL(f->vsi)), 2);
    assert_int_equal(rd32(f->h, GLV_TEPC(f->vsi)), 1);
    assert_int_equal(rd32(f->h, GLPRT_TDOLD), 0);
    assert_int_equal(stat40(f->h, GLPRT_GORCL), 0);
}

static void test_wrap_40_and_32(void **state)
{
    Fixture *f = *state;
    E810Stats *s = &f->h->core.hwstats;

    rx_ready(f);
    s->port.gorc = (1ull << 40) - 8;
    assert_int_equal(rd32(f->h, GLPRT_GORCL), 0xfffffff8u);
    assert_int_equal(rd32(f->h, GLPRT_GORCL + 4), 0xff);
    assert_int_equal(rd64(f->h, GLPRT_GORCL), (1ull << 40) - 8);
    /* 64 more octets: the counter wraps at 2^40, as ice expects. */
    assert_int_equal(rx(f, rig_mac, 60), 60);
    assert_int_equal(stat40(f->h, GLPRT_GORCL), 56);
    /* 32-bit counters wrap at 2^32. */
    s->vsi[f->vsi].rdpc = 0xffffffffu;
    s->port.rdpc = 0xffffffffu;
    wr32(f->h, E810_QRX_CTRL(0), 0);
    assert_int_equal(rx(f, rig_mac, 60), 60);
    assert_int_equal(rd32(f->h, GLV_RDPC(f->vsi)), 0);
    assert_int_equal(rd32(f->h, PRTRPB_RDPC), 0);
}

static void test_access_rules(void **state)
{
    Fixture *f = *state;
    Harness *h = f->h;
    E810CoreStats *cs = &h->core.stats;

    h->core.hwstats.port.gorc = 0x1234567890ull;
    h->core.hwstats.port.ruc = 5;
    h->core.hwstats.vsi[f->vsi].rdpc = 6;
    assert_int_equal(rd64(h, GLPRT_GORCL), 0x1234567890ull);
    assert_int_equal(cs->mmio_bad_access, 0);
    /* 8 bytes only at the L half of a 40-bit pair. */
    assert_int_equal(rd64(h, GLPRT_GORCL + 4), 0);
    assert_int_equal(cs->mmio_bad_access, 1);
    assert_int_equal(rd64(h, GLPRT_RUC), 0);
    assert_int_equal(rd32(h, GLPRT_RUC), 5);
    assert_int_equal(rd64(h, GLV_RDPC(f->vsi)), 0);
    assert_int_equal(rd32(h, GLV_RDPC(f->vsi)), 6);
    assert_int_equal(cs->mmio_bad_access, 3);
    assert_int_equal(rd64(h, E810_QRX_CTRL(0)), 0);
    assert_int_equal(rd64(h, E810_PF_FUNC_RID), 0);
    assert_int_equal(cs->mmio_bad_access, 5);
    /* Narrow reads, 8-byte writes: rejected as before. */
    assert_int_equal(e810_core_mmio_read(&h->core, GLPRT_GORCL, 2), 0);
    e810_core_mmio_write(&h->core, GLPRT_GORCL, 0, 8);
    assert_int_equal(cs->mmio_bad_access, 7);
    /* Read-only: a 4-byte write changes nothing. */
    wr32(h, GLPRT_GORCL, 0);
    assert_int_equal(cs->mmio_ro_write, 1);
    assert_int_equal(rd64(h, GLPRT_GORCL), 0x1234567890ull);
    /* Counters the model has no events for read zero, implemented. */
    assert_int_equal(rd32(h, GLPRT_CRCERRS), 0);
    assert_int_equal(rd32(h, GLPRT_PXONRXC(0, 7)), 0);
    assert_int_equal(rd64(h, GLSTAT_FD_CNT0L(4095)), 0);
    assert_int_equal(cs->mmio_unimplemented, 0);
    /* Past the arrays: unimplemented as before. */
    assert_int_equal(rd32(h, GLV_GORCL(768)), 0);
    assert_int_equal(rd32(h, GLPRT_CRCERRS + 4), 0);
    assert_int_equal(cs->mmio_unimplemented, 2);
    assert_int_equal(cs->mmio_bad_access, 7);
}

static void test_reset_domains(void **state)
{
    Fixture *f = *state;

    rx_ready(f);
    assert_int_equal(rx(f, rig_mac, 100), 100);
    /* A PF reset keeps them (ice takes a new baseline). */
    wr32(f->h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    harness_run_work(f->h);
    assert_int_equal(f->h->core.stats.pf_resets, 1);
    assert_int_equal(stat40(f->h, GLPRT_UPRCL), 1);
    assert_int_equal(stat40(f->h, GLV_GORCL(f->vsi)), 100);
    /* A core reset clears them. */
    wr32(f->h, E810_GLGEN_RTRIG, E810_GLGEN_RTRIG_CORER);
    assert_true(harness_wait_grst(f->h, NULL));
    assert_int_equal(stat40(f->h, GLPRT_UPRCL), 0);
    assert_int_equal(stat40(f->h, GLPRT_GORCL), 0);
    assert_int_equal(stat40(f->h, GLV_GORCL(f->vsi)), 0);
}

/* A RoCEv2 frame for the protocol engine is port traffic, not a VSI's. */
static void test_roce_counts_at_port(void **state)
{
    Fixture *f = *state;
    uint8_t fr[128];

    memset(fr, 0, sizeof(fr));
    memcpy(fr, rig_mac, 6);
    fr[12] = 0x08;                  /* IPv4 */
    fr[14] = 0x45;
    fr[16] = 0;
    fr[17] = sizeof(fr) - 14;
    fr[22] = 64;
    fr[23] = 17;                    /* UDP */
    fr[36] = 4791 >> 8;             /* destination port 4791 */
    fr[37] = 4791 & 0xff;
    fr[39] = sizeof(fr) - 34;
    e810_core_set_mac(&f->h->core, rig_mac);
    f->h->core.aq.pe_filter = true;
    assert_true(e810_roce_is_rocev2(fr, sizeof(fr)));
    rx_ready(f);
    assert_int_equal(e810_core_receive(&f->h->core, fr, sizeof(fr)),
                     sizeof(fr));
    assert_int_equal(f->h->core.lan.stats.rx_packets, 0);
    assert_int_equal(stat40(f->h, GLPRT_UPRCL), 1);
    assert_int_equal(stat40(f->h, GLPRT_GORCL), sizeof(fr) + 4);
    assert_int_equal(stat40(f->h, GLV_UPRCL(f->vsi)), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_rx_classes_and_sizes),
        T(test_rx_runt_oversize_and_drops),
        T(test_tx_classes_sizes_and_errors),
        T(test_wrap_40_and_32),
        T(test_access_rules),
        T(test_reset_domains),
        T(test_roce_counts_at_port),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_stats", tests, NULL, NULL);
}
