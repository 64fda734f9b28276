// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a kernel dump through every analysis command that
 * reads one (info, records, ps, cost, why, report; text and JSON), the
 * Perfetto export, the timeline and legs, the way root's
 * `tipme` would run them on a dump from a bug report.  The mutator fixes
 * the checksums after each mutation so that changes get past them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "dump_fix.h"
#include "dump/pm.h"
#include "dump/clock.h"
#include "print/legs.h"
#include "print/perfetto.h"
#include "print/timeline.h"
#include "state/resources.h"
#include "state/state.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the commands print their results: keep them off the terminal */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
			       unsigned int seed)
{
	(void)seed;
	size = LLVMFuzzerMutate(data, size, max);
	fuzz_kdump_fix(data, size);
	return size;
}

static void run(int (*cmd)(int, char **), const char *a0, const char *a1,
		const char *a2, const char *a3, const char *path)
{
	char *argv[6];
	int argc = 0;

	argv[argc++] = (char *)a0;
	if (a1)
		argv[argc++] = (char *)a1;
	if (a2)
		argv[argc++] = (char *)a2;
	if (a3)
		argv[argc++] = (char *)a3;
	argv[argc++] = (char *)path;
	argv[argc] = NULL;
	cmd(argc, argv);
	fflush(stdout);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tm_err e = { "" };
	struct pm_incident inc;
	struct pm_state st;
	char path[64], pid[24] = "1";
	int fd;

	fd = memfd_create("kdump", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	if (size && write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	/* a pid the dump knows, for why; and the Perfetto export (tipme
	 * export writes a file, with fsync: too slow per input, so its writer
	 * is called here, to stdout, which is /dev/null) */
	if (!pm_incident_open_mem(&inc, data, size, 0, &e)) {
		if (!pm_state_build(&st, &inc, &e)) {
			struct pm_perfetto_stats ps;
			struct pm_res res;

			if (st.nthreads)
				snprintf(pid, sizeof(pid), "%u",
					 st.threads[st.nthreads / 2].pid);
			if (!pm_res_build(&res, &inc, &e)) {
				struct pm_perfetto_in in = { .inc = &inc, .st = &st, .res = &res };
				struct pm_legs_view lv = { .from = PM_LEG_WAKING,
							   .to = PM_LEG_SWITCH_IN, .log2 = 1,
							   .buckets = 40, .top = 5 };
				uint32_t lanes[3];
				struct pm_timeline_in ti = {
					.inc = &inc, .st = &st, .res = &res, .pids = lanes,
					.from_ns = st.first_ns,
					.to_ns = st.last_ns + 1,
					.title = "fuzz",
				};
				struct pm_timeline_stats ts;
				struct pm_legs lg;

				pm_perfetto_write(stdout, &in, &ps, &e);
				for (ti.npids = 0; ti.npids < 3 && ti.npids < st.nthreads; ti.npids++)
					lanes[ti.npids] = st.threads[ti.npids].pid;
				pm_timeline_svg(stdout, &ti, &ts);
				if (!pm_legs_find(&inc, &st, &res, lv.from, lv.to, INT64_MIN,
						  INT64_MAX, &lg, &e)) {
					pm_legs_print(stdout, &inc, &st, &lg, &lv, 1);
					pm_legs_free(&lg);
				}
				fflush(stdout);
				pm_res_free(&res);
			}
			pm_state_free(&st);
		}
	}
	pm_incident_close(&inc);

	run(pm_cmd_info, "info", NULL, NULL, NULL, path);
	run(pm_cmd_info, "info", "--json", NULL, NULL, path);
	run(pm_cmd_records, "records", NULL, NULL, NULL, path);
	run(pm_cmd_records, "records", "--json", NULL, NULL, path);
	run(pm_cmd_ps, "ps", NULL, NULL, NULL, path);
	run(pm_cmd_ps, "ps", "--json", NULL, NULL, path);
	run(pm_cmd_cost, "cost", NULL, NULL, NULL, path);
	run(pm_cmd_cost, "cost", "--json", NULL, NULL, path);
	run(pm_cmd_why, "why", "--pid", pid, NULL, path);
	run(pm_cmd_why, "why", "--json", "--pid", pid, path);
	run(pm_cmd_report, "report", "--pid", pid, NULL, path);
	run(pm_cmd_report, "report", "--json", NULL, NULL, path);
	close(fd);
	return 0;
}
