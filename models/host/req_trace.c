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
 * line it touches, in address order.  Regions (workload.trace_hosts):
 * "shared" (the default) uses the addresses as they are, so requesters
 * replaying one trace share its lines (pooled or shared memory); "each"
 * moves requester i's addresses by i x workload.trace_region bytes (i as
 * for "%d"), so one file replays on N hosts, each in a region of its own,
 * without N copies.  A moved line past 2^64 stops the run ("FILE: record N:
 * ..."; checked once at init for the region's base, per record for the
 * record's last line).  Line L goes to memory device (L / interleave) mod M
 * like any access.
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

#define REQ_TRACE_LINES (1ull << TRC_LINE_BITS) /* lines below 2^64 bytes */

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

/* r->base for workload.trace_hosts: 0 (shared), or index x trace_region in lines (each). */
static int trace_region(sim_comp *c, req *r, const cfg *cf, cxl_err *err)
{
	uint64_t region = cfg_size(cf, "workload.trace_region");
	uint64_t index = fab_view_requester_index(r->fv, c->id);

	r->base = 0;
	if (cfg_enum(cf, "workload.trace_hosts") == 0)
		return 0;
	if (!region || region % CXL_LINE)
		return cfg_error_at(cf, "workload.trace_region", err, "%llu bytes: trace_hosts = "
				    "\"each\" needs a region size, a multiple of %d bytes above 0 "
				    "(e.g. \"1GiB\")", (unsigned long long)region, CXL_LINE);
	region /= CXL_LINE;
	if (index && region > (CXL_DEV_BASE / CXL_LINE - 1) / index)
		return cfg_error_at(cf, "workload.trace_region", err, "%s (requester %llu) would "
				    "start at line %llu x %llu, in the device window at 2^48 bytes "
				    "(regions must end below it)", c->name, (unsigned long long)index,
				    (unsigned long long)index, (unsigned long long)region);
	r->base = index * region;
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
	if (trace_region(c, r, cf, err))
		return CXL_EINVAL;
	r->requests = (uint64_t)cfg_int(cf, "workload.requests");
	if (!cfg_is_set(cf, "workload.requests") || !r->requests)
		r->requests = UINT64_MAX;
	return 0;
}

/*
 * Stop the run if the current record, moved by r->base, leaves the address
 * space: past 2^64, or from memory (below CXL_DEV_BASE) into the device
 * window; or if it lies in the window of a device this requester does not
 * reach (a trace of device addresses replayed without the devices).
 */
static void check_moved(sim_comp *c, req *r)
{
	uint64_t last = r->rec_line + r->rec_lines - 1, n = trc_reader_index(r->trc) - 1;
	const char *f = trc_reader_name(r->trc);

	if (last > REQ_TRACE_LINES - 1 - r->base)
		sim_fail(c, "%s: record %llu: address 0x%llx moved by %llu lines "
			 "(workload.trace_region) goes past 2^64", f, (unsigned long long)n,
			 (unsigned long long)r->rec.addr, (unsigned long long)r->base);
	last += r->base;
	if (!cxl_dev_is(r->rec.addr) && cxl_dev_is(last * CXL_LINE))
		sim_fail(c, "%s: record %llu: address 0x%llx moved by %llu lines "
			 "(workload.trace_region) reaches the device window at 2^48 (regions "
			 "must end below it)", f, (unsigned long long)n,
			 (unsigned long long)r->rec.addr, (unsigned long long)r->base);
	if (cxl_dev_is((r->rec_line + r->base) * CXL_LINE) &&
	    cxl_dev_index(last * CXL_LINE) >= r->ndevs)
		sim_fail(c, "%s: record %llu: address 0x%llx is in the window of device %u "
			 "(addresses from 2^48 up, devwin.h); %s reaches %u devices", f,
			 (unsigned long long)n, (unsigned long long)r->rec.addr,
			 cxl_dev_index(last * CXL_LINE), c->name, r->ndevs);
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
		check_moved(c, r);
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

/**
 * req__trace_ckpt - save or restore the replay's position (core/ckpt.h):
 * the current record and the lines of it still to issue, and the records
 * read.  Restoring, init has reopened the trace at its start: the reader
 * skips the records read before the checkpoint (trc_reader_skip, the
 * blocks read and checked again), so a restart reads each record once more
 * at most.  A trace that is not the one saved (another record count, or
 * fewer records than were read) fails the visitor.
 */
void req__trace_ckpt(req *r, ckpt *k)
{
	uint64_t count = r->trc ? trc_reader_count(r->trc) : 0;
	cxl_err e = { 0 };

	if (r->pattern != PAT_TRACE)
		return;
	ckpt_mark(k, 0x54524143u, "trace replay"); /* "TRAC" */
	CKPT(k, count);
	CKPT(k, r->rec);
	CKPT(k, r->rec_line);
	CKPT(k, r->rec_lines);
	CKPT(k, r->nread);
	if (!ckpt_loading(k) || ckpt_failed(k) || !r->trc)
		return;
	if (count != trc_reader_count(r->trc)) {
		ckpt_fail(k, "%s holds %llu records; the checkpoint's trace held %llu",
			  trc_reader_name(r->trc), (unsigned long long)trc_reader_count(r->trc),
			  (unsigned long long)count);
		return;
	}
	int rc = trc_reader_skip(r->trc, r->nread, &e);
	if (rc < 0)
		ckpt_fail(k, "%s", e.msg);
	else if (!rc)
		ckpt_fail(k, "%s ends before record %llu, where the checkpoint left it",
			  trc_reader_name(r->trc), (unsigned long long)r->nread);
}
