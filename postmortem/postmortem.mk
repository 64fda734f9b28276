# postmortem/: dump analysis (decode -> merge -> clock mapping -> commands).
PM_OBJS := $(B)/postmortem/load.o $(B)/postmortem/decode.o \
	$(B)/postmortem/clock.o $(B)/postmortem/names.o $(B)/postmortem/format.o \
	$(B)/postmortem/info.o $(B)/postmortem/records.o
# Instrumentation records, exec table, self-cost (instr.h)
PM_OBJS += $(B)/postmortem/instr_load.o $(B)/postmortem/instr_fmt.o \
	$(B)/postmortem/instr_cost.o
# Rebuilt thread states and the analyses on them
PM_OBJS += $(B)/postmortem/state.o $(B)/postmortem/resources.o $(B)/postmortem/why.o $(B)/postmortem/verdict.o $(B)/postmortem/report.o
# Input latency joins the X dump (lib/'s reader) to the kernel's
PM_OBJS += $(B)/postmortem/latency.o $(B)/postmortem/xrecords.o
# One static library of the analyses, linked after a program's objects
LIBPM := $(B)/libtipme-pm.a

$(LIBPM): $(PM_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^
