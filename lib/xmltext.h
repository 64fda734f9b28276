/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text inside an XML document (the SVG pictures of tipme timeline and the
 * benchmarks): process names and labels come from outside, so every
 * character that means something to XML is written as its entity, and
 * the C0 controls, which XML 1.0 does not allow at all, become '?'.
 */
#ifndef TIPME_LIB_XMLTEXT_H
#define TIPME_LIB_XMLTEXT_H

#include <stdio.h>

/**
 * tm_xml_text() - write @s as XML character data or an attribute value
 * @f: the document
 * @s: NUL-terminated text
 *
 * '<', '>', '&' and '"' become entities; bytes below 0x20 become '?';
 * every other byte (UTF-8 included) passes unchanged.
 */
void tm_xml_text(FILE *f, const char *s);

#endif
