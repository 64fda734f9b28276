# postmortem/: dump analysis, in layers (each uses only those above it):
#   dump/      open a dump, decode and merge its streams (each record's
#              time to CLOCK_MONOTONIC ns, once, in the merge), map its clock,
#              its exec table and kernel symbols; read a variable-length
#              record's tail (tail.c); write a redacted copy
#   records/   one text line / JSON object per record
#   incident/  one incident opened once: the kernel dump, the X dump,
#              meta.json (the one place that resolves an incident path)
#   state/     threads and their running/runnable/blocked stretches, the
#              resource waits; every time in CLOCK_MONOTONIC ns
#   analysis/  why, latency, cost, the verdict (verdict: the charging
#              walk; segcause: per-stretch rules) and its interval
#              (interval; stall, kinput: two ways of finding one; flip:
#              a press's path to the page flip)
#   print/     printers of analysis results (text, JSON, SVG, Perfetto)
#   cmd/       the CLI subcommands (postmortem/cmd/commands.h)
PM_OBJS := $(addprefix $(B)/postmortem/dump/,load.o decode.o index.o clock.o \
	rectypes.o exectab.o sites.o ustacks.o smpsnap.o usym.o symbols.o text.o tail.o redact.o)
PM_OBJS += $(addprefix $(B)/postmortem/records/,ops.o task.o sched.o ustack.o prof.o marks.o \
	proc.o blk.o lock.o mem.o sample.o cost.o work.o display.o net.o)
PM_OBJS += $(B)/postmortem/incident/incident.o
PM_OBJS += $(B)/postmortem/state/state.o $(B)/postmortem/state/resources.o \
	$(B)/postmortem/state/ckptfile.o
PM_OBJS += $(addprefix $(B)/postmortem/analysis/,info.o why.o cost.o latency.o segcause.o \
	verdict.o stall.o rank.o flip.o kinput.o xprof.o interval.o legs.o profile.o hot.o)
PM_OBJS += $(addprefix $(B)/postmortem/print/,site.o info.o why.o cost.o exec.o \
	latency.o verdict.o xprof.o perfetto.o timeline.o legs.o state.o profile.o hot.o)
PM_OBJS += $(addprefix $(B)/postmortem/cmd/,run.o cmd_info.o cmd_records.o \
	interval.o cmd_ps.o cmd_cost.o cmd_why.o cmd_latency.o cmd_report.o cmd_xrecords.o cmd_redact.o cmd_export.o cmd_timeline.o cmd_legs.o cmd_profile.o cmd_index.o)
# One static library of the analyses, linked after a program's objects,
# then $(PM_LIBS): elfutils for user-space symbols (dump/usym.c; tipmed
# and the module do not link it), libdl for libdebuginfod, loaded only
# when $DEBUGINFOD_URLS is set, zlib for the compressed Perfetto export
# (lib/gzwrite.c), libpthread for its thread and info's
LIBPM := $(B)/libtipme-pm.a
PM_LIBS := $(shell pkg-config --libs libdw 2>/dev/null || echo -ldw -lelf) -ldl -lz -lpthread

$(LIBPM): $(PM_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^
