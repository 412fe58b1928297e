/*
 * libFuzzer harness for the MPA parser of the iWARP connection manager
 * library (lib/irdma-cm/mpa.c), with the negotiation and the state
 * machine behind it.
 *
 * Input: a mode byte (bit 0: parse as a Reply, else a Request; bit 1: the
 * highest revision accepted is 1, else 2), two bytes of local limits (IRD
 * and ORD, 0..255), then the bytes received after the TCP handshake.
 *
 * Checked on every input, besides the sanitizers:
 * - a frame the parser accepts lies within the input, and building it
 *   again from what the parser returned gives the same bytes (flags
 *   byte normalised: reserved bits dropped, 0x10 set in revision 2);
 * - a Request the parser accepts and the responder answers gives a
 *   Reply the parser accepts and the initiator's side of the
 *   negotiation takes, with the outcome agreeing on both ends;
 * - the state machine, fed events taken from the input, stays in its
 *   states and posts at most two iw_cm events per step;
 * - the same bytes fed to e810cm_mpa_feed() in pieces (a cut every
 *   byte 1's value + 1 bytes, as a peer's TCP may split the frame) give
 *   the parser's answer on the whole: the same frame once complete, the
 *   same error, -EAGAIN until then, -EMSGSIZE for bytes after a frame.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cm.h"

static void check(int cond)
{
    if (!cond) {
        abort();
    }
}

static void round_trip(const uint8_t *in, int len, const struct e810cm_mpa *m)
{
    uint8_t out[E810CM_MPA_MAX_FRAME];
    struct e810cm_mpa b = *m;
    uint8_t flags;

    if (b.reject) {
        b.type = E810CM_MPA_REPLY;
    }
    check(e810cm_mpa_build(out, sizeof(out), &b) == len);
    flags = (in[16] & 0xe0) | (m->rev == 2 ? E810CM_MPA_FLAG_ENHANCED : 0);
    check(out[16] == flags);
    check(memcmp(out, in, 16) == 0);
    check(memcmp(out + 17, in + 17, len - 17) == 0);
}

static void negotiate(const struct e810cm_mpa *req, uint16_t ird,
                      uint16_t ord)
{
    struct e810cm_neg resp = { .ird = ird, .ord = ord };
    struct e810cm_neg ini = { .ird = req->ird, .ord = req->ord };
    uint8_t buf[E810CM_MPA_MAX_FRAME];
    struct e810cm_mpa rep, prep;
    int len;

    if (e810cm_mpa_respond(req, &resp, &rep)) {
        return;
    }
    len = e810cm_mpa_build(buf, sizeof(buf), &rep);
    check(len >= E810CM_MPA_HDR_LEN);
    check(e810cm_mpa_parse(buf, len, E810CM_MPA_REPLY, req->rev, &prep)
          == len);
    if (req->rev != 2) {
        return;
    }
    check(e810cm_mpa_complete(req, &prep, &ini) == 0);
    check(ini.rtr == resp.rtr && ini.p2p == resp.p2p);
    check(ini.rev == resp.rev);
    check(ini.ord <= resp.ird && resp.ord <= req->ird);
    check(!(ini.rtr & (ini.rtr - 1)));
    check(!ini.p2p || ini.rtr);
}

static void run_sm(const uint8_t *p, size_t n)
{
    struct e810cm_conn c;
    struct e810cm_out o;
    size_t i;

    e810cm_conn_init(&c, 2);
    for (i = 0; i < n && i < 64; i++) {
        enum e810cm_state before = c.state;
        int ret = e810cm_step(&c, p[i] % (E810CM_NUM_EVENTS + 1), &o);

        check(c.state < E810CM_NUM_STATES);
        check(o.num_iw <= E810CM_MAX_IW_EVENTS);
        if (ret || o.ignored) {
            check(c.state == before && !o.actions && !o.num_iw);
        }
    }
}

/* The whole parse's verdict @whole, reached by pieces. */
static void feed(const uint8_t *in, size_t n, enum e810cm_mpa_type type,
                 uint8_t max_rev, size_t step, int whole)
{
    static struct e810cm_mpa_rx rx;
    struct e810cm_mpa m;
    size_t off = 0, k;
    int ret = -EAGAIN;

    memset(&rx, 0, sizeof(rx));
    while (off < n && ret == -EAGAIN) {
        k = n - off < step ? n - off : step;
        ret = e810cm_mpa_feed(&rx, in + off, k, type, max_rev, &m);
        off += k;
        check(rx.len <= sizeof(rx.buf));
    }
    if (n > E810CM_MPA_MAX_FRAME && ret == -EMSGSIZE) {
        return;         /* refused before the whole was in */
    }
    if (whole > 0 && (size_t)whole < n) {
        /* Bytes after the frame: refused with it or after it. */
        check(ret == -EMSGSIZE || ret == whole);
        return;
    }
    if (off < n) {
        check(ret == whole || whole > 0);
        return;
    }
    check(ret == whole);
    if (ret > 0) {
        check(m.pd >= rx.buf && m.pd + m.pd_len == rx.buf + ret);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    enum e810cm_mpa_type type;
    struct e810cm_mpa m;
    uint8_t max_rev;
    int ret;

    if (size < 3) {
        return 0;
    }
    type = data[0] & 1 ? E810CM_MPA_REPLY : E810CM_MPA_REQUEST;
    max_rev = data[0] & 2 ? 1 : 2;
    ret = e810cm_mpa_parse(data + 3, size - 3, type, max_rev, &m);
    if (ret > 0) {
        check(ret >= E810CM_MPA_HDR_LEN && (size_t)ret <= size - 3);
        check(ret <= E810CM_MPA_MAX_FRAME);
        check(m.pd >= data + 3 && m.pd + m.pd_len == data + 3 + ret);
        check(m.rev >= 1 && m.rev <= max_rev);
        round_trip(data + 3, ret, &m);
        if (type == E810CM_MPA_REQUEST) {
            negotiate(&m, data[1], data[2]);
        }
    } else {
        check(ret == -EAGAIN || ret == -EBADMSG || ret == -EMSGSIZE ||
              ret == -EPROTONOSUPPORT);
    }
    feed(data + 3, size - 3, type, max_rev, (size_t)data[1] + 1, ret);
    run_sm(data + 3, size - 3);
    return 0;
}
