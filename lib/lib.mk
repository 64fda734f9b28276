# lib/: userspace code shared by tipme, tipmed and the tests.
LIB_OBJS := $(B)/lib/err.o $(B)/lib/crc32.o $(B)/lib/json.o \
	$(B)/lib/dumpfile_write.o $(B)/lib/dumpfile_read.o $(B)/lib/ctlclient.o \
	$(B)/lib/incident_path.o $(B)/lib/readfile.o $(B)/lib/termsafe.o
LIBTIPME_OBJS += $(LIB_OBJS)
