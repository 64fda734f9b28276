#!/bin/bash
# The host step of t-triggers' key logging (tests/lib/tap.sh: tap_on_host):
# the key codes in the dump taken after vkbd typed around Ctrl-Alt-1 and
# Ctrl-Alt-0, the keylog flag of each dump (none in the hotkey's, taken
# before Ctrl-Alt-1), and the redacted copy, made here with tipme redact.
#
#   keys_check.sh
#       Reads TIPME_OUT/hotkey.dump (the first incident's) and keys.dump;
#       writes keys.jsonl, keys.tap, keys-redacted.dump and .jsonl
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
"$B"/tipme records --json --type input "$out/keys.dump" > "$out/keys.jsonl"
tap_cmp "tipme records --json --type input keys.dump" "$?" -eq 0
python3 tests/vm/check_keys.py logged "$out/keys.jsonl" > "$out/keys.tap"
tap_merge "$out/keys.tap"
# The dump says whether it may hold key codes: not the first (taken before
# Ctrl-Alt-1), but this one.
flags_of() { "$B"/tipme info --json "$1" | python3 tests/lib/jsonq.py join - flag_names; }
flags=$(flags_of "$out/hotkey.dump")
tap_cmp "the dump before key logging has no keylog flag: $flags" "$(grep -cw keylog <<< "$flags")" = 0
flags=$(flags_of "$out/keys.dump")
tap_cmp "the dump after it carries the keylog flag: $flags" "$(grep -cw keylog <<< "$flags")" = 1
tap_cmp "... and says who switched it on (keylog_on_by=keyboard)" \
	"$("$B"/tipme info "$out/keys.dump" | grep -c 'keylog_on_by=keyboard')" = 1
# Its redacted copy keeps no key code, and says so.
tap_check "tipme redact -o COPY DUMP" "$B"/tipme redact -o "$out/keys-redacted.dump" "$out/keys.dump"
"$B"/tipme records --json --type input "$out/keys-redacted.dump" > "$out/keys-redacted.jsonl"
tap_cmp "... keeps every input record ($(wc -l < "$out/keys.jsonl"))" \
	"$(wc -l < "$out/keys-redacted.jsonl")" -eq "$(wc -l < "$out/keys.jsonl")"
tap_cmp "... and zeroes every key code" \
	"$(python3 tests/vm/check_keys.py count-codes "$out/keys-redacted.jsonl")" = 0
flags=$(flags_of "$out/keys-redacted.dump")
tap_cmp "... and its copy has no keylog flag: $flags" "$(grep -cw keylog <<< "$flags")" = 0
tap_done
