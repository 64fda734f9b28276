// SPDX-License-Identifier: GPL-2.0
/*
 * Attach and detach probe tables.  Tracepoints are looked up by name with
 * for_each_kernel_tracepoint() because their symbols are not exported.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/string.h>
#include "fault.h"
#include "probes/tracepoints.h"

struct lookup {
	struct tipme_probe *probes;
	size_t n;
};

static void match_tracepoint(struct tracepoint *tp, void *priv)
{
	struct lookup *l = priv;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!l->probes[i].tp && !strcmp(tp->name, l->probes[i].name))
			l->probes[i].tp = tp;
}

/**
 * tipme_probes_attach() - find and attach every probe of a table
 * @probes: the table
 * @n: its entries
 *
 * All or nothing: on failure the probes attached so far are detached.
 *
 * Context: process context, may sleep.
 * Return: 0, -ENOENT if a tracepoint does not exist in this kernel, or the
 * error of tracepoint_probe_register().
 */
int tipme_probes_attach(struct tipme_probe *probes, size_t n)
{
	struct lookup l = { .probes = probes, .n = n };
	size_t i;
	int err;

	for_each_kernel_tracepoint(match_tracepoint, &l);
	for (i = 0; i < n; i++) {
		if (!probes[i].tp) {
			pr_err("tracepoint %s not found in this kernel\n",
			       probes[i].name);
			err = -ENOENT;
			goto out_detach;
		}
		err = tipme_fail_step(probes[i].name) ? -ENOMEM :
		      tracepoint_probe_register(probes[i].tp, probes[i].func,
						NULL);
		if (err) {
			pr_err("cannot attach to %s: %d\n", probes[i].name, err);
			goto out_detach;
		}
		probes[i].attached = true;
	}
	return 0;

out_detach:
	tipme_probes_detach(probes, n);
	return err;
}

/**
 * tipme_probes_attach_found() - attach every probe whose tracepoint exists
 * @probes: the table
 * @n: its entries
 *
 * For optional tracepoints, each on its own: one this kernel lacks (tp
 * stays NULL) or that fails to attach is left out, the others are
 * attached.  Each entry's @attached says which.
 *
 * Context: process context, may sleep.
 */
void tipme_probes_attach_found(struct tipme_probe *probes, size_t n)
{
	struct lookup l = { .probes = probes, .n = n };
	size_t i;
	int err;

	for_each_kernel_tracepoint(match_tracepoint, &l);
	for (i = 0; i < n; i++) {
		if (!probes[i].tp)
			continue;
		err = tracepoint_probe_register(probes[i].tp, probes[i].func,
						NULL);
		if (err) {
			pr_warn("cannot attach to %s: %d\n", probes[i].name, err);
			continue;
		}
		probes[i].attached = true;
	}
}

/**
 * tipme_probes_detach() - detach every attached probe of a table
 * @probes: the table
 * @n: its entries
 *
 * Waits until no probe of the table runs any more: afterwards the data
 * they write may be freed.
 *
 * Context: process context, may sleep.
 */
void tipme_probes_detach(struct tipme_probe *probes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (probes[i].attached)
			tracepoint_probe_unregister(probes[i].tp,
						    probes[i].func, NULL);
		probes[i].attached = false;
		probes[i].tp = NULL;
	}
	tracepoint_synchronize_unregister();
}
