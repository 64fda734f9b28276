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
	if (m->has_requester)
		tm_jw_ku64(&w, "uid", m->requester_uid);
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
		if (m->autotrig->end[0])
			tm_jw_kstr(&w, "end", m->autotrig->end);
		if (m->autotrig->has_uid)
			tm_jw_ku64(&w, "uid", m->autotrig->uid);
		tm_jw_kbool(&w, "claimed", m->autotrig->claimed);
		if (m->autotrig->claimed)
			tm_jw_ku64(&w, "claimed_by_uid", m->autotrig->claimed_by);
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

/*
 * The end of the object or array that starts at @p ('{' or '['): its
 * closing bracket, strings skipped; NULL if it does not end before @end.
 */
static const char *match_end(const char *p, const char *end)
{
	int depth = 0, in_str = 0;

	for (; p < end; p++) {
		if (in_str) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				in_str = 0;
			continue;
		}
		if (*p == '"')
			in_str = 1;
		else if (*p == '{' || *p == '[')
			depth++;
		else if ((*p == '}' || *p == ']') && --depth == 0)
			return p;
	}
	return NULL;
}

/*
 * The object or array (@open: '{' or '[') that is the value of "key":
 * its bytes, brackets included, in *@s, *@n.  Return: 1 found, 0 no such
 * key, -EINVAL a value of another kind or unterminated.
 */
static int span_of(const char *buf, size_t len, const char *key, char open,
		   const char **s, size_t *n, struct tm_err *e)
{
	const char *p = value_of(buf, len, key), *q;

	if (!p)
		return 0;
	q = *p == open ? match_end(p, buf + len) : NULL;
	if (!q)
		return tm_err_set(e, EINVAL, "meta.json: \"%s\" is not a%s", key,
				  open == '{' ? "n object" : "n array");
	*s = p;
	*n = (size_t)(q - p) + 1;
	return 1;
}

/* A number that fits 32 bits. */
static int u32_of(const char *buf, size_t len, const char *key, uint32_t *out,
		  struct tm_err *e)
{
	uint64_t v;

	if (number_of(buf, len, key, &v, e))
		return -EINVAL;
	if (v > UINT32_MAX)
		return tm_err_set(e, EINVAL, "meta.json: \"%s\" is too large", key);
	*out = (uint32_t)v;
	return 0;
}

/* A JSON true or false. */
static int bool_of(const char *buf, size_t len, const char *key, int *out,
		   struct tm_err *e)
{
	const char *p = value_of(buf, len, key);
	size_t left = p ? (size_t)(buf + len - p) : 0;

	if (p && left >= 4 && !memcmp(p, "true", 4))
		*out = 1;
	else if (p && left >= 5 && !memcmp(p, "false", 5))
		*out = 0;
	else
		return tm_err_set(e, EINVAL, "meta.json: \"%s\" is not true or false", key);
	return 0;
}

static int parse_auto(const char *a, size_t n, struct tm_incident_meta_view *v,
		      struct tm_err *e)
{
	if (number_of(a, n, "press_mono_ns", &v->auto_press_ns, e) ||
	    number_of(a, n, "latency_ns", &v->auto_latency_ns, e))
		return -EINVAL;
	if (value_of(a, n, "uid")) {
		if (u32_of(a, n, "uid", &v->auto_uid, e))
			return -EINVAL;
		v->auto_has_uid = 1;
	}
	/* written before presses were marked: only tipme-xhook's claimed them */
	if (value_of(a, n, "claimed") && bool_of(a, n, "claimed", &v->auto_claimed, e))
		return -EINVAL;
	if (v->auto_claimed && value_of(a, n, "claimed_by_uid") &&
	    u32_of(a, n, "claimed_by_uid", &v->auto_claimed_by, e))
		return -EINVAL;
	v->has_auto = 1;
	return 0;
}

static int parse_handins(const char *a, size_t n, struct tm_incident_meta_view *v,
			 struct tm_err *e)
{
	const char *p = a + 1, *end = a + n - 1, *q;

	for (; p < end; p++) {
		struct tm_incident_handin *h;
		size_t on;

		if (*p != '{')
			continue;
		q = match_end(p, end);
		if (!q)
			return tm_err_set(e, EINVAL, "meta.json: a hand-in is not terminated");
		if (v->nhandins == TM_INCIDENT_HANDINS)
			break;
		h = &v->handins[v->nhandins];
		on = (size_t)(q - p) + 1;
		if (string_of(p, on, "file", h->file, sizeof(h->file), e) ||
		    u32_of(p, on, "uid", &h->uid, e) ||
		    u32_of(p, on, "pid", &h->pid, e) ||
		    string_of(p, on, "exe", h->exe, sizeof(h->exe), e) ||
		    number_of(p, on, "bytes", &h->bytes, e))
			return -EINVAL;
		v->nhandins++;
		p = q;
	}
	return 0;
}

int tm_incident_meta_parse(const char *buf, size_t len,
			struct tm_incident_meta_view *v, struct tm_err *e)
{
	const char *sp;
	size_t sn;
	int err;

	memset(v, 0, sizeof(*v));
	if (len > TIPME_INCIDENT_META_MAX)
		len = TIPME_INCIDENT_META_MAX;
	if (value_of(buf, len, "number") &&
	    number_of(buf, len, "number", &v->number, e))
		return -EINVAL;
	err = span_of(buf, len, "auto", '{', &sp, &sn, e);
	if (err < 0 || (err && parse_auto(sp, sn, v, e)))
		return -EINVAL;
	err = span_of(buf, len, "trigger", '{', &sp, &sn, e);
	if (err < 0)
		return -EINVAL;
	if (err && value_of(sp, sn, "uid")) {
		if (u32_of(sp, sn, "uid", &v->requester_uid, e))
			return -EINVAL;
		v->has_requester = 1;
	}
	err = span_of(buf, len, "hand_ins", '[', &sp, &sn, e);
	if (err < 0 || (err && parse_handins(sp, sn, v, e)))
		return -EINVAL;
	err = string_of(buf, len, "source", v->source, sizeof(v->source), e);
	if (!err)
		err = string_of(buf, len, "utc", v->utc, sizeof(v->utc), e);
	return err;
}

/* meta.json's bytes (at most TIPME_INCIDENT_META_MAX): a malloc'ed buffer. */
static int read_bytes(int dirfd, char **out, size_t *len, struct tm_err *e)
{
	struct stat st;
	char *buf;
	ssize_t n;
	size_t got = 0;
	int fd;

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
	*out = buf;
	*len = got;
	return 0;
}

int tm_incident_meta_read(int dirfd, struct tm_incident_meta_view *v,
		       struct tm_err *e)
{
	char *buf;
	size_t got;
	int err;

	memset(v, 0, sizeof(*v));
	err = read_bytes(dirfd, &buf, &got, e);
	if (err)
		return err;
	err = tm_incident_meta_parse(buf, got, v, e);
	free(buf);
	return err;
}

void tm_incident_printable(char *dst, size_t size, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < size; i++) {
		unsigned char c = (unsigned char)src[i];

		dst[i] = c < 0x20 || c > 0x7e || c == '"' || c == '\\' ? '?' : (char)c;
	}
	dst[i] = '\0';
}

/* @len bytes of @data as a new file @name in @dirfd, fsynced. */
static int write_new(int dirfd, const char *name, const char *data, size_t len)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			O_CLOEXEC, 0600), err = 0;

	if (fd < 0)
		return -errno;
	while (len && !err) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		data += n;
		len -= (size_t)n;
	}
	if (!err && fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

int tm_incident_meta_add_handin(int dirfd, const struct tm_incident_handin *h,
				struct tm_err *e)
{
	static const char tmp[] = ".tmp-" TIPME_INCIDENT_META;
	char obj[512], *buf, *out = NULL;
	const char *sp, *at;
	size_t len, sn, k, olen, cap;
	struct tm_incident_meta_view v;
	int err, found;

	err = read_bytes(dirfd, &buf, &len, e);
	if (err)
		return err;
	if (len >= TIPME_INCIDENT_META_MAX) {
		err = tm_err_set(e, EFBIG, "%s: too large to add to", TIPME_INCIDENT_META);
		goto out;
	}
	/* the file must be one we can read back, and stay so */
	err = tm_incident_meta_parse(buf, len, &v, e);
	if (err)
		goto out;
	snprintf(obj, sizeof(obj),
		 "{\"file\": \"%s\", \"uid\": %u, \"pid\": %u, \"exe\": \"%s\", \"bytes\": %llu}",
		 h->file, (unsigned int)h->uid, (unsigned int)h->pid, h->exe,
		 (unsigned long long)h->bytes);
	found = span_of(buf, len, "hand_ins", '[', &sp, &sn, e);
	if (found) {
		at = sp + sn - 1;		/* its ']' */
		while (at > sp + 1 && strchr(" \t\r\n", at[-1]))
			at--;
	} else {
		at = buf + len;			/* after the last '}' ... */
		while (at > buf && at[-1] != '}')
			at--;
		if (at == buf) {
			err = tm_err_set(e, EINVAL, "%s: not an object", TIPME_INCIDENT_META);
			goto out;
		}
		at--;				/* ... before it, and its blanks */
		while (at > buf && strchr(" \t\r\n", at[-1]))
			at--;
	}
	k = (size_t)(at - buf);
	cap = len + sizeof(obj) + 64;
	out = malloc(cap);
	if (!out) {
		err = tm_err_set(e, ENOMEM, "out of memory");
		goto out;
	}
	memcpy(out, buf, k);
	if (found)
		olen = k + (size_t)snprintf(out + k, cap - k, "%s\n    %s\n  ]\n}\n",
					  v.nhandins ? "," : "", obj);
	else
		olen = k + (size_t)snprintf(out + k, cap - k,
					  ",\n  \"hand_ins\": [\n    %s\n  ]\n}\n", obj);
	if (found) {
		/* what followed the array: only the end of the object */
		const char *rest = sp + sn;

		while (rest < buf + len && strchr(" \t\r\n}", *rest))
			rest++;
		if (rest != buf + len) {
			err = tm_err_set(e, EINVAL, "%s: \"hand_ins\" is not its last key",
					 TIPME_INCIDENT_META);
			goto out;
		}
	}
	unlinkat(dirfd, tmp, 0);
	err = write_new(dirfd, tmp, out, olen);
	if (!err && renameat(dirfd, tmp, dirfd, TIPME_INCIDENT_META))
		err = -errno;
	if (err) {
		unlinkat(dirfd, tmp, 0);
		tm_err_set(e, -err, "%s: %s", TIPME_INCIDENT_META, strerror(-err));
	}
out:
	free(out);
	free(buf);
	return err;
}

void tm_incident_meta_json_who(struct tm_jw *w, const struct tm_incident_meta_view *v)
{
	unsigned int i;

	tm_jw_key(w, "requester_uid");
	if (v->has_requester)
		tm_jw_u64(w, v->requester_uid);
	else
		tm_jw_null(w);
	tm_jw_key(w, "press");
	if (v->has_auto) {
		tm_jw_obj_begin(w);
		tm_jw_ku64(w, "press_mono_ns", v->auto_press_ns);
		tm_jw_ku64(w, "latency_ns", v->auto_latency_ns);
		tm_jw_key(w, "uid");
		if (v->auto_has_uid)
			tm_jw_u64(w, v->auto_uid);
		else
			tm_jw_null(w);
		tm_jw_kbool(w, "claimed", v->auto_claimed);
		tm_jw_key(w, "claimed_by_uid");
		if (v->auto_claimed)
			tm_jw_u64(w, v->auto_claimed_by);
		else
			tm_jw_null(w);
		tm_jw_obj_end(w);
	} else {
		tm_jw_null(w);
	}
	tm_jw_key(w, "x_dumps");
	tm_jw_arr_begin(w);
	for (i = 0; i < v->nhandins; i++) {
		const struct tm_incident_handin *h = &v->handins[i];

		tm_jw_obj_begin(w);
		tm_jw_kstr(w, "file", h->file);
		tm_jw_ku64(w, "uid", h->uid);
		tm_jw_ku64(w, "pid", h->pid);
		tm_jw_kstr(w, "exe", h->exe);
		tm_jw_ku64(w, "bytes", h->bytes);
		tm_jw_obj_end(w);
	}
	tm_jw_arr_end(w);
}

void tm_incident_handin_text(const struct tm_incident_handin *h, char *buf,
			     size_t size)
{
	snprintf(buf, size, "uid %u (pid %u, %s): %s", (unsigned int)h->uid,
		 (unsigned int)h->pid, h->exe[0] ? h->exe : "executable unknown",
		 h->file);
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
	snprintf(a->end, sizeof(a->end), "%s",
		 p->end == TIPME_PRESS_END_FLIP ? "flip" : "reader_idle");
}
