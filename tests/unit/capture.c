// SPDX-License-Identifier: GPL-2.0
/* Run a command with its output captured (capture.h). */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "gen.h"

char *capture_slurp(const char *path)
{
	size_t n = 0;
	unsigned char *b = gen_read_file(path, &n);
	char *s = malloc(n + 1);

	if (!s)
		abort();
	if (b)
		memcpy(s, b, n);
	s[b ? n : 0] = '\0';
	free(b);
	return s;
}

int capture_run(int (*fn)(int, char **), int argc, char **argv,
		const char *out_path, const char *err_path)
{
	int so, se, fo, fe, ret;

	fflush(stdout);
	fflush(stderr);
	so = dup(1);
	se = dup(2);
	fo = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (so < 0 || se < 0 || fo < 0 || fe < 0)
		abort();
	dup2(fo, 1);
	dup2(fe, 2);
	ret = fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	close(fo);
	close(fe);
	return ret;
}

char *capture_in(int (*fn)(int, char **), int argc, char **argv, const char *dir,
		 int *ret)
{
	char out[PATH_MAX], err[PATH_MAX], *text, *p, *q;

	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	*ret = capture_run(fn, argc, argv, out, err);
	text = capture_slurp(*ret ? err : out);
	while (*dir && (p = strstr(text, dir))) {
		q = p + strlen(dir);
		memcpy(p, "DIR", 3);
		memmove(p + 3, q, strlen(q) + 1);
	}
	return text;
}

char *capture_words(int (*fn)(int, char **), const char *args, const char *dump,
		    const char *dir, int *ret)
{
	char buf[512], *argv[16], *tok, *save = NULL;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", args);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 15;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = strcmp(tok, "DUMP") ? tok : (char *)dump;
	argv[argc] = NULL;
	return capture_in(fn, argc, argv, dir, ret);
}

void capture_rmdir(const char *dir, const char *const *files)
{
	char p[256];

	for (; *files; files++) {
		snprintf(p, sizeof(p), "%s/%s", dir, *files);
		unlink(p);
	}
	rmdir(dir);
}
