# lib/: what every userspace program shares: the readers and writers of
# every file format (kernel dump, X dump, incident files, control protocol),
# CRC, JSON, XML text, errors, terminal-safe output.  Built as one static library,
# $(LIBTIPME), that programs and tests link after their own objects.
LIB_OBJS := $(B)/lib/err.o $(B)/lib/crc32.o $(B)/lib/section.o $(B)/lib/json.o \
	$(B)/lib/dumpfile_write.o $(B)/lib/dumpfile_read.o $(B)/lib/ctlclient.o \
	$(B)/lib/ctlproto.o $(B)/lib/names.o \
	$(B)/lib/incident_path.o $(B)/lib/incident_meta.o $(B)/lib/readfile.o $(B)/lib/termsafe.o \
	$(B)/lib/xdump_read.o $(B)/lib/xdump_write.o $(B)/lib/xdump_print.o \
	$(B)/lib/xdump_redact.o $(B)/lib/writefile.o $(B)/lib/hist.o $(B)/lib/xmltext.o \
	$(B)/lib/safetext.o $(B)/lib/elfnote.o $(B)/lib/xmaps.o $(B)/lib/gzwrite.o
LIBTIPME := $(B)/libtipme.a
LIBTIPME_OBJS += $(LIB_OBJS)

$(LIBTIPME): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^
