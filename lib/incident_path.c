// SPDX-License-Identifier: GPL-2.0
/*
 * "tipme why --pid 42 /var/lib/tipme/incidents/X" reads X/kernel.dump: an
 * incident is one directory, so the analysis commands take it as well as
 * the file inside it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "incident_path.h"

int tm_incident_member(const char *path, const char *member, const char *what,
		    char **file, struct tm_err *e)
{
	struct stat st;
	char *full;
	size_t n;
	int err;

	*file = NULL;
	if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		/* Not a directory: the reader reports what is wrong with it. */
		*file = strdup(path);
		return *file ? 0 : tm_err_set(e, ENOMEM, "out of memory");
	}
	n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	if (asprintf(&full, "%.*s/%s", (int)n, path, member) < 0)
		return tm_err_set(e, ENOMEM, "out of memory");
	if (stat(full, &st) < 0) {
		err = errno;
		free(full);
		if (err == ENOENT)
			return tm_err_set(e, err,
					  "%s: a directory without %s: not an incident, or an incident without its %s",
					  path, member, what);
		return tm_err_set(e, err, "%s/%s: %s", path, member,
				  strerror(err));
	}
	*file = full;
	return 0;
}
