/*
 * traces/trc_main.c - bin/cxlfab-trace: convert, cat, info, gen, split
 * (design §1 and §6; library in traces/trc_*.c, reference in
 * traces/README.md).
 *
 * This file only parses the command line, prints help and results, and
 * maps errors to the project's convention: one line
 * "cxlfab-trace: error: ..." on stderr, exit 2 for bad input (CXL_EINVAL,
 * CXL_EIO), 1 for an internal failure.  No MPI: the tool is serial.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/stime.h"
#include "core/version.h"
#include "traces/trc.h"
#include "traces/trc_cli.h"
#include "traces/trc_ops.h"

#define NOPTS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char usage[] =
	"usage: cxlfab-trace COMMAND [options] ARGS   (cxlfab-trace COMMAND --help for details)\n"
	"  convert IN OUT     text trace (ESF, DRAMsim3, CSV, valgrind lackey, Ramulator,\n"
	"                     Ramulator2, drcachesim view; plain or gzip) to .cxt\n"
	"  cat FILE           .cxt back to text (the original format, or --to another)\n"
	"  info FILE          records, reads, writes, footprint, time span, compression\n"
	"  gen OUT            synthetic trace: --pattern stream|random|hotcold ...\n"
	"  split IN PATTERN   one trace into --hosts N traces (PATTERN has one %d)\n"
	"  --version, -h/--help\n"
	"Errors: one line on stderr, exit 2 for bad input, 1 for an internal failure.\n";

static const char help_convert[] =
	"usage: cxlfab-trace convert [options] IN OUT\n"
	"Import a text trace into the compressed .cxt format (IN '-' reads stdin; gzip input\n"
	"is read transparently).  The format is detected from the first line unless given.\n"
	"  --from FMT            esf | dramsim3 | csv | lackey | ramulator | ramulator2 |\n"
	"                        ramulator-cpu | drcachesim | champsim\n"
	"                        esf:      0xADDR R|W TICK    (TICK: issue time in clock ticks,\n"
	"                                  0 = as soon as possible: the previous record's time)\n"
	"                        dramsim3: 0xADDR READ|WRITE CYCLE  (absolute DRAM cycle)\n"
	"                        csv:      header line naming the columns: addr|address, op (R|W),\n"
	"                                  size (bytes, default 64), one of time_ps, time_ns,\n"
	"                                  time_us, time, cycle (time/cycle need --clock)\n"
	"                        lackey:   valgrind --tool=lackey --trace-mem=yes output: I (an\n"
	"                                  instruction), L (read), S (write), M (read + write)\n"
	"                                  ADDR,SIZE; ==PID== lines skipped\n"
	"                        ramulator: ADDR R|W  (memory trace; no time)\n"
	"                        ramulator2: LD|ST ADDR  (LoadStoreTrace; no time), or with a\n"
	"                                  bubble count first: BUBBLES LD|ST ADDR\n"
	"                        ramulator-cpu: BUBBLES ADDR [WBADDR]  (Ramulator CPU trace,\n"
	"                                  Ramulator2 SimpleO3: a read, and a write-back)\n"
	"                        drcachesim: the view tool's output (read/write records;\n"
	"                                  thread ids kept as indices 0.. in order of appearance)\n"
	"                        champsim: ChampSim binary trace, plain, .gz or .xz (64-byte\n"
	"                                  instruction records; each memory operand a 64 B\n"
	"                                  read or write of its line); detected by the xz\n"
	"                                  magic or a name holding .champsim\n"
	"                        Accesses of lackey and drcachesim are split at 64 B lines.\n"
	"  --clock TIME          time of one ESF tick / DRAMsim3 cycle / CSV time|cycle unit,\n"
	"                        e.g. 1ns, 0.625ns (default 1ns for esf and dramsim3); for\n"
	"                        lackey, ramulator-cpu, ramulator2 with bubbles, drcachesim\n"
	"                        and champsim\n"
	"                        the time of one instruction (default 1ns): an access is at\n"
	"                        (index of its instruction, from 0) x TIME\n"
	"  --ipns R              the same as instructions per ns (1 = --clock 1ns, 2.5 =\n"
	"                        --clock 400ps); only for the formats that count instructions\n"
	"  --esf-ticks MODE      absolute (default: Xerxes' issue times) | delay (since the\n"
	"                        previous record)\n"
	"  --block-records N     records per compressed block (default 4096, at most 1048576);\n"
	"                        readers hold one block: memory ~80 B x N\n"
	"  --strict              refuse input that is not in canonical form (see README); for\n"
	"                        the formats cat prints back (not lackey, ramulator-cpu,\n"
	"                        drcachesim, champsim)\n"
	"  -q, --quiet           print nothing but errors\n"
	"Prints 'IN -> OUT: N records, B bytes (b bytes/record)'.  Lines that are not canonical\n"
	"(upper-case hex, CRLF, extra blanks, blank lines...) are normalised with a note: `cat`\n"
	"then prints the canonical form.  Times must not decrease (error names the line).\n";

static const char help_cat[] =
	"usage: cxlfab-trace cat [options] FILE\n"
	"Print a .cxt trace as text on stdout: by default in the format it was converted from\n"
	"(byte-identical to canonical input), CSV (time_ps,addr,op,size) for generated traces\n"
	"and those from lackey, ramulator-cpu and drcachesim.\n"
	"  --to FMT              esf | dramsim3 | csv | ramulator | ramulator2 (ramulator2\n"
	"                        prints bubble counts if --clock gives an instruction's time)\n"
	"  --clock TIME          tick/cycle time when FMT is not the original format\n"
	"                        (default 1ns); times must be whole ticks\n"
	"  --esf-ticks MODE      absolute (default) | delay, when FMT is esf and not the original\n"
	"ESF, DRAMsim3 and Ramulator text cannot hold sizes: records of other than 64 B are an\n"
	"error.  Ramulator text has no time: it is dropped.  CSV prints a trace's thread indices\n"
	"(a thread column); the other formats have no thread field and drop them.\n";

static const char help_info[] =
	"usage: cxlfab-trace info [--blocks] FILE\n"
	"Read the whole trace (checking every block and the records checksum) and print:\n"
	"origin, records, reads, writes, threads (distinct thread indices, where the format has\n"
	"thread ids), footprint (distinct 64 B lines, and bytes), bytes (sum of sizes), address\n"
	"range, time (first, last, span), blocks, format (.cxt version), file size, and the\n"
	"compression ratio against raw 21-byte records (time 8, address 8, size 4, op 1).\n"
	"  --blocks              print the block table instead (offset, compressed, payload,\n"
	"                        records, first record), from block headers only\n";

static const char help_gen[] =
	"usage: cxlfab-trace gen [options] OUT\n"
	"Write a synthetic .cxt trace with the requester model's address patterns.\n"
	"  --pattern P           stream (lines in order, wrapping) | random (uniform, default)\n"
	"                        | hotcold (--hot-fraction of the records uniform over the first\n"
	"                        --hot-footprint of the lines, the rest over the others)\n"
	"  --records N           records (default 1000)\n"
	"  --seed S              random seed (default 1); same options + seed = same trace\n"
	"  --footprint BYTES     bytes touched, a multiple of 64 (default 1M; K/M/G/T suffixes)\n"
	"  --base ADDR           address of the first line, a multiple of 64 (default 0)\n"
	"  --read-ratio R        probability of a read (default 1.0)\n"
	"  --hot-fraction F      hotcold: share of records to the hot set (default 0.9)\n"
	"  --hot-footprint F     hotcold: hot share of the footprint (default 0.1, >= 1 line)\n"
	"  --interval TIME       time between records, e.g. 2ns (default 0ps); record i at i x TIME\n"
	"  --size BYTES          bytes per record (default 64)\n"
	"  --block-records N     records per compressed block (default 4096)\n";

static const char help_split[] =
	"usage: cxlfab-trace split [options] IN OUTPATTERN\n"
	"Split a trace among hosts: OUTPATTERN has exactly one %d, replaced by the host number\n"
	"(0-based); %% is a literal %.  Times, sizes, threads and the original format are kept,\n"
	"and each record goes to exactly one output.\n"
	"  --hosts N             number of outputs, 1..65536 (required)\n"
	"  --by MODE             range (default: host h gets the h-th contiguous run of records,\n"
	"                        sizes differ by at most one) | roundrobin (record i to host i mod N)\n"
	"                        | thread (a record of thread t to host t mod N; `info` prints the\n"
	"                        number of threads; a trace without threads is all thread 0)\n"
	"  --rebase              each output's time starts at 0 (its first record's time is\n"
	"                        subtracted from all of its records)\n"
	"  --block-records N     records per compressed block of the outputs (default 4096,\n"
	"                        lowered for roundrobin and thread over many hosts)\n";

/* Formats by name: --from takes them all, --to those with an exporter. */
static const char *const from_choices[] = { "esf", "dramsim3", "csv", "lackey", "ramulator",
					    "ramulator2", "ramulator-cpu", "drcachesim",
					    "champsim" };
static const int from_fmts[] = { TRC_FMT_ESF, TRC_FMT_DRAMSIM3, TRC_FMT_CSV, TRC_FMT_LACKEY,
				 TRC_FMT_RAMULATOR, TRC_FMT_RAMULATOR2, TRC_FMT_RAMULATOR_CPU,
				 TRC_FMT_DRCACHESIM, TRC_FMT_CHAMPSIM };
static const char *const to_choices[] = { "esf", "dramsim3", "csv", "ramulator", "ramulator2" };
static const int to_fmts[] = { TRC_FMT_ESF, TRC_FMT_DRAMSIM3, TRC_FMT_CSV, TRC_FMT_RAMULATOR,
			       TRC_FMT_RAMULATOR2 };
static const char *const tick_choices[] = { "absolute", "delay" };
static const char *const pattern_choices[] = { "stream", "random", "hotcold" };
static const char *const by_choices[] = { "range", "roundrobin", "thread" };

static int fail(const cxl_err *err)
{
	fprintf(stderr, "cxlfab-trace: error: %s\n", err->msg);
	return cxl_exit_code(err->code ? err->code : CXL_EINTERNAL);
}

/* --block-records into @cap (0 if not given). */
static int block_records(const char *v, uint32_t *cap, cxl_err *err)
{
	uint64_t n = 0;

	*cap = 0;
	if (!v)
		return 0;
	if (trc_cli_u64("--block-records", v, &n, err))
		return CXL_EINVAL;
	if (!n || n > TRC_CAP_MAX)
		return cxl_err_set(err, CXL_EINVAL, "--block-records %s: out of range 1..%u", v,
				   TRC_CAP_MAX);
	*cap = (uint32_t)n;
	return 0;
}

static int fmt_opt(const char *opt, const char *v, int *fmt, cxl_err *err)
{
	int from = !strcmp(opt, "--from"), i;

	*fmt = TRC_FMT_NONE;
	if (!v)
		return 0;
	if (trc_cli_choice(opt, v, from ? from_choices : to_choices,
			   from ? NOPTS(from_choices) : NOPTS(to_choices), &i, err))
		return CXL_EINVAL;
	*fmt = from ? from_fmts[i] : to_fmts[i];
	return 0;
}

/* --clock or --ipns (at most one) into @io. */
static int clock_opts(const char *clock, const char *ipns, trc_import_opts *io, cxl_err *err)
{
	if (clock && ipns)
		return cxl_err_set(err, CXL_EINVAL, "convert: give --clock or --ipns, not both");
	if (clock)
		return trc_cli_time("--clock", clock, 1, &io->clock_ps, err);
	io->instr_only = !!ipns;
	return ipns ? trc_cli_ipns("--ipns", ipns, &io->clock_ps, err) : 0;
}

/* --strict for a format without canonical text: remove @out, refuse. */
static int strict_needs_text(const char *in, const char *out, cxl_err *err)
{
	trc_reader *r;
	int fmt;

	if (trc_reader_open(&r, out, err))
		return CXL_EINVAL;
	fmt = trc_reader_origin(r)->fmt;
	trc_reader_close(r);
	if (trc_fmt_exports(fmt))
		return 0;
	unlink(out);
	return cxl_err_set(err, CXL_EINVAL, "%s: --strict: %s text has no canonical form (cat "
			   "prints it as CSV)", in, trc_fmt_name(fmt));
}

static int ticks_opt(const char *v, int *delay, cxl_err *err)
{
	*delay = 0;
	return v ? trc_cli_choice("--esf-ticks", v, tick_choices, 2, delay, err) : 0;
}

static int cmd_convert(int argc, char **argv)
{
	trc_opt o[] = { { "--from", 0, NULL }, { "--clock", 0, NULL }, { "--esf-ticks", 0, NULL },
			{ "--block-records", 0, NULL }, { "--strict", 1, NULL }, { "--quiet", 1, NULL },
			{ "-q", 1, NULL }, { "--ipns", 0, NULL } };
	trc_import_opts io = { 0 };
	const char *pos[2];
	uint64_t bad, first;
	uint32_t cap;
	cxl_err err = { 0 };
	trc_info info;

	if (trc_cli_parse("convert", argc, argv, o, NOPTS(o), pos, 2, &err) ||
	    fmt_opt("--from", o[0].val, &io.fmt, &err) || clock_opts(o[1].val, o[7].val, &io, &err) ||
	    ticks_opt(o[2].val, &io.esf_delay, &err) || block_records(o[3].val, &cap, &err) ||
	    trc_convert(pos[0], pos[1], &io, cap, &bad, &first, &err) ||
	    (o[4].val && strict_needs_text(pos[0], pos[1], &err)))
		return fail(&err);
	if (bad && o[4].val) {
		unlink(pos[1]);
		cxl_err_set(&err, CXL_EINVAL, "%s:%llu: not in canonical form (--strict; %llu such "
			    "lines)", pos[0], (unsigned long long)first, (unsigned long long)bad);
		return fail(&err);
	}
	if (bad && !o[5].val && !o[6].val)
		fprintf(stderr, "cxlfab-trace: note: %s: %llu line%s not in canonical form (first: "
			"line %llu); cat prints the canonical form\n", pos[0],
			(unsigned long long)bad, bad == 1 ? "" : "s", (unsigned long long)first);
	if (o[5].val || o[6].val)
		return 0;
	if (trc_info_scan(pos[1], &info, &err))
		return fail(&err);
	printf("%s -> %s: %" PRIu64 " records, %" PRIu64 " bytes (%.2f bytes/record)\n", pos[0],
	       pos[1], info.records, info.file_bytes,
	       info.records ? (double)info.file_bytes / (double)info.records : 0.0);
	return 0;
}

static int cmd_cat(int argc, char **argv)
{
	trc_opt o[] = { { "--to", 0, NULL }, { "--clock", 0, NULL }, { "--esf-ticks", 0, NULL } };
	const char *pos[1];
	uint64_t clock = 0;
	int to, delay;
	cxl_err err = { 0 };

	if (trc_cli_parse("cat", argc, argv, o, NOPTS(o), pos, 1, &err) ||
	    fmt_opt("--to", o[0].val, &to, &err) ||
	    (o[1].val && trc_cli_time("--clock", o[1].val, 1, &clock, &err)) ||
	    ticks_opt(o[2].val, &delay, &err) || trc_cat(pos[0], stdout, to, clock, delay, &err))
		return fail(&err);
	return 0;
}

static void print_origin(const trc_origin *o)
{
	char clk[STIME_FMT_LEN];

	printf("%-13s %s", "origin:", trc_fmt_name(o->fmt));
	if (trc_fmt_counts_instructions(o->fmt, o->clock_ps))
		printf(" (time: instruction index x %s, %.6g instructions/ns)",
		       stime_format(o->clock_ps, clk), 1000.0 / (double)o->clock_ps);
	else if (o->fmt == TRC_FMT_RAMULATOR || o->fmt == TRC_FMT_RAMULATOR2)
		printf(" (no time: every record at 0, issued as soon as possible)");
	else if (o->fmt == TRC_FMT_ESF || o->fmt == TRC_FMT_DRAMSIM3 || o->clock_ps)
		printf(" (clock %s%s)", stime_format(o->clock_ps, clk),
		       o->fmt != TRC_FMT_ESF ? "" : (o->flags & TRC_ORIGIN_ESF_DELAY) ?
		       ", ticks are delays" : ", ticks are absolute");
	if (o->fmt == TRC_FMT_CSV)
		printf(" header \"%s\"", o->text);
	putchar('\n');
}

static void print_info(const char *path, const trc_info *in)
{
	char a[STIME_FMT_LEN], b[STIME_FMT_LEN], c[STIME_FMT_LEN];
	uint64_t blocks = (in->records + in->cap - 1) / in->cap;
	double raw = (double)in->records * TRC_RAW_RECORD;

	printf("%-13s %s\n", "file:", path);
	print_origin(&in->origin);
	printf("%-13s %" PRIu64 "\n", "records:", in->records);
	printf("%-13s %" PRIu64 "\n", "reads:", in->reads);
	printf("%-13s %" PRIu64 "\n", "writes:", in->writes);
	if (in->origin.flags & TRC_ORIGIN_THREADS)
		printf("%-13s %" PRIu32 " (indices 0..%u)\n", "threads:", in->threads,
		       (unsigned)in->thread_max);
	else
		printf("%-13s none recorded (every record is thread 0)\n", "threads:");
	printf("%-13s %" PRIu64 " lines (%" PRIu64 " bytes)\n", "footprint:", in->lines,
	       in->lines * 64);
	printf("%-13s %" PRIu64 "\n", "bytes:", in->bytes);
	printf("%-13s 0x%" PRIx64 " .. 0x%" PRIx64 "\n", "addresses:", in->addr_min, in->addr_max);
	printf("%-13s first %s, last %s, span %s\n", "time:", stime_format(in->t_first, a),
	       stime_format(in->t_last, b), stime_format(in->t_last - in->t_first, c));
	printf("%-13s %" PRIu64 " (up to %" PRIu32 " records each)\n", "blocks:", blocks, in->cap);
	printf("%-13s .cxt version %u\n", "format:", in->version);
	printf("%-13s %" PRIu64 " bytes (%.3f bytes/record)\n", "file size:", in->file_bytes,
	       in->records ? (double)in->file_bytes / (double)in->records : 0.0);
	printf("%-13s %.2fx (raw %d-byte records / file size)\n", "compression:",
	       in->file_bytes ? raw / (double)in->file_bytes : 0.0, TRC_RAW_RECORD);
}

static int cmd_info(int argc, char **argv)
{
	trc_opt o[] = { { "--blocks", 1, NULL } };
	const char *pos[1];
	cxl_err err = { 0 };
	trc_info info;

	if (trc_cli_parse("info", argc, argv, o, NOPTS(o), pos, 1, &err))
		return fail(&err);
	if (o[0].val)
		return trc_info_blocks(pos[0], stdout, &err) ? fail(&err) : 0;
	if (trc_info_scan(pos[0], &info, &err))
		return fail(&err);
	print_info(pos[0], &info);
	return 0;
}

/* The gen options into @g (defaults for those not given). */
static int gen_opts(trc_opt *o, trc_gen_opts *g, cxl_err *err)
{
	uint64_t size = 64;

	trc_gen_defaults(g);
	if ((o[0].val && trc_cli_choice("--pattern", o[0].val, pattern_choices, 3, &g->pattern, err)) ||
	    (o[1].val && trc_cli_u64("--records", o[1].val, &g->records, err)) ||
	    (o[2].val && trc_cli_u64("--seed", o[2].val, &g->seed, err)) ||
	    (o[3].val && trc_cli_bytes("--footprint", o[3].val, &g->footprint, err)) ||
	    (o[4].val && trc_cli_fraction("--read-ratio", o[4].val, &g->read_ratio, err)) ||
	    (o[5].val && trc_cli_fraction("--hot-fraction", o[5].val, &g->hot_fraction, err)) ||
	    (o[6].val && trc_cli_fraction("--hot-footprint", o[6].val, &g->hot_footprint, err)) ||
	    (o[7].val && trc_cli_time("--interval", o[7].val, 0, &g->interval_ps, err)) ||
	    (o[8].val && trc_cli_u64("--base", o[8].val, &g->base, err)) ||
	    (o[9].val && trc_cli_bytes("--size", o[9].val, &size, err)))
		return CXL_EINVAL;
	if (!size || size > UINT32_MAX)
		return cxl_err_set(err, CXL_EINVAL, "--size %s: out of range 1..4294967295", o[9].val);
	g->size = (uint32_t)size;
	return 0;
}

static int cmd_gen(int argc, char **argv)
{
	trc_opt o[] = { { "--pattern", 0, NULL }, { "--records", 0, NULL }, { "--seed", 0, NULL },
			{ "--footprint", 0, NULL }, { "--read-ratio", 0, NULL },
			{ "--hot-fraction", 0, NULL }, { "--hot-footprint", 0, NULL },
			{ "--interval", 0, NULL }, { "--base", 0, NULL }, { "--size", 0, NULL },
			{ "--block-records", 0, NULL } };
	const char *pos[1];
	trc_gen_opts g;
	uint32_t cap;
	cxl_err err = { 0 };

	if (trc_cli_parse("gen", argc, argv, o, NOPTS(o), pos, 1, &err) || gen_opts(o, &g, &err) ||
	    block_records(o[10].val, &cap, &err) || trc_gen_write(pos[0], &g, cap, &err))
		return fail(&err);
	return 0;
}

static int cmd_split(int argc, char **argv)
{
	trc_opt o[] = { { "--hosts", 0, NULL }, { "--by", 0, NULL }, { "--block-records", 0, NULL },
			{ "--rebase", 1, NULL } };
	const char *pos[2];
	uint64_t hosts = 0;
	uint32_t cap;
	int by = TRC_SPLIT_RANGE;
	cxl_err err = { 0 };

	if (trc_cli_parse("split", argc, argv, o, NOPTS(o), pos, 2, &err))
		return fail(&err);
	if (!o[0].val) {
		cxl_err_set(&err, CXL_EINVAL, "split: --hosts N is required");
		return fail(&err);
	}
	if (trc_cli_u64("--hosts", o[0].val, &hosts, &err) ||
	    (o[1].val && trc_cli_choice("--by", o[1].val, by_choices, 3, &by, &err)) ||
	    block_records(o[2].val, &cap, &err))
		return fail(&err);
	if (hosts < 1 || hosts > TRC_SPLIT_HOSTS_MAX) {
		cxl_err_set(&err, CXL_EINVAL, "--hosts %s: out of range 1..%d", o[0].val,
			    TRC_SPLIT_HOSTS_MAX);
		return fail(&err);
	}
	if (trc_split(pos[0], pos[1], (unsigned)hosts, by, cap, !!o[3].val, &err))
		return fail(&err);
	return 0;
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "convert", cmd_convert, help_convert }, { "cat", cmd_cat, help_cat },
	{ "info", cmd_info, help_info },          { "gen", cmd_gen, help_gen },
	{ "split", cmd_split, help_split },
};

/* main - dispatch to a subcommand (usage[] above); exit 0, 1 or 2. */
int main(int argc, char **argv)
{
	cxl_err err = { 0 };

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("cxlfab-trace %s (.cxt version %d)\n", CXL_VERSION, TRC_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		if (trc_cli_wants_help(argc - 2, argv + 2)) {
			fputs(commands[i].help, stdout);
			return 0;
		}
		return commands[i].run(argc - 2, argv + 2);
	}
	cxl_err_set(&err, CXL_EINVAL, "unknown command \"%s\" (expected convert, cat, info, gen, "
		    "split; see cxlfab-trace --help)", argv[1]);
	return fail(&err);
}
