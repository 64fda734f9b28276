// SPDX-License-Identifier: GPL-2.0
/*
 * An incident opened to its verdict (incident.h): the steps report,
 * export and timeline share, in the data path's order: the dump, the
 * state rebuilt from its records, the resources, the X dump, the interval
 * that matters and the verdict on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "incident.h"
#include "incident_meta.h"
#include "run.h"

/*
 * An auto incident's meta.json names the press that fired it: without a
 * --pid, that press is the interval.  A dump file, or an incident whose
 * meta.json cannot be read, has none (not an error: the dump decides).
 */
static int64_t auto_press(const char *path)
{
	struct incident_meta_view mv;
	struct tm_err e = { "" };
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int err;

	if (fd < 0)
		return 0;
	err = incident_meta_read(fd, &mv, &e);
	close(fd);
	if (err || !mv.has_auto || mv.auto_press_ns > INT64_MAX)
		return 0;
	return (int64_t)mv.auto_press_ns;
}

int pm_cmd_incident_open(const char *prog, const char *path,
			 const struct pm_interval_ask *asked,
			 struct pm_cmd_incident *inc)
{
	struct pm_interval_ask ask = *asked;
	struct tm_err e = { "" };
	int found;

	memset(inc, 0, sizeof(*inc));
	if (pm_cmd_open(prog, path, &inc->pm))
		return 1;
	if (pm_state_build(&inc->st, &inc->pm, &e) ||
	    pm_res_build(&inc->res, &inc->pm, &e)) {
		fprintf(stderr, "tipme %s: %s: %s\n", prog, path, e.msg);
		return 1;
	}
	inc->have_x = pm_cmd_load_x(prog, path, &inc->x, &inc->xbuf);
	if (inc->have_x < 0) {
		inc->have_x = 0;
		return 1;
	}
	if (!ask.pid)
		ask.press_ns = auto_press(path);
	found = pm_interval_choose(&inc->pm, &inc->st, &inc->res,
				   inc->have_x ? &inc->x : NULL, &ask, &inc->iv);
	if (found < 0) {
		fprintf(stderr, "tipme %s: out of memory\n", prog);
		return 1;
	}
	if (!found)
		return 0;
	if (pm_report_analyse(&inc->r, &inc->pm, &inc->st, &inc->res,
			      &inc->iv.x, inc->iv.pid, inc->iv.from_ns,
			      inc->iv.to_ns, &e)) {
		fprintf(stderr, "tipme %s: %s\n", prog, e.msg);
		return 1;
	}
	inc->r.chosen_by = inc->iv.chosen_by;
	inc->found = 1;
	return 0;
}

void pm_cmd_incident_close(struct pm_cmd_incident *inc)
{
	free(inc->xbuf);
	inc->xbuf = NULL;
	pm_report_free(&inc->r);
	pm_res_free(&inc->res);
	pm_state_free(&inc->st);
	pm_close(&inc->pm);
}
