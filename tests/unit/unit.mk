# tests/unit/: userspace unit tests; each binary prints TAP.
#
#   make unit-tests
#   make B=build/asan SAN='-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer' unit-tests
UNIT_NAMES := crc32 json dumpfile decode clock cli instr termsafe report handoff ctlproto meta redact sites dumprx segcause tail names incident ustack display flip index usym profile staterange
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

# The DUMP stream receiver, with libnl.
$(B)/tests/unit/test_dumprx: $(B)/tests/unit/test_dumprx.o $(UNIT_COMMON) \
		$(B)/helper/dumprx.o $(B)/helper/nl.o $(B)/helper/sysinfo.o $(LIBPM) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ -lm $(NL_LIBS) $(PM_LIBS)

# tipmed's incident directories (helper/incident.c), with libnl.
$(B)/tests/unit/test_incident: $(B)/tests/unit/test_incident.o $(UNIT_COMMON) \
		$(B)/helper/incident.o $(B)/helper/dumprx.o $(B)/helper/nl.o \
		$(B)/helper/sysinfo.o $(LIBPM) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ -lm $(NL_LIBS) $(PM_LIBS)

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
	@fail=0; for t in $(UNIT_BINS); do \
		echo "# $$t"; \
		TIPME_CLI=$(UNIT_CLI) $$t || { echo "# FAILED: $$t"; fail=1; }; \
	done; \
	echo "# $(B)/tests/unit/test_report and test_handoff, the scenarios in compact records"; \
	TIPME_SCEN_COMPACT=1 $(B)/tests/unit/test_report || { echo "# FAILED: compact test_report"; fail=1; }; \
	TIPME_SCEN_COMPACT=1 $(B)/tests/unit/test_handoff || { echo "# FAILED: compact test_handoff"; fail=1; }; \
	TIPME_SCEN_COMPACT=1 $(B)/tests/unit/test_flip || { echo "# FAILED: compact test_flip"; fail=1; }; \
	echo "# tests/unit/tipmed_ctl.py (tipmed's control socket)"; \
	python3 tests/unit/tipmed_ctl.py $(B) || { echo "# FAILED: tipmed_ctl.py"; fail=1; }; \
	echo "# tests/unit/manpages.py (man pages and completion from --help)"; \
	python3 tests/unit/manpages.py $(B) || { echo "# FAILED: manpages.py"; fail=1; }; \
	if [ $$fail = 0 ]; then echo "# unit tests: all passed"; \
	else echo "# unit tests: FAILURES"; fi; exit $$fail

# keep the objects: they are intermediate files of the pattern rule
.SECONDARY: $(UNIT_NAMES:%=$(B)/tests/unit/test_%.o) $(UNIT_COMMON)
