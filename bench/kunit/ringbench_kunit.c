// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite tipme_ringbench: the recording fast path on a real CPU.
 * User Mode Linux runs kernel code at the host's speed, so this is where
 * nanoseconds per record mean something (under QEMU TCG they do not).
 *
 * Three writers store the same 16-byte record (a timestamp from
 * "lfence; rdtsc", as tipme's TSC clock reads it, and 8 bytes of payload)
 * RECORDS times into rings of the same size, overwriting the oldest:
 *   - tipme's ring: tipme_ring_reserve() + tipme_ring_commit(), a 4-byte
 *     header and 12 bytes of payload;
 *   - the kernel's ring buffer (the one ftrace and perf's ring_buffer
 *     benchmark use): ring_buffer_lock_reserve() + unlock_commit() of 12
 *     bytes of data behind its 4-byte event header, with the same clock;
 *   - a plain per-CPU array of 16-byte slots: the floor;
 *   - the clock alone, to tell its share.
 * Each prints "ringbench: NAME NS ns/record" (hundredths), which
 * bench/tracers/run.sh reads from the UML kernel's log; the test cases
 * check that every record was written.
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ring_buffer.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "ring.h"

#define RECORDS		(4u << 20)
#define BATCH		4096u	/* records per preemption-off stretch */
#define RING_SHIFT	23	/* 8 MiB per ring */
#define SUB_SHIFT	16	/* tipme: 64 KiB sub-buffers */
#define REC_TYPE	5

static __always_inline u64 bench_clock(void)
{
	u32 lo, hi;

	asm volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((u64)hi << 32) | lo;
}

static u64 bench_clock_fn(void)
{
	return bench_clock();
}

static void report(struct kunit *test, const char *name, u64 ns)
{
	u64 x100 = div_u64(ns * 100, RECORDS);

	kunit_info(test, "ringbench: %s %llu.%02llu ns/record (%u records)\n",
		   name, x100 / 100, x100 % 100, RECORDS);
}

static void bench_tipme(struct kunit *test)
{
	struct tipme_ring *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct tipme_wslot ws;
	u64 t0, t1, w;
	u32 i, j;

	KUNIT_ASSERT_NOT_NULL(test, r);
	KUNIT_ASSERT_EQ(test, tipme_ring_init(r, raw_smp_processor_id(), SUB_SHIFT,
					      RING_SHIFT - SUB_SHIFT), 0);
	t0 = ktime_get_ns();
	for (i = 0; i < RECORDS; i += BATCH) {
		preempt_disable();
		for (j = 0; j < BATCH; j++) {
			u32 *p = tipme_ring_reserve(r, REC_TYPE, 12,
						    bench_clock, &ws);

			if (likely(p)) {
				p[0] = i;
				p[1] = j;
				p[2] = 0;
				tipme_ring_commit(&ws, REC_TYPE);
			}
		}
		preempt_enable();
	}
	t1 = ktime_get_ns();
	w = local_read(&r->written);
	tipme_ring_free(r);
	KUNIT_EXPECT_EQ(test, w, (u64)RECORDS);
	report(test, "tipme", t1 - t0);
}

static void bench_kernel_ring_buffer(struct kunit *test)
{
	struct trace_buffer *buf = ring_buffer_alloc(1ul << RING_SHIFT,
						     RB_FL_OVERWRITE);
	struct ring_buffer_event *ev;
	unsigned long n;
	u64 t0, t1;
	u32 i, j;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	ring_buffer_set_clock(buf, bench_clock_fn);
	t0 = ktime_get_ns();
	for (i = 0; i < RECORDS; i += BATCH) {
		preempt_disable();
		for (j = 0; j < BATCH; j++) {
			ev = ring_buffer_lock_reserve(buf, 12);
			if (likely(ev)) {
				u32 *p = ring_buffer_event_data(ev);

				p[0] = i;
				p[1] = j;
				p[2] = 0;
				ring_buffer_unlock_commit(buf, ev);
			}
		}
		preempt_enable();
	}
	t1 = ktime_get_ns();
	n = ring_buffer_entries(buf) + ring_buffer_overruns(buf);
	ring_buffer_free(buf);
	KUNIT_EXPECT_EQ(test, n, (unsigned long)RECORDS);
	report(test, "kernel_ring_buffer", t1 - t0);
}

struct plain_slot {
	u64 ts;
	u32 a, b;
};

static DEFINE_PER_CPU(unsigned long, plain_next);

static void bench_plain_store(struct kunit *test)
{
	const unsigned long mask = (1ul << (RING_SHIFT - 4)) - 1;
	struct plain_slot *s = vmalloc(sizeof(*s) << (RING_SHIFT - 4));
	unsigned long sum = 0;
	u64 t0, t1;
	u32 i, j;

	KUNIT_ASSERT_NOT_NULL(test, s);
	this_cpu_write(plain_next, 0);
	t0 = ktime_get_ns();
	for (i = 0; i < RECORDS; i += BATCH) {
		preempt_disable();
		for (j = 0; j < BATCH; j++) {
			unsigned long k = this_cpu_inc_return(plain_next) & mask;

			s[k].ts = bench_clock();
			s[k].a = i;
			s[k].b = j;
		}
		preempt_enable();
	}
	t1 = ktime_get_ns();
	for (i = 0; i <= mask; i++)
		sum += s[i].ts != 0;
	vfree(s);
	KUNIT_EXPECT_EQ(test, sum, mask + 1);
	report(test, "plain_store", t1 - t0);
}

static void bench_clock_only(struct kunit *test)
{
	u64 t0, t1, x = 0;
	u32 i, j;

	t0 = ktime_get_ns();
	for (i = 0; i < RECORDS; i += BATCH) {
		preempt_disable();
		for (j = 0; j < BATCH; j++)
			x ^= bench_clock();
		preempt_enable();
	}
	t1 = ktime_get_ns();
	KUNIT_EXPECT_NE(test, x, 0ull);
	report(test, "clock", t1 - t0);
}

static struct kunit_case ringbench_cases[] = {
	KUNIT_CASE(bench_clock_only),
	KUNIT_CASE(bench_plain_store),
	KUNIT_CASE(bench_tipme),
	KUNIT_CASE(bench_kernel_ring_buffer),
	{}
};

static struct kunit_suite ringbench_suite = {
	.name = "tipme_ringbench",
	.test_cases = ringbench_cases,
};
kunit_test_suite(ringbench_suite);

MODULE_LICENSE("GPL");
