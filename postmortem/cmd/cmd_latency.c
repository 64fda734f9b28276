// SPDX-License-Identifier: GPL-2.0
/* tipme latency: every press of an incident (analysis/latency.h). */
#include <stdio.h>
#include <stdlib.h>

#include "xdumpfile.h"
#include "../analysis/kinput.h"
#include "../dump/tables.h"
#include "../print/latency.h"
#include "commands.h"
#include "run.h"

static const char usage_text[] =
	"usage: tipme latency [--min-ms MS] [--comm NAME | --window-title TEXT] [--json]\n"
	"                     INCIDENT\n"
	"  How long each key and button press of an incident took to handle:\n"
	"  from the X server's device event until the client that received it\n"
	"  waited for input again (its thread blocked in poll/select/epoll with\n"
	"  no reply on the way), and how that time split into running, waiting\n"
	"  for a CPU and blocked (the longest block named), from both dumps of\n"
	"  the incident: xhook.dump (tipme-xhook) and kernel.dump.  Without an X\n"
	"  dump: every key and button press the kernel saw, through the reader\n"
	"  of the event device (a compositor), the client it woke, the client's\n"
	"  commit and the compositor's page flip, to the refresh that showed it,\n"
	"  in stages, each with its thread.  Times are CLOCK_MONOTONIC seconds.\n"
	"  -m, --min-ms MS   only presses that took at least MS ms\n"
	"  -j, --json        one JSON object\n"
	"  With --comm or --window-title, only the presses that process received:\n"
	PM_CMD_WHO_USAGE
	"EXAMPLES\n"
	"  tipme latency /var/lib/tipme/incidents/20240501T123456Z-7\n"
	"  tipme latency --min-ms 100 --json INCIDENT\n";

/* Is @a a thread of @b's process (0: no)? */
static int same_process(const struct pm_incident *inc, uint32_t a, uint32_t b)
{
	const struct pm_exec *x = a ? pm_exec_at(&inc->pm, a, 0) : NULL;
	const struct pm_exec *y = pm_exec_at(&inc->pm, b, 0);

	return a && (a == b || (x ? x->x.tgid : a) == (y ? y->x.tgid : b));
}

static void usage(FILE *f, const char *prog)
{
	(void)prog;
	fputs(usage_text, f);
}

int pm_cmd_latency(int argc, char **argv)
{
	double min_ms = 0;
	struct pm_cmd_who who = { NULL, NULL };
	const struct pm_cmd_opt opts[] = {
		{ "min-ms", 'm', &min_ms, NULL, NULL },
		PM_CMD_WHO_OPTS(who),
	};
	uint32_t pid = 0;
	struct pm_latency lat = { 0 };
	struct pm_press_path *kp = NULL;
	size_t nkp = 0, i, k;
	struct pm_state st = { 0 };
	struct pm_res res = { 0 };
	struct pm_incident inc;
	struct tm_err e;
	int json, ret = 1;
	struct tm_jw w;

	ret = pm_cmd_parse("latency", usage, argc, argv, opts, 1 + PM_CMD_WHO_NOPTS, &json);
	if (ret < 0 && optind + 1 != argc) {
		usage(stderr, "latency");
		ret = 2;
	}
	if (ret >= 0)
		return ret;
	ret = 1;
	if (pm_cmd_open("latency", argv[optind], 0, &inc))
		return 1;
	if (pm_cmd_who_given(&who) && pm_cmd_who("latency", &inc, &who, &pid))
		goto out;
	if (pm_state_build(&st, &inc, &e) || pm_res_build(&res, &inc, &e)) {
		fprintf(stderr, "tipme latency: %s\n", e.msg);
		goto out;
	}
	if (!inc.have_x) {
		if (pm_kernel_presses(&inc, &st, &res, &kp, &nkp)) {
			fprintf(stderr, "tipme latency: out of memory\n");
			goto out;
		}
		/* --comm: the presses whose compositor or client it is */
		for (i = k = 0; pid && i < nkp; i++)
			if (same_process(&inc, kp[i].reader, pid) ||
			    same_process(&inc, kp[i].client, pid))
				kp[k++] = kp[i];
		nkp = pid ? k : nkp;
		if (json) {
			tm_jw_init(&w, stdout, TM_JW_PRETTY);
			pm_presses_json(&w, &inc, kp, nkp, (int64_t)(min_ms * 1e6));
			tm_jw_finish(&w);
		} else {
			pm_presses_print(stdout, &inc, kp, nkp, argv[optind],
					 (int64_t)(min_ms * 1e6));
		}
		ret = pm_cmd_finish("latency");
		goto out;
	}
	if (pm_latency_analyse(&inc, &st, &res, &lat)) {
		fprintf(stderr, "tipme latency: out of memory\n");
		goto out;
	}
	if (pid)
		pm_latency_only(&lat, &inc.pm, pid);
	if (json) {
		tm_jw_init(&w, stdout, TM_JW_PRETTY);
		pm_latency_json(&w, &inc, &lat, (int64_t)(min_ms * 1e6));
		tm_jw_finish(&w);
	} else {
		pm_latency_print(stdout, &inc, &lat, argv[optind], (int64_t)(min_ms * 1e6));
	}
	ret = pm_cmd_finish("latency");
out:
	free(kp);
	pm_latency_free(&lat);
	pm_res_free(&res);
	pm_state_free(&st);
	pm_incident_close(&inc);
	return ret;
}
