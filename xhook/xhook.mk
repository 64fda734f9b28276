# xhook/: tipme-xhook, the X11 recorder (an ordinary X client: RECORD +
# X-Resource), its dump reader and its tests.  Included by the top-level
# Makefile.
#
#   make xhook-tests    unit test (no X) + the Xvfb integration tests
#
# X dumps are written and read by lib/ (lib/xdumpfile.h).

XHOOK_CORE_OBJS := $(B)/xhook/state.o $(B)/xhook/parse.o $(B)/xhook/autotrig.o $(B)/xhook/snapshot.o \
		   $(B)/xhook/tipmed_link.o
XHOOK_OBJS := $(B)/xhook/main.o $(B)/xhook/xconn.o $(B)/xhook/keys.o \
	      $(B)/xhook/record.o $(B)/xhook/deliver.o $(B)/xhook/ask.o \
	      $(B)/xhook/ui.o $(XHOOK_CORE_OBJS)
XHOOK_TEST_CLIENT := $(B)/xhook-testclient

EXTRA_CFLAGS_xhook_ := $(XCB_CFLAGS)
EXTRA_CFLAGS_tests_xhook_ := $(XCB_CFLAGS) -Ixhook

$(B)/tipme-xhook: $(XHOOK_OBJS) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ $(XCB_LIBS) -lpthread

$(B)/xhook-unit: $(B)/tests/xhook/xhook_unit.o $(XHOOK_CORE_OBJS) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ -lpthread

$(XHOOK_TEST_CLIENT): $(B)/tests/xhook/testclient.o
	$(CC) $(LDFLAGS) -o $@ $^ $(XCB_LIBS) -lpthread

PROGS += $(B)/tipme-xhook
TESTS += $(B)/xhook-unit $(XHOOK_TEST_CLIENT)

.PHONY: xhook-tests
xhook-tests: $(B)/tipme-xhook $(B)/xhook-unit $(XHOOK_TEST_CLIENT) $(B)/tipme $(B)/tipmed
	$(B)/xhook-unit
	python3 tests/xhook/x11_tests.py --build $(B)

# 'make install' installs tipme-xhook beside tipme
.PHONY: install-xhook
install: install-xhook
install-xhook: $(B)/tipme-xhook
	install -d $(DESTDIR)/usr/local/bin
	install -m 0755 $(B)/tipme-xhook $(DESTDIR)/usr/local/bin/tipme-xhook
