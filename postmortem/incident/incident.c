// SPDX-License-Identifier: GPL-2.0
/*
 * Opening an incident (incident.h): the one place that resolves the path
 * a user gives.  Once: is it a directory?  Then its members, each read by
 * its own reader from lib/ and dump/.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "incident.h"
#include "incident_path.h"

/* meta.json of an incident directory; any failure leaves it out */
static void read_meta(struct pm_incident *inc, const char *dir)
{
	struct tm_err e = { "" };
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return;
	inc->have_meta = !tm_incident_meta_read(fd, &inc->meta, &e);
	close(fd);
}

/* The longest description read (description.txt: tipme note's limit). */
#define DESC_MAX	4096

/*
 * The user's words: description.txt of an incident directory (@dir, or
 * NULL), else the X dump's; the first line, without trailing blanks.
 */
static void read_desc(struct pm_incident *inc, const char *dir)
{
	char *buf = malloc(DESC_MAX + 1);
	ssize_t n = -1;
	size_t len;
	int dfd, fd;

	if (!buf)
		return;
	if (dir) {
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		fd = dfd < 0 ? -1 : openat(dfd, "description.txt",
					   O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, buf, DESC_MAX);
			close(fd);
		}
		if (dfd >= 0)
			close(dfd);
	}
	if (n <= 0 && inc->have_x && inc->x.description_len) {
		n = (ssize_t)(inc->x.description_len < DESC_MAX ?
			      inc->x.description_len : DESC_MAX);
		memcpy(buf, inc->x.description, (size_t)n);
	}
	len = n > 0 ? (size_t)n : 0;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	len = strlen(buf);
	while (len && (buf[len - 1] == ' ' || buf[len - 1] == '\t' || buf[len - 1] == '\r'))
		buf[--len] = '\0';
	if (!len) {
		free(buf);
		return;
	}
	inc->desc = buf;
}

/* The X dump in @xfile (resolved: a file); -ENOENT passes through. */
static int read_x(struct pm_incident *inc, const char *xfile, struct tm_err *e)
{
	int err = tm_xdump_load(xfile, &inc->x, &inc->xbuf, e);

	inc->have_x = !err;
	return err;
}

/* meta.json's hand-in @i, if its file is the X dump its uploader's name
 * gives (a meta.json naming another path is never followed). */
static int handin_ok(const struct pm_incident *inc, unsigned int i)
{
	const struct tm_incident_handin *h = &inc->meta.handins[i];
	char want[64];

	snprintf(want, sizeof(want), TIPME_INCIDENT_X_DUMP_UID, (unsigned int)h->uid);
	return !strcmp(h->file, want);
}

/* Read the X dump @name of the incident; hand-in @from or -1. */
static int read_member_x(struct pm_incident *inc, const char *name, int from,
			 int why, struct tm_err *e)
{
	char *xfile = NULL;
	int err;

	err = tm_incident_member(inc->dir, name, "X dump", &xfile, e);
	if (!err)
		err = read_x(inc, xfile, e);
	free(xfile);
	if (err)
		return err;
	snprintf(inc->x_file, sizeof(inc->x_file), "%s", name);
	inc->x_from = from;
	inc->x_why = why;
	return 0;
}

/*
 * The X dump of an incident directory: an old incident's one xhook.dump,
 * or of the hand-ins in meta.json the one of the user whose session the
 * incident is about: the press's process's owner, else the press's
 * claimer, else the trigger's requester; the only one if nothing names a
 * user; none yet if several (pm_incident_x_by_pid()).
 */
static int choose_x(struct pm_incident *inc, struct tm_err *e)
{
	const struct tm_incident_meta_view *m = &inc->meta;
	int why = PM_X_NONE, n = 0, only = -1, err;
	unsigned int i;
	char *old = NULL;
	uint32_t uid = 0;

	err = tm_incident_member(inc->dir, TIPME_INCIDENT_X_DUMP, "X dump", &old, e);
	free(old);
	if (!err)
		return read_member_x(inc, TIPME_INCIDENT_X_DUMP, -1, PM_X_OLD, e);
	if (err != -ENOENT || !inc->have_meta)
		return err == -ENOENT ? 0 : err;
	for (i = 0; i < m->nhandins; i++)
		if (handin_ok(inc, i)) {
			n++;
			only = (int)i;
		}
	if (m->has_auto && m->auto_has_uid) {
		why = PM_X_PRESS_UID;
		uid = m->auto_uid;
	} else if (m->has_auto && m->auto_claimed) {
		why = PM_X_CLAIMER;
		uid = m->auto_claimed_by;
	} else if (m->has_requester) {
		why = PM_X_REQUESTER;
		uid = m->requester_uid;
	}
	if (why != PM_X_NONE) {
		inc->x_uid = uid;
		for (i = 0; i < m->nhandins; i++)
			if (handin_ok(inc, i) && m->handins[i].uid == uid)
				return read_member_x(inc, m->handins[i].file, (int)i,
						     why, e);
		inc->x_why = n ? PM_X_UID_NONE : PM_X_NONE;
		return 0;
	}
	if (n == 1)
		return read_member_x(inc, m->handins[only].file, only, PM_X_ONLY, e);
	inc->x_why = n ? PM_X_SEVERAL : PM_X_NONE;
	return 0;
}

int pm_incident_x_by_pid(struct pm_incident *inc, uint32_t pid, struct tm_err *e)
{
	const struct tm_incident_meta_view *m = &inc->meta;
	struct tipme_x11_client cl;
	int pick = -1, err;
	unsigned int i, k;

	if (inc->x_why != PM_X_SEVERAL || inc->have_x)
		return 0;
	for (i = 0; i < m->nhandins; i++) {
		if (!handin_ok(inc, i) || (pick >= 0 && m->handins[pick].uid == 0))
			continue;
		err = read_member_x(inc, m->handins[i].file, (int)i, PM_X_PID, e);
		if (err)
			return err;
		for (k = 0; k < inc->x.clients.count; k++) {
			tm_xdump_client_at(&inc->x, k, &cl);
			if (cl.pid == pid && pid)
				break;
		}
		if (k < inc->x.clients.count)
			pick = (int)i;
		free(inc->xbuf);
		inc->xbuf = NULL;
		inc->have_x = 0;
	}
	inc->x_why = PM_X_SEVERAL;
	inc->x_file[0] = '\0';
	inc->x_from = -1;
	if (pick < 0)
		return 0;
	return read_member_x(inc, m->handins[pick].file, pick, PM_X_PID, e);
}

const char *pm_incident_x_why(const struct pm_incident *inc, char *buf, size_t size)
{
	static const char *const key[] = {
		[PM_X_NONE] = "none", [PM_X_GIVEN] = "given",
		[PM_X_OLD] = "old_incident", [PM_X_PRESS_UID] = "press_uid",
		[PM_X_CLAIMER] = "claimer_uid", [PM_X_REQUESTER] = "requester_uid",
		[PM_X_ONLY] = "only", [PM_X_PID] = "client_pid",
		[PM_X_UID_NONE] = "none_from_uid", [PM_X_SEVERAL] = "several",
	};
	const struct tm_incident_handin *h =
		inc->x_from >= 0 ? &inc->meta.handins[inc->x_from] : NULL;
	char who[400] = "";
	size_t n;

	if (h)
		snprintf(who, sizeof(who), "%s, handed in by uid %u (pid %u, %s): ",
			 h->file, (unsigned int)h->uid, (unsigned int)h->pid,
			 h->exe[0] ? h->exe : "executable unknown");
	n = (size_t)snprintf(buf, size, "%s", who);
	if (n >= size)
		n = size - 1;
	switch (inc->x_why) {
	case PM_X_NONE:
		snprintf(buf + n, size - n, "none in the incident");
		break;
	case PM_X_GIVEN:
		snprintf(buf + n, size - n, "the file given");
		break;
	case PM_X_OLD:
		snprintf(buf + n, size - n, "%s, the one X dump of an incident from before tipmed kept one per user (who handed it in is not known)",
			 TIPME_INCIDENT_X_DUMP);
		break;
	case PM_X_PRESS_UID:
		snprintf(buf + n, size - n, "the session of uid %u, whose process the press went to",
			 (unsigned int)inc->x_uid);
		break;
	case PM_X_CLAIMER:
		snprintf(buf + n, size - n, "the session of uid %u, which claimed the press",
			 (unsigned int)inc->x_uid);
		break;
	case PM_X_REQUESTER:
		snprintf(buf + n, size - n, "the session of uid %u, which asked for the trigger",
			 (unsigned int)inc->x_uid);
		break;
	case PM_X_ONLY:
		snprintf(buf + n, size - n, "the only X dump handed in");
		break;
	case PM_X_PID:
		snprintf(buf + n, size - n, "of several, the one whose X clients include the interval's process");
		break;
	case PM_X_UID_NONE:
		snprintf(buf + n, size - n, "none: uid %u, whose session this is, handed in no X dump (other users' are not read)",
			 (unsigned int)inc->x_uid);
		break;
	default:
		snprintf(buf + n, size - n, "none: several users handed in X dumps and none has the interval's process among its clients");
		break;
	}
	return key[inc->x_why];
}

int pm_incident_open(struct pm_incident *inc, const char *path,
		     unsigned int flags, struct tm_err *e)
{
	unsigned int dflags = flags & ~(PM_INC_NEED_X | PM_INC_NO_X);
	char *kfile = NULL, *xfile = NULL;
	struct stat sb;
	int dir, err;

	memset(inc, 0, sizeof(*inc));
	inc->x_from = -1;
	dir = !stat(path, &sb) && S_ISDIR(sb.st_mode);
	if ((flags & PM_INC_NEED_X) && !dir) {
		/* a file named as an incident is read as its X dump too */
		err = read_x(inc, path, e);
		if (err)
			goto out;
		inc->x_why = PM_X_GIVEN;
	}
	err = tm_incident_member(path, TIPME_INCIDENT_KERNEL_DUMP, "kernel dump",
			      &kfile, e);
	if (!err)
		err = pm_open(&inc->pm, kfile, dflags, e);
	if (err || !dir)
		goto out;
	inc->dir = strdup(path);
	if (!inc->dir) {
		err = tm_err_set(e, ENOMEM, "out of memory");
		goto out;
	}
	read_meta(inc, path);
	if (!(flags & PM_INC_NO_X)) {
		err = choose_x(inc, e);
		if (!err && !inc->have_x && (flags & PM_INC_NEED_X)) {
			char why[512];

			pm_incident_x_why(inc, why, sizeof(why));
			if (inc->x_why == PM_X_NONE)
				err = tm_err_set(e, ENOENT,
						 "%s: an incident without its X dump (tipme-xhook was not running)",
						 path);
			else
				err = tm_err_set(e, ENOENT, "%s: no X dump read (%s)%s",
						 path, why, inc->x_why == PM_X_SEVERAL ?
						 "; name one of its xhook-UID.dump files" : "");
		}
	}
	if (!err)
		read_desc(inc, path);
out:
	free(kfile);
	free(xfile);
	return err;
}

int pm_incident_open_mem(struct pm_incident *inc, const void *buf,
			 size_t size, unsigned int flags, struct tm_err *e)
{
	memset(inc, 0, sizeof(*inc));
	return pm_open_mem(&inc->pm, buf, size, flags, e);
}

void pm_incident_close(struct pm_incident *inc)
{
	free(inc->xbuf);
	free(inc->desc);
	free(inc->dir);
	pm_close(&inc->pm);
	memset(inc, 0, sizeof(*inc));
}

int64_t pm_incident_auto_press(const struct pm_incident *inc)
{
	if (!inc->have_meta || !inc->meta.has_auto ||
	    inc->meta.auto_press_ns > INT64_MAX)
		return 0;
	return (int64_t)inc->meta.auto_press_ns;
}
