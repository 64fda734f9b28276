#!/bin/bash
# vm: timeout=180 boot=bzimage
# The kernel symbol table every dump carries is kept on disk between dumps
# (/run/tipme/symbols.cache): a second dump takes it from there with the
# same bytes, a damaged cache is read again from /proc/kallsyms and
# rewritten, a module loaded since invalidates it (its symbols are in the
# next dump), and a cache directory others may write is not used.
# Booted from the bzImage, whose decompressor slides the kernel's text
# (KASLR; tests/vm/vm.sh boots the others at the link address).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
cache=/run/tipme/symbols.cache

symbols() { # DUMP [TEXT]: the payload of its symbols section, as a sha256
	# (or "none"); with TEXT: whether it holds TEXT (yes/no)
	if [ -n "${2:-}" ]; then
		python3 tests/vm/symtab.py has "$1" "$2"
	else
		python3 tests/vm/symtab.py hash "$1"
	fi
}
inode() { stat -c %i "$1" 2> /dev/null || echo none; }

tap_check "insmod tipme.ko" insmod module/tipme.ko || tap_done
rm -rf /run/tipme
tap_check "first dump" "$B"/tipme dump -o "$out/a.dump"
a=$(symbols "$out/a.dump")
tap_cmp "it has a symbol table" "$a" != none
tap_cmp "and left it in $cache, mode 0600" "$(stat -c %a "$cache" 2>&1)" = 600
tap_cmp "in a directory of mode 0700" "$(stat -c %a /run/tipme)" = 700
ino=$(inode "$cache")
tap_check "second dump" "$B"/tipme dump -o "$out/b.dump"
tap_cmp "the same symbol table" "$(symbols "$out/b.dump")" = "$a"
tap_cmp "taken from the cache, not written again" "$(inode "$cache")" = "$ino"

python3 tests/vm/symtab.py damage "$cache"
tap_check "a dump with the cache damaged" "$B"/tipme dump -o "$out/c.dump"
tap_cmp "the same symbol table, from /proc/kallsyms" "$(symbols "$out/c.dump")" = "$a"
tap_cmp "and the cache was written again" "$(inode "$cache")" != "$ino"

tap_check "load another module" insmod "/lib/modules/$(uname -r)/kernel/lib/crc-itu-t.ko"
tap_check "a dump after it" "$B"/tipme dump -o "$out/d.dump"
tap_cmp "the new module's symbols are in it" "$(symbols "$out/d.dump" "crc_itu_t [crc_itu_t]")" = yes
tap_cmp "they were not in the first" "$(symbols "$out/a.dump" "crc_itu_t [crc_itu_t]")" = no

mkdir -m 0777 "$out/open"
TIPME_CACHE_DIR=$out/open "$B"/tipme dump -o "$out/e.dump"
tap_cmp "a cache directory others may write is not used" \
	"$(ls "$out/open" | wc -l)" -eq 0
tap_cmp "and the dump still has the symbols" "$(symbols "$out/e.dump")" = "$(symbols "$out/d.dump")"
rmmod crc_itu_t
tap_check "rmmod" rmmod tipme
tap_done
