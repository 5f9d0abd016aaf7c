/*
 * test/traces/test_trc_import_tools.c - unit tests for
 * traces/trc_import_tools.c: the importers of valgrind lackey, Ramulator
 * (memory and CPU traces), Ramulator2 (LoadStoreTrace, SimpleO3) and
 * DynamoRIO drcachesim view output.
 *
 * Each format: detection from its first line, the time each record gets
 * (instruction index x clock, none for memory traces), line splitting, the
 * round trip text -> .cxt -> cat (byte for byte for ramulator and
 * ramulator2, the records as CSV for the others), and every error naming
 * the line and the field.
 *
 * Inputs follow the tools' own sources and documents:
 *   lackey:     valgrind lackey/lk_main.c, trace_instr/trace_load/... print
 *               "I  %08lx,%lu", " L %08lx,%lu", " S ...", " M ..."; the
 *               banner and summary lines are those of valgrind 3.19.
 *   ramulator:  CMU-SAFARI/ramulator src/Processor.cpp, Trace::get_request
 *               (both forms: "ADDR R|W" read as hex, "BUBBLES ADDR [WBADDR]"
 *               with stoul base 0).
 *   ramulator2: CMU-SAFARI/ramulator2 src/frontend/impl/memory_trace/
 *               loadstore_trace.cpp ("LD|ST ADDR", two tokens) and its
 *               examples/traces/example_loadstore.trace; SimpleO3:
 *               src/frontend/impl/processor/simpleO3/trace.cpp and
 *               examples/traces/example_inst.trace (copied whole below).
 *   drcachesim: DynamoRIO clients/drcachesim/tools/view.cpp and view.h
 *               (print_prefix: record# width 12, instr# width 12, ": ",
 *               tid width 11; "%-12s%2d byte(s) @ 0x%016x by PC 0x%016x"),
 *               and the sample outputs in clients/drcachesim/docs/
 *               drcachesim.dox.in (sec_drcachesim_view), old and new
 *               format, whose lines are copied below.
 */
#include "traces/trc_ops.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/traces/trc_fixture.h"

/* convert @text (cap 3: several blocks), then cat it back (to @to) into a string (free it). */
static char *through(const char *text, const trc_import_opts *o, int to, uint64_t *noncanon)
{
	const char *in = trcf_write_text("in.txt", text), *out = trcf_path("o.cxt");
	cxl_err err = { 0 };
	char *back = NULL;
	size_t size = 0;
	uint64_t first, bad;
	FILE *f;

	ck_assert_msg(trc_convert(in, out, o, 3, noncanon ? noncanon : &bad, &first, &err) == 0,
		      "%s", err.msg);
	f = open_memstream(&back, &size);
	ck_assert_msg(trc_cat(out, f, to, 0, 0, &err) == 0, "%s", err.msg);
	fclose(f);
	return back;
}

/* @text converts and cats back as @want (origin format, or CSV for formats without text). */
static void gives(const char *text, const trc_import_opts *o, const char *want)
{
	char *back = through(text, o, TRC_FMT_NONE, NULL);

	ck_assert_str_eq(back, want);
	free(back);
}

/* The origin that @text is detected as (with @o). */
static trc_origin origin_of(const char *text, const trc_import_opts *o)
{
	const char *p = trcf_write_text("d.txt", text);
	trc_import *im;
	trc_origin or;
	cxl_err err = { 0 };

	ck_assert_msg(trc_import_open(&im, p, o, &err) == 0, "%s", err.msg);
	or = *trc_import_origin(im);
	trc_import_close(im);
	return or;
}

/* Importing @text fails with "<path>:<msg>" (CXL_EINVAL), at open or at a record. */
static void import_fails(const char *text, const trc_import_opts *o, const char *msg)
{
	const char *p = trcf_write_text("bad.txt", text);
	trc_import *im;
	trc_rec r;
	cxl_err err = { 0 };
	char want[700];
	int rc = trc_import_open(&im, p, o, &err);

	if (!rc) {
		while ((rc = trc_import_next(im, &r, &err)) > 0)
			;
		trc_import_close(im);
	}
	snprintf(want, sizeof(want), "%s:%s", p, msg);
	ck_assert_int_eq(rc, CXL_EINVAL);
	ck_assert_str_eq(err.msg, want);
}

static const char lackey_text[] =
	"==100== Lackey, an example Valgrind tool\n"
	"==100== Copyright (C) 2002-2017, and GNU GPL'd, by Nicholas Nethercote.\n"
	"==100== Command: ./a\n"
	"==100== \n"
	"I  00401000,5\n"
	" S 7ff000ff8,8\n"
	"I  00401005,4\n"
	" L 0040303c,8\n"
	" M 00403080,4\n"
	"SB 00401009\n"
	"I  00401009,3\n"
	"I  0040100c,2\n"
	" M 0040307e,4\n"
	"--100-- a warning of valgrind's\n"
	"==100== \n"
	"==100==   guest instrs:  4\n";

START_TEST(test_trc_import_tools_lackey)
{
	trc_import_opts clk = { .clock_ps = 250 }, ipns = { .clock_ps = 400, .instr_only = 1 };
	trc_origin o = origin_of(lackey_text, NULL);

	ck_assert_int_eq(o.fmt, TRC_FMT_LACKEY);
	ck_assert_uint_eq(o.clock_ps, TRC_DEFAULT_INSTR_PS);
	/* instruction 0 stores; 1 loads across a line and modifies; 3 modifies across a line */
	gives(lackey_text, NULL, "time_ps,addr,op,size\n"
	      "0,0x7ff000ff8,W,8\n"
	      "1000,0x40303c,R,4\n1000,0x403040,R,4\n"
	      "1000,0x403080,R,4\n1000,0x403080,W,4\n"
	      "3000,0x40307e,R,2\n3000,0x403080,R,2\n3000,0x40307e,W,2\n3000,0x403080,W,2\n");
	gives(lackey_text, &clk, "time_ps,addr,op,size\n"
	      "0,0x7ff000ff8,W,8\n"
	      "250,0x40303c,R,4\n250,0x403040,R,4\n250,0x403080,R,4\n250,0x403080,W,4\n"
	      "750,0x40307e,R,2\n750,0x403080,R,2\n750,0x40307e,W,2\n750,0x403080,W,2\n");
	ck_assert_uint_eq(origin_of(lackey_text, &ipns).clock_ps, 400);
	/* detected from a data line too, and --from over a first line that looks like CSV */
	ck_assert_int_eq(origin_of(" L 0040303c,8\n", NULL).fmt, TRC_FMT_LACKEY);
	o = origin_of("I  0,1\n", &(trc_import_opts){ .fmt = TRC_FMT_LACKEY });
	ck_assert_int_eq(o.fmt, TRC_FMT_LACKEY);
	/* a trace of instructions only has no records */
	gives("I  00401000,5\nI  00401005,4\n", NULL, "time_ps,addr,op,size\n");
}
END_TEST

START_TEST(test_trc_import_tools_lackey_errors)
{
	import_fails("I  00401000,5\n X 00401000,4\n", NULL, "2: field kind: \"X\" is not a lackey "
		     "line (expected I, L, S or M and ADDR,SIZE, or valgrind's ==PID== lines)");
	import_fails("I  00401000,5\nhello, world\n", NULL, "2: field kind: \"hello,\" is not a "
		     "lackey line (expected I, L, S or M and ADDR,SIZE, or valgrind's ==PID== lines)");
	import_fails("I  00401000,5\n L 0040zz00,4\n", NULL,
		     "2: field address: \"0040zz00\" is not hex (expected up to 16 hex digits)");
	import_fails("I  00401000,5\n L 10000000000000000,4\n", NULL, "2: field address: "
		     "\"10000000000000000\" is not hex (expected up to 16 hex digits)");
	import_fails("I  00401000,5\n L 00401000\n", NULL,
		     "2: field size: missing (expected \"L ADDR,SIZE\")");
	import_fails("I  00401000,5\n L 00401000,x\n", NULL,
		     "2: field size: \"x\" is not a size (expected decimal bytes)");
	import_fails("I  00401000,5\n S 00401000,0\n", NULL,
		     "2: field size: 0 (expected 1 to 65536 bytes, the operand of one instruction)");
	/* a 1 GB access would make 2^24 records of one line (a fuzzer's find) */
	import_fails("I  00401000,5\n S 00401000,1000000000\n", NULL, "2: field size: 1000000000 "
		     "(expected 1 to 65536 bytes, the operand of one instruction)");
	import_fails("I  00401000,5\n S ffffffffffffffff,2\n", NULL,
		     "2: field size: 2 bytes at 0xffffffffffffffff go past 2^64");
	import_fails("I  0,zz\n", &(trc_import_opts){ .fmt = TRC_FMT_LACKEY },
		     "1: field size: \"zz\" is not a size (expected decimal bytes)");
}
END_TEST

/* the top of memory, and the largest access: 1024 line records */
START_TEST(test_trc_import_tools_lackey_extremes)
{
	char *back = through(" S 00401000,65536\n", NULL, TRC_FMT_CSV, NULL), *p = back;
	int lines = 0;

	gives(" S ffffffffffffffc0,64\n L fffffffffffffffe,2\n", NULL, "time_ps,addr,op,size\n"
	      "0,0xffffffffffffffc0,W,64\n0,0xfffffffffffffffe,R,2\n");
	while ((p = strchr(p, '\n')) && ++p)
		lines++;
	ck_assert_int_eq(lines, 1 + 65536 / 64);
	free(back);
}
END_TEST

START_TEST(test_trc_import_tools_ramulator)
{
	static const char text[] = "0x12345680 R\n0x4cbd56c0 W\n0x0 R\n0xffffffffffffffc0 W\n";
	uint64_t bad;
	char *back;
	trc_origin o = origin_of(text, NULL);

	ck_assert_int_eq(o.fmt, TRC_FMT_RAMULATOR);
	ck_assert_uint_eq(o.clock_ps, 0);
	gives(text, NULL, text);
	back = through(text, NULL, TRC_FMT_CSV, NULL);
	ck_assert_str_eq(back, "time_ps,addr,op,size\n0,0x12345680,R,64\n0,0x4cbd56c0,W,64\n"
			 "0,0x0,R,64\n0,0xffffffffffffffc0,W,64\n");
	free(back);
	/* Ramulator reads the address as hex, 0x or not; a line without op is a read */
	back = through("12345680 R\n0X4CBD56C0 write\n0x40\n", NULL, TRC_FMT_NONE, &bad);
	ck_assert_str_eq(back, "0x12345680 R\n0x4cbd56c0 W\n0x40 R\n");
	ck_assert_uint_eq(bad, 3);
	free(back);
}
END_TEST

START_TEST(test_trc_import_tools_ramulator_errors)
{
	trc_import_opts clk = { .clock_ps = 1000 };

	import_fails("0x40 R\n0x80 X\n", NULL, "2: field op: \"X\" (expected R or W)");
	import_fails("0x40 R\n0xzz W\n", NULL, "2: field address: \"0xzz\" is not hex (expected up "
		     "to 16 hex digits, 0x optional)");
	import_fails("0x40 R\n0x80 W 5\n", NULL,
		     "2: expected 2 fields: ADDR R|W (a Ramulator memory trace)");
	import_fails("0x40 R\n", &clk, " a ramulator trace has no time, so no --clock or --ipns");
}
END_TEST

START_TEST(test_trc_import_tools_ramulator2)
{
	/* the first lines of ramulator2 examples/traces/example_loadstore.trace */
	static const char ls[] = "LD 0x100000\nLD 0x110040\nLD 0x100080\nLD 0x1400c0\n"
				 "ST 0x1102c0\nLD 0x120300\nST 0x120380\n";
	static const char bub[] = "3 LD 0x40\n0 ST 0x80\n5 LD 0x1000\n0 LD 0x40\n";
	uint64_t bad;
	char *back;

	ck_assert_int_eq(origin_of(ls, NULL).fmt, TRC_FMT_RAMULATOR2);
	ck_assert_uint_eq(origin_of(ls, NULL).clock_ps, 0);
	gives(ls, NULL, ls);
	back = through(ls, NULL, TRC_FMT_CSV, NULL);
	ck_assert_str_eq(back, "time_ps,addr,op,size\n0,0x100000,R,64\n0,0x110040,R,64\n"
			 "0,0x100080,R,64\n0,0x1400c0,R,64\n0,0x1102c0,W,64\n0,0x120300,R,64\n"
			 "0,0x120380,W,64\n");
	free(back);
	/* decimal addresses (std::stoll) and lower case */
	back = through("LD 1048576\nst 0X40\n", NULL, TRC_FMT_NONE, &bad);
	ck_assert_str_eq(back, "LD 0x100000\nST 0x40\n");
	ck_assert_uint_eq(bad, 2);
	free(back);
	/* with bubble counts: instruction 3, 4, 10, 11 */
	ck_assert_uint_eq(origin_of(bub, NULL).clock_ps, TRC_DEFAULT_INSTR_PS);
	gives(bub, NULL, bub);
	back = through(bub, &(trc_import_opts){ .clock_ps = 250 }, TRC_FMT_CSV, NULL);
	ck_assert_str_eq(back, "time_ps,addr,op,size\n750,0x40,R,64\n1000,0x80,W,64\n"
			 "2500,0x1000,R,64\n2750,0x40,R,64\n");
	free(back);
}
END_TEST

START_TEST(test_trc_import_tools_ramulator2_errors)
{
	import_fails("LD 0x40\n3 ST 0x80\n", NULL, "2: expected 2 fields: LD|ST ADDR");
	import_fails("3 LD 0x40\nST 0x80\n", NULL, "2: expected 3 fields: BUBBLES LD|ST ADDR (the "
		     "first line has a bubble count)");
	import_fails("LD 0x40\nXX 0x80\n", NULL, "2: field op: \"XX\" (expected LD or ST)");
	import_fails("3 LD 0x40\n-1 ST 0x80\n", NULL, "2: field bubbles: \"-1\" is not a count "
		     "(expected a decimal integer: non-memory instructions before the access)");
	import_fails("LD 0x40\nST 0xg\n", NULL, "2: field address: \"0xg\" is not an address "
		     "(expected 0x and up to 16 hex digits, or a decimal integer below 2^64)");
	import_fails("LD 0x40\n", &(trc_import_opts){ .clock_ps = 5 },
		     " a ramulator2 trace without bubble counts has no time, so no --clock or --ipns");
}
END_TEST

/* ramulator2 examples/traces/example_inst.trace, whole (decimal addresses, two write-backs) */
static const char inst_trace[] = "3 20734016\n1 20846400\n6 20734208\n1 20846400\n"
				 "8 20841280 20841280\n0 20734144\n2 20918976 20734016\n"
				 "1 20846400\n";

START_TEST(test_trc_import_tools_ramulator_cpu)
{
	trc_origin o = origin_of(inst_trace, NULL);

	ck_assert_int_eq(o.fmt, TRC_FMT_RAMULATOR_CPU);
	ck_assert_uint_eq(o.clock_ps, TRC_DEFAULT_INSTR_PS);
	/* load at instruction 3, 5, 12, 14, 23 (+ write-back), 24, 27 (+ write-back), 29 */
	gives(inst_trace, NULL, "time_ps,addr,op,size\n"
	      "3000,0x13c6040,R,64\n5000,0x13e1740,R,64\n12000,0x13c6100,R,64\n"
	      "14000,0x13e1740,R,64\n23000,0x13e0340,R,64\n23000,0x13e0340,W,64\n"
	      "24000,0x13c60c0,R,64\n27000,0x13f32c0,R,64\n27000,0x13c6040,W,64\n"
	      "29000,0x13e1740,R,64\n");
	/* Ramulator 1's 0x form; unaligned addresses stay whole 64 B records */
	gives("0 0x1000 0x2000\n2 0x1010\n", &(trc_import_opts){ .clock_ps = 500 },
	      "time_ps,addr,op,size\n0,0x1000,R,64\n0,0x2000,W,64\n1500,0x1010,R,64\n");
	o = origin_of("0 4096\n", &(trc_import_opts){ .fmt = TRC_FMT_RAMULATOR_CPU });
	ck_assert_int_eq(o.fmt, TRC_FMT_RAMULATOR_CPU);
}
END_TEST

START_TEST(test_trc_import_tools_ramulator_cpu_errors)
{
	import_fails("3 020\n", NULL, "1: field address: \"020\" has a leading zero (octal to "
		     "Ramulator, decimal to Ramulator2: write it in hex with 0x, or without the zero)");
	import_fails("3 0x40\nx 0x80\n", NULL, "2: field bubbles: \"x\" is not a count (expected a "
		     "decimal integer: non-memory instructions before the access)");
	import_fails("3 0x40\n3\n", NULL, "2: expected 2 or 3 fields: BUBBLES ADDR [WBADDR]");
	import_fails("3 0x40\n3 0x40 0xq\n", NULL, "2: field write-back address: \"0xq\" is not an "
		     "address (expected 0x and up to 16 hex digits, or a decimal integer below 2^64)");
	import_fails("3 0x40\n3 0x80 0xffffffffffffffc1\n", NULL, "2: field write-back address: 64 "
		     "bytes at 0xffffffffffffffc1 go past 2^64");
	import_fails("20000000000000000 0x40\n", NULL, "1: field bubbles: instruction "
		     "20000000000000000 at 1000 ps each is past 2^64 ps");
	import_fails("1 0x40\n18446744073709551615 0x40\n", NULL,
		     "2: field bubbles: 18446744073709551615 more instructions go past 2^64");
}
END_TEST

/* drcachesim.dox.in, sec_drcachesim_view: the sample of the current format (x86-64) */
static const char dr_new[] =
	"Output format:\n"
	"<--record#-> <--instr#->: <---tid---> <record details>\n"
	"------------------------------------------------------------\n"
	"           1           0:     2765542 <marker: version 5>\n"
	"           2           0:     2765542 <marker: filetype 0xe40>\n"
	"           3           0:     2765542 <marker: cache line size 64>\n"
	"           4           0:     2765542 <marker: chunk instruction count 10000000>\n"
	"           5           0:     2765542 <marker: page size 4096>\n"
	"<...>\n"
	"       47742       37769:     2765543 ifetch       6 byte(s) @ 0x0000000000404a78 0f 84 5b "
	"01 00 00    jz     $0x0000000000404bd9 (untaken)\n"
	"       47743       37770:     2765543 ifetch       5 byte(s) @ 0x0000000000404a7e 48 8b 5c "
	"24 08       mov    0x08(%rsp), %rbx\n"
	"       47744       37770:     2765543 read         8 byte(s) @ 0x00007fdf64e2adc8 by PC "
	"0x0000000000404a7e\n"
	"       47745       37771:     2765543 ifetch       5 byte(s) @ 0x0000000000404a83 be 18 00 "
	"00 00       mov    $0x00000018, %esi\n"
	"       47746       37772:     2765543 ifetch       5 byte(s) @ 0x0000000000404a88 b8 11 01 "
	"00 00       mov    $0x00000111, %eax\n";

/* the same document's sample of the format before DynamoRIO 10 (no instr# column) */
static const char dr_old[] =
	"Output format:\n"
	"<record#>: T<tid> <record details>\n"
	"------------------------------------------------------------\n"
	"        1: T1774673 <marker: version 4>\n"
	"        2: T1774673 <marker: filetype 0x240>\n"
	"        3: T1774673 <marker: cache line size 64>\n"
	"        4: T1774673 <marker: chunk instruction count 10000000>\n"
	"        5: T1774673 <marker: page size 4096>\n"
	"<...>\n"
	"   173369: T1774669 ifetch       3 byte(s) @ 0x0000000000402680 f3 48 a5             rep "
	"movsq\n"
	"   173370: T1774669 read         8 byte(s) @ 0x00007f8881e37c70 by PC 0x0000000000402680\n"
	"   173371: T1774669 write        8 byte(s) @ 0x00007f8881e37a70 by PC 0x0000000000402680\n"
	"------------------------------------------------------------\n"
	"   173372: T1774668 <marker: timestamp 13309323446399692>\n"
	"   173373: T1774668 <marker: tid 1774668 on core 3>\n"
	"   173374: T1774668 ifetch       4 byte(s) @ 0x000000000040361a 48 8b 45 f8          mov   "
	" -0x08(%rbp), %rax\n"
	"   173375: T1774668 read         8 byte(s) @ 0x00007ffdf9d85088 by PC 0x000000000040361a\n";

START_TEST(test_trc_import_tools_drcachesim)
{
	trc_origin o = origin_of(dr_new, NULL);

	ck_assert_int_eq(o.fmt, TRC_FMT_DRCACHESIM);
	ck_assert_uint_eq(o.clock_ps, TRC_DEFAULT_INSTR_PS);
	/* the read belongs to instruction 37770, index 37769 */
	ck_assert_uint_eq(o.flags, TRC_ORIGIN_THREADS);
	gives(dr_new, NULL, "time_ps,addr,op,size,thread\n37769000,0x7fdf64e2adc8,R,8,0\n");
	/* old format: instructions are counted from the ifetch lines */
	ck_assert_int_eq(origin_of(dr_old, NULL).fmt, TRC_FMT_DRCACHESIM);
	/* thread ids become indices in order of first appearance: T1774669 0, T1774668 1 */
	gives(dr_old, NULL, "time_ps,addr,op,size,thread\n0,0x7f8881e37c70,R,8,0\n"
	      "0,0x7f8881e37a70,W,8,0\n1000,0x7ffdf9d85088,R,8,1\n");
	/* detected from a record line; a workload.thread id (view_test.cpp "W0.T3"); an access
	 * across a line split; prefetches, markers and disassembly spill-over skipped */
	gives("           7           1:       W0.T3 ifetch       4 byte(s) @ 0x0000002a "
	      "non-branch\n"
	      "           8           1:       W0.T3 read         4 byte(s) @ 0x0000003e by PC "
	      "0x0000002a\n"
	      "           9           2:       W0.T3 pref-r-L1    8 byte(s) @ 0x00000080 by PC "
	      "0x0000002e\n"
	      "          10           2:       W0.T3                                      d9\n"
	      "          11           3:       W0.T3 write       16 byte(s) @ 0x00000100 by PC "
	      "0x00000030\n", &(trc_import_opts){ .clock_ps = 300 },
	      "time_ps,addr,op,size,thread\n0,0x3e,R,2,0\n0,0x40,R,2,0\n600,0x100,W,16,0\n");
	/* threads of two workloads are distinct; a thread seen again keeps its index */
	gives("  1  1:  W0.T3 read 8 byte(s) @ 0x40\n  2  1:  W1.T3 read 8 byte(s) @ 0x80\n"
	      "  3  2:  W0.T7 write 8 byte(s) @ 0xc0\n  4  2:  W1.T3 read 8 byte(s) @ 0x100\n"
	      "  5  3:  W0.T3 read 8 byte(s) @ 0x140\n", NULL,
	      "time_ps,addr,op,size,thread\n0,0x40,R,8,0\n0,0x80,R,8,1\n1000,0xc0,W,8,2\n"
	      "1000,0x100,R,8,1\n2000,0x140,R,8,0\n");
}
END_TEST

START_TEST(test_trc_import_tools_drcachesim_errors)
{
	static const char pre[] = "Output format:\n";

	char text[512];
	struct {
		const char *line, *msg;
	} bad[] = {
		{ "  10  2:  77 read  x byte(s) @ 0x40",
		  "2: field size: expected \"N byte(s) @ 0xADDR\" after read or write" },
		{ "  10  2:  77 read  8 bytes @ 0x40", "2: field size: expected \"byte(s)\" after 8" },
		{ "  10  2:  7x7 read  8 byte(s) @ 0x40", "2: field tid: \"7x7\" is not a thread id "
		  "(expected TID, T<TID> or W<N>.T<TID>, below 2^32)" },
		{ "  10  2:  W1T3 read  8 byte(s) @ 0x40", "2: field tid: \"W1T3\" is not a thread "
		  "id (expected TID, T<TID> or W<N>.T<TID>, below 2^32)" },
		{ "  10  2:  4294967296 read  8 byte(s) @ 0x40", "2: field tid: \"4294967296\" is "
		  "not a thread id (expected TID, T<TID> or W<N>.T<TID>, below 2^32)" },
		{ "  10  2:  77 read  8 byte(s) at 0x40", "2: field address: expected \"@ 0xADDR\"" },
		{ "  10  2:  77 read  8 byte(s) @ 40",
		  "2: field address: \"40\" is not an address (expected 0x and up to 16 hex digits)" },
		{ "  10  2:  77 write 0 byte(s) @ 0x40",
		  "2: field size: 0 (expected 1 to 65536 bytes, the operand of one instruction)" },
		{ "  10  2:  77 write 65537 byte(s) @ 0x40",
		  "2: field size: 65537 (expected 1 to 65536 bytes, the operand of one instruction)" },
		{ "  10  99999999999999999999:  77 read 8 byte(s) @ 0x40",
		  "2: field record# or instr#: a number above 2^64" },
	};

	for (size_t i = 0; i < NELEMS(bad); i++) {
		snprintf(text, sizeof(text), "%s%s\n", pre, bad[i].line);
		import_fails(text, NULL, bad[i].msg);
	}
	import_fails("  10  5:  77 read  8 byte(s) @ 0x40\n  11  3:  77 read  8 byte(s) @ 0x80\n",
		     NULL, "2: field instr#: time 2000 ps is before the previous record's 4000 ps "
		     "(records must be sorted by time)");
}
END_TEST

START_TEST(test_trc_import_tools_detection_and_options)
{
	trc_import_opts ipns = { .clock_ps = 400, .instr_only = 1 };

	/* a lackey banner holds a comma: not CSV */
	ck_assert_int_eq(origin_of("==9515== Copyright (C) 2002-2017, and GNU GPL'd\n I 0,1\n",
				   NULL).fmt, TRC_FMT_LACKEY);
	ck_assert_int_eq(origin_of("0x40 R 0\n", NULL).fmt, TRC_FMT_ESF);
	ck_assert_int_eq(origin_of("0x40 READ 0\n", NULL).fmt, TRC_FMT_DRAMSIM3);
	ck_assert_int_eq(origin_of("addr,op\n0x40,R\n", NULL).fmt, TRC_FMT_CSV);
	ck_assert_int_eq(origin_of("0x40 read\n", NULL).fmt, TRC_FMT_RAMULATOR);
	ck_assert_int_eq(origin_of("7 ST 64\n", NULL).fmt, TRC_FMT_RAMULATOR2);
	ck_assert_int_eq(origin_of("7 64 128\n", NULL).fmt, TRC_FMT_RAMULATOR_CPU);
	ck_assert_int_eq(origin_of("<--record#-> <--instr#->: <---tid---> <record details>\n",
				   NULL).fmt, TRC_FMT_DRCACHESIM);
	ck_assert_int_eq(origin_of("   1: T5 <marker: version 4>\n", NULL).fmt, TRC_FMT_DRCACHESIM);
	/* --ipns only where instructions are counted */
	ck_assert_uint_eq(origin_of(inst_trace, &ipns).clock_ps, 400);
	ck_assert_uint_eq(origin_of("1 LD 0x40\n", &ipns).clock_ps, 400);
	import_fails("0x40 R 0\n", &ipns, " --ipns is for traces that count instructions, not esf "
		     "(give --clock)");
	import_fails("addr,op\n", &ipns, " --ipns is for traces that count instructions, not csv "
		     "(give --clock)");
	import_fails("0x40 R\n", &ipns, " a ramulator trace has no time, so no --clock or --ipns");
}
END_TEST

/* 10 000 lackey lines through blocks of 1000 records and back: every record, in order */
START_TEST(test_trc_import_tools_lackey_many_blocks)
{
	size_t cap = 10000 * 40, len = 0;
	char *text = malloc(cap);
	const char *in = trcf_path("big.lackey");
	trc_rec *r = malloc(7000 * sizeof(*r));
	uint64_t n = 0, noncanon, first, k = 0;
	cxl_err err = { 0 };

	for (int i = 0; i < 5000; i++)
		len += (size_t)snprintf(text + len, cap - len, "I  %08x,3\n %c %08x,8\n",
					0x401000 + 3 * i, "LSM"[i % 3], 0x10000 + 8 * i);
	trcf_spit(in, text, len);
	ck_assert_msg(trc_convert(in, trcf_path("big.cxt"), NULL, 1000, &noncanon, &first, &err) == 0,
		      "%s", err.msg);
	ck_assert_uint_eq(noncanon, 0);
	ck_assert_int_eq(trcf_read(trcf_path("big.cxt"), r, 7000, &n, &err), 0);
	ck_assert_uint_eq(n, 5000 + 1666); /* i % 3 == 2: a modify, two records */
	for (int i = 0; i < 5000; i++) {
		ck_assert_uint_eq(r[k].time, 1000 * (uint64_t)i);
		ck_assert_uint_eq(r[k].addr, 0x10000 + 8 * (uint64_t)i);
		ck_assert_uint_eq(r[k].op, i % 3 == 1 ? TRC_WRITE : TRC_READ);
		k++;
		if (i % 3 == 2) {
			ck_assert_uint_eq(r[k].op, TRC_WRITE);
			ck_assert_uint_eq(r[k++].addr, 0x10000 + 8 * (uint64_t)i);
		}
	}
	free(r);
	free(text);
}
END_TEST

Suite *trc_import_tools_suite(void)
{
	Suite *s = suite_create("trc_import_tools");
	TCase *lackey = trcf_case("lackey");
	TCase *ram = trcf_case("ramulator");
	TCase *dr = trcf_case("drcachesim");
	TCase *det = trcf_case("detection");

	tcase_add_test(lackey, test_trc_import_tools_lackey);
	tcase_add_test(lackey, test_trc_import_tools_lackey_errors);
	tcase_add_test(lackey, test_trc_import_tools_lackey_extremes);
	tcase_add_test(lackey, test_trc_import_tools_lackey_many_blocks);
	tcase_add_test(ram, test_trc_import_tools_ramulator);
	tcase_add_test(ram, test_trc_import_tools_ramulator_errors);
	tcase_add_test(ram, test_trc_import_tools_ramulator2);
	tcase_add_test(ram, test_trc_import_tools_ramulator2_errors);
	tcase_add_test(ram, test_trc_import_tools_ramulator_cpu);
	tcase_add_test(ram, test_trc_import_tools_ramulator_cpu_errors);
	tcase_add_test(dr, test_trc_import_tools_drcachesim);
	tcase_add_test(dr, test_trc_import_tools_drcachesim_errors);
	tcase_add_test(det, test_trc_import_tools_detection_and_options);
	suite_add_tcase(s, lackey);
	suite_add_tcase(s, ram);
	suite_add_tcase(s, dr);
	suite_add_tcase(s, det);
	return s;
}
