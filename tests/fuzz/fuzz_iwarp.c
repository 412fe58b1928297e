/*
 * libFuzzer harness for the iWARP mode of the device model (e810_iwarp.c,
 * e810_ilq.c): MANAGE_APBVT and MANAGE_QUAD_HASH_TABLE_ENTRY with fields
 * from the input, TCP frames (crafted around the table's ports and
 * addresses, then mutated, or raw) through the network entry point and
 * its iWARP steering, ILQ SQ WQEs (address handle, TCP header length,
 * segment length and bytes from the input) and the QMP formatter.
 *
 * The device is brought up once per process in iWARP mode with the unit
 * tests' driver (compiled in here); every input gets a fresh ILQ (CQ 1,
 * QP 1) in the same memory and empty tables, so a crash reproduces from
 * its input alone. cmocka_shim.c turns a failing driver assert into
 * abort().
 *
 * Input: a mode byte (bit 0: the listener entry is IPv6), then commands,
 * one byte each followed by operands (see run_command).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "../unit/model_harness.c"
#include "../unit/rdma_driver.c"
#include "../unit/dp_driver.c"
#include "cmocka_shim.c"

#include "e810_iwarp.h"

#define BUF_LEN     65536
#define NAH         4

typedef struct Iw {
    Harness *h;
    DpDev dev;
    DpCq cq;
    DpQp ilq;
    uint64_t buf;
    uint32_t slot;
    uint64_t mem_mark;
} Iw;

typedef struct Input {
    const uint8_t *p;
    size_t left;
} Input;

static uint32_t take(Input *in, unsigned n)
{
    uint32_t v = 0;

    while (n--) {
        v <<= 8;
        if (in->left) {
            v |= *in->p++;
            in->left--;
        }
    }
    return v;
}

static const uint8_t peer_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x99 };
static const uint16_t ports[4] = { 7174, 40000, 80, 0 };
static const uint32_t ips[4] = { 0x0a000001, 0x0a000002, 0xc0a85101, 0 };

static uint64_t mac_u64(const uint8_t *m)
{
    uint64_t v = 0;
    unsigned i;

    for (i = 0; i < 6; i++) {
        v = v << 8 | m[i];
    }
    return v;
}

/* Once per process: iWARP device, ARP entries, AHs, the ILQ's CQ. */
static void bringup(Iw *t)
{
    uint64_t q[8] = { 0 };
    unsigned i;

    memset(t, 0, sizeof(*t));
    t->h = harness_new(0);
    if (!t->h) {
        abort();
    }
    rd_protocol = E810_PROTOCOL_IWARP_ONLY;
    dp_dev_init(&t->dev, t->h);
    t->h->core.aq.pe_filter = true;
    for (i = 1; i <= 2; i++) {
        q[E810_QW(E810_CQPSQ_MAT_MAC_OFF)] =
            FIELD_PREP(E810_CQPSQ_MAT_MACADDR,
                       mac_u64(i == 1 ? peer_mac : t->h->core.mac));
        rd_do(&t->dev.d, E810_CQP_OP_MANAGE_ARP,
              FIELD_PREP(E810_CQPSQ_MAT_ARPENTRYIDX, i) |
              E810_CQPSQ_MAT_ENTRYVALID, q);
    }
    /* AH 0: IPv4 to the peer; 1: IPv4 loopback; 2: IPv6 + VLAN; 3: none */
    for (i = 0; i < 3; i++) {
        memset(q, 0, sizeof(q));
        rd_back_object(&t->dev.d, E810_HMC_FSIAV, i);
        q[E810_QW(E810_CQPSQ_AH_VLAN_OFF)] =
            FIELD_PREP(E810_CQPSQ_AH_VLANTAG, 5) |
            FIELD_PREP(E810_CQPSQ_AH_PDINDEXLO, DP_PD);
        q[E810_QW(E810_CQPSQ_AH_FLOW_OFF)] =
            FIELD_PREP(E810_CQPSQ_AH_ARPINDEX, i == 1 ? 2 : 1);
        q[E810_QW(E810_CQPSQ_AH_DIP23_OFF)] = ips[i == 1 ? 0 : 1];
        q[E810_QW(E810_CQPSQ_AH_SIP23_OFF)] = ips[0];
        q[E810_QW(E810_CQPSQ_AH_DIP01_OFF)] = i == 2 ? 0xfe80000000000000ull
                                                     : 0;
        rd_do(&t->dev.d, E810_CQP_OP_CREATE_ADDR_HANDLE,
              FIELD_PREP(E810_CQPSQ_AH_AVIDX, i) |
              (i < 2 ? E810_CQPSQ_AH_IPV4VALID : 0) |
              (i == 1 ? E810_CQPSQ_AH_DOLOOPBACK : 0) |
              (i == 2 ? E810_CQPSQ_AH_INSERTVLANTAG : 0), q);
    }
    t->dev.next_cq = E810_ILQ_QPN;
    dp_cq_create(&t->dev, &t->cq, 4096);
    t->buf = mem_alloc_aligned(t->h, BUF_LEN, 4096);
    t->mem_mark = t->h->mem_next;
}

static void post_recv(Iw *t)
{
    E810Sge sge = { t->buf + (t->slot++ % 32) * 1024, 1024, 0 };

    dp_post_recv(&t->ilq, &sge, 1);
}

/* Per input: empty tables, a fresh ILQ in the same slot and memory. */
static void ilq_create(Iw *t)
{
    unsigned i;

    memset(&t->h->core.rdma.iw, 0, sizeof(t->h->core.rdma.iw));
    t->h->mem_next = t->mem_mark;
    t->dev.next_qp = E810_ILQ_QPN;
    t->slot = 0;
    dp_qp_create(&t->dev, &t->ilq, E810_QP_TYPE_UDA, &t->cq, &t->cq, 64, 16,
                 0, false, true);
    for (i = 0; i < 8; i++) {
        post_recv(t);
    }
}

static void drain(Iw *t)
{
    DpCqe e;
    DpAe ae;
    unsigned n = 0;

    while (n++ < 1000 && dp_poll_cq(&t->cq, &e)) {
    }
    while (n++ < 2000 && dp_poll_ae(&t->dev, &ae)) {
    }
}

static void apbvt(Iw *t, Input *in)
{
    uint32_t sel = take(in, 1);
    uint64_t q[8] = { 0 };

    q[E810_QW(E810_CQPSQ_MAPT_PORT_OFF)] = (sel & 4) ? take(in, 2) :
                                           ports[sel & 3];
    rd_do(&t->dev.d, E810_CQP_OP_MANAGE_APBVT,
          (sel & 8) ? E810_CQPSQ_MAPT_ADDPORT : 0, q);
}

static void qhash(Iw *t, Input *in, bool v6)
{
    uint32_t sel = take(in, 2);
    uint64_t q[8] = { 0 }, hdr;

    q[E810_QW(E810_CQPSQ_QHASH_PORTS_OFF)] =
        FIELD_PREP(E810_CQPSQ_QHASH_QPN, (sel & 0x100) ? take(in, 3) :
                                          E810_ILQ_QPN) |
        FIELD_PREP(E810_CQPSQ_QHASH_DEST_PORT, ports[sel & 3]) |
        FIELD_PREP(E810_CQPSQ_QHASH_SRC_PORT, ports[(sel >> 2) & 3]);
    q[E810_QW(E810_CQPSQ_QHASH_LIP23_OFF)] = ips[(sel >> 4) & 3];
    q[E810_QW(E810_CQPSQ_QHASH_RIP23_OFF)] = ips[(sel >> 6) & 3];
    if (v6) {
        q[E810_QW(E810_CQPSQ_QHASH_LIP01_OFF)] = 0xfe80000000000000ull;
    }
    q[E810_QW(E810_CQPSQ_QHASH_QS_OFF)] = take(in, 8);
    hdr = FIELD_PREP(E810_CQPSQ_QHASH_MANAGE, sel >> 9) |
          FIELD_PREP(E810_CQPSQ_QHASH_ENTRYTYPE, (sel & 0x800) ?
                     take(in, 1) : 1 + ((sel >> 12) & 1)) |
          (v6 ? 0 : E810_CQPSQ_QHASH_IPV4VALID) |
          ((sel & 0x2000) ? E810_CQPSQ_QHASH_VLANVALID : 0);
    rd_do(&t->dev.d, E810_CQP_OP_MANAGE_QUAD_HASH_TABLE_ENTRY, hdr, q);
}

/* A TCP frame to us around the tables' ports and addresses, mutated. */
static void crafted(Iw *t, Input *in)
{
    static uint8_t f[2048];
    uint32_t sel = take(in, 2);
    unsigned plen = take(in, 2) % 1400, l3, l4, i;
    bool v6 = sel & 1, vlan = sel & 2;
    size_t len;

    memset(f, 0, sizeof(f));
    memcpy(f, t->h->core.mac, 6);
    memcpy(f + 6, peer_mac, 6);
    l3 = 14;
    if (vlan) {
        f[12] = 0x81;
        f[14] = take(in, 1);
        f[15] = 5;
        l3 += 4;
    }
    f[l3 - 2] = v6 ? 0x86 : 0x08;
    f[l3 - 1] = v6 ? 0xdd : 0x00;
    if (v6) {
        f[l3] = 0x60;
        f[l3 + 4] = (20 + plen) >> 8;
        f[l3 + 5] = 20 + plen;
        f[l3 + 6] = 6;
        f[l3 + 24] = 0xfe;
        f[l3 + 25] = 0x80;
        l4 = l3 + 40;
    } else {
        f[l3] = 0x45;
        f[l3 + 2] = (40 + plen) >> 8;
        f[l3 + 3] = 40 + plen;
        f[l3 + 9] = 6;
        for (i = 0; i < 4; i++) {
            f[l3 + 12 + i] = ips[(sel >> 2) & 3] >> (24 - 8 * i);
            f[l3 + 16 + i] = ips[(sel >> 4) & 3] >> (24 - 8 * i);
        }
        l4 = l3 + 20;
    }
    f[l4] = ports[(sel >> 6) & 3] >> 8;
    f[l4 + 1] = ports[(sel >> 6) & 3];
    f[l4 + 2] = ports[(sel >> 8) & 3] >> 8;
    f[l4 + 3] = ports[(sel >> 8) & 3];
    f[l4 + 12] = (sel & 0x400) ? take(in, 1) : 5 << 4;
    f[l4 + 13] = take(in, 1);
    for (i = 0; i < plen; i++) {
        f[l4 + 20 + i] = i;
    }
    len = l4 + 20 + plen;
    switch ((sel >> 12) & 3) {
    case 1:
        f[take(in, 2) % len] = take(in, 1);
        break;
    case 2:
        len = take(in, 2) % (len + 1);
        break;
    default:
        break;
    }
    e810_core_receive(&t->h->core, f, len);
}

static void raw(Iw *t, Input *in)
{
    static uint8_t f[1024];
    size_t len = take(in, 2) % sizeof(f), i;

    for (i = 0; i < len; i++) {
        f[i] = take(in, 1);
    }
    if (len >= 6) {
        memcpy(f, t->h->core.mac, 6);
    }
    e810_core_receive(&t->h->core, f, len);
}

/* An ILQ SQ WQE: TCP segment bytes and the header fields from the input. */
static void ilq_send(Iw *t, Input *in)
{
    uint32_t sel = take(in, 2);
    uint32_t len = (sel & 0x8000) ? take(in, 2) % 12000 :
                   take(in, 1) % 200;
    uint64_t seg = t->buf + BUF_LEN / 2, q[4];
    uint8_t *p = mem_ptr(t->h, seg);
    uint32_t i;

    for (i = 0; i < len && i < BUF_LEN / 2; i++) {
        p[i] = take(in, 1);
    }
    if (len >= 14) {
        p[12] = (sel & 0x100) ? 5 << 4 : p[12];
    }
    q[0] = seg;
    q[1] = FIELD_PREP(E810_WQE_FRAG_LEN, len);
    q[2] = 0;
    q[3] = FIELD_PREP(E810_WQE_OPCODE, (sel & 0x200) ? (sel >> 10) & 0x3f :
                                       E810_OP_SEND) |
           FIELD_PREP(E810_WQE_L4LEN, (sel >> 4) & 0xf) |
           FIELD_PREP(E810_WQE_AHID, sel % NAH) | E810_WQE_SIGCOMPL;
    dp_post_raw(&t->ilq, q, 1, false);
    dp_ring(&t->ilq, true);
}

static void format(Iw *t, Input *in)
{
    static char buf[8192];
    size_t len = take(in, 2) % sizeof(buf);

    e810_iw_format_tables(&t->h->core, buf, len);
}

static void run_command(Iw *t, Input *in, bool v6)
{
    switch (take(in, 1) % 8) {
    case 0:
        apbvt(t, in);
        break;
    case 1:
        qhash(t, in, v6);
        break;
    case 2:
    case 3:
        crafted(t, in);
        break;
    case 4:
        ilq_send(t, in);
        break;
    case 5:
        raw(t, in);
        break;
    case 6:
        post_recv(t);
        break;
    default:
        format(t, in);
        break;
    }
    {
        unsigned i;

        for (i = 0; i < 64 && t->h->core.work_pending; i++) {
            harness_run_work(t->h);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Iw *t;
    Input in = { data, size };
    bool v6;
    unsigned n;

    if (!t) {
        t = malloc(sizeof(*t));
        if (!t) {
            abort();
        }
        bringup(t);
    }
    ilq_create(t);
    v6 = take(&in, 1) & 1;
    for (n = 0; in.left && n < 128; n++) {
        run_command(t, &in, v6);
        drain(t);
    }
    dp_qp_destroy(&t->ilq);
    dp_run(&t->dev);
    drain(t);
    return 0;
}
