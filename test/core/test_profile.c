/*
 * test/core/test_profile.c - unit tests for core/profile.c.
 *
 * The cluster model's option parses (default, units, every error); the log
 * sorts by time and counts the records before the stop; a hand-made replay
 * on a chain of four components (ranks 0 0 1 1, links of 10 ps) gives the
 * windows the engine's loop would run (idle stretch skipped, the last one cut
 * at the stop), events per rank, cross-rank sends by the window they are sent
 * in (init's in window 0, one delivered after the stop still counted), the
 * neighbours, the ceiling and the predicted time term by term; on 4 ranks
 * of a chain the windows and collective terms of the delayed minimum; with
 * global sends every rank neighbours every other and no collective is
 * taken; one rank runs one window and predicts its own time.
 */
#include "core/profile.h"

#include <check.h>
#include <math.h>

#include "core/sim.h"

static const model_ops t_ops = { .name = "t" };

static void chain(sim_graph *g)
{
	graph_init(g);
	for (int i = 0; i < 4; i++) {
		char name[8] = { 'c', (char)('0' + i), 0 };
		graph_add_comp(g, &t_ops, name, 1);
	}
	for (uint32_t i = 0; i < 3; i++)
		graph_add_link(g, i, 1, i + 1, 0, 10, 1);
}

/* Sends: (time, sent, dst, src). */
static void fill(prof_log *l)
{
	prof_log_init(l);
	prof_log_add(l, 31, 30, 3, 3);             /* window 3, rank 1 */
	prof_log_add(l, 0, PROF_SENT_INIT, 0, 0);  /* init, window 1 */
	prof_log_add(l, 12, 5, 2, 1);              /* sent in window 1 across, runs in 2 */
	prof_log_add(l, 5, 0, 1, 0);               /* window 1, rank 0 */
	prof_log_add(l, 30, PROF_SENT_INIT, 3, 2); /* init's send, rank 1 -> 1 */
	prof_log_add(l, 100, 31, 0, 3);            /* after the stop, rank 1 -> 0 */
	prof_log_add(l, 35, PROF_SENT_INIT, 2, 1); /* init, across: window 0 */
}

START_TEST(test_profile_net_parse)
{
	prof_net n;
	cxl_err err = { 0 };

	ck_assert_int_eq(prof_net_parse(PROF_NET_DEFAULT, &n, &err), 0);
	ck_assert(fabs(n.msg_s - 1.5e-6) < 1e-15);
	ck_assert(fabs(n.bytes_per_s - 12.5e9) < 1);
	ck_assert(fabs(n.step_s - 1.5e-6) < 1e-15);
	ck_assert_int_eq(prof_net_parse("2ns,800MB/s,1us", &n, &err), 0);
	ck_assert(fabs(n.msg_s - 2e-9) < 1e-18 && fabs(n.bytes_per_s - 8e8) < 1);
	ck_assert_int_eq(prof_net_parse("1us,1GB/s", &n, &err), CXL_EINVAL);
	ck_assert(n.event_s == 0);
	ck_assert_int_eq(prof_net_parse("1us,1GB/s,1us,280ns", &n, &err), 0);
	ck_assert(fabs(n.event_s - 280e-9) < 1e-18);
	ck_assert_int_eq(prof_net_parse("1us,1GB/s,1us,0ns", &n, &err), CXL_EINVAL);
	ck_assert_int_eq(prof_net_parse("1us,1GB/s,1us,1us,1us", &n, &err), CXL_EINVAL);
	ck_assert_int_eq(prof_net_parse("1,1GB/s,1us", &n, &err), CXL_EINVAL);
	ck_assert_int_eq(prof_net_parse("1us,-1GB/s,1us", &n, &err), CXL_EINVAL);
	ck_assert_int_eq(prof_net_parse("1us,1GB,1us", &n, &err), CXL_EINVAL);
	ck_assert_int_eq(prof_net_parse("1us,1GB/s,never", &n, &err), CXL_EINVAL);
}
END_TEST

START_TEST(test_profile_log_sort)
{
	prof_log l;

	fill(&l);
	ck_assert_uint_eq(prof_log_sort(&l, 50), 6);
	for (size_t i = 1; i < l.n; i++)
		ck_assert_uint_le(l.r[i - 1].time, l.r[i].time);
	ck_assert_uint_eq(prof_log_sort(&l, 0), 0);
	ck_assert_uint_eq(prof_log_sort(&l, SIM_TIME_MAX), 7);
	prof_log_free(&l);
	ck_assert_uint_eq(prof_log_sort(&l, 10), 0);
}
END_TEST

START_TEST(test_profile_replay_two_ranks)
{
	sim_graph g;
	prof_log l;
	prof_result r;
	int32_t rank_of[4] = { 0, 0, 1, 1 };
	prof_input in = { .log = &l, .stop = 50, .g = &g, .event_s = 1e-6 };

	chain(&g);
	fill(&l);
	prof_net_parse("1us,1GB/s,1us", &in.net, NULL);
	in.executed = prof_log_sort(&l, in.stop);
	prof_replay(&in, rank_of, 2, &r);
	ck_assert_uint_eq(r.lookahead, 10);
	ck_assert_uint_eq(r.edge_cut, 1);
	ck_assert_int_eq(r.complete, 1);
	/* [0,10): 0 5 | [12,22): 12 | [30,40): 30 31 35 - 22..30 idle */
	ck_assert_uint_eq(r.windows, 3);
	ck_assert_uint_eq(r.win[2].start, 12);
	ck_assert_uint_eq(r.win[2].end, 22);
	ck_assert_uint_eq(r.win[3].start, 30);
	ck_assert_uint_eq(r.win[3].end, 40);
	ck_assert_uint_eq(r.events, 6);
	ck_assert_uint_eq(r.events_per_rank[0], 2);
	ck_assert_uint_eq(r.events_per_rank[1], 4);
	ck_assert_uint_eq(r.busiest_sum, 2 + 1 + 3);
	/* cross: 1->2 sent at 5 (window 1), 1->2 by init (0), 3->0 at 31 (3) */
	ck_assert_uint_eq(r.remote, 3);
	ck_assert_uint_eq(r.remote_per_rank[0], 2);
	ck_assert_uint_eq(r.remote_per_rank[1], 1);
	ck_assert_uint_eq(r.npairs, 3);
	ck_assert_uint_eq(r.pairs[0].window, 0);
	ck_assert_uint_eq(r.pairs[1].window, 1);
	ck_assert_uint_eq(r.pairs[2].window, 3);
	ck_assert_int_eq(r.pairs[2].from, 1);
	ck_assert_uint_eq(r.win[1].remote, 1);
	ck_assert_uint_eq(r.neighbours[0], 1);
	ck_assert_uint_eq(r.neighbours[1], 1);
	ck_assert(fabs(r.ceiling - 1.0) < 1e-12);
	/* 4 exchanges: 1 message (1us) + 96 B x (1 + events) at 1 GB/s; no collective */
	double msg = 4e-6 + 96e-9 * (2 + 2 + 1 + 2);
	ck_assert(fabs(r.message_s - msg) < 1e-15);
	ck_assert(r.collective_s == 0);
	ck_assert(fabs(r.compute_s - 6e-6) < 1e-15);
	ck_assert(fabs(r.loop_s - (6e-6 + msg)) < 1e-15);
	ck_assert(fabs(r.efficiency - 6e-6 / r.loop_s / 2) < 1e-12);
	prof_result_free(&r);
	prof_log_free(&l);
	graph_free(&g);
}
END_TEST

START_TEST(test_profile_replay_one_rank_and_global)
{
	sim_graph g;
	prof_log l;
	prof_result r;
	int32_t one[4] = { 0 }, rr[4] = { 0, 1, 2, 3 };
	prof_input in = { .log = &l, .stop = 50, .g = &g, .event_s = 1e-6 };

	chain(&g);
	fill(&l);
	prof_net_parse(PROF_NET_DEFAULT, &in.net, NULL);
	in.executed = prof_log_sort(&l, in.stop);
	prof_replay(&in, one, 1, &r);
	ck_assert_uint_eq(r.windows, 1);
	ck_assert_uint_eq(r.win[1].end, 50);
	ck_assert_uint_eq(r.remote, 0);
	ck_assert_uint_eq(r.lookahead, SIM_TIME_MAX);
	ck_assert(fabs(r.loop_s - 6e-6) < 1e-15 && fabs(r.efficiency - 1) < 1e-12);
	prof_result_free(&r);
	/* a chain on 4 ranks: ends have 1 neighbour, so a collective of 2 steps,
	 * read one boundary late (the delayed minimum, sync.c): T_j = max(U_{j-1},
	 * G_{j-1}): [0,10) 0 5 | [10,20) 12 | [20,30) empty (G_2 = 12 was stale)
	 * | [30,40) 30 31 35 | [40,50) empty (the end) */
	static const sim_time starts[] = { 0, 10, 20, 30, 40 };
	prof_replay(&in, rr, 4, &r);
	ck_assert_int_eq(r.complete, 0);
	ck_assert_uint_eq(r.neighbours[0], 1);
	ck_assert_uint_eq(r.neighbours[1], 2);
	ck_assert_uint_eq(r.windows, 5);
	for (int j = 0; j < 5; j++)
		ck_assert_uint_eq(r.win[j + 1].start, starts[j]);
	ck_assert_uint_eq(r.win[3].events, 0);
	ck_assert_uint_eq(r.events, 6);
	/* exchange 0 waits for its allreduce (3 us); the later ones' messages
	 * (the middle ranks': 2 x 1.5 us) cover theirs */
	ck_assert(fabs(r.collective_s - 3e-6) < 1e-15);
	prof_result_free(&r);
	/* messages faster than the allreduce: exchanges 2.. wait for what is left */
	prof_net_parse("0.5us,12.5GB/s,1.5us", &in.net, NULL);
	prof_replay(&in, rr, 4, &r);
	ck_assert(r.win[0].exchange_s > 3e-6);
	ck_assert(r.win[1].exchange_s < 2e-6); /* waits for no collective */
	for (int j = 2; j <= 5; j++)
		ck_assert(fabs(r.win[j].exchange_s - 3e-6) < 1e-15);
	ck_assert(fabs(r.loop_s - (r.compute_s + r.message_s + r.collective_s)) < 1e-15);
	prof_result_free(&r);
	prof_net_parse(PROF_NET_DEFAULT, &in.net, NULL);
	g.global_lookahead = 7;
	prof_replay(&in, rr, 4, &r);
	ck_assert_int_eq(r.complete, 1);
	ck_assert_uint_eq(r.lookahead, 7);
	ck_assert_uint_eq(r.neighbours[0], 3);
	ck_assert(r.collective_s == 0);
	prof_result_free(&r);
	prof_log_free(&l);
	graph_free(&g);
}
END_TEST

Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");
	TCase *parse = tcase_create("parse");
	TCase *replay = tcase_create("replay");

	tcase_add_test(parse, test_profile_net_parse);
	tcase_add_test(parse, test_profile_log_sort);
	tcase_add_test(replay, test_profile_replay_two_ranks);
	tcase_add_test(replay, test_profile_replay_one_rank_and_global);
	suite_add_tcase(s, parse);
	suite_add_tcase(s, replay);
	return s;
}
