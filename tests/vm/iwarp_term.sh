#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# topology: hub2
# parent: ice_lite
# also-parent: ice
# rdma-driver: ours stock
# rdma-protocol: iwarp
# timeout: 600
# Our irdma's Terminate (docs/irdma.md "Terminate") between two of our
# irdma instances, the ports two hosts in init_net (iwarp_two_hosts):
# progs/cm_data -K connects through RDMA-CM and the client posts one RDMA
# READ through the server's rkey with a changed key byte. The server's
# engine refuses the Read Request (a bad STag AE); the server's driver
# builds the Terminate in Q2 and moves the QP to TERMINATE; the engine
# sends it (x-iwarp-stats terms_sent on the server's function), the
# client's engine raises AE 0x0509 (terms_rcvd on the client's), and
# both drivers end the connection:
#  - the client's READ is flushed as upstream irdma flushes the WQEs of a
#    QP that received a Terminate: IBV_WC_WR_FLUSH_ERR, vendor_err
#    0x10001 (IRDMA_FLUSH_MAJOR_ERR, FLUSH_GENERAL_ERR); both sides see
#    DISCONNECTED and exit 0;
#  - debugfs iwarp: terms_sent 1 on the server's function, terms_rcvd 1
#    on the client's, no terminate timeout on either;
#  - the model's terms_sent/terms_rcvd the same, no CRC error;
#  - the peer's abortive close (cm_data -R: the server destroys its QP,
#    an RST): after DISCONNECTED the client posts a receive and calls
#    rdma_disconnect(); the receive completes IBV_WC_WR_FLUSH_ERR within
#    5 s (rdma_cm moved the QP to ERROR, not the application, so the
#    provider asks for no second flush: the driver flushes again at the
#    application's SQD);
#  - no connection node, no offloaded connection in the model, APBVT and
#    quad hash empty; no oops, warning or leak.
. "$E810_LIB"

[ -x /mnt/host/progs/cm_data ] || { fail "progs/cm_data not built"; finish; }
iwarp_ours_pair

cm_data_run 192.168.81.2 192.168.81.1 7431 60 -K
sed 's/^/  client: /' /tmp/cm_data-c.log | tail -n 4
sed 's/^/  server: /' /tmp/cm_data-s.log | tail -n 3
st=$(sed -n 's/^cm_data client: bad rkey read status=\([0-9]*\) .*/\1/p' /tmp/cm_data-c.log)
ve=$(sed -n 's/^cm_data client: bad rkey read .* vendor_err=\(0x[0-9a-f]*\) .*/\1/p' /tmp/cm_data-c.log)
# Under the stock irdma (@stock, the stock ice switched to iWARP): the
# same flow through upstream irdma_terminate_connection() and
# irdma_terminate_received(), with the model's checks and the READ's
# completion; upstream has no debugfs counters, and its connection
# manager flushes a QP once (irdma_cm_disconn_true()), so the late
# receive of the abortive close is not judged there. The quad hash must
# be empty once the Terminate's connection is gone: the passive side's
# connection entry, handed to the QP at accept, goes with DESTROY_QP's
# REMOVEHASHENTRY although upstream rewrote the host context without the
# TCP fields for TERMINATE (docs/hw-model.md, "iWARP engine").
# Upstream: the Terminate's receiver sets no flush code
# (irdma_terminate_received() -> irdma_terminate_done()), so
# irdma_flush_wqes() flushes with FLUSH_GENERAL_ERR under
# IRDMA_FLUSH_MAJOR_ERR; rdma-core's irdma provider reports that as
# IBV_WC_WR_FLUSH_ERR, vendor_err major << 16 | minor.
expect_eq "the READ through a bad rkey: status, vendor_err" "5 0x10001" "$st $ve"
expect_eq "client exit (READ error, DISCONNECTED)" 0 "$cmd_crc"
expect_eq "server exit (DISCONNECTED)" 0 "$cmd_src"

STOCK=0
[ "${E810_RDMA_DRIVER:-ours}" = stock ] && STOCK=1
for d in "$d0" "$d1"; do
	echo "$d: $(e810_qom_str "$(e810_qom_id "$d")" x-iwarp-stats)"
done
# d1 (192.168.81.2) is the server's port: it refused the READ.
if [ $STOCK = 0 ]; then
	for a in "$a0" "$a1"; do
		echo "$a: $(grep '^terms_\|^cm_' "/sys/kernel/debug/irdma/$a/iwarp" | tr '\n' ' ')"
	done
	expect_eq "$a1: Terminates sent (driver)" 1 "$(iwdbg "$a1" terms_sent)"
	expect_eq "$a0: Terminates received (driver)" 1 "$(iwdbg "$a0" terms_rcvd)"
	expect_eq "$a0: Terminates sent (driver)" 0 "$(iwdbg "$a0" terms_sent)"
	for a in "$a0" "$a1"; do
		expect_eq "$a: Terminate timeouts" 0 "$(iwdbg "$a" terms_timeouts)"
	done
fi
expect_eq "$d1: model terms_sent" 1 "$(iw_stat "$d1" terms_sent)"
expect_eq "$d0: model terms_rcvd" 1 "$(iw_stat "$d0" terms_rcvd)"
expect_eq "$d0: model terms_sent" 0 "$(iw_stat "$d0" terms_sent)"
for d in "$d0" "$d1"; do
	expect_eq "$d: CRC errors" 0 "$(iw_stat "$d" crc_errors)"
	wait_for "iw_tables_empty $d" 30 &&
		ok "$d: APBVT and quad hash empty after the Terminate" ||
		fail "$d: left after the Terminate: $(iw_table "$d" apbvt_ports) / $(iw_table "$d" qhash_entries)"
done

# The peer's abortive close (cm_data -R): the server destroys its QP
# without a disconnect, our irdma resets the connection (an RST), the
# client's connection manager flushes its QP (empty queues) and posts
# DISCONNECTED; the client then posts a receive and calls
# rdma_disconnect(), as rping does before it waits for its CQ thread.
cm_data_run 192.168.81.2 192.168.81.1 7432 60 -R
sed 's/^/  client: /' /tmp/cm_data-c.log | tail -n 3
sed 's/^/  server: /' /tmp/cm_data-s.log | tail -n 2
if [ $STOCK = 0 ]; then
	st=$(sed -n 's/^cm_data client: late receive status=\([0-9]*\) .*/\1/p' /tmp/cm_data-c.log)
	expect_eq "a receive posted after the peer's reset: flushed (status)" 5 "$st"
	expect_eq "client exit (late receive flushed)" 0 "$cmd_crc"
else
	echo "note: the stock irdma flushes a QP once (irdma_cm_disconn_true()): cm_data's late receive is not judged"
	grep -q '^cm_data client: DISCONNECTED' /tmp/cm_data-c.log &&
		ok "client: DISCONNECTED after the peer's reset" ||
		fail "client: no DISCONNECTED after the peer's reset"
fi
expect_eq "server exit (DISCONNECTED)" 0 "$cmd_src"

iwarp_ours_teardown

dmesg_clean && ok "no oops, warning or leak in dmesg" || fail "dmesg shows problems"
finish
