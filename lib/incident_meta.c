// SPDX-License-Identifier: GPL-2.0
/*
 * meta.json of an incident (see incident_meta.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/tipme.h>

#include "incident_meta.h"
#include "incident_path.h"
#include "json.h"

int tm_incident_meta_write(int dirfd, const struct tm_incident_meta *m,
			struct tm_err *e)
{
	char host[256] = "";
	struct tm_jw w;
	FILE *f;
	int fd;

	fd = openat(dirfd, TIPME_INCIDENT_META,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return tm_err_set(e, errno, "%s: %s", TIPME_INCIDENT_META,
				  strerror(errno));
	}
	gethostname(host, sizeof(host) - 1);
	tm_jw_init(&w, f, TM_JW_PRETTY);
	tm_jw_obj_begin(&w);
	tm_jw_kstr(&w, "tipme_version", TIPME_VERSION_STRING);
	tm_jw_ku64(&w, "number", m->number);
	tm_jw_kstr(&w, "host", host);
	tm_jw_key(&w, "trigger");
	tm_jw_obj_begin(&w);
	tm_jw_ku64(&w, "seq", m->seq);
	tm_jw_kstr(&w, "source", m->source);
	tm_jw_kstr(&w, "utc", m->utc);
	tm_jw_ku64(&w, "mono_ns", m->mono_ns);
	tm_jw_ku64(&w, "real_ns", m->real_ns);
	tm_jw_ku64(&w, "ts", m->ts);
	tm_jw_obj_end(&w);
	tm_jw_key(&w, "kernel_dump");
	tm_jw_obj_begin(&w);
	tm_jw_kstr(&w, "file", TIPME_INCIDENT_KERNEL_DUMP);
	tm_jw_ku64(&w, "record_bytes", m->record_bytes);
	tm_jw_ku64(&w, "subbufs", m->subbufs);
	tm_jw_ku64(&w, "discarded_subbufs", m->discarded_subbufs);
	tm_jw_ku64(&w, "cpus", m->cpus);
	tm_jw_kdouble(&w, "seconds", m->seconds);
	tm_jw_obj_end(&w);
	if (m->autotrig) {
		tm_jw_key(&w, "auto");
		tm_jw_obj_begin(&w);
		tm_jw_kstr(&w, "input", m->autotrig->input);
		tm_jw_ku64(&w, "pid", m->autotrig->pid);
		tm_jw_kstr(&w, "comm", m->autotrig->comm);
		tm_jw_ku64(&w, "press_mono_ns", m->autotrig->press_ns);
		tm_jw_ku64(&w, "latency_ns", m->autotrig->latency_ns);
		tm_jw_obj_end(&w);
	}
	tm_jw_obj_end(&w);
	if (tm_jw_finish(&w) || fflush(f) || fsync(fileno(f))) {
		int err = errno ? errno : EIO;

		fclose(f);
		return tm_err_set(e, err, "%s: %s", TIPME_INCIDENT_META,
				  strerror(err));
	}
	if (fclose(f))
		return tm_err_set(e, errno, "%s: %s", TIPME_INCIDENT_META,
				  strerror(errno));
	return 0;
}

/* Where the value of "key": starts in buf[0..len), or NULL. */
static const char *value_of(const char *buf, size_t len, const char *key)
{
	size_t kl = strlen(key), i;
	const char *p;

	for (i = 0; i + kl + 2 < len; i++) {
		if (buf[i] != '"' || memcmp(buf + i + 1, key, kl) ||
		    buf[i + 1 + kl] != '"')
			continue;
		p = buf + i + kl + 2;
		while (p < buf + len && (*p == ' ' || *p == '\t' || *p == '\n' ||
					 *p == '\r'))
			p++;
		if (p >= buf + len || *p != ':')
			continue;
		p++;
		while (p < buf + len && (*p == ' ' || *p == '\t' || *p == '\n' ||
					 *p == '\r'))
			p++;
		return p < buf + len ? p : NULL;
	}
	return NULL;
}

static int string_of(const char *buf, size_t len, const char *key, char *out,
		     size_t size, struct tm_err *e)
{
	const char *p = value_of(buf, len, key), *end = buf + len;
	size_t n = 0;

	if (!p)
		return tm_err_set(e, EINVAL, "meta.json: no \"%s\"", key);
	if (*p != '"')
		return tm_err_set(e, EINVAL, "meta.json: \"%s\" is not a string", key);
	for (p++; p < end && *p != '"'; p++) {
		if (*p < 0x20 || *p > 0x7e || *p == '\\' || n + 1 >= size)
			return tm_err_set(e, EINVAL,
					  "meta.json: \"%s\" is not a short plain string",
					  key);
		out[n++] = *p;
	}
	if (p >= end)
		return tm_err_set(e, EINVAL, "meta.json: \"%s\" is not terminated", key);
	out[n] = '\0';
	return 0;
}

/* The decimal integer value of "key": into *@out. */
static int number_of(const char *buf, size_t len, const char *key,
		     uint64_t *out, struct tm_err *e)
{
	const char *p = value_of(buf, len, key);
	uint64_t n = 0;
	int digits = 0;

	if (!p)
		return tm_err_set(e, EINVAL, "meta.json: no \"%s\"", key);
	for (; p < buf + len && *p >= '0' && *p <= '9'; p++, digits++) {
		if (n > (UINT64_MAX - 9) / 10)
			return tm_err_set(e, EINVAL, "meta.json: \"%s\" is too large", key);
		n = n * 10 + (uint64_t)(*p - '0');
	}
	if (!digits)
		return tm_err_set(e, EINVAL, "meta.json: \"%s\" is not a number", key);
	*out = n;
	return 0;
}

int tm_incident_meta_parse(const char *buf, size_t len,
			struct tm_incident_meta_view *v, struct tm_err *e)
{
	int err;

	memset(v, 0, sizeof(*v));
	if (len > TIPME_INCIDENT_META_MAX)
		len = TIPME_INCIDENT_META_MAX;
	if (value_of(buf, len, "number") &&
	    number_of(buf, len, "number", &v->number, e))
		return -EINVAL;
	if (value_of(buf, len, "auto")) {
		if (number_of(buf, len, "press_mono_ns", &v->auto_press_ns, e) ||
		    number_of(buf, len, "latency_ns", &v->auto_latency_ns, e))
			return -EINVAL;
		v->has_auto = 1;
	}
	err = string_of(buf, len, "source", v->source, sizeof(v->source), e);
	if (!err)
		err = string_of(buf, len, "utc", v->utc, sizeof(v->utc), e);
	return err;
}

int tm_incident_meta_read(int dirfd, struct tm_incident_meta_view *v,
		       struct tm_err *e)
{
	struct stat st;
	char *buf;
	ssize_t n;
	size_t got = 0;
	int fd, err;

	memset(v, 0, sizeof(*v));
	/* O_NONBLOCK: a FIFO planted as meta.json must not make us wait */
	fd = openat(dirfd, TIPME_INCIDENT_META,
		    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return tm_err_set(e, errno, "%s: %s", TIPME_INCIDENT_META,
				  strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return tm_err_set(e, EINVAL, "%s: not a regular file", TIPME_INCIDENT_META);
	}
	buf = malloc(TIPME_INCIDENT_META_MAX);
	if (!buf) {
		close(fd);
		return tm_err_set(e, ENOMEM, "out of memory");
	}
	while (got < TIPME_INCIDENT_META_MAX) {
		n = read(fd, buf + got, TIPME_INCIDENT_META_MAX - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	err = tm_incident_meta_parse(buf, got, v, e);
	free(buf);
	return err;
}

/**
 * tm_incident_auto_from_press() - the press of the module's own auto trigger,
 *	as meta.json names it
 * @p: the press, as the module announced it
 * @a: set to the same press
 *
 * The command name is the task's own: bytes outside printable ASCII, quotes
 * and backslashes become '?', as a TRIGGER auto line could not carry them.
 */
void tm_incident_auto_from_press(const struct tipme_trigger_press *p,
			      struct tm_incident_auto *a)
{
	size_t i;

	memset(a, 0, sizeof(*a));
	snprintf(a->input, sizeof(a->input), "%s",
		 p->input == TIPME_INPUT_BUTTON ? "button" : "key");
	a->pid = p->pid;
	for (i = 0; i < sizeof(p->comm) && i + 1 < sizeof(a->comm) && p->comm[i]; i++) {
		unsigned char c = (unsigned char)p->comm[i];

		a->comm[i] = c < 0x20 || c > 0x7e || c == '"' || c == '\\' ? '?' : (char)c;
	}
	a->press_ns = p->press_mono_ns;
	a->latency_ns = p->latency_ns;
}
