/*
 * libFuzzer harness for the device model's admin queue: the ATQ engine
 * (ring registers, descriptor walk, indirect buffers in and out of guest
 * memory), every firmware area's command parsers, and the ARQ events a
 * link change posts.
 *
 * Input: byte 0 chooses the mode:
 *  - raw: arbitrary AQ register writes, raw descriptors and buffer bytes
 *    anywhere in the ring, link changes and resets, work runs;
 *  - focused: byte 1 picks one command family; each following command is
 *    a well-formed descriptor of that family whose indirect buffer (group
 *    and item lists, rules, package buffers, ...) comes from the input;
 *  - sequence: each step picks a family (or a PF reset, a CORER, 0x02A4,
 *    a link change, ARQ ring trouble), so the scheduler tree, the switch
 *    rules, the VSIs and a package download accumulate state.
 * The model must never crash, leak, hang or hit undefined behaviour.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fuzz_arena.h"

/* Arena layout. */
#define A_ATQ       0x0000      /* ATQ_LEN descriptors */
#define A_ARQ       0x0400      /* ARQ_LEN descriptors */
#define A_ARQBUF    0x0800      /* ARQ_LEN event buffers of ARQ_BUFSZ */
#define A_BUF       0x2000      /* NSLOT command buffers of 4 KiB */
#define A_FREE      0xA000      /* raw bytes only */

#define ATQ_LEN     16
#define ARQ_LEN     16
#define ARQ_BUFSZ   128
#define NSLOT       8
#define MAX_STEPS   48

#define VSI_BASE    3           /* first VSI number the switch hands out */

typedef struct Fuzz {
    E810Core core;
    uint8_t mem[ARENA_SIZE];
    uint32_t atq_tail;
    unsigned slot;
    bool glbl_lock;             /* 0x0008 res 4 write answered OK */
} Fuzz;

static Fuzz state;
static Fuzz *const fz = &state;

/* One command as a family builder leaves it. */
typedef struct Cmd {
    uint16_t opc;
    uint16_t flags;             /* besides BUF/LB, which follow len */
    uint8_t params[16];
    uint32_t len;               /* indirect buffer bytes, 0: direct */
    uint8_t buf[E810_AQ_MAX_BUF];
} Cmd;

static Cmd cmdbuf;

/* ---- the driver's side ----------------------------------------------------- */

static uint32_t rd(uint32_t off)
{
    return e810_core_mmio_read(arena_core, off, 4);
}

static void run(void)
{
    unsigned i;

    for (i = 0; i < 8 && fz->core.work_pending; i++) {
        e810_core_run_work(&fz->core);
    }
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

/* Posts ARQ slot @i with an event buffer, as ice_alloc_arq_bufs() does. */
static void arq_post(unsigned i)
{
    struct e810_aq_desc d;
    uint64_t a = ARENA_BASE + A_ARQBUF + i * ARQ_BUFSZ;

    memset(&d, 0, sizeof(d));
    d.flags = htole16(E810_AQ_FLAG_BUF);
    d.datalen = htole16(ARQ_BUFSZ);
    d.params.generic.addr_high = htole32(a >> 32);
    d.params.generic.addr_low = htole32((uint32_t)a);
    memcpy(fz->mem + A_ARQ + i * E810_AQ_DESC_SIZE, &d, sizeof(d));
}

/* ice_init_all_ctrlq(): both rings programmed, every ARQ slot posted. */
static void aq_init(void)
{
    unsigned i;

    wr(E810_PF_FW_ATQLEN, 0);
    wr(E810_PF_FW_ATQH, 0);
    wr(E810_PF_FW_ATQT, 0);
    wr(E810_PF_FW_ATQBAL, (uint32_t)(ARENA_BASE + A_ATQ));
    wr(E810_PF_FW_ATQBAH, (ARENA_BASE + A_ATQ) >> 32);
    wr(E810_PF_FW_ATQLEN, ATQ_LEN | E810_PF_FW_AQLEN_ENABLE);
    for (i = 0; i < ARQ_LEN; i++) {
        arq_post(i);
    }
    wr(E810_PF_FW_ARQLEN, 0);
    wr(E810_PF_FW_ARQH, 0);
    wr(E810_PF_FW_ARQT, 0);
    wr(E810_PF_FW_ARQBAL, (uint32_t)(ARENA_BASE + A_ARQ));
    wr(E810_PF_FW_ARQBAH, (ARENA_BASE + A_ARQ) >> 32);
    wr(E810_PF_FW_ARQLEN, ARQ_LEN | E810_PF_FW_AQLEN_ENABLE);
    wr(E810_PF_FW_ARQT, ARQ_LEN - 1);
    fz->atq_tail = 0;
    run();
}

/* ice_clean_rq_elem(): every event taken, its slot posted again. */
static void arq_drain(void)
{
    uint32_t h = rd(E810_PF_FW_ARQH) & E810_PF_FW_AQ_PTR;
    unsigned i;

    for (i = 0; i < ARQ_LEN; i++) {
        arq_post(i);
    }
    wr(E810_PF_FW_ARQT, (h + ARQ_LEN - 1) % ARQ_LEN);
}

/* Writes @c into the ring at the tail and rings the doorbell. */
static void send(const Cmd *c)
{
    struct e810_aq_desc d;
    uint64_t a = ARENA_BASE + A_BUF + fz->slot * E810_AQ_MAX_BUF;
    uint16_t flags = c->flags;

    memset(&d, 0, sizeof(d));
    memcpy(d.params.raw, c->params, sizeof(d.params.raw));
    if (c->len) {
        memcpy(fz->mem + A_BUF + fz->slot * E810_AQ_MAX_BUF, c->buf, c->len);
        fz->slot = (fz->slot + 1) % NSLOT;
        flags |= E810_AQ_FLAG_BUF;
        if (c->len > E810_AQ_LARGE_BUF) {
            flags |= E810_AQ_FLAG_LB;
        }
        d.params.generic.addr_high = htole32(a >> 32);
        d.params.generic.addr_low = htole32((uint32_t)a);
    }
    d.flags = htole16(flags);
    d.opcode = htole16(c->opc);
    d.datalen = htole16(c->len);
    d.cookie_low = htole32(0x5a5a0000 | c->opc);
    memcpy(fz->mem + A_ATQ + fz->atq_tail * E810_AQ_DESC_SIZE, &d, sizeof(d));
    fz->atq_tail = (fz->atq_tail + 1) % ATQ_LEN;
    wr(E810_PF_FW_ATQT, fz->atq_tail);
    run();
}

/* The retval the last command was written back with. */
static uint16_t last_retval(void)
{
    struct e810_aq_desc d;
    uint32_t i = (fz->atq_tail + ATQ_LEN - 1) % ATQ_LEN;

    memcpy(&d, fz->mem + A_ATQ + i * E810_AQ_DESC_SIZE, sizeof(d));
    return le16toh(d.retval);
}

static void cmd_start(Cmd *c, uint16_t opc, uint32_t len)
{
    memset(c->params, 0, sizeof(c->params));
    memset(c->buf, 0, len);
    c->opc = opc;
    c->flags = len ? E810_AQ_FLAG_RD : 0;
    c->len = len;
}

/* ---- input shapes ------------------------------------------------------------ */

static void fill(Input *in, uint8_t *p, size_t n)
{
    size_t k = n < in->left ? n : in->left;

    memcpy(p, in->p, k);
    in->p += k;
    in->left -= k;
}

/* A TEID: mostly one the tree has handed out (they count from 1). */
static uint32_t teid(Input *in)
{
    uint32_t v = take(in, 1);

    if (v < 0xf0) {
        return v;
    }
    return v == 0xff ? E810_SCHED_INVAL_TEID : (uint32_t)take(in, 4);
}

/* A VSI number: mostly around the PF's sixteen. */
static uint16_t vsi_num(Input *in)
{
    uint32_t v = take(in, 1);

    return v < 0xf0 ? VSI_BASE + v % 20 - 1 : (uint16_t)take(in, 2);
}

/* A count in 1..@max, now and then anything in 0..255. */
static unsigned count(Input *in, unsigned max)
{
    unsigned v = take(in, 1);

    return v < 0xf8 ? 1 + v % max : v - 0xf8;
}

/* Now and then the buffer ends early or runs on a little. */
static void skew_len(Input *in, Cmd *c)
{
    unsigned v = take(in, 1);
    int len = c->len;

    if (v < 0xe8) {
        return;
    }
    len += (int)(v & 0xf) - 8;
    c->len = len < 1 ? 1 : len > E810_AQ_MAX_BUF ? E810_AQ_MAX_BUF : len;
}

/* ---- command families ---------------------------------------------------------- */

static void b_add_txqs(Input *in, Cmd *c)
{
    unsigned g, q, n = count(in, 3), off = 0;

    cmd_start(c, E810_AQC_ADD_TXQS, 0);
    c->params[0] = n;
    for (g = 0; g < n && off + 8 <= E810_AQ_MAX_BUF; g++) {
        unsigned nq = count(in, 8);

        put32(c->buf + off, teid(in));
        c->buf[off + 4] = nq;
        off += 8;
        for (q = 0; q < nq && off + 48 <= E810_AQ_MAX_BUF; q++, off += 48) {
            put16(c->buf + off, take(in, 1) & 0x80 ? take(in, 2) :
                                 take(in, 1));
            if (take(in, 1) & 1) {
                fill(in, c->buf + off + 8, E810_TXQ_CTX_SIZE);
                fill(in, c->buf + off + 32, 16);
            }
        }
    }
    c->len = off ? off : 8;
    c->flags = E810_AQ_FLAG_RD;
    skew_len(in, c);
}

static void b_dis_txqs(Input *in, Cmd *c)
{
    unsigned e, q, n = count(in, 3), off = 0;

    cmd_start(c, E810_AQC_DIS_TXQS, 0);
    c->params[0] = take(in, 1);
    c->params[1] = n;
    put16(c->params + 2, take(in, 2));
    for (e = 0; e < n && off + 6 <= E810_AQ_MAX_BUF; e++) {
        unsigned nq = count(in, 8);

        put32(c->buf + off, teid(in));
        c->buf[off + 4] = nq;
        off += 6;
        for (q = 0; q < nq && off + 2 <= E810_AQ_MAX_BUF; q++, off += 2) {
            unsigned v = take(in, 1);

            put16(c->buf + off, (v & 0x80 ? E810_AQC_Q_DIS_BUF_ELEM_TYPE_RDMA_QSET
                                 : 0) | (v & 0x40 ? take(in, 2) : v & 0x3f));
        }
        if (!(nq & 1) && off + 2 <= E810_AQ_MAX_BUF) {
            off += 2;       /* ice pads items of an even count */
        }
    }
    c->len = off ? off : 6;
    c->flags = E810_AQ_FLAG_RD;
    skew_len(in, c);
}

static void b_add_qsets(Input *in, Cmd *c)
{
    unsigned g, q, n = count(in, 2), off = 0;

    cmd_start(c, E810_AQC_ADD_RDMA_QSET, 0);
    c->params[0] = n;
    for (g = 0; g < n && off + 8 <= E810_AQ_MAX_BUF; g++) {
        unsigned nq = count(in, 8);

        put32(c->buf + off, teid(in));
        put16(c->buf + off + 4, nq);
        off += 8;
        for (q = 0; q < nq && off + 24 <= E810_AQ_MAX_BUF; q++, off += 24) {
            put16(c->buf + off, take(in, 2));
            if (take(in, 1) & 1) {
                fill(in, c->buf + off + 8, 16);
            }
        }
    }
    c->len = off ? off : 8;
    c->flags = E810_AQ_FLAG_RD;
    skew_len(in, c);
}

static const uint8_t elem_types[8] = {
    E810_AQC_ELEM_TYPE_SE_GENERIC, E810_AQC_ELEM_TYPE_SE_GENERIC,
    E810_AQC_ELEM_TYPE_SE_PADDED, E810_AQC_ELEM_TYPE_LEAF,
    E810_AQC_ELEM_TYPE_TC, E810_AQC_ELEM_TYPE_ROOT_PORT,
    E810_AQC_ELEM_TYPE_ENTRY_POINT, E810_AQC_ELEM_TYPE_UNDEFINED,
};

/* One 24-byte element record under @parent. */
static void elem_data(Input *in, uint8_t *p, uint32_t parent, uint32_t node)
{
    put32(p, parent);
    put32(p + 4, node);
    if (take(in, 1) & 1) {
        fill(in, p + 8, 16);
    }
    p[8] = elem_types[p[8] & 7];
    if (!(p[9] & 0x80)) {
        p[9] |= E810_AQC_ELEM_VALID_GENERIC;
    }
}

static void b_add_elems(Input *in, Cmd *c)
{
    unsigned g, i, n = count(in, 3), off = 0;

    cmd_start(c, E810_AQC_ADD_SCHED_ELEMS, 0);
    put16(c->params, n);
    for (g = 0; g < n && off + 8 <= E810_AQ_MAX_BUF; g++) {
        unsigned ne = count(in, 8);
        uint32_t parent = teid(in);

        put32(c->buf + off, parent);
        put16(c->buf + off + 4, ne);
        off += 8;
        for (i = 0; i < ne && off + 24 <= E810_AQ_MAX_BUF; i++, off += 24) {
            elem_data(in, c->buf + off, take(in, 1) == 0xff ? teid(in) :
                      parent, 0);
        }
    }
    c->len = off ? off : 8;
    c->flags = E810_AQ_FLAG_RD;
    skew_len(in, c);
}

static void b_del_elems(Input *in, Cmd *c)
{
    unsigned g, i, n = count(in, 3), off = 0;

    cmd_start(c, E810_AQC_DELETE_SCHED_ELEMS, 0);
    put16(c->params, n);
    for (g = 0; g < n && off + 8 <= E810_AQ_MAX_BUF; g++) {
        unsigned ne = count(in, 8);

        put32(c->buf + off, teid(in));
        put16(c->buf + off + 4, ne);
        off += 8;
        for (i = 0; i < ne && off + 4 <= E810_AQ_MAX_BUF; i++, off += 4) {
            put32(c->buf + off, teid(in));
        }
    }
    c->len = off ? off : 8;
    c->flags = E810_AQ_FLAG_RD;
    skew_len(in, c);
}

/* 0x0403 / 0x0404 (element records), 0x0409 / 0x040A (TEIDs). */
static void b_elem_list(Input *in, Cmd *c)
{
    static const uint16_t opcs[4] = {
        E810_AQC_CFG_SCHED_ELEMS, E810_AQC_GET_SCHED_ELEMS,
        E810_AQC_SUSPEND_SCHED_ELEMS, E810_AQC_RESUME_SCHED_ELEMS,
    };
    unsigned k = take(in, 1), i, n = count(in, 8);
    unsigned rec = (k & 3) < 2 ? 24 : 4;

    cmd_start(c, opcs[k & 3], 0);
    put16(c->params, n);
    for (i = 0; i < n && (i + 1) * rec <= E810_AQ_MAX_BUF; i++) {
        if (rec == 4) {
            put32(c->buf + i * rec, teid(in));
        } else {
            elem_data(in, c->buf + i * rec, teid(in), teid(in));
        }
    }
    c->len = i * rec ? i * rec : rec;
    c->flags = E810_AQ_FLAG_RD;
    skew_len(in, c);
}

static void b_move_elems(Input *in, Cmd *c)
{
    unsigned i, n = count(in, 8);

    cmd_start(c, E810_AQC_MOVE_SCHED_ELEMS, 12 + 4 * n);
    put16(c->params, take(in, 1) == 0xff ? take(in, 2) : 1);
    put32(c->buf, teid(in));
    put32(c->buf + 4, teid(in));
    put16(c->buf + 8, n);
    c->buf[10] = take(in, 1) == 0xff;
    for (i = 0; i < n; i++) {
        put32(c->buf + 12 + 4 * i, teid(in));
    }
    skew_len(in, c);
}

/* 0x0400 topology, 0x040E port ETS, 0x0412 resources: read-back buffers. */
static void b_sched_query(Input *in, Cmd *c)
{
    static const struct {
        uint16_t opc;
        uint16_t len;
    } q[3] = {
        { E810_AQC_GET_DFLT_TOPO, 4096 },
        { E810_AQC_QUERY_PORT_ETS, sizeof(struct e810_aqc_port_ets_elem) },
        { E810_AQC_QUERY_SCHED_RES,
          sizeof(struct e810_aqc_query_txsched_res_resp) },
    };
    unsigned k = take(in, 1) % 3;

    cmd_start(c, q[k].opc, q[k].len);
    c->flags = 0;
    if (k == 1) {
        put32(c->params, teid(in));
    } else {
        c->params[0] = take(in, 1);
    }
    skew_len(in, c);
}

/* 0x02A0 / 0x02A1 / 0x02A2: lookup, VSI list and large-action elements. */
static void b_sw_rules(Input *in, Cmd *c)
{
    static const uint16_t opcs[3] = {
        E810_AQC_ADD_SW_RULES, E810_AQC_UPDATE_SW_RULES,
        E810_AQC_REMOVE_SW_RULES,
    };
    unsigned i, j, n = count(in, 4), off = 0;

    cmd_start(c, opcs[take(in, 1) % 3], 0);
    put16(c->params, n);
    for (i = 0; i < n && off + 16 + 16 <= E810_AQ_MAX_BUF; i++) {
        unsigned type = take(in, 1);
        uint8_t *p = c->buf + off;

        type = type < 0xf0 ? type % 7 : type;
        put16(p, type);
        if (type <= E810_SW_RULE_LKUP_TX) {
            unsigned hl = take(in, 1);
            uint32_t act = take(in, 4);

            put16(p + 4, take(in, 1) % 11);
            put16(p + 6, take(in, 1) & 1 ? vsi_num(in) : 0);
            if (!(act & 0x80000000u)) {
                act = (act & ~E810_SW_ACT_VSI_ID) |
                      FIELD_PREP(E810_SW_ACT_VSI_ID, vsi_num(in));
            }
            put32(p + 8, act);
            put16(p + 12, take(in, 1) & 0x80 ? take(in, 2) : take(in, 1) & 7);
            hl = hl < 0xf0 ? E810_SW_RULE_DUMMY_ETH_LEN : hl & 0x1f;
            put16(p + 14, hl);
            fill(in, p + 16, hl);
            off += 16 + hl;
        } else {
            unsigned nv = take(in, 1) % 9;

            put16(p + 4, take(in, 1) & 0x80 ? take(in, 2) : take(in, 1) & 7);
            put16(p + 6, nv);
            for (j = 0; j < nv; j++) {
                put16(p + 8 + 2 * j, vsi_num(in));
            }
            off += 8 + 2 * nv;
        }
    }
    c->len = off;
    skew_len(in, c);
}

/* 0x0210 add, 0x0211 update, 0x0212 get, 0x0213 free a VSI. */
static void b_vsi(Input *in, Cmd *c)
{
    static const uint16_t opcs[4] = {
        E810_AQC_ADD_VSI, E810_AQC_UPDATE_VSI, E810_AQC_GET_VSI_PARAMS,
        E810_AQC_FREE_VSI,
    };
    unsigned k = take(in, 1);
    struct e810_aqc_vsi_props *pr;

    cmd_start(c, opcs[k & 3], sizeof(*pr));
    pr = (void *)c->buf;
    put16(c->params, (k & 4 ? 0 : E810_AQ_VSI_IS_VALID) | vsi_num(in));
    put16(c->params + 2, take(in, 1));
    put16(c->params + 6, k & 8 ? take(in, 1) : E810_AQ_VSI_TYPE_PF);
    fill(in, c->buf, sizeof(*pr));
    if (!(k & 0x10)) {
        /* Queue map and options as ice_vsi_setup_q_map() leaves them. */
        pr->mapping_flags &= htole16(E810_AQ_VSI_Q_MAP_NONCONTIG);
        pr->q_mapping[0] = htole16(le16toh(pr->q_mapping[0]) % 2048);
        pr->q_mapping[1] = htole16(le16toh(pr->q_mapping[1]) % 64);
        pr->q_opt_rss &= ~1;
    }
    if ((k & 3) == 2 || (k & 3) == 3) {
        c->flags = 0;
    }
    skew_len(in, c);
}

static void b_res(Input *in, Cmd *c)
{
    static const uint8_t types[8] = {
        E810_AQC_RES_VSI_LIST_REP, E810_AQC_RES_VSI_LIST_PRUNE,
        E810_AQC_RES_RECIPE, E810_AQC_RES_FD_COUNTER_BLOCK,
        E810_AQC_RES_FD_PROF_ID, E810_AQC_RES_HASH_PROF_ID,
        E810_AQC_RES_HASH_TCAM, E810_AQC_RES_FD_TCAM,
    };
    unsigned k = take(in, 1), i, n = count(in, 4);

    cmd_start(c, k & 1 ? E810_AQC_FREE_RES : E810_AQC_ALLOC_RES, 4 + 2 * n);
    put16(c->params, k & 0x80 ? take(in, 1) : 1);
    put16(c->buf, (k & 0x40 ? take(in, 2) & ~0x7f : 0) | types[k >> 1 & 7]);
    put16(c->buf + 2, n);
    for (i = 0; i < n; i++) {
        put16(c->buf + 4 + 2 * i, take(in, 1) & 0x80 ? take(in, 2) :
                                   take(in, 1) & 0xf);
    }
    skew_len(in, c);
}

static uint16_t rss_vsi(Input *in)
{
    uint16_t v = vsi_num(in);

    return take(in, 1) == 0xff ? v : v | E810_AQC_RSS_VSI_VALID;
}

static void b_rss_key(Input *in, Cmd *c)
{
    unsigned k = take(in, 1);

    cmd_start(c, k & 1 ? E810_AQC_GET_RSS_KEY : E810_AQC_SET_RSS_KEY,
              E810_RSS_KEY_SIZE);
    put16(c->params, rss_vsi(in));
    fill(in, c->buf, E810_RSS_KEY_SIZE);
    skew_len(in, c);
}

static void b_rss_lut(Input *in, Cmd *c)
{
    static const uint16_t sizes[4] = {
        E810_RSS_LUT_VSI_SIZE, E810_RSS_LUT_PF_SIZE,
        E810_RSS_LUT_GLOBAL_SIZE, 128,
    };
    unsigned k = take(in, 1), type = k >> 1 & 3, flags;

    flags = FIELD_PREP(E810_AQC_LUT_TYPE, type) |
            FIELD_PREP(E810_AQC_LUT_SIZE, type == 1 ? 2 : type == 2 ? 1 : 0) |
            FIELD_PREP(E810_AQC_LUT_GLOBAL_IDX, take(in, 1));
    if (k & 0x80) {
        flags = take(in, 2);
    }
    cmd_start(c, k & 1 ? E810_AQC_GET_RSS_LUT : E810_AQC_SET_RSS_LUT,
              sizes[type]);
    put16(c->params, rss_vsi(in));
    put16(c->params + 2, flags);
    fill(in, c->buf, c->len > 64 ? 64 : c->len);
    skew_len(in, c);
}

/* 0x0701 NVM read, 0x0706 checksum. */
static void b_nvm(Input *in, Cmd *c)
{
    unsigned k = take(in, 1);
    uint32_t off = take(in, 3), len = take(in, 2);

    if (k & 1) {
        cmd_start(c, E810_AQC_NVM_CHECKSUM, 0);
        c->params[0] = take(in, 1);
        return;
    }
    if (!(k & 2)) {
        off &= 0x1fff;
        len = 1 + len % 512;
    }
    len = len % (E810_AQ_MAX_BUF + 1);
    cmd_start(c, E810_AQC_NVM_READ, len ? len : 1);
    c->flags = 0;
    put16(c->params, off);
    c->params[2] = off >> 16;
    c->params[3] = take(in, 1);
    put16(c->params + 4, k & 4 ? E810_AQC_NVM_TX_TOPO_MOD_ID :
                         k & 8 ? take(in, 2) : E810_AQC_NVM_START_POINT);
    put16(c->params + 6, k & 0x10 ? take(in, 2) : len);
}

/* 0x0008 request / 0x0009 release a resource. */
static void b_res_own(Input *in, Cmd *c)
{
    unsigned k = take(in, 1);

    cmd_start(c, k & 1 ? E810_AQC_RELEASE_RES : E810_AQC_REQ_RES, 0);
    put16(c->params, k & 0x80 ? take(in, 2) : 1 + (k >> 1 & 3));
    put16(c->params + 2, k & 0x40 ? take(in, 2) : 1 + (k >> 3 & 1));
    put32(c->params + 4, k & 0x20 ? take(in, 4) : 0);
    put32(c->params + 8, k & 0x10 ? take(in, 4) : 0);
}

/* ice_acquire_global_cfg_lock() before a download. */
static void take_glbl_lock(void)
{
    Cmd *c = &cmdbuf;

    cmd_start(c, E810_AQC_REQ_RES, 0);
    put16(c->params, E810_AQ_RES_ID_GLBL_LOCK);
    put16(c->params + 2, E810_AQ_RES_ACCESS_WRITE);
    send(c);
    fz->glbl_lock = last_retval() == E810_AQ_RC_OK;
}

static uint32_t sect_type(Input *in)
{
    static const uint32_t types[8] = {
        E810_SID_MANIFEST, E810_SID_BUF_HASHES, E810_SID_METADATA,
        E810_SID_RXPARSER_METADATA_INIT, E810_SID_RXPARSER_BOOST_TCAM,
        E810_SID_TXPARSER_BOOST_TCAM, E810_PKG_METADATA_BUF | 1, 0,
    };
    unsigned v = take(in, 1);

    return v < 0xf8 ? types[v & 7] : (uint32_t)take(in, 4);
}

/* A 4 KiB package buffer: header, section table, section contents. */
static void pkg_buf(Input *in, uint8_t *b, unsigned len)
{
    unsigned i, n = count(in, 4), v = take(in, 1);
    unsigned data_end = v < 0xe0 ? len - v * 8 : take(in, 2);
    unsigned table_end = 4 + 8 * n;

    put16(b, n);
    put16(b + 2, data_end);
    for (i = 0; i < n && table_end <= len; i++) {
        uint8_t *e = b + 4 + 8 * i;
        unsigned span = data_end > table_end && data_end <= len ?
                        data_end - table_end : 1;
        unsigned off = table_end + take(in, 2) % span, size;
        uint32_t type = sect_type(in);

        v = take(in, 1);
        size = off < data_end ? data_end - off : 1;
        size = v < 0xf0 ? 1 + take(in, 2) % size : take(in, 2);
        if (v & 0x80 && v < 0xf0) {
            size = data_end > off ? data_end - off : 1;
        }
        put32(e, type);
        put16(e + 4, off);
        put16(e + 6, size);
        if (off + 4 > len) {
            continue;
        }
        if (type == E810_SID_BUF_HASHES) {
            uint32_t nh = take(in, 1) % 4;

            put32(b + off, nh);
            if (!(v & 0x40)) {
                put16(e + 6, 4 + 32 * nh);
            }
        } else if (type == E810_SID_RXPARSER_METADATA_INIT) {
            unsigned cnt = take(in, 1) % 8;

            put16(b + off, cnt);
            put16(b + off + 2, take(in, 1) % 72);
            if (!(v & 0x40) && off + 4 + 24 * cnt <= len) {
                put16(e + 6, 4 + 24 * cnt);
                fill(in, b + off + 4, 24 * cnt);
            }
        } else if (v & 0x20) {
            fill(in, b + off, off + 36 <= len ? 36 : len - off);
        }
    }
}

/* One section @type of @size bytes at @off, the only one of its buffer. */
static void one_section(uint8_t *b, uint32_t type, unsigned size)
{
    memset(b, 0, E810_PKG_BUF_SIZE);
    put16(b, 1);
    put16(b + 2, E810_PKG_BUF_SIZE);
    put32(b + 4, type);
    put16(b + 8, 12);
    put16(b + 10, size);
}

/*
 * ice_dwnld_cfg_bufs_no_lock() with a small well-formed package: the
 * manifest, one hash table, one configuration buffer (metadata, Rx parser
 * metadata init with the DVM bit), then the lock is released.
 */
static void ddp_download(void)
{
    Cmd *c = &cmdbuf;
    uint8_t *b = c->buf;

    take_glbl_lock();
    cmd_start(c, E810_AQC_DOWNLOAD_PKG, E810_PKG_BUF_SIZE);
    one_section(b, E810_SID_MANIFEST, 64);
    send(c);
    cmd_start(c, E810_AQC_DOWNLOAD_PKG, E810_PKG_BUF_SIZE);
    one_section(b, E810_SID_BUF_HASHES, 4 + 32);
    put32(b + 12, 1);
    send(c);
    cmd_start(c, E810_AQC_DOWNLOAD_PKG, E810_PKG_BUF_SIZE);
    c->params[0] = E810_AQC_DOWNLOAD_PKG_LAST_BUF;
    put16(b, 2);
    put16(b + 2, E810_PKG_BUF_SIZE);
    put32(b + 4, E810_SID_METADATA);
    put16(b + 8, 20);
    put16(b + 10, sizeof(struct e810_pkg_meta_sect));
    put32(b + 12, E810_SID_RXPARSER_METADATA_INIT);
    put16(b + 16, 64);
    put16(b + 18, 4 + E810_META_INIT_ENTRY_SIZE);
    b[20] = 1;
    b[21] = 3;
    b[22] = 30;
    memcpy(b + 24, "ICE OS Default Package", 22);
    put16(b + 64, 1);
    b[68 + E810_META_VLAN_MODE_BIT / 8] = 1u << (E810_META_VLAN_MODE_BIT % 8);
    send(c);
    cmd_start(c, E810_AQC_RELEASE_RES, 0);
    put16(c->params, E810_AQ_RES_ID_GLBL_LOCK);
    send(c);
    fz->glbl_lock = false;
}

/* 0x0C40 download (global config lock first, as ice does). */
static void b_ddp_dl(Input *in, Cmd *c)
{
    unsigned k = take(in, 1);

    if (!fz->glbl_lock && !(k & 0x80)) {
        take_glbl_lock();
    }
    cmd_start(c, E810_AQC_DOWNLOAD_PKG, E810_PKG_BUF_SIZE);
    c->params[0] = k & 1;
    pkg_buf(in, c->buf, c->len);
    skew_len(in, c);
}

/* 0x0C41 upload, 0x0C42 update, 0x0C43 info list, 0x020C/0x020D VLAN mode. */
static void b_ddp_other(Input *in, Cmd *c)
{
    static const uint16_t opcs[8] = {
        E810_AQC_UPLOAD_SECTION, E810_AQC_UPLOAD_SECTION,
        E810_AQC_UPDATE_PKG, E810_AQC_UPDATE_PKG, E810_AQC_GET_PKG_INFO_LIST,
        E810_AQC_SET_VLAN_MODE, E810_AQC_GET_VLAN_MODE, E810_AQC_RESTART_AN,
    };
    unsigned k = take(in, 1), len;
    uint16_t opc = opcs[k & 7];

    if (opc == E810_AQC_GET_PKG_INFO_LIST) {
        cmd_start(c, opc, 4 + 40 * (take(in, 1) % 5));
        c->flags = 0;
    } else if (opc == E810_AQC_SET_VLAN_MODE || opc == E810_AQC_GET_VLAN_MODE) {
        cmd_start(c, opc, 100);
        fill(in, c->buf, 100);
    } else if (opc == E810_AQC_RESTART_AN) {
        cmd_start(c, E810_AQC_UPDATE_PKG, 0);      /* no buffer at all */
    } else {
        len = k & 0x80 ? 12 + take(in, 2) % (E810_PKG_BUF_SIZE - 11) :
                         E810_PKG_BUF_SIZE;
        if (k & 0x40 && opc == E810_AQC_UPDATE_PKG && !fz->glbl_lock) {
            take_glbl_lock();
        }
        cmd_start(c, opc, len);
        pkg_buf(in, c->buf, len);
    }
    c->params[0] = k >> 3 & 1;
    skew_len(in, c);
}

/* PHY: 0x0600 caps, 0x0601 config, 0x0605 restart AN, 0x0607, 0x0613, 0x0603. */
static void b_phy(Input *in, Cmd *c)
{
    unsigned k = take(in, 1);

    switch (k % 6) {
    case 0:
        cmd_start(c, E810_AQC_GET_PHY_CAPS,
                  k & 0x80 ? 1 + take(in, 2) % 1024 :
                  sizeof(struct e810_aqc_get_phy_caps_data));
        c->flags = 0;
        put16(c->params + 2, take(in, 1));
        break;
    case 1:
        cmd_start(c, E810_AQC_SET_PHY_CFG,
                  sizeof(struct e810_aqc_set_phy_cfg_data));
        c->params[0] = k & 0x80 ? take(in, 1) : 0;
        fill(in, c->buf, c->len);
        break;
    case 2:
        cmd_start(c, E810_AQC_RESTART_AN, 0);
        c->params[0] = k & 0x80 ? take(in, 1) : 0;
        c->params[2] = take(in, 1);
        break;
    case 3:
        cmd_start(c, E810_AQC_GET_LINK_STATUS,
                  k & 0x80 ? take(in, 1) : 32);
        c->flags = 0;
        put16(c->params + 2, k & 0x40 ? take(in, 2) : E810_AQ_LSE_ENA);
        break;
    case 4:
        cmd_start(c, E810_AQC_SET_EVENT_MASK, 0);
        put16(c->params + 8, take(in, 2));
        break;
    default:
        cmd_start(c, E810_AQC_SET_MAC_CFG, 0);
        fill(in, c->params, 16);
        break;
    }
    if (k & 0x20 && c->len) {
        skew_len(in, c);
    }
}

static void b_lldp(Input *in, Cmd *c)
{
    unsigned k = take(in, 1), len = take(in, 2) % (E810_LLDPDU_SIZE + 64);

    cmd_start(c, E810_AQC_LLDP_SET_LOCAL_MIB, len);
    c->params[0] = k;
    put16(c->params + 2, k & 0x80 ? take(in, 2) : len);
    fill(in, c->buf, len > 256 ? 256 : len);
}

static void b_pfc(Input *in, Cmd *c)
{
    unsigned k = take(in, 1);

    cmd_start(c, k & 1 ? E810_AQC_SET_PFC_MODE : E810_AQC_QUERY_PFC_MODE, 0);
    c->params[0] = k & 0x80 ? take(in, 1) : k >> 1 & 3;
}

/* Generic commands and anything else: raw params, any buffer. */
static void b_generic(Input *in, Cmd *c)
{
    static const uint16_t opcs[12] = {
        E810_AQC_GET_VER, E810_AQC_DRIVER_VER, E810_AQC_Q_SHUTDOWN,
        E810_AQC_LIST_FUNC_CAPS, E810_AQC_LIST_DEV_CAPS,
        E810_AQC_MANAGE_MAC_READ, E810_AQC_CLEAR_PXE, E810_AQC_GET_SW_CFG,
        E810_AQC_SET_PORT_PARAMS, E810_AQC_CLEAR_PF_CFG, E810_AQC_GET_SW_RULES,
        0,
    };
    unsigned k = take(in, 1), len = take(in, 1) & 0x80 ? take(in, 2) : 0;

    len %= E810_AQ_MAX_BUF + 1;
    cmd_start(c, k < 0xf0 ? opcs[k % 12] : take(in, 2), len);
    if (c->opc == 0) {
        c->opc = take(in, 2);
    }
    fill(in, c->params, 16);
    fill(in, c->buf, len > 64 ? 64 : len);
    c->flags |= take(in, 1) & 0x80 ? take(in, 2) &
                ~(E810_AQ_FLAG_BUF | E810_AQ_FLAG_LB) : 0;
}

typedef void BuildFn(Input *in, Cmd *c);

static BuildFn *const families[] = {
    b_add_txqs, b_dis_txqs, b_add_qsets, b_add_elems, b_del_elems,
    b_elem_list, b_move_elems, b_sched_query, b_sw_rules, b_vsi, b_res,
    b_rss_key, b_rss_lut, b_nvm, b_res_own, b_ddp_dl, b_ddp_other, b_phy,
    b_lldp, b_pfc, b_generic,
};

#define NFAMILIES (sizeof(families) / sizeof(families[0]))

static void family(Input *in, unsigned f)
{
    families[f % NFAMILIES](in, &cmdbuf);
    send(&cmdbuf);
    if (cmdbuf.opc == E810_AQC_RELEASE_RES ||
        cmdbuf.opc == E810_AQC_CLEAR_PF_CFG ||
        cmdbuf.opc == E810_AQC_Q_SHUTDOWN) {
        fz->glbl_lock = false;
    }
}

/* ---- resets, link and ARQ trouble --------------------------------------------- */

static void pf_reset(void)
{
    wr(E810_PFGEN_CTRL, E810_PFGEN_CTRL_PFSWR);
    run();
    fz->glbl_lock = false;
    aq_init();
}

static void core_reset(bool global)
{
    wr(E810_GLGEN_RTRIG, global ? E810_GLGEN_RTRIG_GLOBR :
                                  E810_GLGEN_RTRIG_CORER);
    run();
    fz->glbl_lock = false;
    aq_init();
}

static const uint32_t aq_regs[10] = {
    E810_PF_FW_ATQBAL, E810_PF_FW_ATQBAH, E810_PF_FW_ATQLEN, E810_PF_FW_ATQH,
    E810_PF_FW_ATQT, E810_PF_FW_ARQBAL, E810_PF_FW_ARQBAH, E810_PF_FW_ARQLEN,
    E810_PF_FW_ARQH, E810_PF_FW_ARQT,
};

/* A value for AQ register @r: plausible or raw. */
static uint32_t reg_val(Input *in, unsigned r)
{
    unsigned v = take(in, 1);

    switch (v & 3) {
    case 0:
        return take(in, 4);
    case 1:     /* a ring length, enabled or not */
        return (v >> 2 & 1 ? E810_PF_FW_AQLEN_ENABLE : 0) |
               (take(in, 1) & 0x80 ? take(in, 2) & 0x3ff : 1 + (v >> 3) % 32);
    case 2:     /* an address in (or at the edge of) the arena */
        if (aq_regs[r] == E810_PF_FW_ATQBAH || aq_regs[r] == E810_PF_FW_ARQBAH) {
            return ARENA_BASE >> 32;
        }
        return (uint32_t)(ARENA_BASE + (take(in, 3) % (ARENA_SIZE + 0x800)));
    default:    /* a head or tail */
        return v >> 2;
    }
}

/* An address for a raw descriptor's buffer. */
static uint64_t buf_addr(Input *in)
{
    switch (take(in, 1) & 3) {
    case 0:
        return ARENA_BASE + A_BUF + take(in, 2) % (ARENA_SIZE - A_BUF);
    case 1:
        return ARENA_BASE + ARENA_SIZE - take(in, 2);
    case 2:
        return take(in, 8);
    default:
        return ARENA_BASE + A_BUF + (take(in, 1) % NSLOT) * E810_AQ_MAX_BUF;
    }
}

/* One raw step: ring registers, descriptors, buffer bytes, link, resets. */
static void raw_step(Input *in)
{
    unsigned op = take(in, 1), i;
    struct e810_aq_desc d;
    uint64_t a;

    switch (op % 10) {
    case 0:     /* a raw descriptor at a ring slot, buffer maybe folded */
    case 1:
        i = take(in, 1);
        fill(in, (uint8_t *)&d, sizeof(d));
        if (op & 0x10) {
            a = buf_addr(in);
            d.params.generic.addr_high = htole32(a >> 32);
            d.params.generic.addr_low = htole32((uint32_t)a);
        }
        if (op & 0x20) {
            d.opcode = htole16(take(in, 2));
        }
        if (i & 0x80) {
            memcpy(fz->mem + A_ARQ + (i % ARQ_LEN) * E810_AQ_DESC_SIZE, &d,
                   sizeof(d));
        } else {
            memcpy(fz->mem + A_ATQ + (i % ATQ_LEN) * E810_AQ_DESC_SIZE, &d,
                   sizeof(d));
        }
        break;
    case 2:     /* bytes anywhere in the arena */
        a = take(in, 3) % ARENA_SIZE;
        i = take(in, 1);
        fill(in, fz->mem + a, a + i <= ARENA_SIZE ? i : ARENA_SIZE - a);
        break;
    case 3:     /* an AQ register */
        i = take(in, 1) % 10;
        wr(aq_regs[i], reg_val(in, i));
        break;
    case 4:
        run();
        break;
    case 5:     /* the tail moves by a few */
        fz->atq_tail = (fz->atq_tail + 1 + take(in, 1) % 4) % ATQ_LEN;
        wr(E810_PF_FW_ATQT, fz->atq_tail);
        run();
        break;
    case 6:
        e810_core_set_link(&fz->core, op & 0x10);
        break;
    case 7:     /* a well-formed command among the raw ones */
        family(in, take(in, 1));
        break;
    case 8:
        if (op & 0x10) {
            pf_reset();
        } else if (op & 0x20) {
            core_reset(op & 0x40);
        } else {
            aq_init();
        }
        break;
    default:    /* the driver reads the registers and the ARQ */
        for (i = 0; i < 10; i++) {
            rd(aq_regs[i]);
        }
        if (op & 0x10) {
            arq_drain();
        }
        break;
    }
}

/* One sequence step: mostly a command, sometimes a reset or a link flap. */
static void seq_step(Input *in)
{
    unsigned op = take(in, 1);

    if (op < 0xd0) {
        family(in, op);
        return;
    }
    switch (op & 7) {
    case 0:
        pf_reset();
        break;
    case 1:
        core_reset(op & 8);
        break;
    case 2:
        cmd_start(&cmdbuf, E810_AQC_CLEAR_PF_CFG, 0);
        send(&cmdbuf);
        fz->glbl_lock = false;
        break;
    case 3:
    case 4:
        e810_core_set_link(&fz->core, op & 1);
        break;
    case 5:
        arq_drain();
        break;
    default:    /* ARQ trouble, then the link changes */
        op = take(in, 1) % 5;
        wr(aq_regs[5 + op], reg_val(in, 5 + op));
        e810_core_set_link(&fz->core, !fz->core.link_up);
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Input in = { data, size };
    unsigned mode, fam, n;

    if (!arena_core) {
        arena_bind(&fz->core, fz->mem);
    }
    /* Power-on state and zeroed guest memory: every input starts alike. */
    e810_core_reset(&fz->core);
    memset(fz->mem, 0, sizeof(fz->mem));
    fz->slot = 0;
    fz->glbl_lock = false;
    mode = take(&in, 1);
    e810_core_set_link(&fz->core, mode & 4);
    aq_init();
    if (mode & 8) {
        /* ice_init_hw() order: LSE on, the PF VSI added. */
        cmd_start(&cmdbuf, E810_AQC_GET_LINK_STATUS, 32);
        cmdbuf.flags = 0;
        put16(cmdbuf.params + 2, E810_AQ_LSE_ENA);
        send(&cmdbuf);
        cmd_start(&cmdbuf, E810_AQC_ADD_VSI, sizeof(struct e810_aqc_vsi_props));
        put16(cmdbuf.params + 6, E810_AQ_VSI_TYPE_PF);
        send(&cmdbuf);
    }
    if (mode & 0x10) {
        ddp_download();
    }
    switch (mode % 3) {
    case 0:
        for (n = 0; in.left && n < 4 * MAX_STEPS; n++) {
            raw_step(&in);
        }
        break;
    case 1:
        fam = take(&in, 1);
        for (n = 0; in.left && n < MAX_STEPS; n++) {
            family(&in, fam);
        }
        break;
    default:
        for (n = 0; in.left && n < MAX_STEPS; n++) {
            seq_step(&in);
        }
        break;
    }
    run();
    return 0;
}
