/*
 * test/models/proto/test_cxl_fc.c - batched credit return
 * (models/proto/cxl_fc.h), the parts that need no engine: the time-0
 * negotiation (batch capped at the node's grant, piggyback only when the
 * peer takes it), credits carried by packets (4 bits per VC, at most 15,
 * the rest held), their arrival (added, cleared), and packed returns
 * (cxl_credit_apply).  The timer and the batch trigger run in engine
 * tests: test/integration/t_credits.sh.
 */
#include <check.h>
#include <stdint.h>

#include "models/proto/cxl_fc.h"
#include "models/proto/cxl_proto.h"

static cxl_event grant_ev(uint16_t port, uint32_t batch, sim_time timer, int piggy)
{
	cxl_event ev = { .kind = CXL_EV_CREDIT, .dst_port = port };

	ev.pkt.mclass = CXL_VC_ALL;
	ev.pkt.aux = 32;
	if (batch > 1 || piggy)
		cxl_fc_mark_grant(&ev, batch, timer, piggy);
	return ev;
}

START_TEST(test_cxl_fc_grant_negotiates_and_caps)
{
	cxl_fc f;
	cxl_event g = grant_ev(1, 16, 1000000, 1);

	cxl_fc_init(&f, 2, CXL_EV_MODEL);
	ck_assert(!cxl_fc_batching(&f, 0) && !cxl_fc_batching(&f, 1));
	cxl_fc_on_grant(&f, &g, 4); /* the node grants only 4: capped */
	ck_assert_uint_eq(f.port[1].batch, 4);
	ck_assert_uint_eq(f.port[1].timer, 1000000);
	ck_assert(f.port[1].piggy && f.port[1].peer_piggy);
	ck_assert(!cxl_fc_batching(&f, 0));
	g = grant_ev(0, 1, 0, 0); /* off: nothing configured */
	cxl_fc_on_grant(&f, &g, 32);
	ck_assert(!cxl_fc_batching(&f, 0) && !f.port[0].peer_piggy);
	g.pkt.mclass = CXL_VC_M2S_REQ; /* not a time-0 grant: ignored */
	g.pkt.tag = 8;
	g.pkt.addr = 5;
	cxl_fc_on_grant(&f, &g, 32);
	ck_assert(!cxl_fc_batching(&f, 0));
	cxl_fc_destroy(&f);
}
END_TEST

START_TEST(test_cxl_fc_piggy_carries_at_most_15_per_vc)
{
	cxl_fc f;
	cxl_event ev = { .kind = CXL_EV_PKT };
	cxl_credits cr = { { 0 } };

	cxl_fc_init(&f, 1, CXL_EV_MODEL);
	cxl_fc_setup(&f, 0, 32, 1000, 1);
	f.port[0].peer_piggy = 1;
	f.port[0].owed[CXL_VC_M2S_REQ] = 20;
	f.port[0].owed[CXL_VC_S2M_DRS] = 3;
	f.port[0].owed[CXL_VC_M2S_BIRSP] = 15;
	f.port[0].due = 5000;
	cxl_fc_piggy(&f, 0, &ev);
	ck_assert_uint_eq(f.port[0].owed[CXL_VC_M2S_REQ], 5);
	ck_assert_uint_eq(f.port[0].owed[CXL_VC_S2M_DRS], 0);
	ck_assert_uint_eq(f.port[0].due, 5000); /* 5 still held: still due */
	ck_assert_int_eq(cxl_fc_take(&cr, &ev), 1);
	ck_assert_uint_eq(cr.n[CXL_VC_M2S_REQ], 15);
	ck_assert_uint_eq(cr.n[CXL_VC_S2M_DRS], 3);
	ck_assert_uint_eq(cr.n[CXL_VC_M2S_BIRSP], 15);
	ck_assert_uint_eq(cxl_credits_total(&cr), 33);
	ck_assert_int_eq(cxl_fc_take(&cr, &ev), 0); /* cleared on arrival */
	cxl_fc_piggy(&f, 0, &ev); /* the last 5 */
	ck_assert_uint_eq(f.port[0].due, SIM_TIME_MAX);
	ck_assert_uint_eq(cxl_fc_owed(&f), 0);
	cxl_fc_take(&cr, &ev);
	ck_assert_uint_eq(cxl_credits_total(&cr), 38);
	cxl_fc_destroy(&f);
}
END_TEST

START_TEST(test_cxl_fc_no_piggy_unless_peer_takes_it)
{
	cxl_fc f;
	cxl_event ev = { .kind = CXL_EV_PKT };

	ev.crd[0] = 0x11; /* stale bytes are cleared */
	cxl_fc_init(&f, 1, CXL_EV_MODEL);
	cxl_fc_setup(&f, 0, 8, 1000, 1);
	f.port[0].owed[0] = 3;
	f.port[0].due = 10;
	cxl_fc_piggy(&f, 0, &ev); /* the peer never announced CXL_FC_PIGGY */
	ck_assert_uint_eq(ev.crd[0] | ev.crd[1] | ev.crd[2], 0);
	ck_assert_uint_eq(f.port[0].owed[0], 3);
	cxl_fc_setup(&f, 0, 1, 0, 1); /* batch 1: piggyback is off too */
	ck_assert(!f.port[0].piggy);
	cxl_fc_destroy(&f);
}
END_TEST

START_TEST(test_cxl_fc_packed_return_applies_every_vc)
{
	cxl_event ev = { .kind = CXL_EV_CREDIT };
	cxl_credits cr = { { 0 } };

	ev.pkt.mclass = CXL_VC_PACKED;
	for (int v = 0; v < CXL_NVC; v++) {
		uint64_t n = 1000u + (unsigned)v; /* more than 4 bits, less than 16 */
		if (v < 4)
			ev.pkt.addr |= n << (16 * v);
		else
			ev.pkt.tag |= (uint32_t)n << (16 * (v - 4));
	}
	cxl_credit_apply(&cr, &ev);
	for (int v = 0; v < CXL_NVC; v++)
		ck_assert_uint_eq(cr.n[v], 1000u + (unsigned)v);
}
END_TEST

Suite *cxl_fc_suite(void)
{
	Suite *s = suite_create("cxl_fc");
	TCase *tc = tcase_create("credit_return");

	tcase_add_test(tc, test_cxl_fc_grant_negotiates_and_caps);
	tcase_add_test(tc, test_cxl_fc_piggy_carries_at_most_15_per_vc);
	tcase_add_test(tc, test_cxl_fc_no_piggy_unless_peer_takes_it);
	tcase_add_test(tc, test_cxl_fc_packed_return_applies_every_vc);
	suite_add_tcase(s, tc);
	return s;
}
