/*
 * models/host/req_rate.c - workload.rate: the requester's load as an
 * offered rate, turned into the issue interval req.c already obeys.
 *
 * Forms of workload.rate (a string; one per requester, overridable like
 * every workload key):
 *   "12.5GB/s"  bytes per second: a size unit of core/size.h followed by
 *               "/s" (B/s, kB/s, MB/s, GB/s, TB/s, KiB/s ... TiB/s); GB/s
 *               is 10^9 B/s, the unit of summary.bandwidth_GBps
 *   "50%"       a share of the data bandwidth of the requester's own link
 *               (bus_data_GBps() of the bus on its port: bus.gen x
 *               bus.lanes x encoding, headers included, so payload alone
 *               saturates below 100%); above 100% is allowed (the link
 *               then limits the load)
 *   "0"         (the default; also "0GB/s", "0%") no rate: the load is set
 *               by workload.issue_interval and workload.queue as before
 * A bare non-zero number is an error: GB/s or a share would be a guess.
 *
 * Each request moves one 64-byte line, so the interval is 64 B / rate,
 * rounded to the nearest ps.  The arithmetic is in double but depends only
 * on the configuration, so every rank computes the same interval; an
 * interval that rounds to 0 ps (above 64000 GB/s) is an error, and so is
 * one above CFG_TIME_LIMIT (3600s, the bound of every time key: below
 * 0.0178 B/s), which could wrap when added to the current time.  The rate
 * is an upper bound like the interval it becomes: the queue
 * (workload.queue) and the credits can still hold the requester back.
 * A non-zero rate together with a non-zero workload.issue_interval is an
 * error naming both (one knob, not two).
 *
 * The link: the requester's model knows nothing of bus parameters, and
 * they may be overridden per bus (`bus[leaf0-host0].lanes = 4`), not per
 * host.  So the requester asks the engine for the configuration its peer
 * sees (sim_cfg_of(), the per-component view) and the bus model for the
 * bandwidth that view gives (bus_data_GBps(), the same getters as the
 * bus's own init): no copy of the bus's keys or formula here, and the rate
 * follows whatever the bus is configured to be.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/size.h"
#include "models/host/req_int.h"
#include "models/link/bus.h"

#define RATE_KEY "workload.rate"
#define RATE_EXPECTED "expected bytes per second with a unit " SIZE_UNITS " followed by /s, " \
	"e.g. \"12.5GB/s\", a share of the requester's link, e.g. \"50%%\", or \"0\" for none"

/* A parsed rate: bytes per second, or a share (1.0 = the whole link). */
typedef struct rate rate;
struct rate {
	double bps;   /* bytes per second; 0 if a share */
	double share; /* share of the link; 0 if absolute */
};

/*
 * parse_rate - @s as a rate (the forms above) into @out.
 * Return: 0, or -1 if @s is none of them.
 */
static int parse_rate(const char *s, rate *out)
{
	const size_t n = strspn(s, "0123456789.");
	char num[40], *end;
	uint64_t unit;

	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	const double x = strtod(num, &end);
	const char *u = s + n;
	const size_t ulen = strlen(u);
	*out = (rate){ 0 };
	if (*end || !isfinite(x))
		return -1;
	if (!strcmp(u, "%"))
		out->share = x / 100;
	else if (ulen > 2 && !strcmp(u + ulen - 2, "/s") && !size_unit(u, ulen - 2, &unit))
		out->bps = x * (double)unit;
	else if (ulen || x != 0)
		return -1;
	return 0;
}

/*
 * link_Bps - data bandwidth of the bus on @c's port 0, bytes per second;
 * 0 if the port leads to no bus (a fabric always puts one there).
 */
static double link_Bps(const sim_comp *c, const req *r)
{
	const uint32_t peer = c->ports[0].peer;

	if (!(fab_view_roles(r->fv, peer) & FAB_ROLE_BUS))
		return 0;
	return bus_data_GBps(sim_cfg_of(c, peer)) * 1e9;
}

/**
 * req__rate_init - set r->interval from workload.rate, if it gives one.
 * @c:   the requester
 * @r:   its state; r->fv and r->interval (workload.issue_interval) are set
 * @cf:  its configuration view
 * @err: OUT error record
 *
 * Return: 0 (r->interval is 64 B / rate, or untouched for no rate), or
 * CXL_EINVAL located at workload.rate: not a rate; a rate together with a
 * non-zero workload.issue_interval; a share without a bus on the port; an
 * interval that rounds to 0 ps or is above CFG_TIME_LIMIT.
 */
int req__rate_init(sim_comp *c, req *r, const cfg *cf, cxl_err *err)
{
	const char *text = cfg_str(cf, RATE_KEY);
	char ibuf[STIME_FMT_LEN];
	rate q;

	if (parse_rate(text, &q))
		return cfg_error_at(cf, RATE_KEY, err, "bad rate \"%s\" (" RATE_EXPECTED ")", text);
	if (q.bps == 0 && q.share == 0)
		return 0;
	if (r->interval)
		return cfg_error_at(cf, RATE_KEY, err, "\"%s\" and workload.issue_interval \"%s\" "
				    "both set the load (give one; the other 0)", text,
				    stime_format(r->interval, ibuf));
	const double bps = q.bps ? q.bps : q.share * link_Bps(c, r);
	if (bps == 0)
		return cfg_error_at(cf, RATE_KEY, err, "\"%s\": %s has no bus on its port to "
				    "take a share of", text, c->name);
	const double ps = floor((double)CXL_LINE * 1e12 / bps + 0.5);
	if (ps < 1)
		return cfg_error_at(cf, RATE_KEY, err, "\"%s\" is more than one 64-byte request "
				    "per ps (at most 64000GB/s)", text);
	if (ps > (double)CFG_TIME_LIMIT)
		return cfg_error_at(cf, RATE_KEY, err, "\"%s\" is less than one 64-byte request "
				    "per " CFG_TIME_LIMIT_TEXT " (the longest time a config gives)",
				    text);
	r->interval = (sim_time)ps;
	return 0;
}
