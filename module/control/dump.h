/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dumps: the callbacks of TIPME_CMD_DUMP, and the attributes the STATUS
 * reply shares with a dump.
 */
#ifndef TIPME_DUMP_H
#define TIPME_DUMP_H

#include <linux/types.h>
#include <net/genetlink.h>

int tipme_dump_start(struct netlink_callback *cb,
		     const struct genl_family *family);
int tipme_dump(struct sk_buff *skb, struct netlink_callback *cb);
int tipme_dump_done(struct netlink_callback *cb);

size_t tipme_dump_status_size(unsigned int cpus);
int tipme_dump_put_geometry(struct sk_buff *skb);
int tipme_dump_put_cost(struct sk_buff *skb);
int tipme_dump_put_params(struct sk_buff *skb);
int tipme_dump_put_cpu_stats(struct sk_buff *skb, int *cpu);

#endif /* TIPME_DUMP_H */
