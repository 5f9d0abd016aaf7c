/*
 * test/models/memory/test_mem.c - the memory endpoint (models/memory/mem.c)
 * driven by scripted requesters (mem_fixture.h): requests of several lines
 * (one response, the parts' timing, the latency breakdown, the counters),
 * with the simple and the detailed DRAM model and through a DCOH (parts one
 * at a time, conflicts snooped per line), and the values of flag lines
 * (one-line writes and reads, BIRsps with a flag line).
 *
 * Idle timing of the simple model at its defaults (memory.latency 40 ns,
 * dram_latency 40 ns, 2 channels of 25.6 GB/s: 2.5 ns per line): a line is
 * served latency + 2.5 ns + dram_latency = 82.5 ns after it reaches the
 * DRAM path, and the lines of one request alternate channels, so n lines
 * take 80 ns + ceil(n / 2) x 2.5 ns.
 */
#include <check.h>
#include <signal.h>
#include <string.h>

#include "models/proto/cxl_lat.h"
#include "models/proto/cxl_proto.h"
#include "test/core/panic_fixture.h"
#include "test/models/memory/mem_fixture.h"

enum { LINE_PS = 82500, US = 1000000 };

#define ONE_HOST "topology.custom.hosts=host0", "topology.custom.memories=mem0", \
		 "topology.custom.links=host0 mem0", "workload.interleave=4KiB"
#define TWO_HOSTS "topology.custom.hosts=host0,host1", "topology.custom.memories=mem0", \
		  "topology.custom.links=host0 mem0,host1 mem0", "workload.interleave=4KiB"

/* Append a request to host @h's script. */
static void rq(int h, sim_time at, uint8_t vc, uint64_t addr, uint16_t lines, uint8_t flags,
	       uint16_t aux, int serial)
{
	mfx_script *s = &mfx_scripts[h];

	ck_assert_uint_lt(s->nreq, MFX_MAX);
	s->req[s->nreq++] = (mfx_req){ .at = at, .vc = vc, .addr = addr, .lines = lines,
				       .flags = flags, .aux = aux, .serial = (uint8_t)serial };
}

static void rd(int h, sim_time at, uint64_t addr, uint16_t lines, int serial)
{
	rq(h, at, CXL_VC_M2S_REQ, addr, lines, 0, 0, serial);
}

static void wr(int h, sim_time at, uint64_t addr, uint16_t lines, int serial)
{
	rq(h, at, CXL_VC_M2S_RWD, addr, lines, 0, 0, serial);
}

/* Simple model, idle: a request of @n lines spends this long in the device. */
static sim_time idle_ps(uint32_t n)
{
	return 80000 + (n + 1) / 2 * 2500;
}

static void setup(void)
{
	memset(mfx_scripts, 0, sizeof(mfx_scripts));
	memset(mfx_logs, 0, sizeof(mfx_logs));
}

static void teardown(void)
{
}

/* Every request of host @h was answered once, with the size its kind gives. */
static void all_answered(int h)
{
	const mfx_script *s = &mfx_scripts[h];
	const mfx_log *l = &mfx_logs[h];

	ck_assert_uint_eq(l->nresp, s->nreq);
	for (uint32_t k = 0; k < s->nreq; k++) {
		int read = s->req[k].vc == CXL_VC_M2S_REQ;
		ck_assert_uint_gt(l->resp_at[k], 0);
		ck_assert_uint_eq(l->resp[k].mclass, read ? CXL_VC_S2M_DRS : CXL_VC_S2M_NDR);
		ck_assert_uint_eq(l->resp[k].size, read ? s->req[k].lines * CXL_LINE : 0);
		if (!read)
			ck_assert_uint_eq(l->resp[k].flags & CXL_PKT_FLAG_MASK, 0);
	}
}

/* The device's end-of-run conservation counters. */
static void device_clean(const mfx *r)
{
	ck_assert_uint_eq(mfx_stat(r, "mem0", "responses_waiting"), 0);
}

/* --- requests of several lines, simple model --------------------------------------- */

/* One line, both ways: the path of before (82.5 ns in the device, all MEMORY). */
START_TEST(test_mem_one_line_as_before)
{
	const char *sets[] = { ONE_HOST, NULL };
	mfx r;

	rd(0, 0, 0, 1, 1);
	wr(0, 0, 64, 1, 1);
	rd(0, 0, 128, 0, 1); /* aux 0: one line too */
	mfx_run(&r, sets);
	mfx_scripts[0].req[2].lines = 1; /* for all_answered: a DRS of one line */
	all_answered(0);
	for (int k = 0; k < 3; k++) {
		const cxl_packet *p = &mfx_logs[0].resp[k];
		ck_assert_uint_eq(p->lat[CXL_LAT_MEMORY], LINE_PS);
		ck_assert_uint_eq(p->lat[CXL_LAT_COH], 0);
		ck_assert_uint_eq(p->flags & CXL_PKT_FLAG, 0);
		ck_assert_uint_eq(p->aux, 0);
	}
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "reads"), 2);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "read_lines"), 2);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "writes"), 1);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "write_lines"), 1);
	device_clean(&r);
	mfx_close(&r);
}
END_TEST

/* Reads of 2, 4, 7 and 64 lines: one DRS each, the lines served on both channels. */
START_TEST(test_mem_multiline_read_simple)
{
	static const uint16_t n[] = { 2, 4, 7, 64 };
	const char *sets[] = { ONE_HOST, NULL };
	mfx r;

	for (int k = 0; k < 4; k++)
		rd(0, 0, 4096 * (uint64_t)(k + 1), n[k], 1);
	mfx_run(&r, sets);
	all_answered(0);
	for (int k = 0; k < 4; k++) {
		const cxl_packet *p = &mfx_logs[0].resp[k];
		ck_assert_uint_eq(p->lat[CXL_LAT_MEMORY], idle_ps(n[k]));
		ck_assert_uint_eq(p->lat[CXL_LAT_COH], 0);
		ck_assert_uint_eq(p->flags & CXL_PKT_FLAG, 0);
		ck_assert_uint_eq(p->aux, 0);
		ck_assert_uint_eq(p->addr, 4096 * (uint64_t)(k + 1));
	}
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "reads"), 4);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "read_lines"), 2 + 4 + 7 + 64);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "busy_ps"), (2 + 4 + 7 + 64) * 2500);
	device_clean(&r);
	mfx_close(&r);
}
END_TEST

/* A write of 64 lines: one NDR after 64 lines' service; a 4-line write the same way. */
START_TEST(test_mem_multiline_write_simple)
{
	const char *sets[] = { ONE_HOST, NULL };
	mfx r;

	wr(0, 0, 0, 64, 1);
	wr(0, 0, 8192 + 128, 4, 1); /* aligned to a line, not to its size */
	mfx_run(&r, sets);
	all_answered(0);
	ck_assert_uint_eq(mfx_logs[0].resp[0].lat[CXL_LAT_MEMORY], idle_ps(64));
	ck_assert_uint_eq(mfx_logs[0].resp[1].lat[CXL_LAT_MEMORY], idle_ps(4));
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "writes"), 2);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "write_lines"), 68);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "reads"), 0);
	device_clean(&r);
	mfx_close(&r);
}
END_TEST

/* Many requests of several lines at once, a small buffer: everything answered once. */
START_TEST(test_mem_multiline_load_simple)
{
	const char *sets[] = { TWO_HOSTS, "memory.buffer=2", NULL };
	uint64_t lines = 0;
	mfx r;

	for (int h = 0; h < 2; h++)
		for (uint32_t k = 0; k < 100; k++) {
			uint16_t n = (uint16_t)(1 + (k * 7 + (uint32_t)h) % 64);
			uint64_t a = ((uint64_t)k % 16) * 4096 + (64 - n) / 2 * 64;
			if (k % 3)
				rd(h, 0, a, n, 0);
			else
				wr(h, 0, a, n, 0);
			lines += n;
		}
	mfx_run(&r, sets);
	all_answered(0);
	all_answered(1);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "read_lines") +
			  mfx_stat(&r, "mem0", "write_lines"), lines);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "reads") + mfx_stat(&r, "mem0", "writes"), 200);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "busy_ps"), lines * 2500);
	ck_assert_uint_gt(mfx_logs[0].max_out, 4); /* the bus held what the device could not */
	device_clean(&r);
	mfx_close(&r);
}
END_TEST

/* --- the detailed model ------------------------------------------------------------ */

/*
 * DDR4-3200: a request of n lines at idle is answered once, faster than n
 * one-line requests one after the other; every line reaches the DRAM
 * (read_bytes / write_bytes).
 */
START_TEST(test_mem_multiline_detailed_idle)
{
	const char *sets[] = { ONE_HOST, "memory.dram.preset=DDR4-3200", NULL };
	mfx r;

	rd(0, 0, 0, 1, 1);
	rd(0, 0, 1 << 20, 64, 1);
	wr(0, 0, 2 << 20, 64, 1);
	mfx_run(&r, sets);
	all_answered(0);
	sim_time one = mfx_logs[0].resp[0].lat[CXL_LAT_MEMORY];
	sim_time many = mfx_logs[0].resp[1].lat[CXL_LAT_MEMORY];
	ck_assert_uint_gt(many, one);
	ck_assert_uint_lt(many, 8 * one); /* 64 lines pipelined over two channels */
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "read_bytes"), 65 * 64);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "write_bytes"), 64 * 64);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "read_lines"), 65);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "queued_at_end"), 0);
	device_clean(&r);
	mfx_close(&r);
}
END_TEST

/*
 * A DRAM queue of one request per channel and a device buffer of two: the
 * parts of every request wait for queue slots; each request keeps at most
 * one part in the wait rings (their capacity is 2 x buffer x ports = 8
 * here, against up to 64 x 8 parts), and everything is answered.
 * Channel-first mapping puts every line of a request on one channel.
 */
START_TEST(test_mem_multiline_detailed_full_queues)
{
	const char *sets[] = { TWO_HOSTS, "memory.dram.preset=DDR4-3200", "memory.dram.queue=1",
			       "memory.buffer=2", NULL };
	const char *chsets[] = { TWO_HOSTS, "memory.dram.preset=DDR4-3200", "memory.dram.queue=1",
				 "memory.buffer=2", "memory.dram.mapping=ch:row:bank:rank:col:bg",
				 NULL };
	uint64_t lines = 0, wlines = 0;

	for (int h = 0; h < 2; h++)
		for (uint32_t k = 0; k < 60; k++) {
			uint16_t n = (uint16_t)(k % 4 == 0 ? 64 : 1 + (k * 13 + (uint32_t)h) % 64);
			uint64_t a = ((uint64_t)(k + 60 * (uint32_t)h) % 32) * 4096;
			if (k % 3 == 1) {
				wr(h, 0, a, n, 0);
				wlines += n;
			} else {
				rd(h, 0, a, n, 0);
			}
			lines += n;
		}
	for (int m = 0; m < 2; m++) {
		mfx r;
		mfx_run(&r, m ? chsets : sets);
		all_answered(0);
		all_answered(1);
		ck_assert_uint_eq(mfx_stat(&r, "mem0", "read_lines") +
				  mfx_stat(&r, "mem0", "write_lines"), lines);
		ck_assert_uint_eq(mfx_stat(&r, "mem0", "write_lines"), wlines);
		ck_assert_uint_eq(mfx_stat(&r, "mem0", "read_bytes") +
				  mfx_stat(&r, "mem0", "write_bytes"), lines * 64);
		ck_assert_uint_eq(mfx_stat(&r, "mem0", "queued_at_end"), 0);
		ck_assert_uint_gt(mfx_stat(&r, "mem0", "queue_ps"), 0);
		device_clean(&r);
		mfx_close(&r);
	}
}
END_TEST

/* --- through a DCOH ---------------------------------------------------------------- */

/*
 * host0 owns line 2 exclusively; host1 reads lines 0-3 uncached: lines 0
 * and 1 go on, line 2 waits for host0's BIRsp (its dirty data carries the
 * flag value 0x1234), then lines 2 and 3 go.  The DRS's COHERENCE time is
 * the wait, its MEMORY the last two lines' 82.5 ns plus the 2.5 ns line 2's
 * channel first spends on the BIRsp's dirty line; then host1's one-line
 * read of line 2 gets the value from the BIRsp.
 */
START_TEST(test_mem_multiline_dcoh_conflict)
{
	const char *sets[] = { TWO_HOSTS, "memory.dcoh.entries=64", NULL };
	mfx r;

	rq(0, 0, CXL_VC_M2S_REQ, 128, 1, CXL_PKT_CACHED | CXL_PKT_EXCL, 0, 1);
	mfx_scripts[0].birsp[0] = (mfx_birsp){ 1, CXL_PKT_FLAG | CXL_PKT_FLAG_AT(0), 0x1234 };
	mfx_scripts[0].nbirsp = 1;
	rd(1, 2 * US, 0, 4, 1);
	rd(1, 0, 128, 1, 1);
	mfx_run(&r, sets);
	all_answered(0);
	all_answered(1);
	const mfx_log *l0 = &mfx_logs[0], *l1 = &mfx_logs[1];
	ck_assert_uint_eq(l0->nbisnp, 1);
	ck_assert_uint_eq(l0->bisnp[0].addr, 128);
	ck_assert_uint_eq(l0->bisnp[0].tag, 1);
	const cxl_packet *drs = &l1->resp[0];
	ck_assert_uint_gt(drs->lat[CXL_LAT_COH], 0);
	/* line 2's channel first writes the BIRsp's dirty line (2.5 ns) */
	ck_assert_uint_eq(drs->lat[CXL_LAT_MEMORY], LINE_PS + 2500);
	/* the BISnp left when the read arrived (its issue) and the BIRsp, with a
	   line of data, took at least as long to come back */
	ck_assert_uint_ge(drs->lat[CXL_LAT_COH], 2 * (l0->bisnp_at[0] - l0->bisnp[0].issue));
	ck_assert_uint_eq(drs->flags & CXL_PKT_FLAG, 0);
	const cxl_packet *one = &l1->resp[1];
	ck_assert_uint_eq(one->flags & CXL_PKT_FLAG_MASK, CXL_PKT_FLAG);
	ck_assert_uint_eq(one->aux, 0x1234);
	ck_assert_uint_eq(one->lat[CXL_LAT_COH], 0);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "bisnp"), 1);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "birsp"), 1);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "birsp_dirty_lines"), 1);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "conflicts"), 1);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "reads"), 3);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "read_lines"), 6);
	/* the DCOH sees lines: 1 + 4 + 1 */
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "sf_hits") + mfx_stat(&r, "mem0", "sf_misses"), 6);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "txns_open"), 0);
	device_clean(&r);
	mfx_close(&r);
}
END_TEST

/*
 * Every line of a 64-line read conflicts: its parts enter the DCOH one at a
 * time, so the 64 snoops go out one after another (each BISnp after the
 * previous BIRsp), with a device buffer of 1 whose DCOH tables hold 4
 * requests.  COHERENCE is the time from the read's arrival to its last
 * line's release, MEMORY the last line's 82.5 ns.  The same with DDR4.
 */
START_TEST(test_mem_multiline_dcoh_parts_one_at_a_time)
{
	const char *sets[] = { TWO_HOSTS, "memory.dcoh.entries=128", "memory.buffer=1", NULL };
	const char *ddr[] = { TWO_HOSTS, "memory.dcoh.entries=128", "memory.buffer=1",
			      "memory.dram.preset=DDR4-3200", NULL };

	for (uint32_t k = 0; k < 64; k++)
		rq(0, 0, CXL_VC_M2S_REQ, 64 * (uint64_t)k, 1, CXL_PKT_CACHED | CXL_PKT_EXCL, 0, 0);
	rd(1, 20 * US, 0, 64, 1);
	wr(1, 0, 0, 64, 1); /* no owner left: straight through */
	for (int m = 0; m < 2; m++) {
		mfx r;
		mfx_run(&r, m ? ddr : sets);
		all_answered(0);
		all_answered(1);
		const mfx_log *l0 = &mfx_logs[0], *l1 = &mfx_logs[1];
		ck_assert_uint_eq(l0->nbisnp, 64);
		for (uint32_t k = 1; k < 64; k++) {
			ck_assert_uint_eq(l0->bisnp[k].addr, 64 * k);
			ck_assert_uint_gt(l0->bisnp_at[k], l0->bisnp_at[k - 1]);
		}
		const cxl_packet *drs = &l1->resp[0];
		sim_time rtt = l0->bisnp_at[1] - l0->bisnp_at[0];
		ck_assert_uint_ge(drs->lat[CXL_LAT_COH], 63 * rtt);
		if (!m)
			ck_assert_uint_eq(drs->lat[CXL_LAT_MEMORY], LINE_PS);
		ck_assert_uint_eq(l1->resp[1].lat[CXL_LAT_COH], 0);
		if (!m)
			ck_assert_uint_eq(l1->resp[1].lat[CXL_LAT_MEMORY], idle_ps(64));
		ck_assert_uint_eq(mfx_stat(&r, "mem0", "conflicts"), 64);
		ck_assert_uint_eq(mfx_stat(&r, "mem0", "txns_open"), 0);
		ck_assert_uint_eq(mfx_stat(&r, "mem0", "read_lines"), 128);
		ck_assert_uint_eq(mfx_stat(&r, "mem0", "write_lines"), 64);
		device_clean(&r);
		mfx_close(&r);
	}
}
END_TEST

/*
 * Both hosts stream requests of several lines over lines host0 also caches,
 * through a small filter (evictions, InvBlk) and small buffers, with the
 * simple and the detailed model: everything answered, every BISnp answered,
 * nothing left open.
 */
START_TEST(test_mem_multiline_dcoh_load)
{
	const char *sets[] = { TWO_HOSTS, "memory.dcoh.entries=16", "memory.dcoh.invblk_max=4",
			       "memory.buffer=2", NULL };
	const char *ddr[] = { TWO_HOSTS, "memory.dcoh.entries=16", "memory.dcoh.invblk_max=4",
			      "memory.buffer=2", "memory.dram.preset=DDR5-4800",
			      "memory.dram.queue=2", NULL };

	for (uint32_t k = 0; k < 120; k++) {
		uint64_t a = (k * 37 % 96) * 64;
		if (k % 2)
			rq(0, 0, CXL_VC_M2S_REQ, a, 1, CXL_PKT_CACHED | (k % 4 == 1 ? CXL_PKT_EXCL : 0),
			   0, 0);
		else
			wr(0, 0, 8192 + (k % 48) * 64, (uint16_t)(1 + k % 16), 0);
		uint16_t n = (uint16_t)(1 + (k * 11) % 32);
		if (k % 3)
			rd(1, 0, (k % 2) * 1024, n, 0);
		else
			wr(1, 0, (k % 2) * 1024, n, 0);
	}
	for (int m = 0; m < 2; m++) {
		mfx r;
		mfx_run(&r, m ? ddr : sets);
		all_answered(0);
		all_answered(1);
		ck_assert_uint_eq(mfx_stat(&r, "mem0", "bisnp"), mfx_stat(&r, "mem0", "birsp"));
		ck_assert_uint_gt(mfx_stat(&r, "mem0", "bisnp"), 10);
		ck_assert_uint_gt(mfx_stat(&r, "mem0", "evictions"), 0);
		ck_assert_uint_eq(mfx_stat(&r, "mem0", "txns_open"), 0);
		ck_assert_uint_eq(mfx_stat(&r, "mem0", "bisnp_waiting"), 0);
		device_clean(&r);
		mfx_close(&r);
	}
}
END_TEST

/* --- flag values ------------------------------------------------------------------- */

/*
 * A one-line write with CXL_PKT_FLAG sets the line's value (its NDR carries
 * none); one-line reads of the line carry it, of other lines not, and a
 * read of several lines never does.  The value follows later writes
 * (also across the wrap); a write without the flag leaves it.
 */
START_TEST(test_mem_flag_values)
{
	const char *sets[] = { ONE_HOST, NULL };
	mfx r;

	rq(0, 0, CXL_VC_M2S_RWD, 256, 1, CXL_PKT_FLAG, 7, 1);   /* 0 */
	rd(0, 0, 256, 1, 1);                                    /* 1: 7 */
	rd(0, 0, 320, 1, 1);                                    /* 2: none */
	rd(0, 0, 0, 8, 1);                                      /* 3: none (8 lines) */
	rq(0, 0, CXL_VC_M2S_RWD, 256, 1, CXL_PKT_FLAG, 0xffff, 1); /* 4 */
	rd(0, 0, 256, 1, 1);                                    /* 5: 0xffff */
	rq(0, 0, CXL_VC_M2S_RWD, 256, 1, CXL_PKT_FLAG, 0, 1);   /* 6 */
	rd(0, 0, 256, 1, 1);                                    /* 7: 0 */
	wr(0, 0, 256, 1, 1);                                    /* 8: no flag */
	rd(0, 0, 256, 1, 1);                                    /* 9: still 0 */
	rq(0, 0, CXL_VC_M2S_REQ, 512, 1, CXL_PKT_FLAG, 0, 1);   /* 10: a read's flag is not a value */
	mfx_run(&r, sets);
	all_answered(0);
	const mfx_log *l = &mfx_logs[0];
	static const int has[] = { 0, 1, 0, 0, 0, 1, 0, 1, 0, 1, 0 };
	static const uint16_t val[] = { 0, 7, 0, 0, 0, 0xffff, 0, 0, 0, 0, 0 };
	for (int k = 0; k < 11; k++) {
		ck_assert_msg((l->resp[k].flags & CXL_PKT_FLAG_MASK) == (has[k] ? CXL_PKT_FLAG : 0),
			      "response %d: flags %#x", k, l->resp[k].flags);
		ck_assert_msg(l->resp[k].aux == val[k], "response %d: aux %u", k, l->resp[k].aux);
	}
	mfx_close(&r);
}
END_TEST

/*
 * A BIRsp for an InvBlk of lines 0-3 carries line 2 as a dirty flag line
 * (CXL_PKT_FLAG_AT(2), value 0x55): line 2 holds the value after it, the
 * other lines of the block none.  The filter (4 entries, one set, InvBlk 4)
 * evicts lines 0-3 when host0 reads line 8.
 */
START_TEST(test_mem_flag_from_birsp_block)
{
	const char *sets[] = { TWO_HOSTS, "memory.dcoh.entries=4", "memory.dcoh.assoc=4",
			       "memory.dcoh.invblk_max=4", NULL };
	mfx r;

	for (uint32_t k = 0; k < 4; k++)
		rq(0, 0, CXL_VC_M2S_REQ, 64 * (uint64_t)k, 1, CXL_PKT_CACHED | CXL_PKT_EXCL, 0, 1);
	rq(0, 0, CXL_VC_M2S_REQ, 512, 1, CXL_PKT_CACHED, 0, 1);
	mfx_scripts[0].birsp[0] = (mfx_birsp){ 1, CXL_PKT_FLAG | CXL_PKT_FLAG_AT(2), 0x55 };
	mfx_scripts[0].nbirsp = 1;
	rd(1, 5 * US, 128, 1, 1);
	rd(1, 0, 0, 1, 1);
	rd(1, 0, 192, 1, 1);
	mfx_run(&r, sets);
	all_answered(0);
	all_answered(1);
	ck_assert_uint_eq(mfx_logs[0].nbisnp, 1);
	ck_assert_uint_eq(mfx_logs[0].bisnp[0].addr, 0);
	ck_assert_uint_eq(mfx_logs[0].bisnp[0].tag, 4);
	ck_assert_uint_eq(mfx_logs[1].resp[0].flags & CXL_PKT_FLAG_MASK, CXL_PKT_FLAG);
	ck_assert_uint_eq(mfx_logs[1].resp[0].aux, 0x55);
	ck_assert_uint_eq(mfx_logs[1].resp[1].flags & CXL_PKT_FLAG, 0);
	ck_assert_uint_eq(mfx_logs[1].resp[2].flags & CXL_PKT_FLAG, 0);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "evictions"), 1);
	ck_assert_uint_eq(mfx_stat(&r, "mem0", "birsp_dirty_lines"), 1);
	mfx_close(&r);
}
END_TEST

/*
 * The request that waits for a BIRsp sees the flag value it brought: host1's
 * one-line read of line 5, which host0 holds exclusively, is answered with
 * the value of host0's dirty copy.
 */
START_TEST(test_mem_flag_from_birsp_before_waiting_read)
{
	const char *sets[] = { TWO_HOSTS, "memory.dcoh.entries=64", NULL };
	mfx r;

	rq(0, 0, CXL_VC_M2S_RWD, 320, 1, CXL_PKT_FLAG, 1, 1); /* the memory holds 1 */
	rq(0, 0, CXL_VC_M2S_REQ, 320, 1, CXL_PKT_CACHED | CXL_PKT_EXCL, 0, 1);
	mfx_scripts[0].birsp[0] = (mfx_birsp){ 1, CXL_PKT_FLAG | CXL_PKT_FLAG_AT(0), 0xbeef };
	mfx_scripts[0].nbirsp = 1;
	rd(1, 2 * US, 320, 1, 1);
	mfx_run(&r, sets);
	all_answered(0);
	all_answered(1);
	ck_assert_uint_eq(mfx_logs[0].resp[1].flags & CXL_PKT_FLAG_MASK, CXL_PKT_FLAG);
	ck_assert_uint_eq(mfx_logs[0].resp[1].aux, 1); /* host0's fill: the memory's 1 */
	const cxl_packet *p = &mfx_logs[1].resp[0];
	ck_assert_uint_gt(p->lat[CXL_LAT_COH], 0);
	ck_assert_uint_eq(p->flags & CXL_PKT_FLAG_MASK, CXL_PKT_FLAG);
	ck_assert_uint_eq(p->aux, 0xbeef);
	mfx_close(&r);
}
END_TEST

/* A flag line outside the block its BIRsp answers is a broken invariant. */
START_TEST(test_mem_flag_birsp_outside_block_panics)
{
	const char *sets[] = { TWO_HOSTS, "memory.dcoh.entries=64", NULL };
	mfx r;

	rq(0, 0, CXL_VC_M2S_REQ, 128, 1, CXL_PKT_CACHED | CXL_PKT_EXCL, 0, 1);
	mfx_scripts[0].birsp[0] = (mfx_birsp){ 1, CXL_PKT_FLAG | CXL_PKT_FLAG_AT(1), 9 };
	mfx_scripts[0].nbirsp = 1;
	rd(1, 2 * US, 128, 1, 1); /* conflict: a BISnp of one line */
	panict_expect("assertion failed: !(p->flags & CXL_PKT_FLAG) || "
		      "CXL_PKT_FLAG_LINE(p->flags) < p->tag");
	mfx_run(&r, sets);
}
END_TEST

Suite *mem_suite(void)
{
	Suite *s = suite_create("mem");
	TCase *simple = tcase_create("multiline_simple");
	TCase *detailed = tcase_create("multiline_detailed");
	TCase *coh = tcase_create("multiline_dcoh");
	TCase *flag = tcase_create("flags");
	TCase *all[] = { simple, detailed, coh, flag };

	for (int k = 0; k < 4; k++) {
		tcase_add_checked_fixture(all[k], setup, teardown);
		tcase_set_timeout(all[k], 60);
		suite_add_tcase(s, all[k]);
	}
	tcase_add_test(simple, test_mem_one_line_as_before);
	tcase_add_test(simple, test_mem_multiline_read_simple);
	tcase_add_test(simple, test_mem_multiline_write_simple);
	tcase_add_test(simple, test_mem_multiline_load_simple);
	tcase_add_test(detailed, test_mem_multiline_detailed_idle);
	tcase_add_test(detailed, test_mem_multiline_detailed_full_queues);
	tcase_add_test(coh, test_mem_multiline_dcoh_conflict);
	tcase_add_test(coh, test_mem_multiline_dcoh_parts_one_at_a_time);
	tcase_add_test(coh, test_mem_multiline_dcoh_load);
	tcase_add_test(flag, test_mem_flag_values);
	tcase_add_test(flag, test_mem_flag_from_birsp_block);
	tcase_add_test(flag, test_mem_flag_from_birsp_before_waiting_read);
	tcase_add_test_raise_signal(flag, test_mem_flag_birsp_outside_block_panics, SIGABRT);
	return s;
}
