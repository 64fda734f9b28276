// SPDX-License-Identifier: GPL-2.0
/*
 * Incident directories (see incident.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>		/* renameat2, RENAME_NOREPLACE (_GNU_SOURCE) */
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctlproto.h"
#include "incident.h"
#include "incident_meta.h"
#include "incident_path.h"
#include "json.h"
#include "names.h"

/* The number the next incident gets (incident_meta.h: @number). */
static uint64_t next_number = 1;

/* "a/b" into @buf; -ENAMETOOLONG rather than a truncated path. */
static int pjoin(char *buf, size_t size, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la + 1 + lb >= size)
		return -ENAMETOOLONG;
	memmove(buf, a, la);
	buf[la] = '/';
	memcpy(buf + la + 1, b, lb + 1);
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rm_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int fsync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

static int mkdir_p(const char *path, mode_t mode)
{
	char tmp[4096], *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

/* An incident found under the root, with its number in creation order. */
struct found {
	char *name;
	uint64_t number;
	int is_auto;	/* source "auto": goes first when space runs short */
	int64_t owner;	/* the member (not root) who asked for it, or -1 */
	int excess;	/* beyond its owner's share: goes before any other */
};

/* Creation order: by number; incidents without one (older tipmed, or a
 * meta.json that cannot be read) first, by name. */
static int found_cmp(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	if (x->number != y->number)
		return x->number < y->number ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * The incidents under @root in creation order.  Only real directories
 * count: a symlink or a file with an incident's name is left alone, and
 * meta.json is opened without following links.
 */
static int find_incidents(const char *root, struct found **out, size_t *n,
			  struct tm_err *e)
{
	struct found *v = NULL, *nv;
	struct tm_incident_meta_view mv;
	struct tm_err ignored;
	struct dirent *de;
	struct stat st;
	size_t cnt = 0;
	DIR *d = opendir(root);
	int fd;

	*out = NULL;
	*n = 0;
	if (!d) {
		if (errno == ENOENT)
			return 0;
		return tm_err_set(e, errno, "%s: %s", root, strerror(errno));
	}
	while ((de = readdir(d))) {
		if (!tm_ctl_name_ok(de->d_name) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISDIR(st.st_mode))
			continue;
		nv = realloc(v, (cnt + 1) * sizeof(*v));
		if (!nv || !(nv[cnt].name = strdup(de->d_name))) {
			closedir(d);
			v = nv ? nv : v;
			while (cnt--)
				free(v[cnt].name);
			free(v);
			return tm_err_set(e, ENOMEM, "out of memory");
		}
		v = nv;
		v[cnt].number = 0;
		v[cnt].is_auto = 0;
		v[cnt].owner = -1;
		v[cnt].excess = 0;
		fd = openat(dirfd(d), de->d_name,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			if (!tm_incident_meta_read(fd, &mv, &ignored)) {
				v[cnt].number = mv.number;
				v[cnt].is_auto = !strcmp(mv.source, "auto");
				if (mv.has_requester && mv.requester_uid)
					v[cnt].owner = mv.requester_uid;
			}
			close(fd);
		}
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), found_cmp);
	*out = v;
	*n = cnt;
	return 0;
}

/*
 * The root holds root-only dumps and is where tipmed creates, renames and
 * removes trees: nobody else may be able to plant or swap entries in it.
 * It must be a real directory (not a symlink), owned by us, and writable
 * by nobody else.
 */
static int root_is_ours(const char *root, struct tm_err *e)
{
	struct stat st;
	int fd;

	fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return tm_err_set(e, errno, "%s: %s%s", root, strerror(errno),
				  errno == ELOOP || errno == ENOTDIR ?
				  " (the incident directory must not be a symlink)" : "");
	if (fstat(fd, &st)) {
		close(fd);
		return tm_err_set(e, errno, "%s: %s", root, strerror(errno));
	}
	close(fd);
	if (st.st_uid != geteuid())
		return tm_err_set(e, EPERM,
				  "%s belongs to uid %u, not to us (uid %u): refusing to keep incidents there",
				  root, (unsigned int)st.st_uid, (unsigned int)geteuid());
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return tm_err_set(e, EPERM,
				  "%s is writable by %s (mode %04o): refusing to keep incidents there (chmod go-w)",
				  root, st.st_mode & S_IWOTH ? "everyone" : "its group",
				  (unsigned int)(st.st_mode & 07777));
	return 0;
}

/**
 * incident_root_init() - create the root and remove leftovers
 * @cfg: configuration
 * @e: error message
 *
 * Refuses a root that is a symlink, that another user owns or that
 * anyone else can write (-EPERM).  Takes an exclusive lock on the root (a
 * second tipmed fails with -EBUSY).  Hidden ".tmp-" directories are incidents a killed tipmed never
 * finished: they are removed.
 *
 * Return: 0 or a negative errno.
 */
int incident_root_init(const struct incident_cfg *cfg, struct tm_err *e)
{
	struct found *found;
	struct dirent *de;
	size_t n;
	char path[4096];
	DIR *d;
	int err, fd;

	err = mkdir_p(cfg->root, 0700);
	if (err)
		return tm_err_set(e, -err, "%s: %s", cfg->root, strerror(-err));
	err = root_is_ours(cfg->root, e);
	if (err)
		return err;
	/* One tipmed per incident root: the lock lives as long as we do. */
	if (pjoin(path, sizeof(path), cfg->root, ".lock"))
		return tm_err_set(e, ENAMETOOLONG, "%s: path too long", cfg->root);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return tm_err_set(e, errno, "%s: %s", path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return tm_err_set(e, EBUSY, "another tipmed is using %s", cfg->root);
	}
	d = opendir(cfg->root);
	if (!d)
		return tm_err_set(e, errno, "%s: %s", cfg->root, strerror(errno));
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, ".tmp-", 5))
			continue;
		if (pjoin(path, sizeof(path), cfg->root, de->d_name))
			continue;
		rm_tree(path);
	}
	closedir(d);
	/* Numbers go on from the largest one kept. */
	err = find_incidents(cfg->root, &found, &n, e);
	if (err)
		return err;
	next_number = 1;
	while (n--) {
		if (found[n].number >= next_number)
			next_number = found[n].number + 1;
		free(found[n].name);
	}
	free(found);
	return 0;
}

static int write_meta(const char *dir, const struct tnl_trigger_event *ev,
		      const struct tnl_dump_stats *ds, const char *utc,
		      const struct tm_incident_auto *au, int64_t requester,
		      struct tm_err *e)
{
	struct tm_incident_meta m = {
		.number = next_number,
		.seq = ev->seq,
		.source = tm_trigger_source_name(ev->source, "unknown"),
		.utc = utc,
		.mono_ns = ev->mono_ns,
		.real_ns = ev->real_ns,
		.ts = ev->ts,
		.record_bytes = ds->bytes,
		.subbufs = ds->subbufs,
		.discarded_subbufs = ds->discarded,
		.cpus = ds->cpus,
		.seconds = ds->seconds,
		.autotrig = au,
		.has_requester = requester >= 0,
		.requester_uid = requester >= 0 ? (uint32_t)requester : 0,
	};
	int fd, err;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return tm_err_set(e, errno, "%s: %s", dir, strerror(errno));
	err = tm_incident_meta_write(fd, &m, e);
	close(fd);
	return err;
}

/* Write @len bytes to a new file @name in @dirfd (never through a link). */
static int write_at(int dirfd, const char *name, const void *data, size_t len)
{
	const char *p = data;
	int fd = openat(dirfd, name,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int err = 0;

	if (fd < 0)
		return -errno;
	while (len && !err) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		p += n;
		len -= (size_t)n;
	}
	if (!err && fsync(fd))
		err = -errno;
	close(fd);
	if (err)
		unlinkat(dirfd, name, 0);
	return err;
}

/**
 * incident_create() - dump the kernel into a new incident directory
 * @cfg: configuration
 * @t: connection to the module
 * @ev: the trigger
 * @reason: a description given with the trigger, or NULL
 * @au: the press that fired an auto trigger (meta.json), or NULL
 * @requester: the uid of the control socket's client that asked for the
 *	trigger, or -1 (the hotkey, the module's own, a sysctl write)
 * @name: set to the incident's name
 * @name_len: size of @name
 * @ds: statistics of the kernel dump
 * @e: error message
 *
 * Return: 0 or a negative errno; on failure nothing is left behind.
 */
int incident_create(const struct incident_cfg *cfg, struct tnl *t,
		    const struct tnl_trigger_event *ev, const char *reason,
		    const struct tm_incident_auto *au, int64_t requester,
		    char *name, size_t name_len, struct tnl_dump_stats *ds,
		    struct tm_err *e)
{
	char utc[32], base[64], tmp[4096], final[4096], path[4096];
	time_t secs = (time_t)(ev->real_ns / 1000000000ull);
	struct stat st;
	struct tm tm;
	int err, i;

	gmtime_r(&secs, &tm);
	strftime(utc, sizeof(utc), "%Y-%m-%dT%H:%M:%SZ", &tm);
	strftime(base, sizeof(base), "%Y%m%dT%H%M%SZ", &tm);
	for (i = 1; i < 100; i++) {
		if (i == 1)
			snprintf(name, name_len, "%s-%u", base, ev->seq);
		else
			snprintf(name, name_len, "%s-%u-%d", base, ev->seq, i);
		if (pjoin(final, sizeof(final), cfg->root, name))
			return tm_err_set(e, ENAMETOOLONG, "%s: path too long",
					  cfg->root);
		if (lstat(final, &st))
			break;
	}
	snprintf(path, sizeof(path), ".tmp-%s-%d", name, (int)getpid());
	if (pjoin(tmp, sizeof(tmp), cfg->root, path))
		return tm_err_set(e, ENAMETOOLONG, "%s: path too long", cfg->root);
	rm_tree(tmp);
	if (mkdir(tmp, 0700))
		return tm_err_set(e, errno, "%s: %s", tmp, strerror(errno));
	pjoin(path, sizeof(path), tmp, TIPME_INCIDENT_KERNEL_DUMP);	/* fits: tmp did */
	err = tnl_dump_to_file(t, path, cfg->syms, ds, e);
	if (!err)
		err = write_meta(tmp, ev, ds, utc, au, requester, e);
	if (!err && reason && *reason) {
		char line[TIPME_CTL_LINE_MAX + 2];

		int dirfd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		snprintf(line, sizeof(line), "%s\n", reason);
		err = dirfd < 0 ? -errno : write_at(dirfd, "description.txt", line, strlen(line));
		if (dirfd >= 0)
			close(dirfd);
		if (err)
			tm_err_set(e, -err, "%s/description.txt: %s", tmp, strerror(-err));
	}
	if (!err) {
		err = fsync_path(tmp);
		if (!err && rename(tmp, final))
			err = -errno;
		if (err)
			tm_err_set(e, -err, "%s: %s", final, strerror(-err));
	}
	if (err) {
		rm_tree(tmp);
		return err;
	}
	next_number++;
	fsync_path(cfg->root);
	return 0;
}

/*
 * The incidents one member of the socket's group may keep by asking for
 * them, so that one member's triggers rotate out only their own: a
 * quarter of --keep (12 of the 50), or 12 without a count limit.
 */
static unsigned int member_share(const struct incident_cfg *cfg)
{
	if (!cfg->keep)
		return 12;
	return cfg->keep / 4 ? cfg->keep / 4 : 1;
}

/* Mark the oldest incidents of each member beyond @share, in v[0..n). */
static void mark_excess(struct found *v, size_t n, unsigned int share)
{
	size_t i, j, mine;

	for (i = n; i-- > 0;) {
		if (v[i].owner < 0)
			continue;
		for (j = i + 1, mine = 1; j < n; j++)
			mine += v[j].owner == v[i].owner;
		v[i].excess = mine > share;
	}
}

/* The orders in which incidents are listed. */
enum list_order {
	BY_CREATION,		/* oldest first */
	FOR_REMOVAL,		/* a member's beyond their share first, then
				 * auto (nobody asked for them), then the
				 * others; each oldest first */
	FOR_REMOVAL_KEEP_NEWEST,	/* as FOR_REMOVAL, but the newest
					 * incident (the one just written)
					 * last whatever its source */
};

static int list_in_order(const char *root, enum list_order order,
			 unsigned int share, char ***names, size_t *n,
			 struct tm_err *e)
{
	struct found *v;
	size_t cnt, rest, i, k = 0;
	char **out;
	int err, pass;

	*names = NULL;
	*n = 0;
	err = find_incidents(root, &v, &cnt, e);
	if (err)
		return err;
	out = malloc((cnt ? cnt : 1) * sizeof(*out));
	if (!out) {
		for (i = 0; i < cnt; i++)
			free(v[i].name);
		free(v);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	if (order == BY_CREATION) {
		for (i = 0; i < cnt; i++)
			out[k++] = v[i].name;
	} else {
		rest = order == FOR_REMOVAL_KEEP_NEWEST && cnt ? cnt - 1 : cnt;
		mark_excess(v, cnt, share);
		for (i = 0; i < rest; i++)
			if (v[i].excess)
				out[k++] = v[i].name;
		for (pass = 1; pass >= 0; pass--)
			for (i = 0; i < rest; i++)
				if (!v[i].excess && v[i].is_auto == pass)
					out[k++] = v[i].name;
		if (rest < cnt)
			out[k++] = v[rest].name;
	}
	free(v);
	*names = out;
	*n = k;
	return 0;
}

/**
 * incident_list() - the incidents under @root, in creation order
 * @root: directory
 * @names: set to a malloc'ed array of names
 * @n: number of names
 * @e: error message
 *
 * Creation order is the number tipmed gives each incident (meta.json), so
 * it holds when the wall clock that names incidents steps back.
 *
 * Return: 0 or a negative errno.
 */
int incident_list(const char *root, char ***names, size_t *n, struct tm_err *e)
{
	return list_in_order(root, BY_CREATION, 0, names, n, e);
}

void incident_list_free(char **names, size_t n)
{
	while (n--)
		free(names[n]);
	free(names);
}

static uint64_t tree_bytes;

static int add_size(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (flag == FTW_F)
		tree_bytes += (uint64_t)st->st_blocks * 512;
	return 0;
}

/**
 * incident_prune() - remove the oldest incidents beyond the limits
 * @cfg: configuration
 * @removed: set to the number removed
 * @e: error message
 *
 * The incidents a member of the socket's group asked for beyond their
 * share (a quarter of @cfg->keep) go first, so that one member's triggers
 * rotate out only their own; then auto incidents, then the others, each
 * oldest first; the newest incident (the one just written) stays.
 *
 * Return: 0 or a negative errno.
 */
int incident_prune(const struct incident_cfg *cfg, unsigned int *removed,
		   struct tm_err *e)
{
	char **names, path[4096];
	uint64_t *sizes, total = 0;
	size_t n, i, first = 0;
	int err;

	*removed = 0;
	err = list_in_order(cfg->root, FOR_REMOVAL_KEEP_NEWEST, member_share(cfg),
			    &names, &n, e);
	if (err)
		return err;
	sizes = calloc(n ? n : 1, sizeof(*sizes));
	if (!sizes) {
		incident_list_free(names, n);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		if (pjoin(path, sizeof(path), cfg->root, names[i]))
			continue;
		tree_bytes = 0;
		nftw(path, add_size, 16, FTW_PHYS);
		sizes[i] = tree_bytes;
		total += tree_bytes;
	}
	/* Never remove the newest incident: it is the one just written. */
	while (first + 1 < n &&
	       ((cfg->keep && n - first > cfg->keep) ||
		(cfg->max_bytes && total > cfg->max_bytes))) {
		if (!pjoin(path, sizeof(path), cfg->root, names[first]))
			rm_tree(path);
		total -= sizes[first];
		first++;
		(*removed)++;
	}
	free(sizes);
	incident_list_free(names, n);
	return 0;
}

/**
 * incident_make_room() - remove the oldest incident, for a full disk
 * @cfg: configuration
 * @removed: set to the name removed (at least 128 bytes)
 * @e: error message
 *
 * For when a new incident did not fit: the newest history matters most to
 * a flight recorder, so the oldest incident goes first: a member's beyond
 * their share before any other, then auto incidents (nobody asked for
 * them).  The incident that
 * did not fit is not in the list (it was never renamed into place).
 *
 * Return: 0, or -ENOENT when there is nothing left to remove.
 */
int incident_make_room(const struct incident_cfg *cfg, char *removed,
		       struct tm_err *e)
{
	char **names, path[4096];
	size_t n;
	int err;

	err = list_in_order(cfg->root, FOR_REMOVAL, member_share(cfg), &names, &n, e);
	if (err)
		return err;
	if (!n) {
		incident_list_free(names, n);
		return tm_err_set(e, ENOENT, "no incident left to remove");
	}
	snprintf(removed, 128, "%s", names[0]);
	if (!pjoin(path, sizeof(path), cfg->root, names[0]))
		rm_tree(path);
	incident_list_free(names, n);
	fsync_path(cfg->root);
	return 0;
}

/**
 * incident_put() - store a file in an existing incident, atomically
 * @cfg: configuration
 * @incident: incident name
 * @file: file name inside it
 * @data: contents
 * @len: their size
 * @replace: replace a file of the same name (the description); without it
 *           the file is written once and an existing one is left alone
 * @e: error message
 *
 * Return: 0 or a negative errno (-EEXIST: the file is there and @replace
 * is 0).
 */
/* The incident @incident under the root, opened without following links. */
static int open_incident(const struct incident_cfg *cfg, const char *incident,
			 const char *file, struct tm_err *e)
{
	int rootfd, dirfd;

	if (!tm_ctl_name_ok(incident) || !tm_ctl_name_ok(file))
		return tm_err_set(e, EINVAL, "bad incident or file name");
	/* Everything relative to the opened root and incident: no path is
	 * resolved twice, and no symlink planted in either is followed. */
	rootfd = open(cfg->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rootfd < 0)
		return tm_err_set(e, errno, "%s: %s", cfg->root, strerror(errno));
	dirfd = openat(rootfd, incident, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(rootfd);
	if (dirfd < 0)
		return tm_err_set(e, ENOENT, "no incident '%s'", incident);
	return dirfd;
}

static int put_at(int dirfd, const char *incident, const char *file,
		  const void *data, size_t len, int replace, struct tm_err *e)
{
	char tmp[256];
	struct stat st;
	int err;

	if (!replace && !fstatat(dirfd, file, &st, AT_SYMLINK_NOFOLLOW))
		return tm_err_set(e, EEXIST,
				  "incident %s already has %s: files in an incident are written once",
				  incident, file);
	snprintf(tmp, sizeof(tmp), ".tmp-%s", file);
	unlinkat(dirfd, tmp, 0);
	err = write_at(dirfd, tmp, data, len);
	if (!err && (replace ? renameat(dirfd, tmp, dirfd, file) :
		     renameat2(dirfd, tmp, dirfd, file, RENAME_NOREPLACE)))
		err = -errno;
	if (err) {
		unlinkat(dirfd, tmp, 0);
		if (err == -EEXIST)
			return tm_err_set(e, EEXIST,
					  "incident %s already has %s: files in an incident are written once",
					  incident, file);
		return tm_err_set(e, -err, "%s/%s: %s", incident, file, strerror(-err));
	}
	fsync(dirfd);
	return 0;
}

/**
 * incident_put() - store a file in an existing incident, atomically
 * @cfg: configuration
 * @incident: incident name
 * @file: file name inside it
 * @data: contents
 * @len: their size
 * @replace: replace a file of the same name (the description); without it
 *           the file is written once and an existing one is left alone
 * @e: error message
 *
 * Return: 0 or a negative errno (-EEXIST: the file is there and @replace
 * is 0).
 */
int incident_put(const struct incident_cfg *cfg, const char *incident,
		 const char *file, const void *data, size_t len, int replace,
		 struct tm_err *e)
{
	int dirfd = open_incident(cfg, incident, file, e), err;

	if (dirfd < 0)
		return dirfd;
	err = put_at(dirfd, incident, file, data, len, replace, e);
	close(dirfd);
	return err;
}

/**
 * incident_hand_in() - store a client's file, once, and who handed it in
 * @cfg: configuration
 * @incident: incident name
 * @h: the file's name in the incident, its uploader and size (@h->bytes
 *	is @len)
 * @data: contents
 * @len: their size
 * @e: error message
 *
 * The file is written once (-EEXIST if it is there) and recorded in the
 * incident's meta.json (tm_incident_meta_add_handin()); if meta.json
 * cannot record it, the file is removed again: no hand-in without its
 * uploader.
 *
 * Return: 0 or a negative errno.
 */
int incident_hand_in(const struct incident_cfg *cfg, const char *incident,
		     const struct tm_incident_handin *h, const void *data,
		     size_t len, struct tm_err *e)
{
	int dirfd = open_incident(cfg, incident, h->file, e), err;
	struct stat st;

	if (dirfd < 0)
		return dirfd;
	/* an incident of tipmed's has its meta.json before anyone hands in */
	if (fstatat(dirfd, TIPME_INCIDENT_META, &st, AT_SYMLINK_NOFOLLOW) ||
	    !S_ISREG(st.st_mode)) {
		close(dirfd);
		return tm_err_set(e, ENOENT, "incident %s has no %s to record the hand-in in",
				  incident, TIPME_INCIDENT_META);
	}
	err = put_at(dirfd, incident, h->file, data, len, 0, e);
	if (!err) {
		err = tm_incident_meta_add_handin(dirfd, h, e);
		if (err)
			unlinkat(dirfd, h->file, 0);
		fsync(dirfd);
	}
	close(dirfd);
	return err;
}
