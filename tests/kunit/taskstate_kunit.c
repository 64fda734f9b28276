// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite tipme_taskstate: the kernel's task state bits, as
 * sched_switch passes them, mapped to enum tipme_task_state.
 */
#include <kunit/test.h>
#include "taskstate.h"

static void taskstate_map(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tipme_task_state(TASK_RUNNING), (u8)TIPME_TS_RUNNABLE);
	KUNIT_EXPECT_EQ(test, tipme_task_state(TASK_INTERRUPTIBLE), (u8)TIPME_TS_SLEEPING);
	KUNIT_EXPECT_EQ(test, tipme_task_state(TASK_UNINTERRUPTIBLE), (u8)TIPME_TS_DISK);
	KUNIT_EXPECT_EQ(test, tipme_task_state(TASK_KILLABLE), (u8)TIPME_TS_DISK);
	KUNIT_EXPECT_EQ(test, tipme_task_state(TASK_IDLE), (u8)TIPME_TS_IDLE);
	KUNIT_EXPECT_EQ(test, tipme_task_state(TASK_STOPPED), (u8)TIPME_TS_STOPPED);
	KUNIT_EXPECT_EQ(test, tipme_task_state(TASK_TRACED), (u8)TIPME_TS_TRACED);
	KUNIT_EXPECT_EQ(test, tipme_task_state(TASK_PARKED), (u8)TIPME_TS_PARKED);
	KUNIT_EXPECT_EQ(test, tipme_task_state(TASK_DEAD), (u8)TIPME_TS_DEAD);
	KUNIT_EXPECT_EQ(test, tipme_task_state(EXIT_ZOMBIE), (u8)TIPME_TS_ZOMBIE);
	KUNIT_EXPECT_EQ(test, tipme_task_state(TASK_RTLOCK_WAIT), (u8)TIPME_TS_RTLOCK);
	KUNIT_EXPECT_EQ(test, tipme_task_state(TASK_NEW), (u8)TIPME_TS_OTHER);
}

static struct kunit_case taskstate_cases[] = {
	KUNIT_CASE(taskstate_map),
	{}
};

static struct kunit_suite taskstate_suite = {
	.name = "tipme_taskstate",
	.test_cases = taskstate_cases,
};

kunit_test_suite(taskstate_suite);

MODULE_LICENSE("GPL");
