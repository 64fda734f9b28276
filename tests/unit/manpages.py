#!/usr/bin/env python3
"""The man pages and bash completion made from the programs' --help
(Documentation/man/mkman.py): each renders without a groff warning, tipme's
has a section for every subcommand its --help lists, and the completion
offers the subcommands and each one's options.  Prints TAP.

usage: tests/unit/manpages.py BUILD_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, plan, failed  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def complete(comp, words):
    """what bash completion offers for the command line @words (last: being typed)"""
    script = ('source %s; COMP_WORDS=(%s); COMP_CWORD=%d; _%s; printf "%%s\\n" "${COMPREPLY[@]}"'
              % (comp, " ".join("'%s'" % w for w in words), len(words) - 1,
                 words[0].replace("-", "_")))
    return subprocess.run(["bash", "-c", script], stdout=subprocess.PIPE,
                          universal_newlines=True, check=True).stdout.split()


def main():
    build = sys.argv[1]
    out = tempfile.mkdtemp(prefix="tipme-man-")
    try:
        r = subprocess.run([sys.executable, os.path.join(ROOT, "Documentation/man/mkman.py"),
                            build, out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        check(r.returncode == 0, "mkman.py makes the pages: " + r.stdout.strip())
        pages = ["man1/tipme.1", "man1/tipme-xhook.1", "man1/tipme-bench.1", "man8/tipmed.8"]
        for p in pages:
            path = os.path.join(out, p)
            g = subprocess.run(["groff", "-man", "-ww", "-z", path], stderr=subprocess.PIPE,
                               universal_newlines=True) if os.path.exists(path) else None
            check(g is not None and g.returncode == 0 and not g.stderr,
                  "%s renders without a warning" % p, g.stderr if g else "missing")
        top = subprocess.run([os.path.join(build, "tipme"), "--help"], stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
        subs = [l.split()[0] for l in top.split("Subcommands:")[1].split("\n\n")[0].split("\n")
                if l.startswith("  ")]
        man = open(os.path.join(out, "man1/tipme.1")).read()
        missing = [s for s in subs if ".SS %s\n" % s not in man]
        check(len(subs) >= 10 and not missing,
              "tipme.1 has a section for each of the %d subcommands" % len(subs), missing)
        rep = subprocess.run([os.path.join(build, "tipme"), "report", "--help"],
                             stdout=subprocess.PIPE, universal_newlines=True).stdout
        check(rep.strip().split("\n")[0] in man, "... with the subcommand's own --help text")
        comp = os.path.join(out, "bash-completion/tipme")
        got = complete(comp, ["tipme", "rep"])
        check(got == ["report"], "completion: 'tipme rep' -> report", got)
        got = complete(comp, ["tipme", ""])
        check(set(subs) <= set(got), "completion: every subcommand", sorted(set(subs) - set(got)))
        got = complete(comp, ["tipme", "report", "--j"])
        check(got == ["--json"], "completion: 'tipme report --j' -> --json", got)
        got = complete(comp, ["tipmed", "--auto"])
        check(sorted(got) == ["--auto-per-day", "--auto-spacing"],
              "completion: tipmed's options", got)
        got = complete(comp, ["tipme-xhook", "--auto-t"])
        check(got == ["--auto-trigger-ms"], "completion: tipme-xhook's options", got)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    plan()
    return 1 if failed() else 0


if __name__ == "__main__":
    sys.exit(main())
