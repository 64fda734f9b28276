// SPDX-License-Identifier: GPL-2.0
/*
 * Failure injection for the load (see fault.h).  Every allocation and
 * registration that the load makes asks tipme_fail_step() first; with
 * fail_load_step=N the Nth one fails as if the kernel had refused it.
 * Loading with N = 1, 2, ... until the load succeeds visits every error
 * path.  The count stops when the load is done, so nothing fails later.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include "fault.h"

static unsigned int fail_load_step;
module_param(fail_load_step, uint, 0444);
MODULE_PARM_DESC(fail_load_step, "Debugging: the Nth allocation or registration of the load fails (0: none)");

static unsigned int steps;
static bool load_done;

/**
 * tipme_fail_step() - count one step of the load; fail it if asked to
 * @what: the step, for the kernel log
 *
 * Context: module init (steps are counted in one thread).
 * Return: true if the caller must fail this step as if it had run out of
 * memory or been refused.
 */
bool tipme_fail_step(const char *what)
{
	if (!fail_load_step || load_done)
		return false;
	if (++steps != fail_load_step)
		return false;
	pr_info("fail_load_step=%u: failing \"%s\"\n", fail_load_step, what);
	return true;
}

/**
 * tipme_fail_steps_done() - the load succeeded; stop counting
 *
 * Logs how many steps there were when fail_load_step was beyond them, so
 * a test knows it has visited every one.
 *
 * Context: module init, at its end.
 */
void tipme_fail_steps_done(void)
{
	if (fail_load_step > steps && !load_done)
		pr_info("fail_load_step=%u: the load has %u steps\n",
			fail_load_step, steps);
	load_done = true;
}
