/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Xprof's question for an interval: what the X server was doing for whom.
 * From the X dump: per client, its requests (count, bytes, Xprof's op size)
 * and round trips (a request to its reply, i.e. the client waiting on the
 * server); per request type the same.  From the kernel dump, when there is
 * one: how long the server's thread ran in the interval, split among the
 * clients in proportion to the server time their requests took (each
 * request's time: until the server's next recorded element, capped).
 *
 * X stamps its records in whole milliseconds, so one request's time is
 * coarse; sums over many requests are what these tables are for.
 */
#ifndef TIPME_PM_ANALYSIS_XPROF_H
#define TIPME_PM_ANALYSIS_XPROF_H

#include <stddef.h>
#include <stdint.h>

#include "../state/state.h"

struct tm_xdump;

/**
 * struct pm_xprof_req - one request type (or one client's use of it)
 * @name: the request's name ("PolyFillRectangle", "RENDER:23")
 * @count: requests
 * @bytes: their bytes
 * @op_size: their size in Xprof's sense (pixels, characters, points ...)
 * @server_ns: server time their requests took (see above)
 */
struct pm_xprof_req {
	char name[64];
	uint64_t count, bytes, op_size;
	int64_t server_ns;
};

/**
 * struct pm_xprof_client - what one client asked of the server
 * @id: its id in the X dump
 * @pid: its process (0 if unknown)
 * @comm: its command name
 * @requests: requests in the interval
 * @bytes: their bytes
 * @server_ns: server time its requests took
 * @server_run_ns: its share of the server thread's running time (0 without
 *	a kernel dump)
 * @round_trips: replies it waited for
 * @rt_ns: the time from those requests to their replies, summed
 * @rt_max_ns: the longest
 */
struct pm_xprof_client {
	uint32_t id, pid;
	char comm[16];
	uint64_t requests, bytes;
	int64_t server_ns, server_run_ns;
	uint64_t round_trips;
	int64_t rt_ns, rt_max_ns;
};

/**
 * struct pm_xprof - the tables for one interval
 * @from_ns: start (CLOCK_MONOTONIC)
 * @to_ns: end
 * @server_pid: the X server's PID (0 if the X dump does not know it)
 * @server_run_ns: how long it ran in the interval (-1 without a kernel
 *	dump or its thread)
 * @clients: by server time, largest first
 * @nclients: how many
 * @reqs: request types, by server time, largest first
 * @nreqs: how many
 */
struct pm_xprof {
	int64_t from_ns, to_ns;
	uint32_t server_pid;
	int64_t server_run_ns;
	struct pm_xprof_client *clients;
	size_t nclients;
	struct pm_xprof_req *reqs;
	size_t nreqs;
};

int pm_xprof_analyse(const struct tm_xdump *x,
		     const struct pm_state *st, int64_t from_ns, int64_t to_ns,
		     struct pm_xprof *out);
void pm_xprof_free(struct pm_xprof *p);
uint32_t pm_xserver_pid(const struct tm_xdump *x);

#endif
