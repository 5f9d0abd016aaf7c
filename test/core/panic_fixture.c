/*
 * test/core/panic_fixture.c - checking a panic's message (contract in
 * panic_fixture.h).
 */
#include "test/core/panic_fixture.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"

static char want[256];  /* the text the panic line must contain */
static FILE *capture;   /* stderr while the test runs */
static int saved = -1;  /* the real stderr */

/* The abort hook: the panic's line has been written to the capture file. */
static void check_panic(void)
{
	char got[1024];
	size_t n;

	fflush(stderr);
	rewind(capture);
	n = fread(got, 1, sizeof(got) - 1, capture);
	got[n] = '\0';
	if (n && got[n - 1] == '\n')
		got[n - 1] = '\0';
	dup2(saved, STDERR_FILENO);
	if (!strstr(got, want)) {
		/* Check reports a signal test that exits as "Early exit": say why here */
		fprintf(stderr, "panic \"%s\" does not contain \"%s\"\n", got, want);
		ck_abort_msg("panic \"%s\" does not contain \"%s\"", got, want);
	}
	abort();
}

void panict_expect(const char *what)
{
	snprintf(want, sizeof(want), "%s", what);
	fflush(stderr);
	capture = tmpfile();
	ck_assert_ptr_nonnull(capture);
	saved = dup(STDERR_FILENO);
	ck_assert_int_ge(saved, 0);
	ck_assert_int_ge(dup2(fileno(capture), STDERR_FILENO), 0);
	cxl_set_abort_hook(check_panic);
}
