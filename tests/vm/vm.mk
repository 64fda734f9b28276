# Workload programs the VM tests run inside the guest (ground truth makers).
VM_PROGS := $(B)/tests/vm/pingpong $(B)/tests/vm/vkbd

$(B)/tests/vm/%: $(B)/tests/vm/progs/%.o
	$(CC) $(LDFLAGS) -o $@ $^

PROGS += $(VM_PROGS)
