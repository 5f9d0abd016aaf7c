/*
 * core/xport.c - MPI transport (see xport.h).
 */
#include "core/xport.h"

#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/xmalloc.h"

/* Tags alternate with the window's parity: a neighbour can run at most one
 * window ahead (it needs this rank's batch to finish its own window), so
 * two consecutive windows' batches can never be confused. */
#define TAG_EVENTS 16

typedef struct batch batch;
struct batch {
	cxl_event *ev; /* events queued for this rank */
	size_t n;      /* events in use */
	size_t cap;    /* capacity */
};

struct xport {
	int rank, nranks;  /* this rank, ranks in the job */
	int nnb;           /* neighbours */
	int *nb;           /* neighbour ranks, ascending */
	batch *out;        /* outbound batch per rank (index = rank) */
	MPI_Request *req;  /* one send request per neighbour */
	cxl_event *in;     /* receive buffer */
	int parity;        /* window parity: which tag this exchange uses */
	int complete;      /* every rank has every other as neighbour (agreed) */
	MPI_Datatype ev_type; /* one event: sizeof(cxl_event) contiguous bytes */
	size_t in_cap;     /* its capacity in events */
	/* the window's split collective (xport_min_stop_begin/_end) */
	uint64_t coll_in[2], coll_out[2]; /* {minimum, ~stop}: its buffers */
	MPI_Request coll_req; /* outstanding: MPI_REQUEST_NULL if none */
};

static void abort_hook(void)
{
	MPI_Abort(MPI_COMM_WORLD, 1);
}

/*
 * Started by an MPI launcher?  Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE,
 * PMIx launchers (srun --mpi=pmix, prterun) PMIX_RANK, MPICH's Hydra and
 * PMI-1/2 launchers (srun --mpi=pmi2) PMI_RANK / PMI_SIZE.  CXLFAB_MPI
 * overrides: "1" always, "0" never.
 */
static int launched(void)
{
	static const char *const vars[] = {
		"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
	};
	const char *force = getenv("CXLFAB_MPI");

	if (force && *force)
		return strcmp(force, "0") != 0;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (getenv(vars[i]))
			return 1;
	return 0;
}

/* Is MPI running (started by xport_start and not finalised)? */
static int mpi_on(void)
{
	int init = 0, fin = 0;

	MPI_Initialized(&init);
	if (init)
		MPI_Finalized(&fin);
	return init && !fin;
}

void xport_start(int *argc, char ***argv, int *rank, int *nranks)
{
	if (!launched()) {
		*rank = 0;
		*nranks = 1;
		cxl_set_panic_rank(0);
		return;
	}
	MPI_Init(argc, argv);
	MPI_Comm_rank(MPI_COMM_WORLD, rank);
	MPI_Comm_size(MPI_COMM_WORLD, nranks);
	cxl_set_panic_rank(*rank);
	cxl_set_abort_hook(abort_hook);
}

void xport_stop(void)
{
	cxl_set_abort_hook(NULL);
	if (mpi_on())
		MPI_Finalize();
}

xport *xport_create(int rank, int nranks, const uint8_t *neighbour)
{
	xport *x = xcalloc(1, sizeof(*x));

	x->rank = rank;
	x->nranks = nranks;
	x->nb = xmalloc((size_t)nranks * sizeof(*x->nb));
	for (int r = 0; r < nranks; r++)
		if (r != rank && neighbour[r])
			x->nb[x->nnb++] = r;
	x->out = xcalloc((size_t)nranks, sizeof(*x->out));
	for (int i = 0; i < x->nnb; i++) {
		batch *b = &x->out[x->nb[i]];
		b->cap = 256;
		b->ev = xmalloc(b->cap * sizeof(*b->ev));
		b->n = 1; /* slot 0: the header */
	}
	x->req = xmalloc((size_t)(x->nnb ? x->nnb : 1) * sizeof(*x->req));
	x->coll_req = MPI_REQUEST_NULL;
	MPI_Type_contiguous((int)sizeof(cxl_event), MPI_BYTE, &x->ev_type);
	MPI_Type_commit(&x->ev_type);
	/* all ranks must take the same branch each window: agree on it once */
	int mine = x->nnb == nranks - 1, all;
	MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	x->complete = all;
	return x;
}

void xport_destroy(xport *x)
{
	if (!x)
		return;
	if (x->coll_req != MPI_REQUEST_NULL) /* a run that stopped with one started */
		MPI_Wait(&x->coll_req, MPI_STATUS_IGNORE);
	for (int r = 0; r < x->nranks; r++)
		free(x->out[r].ev);
	free(x->out);
	free(x->nb);
	free(x->req);
	free(x->in);
	MPI_Type_free(&x->ev_type);
	free(x);
}

void xport_post(xport *x, int dst, const cxl_event *ev)
{
	batch *b = &x->out[dst];

	if (!b->n)
		CXL_PANIC("event for rank %d, which is not a neighbour of rank %d", dst, x->rank);
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 256;
		b->ev = xrealloc(b->ev, b->cap * sizeof(*b->ev));
	}
	b->ev[b->n++] = *ev;
}

void xport_discard(xport *x)
{
	for (int i = 0; i < x->nnb; i++)
		x->out[x->nb[i]].n = 1; /* slot 0: the header */
}

int xport_complete(const xport *x)
{
	return x->complete;
}

static sim_time recv_one(xport *x, int *stop, xport_deliver_fn *deliver, void *ctx)
{
	MPI_Status st;
	int count;

	MPI_Probe(MPI_ANY_SOURCE, TAG_EVENTS + x->parity, MPI_COMM_WORLD, &st);
	MPI_Get_count(&st, x->ev_type, &count);
	size_t n = count > 0 ? (size_t)count : 0;
	if (n > x->in_cap) {
		x->in_cap = n * 2;
		free(x->in);
		x->in = xmalloc(x->in_cap * sizeof(*x->in));
	}
	MPI_Recv(x->in, count, x->ev_type, st.MPI_SOURCE, TAG_EVENTS + x->parity, MPI_COMM_WORLD,
		 MPI_STATUS_IGNORE);
	if (n < 1 || x->in[0].seq + 1 != n)
		CXL_PANIC("malformed event batch from rank %d (%d events)", st.MPI_SOURCE, count);
	for (size_t i = 1; i < n; i++)
		deliver(ctx, &x->in[i]);
	if (x->in[0].kind > *stop)
		*stop = x->in[0].kind;
	return x->in[0].time;
}

sim_time xport_exchange(xport *x, sim_time bound, int *stop, xport_deliver_fn *deliver,
			void *ctx)
{
	sim_time m = bound;
	uint16_t mine = (uint16_t)*stop;

	for (int i = 0; i < x->nnb; i++) {
		batch *b = &x->out[x->nb[i]];
		b->ev[0] = (cxl_event){ .time = bound, .seq = b->n - 1, .kind = mine };
		if (b->n > (size_t)INT_MAX)
			CXL_PANIC("%zu events for rank %d in one window (at most %d)", b->n,
				  x->nb[i], INT_MAX);
		MPI_Isend(b->ev, (int)b->n, x->ev_type, x->nb[i],
			  TAG_EVENTS + x->parity, MPI_COMM_WORLD, &x->req[i]);
	}
	for (int i = 0; i < x->nnb; i++) {
		sim_time t = recv_one(x, stop, deliver, ctx);
		m = t < m ? t : m;
	}
	MPI_Waitall(x->nnb, x->req, MPI_STATUSES_IGNORE);
	for (int i = 0; i < x->nnb; i++)
		x->out[x->nb[i]].n = 1;
	x->parity ^= 1;
	return m;
}

uint64_t xport_min_u64(uint64_t v)
{
	uint64_t r;

	MPI_Allreduce(&v, &r, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
	return r;
}

/*
 * xport_min_stop - the window's one collective when not every rank is a
 * neighbour: the global minimum of @v and the global maximum of *@stop, in
 * one allreduce (MIN over {v, ~stop}).
 */
uint64_t xport_min_stop(uint64_t v, int *stop)
{
	uint64_t in[2] = { v, ~(uint64_t)(uint32_t)*stop }, out[2];

	MPI_Allreduce(in, out, 2, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
	*stop = (int)(uint32_t)~out[1];
	return out[0];
}

void xport_min_stop_begin(xport *x, uint64_t v, int stop)
{
	if (x->coll_req != MPI_REQUEST_NULL)
		CXL_PANIC("rank %d starts a window collective with one outstanding", x->rank);
	x->coll_in[0] = v;
	x->coll_in[1] = ~(uint64_t)(uint32_t)stop;
	MPI_Iallreduce(x->coll_in, x->coll_out, 2, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD,
		       &x->coll_req);
}

int xport_min_stop_started(const xport *x)
{
	return x->coll_req != MPI_REQUEST_NULL;
}

uint64_t xport_min_stop_end(xport *x, int *stop)
{
	if (x->coll_req == MPI_REQUEST_NULL)
		CXL_PANIC("rank %d waits for a window collective it did not start", x->rank);
	MPI_Wait(&x->coll_req, MPI_STATUS_IGNORE);
	*stop = (int)(uint32_t)~x->coll_out[1];
	return x->coll_out[0];
}

/*
 * xport_agree_u64 - the least and greatest of each of @n values over the
 * ranks, in one allreduce (MIN over {v, ~v}); @lo and @hi get n values each.
 */
void xport_agree_u64(const uint64_t *v, size_t n, uint64_t *lo, uint64_t *hi)
{
	uint64_t *in = xmalloc(2 * n * sizeof(*in)), *out = xmalloc(2 * n * sizeof(*out));

	for (size_t i = 0; i < n; i++) {
		in[i] = v[i];
		in[n + i] = ~v[i];
	}
	MPI_Allreduce(in, out, (int)(2 * n), MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
	for (size_t i = 0; i < n; i++) {
		lo[i] = out[i];
		hi[i] = ~out[n + i];
	}
	free(in);
	free(out);
}

/* xport_sum_u64 - global sum of @v over every rank (one allreduce). */
uint64_t xport_sum_u64(uint64_t v)
{
	uint64_t r;

	MPI_Allreduce(&v, &r, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
	return r;
}

int xport_max_int(int v)
{
	int r;

	MPI_Allreduce(&v, &r, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return r;
}

void *xport_gather(const void *buf, size_t len, size_t *lens)
{
	int rank, n;
	unsigned long long mine = len;

	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	unsigned long long *all = rank == 0 ? xmalloc((size_t)n * sizeof(*all)) : NULL;
	MPI_Gather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, 0,
		   MPI_COMM_WORLD);
	int *cnt = NULL, *disp = NULL;
	char *out = NULL;
	if (rank == 0) {
		cnt = xmalloc((size_t)n * sizeof(*cnt));
		disp = xmalloc((size_t)n * sizeof(*disp));
		size_t total = 0;
		for (int r = 0; r < n; r++) {
			if (total + all[r] > (size_t)0x7fffffff)
				CXL_PANIC("gathered statistics exceed 2 GiB");
			lens[r] = (size_t)all[r];
			cnt[r] = (int)all[r];
			disp[r] = (int)total;
			total += all[r];
		}
		out = xmalloc(total);
	}
	MPI_Gatherv(buf, (int)len, MPI_BYTE, out, cnt, disp, MPI_BYTE, 0, MPI_COMM_WORLD);
	free(all);
	free(cnt);
	free(disp);
	return out;
}

void xport_barrier(void)
{
	MPI_Barrier(MPI_COMM_WORLD);
}

void xport_abort(int code)
{
	if (mpi_on())
		MPI_Abort(MPI_COMM_WORLD, code);
	exit(code);
}
