/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Run a command function (a pm_cmd_*) in this process with its stdout and
 * stderr captured into files, and read them back.
 */
#ifndef TIPME_TEST_CAPTURE_H
#define TIPME_TEST_CAPTURE_H

/**
 * capture_run() - call @fn(@argc, @argv) with stdout and stderr redirected
 * @fn: the command
 * @argc: arguments
 * @argv: NULL-terminated
 * @out_path: file that receives stdout (truncated first)
 * @err_path: file that receives stderr
 *
 * Return: what @fn returned.
 */
int capture_run(int (*fn)(int, char **), int argc, char **argv,
		const char *out_path, const char *err_path);

/* A file's contents as a NUL-terminated malloc'ed string ("" if unreadable). */
char *capture_slurp(const char *path);

/**
 * capture_cmd() - capture_run() of @fn with the words of @args
 * @fn: the command
 * @args: its words, space-separated (argv[0] first); the word DUMP stands
 *	for @dump
 * @dump: the dump's path
 * @dir: a scratch directory: its files "out" and "err" receive the output,
 *	and its path in the output becomes "DIR"
 * @ret: set to what @fn returned
 *
 * Return: the command's stdout, or its stderr when it failed (malloc'ed).
 */
char *capture_cmd(int (*fn)(int, char **), const char *args, const char *dump,
		  const char *dir, int *ret);

/**
 * capture_rmdir() - remove a scratch directory and the files left in it
 * @dir: the directory
 * @files: names of files in it, NULL-terminated (missing ones are fine)
 */
void capture_rmdir(const char *dir, const char *const *files);

#endif
