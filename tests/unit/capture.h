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
 * capture_in() - capture_run() with the output in @dir (files "out" and
 *		  "err"), read back with @dir written "DIR" (golden files
 *		  must not name a temporary directory)
 * @fn: the command
 * @argc: arguments
 * @argv: NULL-terminated
 * @dir: the test's temporary directory
 * @ret: set to what @fn returned
 *
 * Return: stdout when @fn returned 0, else stderr (malloc'ed).
 */
char *capture_in(int (*fn)(int, char **), int argc, char **argv, const char *dir,
		 int *ret);

/**
 * capture_words() - capture_run() of a command line given as words
 * @fn: the command
 * @args: its words, split at spaces (at most 15); the word DUMP is @dump
 * @dump: the dump's path
 * @dir: the folder of the output files (@dir/out, @dir/err)
 * @ret: set to what @fn returned
 *
 * Return: its stdout, or its stderr when it failed (capture_slurp()),
 * with @dir written as "DIR" (the scratch folder changes from run to run).
 */
char *capture_words(int (*fn)(int, char **), const char *args, const char *dump,
		    const char *dir, int *ret);

/**
 * capture_rmdir() - remove a scratch directory and the files left in it
 * @dir: the directory
 * @files: names of files in it, NULL-terminated (missing ones are fine)
 */
void capture_rmdir(const char *dir, const char *const *files);

#endif
