// SPDX-License-Identifier: GPL-2.0
/*
 * tipmed's incident root (helper/incident.c): pruning keeps what the
 * socket's members did not ask for.  One member's triggers rotate out
 * only their own incidents beyond their share (a quarter of --keep), not
 * root's, the kernel's or another member's.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "incident.h"
#include "incident_meta.h"
#include "tap.h"

static char root[] = "/tmp/tipme-inc-XXXXXX";

/* Incident @number asked for by @uid (-1: nobody, the hotkey). */
static int make(unsigned int number, long uid)
{
	struct tm_incident_meta m = { .number = number, .seq = number,
				      .source = uid < 0 ? "hotkey" : "user",
				      .utc = "2026-11-24T12:00:00Z",
				      .has_requester = uid >= 0,
				      .requester_uid = uid >= 0 ? (uint32_t)uid : 0 };
	struct tm_err e = { "" };
	char path[256];
	int fd, err;

	snprintf(path, sizeof(path), "%s/20261124T120000Z-%u", root, number);
	if (mkdir(path, 0700))
		return -1;
	fd = open(path, O_RDONLY | O_DIRECTORY);
	err = fd < 0 ? -1 : tm_incident_meta_write(fd, &m, &e);
	if (fd >= 0)
		close(fd);
	return err;
}

static int kept(unsigned int number)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/20261124T120000Z-%u", root, number);
	return !stat(path, &st);
}

int main(void)
{
	struct incident_cfg cfg = { .root = root, .keep = 8 };
	struct tm_err e = { "" };
	unsigned int removed = 0, i;
	int err = 0;
	char cmd[300];

	tap_plan(5);
	if (!mkdtemp(root))
		return 1;
	/* root's two (the hotkey, and root's `tipme trigger`), member 1002's
	 * two, then member 1001's six: ten, two more than --keep 8 */
	err |= make(1, -1) | make(2, 0) | make(3, 1002) | make(4, 1002);
	for (i = 5; i <= 10; i++)
		err |= make(i, 1001);
	tap_ok(!err, "ten incidents made");
	err = incident_prune(&cfg, &removed, &e);
	tap_ok(!err && removed == 2, "pruned to --keep 8: two removed (%u; %s)", removed, e.msg);
	tap_ok(kept(1) && kept(2), "root's and the hotkey's oldest incidents are kept");
	tap_ok(kept(3) && kept(4), "the other member's incidents are kept");
	tap_ok(!kept(5) && !kept(6) && kept(7) && kept(10),
	       "the flooding member's two oldest went; their newest stay");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		tap_diag("could not remove %s", root);
	return tap_done();
}
