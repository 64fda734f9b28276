# helper/: the tipme CLI (control + analysis front end) and the tipmed daemon.
NL_OBJS := $(B)/helper/nl.o $(B)/helper/dumprx.o $(B)/helper/sysinfo.o
CTL_OBJS := $(B)/helper/ctl.o $(B)/helper/incident.o $(NL_OBJS)
EXTRA_CFLAGS_helper_ := $(NL_CFLAGS)

# PM_OBJS carries the X dump reader (tipme xrecords, tipme latency)
$(B)/tipme: $(B)/helper/tipme.o $(CTL_OBJS) $(PM_OBJS) $(LIB_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(NL_LIBS) -lm

$(B)/tipmed: $(B)/helper/tipmed.o $(B)/helper/incident.o $(NL_OBJS) $(LIB_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(NL_LIBS) -lm

PROGS += $(B)/tipme $(B)/tipmed
