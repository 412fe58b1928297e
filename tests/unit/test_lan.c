/*
 * Device model: LAN Tx and Rx queues with the real descriptor formats.
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

#include "lan_rig.h"

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    size_t i;

    for (i = 0; i < n; i++) {
        p[i] = (uint8_t)(seed * 31 + i * 7);
    }
}

static void test_tx_frame_byte_for_byte(void **state)
{
    Fixture *f = *state;
    uint64_t b0 = f->bufs, b1 = f->bufs + 2048;
    uint8_t want[1000];
    uint32_t teid = 0;

    assert_int_equal(add_txq(f, 0, RING, 0, &teid), E810_AQ_RC_OK);
    assert_int_not_equal(teid, 0);
    /* One packet in two buffers: 600 + 400 bytes, RS on the last. */
    fill(want, sizeof(want), 1);
    memcpy(mem_ptr(f->h, b0), want, 600);
    memcpy(mem_ptr(f->h, b1), want + 600, 400);
    put_txd(f, 0, b0, 600, 0, E810_TX_DESC_DTYPE_DATA);
    put_txd(f, 1, b1, 400, E810_TX_DESC_CMD_EOP | E810_TX_DESC_CMD_RS,
            E810_TX_DESC_DTYPE_DATA);
    wr32(f->h, E810_QTX_COMM_DBELL(0), 2);
    assert_int_equal(f->h->tx_frames, 0);   /* only work was scheduled */
    harness_run_work(f->h);
    assert_int_equal(f->h->tx_frames, 1);
    assert_int_equal(f->h->tx_len, sizeof(want));
    assert_memory_equal(f->h->tx_frame, want, sizeof(want));
    /* DESC_DONE written back on the RS descriptor only. */
    assert_int_equal(FIELD_GET(E810_TXD_DTYPE, txd_qw1(f, 1)),
                     E810_TX_DESC_DTYPE_DESC_DONE);
    assert_int_equal(FIELD_GET(E810_TXD_DTYPE, txd_qw1(f, 0)),
                     E810_TX_DESC_DTYPE_DATA);
    assert_int_equal(rd32(f->h, E810_QTX_COMM_HEAD(0)), 2);
    assert_int_equal(f->h->msix_count, 1);
    assert_int_equal(f->h->msix_last, LAN_VECTOR);
}

static void test_tx_waits_for_eop(void **state)
{
    Fixture *f = *state;

    assert_int_equal(add_txq(f, 0, RING, 0, NULL), E810_AQ_RC_OK);
    put_txd(f, 0, f->bufs, 100, 0, E810_TX_DESC_DTYPE_DATA);
    wr32(f->h, E810_QTX_COMM_DBELL(0), 1);
    harness_run_work(f->h);
    assert_int_equal(f->h->tx_frames, 0);
    assert_int_equal(rd32(f->h, E810_QTX_COMM_HEAD(0)), 0);
    put_txd(f, 1, f->bufs, 60, E810_TX_DESC_CMD_EOP | E810_TX_DESC_CMD_RS,
            E810_TX_DESC_DTYPE_DATA);
    wr32(f->h, E810_QTX_COMM_DBELL(0), 2);
    harness_run_work(f->h);
    assert_int_equal(f->h->tx_frames, 1);
    assert_int_equal(f->h->tx_len, 160);
}

static void test_tx_malformed_dropped(void **state)
{
    Fixture *f = *state;
    unsigned i;

    assert_int_equal(add_txq(f, 0, RING, 0, NULL), E810_AQ_RC_OK);
    /* Nine descriptors for one packet: over the hardware limit. */
    for (i = 0; i < 9; i++) {
        put_txd(f, i, f->bufs, 64, i == 8 ? E810_TX_DESC_CMD_EOP |
                E810_TX_DESC_CMD_RS : 0, E810_TX_DESC_DTYPE_DATA);
    }
    /* A reserved descriptor type, then a buffer outside memory. */
    put_txd(f, 9, f->bufs, 64, E810_TX_DESC_CMD_EOP | E810_TX_DESC_CMD_RS, 0x5);
    put_txd(f, 10, 0x1000, 64, E810_TX_DESC_CMD_EOP | E810_TX_DESC_CMD_RS,
            E810_TX_DESC_DTYPE_DATA);
    /* And a frame too short to be Ethernet. */
    put_txd(f, 11, f->bufs, 10, E810_TX_DESC_CMD_EOP | E810_TX_DESC_CMD_RS,
            E810_TX_DESC_DTYPE_DATA);
    wr32(f->h, E810_QTX_COMM_DBELL(0), 12);
    harness_run_work(f->h);
    assert_int_equal(f->h->tx_frames, 0);
    assert_true(f->h->core.lan.stats.tx_dropped >= 4);
    /* Every descriptor was still given back to the driver. */
    assert_int_equal(rd32(f->h, E810_QTX_COMM_HEAD(0)), 12);
    assert_int_equal(FIELD_GET(E810_TXD_DTYPE, txd_qw1(f, 11)),
                     E810_TX_DESC_DTYPE_DESC_DONE);
}

static void test_tx_bad_queue_and_doorbells(void **state)
{
    Fixture *f = *state;

    assert_int_equal(add_txq(f, E810_LAN_NUM_QUEUES, RING, 0, NULL),
                     E810_AQ_RC_EINVAL);
    assert_int_equal(add_txq(f, 0, 4, 0, NULL), E810_AQ_RC_EINVAL);
    assert_int_equal(add_txq(f, 0, RING, 3, NULL), E810_AQ_RC_EINVAL);
    /* Doorbell on a queue never added, then beyond the ring. */
    wr32(f->h, E810_QTX_COMM_DBELL(0), 1);
    assert_int_equal(add_txq(f, 0, RING, 0, NULL), E810_AQ_RC_OK);
    assert_int_equal(add_txq(f, 0, RING, 0, NULL), E810_AQ_RC_EEXIST);
    wr32(f->h, E810_QTX_COMM_DBELL(0), RING);
    harness_run_work(f->h);
    assert_int_equal(f->h->core.lan.stats.tx_bad_desc, 2);
    assert_int_equal(f->h->tx_frames, 0);
}

static void test_tx_disable(void **state)
{
    Fixture *f = *state;
    struct {
        struct e810_aqc_dis_txq_item it;
        __le16 id;
    } __attribute__((packed)) dis;
    struct e810_aq_desc d = aq_desc(E810_AQC_DIS_TXQS);

    assert_int_equal(add_txq(f, 0, RING, 0, NULL), E810_AQ_RC_OK);
    put_txd(f, 0, f->bufs, 64, E810_TX_DESC_CMD_EOP | E810_TX_DESC_CMD_RS,
            E810_TX_DESC_DTYPE_DATA);
    wr32(f->h, E810_QTX_COMM_DBELL(0), 1);
    memset(&dis, 0, sizeof(dis));
    dis.it.parent_teid = htole32(f->qgrp);
    dis.it.num_qs = 1;
    ((struct e810_aqc_dis_txqs *)d.params.raw)->num_entries = 1;
    ((struct e810_aqc_dis_txqs *)d.params.raw)->cmd_type =
        E810_AQC_Q_DIS_CMD_FLUSH_PIPE;
    /* The pending packet is flushed out before the queue stops. */
    assert_int_equal(aq_send(f->h, &f->aq, &d, &dis, sizeof(dis)),
                     E810_AQ_RC_OK);
    assert_int_equal(f->h->tx_frames, 1);
    assert_false(f->h->core.lan.txq[0].enabled);
}

static void test_rx_frame_lands_in_buffer(void **state)
{
    Fixture *f = *state;
    uint8_t frame[300];

    rx_enable(f, 2048, 9728, 1);
    assert_true(rd32(f->h, E810_QRX_CTRL(0)) & E810_QRX_CTRL_QENA_STAT);
    fill(frame, sizeof(frame), 2);
    memset(frame, 0xff, 6);     /* broadcast */
    /* No buffers yet: the frame is held back, not dropped, and the port
     * waits for that queue. */
    assert_true(e810_core_can_receive(&f->h->core));
    assert_int_equal(e810_core_receive(&f->h->core, frame, sizeof(frame)), 0);
    assert_false(e810_core_can_receive(&f->h->core));
    rx_post(f, 0, 8, 2048);
    assert_int_equal(f->h->rx_ready, 1);
    assert_true(e810_core_can_receive(&f->h->core));
    assert_int_equal(e810_core_receive(&f->h->core, frame, sizeof(frame)),
                     sizeof(frame));
    assert_memory_equal(mem_ptr(f->h, f->bufs), frame, sizeof(frame));
    assert_int_equal(rxd(f, 0)->rxdid, E810_RXDID_FLEX_NIC);
    assert_int_equal(le16toh(rxd(f, 0)->status_error0),
                     E810_RX_FLEX_STATUS0_DD | E810_RX_FLEX_STATUS0_EOF);
    assert_int_equal(le16toh(rxd(f, 0)->pkt_len), sizeof(frame));
    assert_int_equal(FIELD_GET(E810_RX_FLEX_UMBCAST, rxd(f, 0)->mir_id_umb_cast),
                     2);
    assert_int_equal(f->h->msix_count, 1);
    assert_int_equal(f->h->msix_last, LAN_VECTOR);
    /* The next descriptor was not touched. */
    assert_int_equal(le16toh(rxd(f, 1)->status_error0), 0);
}

static void test_rx_frame_spans_buffers(void **state)
{
    Fixture *f = *state;
    uint8_t frame[1000];

    rx_enable(f, 384, 9728, 1);
    rx_post(f, 0, 8, 384);
    fill(frame, sizeof(frame), 3);
    memcpy(frame, rig_mac, 6);
    assert_int_equal(e810_core_receive(&f->h->core, frame, sizeof(frame)),
                     sizeof(frame));
    assert_memory_equal(mem_ptr(f->h, f->bufs), frame, 384);
    assert_memory_equal(mem_ptr(f->h, f->bufs + 384), frame + 384, 384);
    assert_memory_equal(mem_ptr(f->h, f->bufs + 768), frame + 768, 232);
    assert_int_equal(le16toh(rxd(f, 0)->status_error0), E810_RX_FLEX_STATUS0_DD);
    assert_int_equal(le16toh(rxd(f, 1)->status_error0), E810_RX_FLEX_STATUS0_DD);
    assert_int_equal(le16toh(rxd(f, 2)->status_error0),
                     E810_RX_FLEX_STATUS0_DD | E810_RX_FLEX_STATUS0_EOF);
    assert_int_equal(le16toh(rxd(f, 2)->pkt_len), 232);
    /* Five buffers left: a frame needing six waits. */
    assert_int_equal(e810_core_receive(&f->h->core, frame, sizeof(frame)), 1000);
    uint8_t big[384 * 6];
    memset(big, 0, sizeof(big));
    memcpy(big, rig_mac, 6);
    assert_int_equal(e810_core_receive(&f->h->core, big, sizeof(big)), 0);
}

static void test_rx_oversize_and_bad_context(void **state)
{
    Fixture *f = *state;
    uint8_t frame[1600];

    rx_enable(f, 2048, 1518, 1);
    rx_post(f, 0, 8, 2048);
    memset(frame, 0x11, sizeof(frame));
    memcpy(frame, rig_mac, 6);
    assert_int_equal(e810_core_receive(&f->h->core, frame, sizeof(frame)),
                     sizeof(frame));
    assert_int_equal(f->h->core.lan.stats.rx_oversize, 1);
    assert_int_equal(le16toh(rxd(f, 0)->status_error0), 0);

    /* 16-byte descriptors are not modelled: the queue does not start. */
    wr32(f->h, E810_QRX_CTRL(0), 0);
    assert_false(rd32(f->h, E810_QRX_CTRL(0)) & E810_QRX_CTRL_QENA_STAT);
    rx_enable(f, 2048, 1518, 0);
    assert_false(rd32(f->h, E810_QRX_CTRL(0)) & E810_QRX_CTRL_QENA_STAT);
    /* A disabled queue drops rather than holds frames. */
    assert_true(e810_core_can_receive(&f->h->core));
    assert_int_equal(e810_core_receive(&f->h->core, frame, 100), 100);
    assert_int_equal(f->h->core.lan.stats.rx_dropped, 1);
}

/*
 * The control VSI's queue: DBUF and RXMAX 0 (the 7.x ice). It starts,
 * and a frame steered to it is dropped as oversize, nothing written.
 */
static void test_rx_queue_without_buffers(void **state)
{
    Fixture *f = *state;
    uint8_t frame[100];

    rx_enable(f, 0, 0, 1);
    assert_true(rd32(f->h, E810_QRX_CTRL(0)) & E810_QRX_CTRL_QENA_STAT);
    assert_int_equal(f->h->log_guest_error, 0);
    rx_post(f, 0, 8, 0);
    memset(frame, 0x44, sizeof(frame));
    memcpy(frame, rig_mac, 6);
    assert_int_equal(e810_core_receive(&f->h->core, frame, sizeof(frame)),
                     sizeof(frame));
    assert_int_equal(f->h->core.lan.stats.rx_oversize, 1);
    assert_int_equal(le16toh(rxd(f, 0)->status_error0), 0);
    assert_int_equal(f->h->msix_count, 0);

    /* Buffers without a frame size (or the reverse) stay a bad context. */
    wr32(f->h, E810_QRX_CTRL(0), 0);
    rx_enable(f, 2048, 0, 1);
    assert_false(rd32(f->h, E810_QRX_CTRL(0)) & E810_QRX_CTRL_QENA_STAT);
    wr32(f->h, E810_QRX_CTRL(0), 0);
    rx_enable(f, 0, 1518, 1);
    assert_false(rd32(f->h, E810_QRX_CTRL(0)) & E810_QRX_CTRL_QENA_STAT);
    assert_int_equal(f->h->log_guest_error, 2);
}

static void test_rx_frame_larger_than_ring_dropped(void **state)
{
    Fixture *f = *state;
    static uint8_t frame[128 * RING];

    /* 128-byte buffers: a frame needing a whole ring can never fit. */
    rx_enable(f, 128, 9728, 1);
    rx_post(f, 0, RING - 8, 128);
    memset(frame, 0x33, sizeof(frame));
    memcpy(frame, rig_mac, 6);
    assert_int_equal(e810_core_receive(&f->h->core, frame, 128 * (RING - 1) + 1),
                     128 * (RING - 1) + 1);
    assert_int_equal(f->h->core.lan.stats.rx_oversize, 1);
    assert_int_equal(le16toh(rxd(f, 0)->status_error0), 0);
    /* The queue still takes a frame that fits. */
    assert_int_equal(e810_core_receive(&f->h->core, frame, 100), 100);
    assert_int_equal(le16toh(rxd(f, 0)->status_error0),
                     E810_RX_FLEX_STATUS0_DD | E810_RX_FLEX_STATUS0_EOF);
}

static void test_rx_tail_beyond_ring_and_bad_buffer(void **state)
{
    Fixture *f = *state;
    struct e810_rx_desc_read *d;
    uint8_t frame[64];

    rx_enable(f, 2048, 9728, 1);
    wr32(f->h, E810_QRX_TAIL(0), RING + 8);
    assert_int_equal(f->h->log_guest_error, 1);
    memset(frame, 0x22, sizeof(frame));
    memcpy(frame, rig_mac, 6);
    assert_int_equal(e810_core_receive(&f->h->core, frame, sizeof(frame)), 0);
    assert_false(e810_core_can_receive(&f->h->core));
    /* The low three bits of the tail are ignored. */
    rx_post(f, 0, 7, 2048);
    assert_false(e810_core_can_receive(&f->h->core));
    rx_post(f, 0, 8, 2048);
    d = mem_ptr(f->h, f->rxring[0]);
    d->pkt_addr = htole64(0x2000);      /* outside the device's reach */
    memset(frame, 0x22, sizeof(frame));
    memcpy(frame, rig_mac, 6);
    assert_int_equal(e810_core_receive(&f->h->core, frame, sizeof(frame)), 64);
    assert_true(le16toh(rxd(f, 0)->status_error0) & E810_RX_FLEX_STATUS0_RXE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_tx_frame_byte_for_byte),
        T(test_tx_waits_for_eop),
        T(test_tx_malformed_dropped),
        T(test_tx_bad_queue_and_doorbells),
        T(test_tx_disable),
        T(test_rx_frame_lands_in_buffer),
        T(test_rx_frame_spans_buffers),
        T(test_rx_oversize_and_bad_context),
        T(test_rx_queue_without_buffers),
        T(test_rx_frame_larger_than_ring_dropped),
        T(test_rx_tail_beyond_ring_and_bad_buffer),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_lan", tests, NULL, NULL);
}
