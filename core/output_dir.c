/*
 * core/output_dir.c - the output folder of a run as a unit (see output.h).
 *
 * A run's files must never be mixed with another run's, whatever stops it:
 *   - output_dir_open(), before the simulation, creates the folder, takes an
 *     exclusive flock() on it (a second run into the same folder is refused
 *     at once), removes the private folders a killed run left, creates this
 *     run's private folder DIR/.cxlfab-run.XXXXXX (so a folder that cannot
 *     be written is an error before any event runs) and moves an earlier
 *     run's results into DIR/previous/ (stats.json first), so a run that
 *     then fails never leaves them looking current (its checkpoint-*
 *     folders stay: each is whole and named by its own time, and a restart
 *     continues into the folder it came from);
 *   - the files are written into the private folder (output_write);
 *   - output_dir_commit() renames them into DIR one by one, stats.json
 *     LAST: DIR holds a stats.json only when every other file of the same
 *     run is beside it.  A kill between two renames leaves some of this
 *     run's files and no stats.json (never another run's files: those
 *     went to previous/ at the start);
 *   - output_dir_close() removes what is left of the private folder (after
 *     a failed write: a full disk, a file-size limit) and the lock.
 * Where flock() is not supported on the folder (some network file
 * systems), the run goes on unlocked and leaves other runs' private folders
 * alone.  Rank 0 alone calls these functions.
 */
#include "core/output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define RUN_PREFIX ".cxlfab-run."

/* The files a run writes (output.h), in the order they go to previous/; the rank
 * profile's (profile_out.c) are written after the commit, straight into the folder,
 * but an earlier run's go to previous/ with the rest, so none is left looking current. */
static const char *const names[] = {
	"stats.json", "components.csv", "config.cfg", "timeseries.csv",
	"timeseries_summary.csv", "profile.json", "profile_windows.csv", "profile_ranks.csv",
	"profile_pairs.csv",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

/* output_remove_folder - remove folder @path and the plain files in it (a
 * private folder, a checkpoint folder). */
void output_remove_folder(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char f[8192];

	if (!d)
		return;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			snprintf(f, sizeof(f), "%s/%s", path, de->d_name);
			unlink(f);
		}
	closedir(d);
	rmdir(path);
}

/* Private folders of earlier runs killed before they ended, and the checkpoint
 * folders they were writing (core/ckpt_dir.c; we hold the lock). */
static void remove_stale(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char p[8192];

	if (!d)
		return;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, RUN_PREFIX, strlen(RUN_PREFIX)) ||
		    (!strncmp(de->d_name, ".checkpoint-", 12) && strstr(de->d_name, ".partial"))) {
			snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
			output_remove_folder(p);
		}
	closedir(d);
}

static int exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

/* An earlier run's files go to DIR/previous/, replacing what was there. */
static int move_previous(const char *dir, cxl_err *err)
{
	char from[8192], to[8192], prev[4200];
	size_t k, any = 0;

	for (k = 0; k < NNAMES; k++) {
		snprintf(from, sizeof(from), "%s/%s", dir, names[k]);
		any += (size_t)exists(from);
	}
	if (!any)
		return 0;
	snprintf(prev, sizeof(prev), "%s/previous", dir);
	if (mkdir(prev, 0777) && errno != EEXIST)
		return cxl_err_set(err, CXL_EIO, "%s: cannot create: %s", prev, strerror(errno));
	for (k = 0; k < NNAMES; k++) {
		snprintf(to, sizeof(to), "%s/%s", prev, names[k]);
		if (unlink(to) && errno != ENOENT)
			return cxl_err_set(err, CXL_EIO, "%s: cannot remove: %s", to, strerror(errno));
	}
	for (k = 0; k < NNAMES; k++) {
		snprintf(from, sizeof(from), "%s/%s", dir, names[k]);
		snprintf(to, sizeof(to), "%s/%s", prev, names[k]);
		if (exists(from) && rename(from, to))
			return cxl_err_set(err, CXL_EIO, "%s: cannot move an earlier run's file to %s: %s",
					   from, prev, strerror(errno));
	}
	return 0;
}

/* flock DIR: 0 locked or locking unsupported (fd -1), CXL_EIO if another run holds it. */
static int lock_dir(output_dir *od, cxl_err *err)
{
	od->lock_fd = open(od->dir, O_RDONLY | O_DIRECTORY);
	if (od->lock_fd < 0)
		return cxl_err_set(err, CXL_EIO, "%s: cannot open the output folder: %s", od->dir,
				   strerror(errno));
	if (!flock(od->lock_fd, LOCK_EX | LOCK_NB))
		return 0;
	int e = errno;
	close(od->lock_fd);
	od->lock_fd = -1;
	if (e == EWOULDBLOCK)
		return cxl_err_set(err, CXL_EIO, "%s: another cxlfab run is writing into this "
				   "output folder (expected one run per -o folder)", od->dir);
	return 0;
}

/**
 * output_dir_open - make @dir ready for a run's files, before simulating.
 * @od:  OUT the folder's state, for output_write/commit/close
 * @dir: the -o folder (created with its parents if missing)
 * @err: OUT error record
 *
 * Locks the folder, removes stale private folders, creates this run's own
 * and moves an earlier run's results to @dir/previous/ (file top).
 * Returns 0, or CXL_EIO naming the folder: it cannot be created or written,
 * or another run holds it.  On failure @od needs no output_dir_close().
 */
int output_dir_open(output_dir *od, const char *dir, cxl_err *err)
{
	*od = (output_dir){ .lock_fd = -1 };
	if (snprintf(od->dir, sizeof(od->dir), "%s", dir) >= (int)sizeof(od->dir))
		return cxl_err_set(err, CXL_EIO, "%s: output path too long", dir);
	int rc = output_mkdirs(dir, err);
	if (!rc)
		rc = lock_dir(od, err);
	if (rc)
		return rc;
	if (od->lock_fd >= 0)
		remove_stale(dir);
	snprintf(od->tmp, sizeof(od->tmp), "%s/" RUN_PREFIX "XXXXXX", dir);
	if (!mkdtemp(od->tmp)) {
		rc = cxl_err_set(err, CXL_EIO, "%s: cannot write into the output folder: %s", dir,
				 strerror(errno));
		od->tmp[0] = '\0';
	}
	if (!rc)
		rc = move_previous(dir, err);
	if (rc)
		output_dir_close(od);
	return rc;
}

/**
 * output_dir_commit - move the files written into the private folder to
 * the output folder, stats.json last, and remove the private folder.
 * Returns 0 or CXL_EIO naming the file that could not be moved.
 */
int output_dir_commit(output_dir *od, cxl_err *err)
{
	char from[8192], to[8192];

	for (size_t i = NNAMES; i-- > 0;) {   /* stats.json (names[0]) last */
		snprintf(from, sizeof(from), "%s/%s", od->tmp, names[i]);
		snprintf(to, sizeof(to), "%s/%s", od->dir, names[i]);
		if (exists(from) && rename(from, to))
			return cxl_err_set(err, CXL_EIO, "%s: cannot move into place: %s", to,
					   strerror(errno));
	}
	if (rmdir(od->tmp))
		return cxl_err_set(err, CXL_EIO, "%s: cannot remove: %s", od->tmp, strerror(errno));
	od->tmp[0] = '\0';
	return 0;
}

/* output_dir_close - remove what is left of the private folder; unlock. */
void output_dir_close(output_dir *od)
{
	if (od->tmp[0])
		output_remove_folder(od->tmp);
	od->tmp[0] = '\0';
	if (od->lock_fd >= 0)
		close(od->lock_fd);
	od->lock_fd = -1;
}
