// SPDX-License-Identifier: GPL-2.0
/*
 * tipme-xhook: the two connections to the X server and what it offers.
 *
 * The data connection carries only the RECORD context (record.c reads it
 * on the data thread); the control connection carries everything else:
 * the extension checks here, the key grabs (keys.c), the X-Resource PID
 * queries and the fences (record.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xcb/xcb.h>
#include <xcb/record.h>
#include <xcb/res.h>

#include "app.h"

#define XHOOK_VERSION	"0.1.0"

/**
 * xh_xconn_open() - open the control and the data connection
 * @app: env.display set
 *
 * Return: 0, or -EIO (said on stderr); xh_xconn_close() either way.
 */
int xh_xconn_open(struct xh_app *app)
{
	app->ctrl = xcb_connect(app->env.display, NULL);
	app->dconn = xcb_connect(app->env.display, NULL);
	if (xcb_connection_has_error(app->ctrl) || xcb_connection_has_error(app->dconn)) {
		fprintf(stderr, "tipme-xhook: cannot open display %s\n",
			app->env.display ? app->env.display : getenv("DISPLAY") ? getenv("DISPLAY") : "(unset)");
		return -EIO;
	}
	return 0;
}

/**
 * xh_xconn_extensions() - list the server's extensions, check RECORD and
 * X-Resource, note the opcodes the parser needs
 * @app: connections open
 *
 * Fills app->exts (for the dump) and the *_major fields of app->st.
 *
 * Return: 0, -ENOTSUP (said on stderr), -EIO or -ENOMEM.
 */
int xh_xconn_extensions(struct xh_app *app)
{
	xcb_list_extensions_reply_t *lr;
	xcb_query_extension_cookie_t *ck;
	xcb_str_iterator_t it;
	char names[256][28];
	int n = 0, i, have_record = 0, have_res = 0;

	lr = xcb_list_extensions_reply(app->ctrl, xcb_list_extensions(app->ctrl), NULL);
	if (!lr)
		return -EIO;
	ck = calloc(256, sizeof(*ck));
	app->exts = calloc(256, sizeof(*app->exts));
	if (!ck || !app->exts) {
		free(lr);
		free(ck);
		return -ENOMEM;
	}
	for (it = xcb_list_extensions_names_iterator(lr); it.rem && n < 256;
	     xcb_str_next(&it)) {
		int l = xcb_str_name_length(it.data);

		if (l > 27)
			l = 27;
		memcpy(names[n], xcb_str_name(it.data), l);
		names[n][l] = 0;
		ck[n] = xcb_query_extension(app->ctrl, (uint16_t)strlen(names[n]), names[n]);
		n++;
	}
	free(lr);
	for (i = 0; i < n; i++) {
		xcb_query_extension_reply_t *q = xcb_query_extension_reply(app->ctrl, ck[i], NULL);

		if (!q)
			continue;
		if (q->present) {
			struct tipme_x11_ext *e = &app->exts[app->nexts++];

			e->major = q->major_opcode;
			e->first_event = q->first_event;
			e->first_error = q->first_error;
			memcpy(e->name, names[i], sizeof(e->name));
			if (!strcmp(names[i], "RECORD"))
				have_record = 1;
			else if (!strcmp(names[i], "X-Resource")) {
				have_res = 1;
				app->st.xres_major = q->major_opcode;
			} else if (!strcmp(names[i], "XTEST"))
				app->st.xtest_major = q->major_opcode;
			else if (!strcmp(names[i], "XKEYBOARD"))
				app->st.xkb_major = q->major_opcode;
			else if (!strcmp(names[i], "XInputExtension")) {
				app->st.xi_major = q->major_opcode;
				app->st.xi_first_event = q->first_event;
			}
		}
		free(q);
	}
	free(ck);
	if (!have_record) {
		fprintf(stderr, "tipme-xhook: the X server has no RECORD extension (Xorg: Load \"record\" in the Module section)\n");
		return -ENOTSUP;
	}
	if (!have_res) {
		fprintf(stderr, "tipme-xhook: the X server has no X-Resource extension: client PIDs cannot be learnt\n");
		return -ENOTSUP;
	}
	{
		xcb_record_query_version_reply_t *rv = xcb_record_query_version_reply(app->ctrl,
			xcb_record_query_version(app->ctrl, 1, 13), NULL);
		xcb_res_query_version_reply_t *xv = xcb_res_query_version_reply(app->ctrl,
			xcb_res_query_version(app->ctrl, 1, 2), NULL);
		int ok = rv && xv && rv->major_version == 1 &&
			 (xv->server_major > 1 || (xv->server_major == 1 && xv->server_minor >= 2));

		if (!ok)
			fprintf(stderr, "tipme-xhook: need RECORD 1.x and X-Resource >= 1.2 (have RECORD %u.%u, X-Resource %u.%u)\n",
				rv ? rv->major_version : 0, rv ? rv->minor_version : 0,
				xv ? xv->server_major : 0, xv ? xv->server_minor : 0);
		free(rv);
		free(xv);
		if (!ok)
			return -ENOTSUP;
	}
	return 0;
}


/* The "key=value" lines about the server and us that every dump carries. */
void xh_xconn_describe(struct xh_app *app)
{
	const xcb_setup_t *setup = xcb_get_setup(app->ctrl);

	snprintf(app->system_text, sizeof(app->system_text),
		 "display=%s\nvendor=%.*s\nrelease=%u\nxhook_version=%s\nring_locked=%d\nfence_ms=%u\n",
		 app->env.display ? app->env.display : getenv("DISPLAY") ? getenv("DISPLAY") : "",
		 xcb_setup_vendor_length(setup), xcb_setup_vendor(setup),
		 setup->release_number, XHOOK_VERSION, app->st.ring_locked, app->env.fence_ms);
}

void xh_xconn_close(struct xh_app *app)
{
	if (app->ctrl)
		xcb_disconnect(app->ctrl);
	if (app->dconn)
		xcb_disconnect(app->dconn);
	free(app->exts);
}
