// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite tipme_autotrig: the module's auto trigger (control/autotrig.c,
 * included here for its static state) replayed through its probe entry
 * points with made-up tasks: a compositor (the reader, 500) and its client
 * (600), and a third process (700: the virtual keyboard's writer).  A task "acts" (is the waker, queues work) by lending its pid and
 * TGID to the test's thread for the call; the probes' context (interrupts
 * off) is recreated around each call.
 */
#include "control/autotrig.c"
#include <kunit/test.h>
#include <linux/input.h>
#include <linux/irqflags.h>

/* What control/trigger.c and control/handle.c would give the module. */
u32 tipme_trigger_auto(const struct tipme_trigger_press *press)
{
	return 0;
}

int tipme_handle_connect(struct input_handler *handler, struct input_dev *dev,
			 size_t size, const char *name, const char *what,
			 void (*init)(struct input_handle *handle))
{
	return -ENODEV;
}

void tipme_handle_disconnect(struct input_handle *handle)
{
}

/**
 * struct at_env - one replay
 * @reader: the compositor's thread the key wakes
 * @client: the focused client
 * @other: a task of a third process
 * @mm: what makes the user tasks
 * @pid: the test thread's own pid, while another task acts
 * @tgid: ... and TGID
 * @flags: ... and flags (a kernel thread's: while a user task acts,
 *	without PF_KTHREAD)
 */
struct at_env {
	struct task_struct *reader;
	struct task_struct *client;
	struct task_struct *other;
	int mm;
	pid_t pid;
	pid_t tgid;
	unsigned int flags;
};

static struct task_struct *at_task(struct kunit *test, struct at_env *e, pid_t pid)
{
	struct task_struct *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->pid = pid;
	t->tgid = pid;
	t->mm = (struct mm_struct *)&e->mm;
	snprintf(t->comm, sizeof(t->comm), "task%d", pid);
	return t;
}

/* @t acts (NULL: the test thread, a stranger to both, e.g. an interrupt). */
static void at_as(struct at_env *e, struct task_struct *t)
{
	current->pid = t ? t->pid : e->pid;
	current->tgid = t ? t->tgid : e->tgid;
	current->flags = t ? e->flags & ~PF_KTHREAD : e->flags;
}

static void at_wakes(struct at_env *e, struct task_struct *waker,
		     struct task_struct *p)
{
	unsigned long flags;

	local_irq_save(flags);
	at_as(e, waker);
	tipme_auto_waking(p);
	at_as(e, NULL);
	local_irq_restore(flags);
}

/* @prev leaves its CPU, asleep in its wait (@sleep) or preempted. */
static void at_switch(struct task_struct *prev, bool sleep)
{
	unsigned long flags;

	local_irq_save(flags);
	tipme_auto_switch(prev, sleep ? TASK_INTERRUPTIBLE : 0);
	local_irq_restore(flags);
}

static void at_queues_work(struct at_env *e, struct task_struct *t)
{
	unsigned long flags;

	local_irq_save(flags);
	at_as(e, t);
	tipme_auto_queue();
	at_as(e, NULL);
	local_irq_restore(flags);
}

/* DRM's file of the compositor, and another file (another DRM master's). */
#define AT_FILE		0x1234u
#define AT_FILE2	0x5678u

/* A flip's event delivered to @file on @crtc, by a kernel worker. */
static void at_flip_on(u32 file, int crtc)
{
	unsigned long flags;

	local_irq_save(flags);
	tipme_auto_flip(file, crtc);
	local_irq_restore(flags);
}

static void at_flip(void)
{
	at_flip_on(AT_FILE, 0);
}

/* The same, its event waking the reader from its wait. */
static void at_flip_wakes(struct at_env *e)
{
	at_flip();
	at_wakes(e, NULL, e->reader);
}

/* @t writes an input event (a key's release) through uinput, waking @p. */
static void at_input_wakes(struct at_env *e, struct task_struct *t,
			   struct task_struct *p)
{
	struct auto_dev d = { };
	unsigned long flags;

	local_irq_save(flags);
	at_as(e, t);
	auto_filter(&d.handle, EV_KEY, KEY_S, 0);
	auto_filter(&d.handle, EV_SYN, SYN_REPORT, 0);
	tipme_auto_waking(p);
	tipme_auto_delivered();
	at_as(e, NULL);
	local_irq_restore(flags);
}

/* The press ended at a flip since @flipped, @repaint at a repaint's. */
static void at_ended(struct kunit *test, u32 flipped, u32 repaint,
		     u32 want_repaint)
{
	KUNIT_EXPECT_EQ(test, nr_flipped - flipped, 1U);
	KUNIT_EXPECT_EQ(test, nr_repaint - repaint, want_repaint);
	KUNIT_EXPECT_EQ(test, atomic_read(&tipme_auto_readers), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&tipme_auto_flipwait), 0);
}

/* A key press that evdev delivers to the reader, asleep in its wait. */
static void at_press(struct at_env *e)
{
	struct auto_dev d = { };
	unsigned long flags;

	local_irq_save(flags);
	auto_filter(&d.handle, EV_KEY, KEY_S, 1);
	tipme_auto_waking(e->reader);
	tipme_auto_delivered();
	local_irq_restore(flags);
}

static int at_init(struct kunit *test)
{
	struct at_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	e->pid = current->pid;
	e->tgid = current->tgid;
	e->flags = current->flags;
	e->reader = at_task(test, e, 500);
	e->client = at_task(test, e, 600);
	e->other = at_task(test, e, 700);
	init_irq_work(&fire_work, fire_fn);
	tipme_hrtimer_setup(&loop_timer, loop_timer_fn, CLOCK_MONOTONIC,
			    HRTIMER_MODE_ABS);
	stopped = false;
	/* no press in a replay takes this long: nothing fires */
	WRITE_ONCE(auto_trigger_ms, 60000);
	tipme_auto_flips_seen(true);
	test->priv = e;
	return 0;
}

static void at_exit(struct kunit *test)
{
	unsigned long flags;
	int i;

	raw_spin_lock_irqsave(&auto_lock, flags);
	for (i = 0; i < AUTO_READERS; i++)
		if (readers[i].pid)
			auto_drop(&readers[i]);
	raw_spin_unlock_irqrestore(&auto_lock, flags);
	hrtimer_cancel(&loop_timer);
	WRITE_ONCE(auto_trigger_ms, 0);
	tipme_auto_flips_seen(false);
}

/*
 * Up to the client's commit that finds the reader awake: the reader woke
 * the client for the key and waited; the client slept (wlkey's 300 ms);
 * a timer woke the reader just before the client committed (no wakeup)
 * and went to sleep: a candidate answer.
 */
static void at_commit_unseen(struct kunit *test, struct at_env *e)
{
	at_press(e);
	at_wakes(e, e->reader, e->client);
	at_switch(e->reader, true);
	KUNIT_ASSERT_EQ(test, atomic_read(&tipme_auto_readers), 1);
	at_switch(e->client, true);
	at_wakes(e, NULL, e->client);
	at_wakes(e, NULL, e->reader);
	at_switch(e->client, true);
	KUNIT_ASSERT_EQ(test, atomic_read(&tipme_auto_flipwait), 1);
}

/*
 * t-wlauto's sleep under load: the reader commits the flip (a nonblocking
 * commit queues DRM's commit_work) and waits; an interrupt wakes it before
 * the flip's event is delivered.  The flip ends the press (before, that
 * wakeup forgot the candidate: auto_readers_forgotten went up at the next
 * press instead).
 */
static void autotrig_timer_before_flip(struct kunit *test)
{
	struct at_env *e = test->priv;
	u32 flipped = nr_flipped, forgotten = nr_forgotten;

	u32 repaint = nr_repaint;

	at_commit_unseen(test, e);
	at_queues_work(e, e->reader);
	at_switch(e->reader, true);
	at_wakes(e, NULL, e->reader);
	at_switch(e->reader, true);
	/* the flip; the reader reads it and tells the client of its frame */
	at_flip_wakes(e);
	at_wakes(e, e->reader, e->client);
	at_switch(e->reader, true);
	at_ended(test, flipped, repaint, 0);
	KUNIT_EXPECT_EQ(test, nr_forgotten - forgotten, 0U);
}

/*
 * The same without the reader's commit: the wakeup took it to other work
 * (a blink's redraw), whose flip is not the press's.  Then a commit while
 * it handles that work keeps no candidate either.
 */
static void autotrig_wakeup_without_commit(struct kunit *test)
{
	struct at_env *e = test->priv;
	u32 flipped = nr_flipped;

	at_commit_unseen(test, e);
	at_switch(e->reader, true);
	at_wakes(e, NULL, e->reader);
	KUNIT_EXPECT_EQ(test, atomic_read(&tipme_auto_flipwait), 0);
	at_queues_work(e, e->reader);
	at_switch(e->reader, true);
	at_flip();
	KUNIT_EXPECT_EQ(test, nr_flipped - flipped, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&tipme_auto_readers), 1);
}

/*
 * A commit is kept over one wait only: woken again with no commit since,
 * the reader went on to other work.
 */
static void autotrig_commit_one_wait(struct kunit *test)
{
	struct at_env *e = test->priv;
	u32 flipped = nr_flipped;

	at_commit_unseen(test, e);
	at_queues_work(e, e->reader);
	at_switch(e->reader, true);
	at_wakes(e, NULL, e->reader);
	KUNIT_EXPECT_EQ(test, atomic_read(&tipme_auto_flipwait), 1);
	at_switch(e->reader, true);
	at_wakes(e, NULL, e->reader);
	KUNIT_EXPECT_EQ(test, atomic_read(&tipme_auto_flipwait), 0);
	at_flip();
	KUNIT_EXPECT_EQ(test, nr_flipped - flipped, 0U);
}

/*
 * Up to the client's commit: the reader woke the client for the key and
 * waited; the client answered (its commit woke the reader), and the
 * reader committed a flip and waited again.
 */
static void at_answered(struct kunit *test, struct at_env *e)
{
	at_press(e);
	at_wakes(e, e->reader, e->client);
	at_switch(e->reader, true);
	at_wakes(e, e->client, e->reader);
	at_switch(e->client, true);
	at_queues_work(e, e->reader);
	KUNIT_ASSERT_EQ(test, atomic_read(&tipme_auto_flipwait), 1);
}

/*
 * weston's repaint: its timer wakes it, it commits the flip, tells the
 * client of the frame and waits for work.
 */
static void at_repaints(struct at_env *e)
{
	at_wakes(e, NULL, e->reader);
	at_queues_work(e, e->reader);
	at_wakes(e, e->reader, e->client);
	at_switch(e->reader, true);
}

/* ... then the reader waited for work, and a flip's event woke it. */
static void at_woken_by_flip(struct kunit *test, struct at_env *e)
{
	at_answered(test, e);
	at_switch(e->reader, true);
	at_flip_wakes(e);
}

/*
 * weston on an idle output (t-weston's auto step): the commit's first
 * flip only started its repaint loop (the old picture again).  Preempted
 * by the kernel worker that delivers it, weston sends the client its
 * replies to the commit before it reads the flip; it then waits for its
 * repaint window (a timer), composes the answer, commits the flip and
 * tells the client of the frame; the key's release, written through
 * uinput, wakes it on the way, and another output flips.  The press ends
 * at the next flip on the same file and CRTC, the repaint's.  Before,
 * it ended at the first.
 */
static void autotrig_weston_repaint(struct kunit *test)
{
	struct at_env *e = test->priv;
	u32 flipped = nr_flipped, repaint = nr_repaint;

	at_answered(test, e);
	at_flip();
	at_wakes(e, e->reader, e->client);
	at_switch(e->reader, true);
	at_input_wakes(e, e->other, e->reader);
	at_switch(e->reader, true);
	at_repaints(e);
	at_flip_on(AT_FILE, 1);
	at_flip_on(AT_FILE2, 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&tipme_auto_readers), 1);
	KUNIT_EXPECT_EQ(test, nr_repaint - repaint, 0U);
	at_flip_wakes(e);
	at_ended(test, flipped, repaint, 1);
}

/*
 * The same asleep at the first flip: woken by its event, weston arms its
 * timer and waits, says nothing, and the repaint's flip ends the press.
 */
static void autotrig_weston_asleep(struct kunit *test)
{
	struct at_env *e = test->priv;
	u32 flipped = nr_flipped, repaint = nr_repaint;

	at_woken_by_flip(test, e);
	at_switch(e->reader, true);
	at_repaints(e);
	KUNIT_EXPECT_EQ(test, atomic_read(&tipme_auto_readers), 1);
	at_flip_wakes(e);
	at_ended(test, flipped, repaint, 1);
}

/*
 * sway: the first flip after the answer showed it; sway, woken by its
 * event, tells the client of the frame and waits for work without
 * committing another: the press ends there, before any later flip.
 */
static void autotrig_told_ends(struct kunit *test)
{
	struct at_env *e = test->priv;
	u32 flipped = nr_flipped, repaint = nr_repaint;

	at_woken_by_flip(test, e);
	at_wakes(e, e->reader, e->client);
	KUNIT_EXPECT_EQ(test, atomic_read(&tipme_auto_readers), 1);
	at_switch(e->reader, true);
	at_ended(test, flipped, repaint, 0);
	at_flip();
	KUNIT_EXPECT_EQ(test, nr_repaint - repaint, 0U);
}

/*
 * News from another process after the first flip (the client commits
 * again) ends the press at that flip; so does a new press of the reader,
 * and a flip that no next one follows within AUTO_LOOP_NS.
 */
static void autotrig_loop_news(struct kunit *test)
{
	struct at_env *e = test->priv;
	u32 flipped = nr_flipped, repaint = nr_repaint;
	unsigned long flags;

	at_answered(test, e);
	at_flip();
	at_wakes(e, e->client, e->reader);
	at_ended(test, flipped, repaint, 0);

	flipped = nr_flipped;
	at_answered(test, e);
	at_flip();
	at_switch(e->reader, true);
	at_press(e);
	KUNIT_EXPECT_EQ(test, nr_flipped - flipped, 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&tipme_auto_flipwait), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&tipme_auto_readers), 1);
	raw_spin_lock_irqsave(&auto_lock, flags);
	auto_drop(&readers[0]);
	raw_spin_unlock_irqrestore(&auto_lock, flags);

	flipped = nr_flipped;
	at_answered(test, e);
	at_flip();
	raw_spin_lock_irqsave(&auto_lock, flags);
	auto_expire(ktime_get_ns() + AUTO_LOOP_NS + 1);
	raw_spin_unlock_irqrestore(&auto_lock, flags);
	at_ended(test, flipped, repaint, 0);
}

/*
 * Two presses' loops end at different times: the timer fires by the
 * earlier whichever was armed first (it once kept the first one queued,
 * so a press whose loop ended sooner was ended up to 100 ms late).
 */
static void autotrig_arm_earliest(struct kunit *test)
{
	u64 now = ktime_get_ns();
	unsigned long flags;
	ktime_t got[3];

	raw_spin_lock_irqsave(&auto_lock, flags);
	auto_arm(now + 1000000000ULL);
	got[0] = hrtimer_get_expires(&loop_timer);
	auto_arm(now + 10000000ULL);
	got[1] = hrtimer_get_expires(&loop_timer);
	auto_arm(now + 500000000ULL);
	got[2] = hrtimer_get_expires(&loop_timer);
	raw_spin_unlock_irqrestore(&auto_lock, flags);
	hrtimer_cancel(&loop_timer);
	KUNIT_EXPECT_EQ(test, ktime_to_ns(got[0]), (s64)(now + 1000000001ULL));
	KUNIT_EXPECT_EQ(test, ktime_to_ns(got[1]), (s64)(now + 10000001ULL));
	KUNIT_EXPECT_EQ(test, ktime_to_ns(got[2]), (s64)(now + 10000001ULL));
}

static struct kunit_case autotrig_cases[] = {
	KUNIT_CASE(autotrig_arm_earliest),
	KUNIT_CASE(autotrig_timer_before_flip),
	KUNIT_CASE(autotrig_wakeup_without_commit),
	KUNIT_CASE(autotrig_commit_one_wait),
	KUNIT_CASE(autotrig_weston_repaint),
	KUNIT_CASE(autotrig_weston_asleep),
	KUNIT_CASE(autotrig_told_ends),
	KUNIT_CASE(autotrig_loop_news),
	{}
};

static struct kunit_suite autotrig_suite = {
	.name = "tipme_autotrig",
	.init = at_init,
	.exit = at_exit,
	.test_cases = autotrig_cases,
};

kunit_test_suite(autotrig_suite);

MODULE_LICENSE("GPL");
