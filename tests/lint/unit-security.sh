#!/bin/bash
# tipmed.service's sandbox, as systemd rates it: `systemd-analyze security
# --offline=yes` on the unit (helper/tipmed.service, and the package's copy
# that debian/rules makes from it) must say an exposure of 2.5 or below,
# and the lines tipmed's work depends on must be there: the capabilities
# it needs and no other, the one device, the socket families, the module
# loaded outside the sandbox.  Prints TAP; the lint step of tests/check.sh.
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib/common.sh"
. "$TIPME_ROOT/tests/lib/tap.sh"
cd "$TIPME_ROOT" || exit 1
MAX=2.5

if ! command -v systemd-analyze > /dev/null; then
	tap_skip "systemd-analyze security on tipmed.service" "no systemd-analyze"
	tap_done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the package's copy, made as debian/rules makes it
sed -e 's|/usr/local/sbin/tipmed|/usr/sbin/tipmed|' \
    -e 's|file:///usr/local/share/doc/tipme/README.md|man:tipmed(8)|' \
	helper/tipmed.service > "$tmp/tipmed.service"

# score UNIT: the overall exposure systemd-analyze gives it
score() {
	systemd-analyze security --offline=yes --no-pager "$1" 2>&1 |
		tee "$tmp/analyze.txt" |
		sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p'
}
for unit in helper/tipmed.service "$tmp/tipmed.service"; do
	name=${unit#"$tmp"/}
	[ "$name" = "$unit" ] || name="the package's tipmed.service"
	s=$(score "$unit")
	if [ -z "$s" ]; then
		tap_fail "systemd-analyze rates $name" "$(tail -n 5 "$tmp/analyze.txt")"
	elif awk -v s="$s" -v max="$MAX" 'BEGIN { exit !(s <= max) }'; then
		tap_ok "$name: exposure $s, at most $MAX"
	else
		tap_fail "$name: exposure $s, at most $MAX"
		grep '✗' "$tmp/analyze.txt" | sed 's/^/# /'
	fi
done

u=helper/tipmed.service
has() { grep -qx "$1" "$u"; }
tap_check "capabilities: CAP_NET_ADMIN, CAP_SYSLOG, CAP_CHOWN only" \
	has 'CapabilityBoundingSet=CAP_NET_ADMIN CAP_SYSLOG CAP_CHOWN'
tap_check "devices: closed but for the misc devices (/dev/tipme), read-only" \
	sh -c "grep -qx 'DevicePolicy=closed' $u && grep -qx 'DeviceAllow=char-misc r' $u"
tap_check "sockets: AF_UNIX (the control socket) and AF_NETLINK only" \
	has 'RestrictAddressFamilies=AF_UNIX AF_NETLINK'
tap_check "the module is loaded outside the sandbox (ExecStartPre=+, ProtectKernelModules=yes)" \
	sh -c "grep -qx 'ExecStartPre=-+/sbin/modprobe tipme' $u && grep -qx 'ProtectKernelModules=yes' $u"
tap_check "files it makes are its own (UMask=0077)" has 'UMask=0077'
tap_check "memory and task limits" sh -c "grep -q '^MemoryMax=' $u && grep -q '^TasksMax=' $u"
# /proc/kallsyms is what ProtectKernelTunables= and ProcSubset=pid hide
tap_check "/proc/kallsyms stays readable (no ProtectKernelTunables=, no ProcSubset=)" \
	sh -c "! grep -q '^ProtectKernelTunables=yes\|^ProcSubset=pid' $u"
tap_done
