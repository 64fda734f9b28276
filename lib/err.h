/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error messages of library functions.  Library code never prints: it
 * returns a negative errno and, when given a struct tm_err, leaves a
 * human-readable sentence in it for main() to print.
 */
#ifndef TIPME_LIB_ERR_H
#define TIPME_LIB_ERR_H

#include <stddef.h>

#define TM_ERR_LEN 512

/**
 * struct tm_err - the message of the last error
 * @msg: NUL-terminated sentence without trailing newline ("" if none)
 */
struct tm_err {
	char msg[TM_ERR_LEN];
};

/**
 * tm_err_set() - record an error
 * @e: where to put the message; may be NULL
 * @errnum: positive errno value describing the error class
 * @fmt: printf format of the message
 *
 * Return: -@errnum, so callers can write "return tm_err_set(e, EINVAL, ...)".
 */
int tm_err_set(struct tm_err *e, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * tm_err_prefix() - put context in front of an existing message
 * @e: the error; may be NULL
 * @fmt: printf format of the prefix; ": " is inserted after it
 */
void tm_err_prefix(struct tm_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
