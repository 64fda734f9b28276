// SPDX-License-Identifier: GPL-2.0
/* Text inside an XML document (xmltext.h). */
#include "xmltext.h"

void tm_xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
		}
	}
}
