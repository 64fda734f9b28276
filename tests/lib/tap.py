# SPDX-License-Identifier: GPL-2.0
"""TAP lines for tipme's Python test scripts: one producer for all of them.

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
    from tap import check

check() prints "ok N - name" or "not ok N - name" followed by the
diagnostic (each line as "# ..."), counts the results and returns the
condition (with todo=REASON, a known failure: "# TODO REASON" after the
name, not counted as failed); skip() prints a skipped test; tap.failed() says how many
failed, tap.plan() prints "1..N".
"""
_n = 0
_failed = 0


def check(ok, name, diag="", todo=None):
    """todo: a known failure's reason: "not ok ... # TODO reason", not counted."""
    global _n, _failed
    _n += 1
    print(("ok" if ok else "not ok"), _n, "-", name, *(("# TODO", todo) if todo else ()),
          flush=True)
    if not ok:
        _failed += 0 if todo else 1
        if diag != "" and diag is not None:
            for line in str(diag).splitlines():
                print("#", line)
    return ok


def skip(name, reason):
    """An "ok N - name # SKIP reason" line: a test that could not run here."""
    global _n
    _n += 1
    print("ok", _n, "-", name, "# SKIP", reason, flush=True)


def failed():
    return _failed


def plan():
    print("1..%d" % _n)
