#!/bin/bash
# vm: timeout=180 share
# Issue 3: the path probe -> ring -> netlink -> file -> reader.  Two
# processes ping-pong over pipes; the dump must show their switches and
# wakeups, in order, at the times the program itself measured.  Then a
# deliberately tiny ring must report overwritten records, exactly.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

clock=${TIPME_TEST_CLOCK:-auto}
tap_check "insmod tipme.ko buffer_size=16M clock=$clock" \
	insmod module/tipme.ko buffer_size=16M clock="$clock" || tap_done
[ "$clock" = auto ] || tap_cmp "the dump's clock is $clock" \
	"$(dmesg | grep -c "tipme: clock: $clock")" -ge 1
truth=$("$B"/tests/vm/pingpong 300 0)
# the records are checked on the host: whether this kernel is PREEMPT_RT
# goes with the truth
truth="$truth realtime=$(cat /sys/kernel/realtime 2> /dev/null || echo 0)"
tap_diag "ground truth: $truth"
tap_check "tipme stop" "$B"/tipme stop
tap_check "tipmed --once writes a dump" "$B"/tipmed --once -o "$out/pp.dump"
mode=$(stat -c %a "$out/pp.dump" 2>/dev/null)
tap_cmp "dump file mode is 0600" "$mode" = 600
# the records checked on the host, after the guest (natively)
tap_on_host tests/vm/host_check.sh --records "$out/pp.dump" "$out/pp.jsonl" \
	python3 tests/vm/check_pingpong.py "$truth" "$out/pp.jsonl"
"$B"/tipme info --json "$out/pp.dump" > "$out/pp-info.json"
tap_check "tipme info --json succeeds" test -s "$out/pp-info.json"
res=$(python3 tests/vm/check_info.py "$out/pp-info.json" no-loss)
printf '%s\n' "$res" | grep -q '^not ok' && tap_fail "16M ring: exact accounting" "$res" ||
	tap_ok "16M ring: nothing lost, dump holds every record written"
tap_check "rmmod" rmmod tipme

# Tiny: 2 sub-buffers of 4 KiB per CPU.
tap_check "insmod tiny ring" \
	insmod module/tipme.ko buffer_size=16K subbuf_size=4096 clock="$clock" || tap_done
"$B"/tests/vm/pingpong 2000 0 > /dev/null
tap_check "tipme stop" "$B"/tipme stop
tap_check "dump the tiny ring" "$B"/tipme dump -o "$out/tiny.dump"
"$B"/tipme info --json "$out/tiny.dump" > "$out/tiny-info.json"
res=$(python3 tests/vm/check_info.py "$out/tiny-info.json" overwritten)
printf '%s\n' "$res" | sed 's/^/# /'
printf '%s\n' "$res" | grep -q '^not ok' && tap_fail "tiny ring: overwritten counted exactly" ||
	tap_ok "tiny ring: overwritten counted exactly, nothing dropped"
"$B"/tipme info "$out/tiny.dump" | grep LOST > /dev/null
tap_cmp "tipme info prints the loss prominently" "$?" -eq 0
tap_check "rmmod" rmmod tipme
tap_done
