# postmortem/: dump analysis (decode -> merge -> clock mapping -> commands).
PM_OBJS := $(B)/postmortem/load.o $(B)/postmortem/decode.o \
	$(B)/postmortem/clock.o $(B)/postmortem/format.o \
	$(B)/postmortem/info.o $(B)/postmortem/records.o
