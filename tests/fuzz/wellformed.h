/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzzing aid: is an output well-formed?  The harnesses run every JSON and
 * SVG output they make through these, and abort() when one is not: a
 * command name chosen by whoever ran a program (or any other bytes of a
 * crafted dump) must not make `tipme ... --json` invalid JSON, nor a
 * picture invalid XML.  Both checks take the bytes as UTF-8 and refuse
 * anything else (lib/safetext.h's tm_utf8_len()).
 */
#ifndef TIPME_FUZZ_WELLFORMED_H
#define TIPME_FUZZ_WELLFORMED_H

#include <stddef.h>

/* 1 if @s (@n bytes) is one JSON value (RFC 8259) between white space. */
int fuzz_json_ok(const char *s, size_t n);

/* 1 if every line of @s that is not empty is one JSON value (JSON Lines). */
int fuzz_jsonl_ok(const char *s, size_t n);

/*
 * 1 if @s is a well-formed XML document as tipme writes them: an optional
 * <?xml ...?> declaration, one root element, elements, attributes in double
 * quotes, character data, comments, the five predefined entities and
 * character references; only XML 1.0 characters.
 */
int fuzz_xml_ok(const char *s, size_t n);

/* Check @s as @kind ("json", "jsonl", "xml"); abort() with a message if not. */
void fuzz_require(const char *kind, const char *what, const char *s, size_t n);

/* abort() unless the checkers accept samples of good and refuse bad ones. */
void fuzz_wellformed_selftest(void);

#endif
