/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tipmed's indexer: `tipme index` on each new incident whose dump is
 * large, in a child at idle priority (CPU and I/O), so that the user's
 * first report, why or timeline on it reads only the interval it needs
 * (DUMP.ckpt, Documentation/report.md).  One child at a time; while it
 * runs, the newest incident waiting is remembered (an older one left
 * waiting is skipped: the first command on it makes its own file).
 */
#ifndef TIPME_HELPER_INDEXER_H
#define TIPME_HELPER_INDEXER_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/**
 * struct indexer - the child and what waits for it
 * @tipme: the CLI to run ("tipme" beside tipmed's own executable, else
 *	the first on $PATH)
 * @pid: the child running, 0 if none
 * @started: its CLOCK_MONOTONIC start, seconds
 * @dir: the incident it indexes
 * @next: the incident waiting, "" if none
 */
struct indexer {
	char tipme[PATH_MAX];
	pid_t pid;
	double started;
	char dir[PATH_MAX];
	char next[PATH_MAX];
};

/* indexer_init() - find the CLI: @self_exe's folder's tipme, else "tipme" */
void indexer_init(struct indexer *ix, const char *self_exe);

/**
 * indexer_add() - index incident @dir, now or after the child running
 * @ix: the indexer
 * @dir: the incident's directory
 *
 * Return: 0, or a negative errno (fork failed) with @dir dropped.
 */
int indexer_add(struct indexer *ix, const char *dir);

/**
 * indexer_reap() - collect a child that ended, start the one waiting
 * @ix: the indexer
 * @log: called with a line on each child's end (how it went, how long)
 * @arg: passed to @log
 */
void indexer_reap(struct indexer *ix, void (*log)(void *arg, int failed, const char *msg),
		  void *arg);

#endif
