/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tipmed: the daemon's state, one struct tipmed handed to each function of
 * tipmed.c (main() fills in the options, sets it up, runs the poll loop
 * and tears it down).  Two jobs share it: turning tipme.ko's triggers into
 * incidents (tipmed.c), and the control socket (struct ctlserver,
 * ctlserver.c), which reaches the module and the auto-incident budget only
 * through the callbacks tipmed.c hands it.  What passes between the two
 * jobs is here: the reasons and presses a TRIGGER request leaves for its
 * incident, and the latest incident, which a coalesced request joins.
 */
#ifndef TIPME_HELPER_TIPMED_H
#define TIPME_HELPER_TIPMED_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "ctlproto.h"
#include "ctlserver.h"
#include "incident.h"
#include "incident_meta.h"
#include "indexer.h"
#include "nl.h"
#include "sysinfo.h"

#define TIPMED_PENDING	16	/* triggers read from the module at once */
#define TIPMED_HANDOFFS	8	/* reasons, presses waiting for their incident */
#define TIPMED_AUTO_UIDS 16	/* users whose auto budgets are kept apart */

/**
 * struct tipmed_env - the command-line options
 * @cfg: where incidents go and how many are kept (-d, -k, -m); its @syms
 *	is struct tipmed's @syms once started
 * @sock_path: the control socket (-s)
 * @group: the group allowed on it besides root (-g)
 * @idle_s: close a connection silent for this many seconds (-i)
 * @auto_spacing_s: at most one auto incident in this many seconds
 * @auto_per_day: ... and this many in 24 hours
 * @once: --once: dump into @output and exit
 * @output: --once's file (-o)
 * @index_min_mib: index an incident whose dump holds this many MiB of
 *	records or more (--index-min-mib; struct indexer), -1 never (--no-index)
 */
struct tipmed_env {
	struct incident_cfg cfg;
	const char *sock_path;
	const char *group;
	unsigned int idle_s;
	unsigned int auto_spacing_s;
	unsigned int auto_per_day;
	int once;
	const char *output;
	long index_min_mib;
};

/**
 * struct tipmed_budget - one auto budget: spacing and count per 24 hours
 * @last: CLOCK_MONOTONIC seconds of the last one let through
 * @day_start: when the current 24 hours began
 * @today: let through in them
 * @used: one was let through (@last means something)
 */
struct tipmed_budget {
	time_t last, day_start;
	unsigned int today;
	int used;
};

/**
 * struct tipmed_autos - auto incidents (TRIGGER auto, or tipme.ko's own
 * auto trigger): the budgets and the counts STATUS reports
 * @kernel: the budget of tipme.ko's own auto triggers
 * @uids: one budget per user asking with TRIGGER auto (a client's claims
 *	never spend the kernel's or another user's); when full, the entries
 *	are reused in turn
 * @uids_next: the entry of @uids reused next
 * @made: let through since tipmed started
 * @held: held back since tipmed started
 */
struct tipmed_autos {
	struct tipmed_budget kernel;
	struct {
		uid_t uid;
		int used;
		struct tipmed_budget b;
	} uids[TIPMED_AUTO_UIDS];
	unsigned int uids_next;
	uint64_t made, held;
};

/**
 * struct tipmed - the daemon
 * @env: the options
 * @journal: stderr is the journal's (JOURNAL_STREAM): each log line starts
 *	with its priority, "<N>"
 * @syms: the kernel's symbols, kept between incidents (@env.cfg.syms)
 * @cmd: the command connection to tipme.ko (dumps, TRIGGER requests)
 * @events: the connection to its multicast group: the triggers
 * @connected: @cmd and @events are open; 0 while the module is away
 * @pending: triggers read from @events, not yet turned into incidents
 * @npending: how many
 * @given_up: the newest trigger that gets no dump (held back, lost, or its
 *	dump failed), whose frozen window is released once the pending
 *	triggers are handled; 0: none
 * @reasons: TRIGGER requests, each waiting for its trigger's incident:
 *	who asked (meta.json) and the reason given (its description.txt;
 *	"" for none)
 * @reasons_next: the entry of @reasons reused next
 * @presses: the presses behind TRIGGER auto requests, each waiting for its
 *	trigger's incident (its meta.json)
 * @presses_next: the entry of @presses reused next
 * @autos: the auto incidents' budget and counts
 * @last_seq: the trigger of the latest incident: a reason that arrives
 *	with a request coalesced into it goes straight into...
 * @last_name: ... the latest incident's directory
 * @srv: the control socket and its clients
 */
struct tipmed {
	struct tipmed_env env;
	int journal;
	struct symcache syms;

	struct tnl cmd, events;
	int connected;
	struct tnl_trigger_event pending[TIPMED_PENDING];
	int npending;
	uint32_t given_up;

	struct {
		uint32_t seq;
		uid_t uid;
		char text[TIPME_CTL_LINE_MAX];
	} reasons[TIPMED_HANDOFFS];
	unsigned int reasons_next;
	struct {
		uint32_t seq;
		struct tm_incident_auto a;
	} presses[TIPMED_HANDOFFS];
	unsigned int presses_next;
	struct tipmed_autos autos;
	uint32_t last_seq;
	char last_name[128];

	struct ctlserver srv;
	struct indexer ix;
};

#endif
