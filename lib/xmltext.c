// SPDX-License-Identifier: GPL-2.0
/* Text inside an XML document (xmltext.h). */
#include <stdint.h>
#include <string.h>

#include "safetext.h"
#include "xmltext.h"

void tm_xml_text(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str), i = 0, n;
	uint32_t cp;

	while (i < len) {
		switch (s[i]) {
		case '<':
			fputs("&lt;", f);
			i++;
			continue;
		case '>':
			fputs("&gt;", f);
			i++;
			continue;
		case '&':
			fputs("&amp;", f);
			i++;
			continue;
		case '"':
			fputs("&quot;", f);
			i++;
			continue;
		default:
			break;
		}
		n = tm_utf8_len(s + i, len - i, &cp);
		if (!n) {
			/* not UTF-8: the replacement character */
			fputs("\xef\xbf\xbd", f);
			i++;
		} else if (cp < 0x20 || cp == 0xfffe || cp == 0xffff) {
			/* not an XML 1.0 character at all */
			fputc('?', f);
			i += n;
		} else {
			fwrite(s + i, 1, n, f);
			i += n;
		}
	}
}
