// SPDX-License-Identifier: GPL-2.0
/*
 * The arrays after the fixed part of the variable-length records, read
 * here and nowhere else (tests/lint/tails.py keeps it so; records/ and
 * every layer above call these, and redact.c beside them): a blocked or
 * reclaim_begin record's return addresses, a sample's threads, a cost
 * record's entries.  Each holds as many elements as its count says and
 * its payload has whole, never more.
 */
#include <string.h>

#include "decode.h"
#include "tables.h"

/* The bytes after @ev's fixed part (the part this reader knows). */
static const unsigned char *tail(const struct pm_event *ev, size_t *rest)
{
	size_t n = ev->payload_len < ev->rt->our_size ? ev->payload_len :
		   ev->rt->our_size;

	*rest = ev->payload_len - n;
	return ev->payload + n;
}

/* @count elements of @size after the fixed part, as many as are whole. */
static size_t tail_array(const struct pm_event *ev, size_t count, size_t size,
			 const unsigned char **p)
{
	size_t rest;

	*p = tail(ev, &rest);
	return count < rest / size ? count : rest / size;
}

const unsigned char *pm_rec_addrs(const struct pm_event *ev, size_t *n)
{
	const unsigned char *p = NULL;

	switch (ev->type) {
	case TIPME_REC_BLOCKED:
		*n = tail_array(ev, ev->u.bl.nr, sizeof(uint32_t), &p);
		break;
	case TIPME_REC_RECLAIM_BEGIN:
		*n = tail_array(ev, ev->u.rb.nr, sizeof(uint32_t), &p);
		break;
	default:
		*n = 0;
		break;
	}
	return p;
}

size_t pm_rec_frames(const struct pm_dump *pm, const struct pm_event *ev,
		     uint64_t *out, size_t max)
{
	uint32_t ips[PM_FRAMES_MAX];
	const unsigned char *p;
	size_t i, n;

	p = pm_rec_addrs(ev, &n);
	if (n > PM_FRAMES_MAX)
		n = PM_FRAMES_MAX;
	for (i = 0; i < n; i++)
		memcpy(&ips[i], p + 4 * i, 4);
	return pm_site_frames(pm, ips, n, out, max);
}

size_t pm_sample_entries(const struct pm_event *ev, const unsigned char **p)
{
	return tail_array(ev, ev->u.sm.nr, sizeof(struct tipme_sample_ent), p);
}

size_t pm_cost_entries(const struct pm_event *ev, const unsigned char **p)
{
	return tail_array(ev, ev->u.co.nr, sizeof(struct tipme_cost_ent), p);
}
