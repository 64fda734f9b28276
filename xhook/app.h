/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tipme-xhook: the program's state, one struct xh_app handed to each part
 * (main.c sets it up and runs the poll loop).  Only @st is shared with the
 * RECORD data thread (under st.lock, xhook.h); the rest belongs to the main
 * thread.
 */
#ifndef TIPME_XHOOK_APP_H
#define TIPME_XHOOK_APP_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <xcb/xcb.h>
#include <xcb/record.h>

#include "xhook.h"
#include "tipmed_link.h"
#include "ui.h"

/* The command-line options (main.c). */
struct xh_env {
	const char *display;
	const char *output_dir;
	int output_set;
	const char *tipmed;	/* tipmed's socket, or NULL: files only */
	int no_tipmed;
	uint64_t ring_bytes;
	unsigned fence_ms;
	int keylog;
	int no_grab;
	int no_ask;
	unsigned ask_timeout;
	unsigned auto_ms;	/* a press slower than this triggers (0: off) */
	unsigned auto_spacing_s;	/* at most one auto trigger per this */
	unsigned auto_per_day;	/* ... and this many in 24 hours */
	int verbose;
	int x11_session_only;	/* --x11-session-only: the autostart entry */
};

#define TL_SLOTS	8	/* snapshots waiting for their incident */
#define TL_RECENT	8

/* Working with tipmed: the subscription, the worker and what waits. */
struct xh_tipmed {
	struct tl_sub sub;
	struct tl_worker worker;
	int sub_err;		/* the connection error last reported */
	int sub_reported;	/* "subscribed" said for this connection */
	struct {
		int used;
		uint32_t seq;
		uint64_t taken_ns;
		struct tm_xdump_content snap;
	} slots[TL_SLOTS];
	struct { uint32_t seq, cause; } ours[TL_RECENT];	/* we asked for these */
	unsigned ours_next;
	struct { uint32_t seq; char name[128]; } recent[TL_RECENT]; /* incidents */
	unsigned recent_next;
	uint32_t note_seq;	/* a description waiting for its incident */
	char note_text[UI_TEXT_MAX + 1];
};

/* The "What felt slow?" window after a hotkey dump. */
struct xh_ask {
	struct tm_xdump_content snap;	/* the dump the answer goes into */
	char name[128];			/* ... and its file name */
	int open;
	uint64_t deadline;
	uint32_t seq;	/* the window is for this tipmed trigger (0: none) */
};

struct xh_app {
	struct xh_env env;
	struct xh_state st;	/* shared with the data thread */

	/* the two X connections and what the server has */
	xcb_connection_t *ctrl, *dconn;
	struct tipme_x11_ext *exts;
	uint32_t nexts;
	char system_text[1024];

	/* the RECORD context the data thread reads */
	xcb_record_context_t rctx;
	xcb_record_enable_context_cookie_t enable_cookie;
	pthread_t data_thread;
	int data_thread_started;

	unsigned dump_seq;	/* dumps named so far */

	/* the hotkey grabs in place (keys.c): (modifiers << 8 | keycode) */
#define XH_MAX_GRABS	512
	uint32_t grabbed[XH_MAX_GRABS / 2];
	unsigned n_grabbed;
	int grabs_whole;	/* every one of them was granted */

	/* the auto trigger (ask.c): the last one and the day's count */
	uint64_t auto_last_ns, auto_day_ns;
	unsigned auto_day_count;
	uint64_t auto_measured, auto_fired, auto_held;
	char auto_reason[256];	/* what the last one measured, in words */
	char auto_fields[160];	/* ... for tipmed: "input=key pid=..." */
	struct xh_tipmed tl;
	struct ui ui;
	struct xh_ask ask;

	/* the poll loop (main.c) */
	int wake_fd;		/* eventfd: the data thread or the tipmed worker */
	int signal_fd, timer_fd;
	unsigned ticks, ticks_per_s;	/* timer expirations, per second */
};

/* xconn.c */
int xh_xconn_open(struct xh_app *app);
int xh_xconn_extensions(struct xh_app *app);
void xh_xconn_describe(struct xh_app *app);
void xh_xconn_close(struct xh_app *app);

/* keys.c */
int xh_keys_setup(struct xh_app *app);
void xh_keys_grab(struct xh_app *app);

/* record.c */
void xh_record_initial_clients(struct xh_app *app);
int xh_record_create(struct xh_app *app);
int xh_record_thread_start(struct xh_app *app);
void xh_record_stop(struct xh_app *app);
void xh_record_join(struct xh_app *app);
void xh_pids_query_new_clients(struct xh_app *app);
void xh_resolve_pids(struct xh_app *app);
uint32_t xh_fence_send(struct xh_app *app);
int xh_fence_wait(struct xh_app *app, uint32_t seq, unsigned ms);

/* deliver.c */
int xh_dump_write(struct xh_app *app, const void *buf, size_t len, const char *name);
int xh_dump_local(struct xh_app *app, uint32_t cause, uint64_t t_ns,
		  struct tm_xdump_content *s, char *name, size_t size);
int xh_tipmed_start(struct xh_app *app, int wake_fd);
void xh_tipmed_connect(struct xh_app *app);
void xh_tipmed_read(struct xh_app *app);
int xh_tipmed_trigger(struct xh_app *app, uint32_t cause, uint64_t t_ns);
int xh_tipmed_trigger_done(struct xh_app *app, struct tl_job *j);
void xh_tipmed_note(struct xh_app *app, uint32_t seq, const char *text);
void xh_tipmed_tick(struct xh_app *app);
void xh_tipmed_stop(struct xh_app *app);

/* ask.c */
void xh_ask_connect(struct xh_app *app);
void xh_trigger(struct xh_app *app, uint32_t cause, uint64_t t_ns);
void xh_trigger_answered(struct xh_app *app, struct tl_job *j);
void xh_ask_poll(struct xh_app *app, short revents);
void xh_ask_finish(struct xh_app *app, int save);
void xh_auto_tick(struct xh_app *app);

#define xh_logv(app, ...) do {						\
	if ((app)->env.verbose)						\
		fprintf(stderr, "tipme-xhook: " __VA_ARGS__);		\
} while (0)

#endif
