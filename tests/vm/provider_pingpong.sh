#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite ice
# rdma-driver: ours stock
# timeout: 600
# boot: shared
# kernel: 6.1 7
# Data path through each user-space provider: ibv_rc_pingpong -c (receive
# buffer validated on the server) and ibv_ud_pingpong between irdma0 and
# irdma1 for several sizes, once with the stock irdma provider and once
# with ours (RDMAV_DRIVERS, docs/testing.md). With ours also one
# ibv_rc_pingpong -N run and a pyverbs test of ibv_qp_ex/ibv_cq_ex: send
# with immediate over an SGE list, inline send, RDMA write (+immediate),
# RDMA read, wr_abort and a batched post, each payload compared. Under
# our irdma, with both providers, a UD QP's send error (SQE) and its
# SQE -> RTS recovery (progs/ud_sqe.c; the stock irdma.ko moves the QP to
# ERR as upstream does, so not there). One
# long RC run (1200 round trips) makes every ring wrap. Port 1 lives in namespace "peer", so the
# RoCEv2 traffic really crosses the hub. Each run must exit 0 on both
# sides and report size * iters * 2 bytes moved.
#
# With our irdma also its hardware counters (`rdma statistic show`,
# hw_counters_check in guest-lib.sh; stock_irdma does the same for the
# stock irdma) and an MR over a dma-buf from /dev/udmabuf used by RDMA
# WRITE and READ (progs/dmabuf_mr.c).
#
# Skips (77) when a provider cannot create its queues yet because the
# kernel answers EOPNOTSUPP (CQ/QP create or modify not implemented).
. "$E810_LIB"

# Development runs may set OURS_OVERRIDE (a scratch copy of the provider)
# and PROVIDERS_OVERRIDE ("stock", "ours" or both, the default).
OURS=${OURS_OVERRIDE:-/usr/lib/x86_64-linux-gnu/libibverbs/e810/libirdma}
ITERS=50
RC_SIZES="1 64 1024 4096 65536"
UD_SIZES="1 256 1000"
SKIPS=""

rdma_two_ports || finish
if [ "${E810_RDMA_DRIVER:-ours}" != stock ]; then
	hw_counters_check
	# An MR over a udmabuf dma-buf (reg_user_mr_dmabuf), our provider.
	# dmabuf_mr exits 77 without /dev/udmabuf: bookworm's 6.1 is built
	# without it (CONFIG_UDMABUF is not set), so there that part is
	# not run, said with its reason; any other kernel must have it.
	st=0
	(E810_PROVIDER=ours provider_env &&
	 /mnt/host/progs/dmabuf_mr "$ib0" 192.168.81.1 >/tmp/dmabuf.log 2>&1) || st=$?
	if [ $st = 0 ]; then
		ok "dma-buf MR: $(grep -c '^ok' /tmp/dmabuf.log) checks passed (dmabuf_mr)"
	elif [ $st = 77 ] &&
	     grep -qx '# CONFIG_UDMABUF is not set' "/boot/config-$(uname -r)"; then
		echo "note: dma-buf MR not run: $(uname -r) is built without udmabuf (CONFIG_UDMABUF is not set)"
	else
		fail "dma-buf MR: $(grep -v '^ok' /tmp/dmabuf.log | head -n 5)"
	fi
fi

# Creates a PD, a CQ and RC and UD QPs on $ib0 with the current provider
# and moves the QPs to INIT; prints "ok" or the failing step and errno.
qp_probe() {
	python3 - "$ib0" <<'EOF'
import errno, sys
from pyverbs.device import Context
from pyverbs.pd import PD
from pyverbs.cq import CQ
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.pyverbs_error import PyverbsRDMAError, PyverbsError
import pyverbs.enums as e
step = "open"
try:
    ctx = Context(name=sys.argv[1])
    step = "pd"; pd = PD(ctx)
    step = "cq"; cq = CQ(ctx, 16)
    cap = QPCap(max_send_wr=8, max_recv_wr=8, max_send_sge=1, max_recv_sge=1)
    for t in (e.IBV_QPT_RC, e.IBV_QPT_UD):
        step = "qp"
        qp = QP(pd, QPInitAttr(qp_type=t, scq=cq, rcq=cq, cap=cap))
        step = "modify-init"
        a = QPAttr(qp_state=e.IBV_QPS_INIT)
        a.pkey_index = 0
        a.port_num = 1
        mask = e.IBV_QP_STATE | e.IBV_QP_PKEY_INDEX | e.IBV_QP_PORT
        if t == e.IBV_QPT_RC:
            a.qp_access_flags = e.IBV_ACCESS_LOCAL_WRITE
            mask |= e.IBV_QP_ACCESS_FLAGS
        else:
            a.qkey = 0x11111111
            mask |= e.IBV_QP_QKEY
        qp.modify(a, mask)
        qp.close()
    print("ok")
except (PyverbsRDMAError, PyverbsError) as ex:
    code = getattr(ex, "error_code", 0)
    print(step, errno.errorcode.get(abs(code), str(code)))
EOF
}

# run_pp LABEL TOOL SIZE [ARGS...]: server on $ib1 (namespace peer), client
# on $ib0; both must succeed and move SIZE * ITERS * 2 bytes.
run_pp() {
	local label=$1 tool=$2 size=$3 want sp srv cli
	shift 3
	want=$((size * ITERS * 2))
	srv=$(mktemp) cli=$(mktemp)
	ip netns exec peer timeout 30 "$tool" -d "$ib1" -g "$g1" -s "$size" \
		-n "$ITERS" "$@" >"$srv" 2>&1 &
	sp=$!
	# The server listens once its QP exists: a loaded host (or a slow
	# kernel) takes more than the second this used to wait.
	wait_for "ip netns exec peer ss -ltn | grep -q ':18515 '" 20 ||
		echo "note: $tool server not listening after 20 s"
	timeout 25 "$tool" -d "$ib0" -g "$g0" -s "$size" -n "$ITERS" "$@" \
		192.168.81.2 >"$cli" 2>&1
	local crc=$? src
	wait "$sp"
	src=$?
	if [ $crc -eq 0 ] && [ $src -eq 0 ] &&
	   grep -q "^$want bytes in" "$cli" && grep -q "^$want bytes in" "$srv" &&
	   ! grep -q 'invalid data' "$srv"; then
		ok "$label: $tool $* -s $size: $want bytes each way, data valid"
		return 0
	else
		fail "$label: $tool $* -s $size (client rc $crc, server rc $src)"
		sed 's/^/  client: /' "$cli" | tail -5
		sed 's/^/  server: /' "$srv" | tail -5
	fi
	rm -f "$srv" "$cli"
	return 1
}

# ibv_qp_ex + ibv_cq_ex between $ib0 and $ib1 in one process (ours only:
# the stock provider offers neither on E810). Every operation's data is
# compared byte for byte and its completion fields checked; prints one
# "ok:"/"FAIL:" line per check.
qpx_ops() {
	timeout 90 python3 - "$ib0" "$g0" "$ib1" "$g1" <<'EOF'
import errno, os, socket, sys, time
from pyverbs.device import Context
from pyverbs.pd import PD
from pyverbs.mr import MR
from pyverbs.cq import CQEX, CqInitAttrEx, PollCqAttr
from pyverbs.qp import QPEx, QPInitAttrEx, QPCap, QPAttr, DataBuffer
from pyverbs.addr import AHAttr, GlobalRoute
from pyverbs.wr import SGE, RecvWR
from pyverbs.pyverbs_error import PyverbsRDMAError
import pyverbs.enums as e

ACC = (e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE |
       e.IBV_ACCESS_REMOTE_READ | e.IBV_ACCESS_MW_BIND)
OPS = (e.IBV_QP_EX_WITH_SEND | e.IBV_QP_EX_WITH_SEND_WITH_IMM |
       e.IBV_QP_EX_WITH_RDMA_WRITE | e.IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
       e.IBV_QP_EX_WITH_RDMA_READ | e.IBV_QP_EX_WITH_BIND_MW)
WCF = (e.IBV_WC_EX_WITH_BYTE_LEN | e.IBV_WC_EX_WITH_IMM |
       e.IBV_WC_EX_WITH_QP_NUM | e.IBV_WC_EX_WITH_SRC_QP)
fails = 0


def check(what, cond, detail=""):
    global fails
    print(("ok: " if cond else "FAIL: ") + what +
          ("" if cond else " " + detail), flush=True)
    fails += 0 if cond else 1


def rc_connect(qp, gidx, peer_gid, peer_qpn):
    a = QPAttr()
    a.path_mtu = e.IBV_MTU_1024
    a.dest_qp_num = peer_qpn
    a.rq_psn = 0
    a.sq_psn = 0
    a.max_dest_rd_atomic = 1
    a.max_rd_atomic = 1
    a.min_rnr_timer = 12
    a.timeout = 14
    a.retry_cnt = 7
    a.rnr_retry = 7
    a.qp_access_flags = ACC
    a.pkey_index = 0
    a.port_num = 1
    gr = GlobalRoute(dgid=peer_gid, sgid_index=gidx, hop_limit=64)
    a.ah_attr = AHAttr(gr=gr, is_global=1, port_num=1)
    qp.to_rts(a)


class Side:
    def __init__(self, name, gidx):
        self.ctx = Context(name=name)
        self.gidx = gidx
        self.gid = self.ctx.query_gid(1, gidx)
        self.pd = PD(self.ctx)
        self.mr = MR(self.pd, 2048, ACC)
        self.cq = CQEX(self.ctx, CqInitAttrEx(cqe=64, wc_flags=WCF))
        cap = QPCap(max_send_wr=16, max_recv_wr=16, max_send_sge=4,
                    max_recv_sge=4, max_inline_data=64)
        ia = QPInitAttrEx(qp_type=e.IBV_QPT_RC, scq=self.cq, rcq=self.cq,
                          cap=cap, pd=self.pd, send_ops_flags=OPS,
                          comp_mask=e.IBV_QP_INIT_ATTR_PD |
                          e.IBV_QP_INIT_ATTR_SEND_OPS_FLAGS)
        self.qp = QPEx(self.ctx, ia)

    def connect(self, peer):
        rc_connect(self.qp, self.gidx, peer.gid, peer.qp.qp_num)

    def recv(self, wr_id, off, length):
        sge = SGE(self.mr.buf + off, length, self.mr.lkey)
        self.qp.post_recv(RecvWR(wr_id=wr_id, num_sge=1, sg=[sge]))

    def poll(self, wait=10):
        """One completion as a dict, or None after `wait` seconds."""
        end = time.time() + wait
        while time.time() < end:
            if self.cq.start_poll(PollCqAttr()) == 0:
                c = dict(wr_id=self.cq.wr_id, status=self.cq.status,
                         op=self.cq.read_opcode(),
                         len=self.cq.read_byte_len(),
                         flags=self.cq.read_wc_flags(),
                         imm=self.cq.read_imm_data(),
                         qpn=self.cq.read_qp_num(),
                         src=self.cq.read_src_qp())
                self.cq.end_poll()
                return c
            time.sleep(0.001)
        return None


def fresh(side, n, off):
    data = os.urandom(n)
    side.mr.write(data, n, off)
    return data


def begin(wr_id, signaled=True):
    a.qp.wr_id = wr_id
    a.qp.wr_flags = e.IBV_SEND_SIGNALED if signaled else 0


def send_done(what, wr_id, n=None):
    c = a.poll()
    check(what + ": send completion", c is not None and c["status"] == 0 and
          c["wr_id"] == wr_id and c["qpn"] == a.qp.qp_num and
          (n is None or c["len"] == n), str(c))
    return c or {}


a = Side(sys.argv[1], int(sys.argv[2]))
b = Side(sys.argv[3], int(sys.argv[4]))
a.connect(b)
b.connect(a)
check("RC QPs (ibv_qp_ex) %d <-> %d in RTS" % (a.qp.qp_num, b.qp.qp_num),
      True)

# 1. SEND_WITH_IMM gathering two SGEs
b.recv(101, 0, 1024)
p1 = fresh(a, 100, 0)
p2 = fresh(a, 60, 300)
a.qp.wr_start()
begin(1)
a.qp.wr_send_imm(0x1234abcd)
a.qp.wr_set_sge_list(2, [SGE(a.mr.buf, 100, a.mr.lkey),
                         SGE(a.mr.buf + 300, 60, a.mr.lkey)])
a.qp.wr_complete()
send_done("send_imm", 1)
c = b.poll() or {}
check("send_imm: receive", c.get("status") == 0 and c.get("wr_id") == 101 and
      c.get("op") == e.IBV_WC_RECV and c.get("len") == 160 and
      bool(c.get("flags", 0) & e.IBV_WC_WITH_IMM) and
      c.get("imm") == socket.htonl(0x1234abcd) and
      c.get("qpn") == b.qp.qp_num, str(c))
check("send_imm: payload", b.mr.read(160, 0) == p1 + p2)

# 2. inline SEND from two buffers that are overwritten before complete
b.recv(102, 0, 1024)
want = fresh(a, 30, 1024) + fresh(a, 20, 1100)
a.qp.wr_start()
begin(2)
a.qp.wr_send()
a.qp.wr_set_inline_data_list(2, [DataBuffer(a.mr.buf + 1024, 30),
                                 DataBuffer(a.mr.buf + 1100, 20)])
a.mr.write(b"\0" * 100, 100, 1024)
a.qp.wr_complete()
send_done("inline send", 2)
c = b.poll() or {}
check("inline send: receive", c.get("status") == 0 and c.get("len") == 50 and
      not c.get("flags", 0) & e.IBV_WC_WITH_IMM, str(c))
check("inline send: payload copied when set", b.mr.read(50, 0) == want)

# 3. RDMA WRITE into b's MR at offset 512
p = fresh(a, 256, 0)
a.qp.wr_start()
begin(3)
a.qp.wr_rdma_write(b.mr.rkey, b.mr.buf + 512)
a.qp.wr_set_sge(SGE(a.mr.buf, 256, a.mr.lkey))
a.qp.wr_complete()
c = send_done("rdma_write", 3)
check("rdma_write: opcode", c.get("op") == e.IBV_WC_RDMA_WRITE, str(c))
check("rdma_write: remote memory", b.mr.read(256, 512) == p)

# 4. RDMA WRITE_WITH_IMM consumes a receive
b.recv(104, 0, 16)
p = fresh(a, 64, 0)
a.qp.wr_start()
begin(4)
a.qp.wr_rdma_write_imm(b.mr.rkey, b.mr.buf + 1536, 0xfeed)
a.qp.wr_set_sge(SGE(a.mr.buf, 64, a.mr.lkey))
a.qp.wr_complete()
send_done("rdma_write_imm", 4)
c = b.poll() or {}
check("rdma_write_imm: receive", c.get("status") == 0 and
      c.get("wr_id") == 104 and c.get("op") == e.IBV_WC_RECV_RDMA_WITH_IMM and
      c.get("imm") == socket.htonl(0xfeed), str(c))
check("rdma_write_imm: remote memory", b.mr.read(64, 1536) == p)

# 5. RDMA READ of b's memory into a's MR at offset 1024
p = fresh(b, 200, 700)
a.qp.wr_start()
begin(5)
a.qp.wr_rdma_read(b.mr.rkey, b.mr.buf + 700)
a.qp.wr_set_sge(SGE(a.mr.buf + 1024, 200, a.mr.lkey))
a.qp.wr_complete()
c = send_done("rdma_read", 5, 200)
check("rdma_read: opcode", c.get("op") == e.IBV_WC_RDMA_READ, str(c))
check("rdma_read: local memory", a.mr.read(200, 1024) == p)

# 6. an aborted WR is never sent; then a batch of 3 unsignaled + 1
#    signaled sends, one doorbell, arrives in order
b.recv(106, 1024, 64)
for i in range(4):
    b.recv(110 + i, 64 * i, 64)
a.qp.wr_start()
begin(60)
a.qp.wr_send()
a.qp.wr_set_sge(SGE(a.mr.buf, 8, a.mr.lkey))
a.qp.wr_abort()
check("wr_abort: no completion", a.poll(1) is None and b.poll(1) is None)
sent = [fresh(a, 32, 32 * i) for i in range(4)]
a.qp.wr_start()
for i in range(4):
    begin(70 + i, i == 3)
    a.qp.wr_send()
    a.qp.wr_set_sge(SGE(a.mr.buf + 32 * i, 32, a.mr.lkey))
a.qp.wr_complete()
send_done("batch of 4", 73)
ids = [c["wr_id"] for c in [b.poll(3) for _ in range(5)] if c]
check("batch: receives in order, aborted WR absent",
      ids == [106, 110, 111, 112], str(ids))
got = [b.mr.read(32, 1024)] + [b.mr.read(32, 64 * i) for i in range(3)]
check("batch: payloads", got == sent)

# 7. ibv_resize_cq (plain CQ, ibv_poll_cq) with a completion still in
#    the old ring: it must come out first, then the one in the new ring
from pyverbs.cq import CQ
from pyverbs.qp import QP, QPInitAttr
from pyverbs.wr import SendWR
cap1 = QPCap(max_send_wr=4, max_recv_wr=4, max_send_sge=1, max_recv_sge=1)
cqa, cqb = CQ(a.ctx, 8), CQ(b.ctx, 8)
qa = QP(a.pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cqa, rcq=cqa, cap=cap1))
qb = QP(b.pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cqb, rcq=cqb, cap=cap1))
rc_connect(qa, a.gidx, b.gid, qb.qp_num)
rc_connect(qb, b.gidx, a.gid, qa.qp_num)


def poll_plain(cq, wait=10):
    end = time.time() + wait
    while time.time() < end:
        n, wcs = cq.poll(1)
        if n:
            return wcs[0]
        time.sleep(0.001)
    return None


def plain_send(wr_id, off):
    data = fresh(a, 40, off)
    qa.post_send(SendWR(wr_id=wr_id, num_sge=1,
                        sg=[SGE(a.mr.buf + off, 40, a.mr.lkey)]))
    w = poll_plain(cqa)
    check("resize: send %d completed" % wr_id,
          w is not None and w.status == 0 and w.wr_id == wr_id, str(w))
    return data


for i in range(2):
    qb.post_recv(RecvWR(wr_id=200 + i, num_sge=1,
                        sg=[SGE(b.mr.buf + 64 * i, 64, b.mr.lkey)]))
d1 = plain_send(21, 0)
time.sleep(0.5)		# its receive CQE is now in the old ring
try:
    cqb.resize(100)
    resized = True
except PyverbsRDMAError as ex:
    resized = False
    print("note: resize_cq not tested: %s" % ex)
    check("resize: refused only as unsupported",
          ex.error_code in (errno.EOPNOTSUPP, errno.ENOSYS), str(ex))
if resized:
    d2 = plain_send(22, 64)
    w1, w2 = poll_plain(cqb), poll_plain(cqb)
    check("resize: old-ring completion first, then the new ring's",
          w1 is not None and w2 is not None and w1.wr_id == 200 and
          w2.wr_id == 201 and w1.status == 0 and w2.status == 0,
          "%s %s" % (w1, w2))
    check("resize: payloads", b.mr.read(40, 0) == d1 and
          b.mr.read(40, 64) == d2)

# 8. ibv_wr_bind_mw: b binds a type 2 window over 512 bytes of its MR at
#    offset 1024 with a key it chose; a writes through the window, then
#    one byte past its end, which must fail (a's QP is in error after
#    that: the last step)
from pyverbs.mr import MW, MWBindInfo
from pyverbs.base import inc_rkey
mw = MW(b.pd, e.IBV_MW_TYPE_2)
key = inc_rkey(mw.rkey)
b.qp.wr_start()
b.qp.wr_id = 801
b.qp.wr_flags = e.IBV_SEND_SIGNALED
b.qp.wr_bind_mw(mw, key, MWBindInfo(b.mr, b.mr.buf + 1024, 512,
                                    e.IBV_ACCESS_REMOTE_WRITE))
b.qp.wr_complete()
c = b.poll() or {}
check("bind_mw: completion", c.get("status") == 0 and c.get("wr_id") == 801 and
      c.get("op") == e.IBV_WC_BIND_MW, str(c))
check("bind_mw: the window has the chosen key", mw.rkey == key,
      "%#x != %#x" % (mw.rkey, key))
p = fresh(a, 128, 0)
a.qp.wr_start()
begin(802)
a.qp.wr_rdma_write(key, b.mr.buf + 1024 + 384)
a.qp.wr_set_sge(SGE(a.mr.buf, 128, a.mr.lkey))
a.qp.wr_complete()
send_done("write through the window", 802)
check("bind_mw: remote memory through the window", b.mr.read(128, 1408) == p)
a.qp.wr_start()
begin(803)
a.qp.wr_rdma_write(key, b.mr.buf + 1024 + 385)
a.qp.wr_set_sge(SGE(a.mr.buf, 128, a.mr.lkey))
a.qp.wr_complete()
c = a.poll() or {}
check("bind_mw: a write one byte past the window fails",
      c.get("status") == e.IBV_WC_REM_ACCESS_ERR and c.get("wr_id") == 803,
      str(c))
sys.exit(1 if fails else 0)
EOF
}

# A UD send error (bad lkey) takes the QP to SQE, its RQ still receiving;
# ibv_modify_qp(RTS, cur_qp_state SQE) -- ib_mad's recovery of QP1 --
# brings it back and 8 datagrams arrive with their checksums
# (progs/ud_sqe.c).
ud_sqe() {
	local label=$1 out l
	out=$(timeout 60 /mnt/host/progs/ud_sqe "$ib0" 192.168.81.1 2>&1)
	local rc=$?
	while read -r l; do
		case "$l" in
		ok:*) ok "$label: ud_sqe: ${l#ok: }" ;;
		FAIL:*) fail "$label: ud_sqe: ${l#FAIL: }" ;;
		esac
	done <<<"$out"
	[ $rc -eq 0 ] && grep -q '^ok:' <<<"$out" ||
		fail "$label: ud_sqe exits $rc: $(grep -v '^ok:' <<<"$out" | tail -3)"
}

run_provider() {
	local label=$1 probe s
	probe=$(qp_probe 2>&1 | tail -1)
	case "$probe" in
	ok) ok "$label: PD, CQ, RC and UD QPs created and moved to INIT" ;;
	*EOPNOTSUPP*)
		SKIPS="$SKIPS $label($probe)"
		echo "$label: queue creation not supported yet ($probe)"
		return ;;
	*) fail "$label: queue creation failed: $probe"; return ;;
	esac
	# after the first failure of a tool the larger sizes only cost time
	for s in $RC_SIZES; do
		run_pp "$label" ibv_rc_pingpong "$s" -c -m 1024 || break
	done
	# 1200 round trips: every ring (SQ, RQ, CQ) wraps and flips polarity
	ITERS=1200 run_pp "$label" ibv_rc_pingpong 64 -c -m 1024
	# the stock provider has no ibv_qp_ex on E810: -N is ours only
	[ "$label" = ours ] && run_pp "$label" ibv_rc_pingpong 1024 -c -m 1024 -N
	for s in $UD_SIZES; do
		run_pp "$label" ibv_ud_pingpong "$s" -c || break
	done
	# the stock irdma.ko moves the QP to ERR instead (upstream behaviour)
	[ "${E810_RDMA_DRIVER:-ours}" = stock ] || ud_sqe "$label"
	[ "$label" = ours ] || return
	local out l
	out=$(qpx_ops 2>&1)
	while read -r l; do
		case "$l" in
		ok:*) ok "ours: ${l#ok: }" ;;
		FAIL:*) fail "ours: ${l#FAIL: }" ;;
		note:*) echo "ours: ${l#note: }" ;;
		esac
	done <<<"$out"
	if ! grep -qE '^(ok|FAIL):' <<<"$out" || grep -q '^FAIL' <<<"$out"; then
		grep -vE '^(ok|FAIL):' <<<"$out" | tail -5 | sed 's/^/  qpx: /'
		grep -qE '^(ok|FAIL):' <<<"$out" || fail "ours: ibv_qp_ex test did not run"
	fi
}

unset RDMAV_DRIVERS
case " ${PROVIDERS_OVERRIDE:-stock ours} " in *" stock "*) run_provider stock ;; esac
export RDMAV_DRIVERS=$OURS
[ -f "$OURS-rdmav34.so" ] || fail "our provider is not installed ($OURS-rdmav34.so)"
ibv_devinfo -d "$ib0" >/dev/null 2>&1 && ok "our provider opens $ib0" ||
	fail "ibv_devinfo -d $ib0 fails with our provider"
# the process that opened the device must have loaded our library (the
# stock one is loaded too: libibverbs loads every configured provider and
# tries RDMAV_DRIVERS first; the -N run below needs ours to have claimed)
mapped=$(python3 -c '
from pyverbs.device import Context
import sys
c = Context(name=sys.argv[1])
print("\n".join(l.split()[-1] for l in open("/proc/self/maps") if "libirdma" in l))
' "$ib0" | sort -u)
case " $(echo $mapped) " in
*" $OURS-rdmav34.so "*) ok "our provider is loaded when selected" ;;
*) fail "our provider not loaded; mapped: $(echo $mapped)" ;;
esac
case " ${PROVIDERS_OVERRIDE:-stock ours} " in *" ours "*) run_provider ours ;; esac
unset RDMAV_DRIVERS

# Every QP the runs above destroyed went the upstream way (RTS -> ERROR
# before DESTROY_QP, no MODIFY_QP transition the device refuses), for
# both functions: the model counts what upstream never sends.
for d in $(e810_pci_devs); do
	live=$(model_stat "$d" destroy_live_qps) bad=$(model_stat "$d" bad_qp_transitions)
	[ "$live" = 0 ] && [ "$bad" = 0 ] &&
		ok "$d: no live QP destroyed, no transition refused (model)" ||
		fail "$d: model counts destroy_live_qps=$live bad_qp_transitions=$bad"
done
dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
if [ -n "$SKIPS" ] && [ "$E810_FAILS" -eq 0 ]; then
	skip "kernel answers EOPNOTSUPP to queue creation for:$SKIPS"
fi
finish
