# tests/unit/: userspace unit tests; each binary prints TAP.
#
#   make unit-tests          (the tests up to one per CPU at a time:
#                            tests/unit/run.sh; TIPME_UNIT_JOBS=1 one by one)
#   make B=build/asan SAN='-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer' unit-tests
# The longest first (under ASan: legsrange 18 s; staterange 8 s, 30 s
# beside the VM tests' dumps; decode 11 s; index, usym and segcause 3-5 s; the rest 2 s or
# less): tests/unit/run.sh starts them in this order, two at a time.
UNIT_NAMES := legsrange staterange decode index usym segcause crc32 lazycrc json dumpfile clock cli instr termsafe report handoff ctlproto meta redact sites dumprx tail names incident ustack display flip profile smpsnap gzwrite ckptindex
UNIT_BINS := $(UNIT_NAMES:%=$(B)/tests/unit/test_%)
UNIT_COMMON := $(B)/tests/unit/gen.o $(B)/tests/unit/capture.o $(B)/tests/unit/scen.o \
	$(B)/tests/unit/stategold.o $(B)/tests/unit/typing.o
# The CLI tests run helper/cli.c's main() linked with a control stub, so
# they do not depend on libnl or on the state of helper/ctl.c.
UNIT_CLI := $(B)/tests/unit/tipme-cli
EXTRA_CFLAGS_tests_unit_ := -Ipostmortem -Ihelper $(NL_CFLAGS)

TESTS += $(UNIT_BINS) $(UNIT_CLI)

$(B)/tests/unit/test_%: $(B)/tests/unit/test_%.o $(UNIT_COMMON) $(LIBPM) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ -lm $(PM_LIBS)

# tipme legs of a range against the whole dump's, also on tipme-bigdump's dumps.
$(B)/tests/unit/test_legsrange: | $(B)/tipme-bigdump

# The DUMP stream receiver, with libnl.
$(B)/tests/unit/test_dumprx: $(B)/tests/unit/test_dumprx.o $(UNIT_COMMON) \
		$(B)/helper/dumprx.o $(B)/helper/nl.o $(B)/helper/sysinfo.o $(LIBPM) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ -lm $(NL_LIBS) $(PM_LIBS)

# tipmed's incident directories (helper/incident.c), with libnl.
$(B)/tests/unit/test_incident: $(B)/tests/unit/test_incident.o $(UNIT_COMMON) \
		$(B)/helper/incident.o $(B)/helper/dumprx.o $(B)/helper/nl.o \
		$(B)/helper/sysinfo.o $(LIBPM) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ -lm $(NL_LIBS) $(PM_LIBS)

# tipme index, and tipmed's indexer (helper/indexer.c).
$(B)/tests/unit/test_ckptindex: $(B)/tests/unit/test_ckptindex.o $(UNIT_COMMON) \
		$(B)/helper/indexer.o $(LIBPM) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ -lm $(PM_LIBS)

# The symboliser's fixtures (test_usym.c): a PIE and its shared library
# with DWARF and frame pointers, the same stripped, and their debug info
# alone as objcopy --only-keep-debug writes it (the test lays out its own
# .build-id tree).  Their own flags, not the sanitizers': the test runs
# the program and reads its files.
USYM_FIX := $(B)/tests/unit/usym
USYM_FIX_FLAGS := -g -O1 -fno-omit-frame-pointer -ffile-prefix-map=$(CURDIR)=/src/tipme \
	-Wl,--build-id=sha1
USYM_FIX_FILES := $(addprefix $(USYM_FIX)/,usymfix libusymfix.so stripped/usymfix \
	stripped/libusymfix.so usymfix.debug libusymfix.so.debug usymcxx)

$(USYM_FIX)/libusymfix.so: tests/unit/usym/fixlib.c tests/unit/usym/fixlib.h
	@mkdir -p $(dir $@)
	$(CC) $(USYM_FIX_FLAGS) -fPIC -shared -o $@ $<

$(USYM_FIX)/usymfix: tests/unit/usym/fixprog.c tests/unit/usym/fixlib.h $(USYM_FIX)/libusymfix.so
	$(CC) $(USYM_FIX_FLAGS) -fPIE -pie -o $@ $< -L$(USYM_FIX) -lusymfix -Wl,-rpath,'$$ORIGIN'

# a C++ program: its mangled names demangled (dump/usym.c)
$(USYM_FIX)/usymcxx: tests/unit/usym/fixcxx.cc
	@mkdir -p $(dir $@)
	$(CXX) $(USYM_FIX_FLAGS) -fPIE -pie -o $@ $<

$(USYM_FIX)/stripped/%: $(USYM_FIX)/%
	@mkdir -p $(dir $@)
	strip --strip-all -o $@ $<

$(USYM_FIX)/%.debug: $(USYM_FIX)/%
	objcopy --only-keep-debug $< $@

$(B)/tests/unit/test_usym: | $(USYM_FIX_FILES)
# ... and its debuginfod server (package debuginfod)
$(B)/tests/unit/test_usym: $(B)/tests/unit/dinfod.o

$(UNIT_CLI): $(B)/helper/cli.o $(B)/tests/unit/ctl_stub.o $(LIBPM) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ -lm $(PM_LIBS)

.PHONY: unit-tests
unit-tests: $(UNIT_BINS) $(UNIT_CLI) $(B)/tipmed $(B)/tipme $(B)/tipme-xhook $(B)/tipme-bench
	@fail=0; TIPME_CLI=$(UNIT_CLI) tests/unit/run.sh $(UNIT_BINS) \
		"TIPME_SCEN_COMPACT=1 $(B)/tests/unit/test_report" \
		"TIPME_SCEN_COMPACT=1 $(B)/tests/unit/test_handoff" \
		"TIPME_SCEN_COMPACT=1 $(B)/tests/unit/test_flip" \
		"python3 tests/unit/tipmed_ctl.py $(B)" \
		"python3 tests/unit/manpages.py $(B)" || fail=1; \
	if [ $$fail = 0 ]; then echo "# unit tests: all passed"; \
	else echo "# unit tests: FAILURES"; fi; exit $$fail

# keep the objects: they are intermediate files of the pattern rule
.SECONDARY: $(UNIT_NAMES:%=$(B)/tests/unit/test_%.o) $(UNIT_COMMON)
