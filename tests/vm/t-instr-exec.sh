#!/bin/bash
# vm: timeout=180 share
# Issue 4: the exec table.  A process started before tipme.ko is loaded must
# be in the table from the snapshot; a short-lived process exec'd with a
# known argv, which exits before the dump, must be there with that argv,
# its exit status and its exit time.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
mono() { python3 tests/lib/mono.py; }

sleep 1000 &
pre=$!
tap_check "insmod tipme.ko" insmod module/tipme.ko buffer_size=16M || tap_done
t0=$(mono)
"$B"/tests/vm/argvprog 7 alpha "beta gamma" --delta=1 &
short=$!
wait "$short"
status=$?
t1=$(mono)
tap_cmp "argvprog exited with 7" "$status" -eq 7
tap_diag "pre=$pre short=$short status=$status t0=$t0 t1=$t1"
tap_check "tipme stop" "$B"/tipme stop
tap_check "tipme dump" "$B"/tipme dump -o "$out/exec.dump"
"$B"/tipme ps --json "$out/exec.dump" > "$out/ps.json"
tap_cmp "tipme ps --json succeeds" "$?" -eq 0
# the records checked on the host, after the guest (natively)
tap_on_host tests/vm/host_check.sh --records "$out/exec.dump" "$out/exec.jsonl" \
	python3 tests/vm/check_instr.py exec "pre=$pre short=$short status=$status t0=$t0 t1=$t1" \
	"$out/exec.jsonl" "$out/ps.json" \
	"[\"$B/tests/vm/argvprog\", \"7\", \"alpha\", \"beta gamma\", \"--delta=1\"]"
"$B"/tipme ps "$out/exec.dump" | grep -E "^ *($pre|$short) " | sed 's/^/# /'
tap_check "rmmod" rmmod tipme
flags=$("$B"/tipme info --json "$out/exec.dump" | python3 tests/lib/jsonq.py get - flag_names)
tap_cmp "environment capture off by default, and the dump says so ($flags)" \
	"$(printf '%s' "$flags" | grep -c env_captured)" -eq 0

# The environment is kept only when asked for, and the dump records it.
tap_check "insmod tipme.ko capture_env=1" insmod module/tipme.ko buffer_size=16M capture_env=1 ||
	tap_done
TIPME_TEST_MARK=env-was-captured "$B"/tests/vm/argvprog 0 env &
envpid=$!
wait "$envpid"
tap_check "tipme dump" "$B"/tipme dump -o "$out/env.dump"
tap_check "rmmod" rmmod tipme
"$B"/tipme ps --json "$out/env.dump" > "$out/env.json"
python3 tests/vm/check_env.py "$out/env.json" "$envpid" > "$out/env.tap"
tap_merge "$out/env.tap"
flags=$("$B"/tipme info --json "$out/env.dump" | python3 tests/lib/jsonq.py get - flag_names)
tap_cmp "the dump says the environment was captured ($flags)" \
	"$(printf '%s' "$flags" | grep -c env_captured)" -eq 1
kill "$pre"
tap_done
