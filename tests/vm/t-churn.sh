#!/bin/bash
# vm: timeout=240 share
# Issue 31, item 2: the tables under churn.  With every table small
# (exec table 256 entries, 32 with strings; 4 blocking sites; 16 user
# chains; mappings of 8 processes), tests/vm/progs/churn sleeps at 8
# kernel blocking sites, then runs 400 children one after the other,
# each a process with its own user chain.  The module's memory must not
# grow (its tables are allocated at load: the vmalloc'ed bytes of
# tipme.ko's callers in /proc/vmallocinfo stay the same), and every loss is
# counted in the dump and shown by tipme info (check_churn.py: the counts
# against the truth churn printed).
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
children=400
params="exec_table_size=256 exec_strings=32 site_table=4 ustack_table=16 xmaps_procs=8 xmaps_max=64"
vmalloc_bytes() { awk '/\[tipme\]/ { s += $2 } END { print s + 0 }' /proc/vmallocinfo; }

# shellcheck disable=SC2086 # $params: one word each
tap_check "insmod with small tables ($params)" insmod module/tipme.ko buffer_size=16M $params ||
	tap_done
v0=$(vmalloc_bytes)
"$B"/tests/vm/churn "$children" > "$out/truth"
tap_cmp "churn ran $children children" "$?" -eq 0
v1=$(vmalloc_bytes)
tap_cmp "tipme.ko's vmalloc'ed memory did not grow ($v0 -> $v1 bytes)" "$v1" -eq "$v0"
tap_diag "truth: $(cat "$out/truth")"
tap_check "tipme dump" "$B"/tipme dump -o "$out/churn.dump"
tap_check "tipme info --json" sh -c "'$B'/tipme info --json '$out/churn.dump' > '$out/info.json'"
tap_check "tipme info" sh -c "'$B'/tipme info '$out/churn.dump' > '$out/info.txt'"
tap_check "tipme ps --json" sh -c "'$B'/tipme ps --json '$out/churn.dump' > '$out/ps.json'"
tap_check "rmmod" rmmod tipme
tap_on_host tests/vm/host_check.sh --records "$out/churn.dump" "$out/churn.jsonl" \
	python3 tests/vm/check_churn.py "$(cat "$out/truth")" "$params" "$out/info.json" \
	"$out/info.txt" "$out/ps.json" "$out/churn.jsonl"
tap_done
