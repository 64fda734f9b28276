/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The input handler: input records and the trigger hotkey.
 */
#ifndef TIPME_INPUT_H
#define TIPME_INPUT_H

int tipme_input_init(void);
void tipme_input_exit(void);

#endif /* TIPME_INPUT_H */
