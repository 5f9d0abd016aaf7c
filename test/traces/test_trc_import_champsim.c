/*
 * test/traces/test_trc_import_champsim.c - unit tests for
 * traces/trc_import_champsim.c: ChampSim binary traces, plain, gzip and xz.
 *
 * The record layout followed is ChampSim's own: tracer/pin/champsim_tracer.cpp
 * (trace_instr_format_t, written with memcpy, sizeof = 64) and
 * inc/trace_instruction.h (struct input_instr):
 *
 *   unsigned long long ip;                        offset 0
 *   unsigned char is_branch, branch_taken;        8, 9
 *   unsigned char destination_registers[2];       10
 *   unsigned char source_registers[4];            12
 *   unsigned long long destination_memory[2];     16
 *   unsigned long long source_memory[4];          32
 *
 * No real ChampSim trace can be downloaded here, so cs_put() writes records
 * byte by byte in that layout, and sample() makes the committed samples
 * traces/samples/champsim-small.champsimtrace (and .xz, made from it by
 * `xz -9`): the first test checks that the committed plain sample is
 * exactly what sample() writes, and that the .xz decodes to it.  Expected
 * records are computed from the same instruction list by a separate
 * routine (expect_text), not by the importer's code.  Set
 * TRC_WRITE_SAMPLES=DIR to write the plain sample into DIR.
 */
#include "traces/trc_import_int.h"

#include <check.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "test/traces/trc_fixture.h"
#include "traces/trc_ops.h"

#define SAMPLE_INSTRS 48
#define SAMPLES_DIR "traces/samples"

/* One instruction of a sample. */
typedef struct cs_instr cs_instr;
struct cs_instr {
	uint64_t ip;
	uint8_t is_branch, taken;
	uint8_t dreg[2], sreg[4];
	uint64_t dmem[2], smem[4];
};

/* @in as a 64-byte record at @p, little-endian, as the PIN tracer writes it. */
static void cs_put(uint8_t *p, const cs_instr *in)
{
	memset(p, 0, 64);
	trc_put64(p, in->ip);
	p[8] = in->is_branch;
	p[9] = in->taken;
	memcpy(p + 10, in->dreg, 2);
	memcpy(p + 12, in->sreg, 4);
	for (int i = 0; i < 2; i++)
		trc_put64(p + 16 + 8 * i, in->dmem[i]);
	for (int i = 0; i < 4; i++)
		trc_put64(p + 32 + 8 * i, in->smem[i]);
}

/*
 * Instruction @i of the sample: no operand, one stack load, two loads (one
 * unaligned, crossing into the next line), or four heap loads (two in one
 * line), with stores every third and a pair every sixth; some branches.
 */
static cs_instr sample_instr(unsigned i)
{
	cs_instr in = { .ip = 0x401000 + 4 * i, .sreg = { (uint8_t)(i % 5) } };

	in.is_branch = i % 7 == 3;
	in.taken = in.is_branch && i % 2;
	switch (i % 4) {
	case 1:
		in.smem[0] = 0x7ffd0000 + 8 * i;
		break;
	case 2:
		in.smem[0] = 0x600000 + 64 * i + 3;
		in.smem[1] = 0x600000 + 64 * i + 0x47;
		break;
	case 3:
		for (int k = 0; k < 4; k++)
			in.smem[k] = 0x10000000 + 0x1000 * (uint64_t)i + (uint64_t[]){ 0, 8, 0x40, 0x80 }[k];
		break;
	}
	if (i % 3 == 1) {
		in.dmem[0] = 0x7ffd0000 + 8 * i;
		in.dreg[0] = 1;
	}
	if (i % 6 == 5) {
		in.dmem[0] = 0x10000000 + 0x1000 * (uint64_t)i;
		in.dmem[1] = 0x20000000 + 64 * (uint64_t)i;
	}
	return in;
}

/* The sample's bytes (SAMPLE_INSTRS x 64) into @buf. */
static void sample(uint8_t *buf)
{
	for (unsigned i = 0; i < SAMPLE_INSTRS; i++) {
		cs_instr in = sample_instr(i);
		cs_put(buf + 64 * i, &in);
	}
}

/* The CSV `cat` must print for the sample at @ps per instruction: reads, then writes, lines. */
static char *expect_text(uint64_t ps)
{
	char *t = calloc(64, 1024), *p = t;

	p += sprintf(p, "time_ps,addr,op,size\n");
	for (unsigned i = 0; i < SAMPLE_INSTRS; i++) {
		cs_instr in = sample_instr(i);
		for (int k = 0; k < 4; k++)
			if (in.smem[k])
				p += sprintf(p, "%" PRIu64 ",0x%" PRIx64 ",R,64\n", i * ps,
					     in.smem[k] / 64 * 64);
		for (int k = 0; k < 2; k++)
			if (in.dmem[k])
				p += sprintf(p, "%" PRIu64 ",0x%" PRIx64 ",W,64\n", i * ps,
					     in.dmem[k] / 64 * 64);
	}
	return t;
}

/* Convert @in with @o, then cat: the text (caller frees); asserts success. */
static char *convert_cat(const char *in, const trc_import_opts *o)
{
	const char *cxt = trcf_path("cs.cxt"), *txt = trcf_path("cs.txt");
	uint64_t nc, first;
	cxl_err err = { 0 };
	FILE *f;
	size_t len;

	ck_assert_msg(trc_convert(in, cxt, o, 16, &nc, &first, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(nc, 0);
	ck_assert_ptr_nonnull(f = fopen(txt, "wb"));
	ck_assert_msg(trc_cat(cxt, f, TRC_FMT_NONE, 0, 0, &err) == 0, "%s", err.msg);
	fclose(f);
	char *s = (char *)trcf_slurp(txt, &len);
	s = realloc(s, len + 1);
	s[len] = '\0';
	return s;
}

/* Import @path; expect CXL_EINVAL with the message "<path><msg>". */
static void champsim_fails(const char *path, const trc_import_opts *o, const char *msg)
{
	trc_import *im;
	trc_rec r;
	cxl_err err = { 0 };
	char want[700];
	int rc = trc_import_open(&im, path, o, &err);

	if (!rc) {
		while ((rc = trc_import_next(im, &r, &err)) > 0)
			;
		trc_import_close(im);
	}
	snprintf(want, sizeof(want), "%s%s", path, msg);
	ck_assert_int_eq(rc, CXL_EINVAL);
	ck_assert_str_eq(err.msg, want);
}

static const trc_import_opts from_cs = { .fmt = TRC_FMT_CHAMPSIM };

/* The committed samples are the generator's (plain byte for byte; .xz decoded). */
START_TEST(test_trc_import_champsim_samples)
{
	uint8_t buf[SAMPLE_INSTRS * 64];
	const char *dir = getenv("TRC_WRITE_SAMPLES");
	size_t len;

	sample(buf);
	if (dir) {
		char p[512];
		snprintf(p, sizeof(p), "%s/champsim-small.champsimtrace", dir);
		trcf_spit(p, buf, sizeof(buf));
	}
	uint8_t *s = trcf_slurp(SAMPLES_DIR "/champsim-small.champsimtrace", &len);
	ck_assert_msg(s, "run the tests from the repo root");
	ck_assert_uint_eq(len, sizeof(buf));
	ck_assert_msg(!memcmp(s, buf, len), "the committed sample differs from sample()");
	free(s);
	char *want = expect_text(1000);
	char *plain = convert_cat(SAMPLES_DIR "/champsim-small.champsimtrace", NULL);
	char *xz = convert_cat(SAMPLES_DIR "/champsim-small.champsimtrace.xz", NULL);
	ck_assert_str_eq(plain, want);
	ck_assert_str_eq(xz, want);
	free(plain);
	free(xz);
	free(want);
}
END_TEST

/* Records, their order and times; plain, gzip and xz (made here) alike; --clock. */
START_TEST(test_trc_import_champsim_records_and_compression)
{
	uint8_t buf[SAMPLE_INSTRS * 64], xzbuf[8192];
	size_t xzlen = 0;
	char plain[600], gz[600], xz[600];
	trc_import_opts o = { .fmt = TRC_FMT_CHAMPSIM, .clock_ps = 250 };
	gzFile g;

	snprintf(plain, sizeof(plain), "%s", trcf_path("t.bin"));
	snprintf(gz, sizeof(gz), "%s", trcf_path("t.gz"));
	snprintf(xz, sizeof(xz), "%s", trcf_path("t.xz"));
	sample(buf);
	trcf_spit(plain, buf, sizeof(buf));
	ck_assert_ptr_nonnull(g = gzopen(gz, "wb"));
	ck_assert_int_eq(gzwrite(g, buf, sizeof(buf)), (int)sizeof(buf));
	gzclose(g);
	ck_assert_int_eq(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, buf, sizeof(buf), xzbuf,
						 &xzlen, sizeof(xzbuf)), LZMA_OK);
	trcf_spit(xz, xzbuf, xzlen);
	char *want = expect_text(250);
	const char *files[] = { plain, gz, xz };
	for (int k = 0; k < 3; k++) {
		char *got = convert_cat(files[k], &o);
		ck_assert_str_eq(got, want);
		free(got);
	}
	free(want);
	/* instruction 3: four loads (two in one line), in slot order, at 3 x 250 ps */
	trc_import *im;
	trc_rec r;
	cxl_err err = { 0 };
	int n = 0;
	ck_assert_int_eq(trc_import_open(&im, plain, &o, &err), 0);
	ck_assert_int_eq(trc_import_origin(im)->fmt, TRC_FMT_CHAMPSIM);
	ck_assert_uint_eq(trc_import_origin(im)->clock_ps, 250);
	while (trc_import_next(im, &r, &err) > 0 && r.time < 750)
		n++;
	ck_assert_int_eq(n, 1 + 1 + 2); /* 1: a load and a store; 2: two loads */
	ck_assert_uint_eq(r.addr, 0x10003000);
	ck_assert_int_eq(trc_import_next(im, &r, &err), 1);
	ck_assert_uint_eq(r.addr, 0x10003000);
	ck_assert_int_eq(trc_import_next(im, &r, &err), 1);
	ck_assert_uint_eq(r.addr, 0x10003040);
	ck_assert_uint_eq(r.op, TRC_READ);
	trc_import_close(im);
}
END_TEST

/* Detection: the xz magic or a ".champsim" name; a plain file of another name needs --from. */
START_TEST(test_trc_import_champsim_detection)
{
	uint8_t buf[2 * 64], xzbuf[1024];
	size_t xzlen = 0;
	cs_instr in = { .ip = 1, .smem = { 0x1234 } };
	trc_import *im;
	cxl_err err = { 0 };

	cs_put(buf, &in);
	cs_put(buf + 64, &in);
	trcf_spit(trcf_path("a.champsimtrace"), buf, sizeof(buf));
	ck_assert_int_eq(trc_import_open(&im, trcf_path("a.champsimtrace"), NULL, &err), 0);
	ck_assert_int_eq(trc_import_origin(im)->fmt, TRC_FMT_CHAMPSIM);
	trc_import_close(im);
	ck_assert_int_eq(lzma_easy_buffer_encode(0, LZMA_CHECK_CRC32, NULL, buf, sizeof(buf), xzbuf,
						 &xzlen, sizeof(xzbuf)), LZMA_OK);
	trcf_spit(trcf_path("anything"), xzbuf, xzlen);
	ck_assert_int_eq(trc_import_open(&im, trcf_path("anything"), NULL, &err), 0);
	ck_assert_int_eq(trc_import_origin(im)->fmt, TRC_FMT_CHAMPSIM);
	trc_import_close(im);
	trcf_spit(trcf_path("b.bin"), buf, sizeof(buf));
	ck_assert_int_eq(trc_import_open(&im, trcf_path("b.bin"), NULL, &err), CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, "b.bin:1: NUL byte (not a text trace; a binary ChampSim "
			     "trace needs --from champsim)"), "%s", err.msg);
	ck_assert_int_eq(trc_import_open(&im, trcf_path("b.bin"), &from_cs, &err), 0);
	trc_import_close(im);
}
END_TEST

/* Every error names the file, the instruction and what is wrong. */
START_TEST(test_trc_import_champsim_errors)
{
	uint8_t buf[SAMPLE_INSTRS * 64 + 1], xzbuf[8192];
	size_t xzlen = 0;
	char p[600];

	snprintf(p, sizeof(p), "%s", trcf_path("e.bin"));
	sample(buf);
	trcf_spit(p, buf, 64 * 3 + 17);
	champsim_fails(p, &from_cs, ": instruction 3: truncated record: 17 of 64 bytes (a ChampSim "
		       "trace is 64-byte instruction records)");
	buf[64 * 2 + 8] = 2;
	trcf_spit(p, buf, 64 * 3);
	champsim_fails(p, &from_cs, ": instruction 2: field is_branch: 2 (expected 0 or 1)");
	buf[64 * 2 + 8] = 0;
	buf[64 + 9] = 0x41;
	trcf_spit(p, buf, 64 * 3);
	champsim_fails(p, &from_cs, ": instruction 1: field branch_taken: 65 (expected 0 or 1)");
	buf[64 + 9] = 0;
	trcf_spit(p, buf, 0);
	champsim_fails(p, &from_cs, ": empty trace (no records)");
	/* time past 2^64 ps: instruction 2 at 2^63 ps each */
	trcf_spit(p, buf, 64 * 3);
	champsim_fails(p, &(trc_import_opts){ .fmt = TRC_FMT_CHAMPSIM, .clock_ps = 1ull << 63 },
		       ": instruction 2: time: instruction 2 at 9223372036854775808 ps each is past "
		       "2^64 ps");
	/* xz: truncated, corrupted */
	ck_assert_int_eq(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, buf, 64 * SAMPLE_INSTRS,
						 xzbuf, &xzlen, sizeof(xzbuf)), LZMA_OK);
	trcf_spit(p, xzbuf, xzlen - 20);
	champsim_fails(p, &from_cs, ": instruction 48: the xz stream is truncated");
	xzbuf[xzlen / 2] ^= 0x55;
	trcf_spit(p, xzbuf, xzlen);
	trc_import *im;
	trc_rec r;
	cxl_err err = { 0 };
	int rc;
	ck_assert_int_eq(trc_import_open(&im, p, &from_cs, &err), 0);
	while ((rc = trc_import_next(im, &r, &err)) > 0)
		;
	trc_import_close(im);
	ck_assert_int_eq(rc, CXL_EINVAL);
	ck_assert_msg(strstr(err.msg, ": bad xz data (liblzma error"), "%s", err.msg);
	/* gzip with bytes after its stream */
	gzFile g = gzopen(p, "wb");
	gzwrite(g, buf, 128);
	gzclose(g);
	FILE *f = fopen(p, "ab");
	fputs("junk", f);
	fclose(f);
	champsim_fails(p, &from_cs, ": instruction 2: data after the end of the gzip stream");
	/* a .cxt given as a ChampSim trace */
	trc_rec one = { .size = 64 };
	trcf_write(trcf_path("x.cxt"), &one, 1, 0, NULL);
	champsim_fails(trcf_path("x.cxt"), &from_cs, ": this is a .cxt trace already, not a "
		       "ChampSim trace");
}
END_TEST

Suite *trc_import_champsim_suite(void)
{
	Suite *s = suite_create("trc_import_champsim");
	TCase *tc = trcf_case("champsim");

	tcase_add_test(tc, test_trc_import_champsim_samples);
	tcase_add_test(tc, test_trc_import_champsim_records_and_compression);
	tcase_add_test(tc, test_trc_import_champsim_detection);
	tcase_add_test(tc, test_trc_import_champsim_errors);
	suite_add_tcase(s, tc);
	return s;
}
