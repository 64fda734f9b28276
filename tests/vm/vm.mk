# Workload programs the VM tests run inside the guest (ground truth makers).
VM_PROGS := $(B)/tests/vm/pingpong $(B)/tests/vm/vkbd $(B)/tests/vm/stall
# Instrumentation tests (t-instr-*.sh)
VM_PROGS += $(B)/tests/vm/blockpipe $(B)/tests/vm/fsyncer $(B)/tests/vm/contend \
	    $(B)/tests/vm/memhog $(B)/tests/vm/states $(B)/tests/vm/argvprog \
	    $(B)/tests/vm/manythreads $(B)/tests/vm/walkbench
# tipme report (t-report.sh, t-xreport.sh, t-auto.sh)
VM_PROGS += $(B)/tests/vm/stopper $(B)/tests/vm/sigsend
# Work that changes hands (t-handoff.sh)
VM_PROGS += $(B)/tests/vm/handoff
# Block I/O through stacked devices (t-stack.sh)
VM_PROGS += $(B)/tests/vm/lockfsync
# Kernel work items as links of the chain (t-work.sh)
VM_PROGS += $(B)/tests/vm/ptywait
# A cgroup's CPU quota (t-quota.sh)
VM_PROGS += $(B)/tests/vm/quota
# Page faults that wait for I/O (t-pagefault.sh)
VM_PROGS += $(B)/tests/vm/faulter
# A wait for the network: a slow peer, a delayed link (t-network.sh)
VM_PROGS += $(B)/tests/vm/netpeer
# The catalogue of stalls, each direct and through a chain (t-catalogue.sh)
VM_PROGS += $(B)/tests/vm/catalogue
# Hostile input and faults (t-argv-wedge.sh, t-faults.sh)
VM_PROGS += $(B)/tests/vm/argvtrap $(B)/tests/vm/evreader
# A known user-space call chain, with frame pointers (t-ustack.sh)
VM_PROGS += $(B)/tests/vm/ustackprog
$(B)/tests/vm/progs/ustackprog.o: CFLAGS += -O1 -fno-omit-frame-pointer
# A known on-CPU split between two functions, with frame pointers (t-profile.sh)
VM_PROGS += $(B)/tests/vm/burnsplit
$(B)/tests/vm/progs/burnsplit.o: CFLAGS += -O1 -fno-omit-frame-pointer

# User-space symbols (t-usym.sh): a PIE and its own shared library with
# DWARF and frame pointers, the same stripped (stripped/, each finding its
# library there by $$ORIGIN), and their debug info alone (*.debug; the
# test's host step lays out the .build-id tree)
USYM_VM := $(B)/tests/vm/usym
USYM_VM_FLAGS := -g -O1 -fno-omit-frame-pointer -Wall -Werror -Wl,--build-id=sha1
VM_PROGS += $(addprefix $(USYM_VM)/,usymprog libusymdoc.so stripped/usymprog \
	stripped/libusymdoc.so usymprog.debug libusymdoc.so.debug)

$(USYM_VM)/libusymdoc.so: tests/vm/progs/usym/usymdoc.c tests/vm/progs/usym/usymdoc.h
	@mkdir -p $(dir $@)
	$(CC) $(USYM_VM_FLAGS) -fPIC -shared -o $@ $<

$(USYM_VM)/usymprog: tests/vm/progs/usym/usymprog.c tests/vm/progs/usym/usymdoc.h \
		$(USYM_VM)/libusymdoc.so
	$(CC) $(USYM_VM_FLAGS) -fPIE -pie -o $@ $< -L$(USYM_VM) -lusymdoc -Wl,-rpath,'$$ORIGIN'

$(USYM_VM)/stripped/%: $(USYM_VM)/%
	@mkdir -p $(dir $@)
	strip --strip-all -o $@ $<

$(USYM_VM)/%.debug: $(USYM_VM)/%
	objcopy --only-keep-debug $< $@

# Page flips on a KMS device and vgem's fences (t-drm.sh), with libdrm
VM_PROGS += $(B)/tests/vm/drmflip
DRM_CFLAGS := $(shell pkg-config --cflags libdrm 2>/dev/null)
DRM_LIBS := $(shell pkg-config --libs libdrm 2>/dev/null || echo -ldrm)
EXTRA_CFLAGS_tests_vm_progs_ += $(DRM_CFLAGS)

$(B)/tests/vm/drmflip: $(B)/tests/vm/progs/drmflip.o
	$(CC) $(LDFLAGS) -o $@ $^ $(DRM_LIBS)

# What they share (tests/vm/progs/proglib.h)
VM_PROGLIB := $(B)/tests/vm/progs/proglib.o
$(B)/tests/vm/faulter $(B)/tests/vm/netpeer $(B)/tests/vm/catalogue: $(VM_PROGLIB)

$(B)/tests/vm/%: $(B)/tests/vm/progs/%.o
	$(CC) $(LDFLAGS) -o $@ $^

PROGS += $(VM_PROGS)
