/*
 * test/core/mpi/mpi_faults.c - drives the engine's cross-rank panics, which no
 * correct model or rank can reach, for t_faults.sh (run under mpirun -np 2).
 *
 *   mpi_faults lookahead   component a (rank 0) sends over its 1 ns link to b
 *                          (rank 1) while the engine's window is forced to end
 *                          far later: "... (lookahead violated)"
 *   mpi_faults malformed   rank 1 sends rank 0 a batch whose header counts more
 *                          events than it carries: "malformed event batch ..."
 * Each must end the whole job through the panic path (message, MPI_Abort),
 * never hang; the test checks the message and the exit status.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "core/engine.h"
#include "core/sim_int.h"
#include "core/xport.h"

/* --- lookahead ---------------------------------------------------------- */

static int a_init(sim_comp *c, void *state, const cfg *cf, cxl_err *err)
{
	(void)state; (void)cf; (void)err;
	if (c->id == 0)
		sim_send_self(c, sim_event_new(c), 5000);
	return 0;
}

static void a_event(sim_comp *c, void *state, cxl_event *ev)
{
	(void)state;
	/* a bug in the synchroniser would look like this: a window longer than
	 * the lookahead, so a cross-rank send lands inside it */
	c->eng->window_end = c->eng->now + 1000000;
	sim_send_port(c, ev, 0, 0);
}

static const model_ops fault_ops = { .name = "fault", .init = a_init, .event = a_event };

static int lookahead(int rank, int nranks)
{
	static const cfg_schema *const schemas[] = { &sim_schema };
	const char *sets[] = { "simulation.end=1us" };
	sim_graph g;
	cfg *cf = NULL;
	cxl_err err = { 0 };
	int32_t rank_of[2] = { 0, 1 };

	graph_init(&g);
	graph_add_comp(&g, &fault_ops, "a", 1);
	graph_add_comp(&g, &fault_ops, "b", 1);
	graph_add_link(&g, 0, 0, 1, 0, 1000, 1);
	if (cfg_load(&cf, NULL, schemas, 1, sets, 1, &err))
		return fprintf(stderr, "mpi_faults: %s\n", err.msg), 1;
	sim_opts o = { .rank = rank, .nranks = nranks, .seed = 1, .end = 1000000 };
	sim_engine *e = sim_engine_create(&g, rank_of, cf, &o, &err);
	if (!e || sim_engine_init(e, &err))
		return fprintf(stderr, "mpi_faults: %s\n", err.msg), 1;
	sim_engine_run(e); /* panics on rank 0 */
	return 0;
}

/* --- malformed ---------------------------------------------------------- */

static void ignore(void *ctx, const cxl_event *ev)
{
	(void)ctx; (void)ev;
}

static int malformed(int rank, int nranks)
{
	uint8_t nb[2] = { 1, 1 };
	xport *x = xport_create(rank, nranks, nb);
	int stop = 0;

	if (rank == 1) {
		/* the first window's tag (xport.c: TAG_EVENTS 16, parity 0): a header
		 * announcing 5 events, followed by 2 */
		cxl_event b[3];
		memset(b, 0, sizeof(b));
		b[0].seq = 5;
		MPI_Send(b, (int)sizeof(b), MPI_BYTE, 0, 16, MPI_COMM_WORLD);
	}
	xport_exchange(x, SIM_TIME_MAX, &stop, ignore, NULL); /* rank 0 panics */
	xport_destroy(x);
	return 0;
}

int main(int argc, char **argv)
{
	int rank, nranks, rc = 2;

	xport_start(&argc, &argv, &rank, &nranks);
	if (nranks != 2 || argc != 2) {
		if (rank == 0)
			fprintf(stderr, "usage: mpirun -np 2 mpi_faults lookahead|malformed\n");
	} else if (!strcmp(argv[1], "lookahead")) {
		rc = lookahead(rank, nranks);
	} else if (!strcmp(argv[1], "malformed")) {
		rc = malformed(rank, nranks);
	}
	xport_stop();
	return rc;
}
