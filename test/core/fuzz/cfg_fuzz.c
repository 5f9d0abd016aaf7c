/*
 * test/core/fuzz/cfg_fuzz.c - libFuzzer harness for the config loader and
 * the whole validation (`make fuzz`, beside the trace reader's harness).
 *
 * An input is a config file's text, optionally followed by a line "%%" and
 * then one --set string per line:
 *
 *   simulation = { end = "1us"; };
 *   phold = { lps = 8; };
 *   %%
 *   phold.remote=0.5
 *   workload[host1].queue=4
 *
 * The harness writes the text to ./fuzz.cfg and runs bin/cxlfab's own main()
 * (core/main.c compiled with -Dmain=cxlfab_main) as
 * `cxlfab --check fuzz.cfg --set S1 --set S2 ...`: the same path --check
 * takes (sys_select, cfg_load, the system's build, the override check,
 * every component's init on one rank), with no MPI (no launcher in the
 * environment).  Standard output (the fabric summary) goes to /dev/null;
 * standard error is captured per input.
 *
 * The contract checked on every input (a violation aborts: a "crash" for
 * libFuzzer):
 *   - exit 0 with nothing on stderr, or
 *   - exit 2 with exactly one line on stderr, "cxlfab: error: ...";
 *   - never exit 1 (an internal error on some config is a bug), never a
 *     panic, a sanitizer report or a leak (libFuzzer's own checks).
 * Crashing inputs go to test/core/fuzz/corpus/ once fixed (the seed corpus
 * `make fuzz` starts from, beside configs/).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cxlfab_main(int argc, char **argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

enum { MAX_SETS = 16 };

static FILE *err_file;    /* what cxlfab's stderr points to during a run */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!freopen("/dev/null", "w", stdout))
		abort();
	unsetenv("CXLFAB_MPI");
	return 0;
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		abort();
}

/*
 * stderr (the C stream cxlfab prints to) into a fresh temp file for one run.
 * Only the stream is swapped, not fd 2: libFuzzer's and the sanitizers'
 * reports (a crash, a timeout) still reach the terminal.
 */
static FILE *capture(void)
{
	FILE *real = stderr;

	if (!err_file && !(err_file = tmpfile()))
		abort();
	if (ftruncate(fileno(err_file), 0))
		abort();
	rewind(err_file);
	stderr = err_file;
	return real;
}

/* What the run wrote on stderr (NUL-terminated, at most 64 KiB); restores @real. */
static char *captured(FILE *real, size_t *len)
{
	static char buf[1 << 16];

	fflush(err_file);
	stderr = real;
	rewind(err_file);
	*len = fread(buf, 1, sizeof(buf) - 1, err_file);
	buf[*len] = '\0';
	return buf;
}

/* The contract (file top); prints the case and aborts when it is broken. */
static void check(int rc, const char *err, size_t len)
{
	const char *nl = memchr(err, '\n', len);
	int one_line = nl && (size_t)(nl - err) + 1 == len && strlen(err) == len;

	if (rc == 0 && len == 0)
		return;
	if (rc == 2 && one_line && !strncmp(err, "cxlfab: error: ", 15))
		return;
	fprintf(stderr, "cfg_fuzz: contract broken: exit %d, stderr (%zu bytes):\n%s\n", rc, len,
		err);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *argv[4 + 2 * MAX_SETS + 1];
	int argc = 0;

	memcpy(text, data, size);
	text[size] = '\0';
	size_t cfg_len = strlen(text); /* a NUL ends the input */
	char *sets = strstr(text, "\n%%\n");
	if (sets) {
		cfg_len = (size_t)(sets - text) + 1;
		sets += 4;
	}
	write_file("fuzz.cfg", (const uint8_t *)text, cfg_len);
	argv[argc++] = (char *)"cxlfab";
	argv[argc++] = (char *)"--check";
	argv[argc++] = (char *)"fuzz.cfg";
	for (char *s = sets; s && *s && argc < 3 + 2 * MAX_SETS;) {
		char *e = strchr(s, '\n');
		if (e)
			*e = '\0';
		argv[argc++] = (char *)"--set";
		argv[argc++] = s;
		s = e ? e + 1 : NULL;
	}
	argv[argc] = NULL;
	FILE *real = capture();
	int rc = cxlfab_main(argc, argv);
	size_t len;
	const char *err = captured(real, &len);
	check(rc, err, len);
	free(text);
	return 0;
}
