// SPDX-License-Identifier: GPL-2.0
/*
 * tipme redact on a dump whose secrets the test planted: a host name, a
 * boot id, a home directory in a program path, a token in argv, a KASLR
 * slide, a lock address and typed key codes (key logging was on).  None
 * of them may be left anywhere in the
 * copy's bytes, the copy must be a valid dump flagged redacted, and
 * `tipme report` must give the same verdict and blocking sites from it.
 * User stacks: left out by default, kept with --keep-user-stacks at
 * made-up addresses (user_stacks()).
 */
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"
#include "cmd/commands.h"
#include "readfile.h"
#include "xdumpfile.h"
#include "scen.h"
#include "tap.h"
#include "writefile.h"

#define MS(x)	((uint64_t)((x) * 1000000.0))
#define SLIDE	0x1c600000ULL

static const char system_text[] =
	"sysname=Linux\nnodename=alice-laptop\nrelease=6.1.0-56-amd64\n"
	"boot_id=5b1e3c9a-0d7e-4e6b-9a51-7c2f0e8d4a11\nmachine=x86_64\n"
	"blockdev.8:0=sda\n";

static int found(const unsigned char *b, size_t n, const void *what, size_t len)
{
	return memmem(b, n, what, len) != NULL;
}

static char *run(int (*cmd)(int, char **), const char *dir, int argc,
		 char **argv, int *ret)
{
	char out[160], err[160];

	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(err, sizeof(err), "%s/err", dir);
	*ret = capture_run(cmd, argc, argv, out, err);
	return capture_slurp(*ret ? err : out);
}

/* "hunter2" typed with key logging on, as evdev codes */
static const uint16_t typed[] = { KEY_H, KEY_U, KEY_N, KEY_T, KEY_E, KEY_R, KEY_2 };

static void input(struct scen *s, uint64_t ts, uint8_t kind, uint8_t value,
		  uint16_t code)
{
	struct tipme_rec_input in = { .kind = kind, .value = value, .device = 3,
				      .code = code };

	scen_rec(s, 1, TIPME_REC_INPUT, ts, &in, sizeof(in));
}

/*
 * The input records of `tipme records` on @path: how many key records
 * have a code other than 0 (*@keys), and whether the hotkey and button
 * records kept theirs.
 */
static void input_codes(const char *dir, const char *path, int *keys,
			int *hotkey_kept, int *button_kept)
{
	char *argv[] = { "records", "--type", "input", (char *)path, NULL };
	char *a, *line, *save;
	int ret;

	*keys = *hotkey_kept = *button_kept = 0;
	a = run(pm_cmd_records, dir, 4, argv, &ret);
	if (ret || !a) {
		free(a);
		*keys = -1;
		return;
	}
	for (line = strtok_r(a, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, " key ") && !strstr(line, "code=0"))
			(*keys)++;
		if (strstr(line, " hotkey ") && strstr(line, "code=2"))
			*hotkey_kept = 1;
		if (strstr(line, " button ") && strstr(line, "code=272"))
			*button_kept = 1;
	}
	free(a);
}

/*
 * An incident directory with the kernel dump and an X dump that holds a
 * key code (key logging was on) and a remote display's host name.
 */
static void x_and_incident(const char *dir, const char *kdump)
{
	struct tipme_x11_rec rec[2] = {
		{ .time_ns = 10000000, .client = 0, .kind = TIPME_X11_DEVICE,
		  .major = 2, .detail = 38, .state = 4, .x_time = 10 },
		{ .time_ns = 10100000, .client = 1, .kind = TIPME_X11_EVENT,
		  .major = 2, .detail = 38, .state = 4, .seq = 7, .length = 32 },
	};
	struct tipme_x11_client cl = { .id = 1, .pid = 500, .comm = "app" };
	struct tm_xdump_content c = {
		.recs = rec, .nrecs = 2, .cl = &cl, .ncl = 1,
		.flags = TIPME_X11_FILE_KEYLOG, .trigger = TIPME_X11_TRIGGER_HOTKEY,
		.system = "display=alice-laptop:0\nvendor=The X.Org Foundation\n",
	};
	char inc[200], outd[200], path[260], cmd[600], *argv[6], *a;
	struct tipme_x11_rec r;
	struct tm_err e = { "" };
	uint8_t *buf = NULL, *xb;
	struct tm_xdump d;
	size_t len;
	int ret;

	snprintf(inc, sizeof(inc), "%s/incident", dir);
	snprintf(outd, sizeof(outd), "%s/incident.redacted", dir);
	mkdir(inc, 0700);
	snprintf(path, sizeof(path), "%s/kernel.dump", inc);
	snprintf(cmd, sizeof(cmd), "cp %s %s", kdump, path);
	if (system(cmd) || tm_xdump_build(&c, &xb, &len))
		return;
	snprintf(path, sizeof(path), "%s/xhook.dump", inc);
	tm_write_file_new(path, xb, len, &e);
	free(xb);
	snprintf(path, sizeof(path), "%s/meta.json", inc);
	tm_write_file_new(path, "{\"host\": \"alice-laptop\"}\n", 25, &e);

	argv[0] = "redact";
	argv[1] = inc;
	argv[2] = NULL;
	a = run(pm_cmd_redact, dir, 2, argv, &ret);
	tap_ok(ret == 0, "tipme redact on an incident directory");
	tap_diag("%s", a);
	free(a);
	snprintf(path, sizeof(path), "%s/xhook.dump", outd);
	ret = tm_xdump_load(path, &d, &buf, &e);
	tap_ok(!ret && (d.hdr.flags & TIPME_X11_FILE_REDACTED) &&
	       !(d.hdr.flags & TIPME_X11_FILE_KEYLOG),
	       "its X dump is flagged redacted, no longer keylog");
	if (!ret) {
		tm_xdump_rec(&d, 0, &r);
		ret = r.detail || r.state || !(r.flags & TIPME_X11_REC_REDACTED);
		tm_xdump_rec(&d, 1, &r);
		ret |= r.detail || r.state || r.seq != 7;
		tap_ok(!ret, "no key code or modifier state is left; the rest is kept");
		tap_ok(d.system_len && !memmem(d.system, d.system_len, "alice", 5) &&
		       memmem(d.system, d.system_len, "display=:0", 10),
		       "the display keeps :0 without the host");
	} else {
		tap_ok(0, "no key code or modifier state is left; the rest is kept");
		tap_ok(0, "the display keeps :0 without the host");
	}
	free(buf);
	snprintf(path, sizeof(path), "%s/meta.json", outd);
	tap_ok(access(path, F_OK) && !access(outd, F_OK),
	       "meta.json (it names the host) is not copied");
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", inc, outd);
	if (system(cmd))
		tap_diag("could not remove %s", inc);

	/* tipmed's incident with two users' X dumps: the copy holds the one
	 * the report reads (the requester's), as its xhook.dump */
	mkdir(inc, 0700);
	snprintf(path, sizeof(path), "%s/kernel.dump", inc);
	snprintf(cmd, sizeof(cmd), "cp %s %s", kdump, path);
	if (system(cmd) || tm_xdump_build(&c, &xb, &len))
		return;
	snprintf(path, sizeof(path), "%s/xhook-1000.dump", inc);
	tm_write_file_new(path, xb, len, &e);
	free(xb);
	snprintf(path, sizeof(path), "%s/xhook-1001.dump", inc);
	tm_write_file_new(path, "bad", 3, &e);
	snprintf(path, sizeof(path), "%s/meta.json", inc);
	snprintf(cmd, sizeof(cmd),
		 "{\"trigger\": {\"source\": \"user\", \"utc\": \"x\", \"uid\": 1000},\n"
		 " \"hand_ins\": [{\"file\": \"xhook-1001.dump\", \"uid\": 1001, \"pid\": 2, \"exe\": \"\", \"bytes\": 3},\n"
		 "  {\"file\": \"xhook-1000.dump\", \"uid\": 1000, \"pid\": 1, \"exe\": \"\", \"bytes\": %zu}]}\n",
		 len);
	tm_write_file_new(path, cmd, strlen(cmd), &e);
	a = run(pm_cmd_redact, dir, 2, argv, &ret);
	free(a);
	snprintf(path, sizeof(path), "%s/xhook.dump", outd);
	ret = ret ? ret : tm_xdump_load(path, &d, &buf, &e);
	tap_ok(!ret && (d.hdr.flags & TIPME_X11_FILE_REDACTED),
	       "an incident with X dumps per user: the requester's, redacted, is the copy's "
	       "xhook.dump (%s)", e.msg);
	free(buf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", inc, outd);
	if (system(cmd))
		tap_diag("could not remove %s", inc);
}

/* The first line of @t that contains @what, or "" (static storage). */
static const char *line_with(const char *t, const char *what)
{
	static char l[512];
	const char *p = t ? strstr(t, what) : NULL, *b;

	if (!p)
		return "";
	for (b = p; b > t && b[-1] != '\n'; b--)
		;
	snprintf(l, sizeof(l), "%.*s", (int)strcspn(b, "\n"), b);
	return l;
}

/* tipme records --type ustack of @dump */
static char *ustack_records(const char *dir, char *dump, int *ret)
{
	char *argv[] = { "records", "--type", "ustack", dump, NULL };

	return run(pm_cmd_records, dir, 4, argv, ret);
}

/*
 * User stacks: a program under a home directory whose chains (a sleep's
 * and a profiler sample's) lie in it and in libc, one address outside
 * every mapping.  By default the copy holds neither the chains nor the
 * mappings: no path, no address.  With --keep-user-stacks it holds the
 * chains and mappings moved to made-up addresses, the files by name: no
 * folder, none of the addresses, the build-id kept, and the chain reads
 * the same (same files, same offsets).
 */
static void user_stacks(const char *dir, struct scen *s)
{
	static const char maps[] =
		"40 555512340000 555512342000 1000 0123456789abcdef0123456789abcdef01234567 /home/alice/secret-proj/app\n"
		"40 7f1234500000 7f1234600000 28000 - /usr/lib/x86_64-linux-gnu/libc.so.6\n";
	static const uint64_t ips[] = { 0x555512341150, 0x555512341200, 0x7f1234529d90,
					0x7f0000001000 };
	static const uint64_t bases[] = { 0x555512340000, 0x7f1234500000 };
	struct tipme_sitetab_hdr h = { .hdr_size = sizeof(h), .count = 2, .capacity = 1024,
				       .depth = 16 };
	struct tipme_ustack u1 = { .id = 1, .pid = 40, .nr = 3 }, u2 = { .id = 2, .pid = 40, .nr = 1 };
	static const char *const pipe_site[] = { "pipe_read", "vfs_read", NULL };
	struct tipme_rec_ustack_c r = { 1 };
	char in[160], red[160], kept[160], *argv[8], *a, *b, *c;
	unsigned char tab[256];
	uint8_t *buf = NULL;
	size_t n = 0, off = sizeof(h), k;
	int ret, clean;

	memcpy(tab, &h, sizeof(h));
	memcpy(tab + off, &u1, sizeof(u1));
	memcpy(tab + off + sizeof(u1), ips, 3 * 8);
	off += sizeof(u1) + 3 * 8;
	memcpy(tab + off, &u2, sizeof(u2));
	memcpy(tab + off + sizeof(u2), ips + 3, 8);
	off += sizeof(u2) + 8;
	scen_kaslr_slide = 0;
	scen_init(s, 1);
	s->compact = 1;
	s->ustacks = tab;
	s->ustacks_len = off;
	s->maps = maps;
	scen_task(s, 40, 40, "app", "/home/alice/secret-proj/app", "app", 4);
	scen_switch(s, 0, MS(1), 0, TIPME_TS_RUNNABLE, 120, 40, 120);
	scen_prof(s, 0, MS(5), 40, NULL, 1);
	scen_prof(s, 0, MS(6), 40, NULL, 2);
	scen_switch(s, 0, MS(10), 40, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_blocked(s, 0, MS(10), 40, pipe_site);
	scen_rec(s, 0, TIPME_REC_USTACK_C, MS(10), &r, sizeof(r));
	snprintf(in, sizeof(in), "%s/u.dump", dir);
	snprintf(red, sizeof(red), "%s/u-red.dump", dir);
	snprintf(kept, sizeof(kept), "%s/u-kept.dump", dir);
	tap_ok(!scen_write(s, in), "a dump with user stacks under a home directory");

	a = ustack_records(dir, in, &ret);
	tap_ok(!ret && strstr(a, "user: app+0x2150 <- app+0x2200 <- libc.so.6+0x51d90"),
	       "the original names the chain by file and offset");

	argv[0] = "redact";
	argv[1] = "-o";
	argv[2] = red;
	argv[3] = in;
	b = run(pm_cmd_redact, dir, 4, argv, &ret);
	tap_ok(!ret && strstr(b, ", 2 user stack sections dropped"),
	       "by default the chains and mappings are left out");
	free(b);
	clean = !tm_read_file(red, &buf, &n, NULL) && !found(buf, n, "alice", 5) &&
		!found(buf, n, "secret-proj", 11) && !found(buf, n, "libc.so", 7);
	for (k = 0; k < 4 && clean; k++)
		clean = !found(buf, n, &ips[k], 8);
	tap_ok(clean, "... no path, no file name, no user address in its bytes");
	free(buf);
	buf = NULL;

	argv[1] = "--json";
	argv[2] = "--keep-user-stacks";
	argv[3] = "-o";
	argv[4] = kept;
	argv[5] = in;
	argv[6] = NULL;
	b = run(pm_cmd_redact, dir, 6, argv, &ret);
	tap_ok(!ret && strstr(b, "\"user_stack_sections_dropped\":0,\"user_stacks_kept\":true,"
			     "\"user_addresses_moved\":3,\"user_addresses_zeroed\":1,"
			     "\"map_paths_cut\":2"),
	       "--keep-user-stacks: 3 addresses moved, the 1 outside every mapping zeroed, 2 paths cut");
	tap_diag("%s", b);
	free(b);
	clean = !tm_read_file(kept, &buf, &n, NULL) && !found(buf, n, "alice", 5) &&
		!found(buf, n, "secret-proj", 11) && !found(buf, n, "/usr/lib", 8);
	for (k = 0; k < 4 && clean; k++)
		clean = !found(buf, n, &ips[k], 8);
	for (k = 0; k < 2 && clean; k++)
		clean = !found(buf, n, &bases[k], 8) && !found(buf, n, "555512340000", 12) &&
			!found(buf, n, "7f1234500000", 12);
	tap_ok(clean && found(buf, n, "0123456789abcdef0123456789abcdef01234567", 40) &&
	       found(buf, n, " /app\n", 6),
	       "... no folder, no address, no mapping's base; the build-id and the file's name kept");
	free(buf);
	c = ustack_records(dir, kept, &ret);
	tap_ok(!ret && !strcmp(line_with(a, "user: "), line_with(c, "user: ")) &&
	       *line_with(c, "user: "),
	       "... and the chain reads the same: same files, same offsets");
	tap_diag("original: %s", line_with(a, "user: "));
	free(a);
	free(c);
	unlink(in);
	unlink(red);
	unlink(kept);
}

int main(void)
{
	static const char *const site[] = { "mutex_lock", NULL };
	static const char argv_text[] = "/home/alice/bin/app\0--token=hunter2\0";
	struct tipme_rec_lock_begin lb = { .lock_lo = 0x8123a000, .lock_hi = 0xffff8880,
					   .pid = 500, .owner = 501,
					   .flags = TIPME_LOCK_MUTEX };
	struct tipme_rec_lock_end le = { .lock_lo = 0x8123a000, .lock_hi = 0xffff8880,
					 .pid = 500 };
	char dir[] = "/tmp/tipme-redact-XXXXXX", in[160], red[160], *a, *b;
	char *argv[8];
	uint64_t sym_lo = scen_sym("mutex_lock") + SLIDE;
	uint32_t site_lo;
	unsigned char lock_le[8];
	struct scen *s = calloc(1, sizeof(*s));
	uint8_t *buf = NULL;
	size_t n = 0;
	int ret, keys, hot, btn;
	size_t k;

	tap_plan(31);
	if (!s || !mkdtemp(dir))
		return 1;
	scen_kaslr_slide = SLIDE;
	scen_init(s, 2);
	s->system = system_text;
	scen_task(s, 500, 500, "app", "/home/alice/bin/app", argv_text, sizeof(argv_text) - 1);
	scen_task(s, 501, 500, "app", "/home/alice/bin/app", argv_text, sizeof(argv_text) - 1);
	scen_switch(s, 1, MS(1), 0, TIPME_TS_RUNNABLE, 120, 501, 120);
	scen_switch(s, 0, MS(2), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	scen_rec(s, 0, TIPME_REC_LOCK_BEGIN, MS(10), &lb, sizeof(lb));
	scen_switch(s, 0, MS(10.1), 500, TIPME_TS_DISK, 120, 0, 120);
	scen_blocked(s, 0, MS(10.1), 500, site);
	scen_wake(s, 1, MS(100), 500, 0, 501, TIPME_CTX_TASK);
	scen_switch(s, 0, MS(100.1), 0, TIPME_TS_RUNNABLE, 120, 500, 120);
	scen_rec(s, 0, TIPME_REC_LOCK_END, MS(100.2), &le, sizeof(le));
	scen_switch(s, 1, MS(105), 501, TIPME_TS_SLEEPING, 120, 0, 120);
	scen_switch(s, 0, MS(110), 500, TIPME_TS_SLEEPING, 120, 0, 120);
	{	/* 501 talks to a server: the two addresses mirrored */
		struct tipme_rec_net nr = {
			.laddr = { 203, 0, 113, 77 }, .raddr = { 198, 51, 100, 23 },
			.lport = 55555, .rport = 443, .pid = 501, .len = 10,
			.family = TIPME_NET_INET, .proto = 6,
		};

		scen_rec(s, 1, TIPME_REC_NET_SEND, MS(106), &nr, sizeof(nr));
		memcpy(nr.laddr, (uint8_t[4]){ 198, 51, 100, 23 }, 4);
		memcpy(nr.raddr, (uint8_t[4]){ 203, 0, 113, 77 }, 4);
		nr.lport = 443;
		nr.rport = 55555;
		nr.pid = 0;
		nr.ctx = TIPME_CTX_SOFTIRQ;
		scen_rec(s, 1, TIPME_REC_NET_RECV, MS(107), &nr, sizeof(nr));
	}
	s->file_flags = TIPME_FILE_KEYLOG;
	input(s, MS(111), TIPME_INPUT_HOTKEY, 1, KEY_1);
	for (k = 0; k < sizeof(typed) / sizeof(typed[0]); k++) {
		input(s, MS(112 + k), TIPME_INPUT_KEY, 1, typed[k]);
		input(s, MS(112.5 + k), TIPME_INPUT_KEY, 0, typed[k]);
	}
	input(s, MS(120), TIPME_INPUT_BUTTON, 1, BTN_LEFT);
	snprintf(in, sizeof(in), "%s/in.dump", dir);
	snprintf(red, sizeof(red), "%s/red.dump", dir);
	tap_ok(!scen_write(s, in), "a dump with planted secrets");

	argv[0] = "redact";
	argv[1] = "-o";
	argv[2] = red;
	argv[3] = in;
	argv[4] = NULL;
	a = run(pm_cmd_redact, dir, 4, argv, &ret);
	tap_ok(ret == 0, "tipme redact writes the copy");
	tap_diag("%s", a);
	tap_ok(ret == 0 && strstr(a, ", 14 key codes zeroed"), "... and says it zeroed 14 key codes");
	tap_ok(ret == 0 && strstr(a, " lock and 4 network addresses rewritten"),
	       "... and replaced the 4 network addresses of two records");
	free(a);
	input_codes(dir, in, &keys, &hot, &btn);
	tap_ok(keys == 14 && hot && btn, "the original holds the 14 key codes typed (%d)", keys);
	input_codes(dir, red, &keys, &hot, &btn);
	tap_ok(keys == 0, "the copy holds no key code (%d left)", keys);
	tap_ok(hot && btn, "... but keeps the hotkey's (Ctrl-Alt-1) and the button's");
	tap_ok(!tm_read_file(red, &buf, &n, NULL) && n > 0, "the copy can be read");
	tap_ok(!found(buf, n, "alice-laptop", 12) && !found(buf, n, "5b1e3c9a", 8),
	       "no host name, no boot id");
	tap_ok(!found(buf, n, "/home/alice", 11) && !found(buf, n, "hunter2", 7),
	       "no home directory, no argument");
	site_lo = (uint32_t)(scen_sym("mutex_lock") + 0x20);
	tap_ok(!found(buf, n, &sym_lo, 8) && !found(buf, n, &site_lo, 4),
	       "no slid kernel address (symbol or site)");
	memcpy(lock_le, &lb.lock_lo, 4);
	memcpy(lock_le + 4, &lb.lock_hi, 4);
	tap_ok(!found(buf, n, lock_le, 8), "no lock address");
	tap_ok(!found(buf, n, (uint8_t[4]){ 203, 0, 113, 77 }, 4) &&
	       !found(buf, n, (uint8_t[4]){ 198, 51, 100, 23 }, 4) &&
	       found(buf, n, (uint8_t[4]){ 192, 0, 2, 1 }, 4) &&
	       found(buf, n, (uint8_t[4]){ 192, 0, 2, 2 }, 4),
	       "no network address: 192.0.2.1 and .2 instead");
	free(buf);

	argv[0] = "info";
	argv[1] = "--json";
	argv[2] = red;
	argv[3] = NULL;
	a = run(pm_cmd_info, dir, 3, argv, &ret);
	tap_ok(ret == 0 && strstr(a, "\"redacted\"") && strstr(a, "6.1.0-56-amd64") &&
	       strstr(a, "sda") && !strstr(a, "\"keylog\""),
	       "the copy is a valid dump, flagged redacted and no longer keylog, keeping the kernel release and devices");
	free(a);

	argv[0] = "report";
	argv[1] = "--pid";
	argv[2] = "500";
	argv[3] = in;
	argv[4] = NULL;
	a = run(pm_cmd_report, dir, 4, argv, &ret);
	argv[3] = red;
	b = run(pm_cmd_report, dir, 4, argv, &ret);
	tap_ok(ret == 0 && strstr(a, "mutex_lock") && strstr(b, "mutex_lock"),
	       "report on the copy still names the blocking site (mutex_lock)");
	tap_ok(!strcmp(strstr(a, "waited") ? strstr(a, "waited") : a,
		       strstr(b, "waited") ? strstr(b, "waited") : b) ||
	       (strstr(a, "held by 501") && strstr(b, "held by 501")),
	       "and the same verdict: held by 501");
	tap_diag("original: %.*s", (int)strcspn(a, "\n"), a);
	tap_diag("redacted: %.*s", (int)strcspn(b, "\n"), b);
	free(a);
	free(b);

	argv[0] = "redact";
	argv[1] = "-o";
	argv[2] = red;
	argv[3] = in;
	argv[4] = NULL;
	a = run(pm_cmd_redact, dir, 4, argv, &ret);
	tap_ok(ret != 0, "an existing output is never replaced");
	free(a);
	argv[2] = "/nonexistent/dir/x.dump";
	a = run(pm_cmd_redact, dir, 4, argv, &ret);
	tap_ok(ret != 0 && strstr(a, "tipme redact:"), "an unwritable output is a clear error");
	free(a);
	x_and_incident(dir, in);
	user_stacks(dir, s);
	free(s);
	unlink(in);
	unlink(red);
	snprintf(in, sizeof(in), "%s/out", dir);
	unlink(in);
	snprintf(in, sizeof(in), "%s/err", dir);
	unlink(in);
	rmdir(dir);
	return tap_done();
}
