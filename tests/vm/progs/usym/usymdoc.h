/* SPDX-License-Identifier: GPL-2.0 */
/* usymprog's own shared library (usymdoc.c). */
#ifndef TIPME_VM_USYMDOC_H
#define TIPME_VM_USYMDOC_H

int doc_commit(int fd);

#endif
