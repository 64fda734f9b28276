// SPDX-License-Identifier: GPL-2.0
/*
 * argvprog: exit at once with the status given as its first argument; the
 * arguments are there to be found in the exec table.
 *
 *   argvprog STATUS [ARGS...]
 */
#include <stdlib.h>

int main(int argc, char **argv)
{
	return argc > 1 ? atoi(argv[1]) : 0;
}
