// SPDX-License-Identifier: GPL-2.0
/*
 * Display probes: DRM's vblank events (drm_vblank_event,
 * drm_vblank_event_queued, drm_vblank_event_delivered).
 *
 * These tracepoints live in drm.ko, a module that may load after tipme.ko,
 * unload before it, or never load.  for_each_kernel_tracepoint() sees only
 * the core kernel's tracepoints, so the probes are attached from the
 * tracepoint module notifier: it tells of drm.ko when it comes (and, when
 * the notifier is registered, of every module already loaded) and when it
 * goes, before its tracepoints disappear.  The state of each probe (no
 * drm.ko yet, attached, or missing from this drm.ko) is in the dump's
 * parameters and tipme status.
 *
 * drm_trace.h is private to drivers/gpu/drm (not in the headers packages),
 * so the probes' prototypes cannot be checked against the kernel's at
 * build time as TIPME_PROBE() does: they are those of Debian 12's 6.1
 * sources, the same in upstream's current drm_trace.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <drm/drm_file.h>
#include "compat.h"
#include "recorder.h"
#include "control/autotrig.h"
#include "instr/cost.h"
#include "probes/ctx.h"
#include "probes/display.h"
#include "probes/work.h"

/* The module that holds DRM's tracepoints. */
#define DRM_MODULE	"drm"

/* A DRM file's identity in the records: a hash of its address. */
static u32 file_id(const struct drm_file *file)
{
	return hash_ptr(file, 32);
}

static void probe_drm_vblank_event(void *data, int crtc, unsigned int seq,
				   ktime_t time, bool high_prec)
{
	u64 t0 = tipme_cost_now();
	struct tipme_rec_vblank *r;
	struct tipme_wslot ws;
	u64 ns = ktime_to_ns(time);

	r = tipme_reserve(TIPME_REC_VBLANK, sizeof(*r), &ws);
	if (!r)
		return;
	r->seq = seq;
	r->time_lo = (u32)ns;
	r->time_hi = (u32)(ns >> 32);
	r->crtc = (u16)crtc;
	r->flags = high_prec ? TIPME_VBLANK_HIGH_PREC : 0;
	r->reserved = 0;
	tipme_commit(&ws, TIPME_REC_VBLANK);
	tipme_cost_add(TIPME_REC_VBLANK, t0);
}

static void vblank_ev_record(u32 type, struct drm_file *file, int crtc,
			     unsigned int seq)
{
	u64 t0 = tipme_cost_now();
	u32 ctx = tipme_ctx_now();
	struct tipme_rec_vblank_ev *r;
	struct tipme_wslot ws;
	u32 owner;

	if (ctx != TIPME_CTX_TASK)
		tipme_intr_tell(ctx);
	owner = file ? tipme_drm_file_owner(file) : 0;
	r = tipme_reserve(type, sizeof(*r), &ws);
	if (!r)
		return;
	r->seq = seq;
	r->file = file_id(file);
	r->who = tipme_work_who(current->pid, ctx);
	r->owner = owner;
	r->crtc = (u16)crtc;
	r->reserved = 0;
	tipme_commit(&ws, type);
	tipme_cost_add(type, t0);
}

static void probe_drm_vblank_event_queued(void *data, struct drm_file *file,
					  int crtc, unsigned int seq)
{
	vblank_ev_record(TIPME_REC_VBLANK_QUEUED, file, crtc, seq);
	tipme_auto_vblank_queue();
}

static void probe_drm_vblank_event_delivered(void *data, struct drm_file *file,
					     int crtc, unsigned int seq)
{
	vblank_ev_record(TIPME_REC_VBLANK_DELIVERED, file, crtc, seq);
	tipme_auto_flip(file ? file_id(file) : 0, crtc);
}

/**
 * struct drm_probe - one probe on a tracepoint of drm.ko
 * @name: the tracepoint
 * @func: the probe
 * @tp: the tracepoint while attached
 * @state: enum tipme_tp_state
 */
struct drm_probe {
	const char *name;
	void *func;
	struct tracepoint *tp;
	int state;
};

/* The probe whose events are flips' completions (the auto trigger's end). */
#define DRM_PROBE_DELIVERED	2

static struct drm_probe drm_probes[] = {
	{ "drm_vblank_event", probe_drm_vblank_event },
	{ "drm_vblank_event_queued", probe_drm_vblank_event_queued },
	[DRM_PROBE_DELIVERED] = { "drm_vblank_event_delivered",
				  probe_drm_vblank_event_delivered },
};

/* Serialises the probes' state: the notifier against the parameters' text. */
static DEFINE_MUTEX(drm_lock);
static bool drm_enabled;

static void drm_attach(struct module *mod)
{
	unsigned int i, j;
	int err;

	for (j = 0; j < ARRAY_SIZE(drm_probes); j++)
		drm_probes[j].state = TIPME_TP_ABSENT;
	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tp = tipme_tp_deref(&mod->tracepoints_ptrs[i]);

		for (j = 0; j < ARRAY_SIZE(drm_probes); j++) {
			struct drm_probe *p = &drm_probes[j];

			if (p->tp || strcmp(tp->name, p->name))
				continue;
			err = tracepoint_probe_register(tp, p->func, NULL);
			if (err) {
				pr_warn("cannot attach to %s: %d\n", p->name, err);
				p->state = TIPME_TP_FAILED;
				continue;
			}
			p->tp = tp;
			p->state = TIPME_TP_ATTACHED;
		}
	}
	for (j = 0; j < ARRAY_SIZE(drm_probes); j++)
		if (drm_probes[j].state == TIPME_TP_ABSENT)
			pr_info("%s not in this drm.ko: no records of it\n",
				drm_probes[j].name);
	tipme_auto_flips_seen(drm_probes[DRM_PROBE_DELIVERED].state ==
			      TIPME_TP_ATTACHED);
}

static void drm_detach(void)
{
	bool any = false;
	size_t j;

	tipme_auto_flips_seen(false);
	for (j = 0; j < ARRAY_SIZE(drm_probes); j++) {
		struct drm_probe *p = &drm_probes[j];

		if (p->tp) {
			tracepoint_probe_unregister(p->tp, p->func, NULL);
			any = true;
		}
		p->tp = NULL;
		p->state = TIPME_TP_NO_MODULE;
	}
	if (any)
		tracepoint_synchronize_unregister();
}

/*
 * Called with the kernel's tracepoint module list locked, for a module
 * coming (after its tracepoints are set up) or going (before they are
 * torn down: a probe left attached would trip the kernel's check).
 */
static int drm_tp_notify(struct notifier_block *nb, unsigned long val,
			 void *data)
{
	struct tp_module *tp_mod = data;

	if (strcmp(tp_mod->mod->name, DRM_MODULE))
		return NOTIFY_OK;
	mutex_lock(&drm_lock);
	if (val == MODULE_STATE_COMING)
		drm_attach(tp_mod->mod);
	else if (val == MODULE_STATE_GOING)
		drm_detach();
	mutex_unlock(&drm_lock);
	return NOTIFY_OK;
}

static struct notifier_block drm_tp_nb = {
	.notifier_call = drm_tp_notify,
};

/**
 * tipme_drm_init() - attach to drm.ko's tracepoints now and whenever it loads
 * @enabled: the module parameter asking for them
 *
 * Never fails the load: a kernel whose drm.ko lacks the tracepoints, or
 * has no drm.ko, leaves them unattached and says so in the parameters.
 *
 * Context: process context (module init).
 */
void tipme_drm_init(bool enabled)
{
	size_t j;
	int err;

	for (j = 0; j < ARRAY_SIZE(drm_probes); j++)
		drm_probes[j].state = enabled ? TIPME_TP_NO_MODULE : TIPME_TP_OFF;
	if (!enabled)
		return;
	err = register_tracepoint_module_notifier(&drm_tp_nb);
	if (err) {
		pr_warn("no module tracepoint notifier (%d): no display records\n",
			err);
		for (j = 0; j < ARRAY_SIZE(drm_probes); j++)
			drm_probes[j].state = TIPME_TP_FAILED;
		return;
	}
	drm_enabled = true;
}

/**
 * tipme_drm_exit() - undo tipme_drm_init()
 *
 * Unregistering the notifier tells it of drm.ko going, which detaches.
 *
 * Context: process context (module exit).
 */
void tipme_drm_exit(void)
{
	if (!drm_enabled)
		return;
	unregister_tracepoint_module_notifier(&drm_tp_nb);
	mutex_lock(&drm_lock);
	drm_detach();
	mutex_unlock(&drm_lock);
	drm_enabled = false;
}

/**
 * tipme_drm_params_text() - "tp.NAME=STATE\n" lines of the DRM probes
 * @buf: destination
 * @size: its size
 *
 * Context: process context.
 * Return: length written, as scnprintf().
 */
int tipme_drm_params_text(char *buf, size_t size)
{
	int n = 0;
	size_t j;

	mutex_lock(&drm_lock);
	for (j = 0; j < ARRAY_SIZE(drm_probes); j++)
		n += scnprintf(buf + n, size - n, "tp.%s=%s\n",
			       drm_probes[j].name,
			       tipme_tp_state_name(drm_probes[j].state));
	mutex_unlock(&drm_lock);
	return n;
}
