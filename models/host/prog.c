/*
 * models/host/prog.c - host programs: the processes of a host executing the
 * operations a generator gives them (the operations' contract in prog.h;
 * the generators in prog_script.c and cmpi.c).
 *
 * Each process has a current operation.  The pipelined kinds (load, store,
 * nt_load, nt_store, flushopt, a cached or nt set_flag) issue one
 * transaction per line while the process has fewer than workload.queue in
 * flight, and the process moves on to its next operation as soon as the
 * last line is issued; the others wait for what they must: a uc access
 * and a clflush issue each piece only when the process has nothing in
 * flight; a fence, an atomic and a mark's end wait for that too; a
 * wait_flag polls; a wait_irq waits for its interrupts; compute sleeps.
 * Every transaction holds one of the host's slots (req_int.h:
 * workload.queue x host.cores of them, shared with the cache's
 * write-backs); the processes take turns, one transaction each, from a
 * rotating start, so none starves.
 *
 * An operation's latency runs from the moment it becomes the process's
 * current operation until its last transaction is answered (an entry per
 * operation in flight keeps count); op_<kind>_ps histograms hold them.
 *
 * Transactions are requests like those of the other patterns: they count in
 * issued, completed, reads, writes, bytes and the latency histograms
 * (requests, hits included; a flush's write-back counts in writebacks).
 *
 * Statistics: op_<kind>_ps (operation latency, measured window as for the
 * requests: operations begun at or after simulation.warmup), ops (operations
 * retired), polls (wait_flag reads), irqs (interrupts that arrived: a
 * device's MSIs, vector = the process's RPC slot, whose handler runs
 * host.irq_latency before the process sees it; with op_wait_irq_ps only on
 * a host that reaches a device), prog_done_ps (when the
 * last process finished; 0 if one did not), and per measurement class NAME
 * (the generator's): mark_NAME_ps (the intervals), mark_NAME_bytes,
 * mark_NAME_count and mark_NAME_sum_ps (their total time).
 */
#include "models/host/prog.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/xmalloc.h"
#include "models/host/req_int.h"
#include "models/link/bus.h"

/* What a process's transaction is for. */
enum prog_role {
	ROLE_LINE,  /* a line or TLP of an access, a flush's write-back */
	ROLE_POLL,  /* a wait_flag read */
	ROLE_RFO,   /* an atomic's read for ownership: the RMW follows */
};

/* Where a process is. */
enum { P_RUN, P_SLEEP, P_POLL, P_IRQ, P_DONE };

typedef struct prog_ent prog_ent;
struct prog_ent {
	sim_time start;   /* when its operation became current, ps */
	uint32_t pending; /* its transactions in flight */
	uint8_t kind;     /* enum prog_kind */
	uint8_t issuing;  /* 1 while it is the current operation */
	uint8_t used;     /* 1: taken */
};

typedef struct prog_proc prog_proc;
struct prog_proc {
	prog_op op;         /* the current operation (have = 1) */
	uint8_t have;       /* 1: op is current */
	uint8_t st;         /* P_* */
	uint8_t phase;      /* atomic without a cache: 0 read, 1 write; wait_flag: 1 seen */
	uint64_t pos;       /* bytes of op issued */
	uint32_t out;       /* transactions in flight */
	uint16_t ent;       /* entry of the current operation */
	prog_ent *ents;     /* [queue + 1] operations in flight */
	uint16_t *free_ent; /* stack of free entries */
	uint32_t nfree;
	uint16_t irqs;      /* interrupts handled (mod 2^16): what wait_irq compares */
	sim_time *mark;     /* [nclass] begin times */
};

typedef struct prog_run prog_run;
struct prog_run {
	const prog_gen *gen;
	void *gs;               /* the generator's state */
	prog_proc *proc;        /* [nproc] */
	uint32_t nproc;
	uint32_t rr;            /* the process that goes first next time */
	uint32_t pq;            /* workload.queue: transactions in flight per process */
	uint32_t mps;           /* bus.max_payload of the host's link, bytes */
	uint32_t mmio_read;     /* host.mmio_read: bytes of one uncached read of a BAR */
	uint32_t wc;            /* host.write_combine: bytes of one posted write to a BAR */
	uint64_t granule;       /* workload.interleave, bytes: a TLP never crosses one */
	sim_time poll;          /* workload.poll_interval, ps */
	sim_time irq_latency;   /* host.irq_latency: an interrupt's handler, ps */
	uint32_t vec_base;      /* the MSI vector of process 0: requester index x cores */
	uint32_t done;          /* processes finished */
	uint64_t retired;       /* operations retired (progress) */
	uint64_t total;         /* operations in all (the generator's, 0 unknown) */
	uint32_t nclass;        /* measurement classes */
	stats_hist *op_lat[PROG_NKINDS];
	uint64_t *ops, *polls, *irqs, *t_end;
	stats_hist **mk_lat;    /* [nclass] */
	uint64_t **mk_bytes, **mk_count, **mk_sum;
};

static const cfg_key prog_keys[] = {
	{ "host.cores", CFG_INT, "1", "1", "4096", NULL,
	  "host programs: processes per host (they share its cache, its slots and its link)" },
	{ "workload.program", CFG_LIST, "", NULL, NULL, NULL,
	  "pattern program: the operations every process of the host runs, one string each "
	  "(\"uc_store 0 4KiB\", \"fence\", \"set_flag 0x1000 1 nt\", ...; "
	  "models/host/prog_script.c)" },
	{ "workload.poll_interval", CFG_TIME, "100ns", "0ps", NULL, NULL,
	  "host programs: time between a wait_flag poll's answer and the next poll" },
	{ "host.mmio_read", CFG_SIZE, "16B", "1B", "4KiB", NULL,
	  "host programs: bytes one uncached read of a device's BAR fetches at most (a "
	  "non-posted TLP; seed 004's ThunderX-1: 16); uc_load of a BAR splits at this" },
	{ "host.irq_latency", CFG_TIME, "1us", "0ps", NULL, NULL,
	  "host programs: from a device's interrupt (MSI) arriving to the waiting process "
	  "seeing it (the handler and the wake-up; an assumption: seed 004 gives none)" },
	{ "host.write_combine", CFG_SIZE, "64B", "1B", "4KiB", NULL,
	  "host programs: bytes one posted write to a device's BAR carries at most (the "
	  "write-combining buffer; seed 004: 64)" },
};

const cfg_schema prog_schema = { "host programs", prog_keys,
				 sizeof(prog_keys) / sizeof(prog_keys[0]) };

/* --- operation entries ------------------------------------------------------ */

static uint16_t ent_new(prog_proc *P, const prog_op *op, sim_time now)
{
	CXL_ASSERT(P->nfree > 0);
	uint16_t e = P->free_ent[--P->nfree];
	P->ents[e] = (prog_ent){ .start = now, .kind = op->kind, .issuing = 1, .used = 1 };
	return e;
}

/* Entry @e is over if nothing of it is in flight and it is no longer current. */
static void ent_check(sim_comp *c, req *r, prog_proc *P, uint16_t e)
{
	prog_ent *en = &P->ents[e];

	if (en->issuing || en->pending)
		return;
	if (en->start >= r->warmup_time)
		stats_hist_add(r->prog->op_lat[en->kind], sim_now(c) - en->start);
	en->used = 0;
	P->free_ent[P->nfree++] = e;
}

/* The current operation of @P is fully issued: the process moves on. */
static void retire(sim_comp *c, req *r, prog_proc *P)
{
	P->have = 0;
	P->ents[P->ent].issuing = 0;
	r->prog->retired++;
	(*r->prog->ops)++;
	ent_check(c, r, P, P->ent);
}

/* --- transactions ------------------------------------------------------------ */

/* Room for one more transaction of @P on VC @vc? */
static int room(const req *r, const prog_proc *P, uint8_t vc)
{
	return P->out < r->prog->pq && r->outstanding < r->queue && r->cr.n[vc] > 0;
}

/* Make slot @s (taken) a transaction of process @P (index @pi) and count it issued. */
static uint32_t own(sim_comp *c, req *r, prog_proc *P, uint32_t pi, uint32_t s, uint8_t role,
		    int cached)
{
	req_slot *sl = &r->slot[s];
	enum req_kind kind = sl->kind;

	sl->cached = (uint8_t)(cached && r->cached && kind == REQ_ACCESS);
	req__slot_track(r, s, 1);
	if (!r->measuring && sim_now(c) >= r->warmup_time) {
		r->measuring = 1;
		*r->t_first = sim_now(c);
	}
	sl->proc = (uint16_t)pi;
	sl->ent = P->ent;
	sl->role = role;
	sl->issue = sim_now(c);
	if (kind != REQ_WRITEBACK) {
		sl->index = r->issued++;
		(*r->issued_c)++;
	}
	P->out++;
	P->ents[P->ent].pending++;
	return s;
}

/* Take a slot for a transaction of process @P (index @pi): own() a new one. */
static uint32_t take(sim_comp *c, req *r, prog_proc *P, uint32_t pi, enum req_kind kind,
		     uint64_t line, int write, uint8_t role, int cached)
{
	return own(c, r, P, pi, req__slot_new(r, kind, line, write), role, cached);
}

/*
 * An uncached read of @bytes at @addr: of memory, whole lines (aux = their
 * number); of a device's window, exactly @bytes from @addr (aux = @bytes).
 */
static void send_read(sim_comp *c, req *r, prog_proc *P, uint32_t pi, uint64_t addr,
		      uint32_t bytes, uint8_t role)
{
	uint32_t lines = (uint32_t)((addr % CXL_LINE + bytes + CXL_LINE - 1) / CXL_LINE);
	uint32_t s = take(c, r, P, pi, REQ_ACCESS, addr / CXL_LINE, 0, role, 0);

	if (cxl_dev_is(addr)) {
		r->slot[s].bytes = (uint16_t)bytes;
		req__send(c, r, s, CXL_VC_M2S_REQ, addr, 0, 0, (uint16_t)bytes);
		return;
	}
	r->slot[s].bytes = (uint16_t)(lines * CXL_LINE);
	req__send(c, r, s, CXL_VC_M2S_REQ, addr / CXL_LINE * CXL_LINE, 0, 0,
		  (uint16_t)(lines > 1 ? lines : 0));
}

/* A store to a device's BAR is posted: pieces of host.write_combine bytes, no answer. */
static int posted_piece(sim_comp *c, req *r, prog_proc *P, const prog_op *op)
{
	uint64_t a = op->addr + P->pos, left = op->size - P->pos;
	uint64_t n = r->prog->wc - a % r->prog->wc;

	if (!r->cr.n[CXL_VC_M2S_RWD])
		return 0;
	n = n < left ? n : left;
	req__send_posted(c, r, a, (uint16_t)n, op->value);
	P->pos += n;
	return 1;
}

/* An uncached write of @bytes at @addr, carrying flag value @v if @flag. */
static void send_write(sim_comp *c, req *r, prog_proc *P, uint32_t pi, uint64_t addr,
		       uint32_t bytes, int flag, uint16_t v)
{
	uint32_t s = take(c, r, P, pi, REQ_ACCESS, addr / CXL_LINE, 1, ROLE_LINE, 0);

	r->slot[s].bytes = (uint16_t)bytes;
	req__send(c, r, s, CXL_VC_M2S_RWD, addr, (uint16_t)bytes,
		  (uint8_t)(flag ? CXL_PKT_FLAG : 0), v);
}

/*
 * A load or store of @line through the cache: a hit, or a miss (a MemRd,
 * exclusive for a store).  Return: 0 if it cannot go now (no room, or a
 * write-back of the line is on its way).
 */
static int cached_access(sim_comp *c, req *r, prog_proc *P, uint32_t pi, uint64_t line,
			 int read, int flag, uint16_t v, uint8_t role)
{
	int rd = read || r->cached;

	if (!room(r, P, rd ? CXL_VC_M2S_REQ : CXL_VC_M2S_RWD) ||
	    (!req__coh_hits(r, line, read) && req__coh_blocked(r, line)))
		return 0;
	int hit = req__coh_access(c, r, line, read);
	if (hit >= 0) {
		own(c, r, P, pi, (uint32_t)hit, role, 0); /* the cache took the slot */
		if (flag)
			flagmap_set(&r->vals, line, v);
		return 1;
	}
	uint32_t s = take(c, r, P, pi, REQ_ACCESS, line, !read, role, 1);
	r->slot[s].flag = (uint8_t)flag;
	r->slot[s].value = v;
	req__send(c, r, s, rd ? CXL_VC_M2S_REQ : CXL_VC_M2S_RWD, line * CXL_LINE,
		  rd ? 0 : CXL_LINE,
		  (uint8_t)(r->cached ? CXL_PKT_CACHED | (read ? 0 : CXL_PKT_EXCL) :
				(flag ? CXL_PKT_FLAG : 0)), flag && !r->cached ? v : 0);
	return 1;
}

/* Is a transaction of the host on @line in flight (a fill or a write-back)? */
static int line_busy(const req *r, uint64_t line)
{
	return req__line_count(&r->fill_busy, line) || req__coh_blocked(r, line);
}

/*
 * Flush @line (clflush/clflushopt): a dirty line is written back as a
 * transaction of the process; a clean or absent one costs nothing.
 * Return: 0 if it must wait (a transaction on the line in flight, or no room).
 */
static int flush_line(sim_comp *c, req *r, prog_proc *P, uint32_t pi, uint64_t line)
{
	uint16_t v = 0;

	if (!r->cached)
		return 1;
	if (line_busy(r, line) || !room(r, P, CXL_VC_M2S_RWD))
		return 0;
	int f = req__coh_flush(c, r, line, &v);
	if (!f)
		return 1;
	uint32_t s = take(c, r, P, pi, REQ_WRITEBACK, line, 1, ROLE_LINE, 0);
	(*r->wbs)++;
	req__send(c, r, s, CXL_VC_M2S_RWD, line * CXL_LINE, CXL_LINE,
		  (uint8_t)(CXL_PKT_WB | (f & 2 ? CXL_PKT_FLAG : 0)), v);
	return 1;
}

/* Bytes of the next TLP of an uncacheable access at @addr with @left to go. */
static uint32_t tlp_bytes(const prog_run *pr, uint64_t addr, uint64_t left)
{
	uint64_t n = pr->mps - addr % pr->mps;           /* a TLP is MPS-aligned at most */
	uint64_t g = pr->granule - addr % pr->granule;   /* and within one device */

	n = n < g ? n : g;
	return (uint32_t)(n < left ? n : left);
}

/* Bytes from @addr to the end of its line, at most @left. */
static uint64_t line_rest(uint64_t addr, uint64_t left)
{
	uint64_t n = CXL_LINE - addr % CXL_LINE;

	return n < left ? n : left;
}

static void sleep_for(sim_comp *c, prog_proc *P, uint32_t pi, sim_time d)
{
	cxl_event *t = sim_event_new(c);

	P->st = P_SLEEP;
	t->kind = REQ_EV_PROG;
	t->pkt.tag = pi;
	sim_send_self(c, t, d);
}

/* --- the operations -------------------------------------------------------- */

/*
 * Let process @pi go one step: issue one transaction, or retire or start an
 * operation.  Return: 1 if it did something (call again), 0 if it waits.
 */
static int step(sim_comp *c, req *r, uint32_t pi)
{
	prog_run *pr = r->prog;
	prog_proc *P = &pr->proc[pi];
	prog_op *op = &P->op;

	if (P->st != P_RUN)
		return 0;
	if (!P->have) {
		if (!P->nfree)
			return 0; /* every entry in flight: wait for one */
		if (!pr->gen->next(pr->gs, pi, op)) {
			if (P->out)
				return 0;
			P->st = P_DONE;
			if (++pr->done == pr->nproc)
				*pr->t_end = sim_now(c);
			return 0;
		}
		P->have = 1;
		P->pos = 0;
		P->phase = 0;
		P->ent = ent_new(P, op, sim_now(c));
		return 1;
	}
	uint64_t a = op->addr + P->pos, left = op->size - P->pos;
	switch (op->kind) {
	case PROG_LOAD:
	case PROG_STORE:
		if (!left)
			break;
		if (!cached_access(c, r, P, pi, a / CXL_LINE, op->kind == PROG_LOAD, 0, 0, ROLE_LINE))
			return 0;
		P->pos += line_rest(a, left);
		return 1;
	case PROG_NT_LOAD:
	case PROG_NT_STORE:
		if (!left)
			break;
		if (op->kind == PROG_NT_STORE && cxl_dev_is(a))
			return posted_piece(c, r, P, op);
		if (op->kind == PROG_NT_LOAD) {
			if (!room(r, P, CXL_VC_M2S_REQ))
				return 0;
			send_read(c, r, P, pi, a, (uint32_t)line_rest(a, left), ROLE_LINE);
		} else {
			if (!room(r, P, CXL_VC_M2S_RWD) || line_busy(r, a / CXL_LINE))
				return 0;
			req__coh_drop(r, a / CXL_LINE);
			send_write(c, r, P, pi, a, (uint32_t)line_rest(a, left), 0, 0);
		}
		P->pos += line_rest(a, left);
		return 1;
	case PROG_UC_LOAD:
	case PROG_UC_STORE:
		if (left && op->kind == PROG_UC_STORE && cxl_dev_is(a))
			return posted_piece(c, r, P, op);
		if (P->out)
			return 0; /* strictly one at a time */
		if (!left)
			break;
		uint32_t t = tlp_bytes(pr, a, left);
		if (cxl_dev_is(a) && t > pr->mmio_read)
			t = pr->mmio_read;
		if (!room(r, P, op->kind == PROG_UC_LOAD ? CXL_VC_M2S_REQ : CXL_VC_M2S_RWD))
			return 0;
		if (op->kind == PROG_UC_LOAD)
			send_read(c, r, P, pi, a, t, ROLE_LINE);
		else
			send_write(c, r, P, pi, a, t, 0, 0);
		P->pos += t;
		return 1;
	case PROG_FLUSH:
	case PROG_FLUSHOPT:
		if (op->kind == PROG_FLUSH && P->out)
			return 0; /* clflush: one line at a time */
		if (!left)
			break;
		if (!flush_line(c, r, P, pi, a / CXL_LINE))
			return 0;
		P->pos += line_rest(a, left);
		return 1;
	case PROG_SET_FLAG:
		if (P->pos)
			break;
		if (op->mode == PROG_MODE_CACHED) {
			if (!cached_access(c, r, P, pi, op->addr / CXL_LINE, 0, 1, op->value, ROLE_LINE))
				return 0;
		} else {
			if ((op->mode == PROG_MODE_UC && P->out) || !room(r, P, CXL_VC_M2S_RWD) ||
			    line_busy(r, op->addr / CXL_LINE))
				return 0;
			req__coh_drop(r, op->addr / CXL_LINE);
			send_write(c, r, P, pi, op->addr, CXL_LINE, 1, op->value);
		}
		P->pos = CXL_LINE;
		if (op->mode == PROG_MODE_UC)
			return 1; /* retired when answered (P->out == 0 below) */
		break;
	case PROG_WAIT_FLAG:
		if (P->phase) /* seen */
			break;
		if (!room(r, P, CXL_VC_M2S_REQ))
			return 0;
		send_read(c, r, P, pi, op->addr, CXL_LINE, ROLE_POLL);
		P->st = P_POLL;
		(*pr->polls)++;
		return 1;
	case PROG_ATOMIC:
		if (P->out && !P->pos)
			return 0; /* a locked operation waits for the earlier ones */
		if (P->pos)
			break;    /* answered: done (P->out == 0 below) */
		if (r->cached) {
			int hit = req__coh_hits(r, op->addr / CXL_LINE, 0);
			if (!cached_access(c, r, P, pi, op->addr / CXL_LINE, 0, 0, 0,
					   hit ? ROLE_LINE : ROLE_RFO))
				return 0;
			P->pos = 1;
			return 1;
		}
		if (P->out)
			return 0;
		if (!room(r, P, P->phase ? CXL_VC_M2S_RWD : CXL_VC_M2S_REQ))
			return 0;
		if (!P->phase) {
			send_read(c, r, P, pi, op->addr, CXL_LINE, ROLE_LINE);
			P->phase = 1;
			return 1;
		}
		send_write(c, r, P, pi, op->addr, (uint32_t)op->size, 0, 0);
		P->pos = 1;
		return 1;
	case PROG_WAIT_IRQ:
		if (flag_reached(P->irqs, op->value))
			break;
		P->st = P_IRQ; /* req__prog_irq wakes it */
		return 0;
	case PROG_COMPUTE:
		if (P->phase)
			break;
		P->phase = 1;
		sleep_for(c, P, pi, op->addr);
		return 0;
	case PROG_FENCE:
		break;
	case PROG_MARK:
		if (!op->mode) {
			P->mark[op->mark] = sim_now(c);
			retire(c, r, P);
			return 1;
		}
		if (P->out)
			return 0;
		sim_time d = sim_now(c) - P->mark[op->mark];
		stats_hist_add(pr->mk_lat[op->mark], d);
		*pr->mk_bytes[op->mark] += op->size;
		(*pr->mk_count[op->mark])++;
		*pr->mk_sum[op->mark] += d;
		retire(c, r, P);
		return 1;
	default:
		CXL_PANIC("%s: operation kind %u", c->name, op->kind);
	}
	/* everything issued: the pipelined kinds move on now, the others when answered */
	int waits = op->kind == PROG_FENCE || op->kind == PROG_UC_LOAD ||
		    op->kind == PROG_UC_STORE || op->kind == PROG_FLUSH ||
		    op->kind == PROG_ATOMIC ||
		    (op->kind == PROG_SET_FLAG && op->mode == PROG_MODE_UC);
	if (waits && P->out)
		return 0;
	retire(c, r, P);
	return 1;
}

/**
 * req__prog_issue - let the processes go while they can: one step each in
 * turn from a rotating start, until none can.  Nothing is issued at or
 * after simulation.end, nor while write-backs of victims wait.
 */
void req__prog_issue(sim_comp *c, req *r)
{
	prog_run *pr = r->prog;

	if (sim_now(c) >= r->end || r->wb_n)
		return;
	for (int any = 1; any;) {
		any = 0;
		for (uint32_t k = 0; k < pr->nproc; k++)
			any |= step(c, r, (pr->rr + k) % pr->nproc);
		pr->rr = (pr->rr + 1) % pr->nproc;
		if (r->wb_n)
			return;
	}
}

/**
 * req__prog_done - transaction @s of a process is answered (@p: its
 * response; NULL for a cache hit).  A poll that finds its value ends the
 * wait_flag, one that does not sleeps poll_interval; an atomic's fill is
 * followed by its read-modify-write in the cache.
 */
void req__prog_done(sim_comp *c, req *r, req_slot *s, const cxl_packet *p)
{
	prog_run *pr = r->prog;
	uint32_t pi = s->proc;
	prog_proc *P = &pr->proc[pi];
	prog_ent *en = &P->ents[s->ent];

	CXL_ASSERT(pr && pi < pr->nproc && P->out > 0 && en->pending > 0);
	P->out--;
	en->pending--;
	if (s->role == ROLE_POLL) {
		uint16_t v = p && (p->flags & CXL_PKT_FLAG) ? p->aux : 0;
		CXL_ASSERT(P->st == P_POLL);
		P->st = P_RUN;
		if (flag_reached(v, P->op.value))
			P->phase = 1;
		else
			sleep_for(c, P, pi, pr->poll);
	} else if (s->role == ROLE_RFO) {
		/* the line is ours: the read-modify-write in the cache follows */
		sleep_for(c, P, pi, r->cache_latency);
	}
	ent_check(c, r, P, s->ent);
}

/* req__prog_timer - a process's sleep (compute, a poll's interval, an RMW) is over. */
void req__prog_timer(sim_comp *c, req *r, const cxl_event *ev)
{
	prog_proc *P = &r->prog->proc[ev->pkt.tag];

	(void)c;
	CXL_ASSERT(ev->pkt.tag < r->prog->nproc && P->st == P_SLEEP);
	P->st = P_RUN;
}

/**
 * req__prog_msi - a device's interrupt arrived (@ev: an MSI, pkt.tag = its
 * vector, the RPC slot of one of this host's processes): its handler runs
 * host.irq_latency, then the process sees it (req__prog_irq).  Its credit
 * goes back at once: a host always sinks what arrives.
 */
void req__prog_msi(sim_comp *c, req *r, const cxl_event *ev)
{
	prog_run *pr = r->prog;
	uint32_t pi = ev->pkt.tag - (pr ? pr->vec_base : 0);

	cxl_grant(c, 0, CXL_VC_M2S_RWD, 1);
	if (!pr || !pr->irqs || ev->pkt.tag < pr->vec_base || pi >= pr->nproc)
		CXL_PANIC("%s: an interrupt with vector %u, for no process of this host", c->name,
			  ev->pkt.tag);
	(*pr->irqs)++;
	cxl_event *t = sim_event_new(c);
	t->kind = REQ_EV_IRQ;
	t->pkt.tag = pi;
	sim_send_self(c, t, pr->irq_latency);
}

/* req__prog_irq - an interrupt's handler is done: its process sees it. */
void req__prog_irq(sim_comp *c, req *r, const cxl_event *ev)
{
	prog_proc *P = &r->prog->proc[ev->pkt.tag];

	(void)c;
	P->irqs++;
	if (P->st == P_IRQ && flag_reached(P->irqs, P->op.value))
		P->st = P_RUN;
}

/* req__prog_unfinished - 1 if a process did not finish its program (the end cut it). */
int req__prog_unfinished(const req *r)
{
	return r->prog && r->prog->done < r->prog->nproc;
}

/* @devices: the host reaches a device (only then can an interrupt come: irqs and
 * op_wait_irq_ps are registered; generators refuse a wait_irq without one). */
static void register_stats(sim_comp *c, prog_run *pr, int devices)
{
	char name[96];

	for (int k = 0; k < PROG_NKINDS; k++) {
		if (k == PROG_WAIT_IRQ && !devices)
			continue; /* no interrupt can come: the outputs of other hosts unchanged */
		snprintf(name, sizeof(name), "op_%s_ps", prog_kind_name((enum prog_kind)k));
		pr->op_lat[k] = sim_stat_hist(c, name);
	}
	pr->ops = sim_stat_counter(c, "ops");
	pr->polls = sim_stat_counter(c, "polls");
	if (devices)
		pr->irqs = sim_stat_counter(c, "irqs");
	pr->t_end = sim_stat_counter(c, "prog_done_ps");
	pr->mk_lat = xcalloc(pr->nclass + 1, sizeof(*pr->mk_lat));
	pr->mk_bytes = xcalloc(pr->nclass + 1, sizeof(*pr->mk_bytes));
	pr->mk_count = xcalloc(pr->nclass + 1, sizeof(*pr->mk_count));
	pr->mk_sum = xcalloc(pr->nclass + 1, sizeof(*pr->mk_sum));
	for (uint32_t k = 0; k < pr->nclass; k++) {
		const char *cn = pr->gen->class_name(pr->gs, k);
		snprintf(name, sizeof(name), "mark_%s_ps", cn);
		pr->mk_lat[k] = sim_stat_hist(c, name);
		snprintf(name, sizeof(name), "mark_%s_bytes", cn);
		pr->mk_bytes[k] = sim_stat_counter(c, name);
		snprintf(name, sizeof(name), "mark_%s_count", cn);
		pr->mk_count[k] = sim_stat_counter(c, name);
		snprintf(name, sizeof(name), "mark_%s_sum_ps", cn);
		pr->mk_sum[k] = sim_stat_counter(c, name);
	}
}

/**
 * req__prog_init - set up the host's program (workload.pattern program or
 * cmpi): its generator, host.cores processes, and r->queue = slots for all
 * of them (workload.queue each).  Called before the slots are allocated.
 * Return: 0, or a configuration error.
 */
int req__prog_init(sim_comp *c, req *r, const cfg *cf, cxl_err *err)
{
	prog_run *pr = xcalloc(1, sizeof(*pr));
	uint32_t cores = (uint32_t)cfg_int(cf, "host.cores"), peer = c->ports[0].peer;
	uint64_t slots = (uint64_t)cores * r->queue;
	int rc;

	r->prog = pr;
	pr->gen = r->pattern == PAT_PROGRAM ? &prog_script_gen :
		  r->pattern == PAT_CMPI ? &prog_cmpi_gen : &prog_rpc_gen;
	if (slots > 65535)
		return cfg_error_at(cf, "host.cores", err,
				    "%u processes x workload.queue %u = %llu transactions in flight; "
				    "at most 65535", cores, r->queue, (unsigned long long)slots);
	uint32_t gi, gn, largest;
	fab_view_mem_group(r->fv, c->id, &gi, &gn);
	fab_view_mem_groups(r->fv, &largest);
	if (pr->gen->shares_memory && largest < 2 && !r->ndevs)
		return cfg_error_at(cf, "workload.pattern", err,
				    "host programs need hosts that share memory: no two hosts reach "
				    "the same memory devices");
	pr->pq = r->queue;
	r->queue = (uint32_t)slots;
	pr->nproc = cores;
	pr->poll = cfg_time(cf, "workload.poll_interval");
	pr->irq_latency = cfg_time(cf, "host.irq_latency");
	pr->mmio_read = (uint32_t)cfg_size(cf, "host.mmio_read");
	pr->wc = (uint32_t)cfg_size(cf, "host.write_combine");
	/* one device: no granule to respect */
	pr->granule = r->ntargets > 1 ? r->ilv_lines * CXL_LINE : UINT64_C(1) << 62;
	r->warmup = 0; /* workload.warmup counts requests of the patterns; programs use marks */
	pr->mps = fab_view_roles(r->fv, peer) & FAB_ROLE_BUS ?
			  bus_max_payload(sim_cfg_of(c, peer)) : 4096;
	prog_ctx ctx = {
		.host = gi, .nhosts = gn,
		.cores = cores, .mps = pr->mps, .ndevices = r->ntargets,
		.interleave = r->ilv_lines * CXL_LINE,
		.requester = fab_view_requester_index(r->fv, c->id), .ndevs = r->ndevs,
		.cached = r->cached || cfg_size(cf, "host.cache.size") > 0,
	};
	pr->vec_base = ctx.requester * cores;
	if ((rc = pr->gen->init(&pr->gs, &ctx, cf, err)))
		return rc;
	pr->nclass = pr->gen->nclasses(pr->gs);
	pr->total = pr->gen->total(pr->gs);
	pr->proc = xcalloc(cores, sizeof(*pr->proc));
	for (uint32_t i = 0; i < cores; i++) {
		prog_proc *P = &pr->proc[i];
		P->ents = xcalloc(pr->pq + 1, sizeof(*P->ents));
		P->free_ent = xmalloc((pr->pq + 1) * sizeof(*P->free_ent));
		for (uint32_t k = 0; k <= pr->pq; k++)
			P->free_ent[P->nfree++] = (uint16_t)(pr->pq - k);
		P->mark = xcalloc(pr->nclass + 1, sizeof(*P->mark));
	}
	register_stats(c, pr, r->ndevs > 0);
	if (pr->total)
		sim_progress_work(c, &pr->retired, pr->total);
	return 0;
}

/* req__prog_finish - free the program (statistics stay). */
void req__prog_finish(sim_comp *c, req *r)
{
	prog_run *pr = r->prog;

	(void)c;
	if (!pr)
		return;
	if (pr->gs)
		pr->gen->free(pr->gs);
	for (uint32_t i = 0; pr->proc && i < pr->nproc; i++) {
		free(pr->proc[i].ents);
		free(pr->proc[i].free_ent);
		free(pr->proc[i].mark);
	}
	free(pr->proc);
	free(pr->mk_lat);
	free(pr->mk_bytes);
	free(pr->mk_count);
	free(pr->mk_sum);
	free(pr);
	r->prog = NULL;
}

/* Save or restore the operation entries and mark times of process @P. */
static void proc_ckpt(const prog_run *pr, prog_proc *P, ckpt *k)
{
	uint32_t nent = ckpt_count(k, pr->pq + 1, pr->pq + 1);

	CKPT(k, P->op);
	CKPT(k, P->have);
	CKPT(k, P->st);
	CKPT(k, P->phase);
	CKPT(k, P->pos);
	CKPT(k, P->out);
	CKPT(k, P->ent);
	CKPT(k, P->irqs);
	for (uint32_t e = 0; e < nent; e++) {
		prog_ent *en = &P->ents[e];
		CKPT(k, en->start);
		CKPT(k, en->pending);
		CKPT(k, en->kind);
		CKPT(k, en->issuing);
		CKPT(k, en->used);
	}
	P->nfree = ckpt_count(k, P->nfree, pr->pq + 1);
	ckpt_bytes(k, P->free_ent, P->nfree * sizeof(*P->free_ent));
	ckpt_bytes(k, P->mark, pr->nclass * sizeof(*P->mark));
	if (!ckpt_loading(k))
		return;
	if (nent != pr->pq + 1 || P->st > P_DONE || P->ent > pr->pq)
		ckpt_fail(k, "a saved process does not fit workload.queue %u", pr->pq);
	for (uint32_t i = 0; i < P->nfree; i++)
		if (P->free_ent[i] > pr->pq)
			ckpt_fail(k, "a saved process's free entry %u is out of range", P->free_ent[i]);
}

/**
 * req__prog_ckpt - save or restore the host program's state (core/ckpt.h):
 * each process (its current operation, where it is in it, its operations
 * in flight, its interrupts and mark times), the turn, the progress
 * counts, then the generator's cursors (prog_gen.ckpt).  Nothing for the
 * other patterns.  The processes, entries and classes are the config's:
 * a checkpoint with other numbers fails the visitor.
 */
void req__prog_ckpt(req *r, ckpt *k)
{
	prog_run *pr = r->prog;

	if (!pr)
		return;
	ckpt_mark(k, 0x50524f47u, "host program"); /* "PROG" */
	uint32_t nproc = ckpt_count(k, pr->nproc, pr->nproc);
	uint32_t nclass = ckpt_count(k, pr->nclass, pr->nclass);
	if (ckpt_loading(k) && (nproc != pr->nproc || nclass != pr->nclass))
		ckpt_fail(k, "%u processes and %u mark classes saved, %u and %u configured", nproc,
			  nclass, pr->nproc, pr->nclass);
	CKPT(k, pr->rr);
	CKPT(k, pr->done);
	CKPT(k, pr->retired);
	for (uint32_t i = 0; i < nproc && !ckpt_failed(k); i++)
		proc_ckpt(pr, &pr->proc[i], k);
	ckpt_mark(k, 0x47454e53u, "program generator"); /* "GENS" */
	pr->gen->ckpt(pr->gs, k);
}
