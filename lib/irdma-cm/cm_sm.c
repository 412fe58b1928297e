// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The state machine of one iWARP connection as irdma runs it: TCP
 * handshake and MPA exchange in software, then the hand-off to the
 * hardware (offload), teardown before and after it. Modelled on upstream
 * irdma's cm.c (irdma_cm_node states, irdma_handle_syn_pkt(),
 * _synack_pkt(), _ack_pkt(), _fin_pkt(), _rst_pkt(), irdma_process_mpa(),
 * irdma_cm_close()) and on the AE handling in hw.c: irdma_process_aeq().
 * No I/O here: e810cm_step() says what to send, whether to offload and
 * which iw_cm events to post. docs/irdma.md lists the transitions.
 */

#include "cm.h"

static const char * const e810cm_state_names[E810CM_NUM_STATES] = {
	[E810CM_IDLE] = "IDLE",
	[E810CM_LISTENING] = "LISTENING",
	[E810CM_SYN_RCVD] = "SYN_RCVD",
	[E810CM_SYN_SENT] = "SYN_SENT",
	[E810CM_MPAREQ_WAIT] = "MPAREQ_WAIT",
	[E810CM_MPAREQ_RCVD] = "MPAREQ_RCVD",
	[E810CM_MPAREQ_SENT] = "MPAREQ_SENT",
	[E810CM_MPAREJ_RCVD] = "MPAREJ_RCVD",
	[E810CM_ACCEPTING] = "ACCEPTING",
	[E810CM_OFFLOADED] = "OFFLOADED",
	[E810CM_DISCONNECTING] = "DISCONNECTING",
	[E810CM_FIN_WAIT1] = "FIN_WAIT1",
	[E810CM_FIN_WAIT2] = "FIN_WAIT2",
	[E810CM_TCP_CLOSING] = "TCP_CLOSING",
	[E810CM_TIME_WAIT] = "TIME_WAIT",
	[E810CM_LAST_ACK] = "LAST_ACK",
	[E810CM_CLOSED] = "CLOSED",
};

static const char * const e810cm_event_names[E810CM_NUM_EVENTS] = {
	[E810CM_EV_USER_LISTEN] = "USER_LISTEN",
	[E810CM_EV_USER_CONNECT] = "USER_CONNECT",
	[E810CM_EV_USER_ACCEPT] = "USER_ACCEPT",
	[E810CM_EV_USER_REJECT] = "USER_REJECT",
	[E810CM_EV_USER_CLOSE] = "USER_CLOSE",
	[E810CM_EV_RX_SYN] = "RX_SYN",
	[E810CM_EV_RX_SYNACK] = "RX_SYNACK",
	[E810CM_EV_RX_ACK] = "RX_ACK",
	[E810CM_EV_RX_FIN] = "RX_FIN",
	[E810CM_EV_RX_RST] = "RX_RST",
	[E810CM_EV_RX_MPA_REQ] = "RX_MPA_REQ",
	[E810CM_EV_RX_MPA_REP] = "RX_MPA_REP",
	[E810CM_EV_RX_MPA_REJ] = "RX_MPA_REJ",
	[E810CM_EV_RX_MPA_BAD] = "RX_MPA_BAD",
	[E810CM_EV_TIMEOUT] = "TIMEOUT",
	[E810CM_EV_HW_ESTABLISHED] = "HW_ESTABLISHED",
	[E810CM_EV_HW_CLOSED] = "HW_CLOSED",
};

const char *e810cm_state_name(enum e810cm_state state)
{
	return (unsigned int)state < E810CM_NUM_STATES ?
	       e810cm_state_names[state] : "?";
}

const char *e810cm_event_name(enum e810cm_event ev)
{
	return (unsigned int)ev < E810CM_NUM_EVENTS ?
	       e810cm_event_names[ev] : "?";
}

/**
 * e810cm_conn_init() - a new connection, IDLE
 * @conn: the connection
 * @mpa_rev: MPA revision to try first (2 as irdma, or 1)
 */
void e810cm_conn_init(struct e810cm_conn *conn, u8 mpa_rev)
{
	memset(conn, 0, sizeof(*conn));
	conn->state = E810CM_IDLE;
	conn->mpa_rev = mpa_rev;
}

static void e810cm_go(struct e810cm_out *out, enum e810cm_state state,
		      u32 actions)
{
	out->state = state;
	out->actions |= actions;
}

static void e810cm_post(struct e810cm_out *out, enum e810cm_iw_event type,
			int status)
{
	if (out->num_iw >= E810CM_MAX_IW_EVENTS)
		return;
	out->iw[out->num_iw].type = type;
	out->iw[out->num_iw].status = status;
	out->num_iw++;
}

/* Events every state before the offload treats alike. */
static bool e810cm_user_event(enum e810cm_event ev)
{
	return ev <= E810CM_EV_USER_CLOSE;
}

/* IDLE and LISTENING: the user's listen or connect, a listener's SYN
 * (irdma_receive_ilq(): anything but a SYN is dropped).
 */
static int e810cm_step_open(struct e810cm_conn *conn,
			    enum e810cm_event ev, struct e810cm_out *out)
{
	bool idle = conn->state == E810CM_IDLE;

	switch (ev) {
	case E810CM_EV_USER_LISTEN:
		if (!idle)
			return -EINVAL;
		e810cm_go(out, E810CM_LISTENING, 0);
		return 0;
	case E810CM_EV_USER_CONNECT:
		if (!idle)
			return -EINVAL;
		e810cm_go(out, E810CM_SYN_SENT, E810CM_ACT_SEND_SYN |
			  E810CM_ACT_START_RETX);
		return 0;
	case E810CM_EV_USER_CLOSE:
		e810cm_go(out, E810CM_CLOSED, 0);
		return 0;
	case E810CM_EV_RX_SYN:
		if (idle)
			break;
		e810cm_go(out, E810CM_SYN_RCVD, E810CM_ACT_SEND_SYNACK |
			  E810CM_ACT_START_RETX);
		return 0;
	default:
		break;
	}
	if (e810cm_user_event(ev))
		return -EINVAL;
	out->ignored = true;
	return 0;
}

/* Active open, SYN_SENT and MPAREQ_SENT (irdma_handle_synack_pkt(),
 * irdma_process_mpa(), irdma_handle_rst_pkt(): an RST to an MPA v2
 * attempt is taken for a peer that speaks only v1 and the connect is
 * retried with a fresh SYN and revision 1).
 */
static int e810cm_step_active(struct e810cm_conn *conn,
			      enum e810cm_event ev, struct e810cm_out *out)
{
	bool req_sent = conn->state == E810CM_MPAREQ_SENT;

	switch (ev) {
	case E810CM_EV_RX_SYNACK:
		if (req_sent)
			break;
		e810cm_go(out, E810CM_MPAREQ_SENT, E810CM_ACT_STOP_RETX |
			  E810CM_ACT_SEND_ACK | E810CM_ACT_SEND_MPA_REQ |
			  E810CM_ACT_START_RETX);
		return 0;
	case E810CM_EV_RX_MPA_REP:
		if (!req_sent)
			break;
		e810cm_go(out, E810CM_OFFLOADED, E810CM_ACT_STOP_RETX |
			  E810CM_ACT_SEND_ACK | E810CM_ACT_OFFLOAD);
		e810cm_post(out, E810CM_IW_CONNECT_REPLY, 0);
		return 0;
	case E810CM_EV_RX_MPA_REJ:
		if (!req_sent)
			break;
		e810cm_go(out, E810CM_MPAREJ_RCVD, E810CM_ACT_STOP_RETX |
			  E810CM_ACT_SEND_ACK);
		e810cm_post(out, E810CM_IW_CONNECT_REPLY, -ECONNREFUSED);
		return 0;
	case E810CM_EV_RX_MPA_BAD:
		if (!req_sent)
			break;
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_STOP_RETX |
			  E810CM_ACT_SEND_RST);
		e810cm_post(out, E810CM_IW_CONNECT_REPLY, -EPROTO);
		return 0;
	case E810CM_EV_RX_RST:
		if (conn->mpa_rev == 2) {
			conn->mpa_rev = 1;
			e810cm_go(out, E810CM_SYN_SENT, E810CM_ACT_STOP_RETX |
				  E810CM_ACT_SEND_SYN | E810CM_ACT_START_RETX);
			return 0;
		}
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_STOP_RETX);
		e810cm_post(out, E810CM_IW_CONNECT_REPLY, -ECONNRESET);
		return 0;
	case E810CM_EV_RX_FIN:
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_STOP_RETX |
			  E810CM_ACT_SEND_RST);
		e810cm_post(out, E810CM_IW_CONNECT_REPLY, -ECONNRESET);
		return 0;
	case E810CM_EV_TIMEOUT:
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_SEND_RST);
		e810cm_post(out, E810CM_IW_CONNECT_REPLY, -ETIMEDOUT);
		return 0;
	case E810CM_EV_USER_CLOSE:
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_STOP_RETX |
			  E810CM_ACT_SEND_RST);
		return 0;
	default:
		break;
	}
	if (e810cm_user_event(ev))
		return -EINVAL;
	out->ignored = true;
	return 0;
}

/* Passive open up to the user's decision: SYN_RCVD, MPAREQ_WAIT,
 * MPAREQ_RCVD (irdma_handle_syn_pkt(), _ack_pkt(), irdma_process_mpa(),
 * irdma_accept(), irdma_reject(): the Reject leaves with FIN). Nothing
 * reached iw_cm before MPAREQ_RCVD, so failures before it are silent.
 */
static int e810cm_step_passive(struct e810cm_conn *conn,
			       enum e810cm_event ev, struct e810cm_out *out)
{
	enum e810cm_state s = conn->state;

	switch (ev) {
	case E810CM_EV_RX_SYN:
		if (s != E810CM_SYN_RCVD)
			break;
		/* The SYN again: our SYN-ACK was lost. */
		e810cm_go(out, s, E810CM_ACT_SEND_SYNACK);
		return 0;
	case E810CM_EV_RX_ACK:
		if (s != E810CM_SYN_RCVD)
			break;
		e810cm_go(out, E810CM_MPAREQ_WAIT, E810CM_ACT_STOP_RETX);
		return 0;
	case E810CM_EV_RX_MPA_REQ:
		if (s != E810CM_MPAREQ_WAIT)
			break;
		e810cm_go(out, E810CM_MPAREQ_RCVD, 0);
		e810cm_post(out, E810CM_IW_CONNECT_REQUEST, 0);
		return 0;
	case E810CM_EV_RX_MPA_BAD:
		if (s == E810CM_SYN_RCVD)
			break;
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_SEND_RST);
		return 0;
	case E810CM_EV_USER_ACCEPT:
		if (s != E810CM_MPAREQ_RCVD)
			return -EINVAL;
		e810cm_go(out, E810CM_ACCEPTING, E810CM_ACT_SEND_MPA_REP |
			  E810CM_ACT_OFFLOAD);
		return 0;
	case E810CM_EV_USER_REJECT:
		if (s != E810CM_MPAREQ_RCVD)
			return -EINVAL;
		e810cm_go(out, E810CM_FIN_WAIT1, E810CM_ACT_SEND_MPA_REJ |
			  E810CM_ACT_SEND_FIN | E810CM_ACT_START_RETX);
		return 0;
	case E810CM_EV_RX_RST:
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_STOP_RETX);
		return 0;
	case E810CM_EV_RX_FIN:
	case E810CM_EV_TIMEOUT:
	case E810CM_EV_USER_CLOSE:
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_STOP_RETX |
			  E810CM_ACT_SEND_RST);
		return 0;
	default:
		break;
	}
	if (e810cm_user_event(ev))
		return -EINVAL;
	out->ignored = true;
	return 0;
}

/* After the offload (hw.c: irdma_process_aeq(), irdma_cm_disconn_true()):
 * FIN and RST come as AEs, closing goes through the QP.
 */
static int e810cm_step_offloaded(struct e810cm_conn *conn,
				 enum e810cm_event ev, struct e810cm_out *out)
{
	enum e810cm_state s = conn->state;

	switch (ev) {
	case E810CM_EV_HW_ESTABLISHED:
		if (s != E810CM_ACCEPTING)
			break;
		e810cm_go(out, E810CM_OFFLOADED, 0);
		e810cm_post(out, E810CM_IW_ESTABLISHED, 0);
		return 0;
	case E810CM_EV_TIMEOUT:
		if (s == E810CM_ACCEPTING) {
			/* No RTS AE in time: the accept fails. */
			e810cm_go(out, E810CM_CLOSED, E810CM_ACT_QP_RESET);
			out->status = -ECONNRESET;
			return 0;
		}
		if (s != E810CM_DISCONNECTING)
			break;
		fallthrough;
	case E810CM_EV_HW_CLOSED:
		if (s == E810CM_ACCEPTING)
			break;
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_QP_FLUSH);
		e810cm_post(out, E810CM_IW_CLOSE, 0);
		return 0;
	case E810CM_EV_RX_FIN:
		if (s == E810CM_ACCEPTING || conn->disc_posted)
			break;
		conn->disc_posted = true;
		e810cm_go(out, E810CM_DISCONNECTING, s == E810CM_OFFLOADED ?
			  E810CM_ACT_QP_CLOSE | E810CM_ACT_CLOSE_TIMER : 0);
		e810cm_post(out, E810CM_IW_DISCONNECT, 0);
		return 0;
	case E810CM_EV_RX_RST:
		if (s == E810CM_ACCEPTING) {
			e810cm_go(out, E810CM_CLOSED, E810CM_ACT_QP_FLUSH);
			out->status = -ECONNRESET;
			return 0;
		}
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_QP_FLUSH);
		if (!conn->disc_posted)
			e810cm_post(out, E810CM_IW_DISCONNECT, -ECONNRESET);
		conn->disc_posted = true;
		e810cm_post(out, E810CM_IW_CLOSE, -ECONNRESET);
		return 0;
	case E810CM_EV_USER_CLOSE:
		if (s == E810CM_ACCEPTING) {
			e810cm_go(out, E810CM_CLOSED, E810CM_ACT_QP_RESET);
			return 0;
		}
		if (s == E810CM_DISCONNECTING)
			break;
		e810cm_go(out, E810CM_DISCONNECTING, E810CM_ACT_QP_CLOSE |
			  E810CM_ACT_CLOSE_TIMER);
		return 0;
	default:
		break;
	}
	if (ev == E810CM_EV_USER_CLOSE)
		return 0;	/* closing already */
	if (e810cm_user_event(ev))
		return -EINVAL;
	out->ignored = true;
	return 0;
}

/* TCP teardown before any offload: after a Reject (ours: FIN_WAIT1, the
 * peer's: MPAREJ_RCVD), irdma_handle_fin_pkt() and _ack_pkt(). The
 * user's close does not cut it short: the node finishes on its own.
 */
static int e810cm_step_closing(struct e810cm_conn *conn,
			       enum e810cm_event ev, struct e810cm_out *out)
{
	enum e810cm_state s = conn->state;

	switch (ev) {
	case E810CM_EV_RX_ACK:
		if (s == E810CM_FIN_WAIT1) {
			e810cm_go(out, E810CM_FIN_WAIT2, E810CM_ACT_STOP_RETX);
			return 0;
		}
		if (s == E810CM_TCP_CLOSING) {
			e810cm_go(out, E810CM_TIME_WAIT, E810CM_ACT_STOP_RETX |
				  E810CM_ACT_CLOSE_TIMER);
			return 0;
		}
		if (s == E810CM_LAST_ACK) {
			e810cm_go(out, E810CM_CLOSED, E810CM_ACT_STOP_RETX);
			return 0;
		}
		break;
	case E810CM_EV_RX_FIN:
		switch (s) {
		case E810CM_FIN_WAIT1:
			e810cm_go(out, E810CM_TCP_CLOSING,
				  E810CM_ACT_SEND_ACK);
			return 0;
		case E810CM_FIN_WAIT2:
			e810cm_go(out, E810CM_TIME_WAIT, E810CM_ACT_SEND_ACK |
				  E810CM_ACT_CLOSE_TIMER);
			return 0;
		case E810CM_TIME_WAIT:
			/* Our last ACK was lost. */
			e810cm_go(out, s, E810CM_ACT_SEND_ACK);
			return 0;
		case E810CM_MPAREJ_RCVD:
			e810cm_go(out, E810CM_LAST_ACK, E810CM_ACT_SEND_ACK |
				  E810CM_ACT_SEND_FIN | E810CM_ACT_START_RETX);
			return 0;
		default:
			break;
		}
		break;
	case E810CM_EV_RX_RST:
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_STOP_RETX);
		return 0;
	case E810CM_EV_TIMEOUT:
		if (s == E810CM_TIME_WAIT) {
			e810cm_go(out, E810CM_CLOSED, 0);
			return 0;
		}
		e810cm_go(out, E810CM_CLOSED, E810CM_ACT_SEND_RST);
		return 0;
	case E810CM_EV_USER_CLOSE:
		return 0;
	default:
		break;
	}
	if (e810cm_user_event(ev))
		return -EINVAL;
	out->ignored = true;
	return 0;
}

/**
 * e810cm_step() - feed one event to a connection
 * @conn: the connection; its state is updated
 * @ev: what happened
 * @out: what the glue must do now (cleared first)
 *
 * Events from the network that mean nothing in the current state (a
 * stray or duplicate segment) leave everything as it is and set
 * @out->ignored. A passive connection starts as a copy of its listener
 * (LISTENING) and takes the SYN that created it.
 *
 * Return: 0, or -EINVAL for a user request the state does not allow
 * (nothing changed).
 */
int e810cm_step(struct e810cm_conn *conn, enum e810cm_event ev,
		struct e810cm_out *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	out->state = conn->state;
	if ((unsigned int)ev >= E810CM_NUM_EVENTS)
		return -EINVAL;

	switch (conn->state) {
	case E810CM_IDLE:
	case E810CM_LISTENING:
		ret = e810cm_step_open(conn, ev, out);
		break;
	case E810CM_SYN_SENT:
	case E810CM_MPAREQ_SENT:
		ret = e810cm_step_active(conn, ev, out);
		break;
	case E810CM_SYN_RCVD:
	case E810CM_MPAREQ_WAIT:
	case E810CM_MPAREQ_RCVD:
		ret = e810cm_step_passive(conn, ev, out);
		break;
	case E810CM_ACCEPTING:
	case E810CM_OFFLOADED:
	case E810CM_DISCONNECTING:
		ret = e810cm_step_offloaded(conn, ev, out);
		break;
	case E810CM_MPAREJ_RCVD:
	case E810CM_FIN_WAIT1:
	case E810CM_FIN_WAIT2:
	case E810CM_TCP_CLOSING:
	case E810CM_TIME_WAIT:
	case E810CM_LAST_ACK:
		ret = e810cm_step_closing(conn, ev, out);
		break;
	case E810CM_CLOSED:
	default:
		/* The peer is gone (the user still holds the request). */
		if (ev == E810CM_EV_USER_ACCEPT || ev == E810CM_EV_USER_REJECT)
			return -ECONNRESET;
		if (e810cm_user_event(ev) && ev != E810CM_EV_USER_CLOSE)
			return -EINVAL;
		if (!e810cm_user_event(ev))
			out->ignored = true;
		ret = 0;
		break;
	}
	if (ret)
		return ret;
	conn->state = out->state;
	return 0;
}
