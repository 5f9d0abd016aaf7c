/*
 * models/host/req_trace.c - the requester's `trace` pattern: the accesses of a
 * .cxt trace (traces/trc.h), streamed one block at a time, so a requester
 * holds at most one reader's bounded buffers whatever the trace's length.
 *
 * Files: workload.trace names the file; a "%d" in it (at most one) is
 * replaced by the
 * requester's index among all requesters (hosts and accelerators in
 * component order: host0 is 0 when there are no accelerators), so
 * "traces/redis.%d.cxt" gives each requester its own trace, and a name
 * without "%d" gives every requester the same one.  Each requester opens
 * its file in its own init, so a rank opens only the traces of its hosts.
 *
 * Records: a record of `size` bytes at `addr` becomes one access per 64-byte
 * line it touches, in address order.  Addresses are used as they are (no
 * per-requester offset: requesters replaying one trace share its lines),
 * and line L goes to memory device (L / interleave) mod M like any access.
 * workload.replay = closed issues them as fast as the queue, the issue
 * interval and the credits allow; timed also waits until each record's
 * time x workload.time_scale (records of ESF traces with tick 0 carry no
 * time and go as soon as possible); a product past 2^64 ps saturates
 * (stime_from_ps()), after any simulation.end: the record is not issued.
 * workload.requests, when given and
 * not 0, stops the replay after that many accesses; otherwise the whole
 * trace is replayed.  A damaged trace stops the run: "FILE: record N: what" (exit 2).
 * Counters trace_records (the trace's records) and trace_replayed (records
 * read; the last one's lines perhaps in part): the fabric summary warns when
 * simulation.end stopped a replay before its trace's end.
 */
#include <stdio.h>
#include <string.h>

#include "models/host/req_int.h"
#include "traces/trc.h"

/*
 * @pattern with its "%d" (at most one) replaced by @index and each "%%" by a
 * literal '%' (as cxlfab-trace split writes names); -1 for any other '%'.
 */
static int trace_path(const char *pattern, uint32_t index, char *buf, size_t n)
{
	size_t o = 0;
	int ds = 0;

	for (const char *p = pattern; *p; p++) {
		char num[16];
		const char *put = p;
		size_t len = 1;
		if (*p == '%') {
			if (p[1] == '%') {
				p++;
			} else if (p[1] == 'd' && !ds++) {
				len = (size_t)snprintf(num, sizeof(num), "%u", index);
				put = num;
				p++;
			} else {
				return -1;
			}
		}
		if (o + len >= n)
			return -1;
		memcpy(buf + o, put, len);
		o += len;
	}
	buf[o] = '\0';
	return 0;
}

/**
 * req__trace_init - open this requester's trace (pattern `trace` only).
 * Return: 0, or CXL_EINVAL naming workload.trace's setting: no file
 * given, a bad pattern, or a file that cannot be opened or is not a trace.
 */
int req__trace_init(sim_comp *c, req *r, const cfg *cf, cxl_err *err)
{
	const char *pattern = cfg_str(cf, "workload.trace");
	char path[4096];
	cxl_err e = { 0 };

	if (!*pattern)
		return cfg_error_at(cf, "workload.pattern", err, "\"trace\" needs workload.trace "
				    "(a .cxt file, e.g. \"traces/redis.%%d.cxt\")");
	if (trace_path(pattern, fab_view_requester_index(r->fv, c->id), path, sizeof(path)))
		return cfg_error_at(cf, "workload.trace", err, "\"%s\": bad file pattern "
				    "(expected at most one %%d, the requester's index, and %%%% for a "
				    "literal %%, in a name shorter than %zu bytes)", pattern, sizeof(path));
	if (trc_reader_open_file(&r->trc, path, &e))
		return cfg_error_at(cf, "workload.trace", err, "%s (for %s)", e.msg, c->name);
	r->trace_records = sim_stat_counter(c, "trace_records");
	r->trace_replayed = sim_stat_counter(c, "trace_replayed");
	*r->trace_records = trc_reader_count(r->trc);
	r->timed = cfg_enum(cf, "workload.replay") == 1;
	r->time_scale = cfg_float(cf, "workload.time_scale");
	r->base = 0;
	r->requests = (uint64_t)cfg_int(cf, "workload.requests");
	if (!cfg_is_set(cf, "workload.requests") || !r->requests)
		r->requests = UINT64_MAX;
	return 0;
}

/**
 * req__trace_next - draw the next access from the trace into r->next_read
 * and r->next_line (absolute), and for timed replay raise r->next_issue to
 * its record's time.  At the end of the trace the requester stops issuing
 * (r->requests = issued).  Return: 1 with an access, 0 at the end.
 */
int req__trace_next(sim_comp *c, req *r)
{
	if (!r->rec_lines) {
		cxl_err e = { 0 };
		int rc = trc_reader_next(r->trc, &r->rec, &e);
		if (rc < 0)
			sim_fail(c, "%s", e.msg);
		if (!rc) {
			r->requests = r->issued;
			return 0;
		}
		r->nread++;
		/* no addr + size: the reader refuses records past 2^64, and this never wraps */
		r->rec_line = r->rec.addr / CXL_LINE;
		r->rec_lines = (r->rec.addr % CXL_LINE + r->rec.size - 1) / CXL_LINE + 1;
		if (r->timed && !(r->rec.flags & TRC_REC_NOTIME)) {
			sim_time t = stime_from_ps((double)r->rec.time * r->time_scale);
			r->next_issue = t > r->next_issue ? t : r->next_issue;
		}
	}
	r->next_read = r->rec.op == TRC_READ;
	r->next_line = r->rec_line++;
	r->rec_lines--;
	return 1;
}

/* req__trace_finish - count the records replayed, close the trace (NULL-safe). */
void req__trace_finish(req *r)
{
	if (r->trace_replayed)
		*r->trace_replayed = r->nread;
	trc_reader_close(r->trc);
	r->trc = NULL;
}
