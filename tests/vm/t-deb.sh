#!/bin/bash
# vm: timeout=450
# Issue 15, parts 2 and 3: the packages a workstation installs.  The
# tipme-dkms, tipme and tipme-xhook packages of build/deb/ installed with
# dpkg into the guest (whose root is an overlay: the host's stays
# untouched): tipme-dkms's postinst registers the module with DKMS, which
# installs it for this kernel; modprobe loads it, and the demo's stall is
# diagnosed with the installed programs only: /usr/sbin/tipmed saves the
# incident, /usr/bin/tipme reports it (with --pid, and without it as
# make demo checks it: scripts/demo-check.py); removing tipme-dkms removes the
# module.  Compiling the module under TCG would take minutes, so the
# postinst finds the build that dkms made on the host from the same
# package and headers (scripts/deb.sh: dkms build, dkms mktarball) where
# DKMS looks for prebuilt modules, /usr/share/tipme-dkms/, and installs
# that with `dkms ldtarball` and `dkms install`.  By hand,
# `tests/vm/vm.sh --timeout 900 tests/vm/t-deb.sh compile` leaves it out,
# and the postinst compiles the module in the guest (about 8 minutes).
# `make check` builds both first (its deb step: scripts/deb.sh check); run
# alone without them, this test is skipped.
. "$TIPME_SRC/tests/lib/tap.sh"
cd "$TIPME_SRC" || exit 1
B=$TIPME_SRC/build
out=$TIPME_OUT
inc=/tmp/incidents
debs=("$B"/deb/tipme-dkms_*.deb "$B"/deb/tipme_*.deb "$B"/deb/tipme-xhook_*.deb)
tarball=$(ls "$B"/dkms/tree/tipme/*/tarball/tipme-*.dkms.tar.gz 2> /dev/null | head -n 1)
if [ ! -e "${debs[0]}" ] || [ ! -e "${debs[1]}" ] || [ ! -e "${debs[2]}" ] || [ -z "$tarball" ]; then
	tap_skip "the installed packages" "no packages or DKMS build in build/ (scripts/deb.sh check)"
	tap_done
fi
kv() { printf '%s\n' "$1" | sed -n "s/.*\b$2=\([^ ]*\).*/\1/p"; }
tap_diag "installing ${debs[*]##*/}"

# man-db's trigger re-indexes every man page: a minute under TCG, and
# nothing this test looks at (the guest's root is a throwaway overlay)
rm -f /var/lib/man-db/auto-update
# DKMS runs depmod when it installs the module and again when it removes
# it, and depmod reads every module of the kernel: Debian's 4000 (400 MB)
# took over a minute each time under TCG, half of this test.  In the
# guest's own module tree (the root is a throwaway overlay) the kernel's
# modules are only those it has loaded: what DKMS, depmod and modprobe do
# with tipme's is the same, and a module missing from the tree would fail
# its modprobe, not pass unnoticed.
kmods=/lib/modules/$KVER/kernel
mapfile -t loaded < <(awk '{ print $1 }' /proc/modules | xargs -r modinfo -k "$KVER" -n 2> /dev/null |
	grep "^$kmods/")
mkdir -p /tmp/kmods
for m in "${loaded[@]}"; do cp --parents "$m" /tmp/kmods/; done
if mount -t tmpfs -o mode=0755 kmods "$kmods" && cp -a "/tmp/kmods$kmods/." "$kmods/" &&
	depmod -a "$KVER"; then
	tap_diag "the guest's module tree: the ${#loaded[@]} modules it has loaded"
else
	tap_diag "the guest's module tree stays whole (could not trim it)"
fi
if [ "${1:-}" = compile ]; then
	tap_diag "the postinst compiles the module in the guest"
else
	mkdir -p /usr/share/tipme-dkms
	cp "$tarball" /usr/share/tipme-dkms/
fi
# A group tipme that is not a system group (an administrator made it for
# tipme's users): configuring must not fail, and says it uses the group.
groupadd --gid 4242 tipme
t0=$SECONDS
dpkg -i "${debs[@]}" > "$out/dpkg.log" 2>&1
tap_cmp "dpkg -i tipme-dkms tipme tipme-xhook ($((SECONDS - t0)) s)" "$?" -eq 0 ||
	sed 's/^/# /' "$out/dpkg.log"
grep -i -E 'dkms|tarball|install|build' "$out/dpkg.log" | head -n 12 | sed 's/^/# dpkg: /'
tap_check "installed: /usr/bin/tipme, /usr/sbin/tipmed, /usr/bin/tipme-xhook" \
	test -x /usr/bin/tipme -a -x /usr/sbin/tipmed -a -x /usr/bin/tipme-xhook
tap_cmp "the postinst kept the existing group tipme (gid 4242)" \
	"$(getent group tipme | cut -d: -f3)" = 4242
tap_check "... and said it is not a system group" grep -q 'group tipme (gid 4242), which is not a system group' "$out/dpkg.log"
tap_check "the systemd unit runs /usr/sbin/tipmed" \
	grep -qx 'ExecStart=/usr/sbin/tipmed' /lib/systemd/system/tipmed.service
tap_check "/var/lib/tipme is root's only" test "$(stat -c %a:%U /var/lib/tipme)" = 700:root
tap_check "X11 sessions autostart tipme-xhook (not Wayland ones)" \
	grep -qx 'Exec=tipme-xhook --x11-session-only' /etc/xdg/autostart/tipme-xhook.desktop
tap_check "man pages: tipme(1), tipmed(8), tipme-xhook(1)" test -e /usr/share/man/man1/tipme.1.gz -a \
	-e /usr/share/man/man8/tipmed.8.gz -a -e /usr/share/man/man1/tipme-xhook.1.gz
tap_check "bash completion for tipme" test -e /usr/share/bash-completion/completions/tipme

st=$(dkms status -m tipme -k "$KVER" 2>&1)
tap_diag "dkms status: $st"
tap_check "DKMS has tipme installed for $KVER" grep -q ": installed" <<< "$st"
ko=$(modinfo -n tipme 2> /dev/null)
tap_check "modprobe finds it in DKMS's place: ${ko:-none}" \
	test "$ko" = "/lib/modules/$KVER/updates/dkms/tipme.ko"
tap_check "modprobe tipme ($(modinfo -F version tipme), vermagic $(modinfo -F vermagic tipme | cut -d' ' -f1))" \
	modprobe tipme buffer_size=16M || tap_done
# The unit's sandbox, by hand where it can be without systemd (the guest's
# init is not systemd): the capability bounding set the installed unit
# names, no new privileges, its umask.  Not applied here: the system call
# filter, the socket families, the device policy, the read-only file
# system and the memory and task limits (Documentation/security.md).
unit=/lib/systemd/system/tipmed.service
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$unit")
bset=-all
for c in $caps; do bset="$bset,+$(tr 'A-Z' 'a-z' <<< "${c#CAP_}")"; done
umask_=$(sed -n 's/^UMask=//p' "$unit")
tap_diag "tipmed under setpriv --bounding-set=$bset --no-new-privs, umask ${umask_:-none}"
(umask "${umask_:-0022}" && exec setpriv --bounding-set="$bset" --inh-caps=-all --no-new-privs \
	/usr/sbin/tipmed -d "$inc" -s /tmp/tipmed.sock) > "$out/tipmed.log" 2>&1 &
tipmed=$!
wait_for 20 grep -q 'connected to tipme.ko' "$out/tipmed.log"
tap_cmp "the installed tipmed is up, with only the unit's capabilities" "$?" -eq 0
capbnd=$(awk '$1 == "CapBnd:" { print $2 }' "/proc/$tipmed/status")
tap_cmp "... its bounding set is $caps (CapBnd $capbnd)" \
	"$((16#$capbnd))" -eq $(((1 << 12) | (1 << 34) | (1 << 0)))
tap_cmp "... and it gave the control socket to the group tipme (CAP_CHOWN)" \
	"$(stat -c %G:%a /tmp/tipmed.sock)" = tipme:660

t=$("$B"/tests/vm/stall 300)
tap_diag "ground truth: $t"
/usr/bin/tipme trigger -s /tmp/tipmed.sock > /dev/null
wait_for 60 grep -q 'incident .* bytes of records' "$out/tipmed.log"
tap_cmp "tipme trigger: the installed tipmed saved an incident" "$?" -eq 0
incident=$(find "$inc" -mindepth 1 -maxdepth 1 -type d ! -name '.*' | head -n 1)
/usr/bin/tipme report --json --pid "$(kv "$t" victim)" --from "$(kv "$t" start)" \
	--to "$(kv "$t" end)" "$incident" > "$out/report.json"
tap_cmp "the installed tipme report succeeds" "$?" -eq 0
syms=$(/usr/bin/tipme info --json "$incident/kernel.dump" |
	python3 tests/lib/jsonq.py sumif - sections size name symbols)
tap_cmp "the dump has the kernel's symbols ($syms bytes: /proc/kallsyms read with CAP_SYSLOG)" \
	"${syms:-0}" -gt 100000
/usr/bin/tipme report --pid "$(kv "$t" victim)" --from "$(kv "$t" start)" --to "$(kv "$t" end)" \
	"$incident" 2>&1 | head -n 1 | sed 's/^/# /'
python3 tests/vm/check_report.py cpu "$t" "$out/report.json" > "$out/report.tap" 2>&1
tap_merge "$out/report.tap"
# the demo's own check (scripts/demo-check.py, as make demo runs it): no
# --pid, the installed tipme finds the stall by itself
/usr/bin/tipme report --json "$incident" > "$out/report-nopid.json"
tap_cmp "the installed tipme report without --pid succeeds" "$?" -eq 0
python3 scripts/demo-check.py "$t" "$out/report-nopid.json" > "$out/demo-check.txt" 2>&1
tap_cmp "... and reports the demo's stall: $(head -c 300 "$out/demo-check.txt")" "$?" -eq 0

kill "$tipmed"
wait "$tipmed" 2> /dev/null
tap_check "rmmod" rmmod tipme
dpkg -r tipme-dkms > "$out/dpkg-r.log" 2>&1
tap_cmp "dpkg -r tipme-dkms" "$?" -eq 0 || sed 's/^/# /' "$out/dpkg-r.log"
tap_check "... removes the module from DKMS and from /lib/modules" \
	test -z "$(dkms status -m tipme 2>&1)" -a ! -e "/lib/modules/$KVER/updates/dkms/tipme.ko"
# an incident where the unit's tipmed keeps them (this one used $inc)
mkdir -p /var/lib/tipme/20260101T000000Z-1
cp "$incident/kernel.dump" /var/lib/tipme/20260101T000000Z-1/
dpkg --purge tipme-xhook tipme > "$out/dpkg-purge.log" 2>&1
tap_cmp "dpkg --purge tipme-xhook tipme" "$?" -eq 0 || sed 's/^/# /' "$out/dpkg-purge.log"
tap_check "... removes /var/lib/tipme and what it held" test ! -e /var/lib/tipme
tap_cmp "no WARNING/BUG in the kernel log" "$(dmesg | grep -c -E 'WARNING|BUG|Oops')" -eq 0
tap_done
