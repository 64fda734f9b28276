#!/bin/bash
# vm: timeout=120 share
# keylog_lock=1: key logging stays off whatever asks for it.  Ctrl-Alt-1
# is refused (and the kernel log says so), writing 1 to
# /proc/sys/tipme/keylog fails with EPERM, every key code in the rings is
# 0, and the dump carries neither the keylog flag nor any hotkey-1 mark.
# Loaded with autostart=0, recording nobody stopped is started from the
# keyboard (Ctrl-Alt-=), with a kernel log line.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT

modprobe uinput
tap_check "insmod keylog_lock=1 autostart=0" \
	insmod module/tipme.ko buffer_size=4M keylog_lock=1 autostart=0 || tap_done
tap_cmp "recording is off after load" "$(cat /proc/sys/tipme/enabled)" = 0
"$B"/tests/vm/vkbd ctrl+alt+equal > /dev/null
tap_cmp "Ctrl-Alt-= starts it (no one stopped it)" "$(cat /proc/sys/tipme/enabled)" = 1
tap_check "... and the kernel log says so" \
	sh -c "dmesg | grep -F 'recording started from the keyboard (Ctrl-Alt-=)'"
"$B"/tests/vm/vkbd ctrl+alt+1 s e c r e t > /dev/null
tap_cmp "Ctrl-Alt-1 leaves key logging off" "$(cat /proc/sys/tipme/keylog)" = 0
tap_check "the kernel log says the request was refused" \
	sh -c "dmesg | grep 'key logging is locked off (keylog_lock=1); request from the keyboard refused'"
if echo 1 2> "$out/sysctl.err" > /proc/sys/tipme/keylog; then
	tap_fail "writing 1 to /proc/sys/tipme/keylog is refused"
else
	tap_ok "writing 1 to /proc/sys/tipme/keylog is refused"
fi
tap_check "... with EPERM" grep -q "Operation not permitted" "$out/sysctl.err"
tap_cmp "... and key logging stays off" "$(cat /proc/sys/tipme/keylog)" = 0
tap_check "a dump" "$B"/tipme dump -o "$out/locked.dump"
"$B"/tipme records --json --type input "$out/locked.dump" > "$out/keys.jsonl"
python3 tests/vm/check_keys.py locked "$out/keys.jsonl" > "$out/keys.tap"
tap_merge "$out/keys.tap"
"$B"/tipme info --json "$out/locked.dump" > "$out/info.json"
flags=$(python3 tests/lib/jsonq.py join "$out/info.json" flag_names)
tap_cmp "the dump has no keylog flag ($flags)" "$(printf '%s' "$flags" | grep -cw keylog)" = 0
tap_cmp "its parameters say keylog_lock=1" "$("$B"/tipme info "$out/locked.dump" | grep -c 'keylog_lock=1')" = 1
tap_check "rmmod" rmmod tipme
tap_done
