# bench/: TIPME's reproducing microbenchmarks.
#
#   build/tipme-bench paging|forkstorm [options]     (see --help)
#   make bench-tests        unit tests (TAP): statistics, histograms, SVG,
#                           option parsing, trigger policy; and the CLI's
#                           exit codes for bad options
#   make bench-tests-asan   the same built with ASan+UBSan in $(B)/asan
BENCH_OBJS := $(B)/bench/opts.o $(B)/bench/stats.o $(B)/bench/svg.o \
	$(B)/bench/results.o $(B)/bench/sys.o $(B)/bench/trigger.o \
	$(B)/bench/calib.o $(B)/bench/paging.o $(B)/bench/forkstorm.o \
	$(B)/bench/progress.o
EXTRA_CFLAGS_tests_bench_ := -Ibench -Itests/unit

$(B)/tipme-bench: $(B)/bench/main.o $(BENCH_OBJS) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

PROGS += $(B)/tipme-bench

# make bench (bench/tracers/run.sh): the workloads run under each tracer
$(B)/bench/tipme-tracer-load: bench/tracers/load.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< -lpthread

PROGS += $(B)/bench/tipme-tracer-load

# ... and the sampler's full round as user-space code (bench/vm/), to
# turn the sampler's instructions into time on this machine
$(B)/bench/smpbench: bench/vm/smpbench.c module/instr/smptab.c module/instr/smptab.h
	@mkdir -p $(@D)
	$(CC) -O2 -Ibench/vm/shim -Iinclude/uapi -Imodule -o $@ $<

PROGS += $(B)/bench/smpbench

# ... and the busy CPU of the pool's window (bench/pool-window.sh): a
# pinned ping-pong that notes its own progress over time
$(B)/bench/poolwin: bench/vm/poolwin.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

PROGS += $(B)/bench/poolwin

.PHONY: bench
bench: $(B)/bench/tipme-tracer-load $(B)/bench/smpbench $(B)/bench/poolwin $(B)/tipme-bigdump
	bench/tracers/run.sh

BENCH_TEST_NAMES := stats opts
BENCH_TESTS := $(BENCH_TEST_NAMES:%=$(B)/tests/bench/test_%)
TESTS += $(BENCH_TESTS)

$(B)/tests/bench/test_%: $(B)/tests/bench/test_%.o $(BENCH_OBJS) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ -lm

.PHONY: bench-tests bench-tests-asan
bench-tests: $(BENCH_TESTS) $(B)/tipme-bench
	@fail=0; for t in $(BENCH_TESTS); do \
		echo "# $$t"; $$t || { echo "# FAILED: $$t"; fail=1; }; \
	done; \
	echo "# tests/bench/cli.sh"; \
	TIPME_BENCH=$(B)/tipme-bench tests/bench/cli.sh || { echo "# FAILED: cli.sh"; fail=1; }; \
	if [ $$fail = 0 ]; then echo "# bench tests: all passed"; \
	else echo "# bench tests: FAILURES"; fi; exit $$fail

bench-tests-asan:
	$(MAKE) B=$(B)/asan \
		SAN='-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer' \
		bench-tests

.SECONDARY: $(BENCH_TEST_NAMES:%=$(B)/tests/bench/test_%.o)

# 'make install' installs tipme-bench beside tipme
.PHONY: install-bench
install: install-bench
install-bench: $(B)/tipme-bench
	install -d $(DESTDIR)/usr/local/bin
	install -m 0755 $(B)/tipme-bench $(DESTDIR)/usr/local/bin/tipme-bench

# make bench (bench/analysis-speed.sh --synthetic): a large dump written
# natively, the scenario writer (tests/unit/scen.c) built with bigger buffers
# (up to 256 MiB per CPU: 1 GiB over 4 CPUs; an exec table of up to
# 32768 threads; the buffers are touched only as far as they are used);
# the objects are rebuilt when these sizes change
BIGDUMP_DEFS := -DSCEN_CPUS=8 -DSCEN_SUBBUFS=16384 -DSCEN_EXEC_BYTES=4194304 -Itests/unit
$(B)/bench/bigdump/scen.o: tests/unit/scen.c tests/unit/scen.h bench/bench.mk
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(BIGDUMP_DEFS) -c -o $@ $<
$(B)/bench/bigdump/typing.o: tests/unit/typing.c tests/unit/typing.h tests/unit/scen.h bench/bench.mk
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(BIGDUMP_DEFS) -c -o $@ $<
$(B)/bench/bigdump/bigdump.o: bench/bigdump.c tests/unit/scen.h tests/unit/gen.h tests/unit/typing.h \
		bench/bench.mk
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(BIGDUMP_DEFS) -c -o $@ $<
$(B)/tipme-bigdump: $(B)/bench/bigdump/bigdump.o $(B)/bench/bigdump/scen.o \
		$(B)/bench/bigdump/typing.o $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^

PROGS += $(B)/tipme-bigdump
