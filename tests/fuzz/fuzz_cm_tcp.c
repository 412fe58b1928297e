/*
 * libFuzzer harness for the TCP segment parser of the iWARP connection
 * manager library (lib/irdma-cm/tcp.c), the parser of everything the ILQ
 * receives from the wire.
 *
 * Input: a mode byte (bit 0: the CQE's IPV4 flag), then the receive
 * buffer as the CQE reports it (IPv4 header at byte 20 or IPv6 at 0, TCP
 * at 40).
 *
 * Checked on every input, besides the sanitizers:
 * - an accepted segment's header and payload lie within the buffer, the
 *   payload right after the header;
 * - fed to a connection's sequence space (lib/irdma-cm e810cm_tcb_rx()),
 *   fresh or synchronised near its numbers: at most two events, payload
 *   only the segment's own and only in order, no state on a refusal;
 * - building the accepted segment again (ports swapped to our view; the
 *   MSS and window scale options when both were present) and parsing it
 *   inside a fresh ILQ buffer gives back its ports, numbers, flags,
 *   window, options and payload.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <errno.h>
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

/* An IPv4 ILQ buffer around @tcp. */
static uint32_t wrap_v4(uint8_t *b, const uint8_t *tcp, uint32_t len)
{
    memset(b, 0, E810CM_ILQ_TCP_OFF);
    b[20] = 0x45;
    b[22] = (20 + len) >> 8;
    b[23] = (20 + len) & 0xff;
    b[29] = 6;
    memcpy(b + E810CM_ILQ_TCP_OFF, tcp, len);
    return E810CM_ILQ_TCP_OFF + len;
}

static void round_trip(const struct e810cm_seg *s)
{
    static uint8_t seg[70000], buf[70000 + E810CM_ILQ_TCP_OFF];
    struct e810cm_seg b = *s, p;
    int n;

    /* what the peer sent, seen from the peer: its ports are ours */
    b.lport = s->rport;
    b.rport = s->lport;
    if (!(s->has_mss && s->has_ws)) {
        b.has_mss = false;
        b.has_ws = false;
    }
    n = e810cm_seg_build(seg, sizeof(seg), &b);
    check(n > 0 && (uint32_t)n == b.hlen + s->payload_len);
    check(e810cm_seg_parse(buf, wrap_v4(buf, seg, n), true, &p) == 0);
    check(p.lport == s->lport && p.rport == s->rport);
    check(p.seq == s->seq && p.ack == s->ack && p.flags == s->flags);
    check(p.window == s->window);
    check(p.has_mss == b.has_mss && p.has_ws == b.has_ws);
    if (b.has_mss) {
        check(p.mss == s->mss && p.ws == s->ws);
    }
    check(p.payload_len == s->payload_len);
    check(!p.payload_len ||
          memcmp(p.payload, s->payload, p.payload_len) == 0);
}

/*
 * The segment against a connection's sequence space: fresh (mode bit 1
 * clear) or synchronised near the segment's numbers (the other mode bits
 * give the distance).
 */
static void sequence(const struct e810cm_seg *s, uint8_t mode)
{
    struct e810cm_tcb t;
    struct e810cm_rx rx;
    uint32_t nxt;
    int r;

    e810cm_tcb_init(&t, 1000, 1460, 536);
    if (mode & 2) {
        t.synced = true;
        t.rcv_nxt = s->seq - (mode >> 2);
        t.snd_nxt = s->ack;
        t.snd_una = s->ack - 1;
    }
    nxt = t.rcv_nxt;
    r = e810cm_tcb_rx(&t, s, &rx);
    check(r == 0 || r == -EINVAL || r == -ECONNRESET);
    check(rx.num <= 2);
    if (r) {
        check(rx.num == 0 && !rx.data);
        return;
    }
    if (rx.data) {
        check(rx.data == s->payload && rx.data_len == s->payload_len);
        check(t.rcv_nxt - nxt >= rx.data_len);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct e810cm_seg s;
    const uint8_t *buf;
    uint32_t len;

    if (size < 1 || size > 65536) {
        return 0;
    }
    buf = data + 1;
    len = (uint32_t)(size - 1);
    if (e810cm_seg_parse(buf, len, data[0] & 1, &s)) {
        return 0;
    }
    check(s.hlen >= E810CM_TCP_HLEN_MIN && s.hlen <= 60);
    check(s.payload == buf + E810CM_ILQ_TCP_OFF + s.hlen);
    check(E810CM_ILQ_TCP_OFF + s.hlen + s.payload_len == len);
    check(s.ws <= 14 && s.lport && s.rport);
    round_trip(&s);
    sequence(&s, data[0]);
    return 0;
}
