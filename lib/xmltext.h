/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text inside an XML document (the SVG pictures of tipme timeline and the
 * benchmarks): process names and labels come from outside, so every
 * character that means something to XML is written as its entity, and
 * the C0 controls, which XML 1.0 does not allow at all, become '?', and
 * bytes that are not UTF-8 the replacement character.
 */
#ifndef TIPME_LIB_XMLTEXT_H
#define TIPME_LIB_XMLTEXT_H

#include <stdio.h>

/**
 * tm_xml_text() - write @s as XML character data or an attribute value
 * @f: the document
 * @s: NUL-terminated text
 *
 * '<', '>', '&' and '"' become entities; the characters XML 1.0 does not
 * allow (C0 controls, U+FFFE, U+FFFF) become '?', and each byte that is
 * not part of valid UTF-8 (safetext.h's tm_utf8_len()) becomes U+FFFD;
 * every other character passes unchanged.  The result is always
 * well-formed UTF-8 XML text.
 */
void tm_xml_text(FILE *f, const char *s);

#endif
