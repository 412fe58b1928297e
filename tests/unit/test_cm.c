/*
 * The iWARP connection manager library (lib/irdma-cm/): MPA frames
 * against hand-written bytes (RFC 5044 section 7.1, RFC 6581 section 9),
 * strict parsing of malformed frames, IRD/ORD/RTR negotiation from both
 * ends (irdma's and siw's Requests), and every transition of the state
 * machine: the table below is the specification, every (state, event)
 * pair not in it must be an ignored segment (network events) or a
 * refused request (user events).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cm.h"

/* ---- MPA: known frames ------------------------------------------------- */

static const uint8_t KEY_REQ[16] = {
    'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R', 'e', 'q', ' ',
    'F', 'r', 'a', 'm', 'e' };
static const uint8_t KEY_REP[16] = {
    'M', 'P', 'A', ' ', 'I', 'D', ' ', 'R', 'e', 'p', ' ',
    'F', 'r', 'a', 'm', 'e' };

/* key, flags, rev, be16 length, then the rest */
static size_t frame(uint8_t *out, const uint8_t *key, uint8_t flags,
                    uint8_t rev, uint16_t pd_field, const uint8_t *rest,
                    size_t rest_len)
{
    memcpy(out, key, 16);
    out[16] = flags;
    out[17] = rev;
    out[18] = pd_field >> 8;
    out[19] = pd_field & 0xff;
    memcpy(out + 20, rest, rest_len);
    return 20 + rest_len;
}

static void test_mpa_v1_request_bytes(void **state)
{
    static const uint8_t pd[3] = { 'a', 'b', 'c' };
    struct e810cm_mpa m = { .type = E810CM_MPA_REQUEST, .rev = 1,
                            .crc = true, .pd = pd, .pd_len = 3 };
    uint8_t want[64], got[64];
    size_t n = frame(want, KEY_REQ, 0x40, 1, 3, pd, 3);
    struct e810cm_mpa p;

    assert_int_equal(e810cm_mpa_build(got, sizeof(got), &m), (int)n);
    assert_memory_equal(got, want, n);
    assert_int_equal(e810cm_mpa_parse(want, n, E810CM_MPA_REQUEST, 2, &p),
                     (int)n);
    assert_int_equal(p.rev, 1);
    assert_true(p.crc);
    assert_false(p.markers);
    assert_false(p.reject);
    assert_false(p.p2p);
    assert_int_equal(p.rtr, 0);
    assert_int_equal(p.pd_len, 3);
    assert_ptr_equal(p.pd, want + 20);
}

/* What upstream irdma sends: v2, C, 0x10, P2P, IRD 127, WRITE+READ RTR. */
static void test_mpa_v2_request_bytes(void **state)
{
    static const uint8_t rest[6] = { 0x80, 0x7f, 0xc0, 0x08, 'x', 'y' };
    static const uint8_t pd[2] = { 'x', 'y' };
    struct e810cm_mpa m = { .type = E810CM_MPA_REQUEST, .rev = 2,
                            .crc = true, .p2p = true,
                            .rtr = E810CM_RTR_WRITE | E810CM_RTR_READ,
                            .ird = 127, .ord = 8, .pd = pd, .pd_len = 2 };
    uint8_t want[64], got[64];
    size_t n = frame(want, KEY_REQ, 0x50, 2, 6, rest, sizeof(rest));
    struct e810cm_mpa p;

    assert_int_equal(e810cm_mpa_build(got, sizeof(got), &m), (int)n);
    assert_memory_equal(got, want, n);
    assert_int_equal(e810cm_mpa_parse(want, n, E810CM_MPA_REQUEST, 2, &p),
                     (int)n);
    assert_int_equal(p.rev, 2);
    assert_true(p.enhanced);
    assert_true(p.p2p);
    assert_int_equal(p.rtr, E810CM_RTR_WRITE | E810CM_RTR_READ);
    assert_int_equal(p.ird, 127);
    assert_int_equal(p.ord, 8);
    assert_int_equal(p.pd_len, 2);
    assert_memory_equal(p.pd, pd, 2);
}

/* A Reply choosing READ, and a Reject with private data. */
static void test_mpa_v2_reply_and_reject_bytes(void **state)
{
    static const uint8_t rest[4] = { 0x80, 0x10, 0x40, 0x04 };
    static const uint8_t rej_rest[7] = { 0x00, 0x00, 0x00, 0x00,
                                         'n', 'o', '!' };
    struct e810cm_mpa m = { .type = E810CM_MPA_REPLY, .rev = 2,
                            .crc = true, .p2p = true,
                            .rtr = E810CM_RTR_READ, .ird = 16, .ord = 4 };
    struct e810cm_mpa r = { .type = E810CM_MPA_REPLY, .rev = 2,
                            .crc = true, .reject = true,
                            .pd = rej_rest + 4, .pd_len = 3 };
    uint8_t want[64], got[64];
    size_t n = frame(want, KEY_REP, 0x50, 2, 4, rest, sizeof(rest));
    struct e810cm_mpa p;

    assert_int_equal(e810cm_mpa_build(got, sizeof(got), &m), (int)n);
    assert_memory_equal(got, want, n);

    n = frame(want, KEY_REP, 0x70, 2, 7, rej_rest, sizeof(rej_rest));
    assert_int_equal(e810cm_mpa_build(got, sizeof(got), &r), (int)n);
    assert_memory_equal(got, want, n);
    assert_int_equal(e810cm_mpa_parse(want, n, E810CM_MPA_REPLY, 2, &p),
                     (int)n);
    assert_true(p.reject);
    assert_int_equal(p.pd_len, 3);
    assert_memory_equal(p.pd, "no!", 3);
}

/* siw's Request (6.12: mpa_version 2, peer_to_peer false, no CRC):
 * accepted, answered without P2P or RTR, revision 2.
 */
static void test_mpa_siw_request_without_p2p(void **state)
{
    static const uint8_t rest[4] = { 0x00, 0x80, 0x00, 0x80 };
    struct e810cm_neg local = { .ird = 127, .ord = 255 };
    struct e810cm_mpa p, rep, back;
    uint8_t buf[64], out[64];
    size_t n = frame(buf, KEY_REQ, 0x10, 2, 4, rest, sizeof(rest));
    int len;

    assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2, &p),
                     (int)n);
    assert_false(p.p2p);
    assert_false(p.crc);
    assert_int_equal(p.ird, 128);
    assert_int_equal(p.ord, 128);
    assert_int_equal(e810cm_mpa_respond(&p, &local, &rep), 0);
    assert_false(local.p2p);
    assert_int_equal(local.rtr, 0);
    assert_int_equal(local.rev, 2);
    assert_int_equal(local.ord, 128);   /* lowered to siw's IRD */
    assert_int_equal(local.ird, 127);
    assert_true(rep.crc);
    len = e810cm_mpa_build(out, sizeof(out), &rep);
    assert_int_equal(len, 24);
    assert_int_equal(out[16], 0x50);
    assert_int_equal(out[20], 0x00);    /* no P2P */
    assert_int_equal(out[22] & 0xc0, 0x00); /* no RTR */
    assert_int_equal(e810cm_mpa_parse(out, len, E810CM_MPA_REPLY, 2, &back),
                     len);
    assert_int_equal(back.ird, 127);
    assert_int_equal(back.ord, 128);
}

/* ---- MPA: malformed frames -------------------------------------------- */

static size_t good_v2_request(uint8_t *buf)
{
    static const uint8_t rest[9] = { 0x80, 0x40, 0x80, 0x10,
                                     1, 2, 3, 4, 5 };

    return frame(buf, KEY_REQ, 0x50, 2, 9, rest, sizeof(rest));
}

static void test_mpa_truncated(void **state)
{
    uint8_t buf[64];
    size_t n = good_v2_request(buf), i;
    struct e810cm_mpa p;

    for (i = 0; i < n; i++)
        assert_int_equal(e810cm_mpa_parse(buf, i, E810CM_MPA_REQUEST, 2,
                                          &p), -EAGAIN);
    /* Bytes after the frame are the caller's business. */
    assert_int_equal(e810cm_mpa_parse(buf, n + 5, E810CM_MPA_REQUEST, 2,
                                      &p), (int)n);
}

static void test_mpa_bad_key(void **state)
{
    uint8_t buf[64];
    size_t n = good_v2_request(buf), i;
    struct e810cm_mpa p;

    for (i = 0; i < 16; i++) {
        buf[i] ^= 0x20;
        assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2,
                                          &p), -EBADMSG);
        buf[i] ^= 0x20;
    }
    /* A Request where a Reply is expected and the other way round. */
    assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REPLY, 2, &p),
                     -EBADMSG);
    memcpy(buf, KEY_REP, 16);
    assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2, &p),
                     -EBADMSG);
}

static void test_mpa_bad_fields(void **state)
{
    uint8_t buf[600], rest[600] = { 0 };
    struct e810cm_mpa p;
    size_t n;
    unsigned int i;

    /* R in a Request. */
    n = good_v2_request(buf);
    buf[16] |= E810CM_MPA_FLAG_REJECT;
    assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2, &p),
                     -EBADMSG);
    /* Revisions 0, 3..255, and 2 when only 1 is acceptable. */
    n = good_v2_request(buf);
    buf[17] = 0;
    assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2, &p),
                     -EBADMSG);
    for (i = 3; i < 256; i++) {
        buf[17] = i;
        assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2,
                                          &p), -EPROTONOSUPPORT);
    }
    buf[17] = 2;
    assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 1, &p),
                     -EPROTONOSUPPORT);
    /* Private data: 512 is the limit, whatever is actually there. */
    n = frame(buf, KEY_REQ, 0x40, 1, 512, rest, 512);
    assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2, &p),
                     532);
    n = frame(buf, KEY_REQ, 0x40, 1, 513, rest, 513);
    assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2, &p),
                     -EMSGSIZE);
    n = frame(buf, KEY_REQ, 0x40, 1, 0xffff, rest, 0);
    assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2, &p),
                     -EMSGSIZE);
    /* Revision 2 without room for its IRD/ORD words. */
    for (i = 0; i < 4; i++) {
        n = frame(buf, KEY_REQ, 0x50, 2, i, rest, i);
        assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2,
                                          &p), -EBADMSG);
    }
    /* RTR flags without P2P (B in IRD, C or D in ORD). */
    {
        static const uint8_t w[3][4] = {
            { 0x40, 0x01, 0x00, 0x01 },
            { 0x00, 0x01, 0x80, 0x01 },
            { 0x00, 0x01, 0x40, 0x01 },
        };

        for (i = 0; i < 3; i++) {
            n = frame(buf, KEY_REQ, 0x50, 2, 4, w[i], 4);
            assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST,
                                              2, &p), -EBADMSG);
            memcpy(buf, KEY_REP, 16);
            assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REPLY, 2,
                                              &p), -EBADMSG);
        }
    }
    /* A Reply naming two RTR types; a Request may offer them all. */
    {
        static const uint8_t w[4] = { 0xc0, 0x01, 0xc0, 0x01 };

        n = frame(buf, KEY_REP, 0x50, 2, 4, w, 4);
        assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REPLY, 2, &p),
                         -EBADMSG);
        memcpy(buf, KEY_REQ, 16);
        assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2,
                                          &p), (int)n);
        assert_int_equal(p.rtr, E810CM_RTR_ALL);
    }
    /* Reserved flag bits are ignored (RFC 5044 section 7.1). */
    n = good_v2_request(buf);
    buf[16] |= E810CM_MPA_FLAG_RES;
    assert_int_equal(e810cm_mpa_parse(buf, n, E810CM_MPA_REQUEST, 2, &p),
                     (int)n);
}

static void test_mpa_build_refuses(void **state)
{
    static uint8_t pd[520];
    uint8_t buf[600];
    struct e810cm_mpa m = { .type = E810CM_MPA_REQUEST, .rev = 2,
                            .p2p = true, .rtr = E810CM_RTR_WRITE };
    struct e810cm_mpa t;

    t = m; t.rev = 0;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), -EINVAL);
    t = m; t.rev = 3;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), -EINVAL);
    t = m; t.reject = true;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), -EINVAL);
    t = m; t.ird = 0x4000;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), -EINVAL);
    t = m; t.ord = 0x4000;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), -EINVAL);
    t = m; t.p2p = false;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), -EINVAL);
    t = m; t.rtr = 0x8;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), -EINVAL);
    t = m; t.type = E810CM_MPA_REPLY; t.rtr = E810CM_RTR_ALL;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), -EINVAL);
    /* 508 bytes of private data in v2, 512 in v1. */
    t = m; t.pd = pd; t.pd_len = 508;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), 532);
    t.pd_len = 509;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), -EMSGSIZE);
    t = m; t.rev = 1; t.pd = pd; t.pd_len = 512;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), 532);
    t.pd_len = 513;
    assert_int_equal(e810cm_mpa_build(buf, sizeof(buf), &t), -EMSGSIZE);
    /* No room. */
    t = m;
    assert_int_equal(e810cm_mpa_build(buf, 23, &t), -ENOSPC);
    assert_int_equal(e810cm_mpa_build(buf, 24, &t), 24);
}

/* ---- negotiation ------------------------------------------------------ */

/* Request built and parsed, Reply built and parsed, both outcomes. */
static int handshake(struct e810cm_neg *ini, struct e810cm_neg *resp,
                     uint8_t rev)
{
    struct e810cm_mpa req, preq, rep, prep;
    uint8_t buf[64];
    int len, ret;

    e810cm_mpa_request(ini, rev, &req);
    len = e810cm_mpa_build(buf, sizeof(buf), &req);
    assert_true(len > 0);
    assert_int_equal(e810cm_mpa_parse(buf, len, E810CM_MPA_REQUEST, 2,
                                      &preq), len);
    ret = e810cm_mpa_respond(&preq, resp, &rep);
    if (ret)
        return ret;
    len = e810cm_mpa_build(buf, sizeof(buf), &rep);
    assert_true(len > 0);
    assert_int_equal(e810cm_mpa_parse(buf, len, E810CM_MPA_REPLY, rev,
                                      &prep), len);
    return e810cm_mpa_complete(&req, &prep, ini);
}

/* A Request split over segments, byte by byte or in two pieces, is the
 * frame parsed whole; bytes after it or beyond the longest frame are
 * refused; a bad key fails as soon as the header is in.
 */
static void test_mpa_feed(void **state)
{
    static const uint8_t pd[] = "private data for the feed";
    struct e810cm_mpa m = {
        .type = E810CM_MPA_REQUEST, .rev = 2, .crc = true, .enhanced = true,
        .p2p = true, .rtr = E810CM_RTR_WRITE | E810CM_RTR_READ,
        .ird = 16, .ord = 8, .pd = pd, .pd_len = sizeof(pd),
    };
    uint8_t frame[E810CM_MPA_MAX_FRAME], big[E810CM_MPA_MAX_FRAME + 1];
    struct e810cm_mpa_rx *rx = calloc(1, sizeof(*rx));
    struct e810cm_mpa out;
    int len, i, n = 0;

    (void)state;
    len = e810cm_mpa_build(frame, sizeof(frame), &m);
    assert_true(len > E810CM_MPA_HDR_LEN + 4);
    for (i = 0; i < len; i++) {
        n = e810cm_mpa_feed(rx, frame + i, 1, E810CM_MPA_REQUEST, 2, &out);
        if (i < len - 1) {
            assert_int_equal(n, -EAGAIN);
        }
    }
    assert_int_equal(n, len);
    assert_int_equal(out.ird, 16);
    assert_int_equal(out.ord, 8);
    assert_int_equal(out.pd_len, sizeof(pd));
    assert_memory_equal(out.pd, pd, sizeof(pd));
    assert_ptr_equal(out.pd, rx->buf + E810CM_MPA_HDR_LEN + 4);

    /* Two pieces, the cut inside the header. */
    memset(rx, 0, sizeof(*rx));
    assert_int_equal(e810cm_mpa_feed(rx, frame, 10, E810CM_MPA_REQUEST, 2,
                                     &out), -EAGAIN);
    assert_int_equal(e810cm_mpa_feed(rx, frame + 10, len - 10,
                                     E810CM_MPA_REQUEST, 2, &out), len);

    /* A byte after the frame, in the same segment or a later one. */
    memset(rx, 0, sizeof(*rx));
    memcpy(big, frame, len);
    big[len] = 0;
    assert_int_equal(e810cm_mpa_feed(rx, big, len + 1, E810CM_MPA_REQUEST,
                                     2, &out), -EMSGSIZE);
    memset(rx, 0, sizeof(*rx));
    assert_int_equal(e810cm_mpa_feed(rx, frame, len, E810CM_MPA_REQUEST, 2,
                                     &out), len);
    assert_int_equal(e810cm_mpa_feed(rx, big, 1, E810CM_MPA_REQUEST, 2,
                                     &out), -EMSGSIZE);

    /* More than the longest frame, whatever it holds. */
    memset(rx, 0, sizeof(*rx));
    memset(big, 'M', sizeof(big));
    assert_int_equal(e810cm_mpa_feed(rx, big, sizeof(big),
                                     E810CM_MPA_REQUEST, 2, &out),
                     -EMSGSIZE);
    assert_int_equal(rx->len, 0);

    /* The wrong key: a Reply where a Request is due. */
    memset(rx, 0, sizeof(*rx));
    assert_int_equal(e810cm_mpa_feed(rx, frame, E810CM_MPA_HDR_LEN,
                                     E810CM_MPA_REPLY, 2, &out), -EBADMSG);
    free(rx);
}

static void test_neg_irdma_pair(void **state)
{
    struct e810cm_neg ini = { .ird = 127, .ord = 8,
                              .rtr = E810CM_RTR_WRITE | E810CM_RTR_READ };
    struct e810cm_neg resp = { .ird = 4, .ord = 255 };

    assert_int_equal(handshake(&ini, &resp, 2), 0);
    /* irdma's choice: READ when offered. */
    assert_int_equal(ini.rtr, E810CM_RTR_READ);
    assert_int_equal(resp.rtr, E810CM_RTR_READ);
    assert_true(ini.p2p && resp.p2p);
    assert_int_equal(ini.ord, 4);     /* lowered to the responder's IRD */
    assert_int_equal(resp.ord, 127);  /* lowered to the initiator's IRD */
    assert_int_equal(ini.rev, 2);
    assert_int_equal(resp.rev, 2);
}

static void test_neg_rtr_choices(void **state)
{
    struct e810cm_neg ini, resp;

    /* Responder with IRD 0 cannot take a READ RTR: WRITE. */
    ini = (struct e810cm_neg){ .ird = 8, .ord = 8, .rtr = E810CM_RTR_ALL };
    resp = (struct e810cm_neg){ .ird = 0, .ord = 8 };
    assert_int_equal(handshake(&ini, &resp, 2), 0);
    assert_int_equal(ini.rtr, E810CM_RTR_WRITE);
    assert_int_equal(ini.ord, 0);
    /* Initiator with ORD 0 does not offer READ. */
    ini = (struct e810cm_neg){ .ird = 8, .ord = 0, .rtr = E810CM_RTR_ALL };
    resp = (struct e810cm_neg){ .ird = 8, .ord = 8 };
    assert_int_equal(handshake(&ini, &resp, 2), 0);
    assert_int_equal(ini.rtr, E810CM_RTR_WRITE);
    /* Only a zero-length SEND offered: not served. */
    ini = (struct e810cm_neg){ .ird = 8, .ord = 8, .rtr = E810CM_RTR_SEND };
    resp = (struct e810cm_neg){ .ird = 8, .ord = 8 };
    assert_int_equal(handshake(&ini, &resp, 2), -EOPNOTSUPP);
    /* READ only, responder IRD 0: not served. */
    ini = (struct e810cm_neg){ .ird = 8, .ord = 8, .rtr = E810CM_RTR_READ };
    resp = (struct e810cm_neg){ .ird = 0, .ord = 8 };
    assert_int_equal(handshake(&ini, &resp, 2), -EOPNOTSUPP);
    /* No RTR wanted: no P2P either way. */
    ini = (struct e810cm_neg){ .ird = 8, .ord = 8, .rtr = 0 };
    resp = (struct e810cm_neg){ .ird = 8, .ord = 8 };
    assert_int_equal(handshake(&ini, &resp, 2), 0);
    assert_false(ini.p2p);
    assert_false(resp.p2p);
    /* Revision 1: nothing negotiated, limits untouched. */
    ini = (struct e810cm_neg){ .ird = 8, .ord = 6, .rtr = E810CM_RTR_ALL };
    resp = (struct e810cm_neg){ .ird = 2, .ord = 9 };
    assert_int_equal(handshake(&ini, &resp, 1), 0);
    assert_int_equal(ini.rev, 1);
    assert_int_equal(ini.ord, 6);
    assert_int_equal(resp.ord, 9);
    assert_int_equal(ini.rtr, 0);
}

static void test_neg_markers_refused(void **state)
{
    struct e810cm_mpa req = { .type = E810CM_MPA_REQUEST, .rev = 1,
                              .markers = true };
    struct e810cm_neg local = { .ird = 8, .ord = 8 };
    struct e810cm_mpa rep;

    assert_int_equal(e810cm_mpa_respond(&req, &local, &rep), -EOPNOTSUPP);
}

static void test_neg_complete_refuses(void **state)
{
    struct e810cm_neg base = { .ird = 8, .ord = 8,
                               .rtr = E810CM_RTR_WRITE | E810CM_RTR_READ };
    struct e810cm_mpa req, rep0, rep;
    struct e810cm_neg l;

    e810cm_mpa_request(&base, 2, &req);
    rep0 = (struct e810cm_mpa){ .type = E810CM_MPA_REPLY, .rev = 2,
                                .crc = true, .p2p = true,
                                .rtr = E810CM_RTR_WRITE, .ird = 8,
                                .ord = 8 };
    l = base; rep = rep0;
    assert_int_equal(e810cm_mpa_complete(&req, &rep, &l), 0);
    assert_int_equal(l.rtr, E810CM_RTR_WRITE);

    l = base; rep = rep0; rep.reject = true;
    assert_int_equal(e810cm_mpa_complete(&req, &rep, &l), -ECONNREFUSED);
    l = base; rep = rep0; rep.markers = true;
    assert_int_equal(e810cm_mpa_complete(&req, &rep, &l), -EOPNOTSUPP);
    l = base; rep = rep0; rep.p2p = false; rep.rtr = 0;
    assert_int_equal(e810cm_mpa_complete(&req, &rep, &l), -EOPNOTSUPP);
    l = base; rep = rep0; rep.rtr = E810CM_RTR_SEND;
    assert_int_equal(e810cm_mpa_complete(&req, &rep, &l), -EPROTO);
    l = base; rep = rep0; rep.rtr = 0;
    assert_int_equal(e810cm_mpa_complete(&req, &rep, &l), -EPROTO);
    l = base; rep = rep0; rep.rtr = E810CM_RTR_READ; rep.ird = 0;
    assert_int_equal(e810cm_mpa_complete(&req, &rep, &l), -EPROTO);
    l = base; rep = rep0; rep.ord = 9;
    assert_int_equal(e810cm_mpa_complete(&req, &rep, &l), -EPROTO);
    /* A v1 Reply to a v2 Request: the peer speaks v1 only. */
    l = base; rep = rep0; rep.rev = 1;
    assert_int_equal(e810cm_mpa_complete(&req, &rep, &l), 0);
    assert_int_equal(l.rev, 1);
    assert_int_equal(l.rtr, 0);
    /* A higher revision than asked for. */
    e810cm_mpa_request(&base, 1, &req);
    l = base; rep = rep0;
    assert_int_equal(e810cm_mpa_complete(&req, &rep, &l), -EPROTO);
    /* P2P flags in answer to a Request without them. */
    l = base; l.rtr = 0;
    e810cm_mpa_request(&l, 2, &req);
    assert_false(req.p2p);
    rep = rep0;
    assert_int_equal(e810cm_mpa_complete(&req, &rep, &l), -EPROTO);
}

/* ---- the state machine ------------------------------------------------ */

#define NS E810CM_NUM_STATES
#define NE E810CM_NUM_EVENTS

enum { NOOP = 1 };  /* .flags: accepted, nothing to do */

struct tr {
    enum e810cm_state from;
    enum e810cm_event ev;
    int ret;
    enum e810cm_state to;
    uint32_t act;
    int num_iw;
    enum e810cm_iw_event iw0;
    int st0;
    enum e810cm_iw_event iw1;
    int st1;
    int status;
    int flags;
};

#define S(x) E810CM_##x
#define E(x) E810CM_EV_##x
#define A(x) E810CM_ACT_##x
#define IW(x) E810CM_IW_##x

/* Transitions from a connection with mpa_rev 2 and no DISCONNECT posted;
 * fields left out are 0 (no iw_cm event, no status).
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
static const struct tr table[] = {
    { S(IDLE), E(USER_LISTEN), 0, S(LISTENING), 0 },
    { S(IDLE), E(USER_CONNECT), 0, S(SYN_SENT),
      A(SEND_SYN) | A(START_RETX) },
    { S(IDLE), E(USER_CLOSE), 0, S(CLOSED), 0 },

    { S(LISTENING), E(RX_SYN), 0, S(SYN_RCVD),
      A(SEND_SYNACK) | A(START_RETX) },
    { S(LISTENING), E(USER_CLOSE), 0, S(CLOSED), 0 },

    { S(SYN_SENT), E(RX_SYNACK), 0, S(MPAREQ_SENT),
      A(STOP_RETX) | A(SEND_ACK) | A(SEND_MPA_REQ) | A(START_RETX) },
    { S(SYN_SENT), E(RX_RST), 0, S(SYN_SENT),
      A(STOP_RETX) | A(SEND_SYN) | A(START_RETX) },
    { S(SYN_SENT), E(RX_FIN), 0, S(CLOSED), A(STOP_RETX) | A(SEND_RST),
      1, IW(CONNECT_REPLY), -ECONNRESET },
    { S(SYN_SENT), E(TIMEOUT), 0, S(CLOSED), A(SEND_RST),
      1, IW(CONNECT_REPLY), -ETIMEDOUT },
    { S(SYN_SENT), E(USER_CLOSE), 0, S(CLOSED),
      A(STOP_RETX) | A(SEND_RST) },

    { S(MPAREQ_SENT), E(RX_MPA_REP), 0, S(OFFLOADED),
      A(STOP_RETX) | A(SEND_ACK) | A(OFFLOAD), 1, IW(CONNECT_REPLY), 0 },
    { S(MPAREQ_SENT), E(RX_MPA_REJ), 0, S(MPAREJ_RCVD),
      A(STOP_RETX) | A(SEND_ACK), 1, IW(CONNECT_REPLY), -ECONNREFUSED },
    { S(MPAREQ_SENT), E(RX_MPA_BAD), 0, S(CLOSED),
      A(STOP_RETX) | A(SEND_RST), 1, IW(CONNECT_REPLY), -EPROTO },
    { S(MPAREQ_SENT), E(RX_RST), 0, S(SYN_SENT),
      A(STOP_RETX) | A(SEND_SYN) | A(START_RETX) },
    { S(MPAREQ_SENT), E(RX_FIN), 0, S(CLOSED), A(STOP_RETX) | A(SEND_RST),
      1, IW(CONNECT_REPLY), -ECONNRESET },
    { S(MPAREQ_SENT), E(TIMEOUT), 0, S(CLOSED), A(SEND_RST),
      1, IW(CONNECT_REPLY), -ETIMEDOUT },
    { S(MPAREQ_SENT), E(USER_CLOSE), 0, S(CLOSED),
      A(STOP_RETX) | A(SEND_RST) },

    { S(SYN_RCVD), E(RX_SYN), 0, S(SYN_RCVD), A(SEND_SYNACK) },
    { S(SYN_RCVD), E(RX_ACK), 0, S(MPAREQ_WAIT), A(STOP_RETX) },
    { S(SYN_RCVD), E(RX_RST), 0, S(CLOSED), A(STOP_RETX) },
    { S(SYN_RCVD), E(RX_FIN), 0, S(CLOSED), A(STOP_RETX) | A(SEND_RST) },
    { S(SYN_RCVD), E(TIMEOUT), 0, S(CLOSED), A(STOP_RETX) | A(SEND_RST) },
    { S(SYN_RCVD), E(USER_CLOSE), 0, S(CLOSED),
      A(STOP_RETX) | A(SEND_RST) },

    { S(MPAREQ_WAIT), E(RX_MPA_REQ), 0, S(MPAREQ_RCVD), 0,
      1, IW(CONNECT_REQUEST), 0 },
    { S(MPAREQ_WAIT), E(RX_MPA_BAD), 0, S(CLOSED), A(SEND_RST) },
    { S(MPAREQ_WAIT), E(RX_RST), 0, S(CLOSED), A(STOP_RETX) },
    { S(MPAREQ_WAIT), E(RX_FIN), 0, S(CLOSED), A(STOP_RETX) | A(SEND_RST) },
    { S(MPAREQ_WAIT), E(TIMEOUT), 0, S(CLOSED),
      A(STOP_RETX) | A(SEND_RST) },
    { S(MPAREQ_WAIT), E(USER_CLOSE), 0, S(CLOSED),
      A(STOP_RETX) | A(SEND_RST) },

    { S(MPAREQ_RCVD), E(USER_ACCEPT), 0, S(ACCEPTING),
      A(SEND_MPA_REP) | A(OFFLOAD) },
    { S(MPAREQ_RCVD), E(USER_REJECT), 0, S(FIN_WAIT1),
      A(SEND_MPA_REJ) | A(SEND_FIN) | A(START_RETX) },
    { S(MPAREQ_RCVD), E(RX_MPA_BAD), 0, S(CLOSED), A(SEND_RST) },
    { S(MPAREQ_RCVD), E(RX_RST), 0, S(CLOSED), A(STOP_RETX) },
    { S(MPAREQ_RCVD), E(RX_FIN), 0, S(CLOSED), A(STOP_RETX) | A(SEND_RST) },
    { S(MPAREQ_RCVD), E(TIMEOUT), 0, S(CLOSED),
      A(STOP_RETX) | A(SEND_RST) },
    { S(MPAREQ_RCVD), E(USER_CLOSE), 0, S(CLOSED),
      A(STOP_RETX) | A(SEND_RST) },

    { S(ACCEPTING), E(HW_ESTABLISHED), 0, S(OFFLOADED), 0,
      1, IW(ESTABLISHED), 0 },
    { S(ACCEPTING), E(TIMEOUT), 0, S(CLOSED), A(QP_RESET),
      .status = -ECONNRESET },
    { S(ACCEPTING), E(RX_RST), 0, S(CLOSED), A(QP_FLUSH),
      .status = -ECONNRESET },
    { S(ACCEPTING), E(USER_CLOSE), 0, S(CLOSED), A(QP_RESET) },

    { S(OFFLOADED), E(HW_CLOSED), 0, S(CLOSED), A(QP_FLUSH),
      1, IW(CLOSE), 0 },
    { S(OFFLOADED), E(RX_FIN), 0, S(DISCONNECTING),
      A(QP_CLOSE) | A(CLOSE_TIMER), 1, IW(DISCONNECT), 0 },
    { S(OFFLOADED), E(RX_RST), 0, S(CLOSED), A(QP_FLUSH),
      2, IW(DISCONNECT), -ECONNRESET, IW(CLOSE), -ECONNRESET },
    { S(OFFLOADED), E(USER_CLOSE), 0, S(DISCONNECTING),
      A(QP_CLOSE) | A(CLOSE_TIMER) },

    { S(DISCONNECTING), E(TIMEOUT), 0, S(CLOSED), A(QP_FLUSH),
      1, IW(CLOSE), 0 },
    { S(DISCONNECTING), E(HW_CLOSED), 0, S(CLOSED), A(QP_FLUSH),
      1, IW(CLOSE), 0 },
    { S(DISCONNECTING), E(RX_FIN), 0, S(DISCONNECTING), 0,
      1, IW(DISCONNECT), 0 },
    { S(DISCONNECTING), E(RX_RST), 0, S(CLOSED), A(QP_FLUSH),
      2, IW(DISCONNECT), -ECONNRESET, IW(CLOSE), -ECONNRESET },
    { S(DISCONNECTING), E(USER_CLOSE), 0, S(DISCONNECTING), 0,
      .flags = NOOP },

    { S(MPAREJ_RCVD), E(RX_FIN), 0, S(LAST_ACK),
      A(SEND_ACK) | A(SEND_FIN) | A(START_RETX) },
    { S(MPAREJ_RCVD), E(RX_RST), 0, S(CLOSED), A(STOP_RETX) },
    { S(MPAREJ_RCVD), E(TIMEOUT), 0, S(CLOSED), A(SEND_RST) },
    { S(MPAREJ_RCVD), E(USER_CLOSE), 0, S(MPAREJ_RCVD), 0, .flags = NOOP },

    { S(FIN_WAIT1), E(RX_ACK), 0, S(FIN_WAIT2), A(STOP_RETX) },
    { S(FIN_WAIT1), E(RX_FIN), 0, S(TCP_CLOSING), A(SEND_ACK) },
    { S(FIN_WAIT1), E(RX_RST), 0, S(CLOSED), A(STOP_RETX) },
    { S(FIN_WAIT1), E(TIMEOUT), 0, S(CLOSED), A(SEND_RST) },
    { S(FIN_WAIT1), E(USER_CLOSE), 0, S(FIN_WAIT1), 0, .flags = NOOP },

    { S(FIN_WAIT2), E(RX_FIN), 0, S(TIME_WAIT),
      A(SEND_ACK) | A(CLOSE_TIMER) },
    { S(FIN_WAIT2), E(RX_RST), 0, S(CLOSED), A(STOP_RETX) },
    { S(FIN_WAIT2), E(TIMEOUT), 0, S(CLOSED), A(SEND_RST) },
    { S(FIN_WAIT2), E(USER_CLOSE), 0, S(FIN_WAIT2), 0, .flags = NOOP },

    { S(TCP_CLOSING), E(RX_ACK), 0, S(TIME_WAIT),
      A(STOP_RETX) | A(CLOSE_TIMER) },
    { S(TCP_CLOSING), E(RX_RST), 0, S(CLOSED), A(STOP_RETX) },
    { S(TCP_CLOSING), E(TIMEOUT), 0, S(CLOSED), A(SEND_RST) },
    { S(TCP_CLOSING), E(USER_CLOSE), 0, S(TCP_CLOSING), 0, .flags = NOOP },

    { S(TIME_WAIT), E(RX_FIN), 0, S(TIME_WAIT), A(SEND_ACK) },
    { S(TIME_WAIT), E(RX_RST), 0, S(CLOSED), A(STOP_RETX) },
    { S(TIME_WAIT), E(TIMEOUT), 0, S(CLOSED), 0 },
    { S(TIME_WAIT), E(USER_CLOSE), 0, S(TIME_WAIT), 0, .flags = NOOP },

    { S(LAST_ACK), E(RX_ACK), 0, S(CLOSED), A(STOP_RETX) },
    { S(LAST_ACK), E(RX_RST), 0, S(CLOSED), A(STOP_RETX) },
    { S(LAST_ACK), E(TIMEOUT), 0, S(CLOSED), A(SEND_RST) },
    { S(LAST_ACK), E(USER_CLOSE), 0, S(LAST_ACK), 0, .flags = NOOP },

    { S(CLOSED), E(USER_ACCEPT), -ECONNRESET, S(CLOSED), 0 },
    { S(CLOSED), E(USER_REJECT), -ECONNRESET, S(CLOSED), 0 },
    { S(CLOSED), E(USER_CLOSE), 0, S(CLOSED), 0, .flags = NOOP },
};
#pragma GCC diagnostic pop

static bool is_user(enum e810cm_event ev)
{
    return ev <= E810CM_EV_USER_CLOSE;
}

static const struct tr *lookup(enum e810cm_state s, enum e810cm_event ev)
{
    size_t i;

    for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
        if (table[i].from == s && table[i].ev == ev)
            return &table[i];
    return NULL;
}

static void check_step(enum e810cm_state s, enum e810cm_event ev,
                       const struct tr *t)
{
    struct e810cm_conn c;
    struct e810cm_out o;
    int ret;

    e810cm_conn_init(&c, 2);
    c.state = s;
    ret = e810cm_step(&c, ev, &o);
    if (!t) {
        /* Not in the table: a stray segment or a refused request. */
        if (is_user(ev)) {
            if (ret != -EINVAL)
                fail_msg("%s + %s: ret %d, want -EINVAL",
                         e810cm_state_name(s), e810cm_event_name(ev), ret);
        } else if (ret || !o.ignored) {
            fail_msg("%s + %s: ret %d ignored %d, want ignored",
                     e810cm_state_name(s), e810cm_event_name(ev), ret,
                     o.ignored);
        }
        if (c.state != s || o.actions || o.num_iw)
            fail_msg("%s + %s: changed to %s, actions 0x%x, %u events",
                     e810cm_state_name(s), e810cm_event_name(ev),
                     e810cm_state_name(c.state), o.actions, o.num_iw);
        return;
    }
    if (ret != t->ret || c.state != t->to || o.actions != t->act ||
        o.num_iw != t->num_iw || o.status != t->status || o.ignored)
        fail_msg("%s + %s: ret %d state %s actions 0x%x iw %u status %d "
                 "ignored %d; want ret %d state %s actions 0x%x iw %d "
                 "status %d", e810cm_state_name(s), e810cm_event_name(ev),
                 ret, e810cm_state_name(c.state), o.actions, o.num_iw,
                 o.status, o.ignored, t->ret, e810cm_state_name(t->to),
                 t->act, t->num_iw, t->status);
    if (t->num_iw > 0 &&
        (o.iw[0].type != t->iw0 || o.iw[0].status != t->st0))
        fail_msg("%s + %s: first iw event %d/%d, want %d/%d",
                 e810cm_state_name(s), e810cm_event_name(ev),
                 o.iw[0].type, o.iw[0].status, t->iw0, t->st0);
    if (t->num_iw > 1 &&
        (o.iw[1].type != t->iw1 || o.iw[1].status != t->st1))
        fail_msg("%s + %s: second iw event %d/%d, want %d/%d",
                 e810cm_state_name(s), e810cm_event_name(ev),
                 o.iw[1].type, o.iw[1].status, t->iw1, t->st1);
}

static void test_sm_every_pair(void **state)
{
    unsigned int s, ev, listed = 0;

    for (s = 0; s < NS; s++)
        for (ev = 0; ev < NE; ev++) {
            const struct tr *t = lookup(s, ev);

            listed += t != NULL;
            check_step(s, ev, t);
        }
    assert_int_equal(listed, sizeof(table) / sizeof(table[0]));
    print_message("# %u transitions, %u ignored or refused pairs\n",
                  listed, NS * NE - listed);
}

static void test_sm_names(void **state)
{
    unsigned int i;

    for (i = 0; i < NS; i++)
        assert_string_not_equal(e810cm_state_name(i), "?");
    for (i = 0; i < NE; i++)
        assert_string_not_equal(e810cm_event_name(i), "?");
    assert_string_equal(e810cm_state_name(NS), "?");
    assert_string_equal(e810cm_event_name(NE), "?");
}

static void test_sm_bad_event(void **state)
{
    struct e810cm_conn c;
    struct e810cm_out o;

    e810cm_conn_init(&c, 2);
    assert_int_equal(e810cm_step(&c, NE, &o), -EINVAL);
    assert_int_equal(c.state, E810CM_IDLE);
}

/* An RST to the v2 attempt: one retry with v1, then the connect fails. */
static void test_sm_v1_fallback(void **state)
{
    struct e810cm_conn c;
    struct e810cm_out o;

    e810cm_conn_init(&c, 2);
    assert_int_equal(e810cm_step(&c, E810CM_EV_USER_CONNECT, &o), 0);
    assert_int_equal(e810cm_step(&c, E810CM_EV_RX_SYNACK, &o), 0);
    assert_int_equal(e810cm_step(&c, E810CM_EV_RX_RST, &o), 0);
    assert_int_equal(c.state, E810CM_SYN_SENT);
    assert_int_equal(c.mpa_rev, 1);
    assert_int_equal(o.num_iw, 0);
    assert_int_equal(e810cm_step(&c, E810CM_EV_RX_SYNACK, &o), 0);
    assert_int_equal(e810cm_step(&c, E810CM_EV_RX_RST, &o), 0);
    assert_int_equal(c.state, E810CM_CLOSED);
    assert_int_equal(o.actions, E810CM_ACT_STOP_RETX);
    assert_int_equal(o.num_iw, 1);
    assert_int_equal(o.iw[0].type, E810CM_IW_CONNECT_REPLY);
    assert_int_equal(o.iw[0].status, -ECONNRESET);
    /* Same from SYN_SENT directly. */
    e810cm_conn_init(&c, 1);
    c.state = E810CM_SYN_SENT;
    assert_int_equal(e810cm_step(&c, E810CM_EV_RX_RST, &o), 0);
    assert_int_equal(c.state, E810CM_CLOSED);
}

/* One DISCONNECT per connection, whichever comes first. */
static void test_sm_disconnect_once(void **state)
{
    struct e810cm_conn c;
    struct e810cm_out o;

    e810cm_conn_init(&c, 2);
    c.state = E810CM_OFFLOADED;
    assert_int_equal(e810cm_step(&c, E810CM_EV_RX_FIN, &o), 0);
    assert_int_equal(o.num_iw, 1);
    assert_int_equal(e810cm_step(&c, E810CM_EV_RX_FIN, &o), 0);
    assert_true(o.ignored);
    assert_int_equal(o.num_iw, 0);
    assert_int_equal(e810cm_step(&c, E810CM_EV_RX_RST, &o), 0);
    assert_int_equal(c.state, E810CM_CLOSED);
    assert_int_equal(o.num_iw, 1);
    assert_int_equal(o.iw[0].type, E810CM_IW_CLOSE);
    assert_int_equal(o.iw[0].status, -ECONNRESET);
}

/* Walks through whole connections, checking every iw_cm event. */
static void walk(const enum e810cm_event *evs, size_t n,
                 enum e810cm_state end, const enum e810cm_iw_event *iw,
                 size_t niw, enum e810cm_state start)
{
    struct e810cm_conn c;
    struct e810cm_out o;
    size_t i, k = 0;
    int j;

    e810cm_conn_init(&c, 2);
    c.state = start;
    for (i = 0; i < n; i++) {
        assert_int_equal(e810cm_step(&c, evs[i], &o), 0);
        assert_false(o.ignored);
        for (j = 0; j < o.num_iw; j++) {
            assert_true(k < niw);
            assert_int_equal(o.iw[j].type, iw[k++]);
        }
    }
    assert_int_equal(c.state, end);
    assert_int_equal(k, niw);
}

static void test_sm_whole_connections(void **state)
{
    static const enum e810cm_event active[] = {
        E(USER_CONNECT), E(RX_SYNACK), E(RX_MPA_REP), E(USER_CLOSE),
        E(RX_FIN), E(HW_CLOSED) };
    static const enum e810cm_iw_event active_iw[] = {
        IW(CONNECT_REPLY), IW(DISCONNECT), IW(CLOSE) };
    static const enum e810cm_event passive[] = {
        E(RX_SYN), E(RX_ACK), E(RX_MPA_REQ), E(USER_ACCEPT),
        E(HW_ESTABLISHED), E(RX_FIN), E(TIMEOUT) };
    static const enum e810cm_iw_event passive_iw[] = {
        IW(CONNECT_REQUEST), IW(ESTABLISHED), IW(DISCONNECT), IW(CLOSE) };
    static const enum e810cm_event reject[] = {
        E(RX_SYN), E(RX_ACK), E(RX_MPA_REQ), E(USER_REJECT), E(RX_ACK),
        E(RX_FIN), E(TIMEOUT) };
    static const enum e810cm_iw_event reject_iw[] = { IW(CONNECT_REQUEST) };
    static const enum e810cm_event rejected[] = {
        E(USER_CONNECT), E(RX_SYNACK), E(RX_MPA_REJ), E(RX_FIN), E(RX_ACK) };
    static const enum e810cm_iw_event rejected_iw[] = { IW(CONNECT_REPLY) };

    walk(active, 6, S(CLOSED), active_iw, 3, S(IDLE));
    walk(passive, 7, S(CLOSED), passive_iw, 4, S(LISTENING));
    walk(reject, 7, S(CLOSED), reject_iw, 1, S(LISTENING));
    walk(rejected, 5, S(CLOSED), rejected_iw, 1, S(IDLE));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mpa_v1_request_bytes),
        cmocka_unit_test(test_mpa_v2_request_bytes),
        cmocka_unit_test(test_mpa_v2_reply_and_reject_bytes),
        cmocka_unit_test(test_mpa_siw_request_without_p2p),
        cmocka_unit_test(test_mpa_truncated),
        cmocka_unit_test(test_mpa_bad_key),
        cmocka_unit_test(test_mpa_bad_fields),
        cmocka_unit_test(test_mpa_build_refuses),
        cmocka_unit_test(test_mpa_feed),
        cmocka_unit_test(test_neg_irdma_pair),
        cmocka_unit_test(test_neg_rtr_choices),
        cmocka_unit_test(test_neg_markers_refused),
        cmocka_unit_test(test_neg_complete_refuses),
        cmocka_unit_test(test_sm_every_pair),
        cmocka_unit_test(test_sm_names),
        cmocka_unit_test(test_sm_bad_event),
        cmocka_unit_test(test_sm_v1_fallback),
        cmocka_unit_test(test_sm_disconnect_once),
        cmocka_unit_test(test_sm_whole_connections),
    };

    cmocka_set_message_output(CM_OUTPUT_TAP);
    return cmocka_run_group_tests_name("irdma_cm", tests, NULL, NULL);
}
