/*
 * core/ckpt_dir.c - checkpoint folders on disk (layout in ckpt_dir.h).
 *
 * Writing: rank 0 creates OUT/.checkpoint-<C>ps.partial/ (after removing
 * one a killed run left), every rank writes its rank-K.bin there (header,
 * body, sha256 of the body; written and closed, errors checked), the
 * ranks agree that all succeeded, rank 0 gathers the files' sizes and
 * digests into the manifest, writes config.cfg and renames the folder to
 * checkpoint-<C>ps (an older folder of that name is removed first).  Any
 * failure ends with the same code on every rank and no checkpoint-* folder.
 *
 * Reading: every rank reads the manifest and every rank file whole, checks
 * each file's magic, format, header and digest against the manifest, and
 * indexes the records by component (each exactly once).
 */
#include "core/ckpt_dir.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/output.h"
#include "core/pack.h"
#include "core/sha256.h"
#include "core/version.h"
#include "core/xmalloc.h"
#include "core/xport.h"

/* The header of a rank file (native layout: the same binary reads it). */
typedef struct file_hdr file_hdr;
struct file_hdr {
	char magic[8];      /* CKPT_MAGIC */
	uint32_t format;    /* CKPT_FORMAT */
	uint32_t rank;      /* the rank that wrote it */
	uint32_t nranks;    /* of how many */
	uint32_t ncomp;     /* components in the system */
	uint64_t cut;       /* ps */
	uint64_t body_len;  /* bytes of body that follow */
};

void ckpt_dir_name(sim_time cut, char *buf, size_t n)
{
	snprintf(buf, n, "checkpoint-%" PRIu64 "ps", (uint64_t)cut);
}

static void hex(const uint8_t d[SHA256_LEN], char out[2 * SHA256_LEN + 1])
{
	for (int i = 0; i < SHA256_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* Write @n bytes of @p to @f; 0 or errno. */
static int put(FILE *f, const void *p, size_t n)
{
	return fwrite(p, 1, n, f) == n ? 0 : (errno ? errno : EIO);
}

static int write_rank_file(const char *path, const file_hdr *h, const void *body,
			   uint8_t digest[SHA256_LEN], cxl_err *err)
{
	FILE *f = fopen(path, "wb");
	int e = 0;

	if (!f)
		return cxl_err_set(err, CXL_EIO, "%s: cannot write the checkpoint: %s", path,
				   strerror(errno));
	sha256(body, h->body_len, digest);
	errno = 0;
	e = put(f, h, sizeof(*h));
	if (!e)
		e = put(f, body, h->body_len);
	if (!e)
		e = put(f, digest, SHA256_LEN);
	if (fflush(f) && !e)
		e = errno ? errno : EIO;
	if (fclose(f) && !e)
		e = errno ? errno : EIO;
	if (e)
		return cxl_err_set(err, CXL_EIO, "%s: cannot write the checkpoint: %s", path,
				   strerror(e));
	return 0;
}

/* What rank 0 needs of each rank's file for the manifest. */
typedef struct file_sum file_sum;
struct file_sum {
	uint64_t size;
	uint64_t events;
	uint8_t digest[SHA256_LEN];
};

static int write_text(const char *path, const char *text, size_t len, cxl_err *err)
{
	FILE *f = fopen(path, "w");
	int e;

	if (!f)
		return cxl_err_set(err, CXL_EIO, "%s: cannot write: %s", path, strerror(errno));
	errno = 0;
	e = put(f, text, len);
	if (fclose(f) && !e)
		e = errno ? errno : EIO;
	if (e)
		return cxl_err_set(err, CXL_EIO, "%s: cannot write: %s", path, strerror(e));
	return 0;
}

static int write_manifest(const char *tmp, sim_time cut, int nranks, uint32_t ncomp,
			  uint64_t seed, const file_sum *fs, cxl_err *err)
{
	pack_w w = { 0 };
	char line[512], dg[2 * SHA256_LEN + 1];
	uint64_t events = 0;
	int rc;

	for (int r = 0; r < nranks; r++)
		events += fs[r].events;
#define LINE(...) do { int n_ = snprintf(line, sizeof(line), __VA_ARGS__); pack_put(&w, line, (size_t)n_); } while (0)
	LINE("cxlfab-checkpoint %d\n", CKPT_FORMAT);
	LINE("version %s\n", CXL_VERSION);
	LINE("cut_ps %" PRIu64 "\n", (uint64_t)cut);
	LINE("components %u\n", ncomp);
	LINE("events %" PRIu64 "\n", events);
	LINE("seed %" PRIu64 "\n", seed);
	LINE("files %d\n", nranks);
	for (int r = 0; r < nranks; r++) {
		hex(fs[r].digest, dg);
		LINE("file rank-%d.bin %" PRIu64 " %s\n", r, fs[r].size, dg);
	}
#undef LINE
	char path[8400];
	snprintf(path, sizeof(path), "%s/manifest", tmp);
	rc = write_text(path, (const char *)w.p, w.n, err);
	free(w.p);
	return rc;
}

int ckpt_dir_write(const char *outdir, sim_time cut, int rank, int nranks, uint32_t ncomp,
		   uint64_t seed, uint64_t events, const void *body, size_t len,
		   const char *config, size_t config_len, cxl_err *err)
{
	char name[64], tmp[4400], fin[4400], path[8400];
	int rc = 0;

	ckpt_dir_name(cut, name, sizeof(name));
	snprintf(tmp, sizeof(tmp), "%s/.%s.partial", outdir, name);
	snprintf(fin, sizeof(fin), "%s/%s", outdir, name);
	if (rank == 0) {
		output_remove_folder(tmp);
		if (mkdir(tmp, 0777))
			rc = cxl_err_set(err, CXL_EIO, "%s: cannot create the checkpoint folder: %s",
					 tmp, strerror(errno));
	}
	if (nranks > 1 && xport_max_int(rc != 0))
		return rc ? rc : CXL_EIO;
	if (rc)
		return rc;

	file_hdr h = { .format = CKPT_FORMAT, .rank = (uint32_t)rank, .nranks = (uint32_t)nranks,
		       .ncomp = ncomp, .cut = cut, .body_len = len };
	memcpy(h.magic, CKPT_MAGIC, 8);
	file_sum mine = { .size = sizeof(h) + len + SHA256_LEN, .events = events };
	snprintf(path, sizeof(path), "%s/rank-%d.bin", tmp, rank);
	rc = write_rank_file(path, &h, body, mine.digest, err);
	if (nranks > 1 && xport_max_int(rc != 0)) {
		if (rank == 0)
			output_remove_folder(tmp);
		return rc ? rc : CXL_EIO;
	}
	if (rc) {
		output_remove_folder(tmp);
		return rc;
	}

	size_t lens[1];
	file_sum *all = &mine;
	size_t *lp = nranks > 1 ? xmalloc((size_t)nranks * sizeof(*lp)) : lens;
	if (nranks > 1)
		all = xport_gather(&mine, sizeof(mine), lp);
	if (rank == 0) {
		rc = write_manifest(tmp, cut, nranks, ncomp, seed, all, err);
		snprintf(path, sizeof(path), "%s/config.cfg", tmp);
		if (!rc)
			rc = write_text(path, config, config_len, err);
		if (!rc) {
			output_remove_folder(fin);
			if (rename(tmp, fin))
				rc = cxl_err_set(err, CXL_EIO, "%s: cannot move the checkpoint into "
						 "place: %s", fin, strerror(errno));
		}
		if (rc)
			output_remove_folder(tmp);
	}
	if (nranks > 1) {
		if (rank == 0)
			free(all);
		free(lp);
		int bad = xport_max_int(rc != 0);
		return rc ? rc : bad ? CXL_EIO : 0;
	}
	return rc;
}

/* --- reading ------------------------------------------------------------ */

void ckpt_image_free(ckpt_image *img)
{
	for (int i = 0; i < img->nfiles; i++)
		free(img->body ? img->body[i] : NULL);
	free(img->body);
	free(img->body_len);
	free(img->rec);
	free(img->rec_len);
	free(img->evs);
	free(img->nev);
	free(img->aggr);
	free(img->aggr_len);
	memset(img, 0, sizeof(*img));
}

/* Read all of regular file @path (at most @max bytes) into a malloc'd buffer. */
static int slurp(const char *path, size_t max, unsigned char **out, size_t *n, cxl_err *err)
{
	struct stat st;
	FILE *f = fopen(path, "rb");

	if (!f)
		return cxl_err_set(err, CXL_EINVAL, "%s: cannot read: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > max) {
		fclose(f);
		return cxl_err_set(err, CXL_EINVAL, "%s: not a checkpoint file (expected a regular "
				   "file of at most %zu bytes)", path, max);
	}
	*n = (size_t)st.st_size;
	*out = xmalloc(*n ? *n : 1);
	size_t got = fread(*out, 1, *n, f);
	fclose(f);
	if (got != *n) {
		free(*out);
		*out = NULL;
		return cxl_err_set(err, CXL_EINVAL, "%s: read %zu of %zu bytes", path, got, *n);
	}
	return 0;
}

typedef struct manifest manifest;
struct manifest {
	int format, files;
	uint64_t cut, components, events, seed;
	char version[64];
	uint64_t *size;    /* per file */
	char (*digest)[2 * SHA256_LEN + 1];
};

static int parse_manifest(const char *path, const char *text, manifest *m, cxl_err *err)
{
	const char *p = text;
	int line = 0, nf = 0;

#define BAD(what) cxl_err_set(err, CXL_EINVAL, "%s:%d: %s (not a cxlfab checkpoint, or damaged)", \
			      path, line, what)
	while (*p) {
		const char *nl = strchr(p, '\n');
		char buf[512];
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		line++;
		if (len >= sizeof(buf))
			return BAD("line too long");
		memcpy(buf, p, len);
		buf[len] = '\0';
		p += len + (nl != NULL);
		char key[64], name[64], dg[128];
		unsigned long long v = 0, sz = 0;
		if (line == 1) {
			if (sscanf(buf, "cxlfab-checkpoint %d", &m->format) != 1)
				return BAD("expected \"cxlfab-checkpoint FORMAT\" on its first line");
			if (m->format != CKPT_FORMAT)
				return cxl_err_set(err, CXL_EINVAL, "%s: checkpoint format %d, this "
						   "cxlfab reads format %d", path, m->format, CKPT_FORMAT);
			continue;
		}
		if (sscanf(buf, "version %63s", m->version) == 1)
			continue;
		if (sscanf(buf, "file %63s %llu %127s", name, &sz, dg) == 3) {
			char want[64];
			snprintf(want, sizeof(want), "rank-%d.bin", nf);
			if (nf >= m->files || strcmp(name, want) || strlen(dg) != 2 * SHA256_LEN)
				return BAD("bad file line");
			m->size[nf] = sz;
			memcpy(m->digest[nf], dg, sizeof(m->digest[nf]));
			nf++;
			continue;
		}
		if (sscanf(buf, "%63s %llu", key, &v) != 2)
			return BAD("expected KEY VALUE");
		if (!strcmp(key, "cut_ps"))
			m->cut = v;
		else if (!strcmp(key, "components"))
			m->components = v;
		else if (!strcmp(key, "events"))
			m->events = v;
		else if (!strcmp(key, "seed"))
			m->seed = v;
		else if (!strcmp(key, "files")) {
			if (m->files || v < 1 || v > 1u << 20)
				return BAD("bad file count");
			m->files = (int)v;
			m->size = xcalloc(v, sizeof(*m->size));
			m->digest = xcalloc(v, sizeof(*m->digest));
		} else
			return BAD("unknown key");
	}
	if (line == 0 || !m->files || nf != m->files || !m->components || m->components > UINT32_MAX)
		return BAD("incomplete");
	if (strcmp(m->version, CXL_VERSION))
		return cxl_err_set(err, CXL_EINVAL, "%s: written by cxlfab %s, this is %s (a checkpoint "
				   "holds the model's state as that version lays it out: restart it with "
				   "the same version)", path, m->version[0] ? m->version : "(none)",
				   CXL_VERSION);
#undef BAD
	return 0;
}

/* Check one rank file and index its body into @img. */
static int index_file(ckpt_image *img, int f, const char *path, const manifest *m,
		      unsigned char *buf, size_t n, cxl_err *err)
{
	file_hdr h;
	uint8_t d[SHA256_LEN];
	char dg[2 * SHA256_LEN + 1];

	if (n != m->size[f] || n < sizeof(h) + SHA256_LEN)
		return cxl_err_set(err, CXL_EINVAL, "%s: %zu bytes, the manifest says %llu "
				   "(truncated or damaged)", path, n, (unsigned long long)m->size[f]);
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, CKPT_MAGIC, 8))
		return cxl_err_set(err, CXL_EINVAL, "%s: not a cxlfab checkpoint file", path);
	if (h.format != CKPT_FORMAT || h.rank != (uint32_t)f || h.nranks != (uint32_t)m->files ||
	    h.ncomp != m->components || h.cut != m->cut ||
	    h.body_len != n - sizeof(h) - SHA256_LEN)
		return cxl_err_set(err, CXL_EINVAL, "%s: its header does not match the manifest "
				   "(another checkpoint's file?)", path);
	const unsigned char *body = buf + sizeof(h);
	sha256(body, h.body_len, d);
	hex(d, dg);
	if (memcmp(d, body + h.body_len, SHA256_LEN) || strcmp(dg, m->digest[f]))
		return cxl_err_set(err, CXL_EINVAL, "%s: checksum mismatch (damaged)", path);

	pack_r r = { .p = body, .n = h.body_len };
	uint32_t nrec = 0;
	pack_get(&r, &nrec, sizeof(nrec));
	for (uint32_t i = 0; i < nrec && !r.bad; i++) {
		uint32_t id = 0;
		uint64_t len = 0;
		pack_get(&r, &id, sizeof(id));
		pack_get(&r, &len, sizeof(len));
		if (r.bad || id >= img->ncomp || len > r.n - r.off)
			return cxl_err_set(err, CXL_EINVAL, "%s: record %u is damaged", path, i);
		if (img->rec[id])
			return cxl_err_set(err, CXL_EINVAL, "%s: component %u saved twice", path, id);
		img->rec[id] = body + r.off;
		img->rec_len[id] = (size_t)len;
		r.off += (size_t)len;
	}
	uint64_t nev = 0, alen = 0;
	pack_get(&r, &nev, sizeof(nev));
	if (r.bad || nev > (r.n - r.off) / sizeof(cxl_event))
		return cxl_err_set(err, CXL_EINVAL, "%s: its pending events are damaged", path);
	img->evs[f] = body + r.off;
	img->nev[f] = nev;
	r.off += (size_t)nev * sizeof(cxl_event);
	pack_get(&r, &alen, sizeof(alen));
	if (r.bad || alen != r.n - r.off)
		return cxl_err_set(err, CXL_EINVAL, "%s: its time-series part is damaged", path);
	img->aggr[f] = body + r.off;
	img->aggr_len[f] = (size_t)alen;
	return 0;
}

int ckpt_dir_read(const char *dir, ckpt_image *img, cxl_err *err)
{
	char path[8400];
	unsigned char *text = NULL;
	size_t n = 0;
	manifest m = { 0 };
	int rc;

	memset(img, 0, sizeof(*img));
	snprintf(img->dir, sizeof(img->dir), "%s", dir);
	snprintf(img->config, sizeof(img->config), "%s/config.cfg", dir);
	snprintf(path, sizeof(path), "%s/manifest", dir);
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return cxl_err_set(err, CXL_EINVAL, "--restart %s: not a checkpoint folder (expected "
				   "OUT/checkpoint-<time>ps/ written by a run)", dir);
	rc = slurp(path, 1u << 26, &text, &n, err);
	if (!rc) {
		text = xrealloc(text, n + 1);
		text[n] = '\0';
		if (strlen((char *)text) != n)
			rc = cxl_err_set(err, CXL_EINVAL, "%s: not a text manifest", path);
	}
	if (!rc)
		rc = parse_manifest(path, (char *)text, &m, err);
	free(text);
	if (rc)
		goto out;
	img->cut = m.cut;
	img->events = m.events;
	img->seed = m.seed;
	img->ncomp = (uint32_t)m.components;
	img->nfiles = m.files;
	img->body = xcalloc((size_t)m.files, sizeof(*img->body));
	img->body_len = xcalloc((size_t)m.files, sizeof(*img->body_len));
	img->evs = xcalloc((size_t)m.files, sizeof(*img->evs));
	img->nev = xcalloc((size_t)m.files, sizeof(*img->nev));
	img->aggr = xcalloc((size_t)m.files, sizeof(*img->aggr));
	img->aggr_len = xcalloc((size_t)m.files, sizeof(*img->aggr_len));
	img->rec = xcalloc(img->ncomp, sizeof(*img->rec));
	img->rec_len = xcalloc(img->ncomp, sizeof(*img->rec_len));
	for (int f = 0; f < m.files && !rc; f++) {
		snprintf(path, sizeof(path), "%s/rank-%d.bin", dir, f);
		rc = slurp(path, SIZE_MAX / 2, &img->body[f], &img->body_len[f], err);
		if (!rc)
			rc = index_file(img, f, path, &m, img->body[f], img->body_len[f], err);
	}
	for (uint32_t i = 0; !rc && i < img->ncomp; i++)
		if (!img->rec[i])
			rc = cxl_err_set(err, CXL_EINVAL, "%s: component %u has no record (a rank file "
					 "missing?)", dir, i);
out:
	free(m.size);
	free(m.digest);
	if (rc)
		ckpt_image_free(img);
	return rc;
}
