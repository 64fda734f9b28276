/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Incident directories: one per trigger, under a root such as
 * /var/lib/tipme/incidents/<UTC time>-<seq>/, holding kernel.dump,
 * meta.json, and whatever is handed in later (xhook.dump,
 * description.txt).  An incident is built in a hidden ".tmp-" directory
 * and renamed into place complete.
 */
#ifndef TIPME_HELPER_INCIDENT_H
#define TIPME_HELPER_INCIDENT_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "incident_meta.h"
#include "nl.h"

/**
 * struct incident_cfg - where incidents go and how many are kept
 * @root: directory holding the incidents
 * @keep: keep at most this many (0: no limit)
 * @max_bytes: keep at most this many bytes in all (0: no limit)
 * @syms: kernel symbol cache kept between incidents, or NULL
 */
struct incident_cfg {
	const char *root;
	unsigned int keep;
	uint64_t max_bytes;
	struct symcache *syms;
};

int incident_root_init(const struct incident_cfg *cfg, struct tm_err *e);
int incident_create(const struct incident_cfg *cfg, struct tnl *t,
		    const struct tnl_trigger_event *ev, const char *reason,
		    const struct tm_incident_auto *au, int64_t requester,
		    char *name, size_t name_len, struct tnl_dump_stats *ds,
		    struct tm_err *e);
int incident_prune(const struct incident_cfg *cfg, unsigned int *removed,
		   struct tm_err *e);
int incident_make_room(const struct incident_cfg *cfg, char *removed,
		       struct tm_err *e);
int incident_put(const struct incident_cfg *cfg, const char *incident,
		 const char *file, const void *data, size_t len, int replace,
		 struct tm_err *e);
int incident_hand_in(const struct incident_cfg *cfg, const char *incident,
		     const struct tm_incident_handin *h, const void *data,
		     size_t len, struct tm_err *e);
int incident_list(const char *root, char ***names, size_t *n,
		  struct tm_err *e);
void incident_list_free(char **names, size_t n);

#endif
