# helper/: the tipme CLI (control + analysis front end) and the tipmed daemon.
CTL_OBJS := $(B)/helper/ctl.o
TIPMED_OBJS := $(B)/helper/tipmed.o
EXTRA_CFLAGS_helper_ := $(NL_CFLAGS)

$(B)/tipme: $(B)/helper/tipme.o $(CTL_OBJS) $(PM_OBJS) $(LIB_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(NL_LIBS) -lm

PROGS += $(B)/tipme
