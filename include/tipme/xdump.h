/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tipme: the X11 dump file written by tipme-xhook.  A userspace file
 * format (no kernel sees it), next to the kernel's <linux/tipme.h> whose
 * section header and clock pair it shares.
 *
 * Same rules as <linux/tipme.h>:
 *  - fixed-width __u8..__u64 only, explicit padding, no pointers;
 *  - every reserved field is written as zero (readers check it);
 *  - structures only grow at the end; readers take the size of every
 *    array entry from the file (struct tipme_x11_array.entry_size), copy
 *    what they know and zero-fill the rest, and skip unknown sections;
 *  - numbers never change meaning: new kinds, flags and sections get new
 *    numbers.
 *
 * Layout: struct tipme_x11_header, then nr_sections sections, each a
 * struct tipme_section (from <linux/tipme.h>: type, cpu = 0, size, crc32 of
 * the payload) followed by @size bytes of payload, zero-padded to a
 * multiple of 8.  Integers are in the byte order of the writer
 * (@byte_order says which).
 *
 * Clocks: every time in this file is CLOCK_MONOTONIC in ns unless its name
 * says otherwise.  The X server stamps elements with 32-bit milliseconds
 * of CLOCK_MONOTONIC; tipme-xhook unwraps them against its own receive
 * time, so @time_ns has 1 ms resolution.  struct tipme_clock_pair entries
 * (TIPME_X11_SEC_CLOCKS) pair the TSC with CLOCK_MONOTONIC so that a
 * postmortem can merge this file with a kernel dump.
 */
#ifndef TIPME_XDUMP_H
#define TIPME_XDUMP_H

#include <linux/types.h>
#include <linux/tipme.h>

#define TIPME_X11_MAGIC		"TIPMEX11"
#define TIPME_X11_VERSION	1

/* struct tipme_x11_header.flags */
#define TIPME_X11_FILE_KEYLOG		0x01	/* key logging was on for some records */
#define TIPME_X11_FILE_WRAPPED		0x02	/* the ring overwrote records */
#define TIPME_X11_FILE_NO_TSC		0x04	/* clock pairs carry no TSC (ts = 0) */
#define TIPME_X11_FILE_REDACTED		0x08	/* written by tipme redact */

/* struct tipme_x11_header.trigger: what made the dump */
enum tipme_x11_trigger {
	TIPME_X11_TRIGGER_HOTKEY	= 1,	/* Ctrl-Alt-Minus */
	TIPME_X11_TRIGGER_SIGNAL	= 2,	/* SIGUSR1 */
	TIPME_X11_TRIGGER_REQUEST	= 3,	/* asked by tipmed */
	TIPME_X11_TRIGGER_AUTO		= 4,	/* a press measured too slow */
};

/**
 * struct tipme_x11_header - first 64 bytes of an X dump
 * @magic: TIPME_X11_MAGIC, not NUL-terminated
 * @version: TIPME_X11_VERSION; readers refuse a newer version
 * @header_size: sizeof(struct tipme_x11_header) when written
 * @byte_order: TIPME_BYTE_ORDER_MARK as written by the producer
 * @flags: TIPME_X11_FILE_*
 * @nr_sections: sections that follow the header
 * @trigger: enum tipme_x11_trigger
 * @file_size: total bytes of the file, to detect truncation
 * @created_real_ns: CLOCK_REALTIME when the dump was taken
 * @trigger_mono_ns: CLOCK_MONOTONIC of the trigger (hotkey press or signal)
 * @reserved: zero
 */
struct tipme_x11_header {
	char magic[8];
	__u32 version;
	__u32 header_size;
	__u32 byte_order;
	__u32 flags;
	__u32 nr_sections;
	__u32 trigger;
	__u64 file_size;
	__u64 created_real_ns;
	__u64 trigger_mono_ns;
	__u64 reserved;
};

/* Section types (struct tipme_section.type).  Numbers are never reused. */
enum tipme_x11_section_type {
	TIPME_X11_SEC_RECORDS	= 1,	/* tipme_x11_array + tipme_x11_rec[], oldest first */
	TIPME_X11_SEC_CLIENTS	= 2,	/* tipme_x11_array + tipme_x11_client[] */
	TIPME_X11_SEC_CLOCKS	= 3,	/* tipme_x11_array + tipme_clock_pair[], oldest first */
	TIPME_X11_SEC_STATS	= 4,	/* struct tipme_x11_stats (size from the section) */
	TIPME_X11_SEC_SYSTEM	= 5,	/* "key=value\n" text: display, vendor, release */
	TIPME_X11_SEC_EXTENSIONS = 6,	/* tipme_x11_array + tipme_x11_ext[] */
	TIPME_X11_SEC_DESCRIPTION = 7,	/* UTF-8 text: the user's "what felt slow?" */
	__TIPME_X11_SEC_MAX,
};

/**
 * struct tipme_x11_array - head of an array section
 * @entry_size: bytes of one entry as written (readers use this, not sizeof)
 * @count: entries that follow
 * @reserved: zero
 */
struct tipme_x11_array {
	__u32 entry_size;
	__u32 count;
	__u64 reserved;
};

/* struct tipme_x11_rec.kind */
enum tipme_x11_kind {
	TIPME_X11_REQUEST	= 1,	/* a client's request, at dispatch */
	TIPME_X11_REPLY		= 2,	/* a reply sent to a client */
	TIPME_X11_EVENT		= 3,	/* an event delivered (queued) to a client */
	TIPME_X11_DEVICE	= 4,	/* a device (input) event, before grabs */
	TIPME_X11_ERROR		= 5,	/* an error sent to a client (not recorded yet) */
	TIPME_X11_CLIENT_START	= 6,	/* a client connected (setup reply sent) */
	TIPME_X11_CLIENT_DIED	= 7,	/* a client's connection closed */
	TIPME_X11_KEYLOG	= 8,	/* key logging switched: @detail = 1 on, 0 off */
	TIPME_X11_MARK		= 9,	/* Ctrl-Alt-Plus: the user marks "now" */
	TIPME_X11_TRIGGER	= 10,	/* Ctrl-Alt-Minus seen in the input stream */
	TIPME_X11_DISPATCH	= 11,	/* the server dispatched one of tipme-xhook's own
					 * requests (a fence): done with every request
					 * recorded before it; one after each request of
					 * another client, at most */
	__TIPME_X11_KIND_MAX,
};

/* struct tipme_x11_rec.flags */
#define TIPME_X11_REC_SEND_EVENT	0x01	/* event came from SendEvent */
#define TIPME_X11_REC_REDACTED		0x02	/* detail/state zeroed: key logging off */
#define TIPME_X11_REC_BIGREQ		0x04	/* request used BIG-REQUESTS length */
#define TIPME_X11_REC_TRUNCATED		0x08	/* GenericEvent: only 32 bytes recorded */
#define TIPME_X11_REC_REPLY_TIME	0x10	/* no per-element time: the RECORD reply's */
#define TIPME_X11_REC_MATCHED		0x20	/* reply: @major/@minor from its request */

/* The client id of records that are nobody's (and of an X server we do not know). */
#define TIPME_X11_CLIENT_NONE		0xffffffffU
/* The X server itself (device events, and client 0 of the server) */
#define TIPME_X11_CLIENT_SERVER		0

/**
 * struct tipme_x11_rec - one recorded X protocol element (48 bytes)
 * @time_ns: CLOCK_MONOTONIC of the element as stamped by the X server
 *           (1 ms resolution): requests at dispatch, events when queued,
 *           device events before grab processing
 * @late_us: how late tipme-xhook received it: receive time - @time_ns, in
 *           microseconds (saturates at 0xffffffff)
 * @client: struct tipme_x11_client.id; TIPME_X11_CLIENT_SERVER for device
 *          events, TIPME_X11_CLIENT_NONE if the table was full
 * @kind: enum tipme_x11_kind
 * @major: request: major opcode; reply: its request's major when
 *         TIPME_X11_REC_MATCHED; event: event code without the SendEvent
 *         bit (35 = GenericEvent); KEYLOG/MARK/TRIGGER: 0
 * @minor: request: extension minor opcode (0 for core requests); reply:
 *         its request's minor when matched; GenericEvent: evtype
 * @detail: event detail byte (keycode/button; 0 for key events while key
 *          logging is off); GenericEvent: extension major opcode
 * @flags: TIPME_X11_REC_*
 * @state: key/button/motion event modifier state (0 for key events while
 *         key logging is off)
 * @seq: request: the client's 32-bit sequence number; reply/event: the
 *       16-bit sequence extended with the client's last request
 * @length: bytes of the element (BIG-REQUESTS length included); events
 *          are always 32 bytes here, even GenericEvents
 * @xid: request: first XID (window, drawable, gc...) or 0 when the request
 *       has none (extension requests: their first 32-bit word; 0 for XTEST,
 *       XKB and XInput while key logging is off); event: its window
 * @x_time: input events: the event's own X timestamp (ms); else 0
 * @op_size: the request's size in Xprof's sense: pixels for PutImage,
 *           GetImage, CopyArea, CopyPlane, ClearArea, PolyFillRectangle;
 *           characters for the text requests; points, segments, rectangles
 *           or arcs for the other drawing requests; 0 otherwise
 */
struct tipme_x11_rec {
	__u64 time_ns;
	__u32 late_us;
	__u32 client;
	__u8 kind;
	__u8 major;
	__u16 minor;
	__u8 detail;
	__u8 flags;
	__u16 state;
	__u32 seq;
	__u32 length;
	__u32 xid;
	__u32 x_time;
	__u64 op_size;
};

/* struct tipme_x11_client.flags */
#define TIPME_X11_CL_PID_UNKNOWN	0x01	/* @pid could not be learnt: never guessed */
#define TIPME_X11_CL_SERVER		0x02	/* the X server itself (client 0) */
#define TIPME_X11_CL_PREEXISTING	0x04	/* connected before tipme-xhook started */
#define TIPME_X11_CL_DIED		0x08	/* disconnected at @end_ns */

/**
 * struct tipme_x11_client - one X client connection (64 bytes)
 * @id: the number records use (struct tipme_x11_rec.client)
 * @xid_base: the client's resource-id base; bases are reused, so a client
 *            is (@xid_base, @generation)
 * @generation: how many earlier clients tipme-xhook saw with this base
 *              (0 = connected before tipme-xhook started)
 * @pid: process id from X-Resource QueryClientIds, 0 = unknown
 * @flags: TIPME_X11_CL_*
 * @reserved0: zero
 * @start_ns: ClientStarted time, 0 if connected before tipme-xhook started
 * @end_ns: ClientDied time, 0 if still connected at the dump
 * @comm: /proc/PID/comm when the PID was learnt, NUL-terminated
 * @reserved: zero
 */
struct tipme_x11_client {
	__u32 id;
	__u32 xid_base;
	__u32 generation;
	__u32 pid;
	__u32 flags;
	__u32 reserved0;
	__u64 start_ns;
	__u64 end_ns;
	char comm[16];
	__u64 reserved;
};

/**
 * struct tipme_x11_ext - one X extension of the recorded server (32 bytes)
 * @major: its major opcode
 * @first_event: its first event code (0: none)
 * @first_error: its first error code (0: none)
 * @reserved0: zero
 * @name: NUL-terminated name, e.g. "RENDER"
 */
struct tipme_x11_ext {
	__u8 major;
	__u8 first_event;
	__u8 first_error;
	__u8 reserved0;
	char name[28];
};

/**
 * struct tipme_x11_stats - the recorder's counters at the dump
 * @written: records written to the ring since tipme-xhook started
 * @overwritten: of those, records lost because the ring wrapped
 * @dropped: protocol elements never written (malformed data, client
 *           table full)
 * @elements: protocol elements parsed (written + dropped + filtered)
 * @bytes: bytes of RECORD data received
 * @replies: RECORD replies received
 * @fences: fences sent
 * @fence_max_ns: longest fence (send to marker seen)
 * @late_max_us: latest element seen
 * @late_over_10ms: elements received more than 10 ms late
 * @redacted: key events whose detail and state were zeroed
 * @keymap_dropped: KeymapNotify events not recorded (key logging off)
 * @pid_resolved: clients whose PID was learnt
 * @pid_unknown: clients whose PID could not be learnt
 * @ring_capacity: records the ring holds
 * @start_mono_ns: CLOCK_MONOTONIC when recording started
 * @ui_dropped: device key events not recorded because they were typed
 *              into tipme-xhook's own "What felt slow?" window
 * @reserved: zero
 */
struct tipme_x11_stats {
	__u64 written;
	__u64 overwritten;
	__u64 dropped;
	__u64 elements;
	__u64 bytes;
	__u64 replies;
	__u64 fences;
	__u64 fence_max_ns;
	__u64 late_max_us;
	__u64 late_over_10ms;
	__u64 redacted;
	__u64 keymap_dropped;
	__u64 pid_resolved;
	__u64 pid_unknown;
	__u64 ring_capacity;
	__u64 start_mono_ns;
	__u64 ui_dropped;
	__u64 reserved[3];
};

#endif /* TIPME_XDUMP_H */
