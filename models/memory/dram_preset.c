/*
 * models/memory/dram_preset.c - the DRAM presets (JEDEC speed bins as published by
 * two open simulators), the checks of a parameter set, address-mapping
 * strings and the theoretical channel bandwidth.
 *
 * Sources (numbers only; /work/shared/link-reference.md §8 lists them):
 *   DDR4-3200: DRAMsim3 configs/DDR4_8Gb_x8_3200.ini (tCK 0.625 ns, CL 22,
 *     CWL 16, tRCD = tRP 22, tRAS 52, tRFC 560 = 350 ns, tREFI 12480 =
 *     7.8 us, tRRD_S/L 4/8, tWTR_S/L 4/12, tFAW 34, tWR 24, tRTP 12,
 *     tCCD_S/L 4/8; 4 bank groups x 4 banks, 65536 rows, 1024 columns of
 *     x8 devices on a 64-bit bus = 8 KiB rows), the same values as
 *     ramulator2 DDR4_3200AA (tRC 74 = tRAS + tRP).  tRTW = CL + BL/2 + 2 -
 *     CWL = 12 and the rank switch tRTRS = 2 (nCS) follow ramulator2's
 *     DDR4 constraints (DRAMsim3 uses tRTRS 1).
 *   DDR5-4800: ramulator2 python/ramulator/dram/ddr5.py DDR5_4800AN with
 *     the DDR5_16Gb_x8 organisation: CL 34, CWL 32, tRCD = tRP 34, tRAS 77,
 *     tRC 111, tWR 72, tRTP 18, tCCD_S/L 8/12, tCCD_L_WR 48, tRRD_S/L
 *     8/12, tWTR_S/L 6/24, tPPD 2, nCS 2 (our tRTRS), 2-cycle ACT/RD/WR
 *     commands; 8 bank groups x 4 banks, 65536 rows, 1024 columns of x8
 *     devices on a 32-bit subchannel = 4 KiB rows, BL16 = 8 tCK.  The
 *     ns-based ones are converted at the exact tCK = 5/12 ns: tFAW 20 ns =
 *     48 (ramulator2 gets 49 from a tCK rounded to 416 ps), tRFC1 295 ns
 *     (16 Gb) = 708, tREFI 3.9 us = 9360; tRTW = CL + BL + 2 - CWL + 2 =
 *     14 as in ramulator2.
 *   DDR4-2400 (the cMPI pool's DIMMs, seed 001): ramulator2
 *     python/ramulator/dram/ddr4.py DDR4_2400R with the DDR4_8Gb_x8
 *     organisation (@38c51d40a976): tCK 833 ps (exactly 5/6 ns here), CL 16,
 *     CWL 12, tRCD = tRP 16, tRAS 39, tRC 55, tWR 18 (15 ns), tRTP 9
 *     (7.5 ns), tCCD_S/L 4/6, tWTR_S/L 3/9, nCS 2 (our tRTRS), and from its
 *     JEDEC tables for x8 at 2400: tRRD_S/L 4/6, tFAW 26; 4 bank groups x 4
 *     banks, 65536 rows, 1024 columns of x8 devices on a 64-bit bus = 8 KiB
 *     rows.  DRAMsim3 configs/DDR4_8Gb_x8_2400.ini (@7985fa07c13d, Micron
 *     MT40A1G8PM-083E) has the same CL, tRCD, tRP, tRAS, tRRD_S/L, tWTR_S/L,
 *     tFAW, tCCD_S/L and tRTRS 2, but CWL 16 (JEDEC's second CWL set, for a
 *     2 tCK write preamble) and tWR 19 (15 ns over a tCK rounded to
 *     0.833 ns), and no tRTP.  tRFC 420 = 350 ns (8 Gb) is DRAMsim3's, the
 *     value of the DDR4-3200 preset (ramulator2 uses 360 ns for 8 Gb);
 *     tREFI 7.8 us at the exact tCK = 9360 (both give 9364 from 0.833 ns);
 *     tRTW = CL + BL/2 + 2 - CWL = 10 as in ramulator2.
 * A DDR5 "channel" here is one 32-bit subchannel (a DIMM has two).
 * Theoretical bandwidth per channel: 64 B per tBL: DDR4-3200 x64 25.6 GB/s,
 * DDR5-4800 x32 19.2 GB/s, DDR4-2400 x64 19.2 GB/s.
 */
#include "models/memory/dram.h"

#include <stdio.h>
#include <string.h>

#define T(name) [DRAM_##name]

static const dram_params presets[] = {
	{
		.name = "DDR4-3200", .rate = 3200, .channels = 2, .ranks = 1,
		.bankgroups = 4, .banks = 4, .rows = 65536, .row_lines = 128,
		.queue = 32, .starve = 16, .closed_page = 0, .refresh = 1,
		.map = { DRAM_F_CH, DRAM_F_BG, DRAM_F_COL, DRAM_F_RANK, DRAM_F_BANK, DRAM_F_ROW },
		.t = {
			T(tBL) = 4, T(tCL) = 22, T(tCWL) = 16, T(tRCD) = 22, T(tRP) = 22,
			T(tRAS) = 52, T(tRC) = 74, T(tWR) = 24, T(tRTP) = 12,
			T(tCCD_S) = 4, T(tCCD_L) = 8, T(tCCD_L_WR) = 8,
			T(tRRD_S) = 4, T(tRRD_L) = 8, T(tFAW) = 34,
			T(tWTR_S) = 4, T(tWTR_L) = 12, T(tRTW) = 12, T(tRTRS) = 2,
			T(tPPD) = 0, T(tRFC) = 560, T(tREFI) = 12480, T(tCMD) = 1,
		},
	},
	{
		.name = "DDR5-4800", .rate = 4800, .channels = 2, .ranks = 1,
		.bankgroups = 8, .banks = 4, .rows = 65536, .row_lines = 64,
		.queue = 32, .starve = 16, .closed_page = 0, .refresh = 1,
		.map = { DRAM_F_CH, DRAM_F_BG, DRAM_F_COL, DRAM_F_RANK, DRAM_F_BANK, DRAM_F_ROW },
		.t = {
			T(tBL) = 8, T(tCL) = 34, T(tCWL) = 32, T(tRCD) = 34, T(tRP) = 34,
			T(tRAS) = 77, T(tRC) = 111, T(tWR) = 72, T(tRTP) = 18,
			T(tCCD_S) = 8, T(tCCD_L) = 12, T(tCCD_L_WR) = 48,
			T(tRRD_S) = 8, T(tRRD_L) = 12, T(tFAW) = 48,
			T(tWTR_S) = 6, T(tWTR_L) = 24, T(tRTW) = 14, T(tRTRS) = 2,
			T(tPPD) = 2, T(tRFC) = 708, T(tREFI) = 9360, T(tCMD) = 2,
		},
	},
	{
		.name = "DDR4-2400", .rate = 2400, .channels = 2, .ranks = 1,
		.bankgroups = 4, .banks = 4, .rows = 65536, .row_lines = 128,
		.queue = 32, .starve = 16, .closed_page = 0, .refresh = 1,
		.map = { DRAM_F_CH, DRAM_F_BG, DRAM_F_COL, DRAM_F_RANK, DRAM_F_BANK, DRAM_F_ROW },
		.t = {
			T(tBL) = 4, T(tCL) = 16, T(tCWL) = 12, T(tRCD) = 16, T(tRP) = 16,
			T(tRAS) = 39, T(tRC) = 55, T(tWR) = 18, T(tRTP) = 9,
			T(tCCD_S) = 4, T(tCCD_L) = 6, T(tCCD_L_WR) = 6,
			T(tRRD_S) = 4, T(tRRD_L) = 6, T(tFAW) = 26,
			T(tWTR_S) = 3, T(tWTR_L) = 9, T(tRTW) = 10, T(tRTRS) = 2,
			T(tPPD) = 0, T(tRFC) = 420, T(tREFI) = 9360, T(tCMD) = 1,
		},
	},
};

#undef T

/* dram_preset - the preset called @name, or NULL ("simple" is none: mem.c's own model). */
const dram_params *dram_preset(const char *name)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (!strcmp(presets[i].name, name))
			return &presets[i];
	return NULL;
}

static const char *const timing_names[DRAM_NTIMING] = {
	"tBL", "tCL", "tCWL", "tRCD", "tRP", "tRAS", "tRC", "tWR", "tRTP", "tCCD_S", "tCCD_L",
	"tCCD_L_WR", "tRRD_S", "tRRD_L", "tFAW", "tWTR_S", "tWTR_L", "tRTW", "tRTRS", "tPPD",
	"tRFC", "tREFI", "tCMD",
};

/* Timings that may be 0 (no constraint). */
static int may_be_zero(int t)
{
	return t == DRAM_tPPD || t == DRAM_tRTRS || t == DRAM_tWTR_S || t == DRAM_tWTR_L ||
	       t == DRAM_tRTP || t == DRAM_tWR;
}

/**
 * dram_params_check - see dram.h.  Field widths: ranks <= 255, bank groups
 * and banks per group <= 255 (trace records hold them in a byte), and a
 * refresh interval longer than the refresh itself (else a rank would do
 * nothing but refresh).
 */
int dram_params_check(const dram_params *p, char *why, size_t n)
{
	static const char *const what[] = { "rate", "channels", "ranks", "bank groups",
					    "banks", "rows", "row lines", "queue" };
	const uint32_t v[] = { p->rate, p->channels, p->ranks, p->bankgroups, p->banks,
			       p->rows, p->row_lines, p->queue };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!v[i])
			return snprintf(why, n, "%s must be positive", what[i]), -1;
	if (p->ranks > 255 || p->bankgroups > 255 || p->banks > 255)
		return snprintf(why, n, "at most 255 ranks, bank groups, banks per group"), -1;
	for (int t = 0; t < DRAM_NTIMING; t++)
		if (!p->t[t] && !may_be_zero(t))
			return snprintf(why, n, "%s must be positive", timing_names[t]), -1;
	if (p->refresh && p->t[DRAM_tREFI] <= p->t[DRAM_tRFC] + p->t[DRAM_tRC])
		return snprintf(why, n, "tREFI must exceed tRFC + tRC"), -1;
	uint8_t seen[DRAM_NFIELD] = { 0 };
	for (int i = 0; i < DRAM_NFIELD; i++)
		if (p->map[i] >= DRAM_NFIELD || seen[p->map[i]]++)
			return snprintf(why, n, "the address map must name every field once"), -1;
	return 0;
}

static const char *const field_names[DRAM_NFIELD] = {
	[DRAM_F_CH] = "ch", [DRAM_F_COL] = "col", [DRAM_F_BG] = "bg",
	[DRAM_F_BANK] = "bank", [DRAM_F_RANK] = "rank", [DRAM_F_ROW] = "row",
};

/* The field named by the @len bytes at @s, or -1. */
static int field_of(const char *s, size_t len)
{
	for (int f = 0; f < DRAM_NFIELD; f++)
		if (strlen(field_names[f]) == len && !strncmp(s, field_names[f], len))
			return f;
	return -1;
}

/**
 * dram_map_parse - a mapping string into field order (see dram.h).
 * @s:   e.g. "row:bank:rank:col:bg:ch", most significant field first
 * @map: OUT the fields, least significant first (untouched on error)
 * Return: 0, or -1 for an unknown, missing, repeated or empty field.
 */
int dram_map_parse(const char *s, uint8_t map[DRAM_NFIELD])
{
	int order[DRAM_NFIELD], n = 0;
	unsigned seen = 0;

	for (const char *p = s;; p++) {
		const char *e = strchr(p, ':');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		int f = field_of(p, len);
		if (f < 0 || n == DRAM_NFIELD || (seen & (1u << f)))
			return -1;
		seen |= 1u << f;
		order[n++] = f;
		if (!e)
			break;
		p = e;
	}
	if (n != DRAM_NFIELD)
		return -1;
	for (int i = 0; i < DRAM_NFIELD; i++)
		map[i] = (uint8_t)order[DRAM_NFIELD - 1 - i];
	return 0;
}

/* dram_peak_GBps - one channel's data bandwidth with no gap between bursts, GB/s. */
double dram_peak_GBps(const dram_params *p)
{
	/* 64 B per tBL cycles of 2e6 / rate ps: 64 * rate / (2000 * tBL) GB/s */
	return (double)DRAM_LINE * p->rate / (2000.0 * p->t[DRAM_tBL]);
}
