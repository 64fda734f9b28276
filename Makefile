# tipme top-level Makefile.
#
#   make            build tipme.ko (against KDIR) and every userspace program
#   make module     the kernel module only
#   make user       userspace only (build/)
#   make check      install what is missing, build with -Werror, run KUnit,
#                   userspace and VM tests; ends with "N passed, N failed"
#   make demo       boot Debian's stock kernel in QEMU and show tipme at work
#   make demo-wayland  the same for a slow key press on a Wayland desktop (sway)
#   make man        man pages and bash completion from the programs' --help
#                   (build/man/)
#   make deb        Debian packages tipme-dkms, tipme, tipme-xhook in
#                   build/deb/ (debhelper), checked by lintian
#
# KDIR defaults to the running kernel's build dir if present, else the newest
# kernel headers installed under /lib/modules.  `make module KVER=VERSION`
# also takes a kernel `scripts/kernels.sh --list` holds (Documentation/kernels.md).

KVER ?= $(shell if [ -d /lib/modules/$$(uname -r)/build ]; then uname -r; else \
	ls -1 /lib/modules 2>/dev/null | grep -v -- '-rt-' | sort -V | tail -n 1; fi)
KDIR ?= /lib/modules/$(KVER)/build
B ?= build
SAN ?=

CC ?= cc
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude/uapi -Iinclude -Ilib $(SAN)
LDFLAGS += $(SAN)
NL_CFLAGS := $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null)
NL_LIBS := $(shell pkg-config --libs libnl-genl-3.0 2>/dev/null)
XCB_CFLAGS := $(shell pkg-config --cflags xcb xcb-record xcb-res 2>/dev/null)
XCB_LIBS := $(shell pkg-config --libs xcb xcb-record xcb-res 2>/dev/null)

PROGS :=
TESTS :=
LIBTIPME_OBJS :=

.PHONY: all module user clean check demo demo-wayland install modules_install man deb soak
all: module user

# A kernel whose headers are not installed here but were fetched by
# scripts/kernels.sh (another Debian suite's) is built in its own root, with
# its suite's compiler.
module:
	@if [ -d "$(KDIR)" ]; then \
		$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules; \
	elif scripts/kernels.sh --list | grep -qxF -- "$(KVER)"; then \
		scripts/kernels.sh build "$(KVER)"; \
	else \
		echo "make module: no headers for $(KVER) in $(KDIR), and scripts/kernels.sh has not fetched it" >&2; \
		exit 1; \
	fi

-include lib/lib.mk
-include postmortem/postmortem.mk
include helper/helper.mk
-include tests/unit/unit.mk
-include xhook/xhook.mk
-include bench/bench.mk
-include tests/vm/vm.mk
-include tests/fuzz/fuzz.mk

user: $(PROGS) $(TESTS)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS_$(subst /,_,$(dir $<))) -MMD -MP -c -o $@ $<

-include $(shell find $(B) -name '*.d' 2>/dev/null)

man: $(B)/tipme $(B)/tipmed $(B)/tipme-xhook $(B)/tipme-bench
	python3 Documentation/man/mkman.py $(B) $(B)/man

install: all man
	install -d $(DESTDIR)/usr/local/share/man/man1 $(DESTDIR)/usr/local/share/man/man8
	install -m 0644 $(B)/man/man1/*.1 $(DESTDIR)/usr/local/share/man/man1/
	install -m 0644 $(B)/man/man8/*.8 $(DESTDIR)/usr/local/share/man/man8/
	install -d $(DESTDIR)/usr/local/share/bash-completion/completions
	install -m 0644 $(B)/man/bash-completion/tipme $(DESTDIR)/usr/local/share/bash-completion/completions/tipme
	for p in tipmed tipme-xhook tipme-bench; do \
		ln -sf tipme $(DESTDIR)/usr/local/share/bash-completion/completions/$$p; done
	install -d $(DESTDIR)/usr/local/bin $(DESTDIR)/usr/local/sbin
	install -m 0755 $(B)/tipme $(DESTDIR)/usr/local/bin/tipme
	install -m 0755 $(B)/tipmed $(DESTDIR)/usr/local/sbin/tipmed
	install -d $(DESTDIR)/etc/systemd/system
	install -m 0644 helper/tipmed.service $(DESTDIR)/etc/systemd/system/tipmed.service
	@# the control socket's group: made a system group if missing; one
	@# that exists is used, but never silently when not a system group
	@gid=$$(getent group tipme | cut -d: -f3); \
	if [ -z "$$gid" ]; then groupadd --system tipme; \
	elif [ "$$gid" -gt "$$(sed -n 's/^SYS_GID_MAX[[:space:]]*//p' /etc/login.defs 2>/dev/null | grep . || echo 999)" ]; then \
		echo "make install: using the existing group tipme (gid $$gid), which is not a system group: its members may trigger dumps and hand files to tipmed" >&2; \
	fi

deb:
	scripts/deb.sh build

modules_install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

clean:
	rm -rf $(B)
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true

check:
	tests/check.sh

demo:
	scripts/demo.sh

demo-wayland:
	scripts/demo.sh --wayland

# not in check: half an hour of guest time (tests/soak/run.sh)
soak:
	tests/soak/run.sh
