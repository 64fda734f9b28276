# helper/: the tipme CLI (control + analysis front end) and the tipmed daemon.
NL_OBJS := $(B)/helper/nl.o $(B)/helper/dumprx.o $(B)/helper/sysinfo.o
CTL_OBJS := $(B)/helper/ctl.o $(B)/helper/incident.o $(NL_OBJS)
EXTRA_CFLAGS_helper_ := $(NL_CFLAGS) -Ipostmortem

$(B)/tipme: $(B)/helper/cli.o $(CTL_OBJS) $(LIBPM) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ $(NL_LIBS) -lm $(PM_LIBS)

$(B)/tipmed: $(B)/helper/tipmed.o $(B)/helper/ctlserver.o $(B)/helper/indexer.o $(B)/helper/incident.o $(NL_OBJS) $(LIBTIPME)
	$(CC) $(LDFLAGS) -o $@ $^ $(NL_LIBS) -lm

PROGS += $(B)/tipme $(B)/tipmed
