/*
 * models/host/cmpi_gen.c - the operations of the cMPI generator: each
 * process walks its program one unit at a time (cmpi.c has the keys, the
 * address layout and the protocol in words).
 *
 * A process's program, for each message size of the sweep:
 *   barrier      [fence], set own barrier flag = size index + 1, then wait
 *                for each peer's flag to reach it
 *   iterations   warm-up first, then measured; each has one step per peer
 *                (alltoall: n - 1 steps, distance 1, 2, ...; else one):
 *     [mark begin]                      measured iterations of a process
 *                                       that sends / puts / gets / pings
 *     one-sided: M puts or gets into the target's window, then a fence
 *     two-sided: exchanges, each chunk by chunk (send chunk c to the out
 *                peer, then receive chunk c from the in peer); bw: M data
 *                exchanges then the ack (set the in peer's ack flag, wait
 *                for the out peer's); latency: ping (to out, from in) then
 *                pong (to in, from out)
 *     [mark end]
 * Every process of a step runs the same exchange (a shift of the hosts),
 * and sends each chunk before it receives one, so no queue depth can
 * deadlock it: the least advanced process can always go on.
 *
 * Each unit is a handful of operations (at most CMPI_UNIT_MAX), rebuilt
 * from the cursor at each call and served by index: nothing is stored but
 * the cursor.
 */
#include "models/host/cmpi_int.h"

#include "core/err.h"

enum unit { U_BAR_SET, U_BAR_WAIT, U_MARK_BEGIN, U_ONESIDED, U_WIN_END, U_CHUNK, U_ACK,
	    U_MARK_END, U_DONE };

/* Roles of a message on a two-sided queue. */
enum role { R_DATA, R_PING, R_PONG };

#define FLAG_TAIL 0   /* slot offsets of its flags: tail (written by the sender) */
#define FLAG_HEAD 256 /* head (written by the receiver) */
#define FLAG_ACK 512  /* bw ack (written by the receiver) */

/* The peer host @a sends to at step @k, or CMPI_NONE. */
static uint32_t out_of(const cmpi *s, uint32_t a, uint32_t k)
{
	uint32_t n = s->nhosts;

	switch (s->peers) {
	case CMPI_PAIRS:
		return a % 2 == 0 && a + 1 < n ? a + 1 : CMPI_NONE;
	case CMPI_RING:
		return (a + 1) % n;
	default:
		return (a + k + 1) % n;
	}
}

/* The peer host @a receives from at step @k, or CMPI_NONE. */
static uint32_t in_of(const cmpi *s, uint32_t a, uint32_t k)
{
	uint32_t n = s->nhosts;

	switch (s->peers) {
	case CMPI_PAIRS:
		return a % 2 ? a - 1 : CMPI_NONE;
	case CMPI_RING:
		return (a + n - 1) % n;
	default:
		return (a + n - 1 - k) % n;
	}
}

/* Peers of this host's barrier: the hosts it exchanges with. */
static uint32_t bar_peers(const cmpi *s)
{
	uint32_t h = s->host, n = s->nhosts;

	switch (s->peers) {
	case CMPI_PAIRS:
		return h % 2 || h + 1 < n;
	case CMPI_RING:
		return n == 2 ? 1 : 2;
	default:
		return n - 1;
	}
}

static uint32_t bar_peer(const cmpi *s, uint32_t i)
{
	uint32_t h = s->host, n = s->nhosts;

	if (s->peers == CMPI_PAIRS)
		return h ^ 1u;
	if (s->peers == CMPI_RING)
		return i == 0 ? (h + 1) % n : (h + n - 1) % n;
	return (h + 1 + i) % n;
}

static uint32_t nsteps(const cmpi *s)
{
	return s->peers == CMPI_ALLTOALL ? s->nhosts - 1 : 1;
}

/* Does this host take part in the iterations (not only a passive target)? */
static int active(const cmpi *s)
{
	if (s->op != CMPI_SENDRECV)
		return out_of(s, s->host, 0) != CMPI_NONE;
	return out_of(s, s->host, 0) != CMPI_NONE || in_of(s, s->host, 0) != CMPI_NONE;
}

static uint8_t flag_mode(const cmpi *s)
{
	return s->coh == CMPI_HDMDB ? PROG_MODE_CACHED : PROG_MODE_NT;
}

/*
 * Where a message of @role on queue a -> b stands within an iteration: the
 * queue carries *@q messages per iteration and this one is number *@r of
 * them.  Latency on a ring of 2 or alltoall sends both pings and pongs
 * a -> b: the one of the earlier step first, the ping first in one step.
 */
static void queue_pos(const cmpi *s, uint32_t a, uint32_t b, enum role role, uint32_t *q,
		      uint32_t *r)
{
	uint32_t n = s->nhosts;
	int ping = 0, pong = 0, ping_first = 1;

	if (role == R_DATA) {
		*q = 1, *r = 0;
		return;
	}
	if (s->peers == CMPI_PAIRS) {
		ping = role == R_PING, pong = role == R_PONG;
	} else if (s->peers == CMPI_RING) {
		ping = b == (a + 1) % n, pong = a == (b + 1) % n;
	} else {
		ping = pong = 1;
		ping_first = (b + n - a) % n <= (a + n - b) % n;
	}
	*q = (uint32_t)(ping + pong);
	*r = *q == 2 && (role == R_PING) != ping_first;
}

/* Sequence number (from 1) of chunk c->chunk of message @m of @role on a -> b. */
static uint64_t seq_of(const cmpi *s, const cmpi_cur *c, uint32_t a, uint32_t b,
		       enum role role, uint32_t m)
{
	uint32_t q, r;

	queue_pos(s, a, b, role, &q, &r);
	return q * c->seq0 + (((uint64_t)c->iter * q + r) * cmpi_msgs(s) + m) *
		cmpi__chunks(s, c->size) + c->chunk + 1;
}

static uint32_t put_op(prog_op *o, uint32_t n, uint8_t kind, uint64_t addr, uint64_t size)
{
	o[n] = (prog_op){ .addr = addr, .size = size, .kind = kind };
	return n + 1;
}

static uint32_t put_flag(prog_op *o, uint32_t n, uint8_t kind, uint64_t addr, uint64_t v,
			 uint8_t mode)
{
	o[n] = (prog_op){ .addr = addr, .value = (uint16_t)v, .kind = kind, .mode = mode };
	return n + 1;
}

/* Write @len bytes at @addr the way the coherence mode writes shared data. */
static uint32_t put_write(const cmpi *s, prog_op *o, uint32_t n, uint64_t addr, uint64_t len)
{
	if (s->coh == CMPI_UC)
		return put_op(o, n, PROG_UC_STORE, addr, len);
	n = put_op(o, n, PROG_STORE, addr, len);
	if (s->coh == CMPI_SOFTWARE) {
		n = put_op(o, n, PROG_FLUSHOPT, addr, len);
		n = put_op(o, n, PROG_FENCE, 0, 0);
	}
	return n;
}

/* Read @len bytes at @addr the way the coherence mode reads shared data. */
static uint32_t put_read(const cmpi *s, prog_op *o, uint32_t n, uint64_t addr, uint64_t len)
{
	if (s->coh == CMPI_UC)
		return put_op(o, n, PROG_UC_LOAD, addr, len);
	if (s->coh == CMPI_SOFTWARE) {
		n = put_op(o, n, PROG_FENCE, 0, 0);
		n = put_op(o, n, PROG_FLUSHOPT, addr, len);
		n = put_op(o, n, PROG_FENCE, 0, 0);
	}
	return put_op(o, n, PROG_LOAD, addr, len);
}

/* Chunk c->chunk of message @m sent a -> b (@send) or received (!@send). */
static uint32_t chunk_ops(const cmpi *s, const cmpi_cur *c, uint32_t proc, uint32_t a,
			  uint32_t b, enum role role, uint32_t m, int send, prog_op *o, uint32_t n)
{
	uint64_t seq = seq_of(s, c, a, b, role, m), slot = cmpi__slot(s, a, b, proc);
	uint64_t len = s->header + cmpi__chunk_payload(s, cmpi_size(s, c->size), c->chunk);
	uint64_t cell = slot + CMPI_HDR_BYTES + (seq - 1) % s->depth * s->cell;

	if (send) {
		if (seq > s->depth)
			n = put_flag(o, n, PROG_WAIT_FLAG, slot + FLAG_HEAD, seq - s->depth, 0);
		n = put_write(s, o, n, cell, len);
		if (o[n - 1].kind != PROG_FENCE)
			n = put_op(o, n, PROG_FENCE, 0, 0);
		return put_flag(o, n, PROG_SET_FLAG, slot + FLAG_TAIL, seq, flag_mode(s));
	}
	n = put_flag(o, n, PROG_WAIT_FLAG, slot + FLAG_TAIL, seq, 0);
	n = put_read(s, o, n, cell, len);
	n = put_op(o, n, PROG_FENCE, 0, 0);
	return put_flag(o, n, PROG_SET_FLAG, slot + FLAG_HEAD, seq, flag_mode(s));
}

/* The current exchange of a two-sided step: both halves of chunk c->chunk. */
static uint32_t exchange_ops(const cmpi *s, const cmpi_cur *c, uint32_t proc, prog_op *o)
{
	uint32_t h = s->host, out = out_of(s, h, c->step), in = in_of(s, h, c->step);
	uint32_t to = out, from = in, m = c->msg, n = 0;
	enum role role = R_DATA;

	if (s->measure == CMPI_LATENCY) {
		role = c->msg == 0 ? R_PING : R_PONG;
		if (role == R_PONG)
			to = in, from = out;
		m = 0;
	}
	if (to != CMPI_NONE)
		n = chunk_ops(s, c, proc, h, to, role, m, 1, o, n);
	if (from != CMPI_NONE)
		n = chunk_ops(s, c, proc, from, h, role, m, 0, o, n);
	return n;
}

static uint32_t onesided_ops(const cmpi *s, const cmpi_cur *c, uint32_t proc, prog_op *o)
{
	uint64_t size = cmpi_size(s, c->size);
	uint64_t addr = cmpi__slot(s, s->host, out_of(s, s->host, c->step), proc) +
			CMPI_HDR_BYTES + c->msg * size;

	if (s->op == CMPI_PUT)
		return put_write(s, o, 0, addr, size);
	return put_read(s, o, 0, addr, size);
}

static uint32_t ack_ops(const cmpi *s, const cmpi_cur *c, uint32_t proc, prog_op *o)
{
	uint32_t h = s->host, out = out_of(s, h, c->step), in = in_of(s, h, c->step), n = 0;
	uint64_t v = c->iter0 + c->iter + 1;

	if (in != CMPI_NONE)
		n = put_flag(o, n, PROG_SET_FLAG, cmpi__slot(s, in, h, proc) + FLAG_ACK, v,
			     flag_mode(s));
	if (out != CMPI_NONE)
		n = put_flag(o, n, PROG_WAIT_FLAG, cmpi__slot(s, h, out, proc) + FLAG_ACK, v, 0);
	return n;
}

/* The operations of the unit the cursor is at, into @o; their number. */
static uint32_t unit_ops(const cmpi *s, const cmpi_cur *c, uint32_t proc, prog_op *o)
{
	uint32_t n = 0;

	switch (c->unit) {
	case U_BAR_SET:
		if (c->size > 0)
			n = put_op(o, n, PROG_FENCE, 0, 0);
		return put_flag(o, n, PROG_SET_FLAG, cmpi__bar_flag(s, s->host, proc),
				c->size + 1u, flag_mode(s));
	case U_BAR_WAIT:
		return put_flag(o, 0, PROG_WAIT_FLAG, cmpi__bar_flag(s, bar_peer(s, c->peer), proc),
				c->size + 1u, 0);
	case U_MARK_BEGIN:
		o[0] = (prog_op){ .mark = c->size, .kind = PROG_MARK, .mode = 0 };
		return 1;
	case U_ONESIDED:
		return onesided_ops(s, c, proc, o);
	case U_WIN_END:
		return s->coh == CMPI_SOFTWARE && s->op == CMPI_PUT ? 0
			: put_op(o, 0, PROG_FENCE, 0, 0);
	case U_CHUNK:
		return exchange_ops(s, c, proc, o);
	case U_ACK:
		return ack_ops(s, c, proc, o);
	case U_MARK_END:
		o[0] = (prog_op){ .size = cmpi_msgs(s) * cmpi_size(s, c->size), .mark = c->size,
				  .kind = PROG_MARK, .mode = 1 };
		return 1;
	default:
		return 0;
	}
}

static int marks(const cmpi *s, const cmpi_cur *c)
{
	uint32_t warm;

	cmpi__iters(s, c->size, &warm);
	return c->iter >= warm && out_of(s, s->host, c->step) != CMPI_NONE;
}

static void next_size(const cmpi *s, cmpi_cur *c)
{
	uint32_t iters = cmpi__iters(s, c->size, NULL);

	c->seq0 += (uint64_t)iters * cmpi_msgs(s) * cmpi__chunks(s, c->size);
	c->iter0 += iters;
	c->unit = ++c->size < s->nsizes ? U_BAR_SET : U_DONE;
}

static void start_step(const cmpi *s, cmpi_cur *c)
{
	c->msg = c->chunk = 0;
	if (marks(s, c))
		c->unit = U_MARK_BEGIN;
	else
		c->unit = s->op == CMPI_SENDRECV ? U_CHUNK : U_ONESIDED;
}

static void start_iterations(const cmpi *s, cmpi_cur *c)
{
	c->iter = c->step = 0;
	if (active(s))
		start_step(s, c);
	else
		next_size(s, c);
}

static void next_step(const cmpi *s, cmpi_cur *c)
{
	if (++c->step >= nsteps(s)) {
		c->step = 0;
		if (++c->iter >= cmpi__iters(s, c->size, NULL)) {
			next_size(s, c);
			return;
		}
	}
	start_step(s, c);
}

static void end_step(const cmpi *s, cmpi_cur *c)
{
	if (marks(s, c))
		c->unit = U_MARK_END;
	else
		next_step(s, c);
}

/* Move the cursor to the unit after the current one. */
static void advance(const cmpi *s, cmpi_cur *c)
{
	c->idx = 0;
	switch (c->unit) {
	case U_BAR_SET:
		c->peer = 0;
		if (bar_peers(s) > 0)
			c->unit = U_BAR_WAIT;
		else
			start_iterations(s, c);
		break;
	case U_BAR_WAIT:
		if (++c->peer >= bar_peers(s))
			start_iterations(s, c);
		break;
	case U_MARK_BEGIN:
		c->unit = s->op == CMPI_SENDRECV ? U_CHUNK : U_ONESIDED;
		break;
	case U_ONESIDED:
		if (++c->msg >= cmpi_msgs(s))
			c->unit = U_WIN_END;
		break;
	case U_CHUNK:
		if (++c->chunk < cmpi__chunks(s, c->size))
			break;
		c->chunk = 0;
		if (++c->msg < (s->measure == CMPI_BW ? s->window : 2u))
			break;
		if (s->measure == CMPI_BW)
			c->unit = U_ACK;
		else
			end_step(s, c);
		break;
	case U_WIN_END:
	case U_ACK:
		end_step(s, c);
		break;
	case U_MARK_END:
		next_step(s, c);
		break;
	default:
		break;
	}
}

/* --- counting: what the cursor walk produces, in closed form --------------- */

/* Operations of writing / reading one chunk, without the head wait. */
static uint64_t send_ops(const cmpi *s)
{
	return s->coh == CMPI_SOFTWARE ? 4 : 3;
}

static uint64_t recv_ops(const cmpi *s)
{
	return s->coh == CMPI_SOFTWARE ? 7 : 4;
}

/* Operations of one step of size @k (marks and head waits aside). */
static uint64_t step_ops(const cmpi *s, uint32_t k)
{
	int out = out_of(s, s->host, 0) != CMPI_NONE, in = in_of(s, s->host, 0) != CMPI_NONE;
	uint64_t nsend, nrecv, extra = 0;

	if (s->op != CMPI_SENDRECV) {
		uint64_t one = s->coh != CMPI_SOFTWARE ? 1 : s->op == CMPI_PUT ? 3 : 4;

		return cmpi_msgs(s) * one + (s->coh == CMPI_SOFTWARE && s->op == CMPI_PUT ? 0 : 1);
	}
	if (s->measure == CMPI_BW) {
		nsend = (uint64_t)out * s->window, nrecv = (uint64_t)in * s->window;
		extra = (uint64_t)out + in;
	} else {
		nsend = nrecv = (uint64_t)out + in;
	}
	return cmpi__chunks(s, k) * (nsend * (send_ops(s) + 1) + nrecv * recv_ops(s)) + extra;
}

/* Head waits skipped: the first `depth` chunks of each queue this host sends on. */
static uint64_t skipped_waits(const cmpi *s, uint64_t chunks)
{
	uint32_t h = s->host, n = s->nhosts, q, r, dest[2], nd = 0;
	uint64_t sum = 0;

	if (s->op != CMPI_SENDRECV)
		return 0;
	if (s->peers == CMPI_ALLTOALL) {
		queue_pos(s, h, (h + 1) % n, s->measure == CMPI_BW ? R_DATA : R_PING, &q, &r);
		return (uint64_t)(n - 1) * (q * chunks < s->depth ? q * chunks : s->depth);
	}
	if (out_of(s, h, 0) != CMPI_NONE)
		dest[nd++] = out_of(s, h, 0);
	if (s->measure == CMPI_LATENCY && in_of(s, h, 0) != CMPI_NONE &&
	    (nd == 0 || in_of(s, h, 0) != dest[0]))
		dest[nd++] = in_of(s, h, 0);
	for (uint32_t i = 0; i < nd; i++) {
		enum role role = s->measure == CMPI_BW ? R_DATA :
				 dest[i] == out_of(s, h, 0) ? R_PING : R_PONG;

		queue_pos(s, h, dest[i], role, &q, &r);
		sum += q * chunks < s->depth ? q * chunks : s->depth;
	}
	return sum;
}

/*
 * cmpi__total - the operations all the host's processes produce: the
 * barriers, the steps of every iteration, the marks, less the head waits
 * the first chunks of each queue skip.  Equal to what cmpi__next yields
 * (test_cmpi.c counts both).
 */
uint64_t cmpi__total(const cmpi *s)
{
	uint64_t ops = 0, chunks = 0;
	int marker = out_of(s, s->host, 0) != CMPI_NONE;

	if (bar_peers(s) == 0)
		return 0;
	for (uint32_t k = 0; k < s->nsizes; k++) {
		uint32_t warm, iters = cmpi__iters(s, k, &warm);

		ops += (k > 0) + 1 + bar_peers(s);
		if (!active(s))
			continue;
		ops += (uint64_t)iters * nsteps(s) * step_ops(s, k);
		ops += marker ? (uint64_t)(iters - warm) * nsteps(s) * 2 : 0;
		chunks += (uint64_t)iters * cmpi_msgs(s) * cmpi__chunks(s, k);
	}
	return s->procs * (ops - skipped_waits(s, chunks));
}

/* cmpi__start - put @c at the start of the program (done at once if idle). */
void cmpi__start(const cmpi *s, cmpi_cur *c)
{
	*c = (cmpi_cur){ .unit = bar_peers(s) > 0 ? U_BAR_SET : U_DONE };
}

/* cmpi__next - the next operation of process @proc (prog_gen.next). */
int cmpi__next(cmpi *s, uint32_t proc, prog_op *op)
{
	prog_op o[CMPI_UNIT_MAX];

	if (proc >= s->procs)
		return 0;
	cmpi_cur *c = &s->cur[proc];
	while (c->unit != U_DONE) {
		uint32_t n = unit_ops(s, c, proc, o);

		CXL_ASSERT(n <= CMPI_UNIT_MAX);
		if (c->idx < n) {
			*op = o[c->idx++];
			return 1;
		}
		advance(s, c);
	}
	return 0;
}

/*
 * cmpi__cur_ckpt - save or restore cursor @c with visitor @k; a restored
 * cursor outside @s's sweep (another config) fails the visitor.
 */
void cmpi__cur_ckpt(const cmpi *s, cmpi_cur *c, ckpt *k)
{
	CKPT(k, c->seq0);
	CKPT(k, c->iter0);
	CKPT(k, c->size);
	CKPT(k, c->iter);
	CKPT(k, c->step);
	CKPT(k, c->msg);
	CKPT(k, c->chunk);
	CKPT(k, c->peer);
	CKPT(k, c->unit);
	CKPT(k, c->idx);
	if (ckpt_loading(k) && (c->unit > U_DONE || c->idx > CMPI_UNIT_MAX ||
				(c->unit != U_DONE && c->size >= s->nsizes)))
		ckpt_fail(k, "cmpi: a saved cursor (unit %u, size %u) is not of this sweep", c->unit,
			  c->size);
}
