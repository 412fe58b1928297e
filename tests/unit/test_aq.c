/*
 * Device model: the admin queue, driven the way ice drives it.
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

#include "aq_driver.h"

typedef struct Fixture {
    Harness *h;
    AqDriver aq;
} Fixture;

static int setup(void **state)
{
    Fixture *f = calloc(1, sizeof(*f));

    f->h = harness_new(1);
    if (!f->h) {
        return -1;
    }
    aq_init(f->h, &f->aq);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fixture *f = *state;

    harness_free(f->h);
    free(f);
    return 0;
}

static void test_get_version(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_VER);
    struct e810_aqc_get_ver *v = (void *)d.params.raw;

    d.cookie_high = htole32(0x1234);
    d.cookie_low = htole32(0x5678);
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    assert_int_equal(le16toh(d.flags) & (E810_AQ_FLAG_DD | E810_AQ_FLAG_CMP |
                                         E810_AQ_FLAG_ERR),
                     E810_AQ_FLAG_DD | E810_AQ_FLAG_CMP);
    assert_int_equal(v->api_major, 1);
    assert_int_equal(v->api_minor, 5);
    assert_true(v->fw_major > 0);
    /* Cookies come back untouched. */
    assert_int_equal(le32toh(d.cookie_high), 0x1234);
    assert_int_equal(le32toh(d.cookie_low), 0x5678);
}

static void test_unknown_opcode(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(0x0FFF);    /* no such command */

    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_ESRCH);
    assert_true(le16toh(d.flags) & E810_AQ_FLAG_ERR);
    assert_int_equal(f->h->log_unimp, 1);
}

static const struct e810_aqc_caps_elem *find_cap(const uint8_t *buf,
                                                 unsigned n, uint16_t id)
{
    unsigned i;

    for (i = 0; i < n; i++) {
        const struct e810_aqc_caps_elem *e = (const void *)(buf + 32 * i);

        if (le16toh(e->cap) == id) {
            return e;
        }
    }
    return NULL;
}

static void test_function_caps(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_LIST_FUNC_CAPS);
    struct e810_aqc_list_caps *p = (void *)d.params.raw;
    static uint8_t buf[4096];
    const struct e810_aqc_caps_elem *e;
    unsigned n;

    assert_int_equal(aq_send(f->h, &f->aq, &d, buf, sizeof(buf)),
                     E810_AQ_RC_OK);
    n = le32toh(p->count);
    assert_int_equal(le16toh(d.datalen), n * 32);
    e = find_cap(buf, n, E810_CAP_RDMA);
    assert_non_null(e);
    assert_int_equal(le32toh(e->number), 1);
    assert_non_null(e = find_cap(buf, n, E810_CAP_RXQS));
    assert_int_equal(le32toh(e->number), E810_LAN_NUM_QUEUES);
    assert_non_null(e = find_cap(buf, n, E810_CAP_TXQS));
    assert_non_null(e = find_cap(buf, n, E810_CAP_MSIX));
    assert_int_equal(le32toh(e->number), E810_MSIX_VECTORS);
    /* ice fails probe without the VSI capability in function caps. */
    assert_non_null(find_cap(buf, n, E810_CAP_VSI));
}

/* The msix-vectors device property reaches both capability lists. */
static void test_msix_caps_follow_property(void **state)
{
    Fixture *f = *state;
    static const uint16_t ops[] = {
        E810_AQC_LIST_FUNC_CAPS, E810_AQC_LIST_DEV_CAPS,
    };
    static uint8_t buf[4096];
    const struct e810_aqc_caps_elem *e;
    unsigned i;

    assert_int_equal(e810_core_set_msix_vectors(&f->h->core, 8), 0);
    for (i = 0; i < 2; i++) {
        struct e810_aq_desc d = aq_desc(ops[i]);
        struct e810_aqc_list_caps *p = (void *)d.params.raw;

        assert_int_equal(aq_send(f->h, &f->aq, &d, buf, sizeof(buf)),
                         E810_AQ_RC_OK);
        assert_non_null(e = find_cap(buf, le32toh(p->count), E810_CAP_MSIX));
        assert_int_equal(le32toh(e->number), 8);
    }
}

static void test_device_caps_small_buffer(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_LIST_DEV_CAPS);
    struct e810_aqc_list_caps *p = (void *)d.params.raw;
    uint8_t buf[32];
    static uint8_t big[4096];
    unsigned n;

    /* Too small: ENOMEM, and count says how many elements are needed. */
    assert_int_equal(aq_send(f->h, &f->aq, &d, buf, sizeof(buf)),
                     E810_AQ_RC_ENOMEM);
    n = le32toh(p->count);
    assert_true(n > 1);
    assert_int_equal(le16toh(d.datalen), 0);
    d = aq_desc(E810_AQC_LIST_DEV_CAPS);
    assert_int_equal(aq_send(f->h, &f->aq, &d, big, sizeof(big)),
                     E810_AQ_RC_OK);
    assert_int_equal(le32toh(p->count), n);
    /* Function 1 of the device: functions 0 and 1 are valid. */
    assert_int_equal(le32toh(find_cap(big, n, E810_CAP_VALID_FUNCTIONS)->number),
                     0x3);
}

static void test_manage_mac_read(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_MANAGE_MAC_READ);
    struct e810_aqc_manage_mac_read *p = (void *)d.params.raw;
    struct e810_aqc_manage_mac_read_resp r[2];
    static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0xe8, 0x10, 0x01 };

    memset(r, 0, sizeof(r));
    assert_int_equal(aq_send(f->h, &f->aq, &d, r, sizeof(r)), E810_AQ_RC_OK);
    assert_true(le16toh(p->flags) & E810_AQC_MAN_MAC_LAN_ADDR_VALID);
    assert_int_equal(p->num_addr, 1);
    assert_int_equal(r[0].addr_type, E810_AQC_MAN_MAC_ADDR_TYPE_LAN);
    assert_memory_equal(r[0].mac_addr, mac, 6);
}

static void test_link_status_and_event(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_LINK_STATUS);
    struct e810_aqc_get_link_status *p = (void *)d.params.raw;
    struct e810_aqc_link_status_data ld;
    static uint8_t ev[4096];

    /* The misc vector 0 takes the admin queue cause. */
    wr32(f->h, E810_PFINT_FW_CTL, E810_INT_CTL_CAUSE_ENA | 0);
    wr32(f->h, E810_GLINT_DYN_CTL(0), E810_GLINT_DYN_CTL_INTENA);
    p->cmd_flags = htole16(FIELD_PREP(E810_AQ_LSE, E810_AQ_LSE_ENA));
    assert_int_equal(aq_send(f->h, &f->aq, &d, &ld, sizeof(ld)), E810_AQ_RC_OK);
    assert_true(le16toh(p->cmd_flags) & E810_AQ_LSE_IS_ENABLED);
    assert_true(ld.link_info & E810_AQ_LINK_UP);
    assert_int_equal(le16toh(ld.link_speed), E810_AQ_LINK_SPEED_100GB);
    assert_int_equal(f->h->msix_count, 0);  /* SI: no completion interrupt */

    e810_core_set_link(&f->h->core, false);
    assert_true(aq_event(f->h, &f->aq, &d, ev));
    assert_int_equal(le16toh(d.opcode), E810_AQC_GET_LINK_STATUS);
    assert_int_equal(le16toh(d.datalen), sizeof(ld));
    memcpy(&ld, ev, sizeof(ld));
    assert_false(ld.link_info & E810_AQ_LINK_UP);
    assert_int_equal(f->h->msix_count, 1);
    assert_int_equal(f->h->msix_last, 0);
    assert_false(aq_event(f->h, &f->aq, &d, ev));
}

static void test_masked_link_event(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_SET_EVENT_MASK);
    struct e810_aqc_set_event_mask *m = (void *)d.params.raw;
    struct e810_aqc_get_link_status *p;
    static uint8_t ev[4096];

    m->event_mask = htole16(E810_AQ_LINK_EVENT_UPDOWN);
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    d = aq_desc(E810_AQC_GET_LINK_STATUS);
    p = (void *)d.params.raw;
    p->cmd_flags = htole16(FIELD_PREP(E810_AQ_LSE, E810_AQ_LSE_ENA));
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    e810_core_set_link(&f->h->core, false);
    assert_false(aq_event(f->h, &f->aq, &d, ev));
}

static void test_arq_full_sets_overflow(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_GET_LINK_STATUS);
    struct e810_aqc_get_link_status *p = (void *)d.params.raw;
    unsigned i;

    p->cmd_flags = htole16(FIELD_PREP(E810_AQ_LSE, E810_AQ_LSE_ENA));
    aq_send(f->h, &f->aq, &d, NULL, 0);
    /* len - 1 buffers posted; the driver consumes nothing. */
    for (i = 0; i < AQ_TEST_LEN + 2; i++) {
        e810_core_set_link(&f->h->core, i & 1);
    }
    assert_int_equal(f->h->core.aq.events_posted, AQ_TEST_LEN - 1);
    assert_int_equal(f->h->core.aq.events_dropped, 3);
    assert_true(rd32(f->h, E810_PF_FW_ARQLEN) & E810_PF_FW_AQLEN_OVFL);
}

static void test_bad_buffers(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_DRIVER_VER);
    struct e810_aq_desc *ring;
    static uint8_t buf[1024];

    /* Large buffer without LB. */
    d.flags = htole16(E810_AQ_FLAG_SI | E810_AQ_FLAG_BUF);
    d.datalen = htole16(sizeof(buf));
    ring = mem_ptr(f->h, f->aq.atq);
    *ring = d;
    f->aq.atq_ntu = 1;
    wr32(f->h, E810_PF_FW_ATQT, 1);
    harness_run_work(f->h);
    assert_int_equal(le16toh(ring->retval), E810_AQ_RC_EINVAL);

    /* A buffer address the device cannot reach. */
    d = aq_desc(E810_AQC_DRIVER_VER);
    d.flags = htole16(E810_AQ_FLAG_SI | E810_AQ_FLAG_BUF);
    d.datalen = htole16(16);
    d.params.generic.addr_low = htole32(0x1000);
    ring[1] = d;
    f->aq.atq_ntu = 2;
    wr32(f->h, E810_PF_FW_ATQT, 2);
    harness_run_work(f->h);
    assert_int_equal(le16toh(ring[1].retval), E810_AQ_RC_BAD_ADDR);
    assert_int_equal(rd32(f->h, E810_PF_FW_ATQH), 2);

    /* More than 4 KiB. */
    d = aq_desc(E810_AQC_DRIVER_VER);
    d.flags = htole16(E810_AQ_FLAG_SI | E810_AQ_FLAG_BUF | E810_AQ_FLAG_LB);
    d.datalen = htole16(4097);
    ring[2] = d;
    f->aq.atq_ntu = 3;
    wr32(f->h, E810_PF_FW_ATQT, 3);
    harness_run_work(f->h);
    assert_int_equal(le16toh(ring[2].retval), E810_AQ_RC_EINVAL);
    assert_int_equal(f->h->core.stats.dma_errors, 1);
}

static void test_tail_beyond_ring(void **state)
{
    Fixture *f = *state;

    wr32(f->h, E810_PF_FW_ATQT, AQ_TEST_LEN + 3);
    harness_run_work(f->h);
    assert_int_equal(rd32(f->h, E810_PF_FW_ATQH), 0);
    assert_int_equal(f->h->log_guest_error, 1);
    assert_int_equal(f->h->core.aq.commands, 0);
}

static void test_batch_in_order_and_disabled_queue(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc *ring = mem_ptr(f->h, f->aq.atq);
    unsigned i;

    /* Three commands posted with one tail write run in order. */
    for (i = 0; i < 3; i++) {
        ring[i] = aq_desc(i == 1 ? 0x7777 : E810_AQC_GET_VER);
    }
    wr32(f->h, E810_PF_FW_ATQT, 3);
    harness_run_work(f->h);
    assert_int_equal(rd32(f->h, E810_PF_FW_ATQH), 3);
    assert_int_equal(le16toh(ring[0].retval), E810_AQ_RC_OK);
    assert_int_equal(le16toh(ring[1].retval), E810_AQ_RC_ESRCH);
    assert_int_equal(le16toh(ring[2].retval), E810_AQ_RC_OK);

    /* With ENABLE cleared nothing runs. */
    wr32(f->h, E810_PF_FW_ATQLEN, AQ_TEST_LEN);
    ring[3] = aq_desc(E810_AQC_GET_VER);
    wr32(f->h, E810_PF_FW_ATQT, 4);
    harness_run_work(f->h);
    assert_int_equal(rd32(f->h, E810_PF_FW_ATQH), 3);
    assert_int_equal(le16toh(ring[3].flags) & E810_AQ_FLAG_DD, 0);
}

static void test_vsi_and_pe_filter(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_VSI);
    struct e810_aqc_add_update_free_vsi *p = (void *)d.params.raw;
    struct e810_aqc_add_update_free_vsi_resp *r = (void *)d.params.raw;
    struct e810_aqc_vsi_props props;
    uint16_t num;

    memset(&props, 0, sizeof(props));
    p->vsi_flags = htole16(FIELD_PREP(E810_AQ_VSI_TYPE, E810_AQ_VSI_TYPE_PF));
    assert_int_equal(aq_send(f->h, &f->aq, &d, &props, sizeof(props)),
                     E810_AQ_RC_OK);
    num = le16toh(r->vsi_num);
    /* A second PF-type VSI (ice's loopback VSI) gets its own number. */
    d = aq_desc(E810_AQC_ADD_VSI);
    p->vsi_flags = htole16(FIELD_PREP(E810_AQ_VSI_TYPE, E810_AQ_VSI_TYPE_PF));
    assert_int_equal(aq_send(f->h, &f->aq, &d, &props, sizeof(props)),
                     E810_AQ_RC_OK);
    assert_int_not_equal(le16toh(r->vsi_num), num);

    d = aq_desc(E810_AQC_UPDATE_VSI);
    p->vsi_num = htole16(num | E810_AQ_VSI_IS_VALID);
    props.valid_sections = htole16(E810_AQ_VSI_PROP_Q_OPT_VALID);
    props.q_opt_flags = E810_AQ_VSI_Q_OPT_PE_FLTR_EN;
    assert_int_equal(aq_send(f->h, &f->aq, &d, &props, sizeof(props)),
                     E810_AQ_RC_OK);
    assert_true(f->h->core.aq.pe_filter);
    /* Updating a VSI that does not exist. */
    d = aq_desc(E810_AQC_UPDATE_VSI);
    p->vsi_num = htole16((num + 2) | E810_AQ_VSI_IS_VALID);
    assert_int_equal(aq_send(f->h, &f->aq, &d, &props, sizeof(props)),
                     E810_AQ_RC_ENOENT);
}

static void test_pf_reset_and_clear_free_the_vsi(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d;
    struct e810_aqc_vsi_props props;
    unsigned round;

    memset(&props, 0, sizeof(props));
    for (round = 0; round < 2; round++) {
        d = aq_desc(E810_AQC_ADD_VSI);
        ((struct e810_aqc_add_update_free_vsi *)d.params.raw)->vsi_flags =
            htole16(FIELD_PREP(E810_AQ_VSI_TYPE, E810_AQ_VSI_TYPE_PF));
        assert_int_equal(aq_send(f->h, &f->aq, &d, &props, sizeof(props)),
                         E810_AQ_RC_OK);
        if (round == 0) {
            /* 0x02A4 frees it ... */
            d = aq_desc(E810_AQC_CLEAR_PF_CFG);
            assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0),
                             E810_AQ_RC_OK);
        } else {
            /* ... and so does a PF reset (the AQ registers survive it). */
            wr32(f->h, E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
            harness_run_work(f->h);
        }
        assert_false(f->h->core.aq.vsi_allocated);
    }
}

static void test_rdma_qsets(void **state)
{
    Fixture *f = *state;
    struct {
        struct e810_aqc_add_rdma_qset_grp grp;
        struct e810_aqc_add_rdma_qset_perq q;
    } __attribute__((packed)) b;
    struct {
        struct e810_aqc_dis_txq_item it;
        __le16 id;
    } __attribute__((packed)) dis;
    uint32_t qgrp = aq_sched_qgrp(f->h, &f->aq);
    struct e810_aq_desc d = aq_desc(E810_AQC_ADD_RDMA_QSET);
    struct e810_aqc_dis_txqs *dp;

    memset(&b, 0, sizeof(b));
    ((struct e810_aqc_add_rdma_qset *)d.params.raw)->num_qset_grps = 1;
    b.grp.parent_teid = htole32(qgrp);
    b.grp.num_qsets = htole16(1);
    b.q.tx_qset_id = htole16(7);
    b.q.info.valid_sections = E810_AQC_ELEM_VALID_GENERIC;
    assert_int_equal(aq_send(f->h, &f->aq, &d, &b, sizeof(b)), E810_AQ_RC_OK);
    assert_int_not_equal(le32toh(b.q.qset_teid), 0);
    /* The same qset twice is refused. */
    d = aq_desc(E810_AQC_ADD_RDMA_QSET);
    ((struct e810_aqc_add_rdma_qset *)d.params.raw)->num_qset_grps = 1;
    assert_int_equal(aq_send(f->h, &f->aq, &d, &b, sizeof(b)),
                     E810_AQ_RC_EEXIST);
    /* Removal through 0x0C31 with the RDMA bit; twice is ENOENT. */
    memset(&dis, 0, sizeof(dis));
    dis.it.parent_teid = htole32(qgrp);
    dis.it.num_qs = 1;
    dis.id = htole16(7 | E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET);
    d = aq_desc(E810_AQC_DIS_TXQS);
    dp = (void *)d.params.raw;
    dp->num_entries = 1;
    assert_int_equal(aq_send(f->h, &f->aq, &d, &dis, sizeof(dis)),
                     E810_AQ_RC_OK);
    d = aq_desc(E810_AQC_DIS_TXQS);
    dp->num_entries = 1;
    assert_int_equal(aq_send(f->h, &f->aq, &d, &dis, sizeof(dis)),
                     E810_AQ_RC_ENOENT);
}

static void test_set_mac_cfg_bounds(void **state)
{
    Fixture *f = *state;
    struct e810_aq_desc d = aq_desc(E810_AQC_SET_MAC_CFG);
    struct e810_aqc_set_mac_cfg *p = (void *)d.params.raw;

    p->max_frame_size = htole16(9729);
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_EINVAL);
    d = aq_desc(E810_AQC_SET_MAC_CFG);
    p->max_frame_size = htole16(9728);
    assert_int_equal(aq_send(f->h, &f->aq, &d, NULL, 0), E810_AQ_RC_OK);
    assert_int_equal(f->h->core.aq.max_frame, 9728);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_get_version),
        T(test_unknown_opcode),
        T(test_function_caps),
        T(test_msix_caps_follow_property),
        T(test_device_caps_small_buffer),
        T(test_manage_mac_read),
        T(test_link_status_and_event),
        T(test_masked_link_event),
        T(test_arq_full_sets_overflow),
        T(test_bad_buffers),
        T(test_tail_beyond_ring),
        T(test_batch_in_order_and_disabled_queue),
        T(test_vsi_and_pe_filter),
        T(test_pf_reset_and_clear_free_the_vsi),
        T(test_rdma_qsets),
        T(test_set_mac_cfg_bounds),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("model_aq", tests, NULL, NULL);
}
