// SPDX-License-Identifier: GPL-2.0
/*
 * The control protocol's lines (see ctlproto.h): the names it allows,
 * tipmed's reader of request lines and the client's reader of the lines a
 * subscription brings.  Every line comes from another process, so every
 * field is checked here, once, for every program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/tipme.h>

#include "ctlproto.h"

/**
 * tm_ctl_name_ok() - whether @name may be an incident or file name
 * @name: the name
 *
 * [A-Za-z0-9._-], 1 to 200 characters, not starting with '.': no path
 * separator, no "..", no hidden file.
 *
 * Return: 1 if it may, else 0.
 */
int tm_ctl_name_ok(const char *name)
{
	const char *p;

	if (!name || !*name || name[0] == '.' || strlen(name) > 200)
		return 0;
	for (p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '_' ||
		      *p == '-'))
			return 0;
	return 1;
}

/* TRIGGER's source words: what a socket client may claim to be. */
static uint32_t ctl_source_by_name(const char *word)
{
	if (!strcmp(word, "user"))
		return TIPME_TRIG_NETLINK;
	if (!strcmp(word, "xhook"))
		return TIPME_TRIG_XHOOK;
	if (!strcmp(word, "threshold"))
		return TIPME_TRIG_THRESHOLD;
	if (!strcmp(word, "auto"))
		return TIPME_TRIG_AUTO;
	return 0;
}

/* A decimal number that is all of @s; -EINVAL if not, or beyond @max. */
static int parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end || *v > max)
		return -EINVAL;
	return 0;
}

/* Cut @s at its first space; returns what follows, or NULL. */
static char *cut(char *s)
{
	char *sp = s ? strchr(s, ' ') : NULL;

	if (!sp)
		return NULL;
	*sp = '\0';
	return sp + 1;
}

/* "KEY=" at the start of *@s: the value up to the next space (cut there). */
static char *keyval(char **s, const char *key)
{
	size_t kl = strlen(key);
	char *v;

	if (!*s || strncmp(*s, key, kl) || (*s)[kl] != '=')
		return NULL;
	v = *s + kl + 1;
	*s = cut(v);
	return v;
}

/* TRIGGER auto's fields, in their order; comm= is the rest of the line. */
static int parse_auto(char *s, struct tm_incident_auto *a)
{
	char *input = keyval(&s, "input"), *pid = keyval(&s, "pid");
	char *press = keyval(&s, "press_ns"), *lat = keyval(&s, "latency_ns");
	uint64_t v;
	size_t i;

	if (!input || (strcmp(input, "key") && strcmp(input, "button")))
		return -EINVAL;
	snprintf(a->input, sizeof(a->input), "%s", input);
	if (!pid || parse_u64(pid, 0x400000, &v))
		return -EINVAL;
	a->pid = (uint32_t)v;
	if (!press || parse_u64(press, UINT64_MAX, &a->press_ns) ||
	    !lat || parse_u64(lat, UINT64_MAX, &a->latency_ns))
		return -EINVAL;
	if (!s || strncmp(s, "comm=", 5) || strlen(s + 5) >= sizeof(a->comm))
		return -EINVAL;
	for (i = 5; s[i]; i++)
		if (s[i] < 0x20 || s[i] > 0x7e || s[i] == '"' || s[i] == '\\')
			return -EINVAL;
	memcpy(a->comm, s + 5, strlen(s + 5) + 1);
	return 0;
}

int tm_ctl_parse_request(char *line, struct tm_ctl_request *r, struct tm_err *e)
{
	char *arg = cut(line), *rest;
	uint64_t n;

	memset(r, 0, sizeof(*r));
	if (!strcmp(line, "TRIGGER")) {
		r->kind = TM_CTL_REQ_TRIGGER;
		rest = cut(arg);
		r->source = arg ? ctl_source_by_name(arg) : 0;
		if (!r->source)
			return tm_err_set(e, EINVAL, "usage: TRIGGER user|xhook|threshold [reason]");
		if (r->source == TIPME_TRIG_AUTO) {
			if (parse_auto(rest, &r->autotrig))
				return tm_err_set(e, EINVAL, "usage: TRIGGER auto input=key|button pid=N press_ns=T latency_ns=L comm=TEXT");
			return 0;
		}
		r->reason = rest && *rest ? rest : NULL;
		return 0;
	}
	if (!strcmp(line, "NOTE")) {
		r->kind = TM_CTL_REQ_NOTE;
		rest = cut(arg);
		if (!rest || !tm_ctl_name_ok(arg))
			return tm_err_set(e, EINVAL, "usage: NOTE <incident> <text>");
		r->incident = arg;
		r->text = rest;
		return 0;
	}
	if (!strcmp(line, "PUT")) {
		char *name = cut(arg), *bytes = cut(name);

		r->kind = TM_CTL_REQ_PUT;
		if (!bytes || !tm_ctl_name_ok(arg) || !tm_ctl_name_ok(name) ||
		    parse_u64(bytes, UINT64_MAX, &n))
			return tm_err_set(e, EINVAL, "usage: PUT <incident> <name> <bytes>");
		r->incident = arg;
		r->name = name;
		r->bytes = n;
		return 0;
	}
	if (!strcmp(line, "LIST") && !arg) {
		r->kind = TM_CTL_REQ_LIST;
		return 0;
	}
	if (!strcmp(line, "SUBSCRIBE") && !arg) {
		r->kind = TM_CTL_REQ_SUBSCRIBE;
		return 0;
	}
	if (!strcmp(line, "STATUS") && !arg) {
		r->kind = TM_CTL_REQ_STATUS;
		return 0;
	}
	return tm_err_set(e, EINVAL, "unknown request");
}

/* The value of " key=" in @line as a decimal number (all of it). */
static int key_u64(const char *line, const char *key, uint64_t *v)
{
	size_t kl = strlen(key);
	const char *p = line;
	char *end;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[kl] == '=') {
			p += kl + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			errno = 0;
			*v = strtoull(p, &end, 10);
			if (errno || (*end && *end != ' '))
				return -EINVAL;
			return 0;
		}
		p += kl;
	}
	return -EINVAL;
}

int tm_ctl_parse_triggered(const char *line, uint32_t *seq, uint64_t *mono_ns)
{
	uint64_t v;

	if (strncmp(line, "TRIGGERED ", 10) || key_u64(line + 10, "seq", &v) ||
	    !v || v > UINT32_MAX || key_u64(line + 10, "mono_ns", mono_ns))
		return -EINVAL;
	*seq = (uint32_t)v;
	return 0;
}

int tm_ctl_parse_incident(const char *line, uint32_t *seq, char *name,
		       size_t size)
{
	const char *p;
	size_t n;
	uint64_t v;

	if (strncmp(line, "INCIDENT ", 9) || key_u64(line + 9, "seq", &v) ||
	    !v || v > UINT32_MAX)
		return -EINVAL;
	p = strstr(line + 8, " name=");
	if (!p)
		return -EINVAL;
	p += 6;
	n = strcspn(p, " ");
	if (!n || n >= size)
		return -EINVAL;
	memcpy(name, p, n);
	name[n] = '\0';
	if (!tm_ctl_name_ok(name))
		return -EINVAL;
	*seq = (uint32_t)v;
	return 0;
}
