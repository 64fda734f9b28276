# tests/fuzz/: libFuzzer harnesses for every parser of outside bytes.
# Built with clang into build/fuzz/ by tests/fuzz/run.sh (which passes
# CC=clang and the sanitizer flags); see tests/fuzz/run.sh for how to run.
FUZZ_NAMES := kdump xdump ctlproto meta nlevents dumprx elfnote xmaps ckpt elfid
FUZZ_BINS := $(FUZZ_NAMES:%=$(B)/tests/fuzz/fuzz_%)
EXTRA_CFLAGS_tests_fuzz_ := -Ipostmortem -Ihelper $(NL_CFLAGS)

$(B)/tests/fuzz/fuzz_kdump: $(B)/tests/fuzz/fuzz_kdump.o $(B)/tests/fuzz/dump_fix.o \
		$(B)/tests/fuzz/wellformed.o $(LIBPM) $(LIBTIPME)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ -lm $(PM_LIBS)

$(B)/tests/fuzz/fuzz_xdump: $(B)/tests/fuzz/fuzz_xdump.o $(B)/tests/fuzz/dump_fix.o \
		$(B)/tests/fuzz/wellformed.o $(LIBPM) $(LIBTIPME)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ -lm $(PM_LIBS)

$(B)/tests/fuzz/fuzz_ctlproto: $(B)/tests/fuzz/fuzz_ctlproto.o $(LIBTIPME)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^

$(B)/tests/fuzz/fuzz_meta: $(B)/tests/fuzz/fuzz_meta.o $(LIBTIPME)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^

$(B)/tests/fuzz/fuzz_nlevents: $(B)/tests/fuzz/fuzz_nlevents.o $(B)/helper/nl.o $(LIBTIPME)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(NL_LIBS)

$(B)/tests/fuzz/fuzz_dumprx: $(B)/tests/fuzz/fuzz_dumprx.o $(B)/helper/dumprx.o \
		$(B)/helper/nl.o $(B)/helper/sysinfo.o $(LIBTIPME)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(NL_LIBS)

$(B)/tests/fuzz/fuzz_elfnote: $(B)/tests/fuzz/fuzz_elfnote.o $(LIBTIPME)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^

$(B)/tests/fuzz/fuzz_xmaps: $(B)/tests/fuzz/fuzz_xmaps.o $(LIBTIPME)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^

$(B)/tests/fuzz/fuzz_ckpt: $(B)/tests/fuzz/fuzz_ckpt.o $(LIBPM) $(LIBTIPME)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ -lm $(PM_LIBS)

# the module's reader of a mapped file's build-id, built here unchanged
$(B)/tests/fuzz/fuzz_elfid: $(B)/tests/fuzz/fuzz_elfid.o $(B)/module/instr/elfid.o $(LIBTIPME)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^

.PHONY: fuzzers
fuzzers: $(FUZZ_BINS)

# make fuzz: a longer run of every harness (FUZZ_SECONDS each, default 600)
.PHONY: fuzz
fuzz:
	tests/fuzz/run.sh --seconds $(or $(FUZZ_SECONDS),600)
