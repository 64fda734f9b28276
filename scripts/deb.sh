#!/bin/bash
# tipme's Debian packages and its DKMS build, without touching this
# machine's package database or its /lib/modules.
#
#   scripts/deb.sh build     make deb: tipme-dkms, tipme and tipme-xhook
#                            (debhelper, dpkg-buildpackage in a copy of the
#                            tree) into build/deb/, then lintian: errors fail
#   scripts/deb.sh dkms      tipme-dkms's source built by dkms for the stock
#                            kernel, in DKMS trees of its own (build/dkms/);
#                            prints the path of the tipme.ko it built
#   scripts/deb.sh check     both, as TAP (make check's deb step); the VM
#                            test tests/vm/t-deb.sh then installs the
#                            packages into a guest with dpkg, loads the
#                            module dkms built and diagnoses the demo's stall
#                            with the installed programs
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

OUT=$TIPME_ROOT/build/deb
VERSION=$(sed -n 's/^#define TIPME_VERSION_STRING[[:space:]]*"\(.*\)"/\1/p' \
	"$TIPME_ROOT/include/uapi/linux/tipme.h")
[ -n "$VERSION" ] || die "no TIPME_VERSION_STRING in include/uapi/linux/tipme.h"

usage() { sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }

build() {
	local src=$OUT/tipme-$VERSION
	for t in dpkg-buildpackage dh dh_dkms lintian; do
		command -v "$t" > /dev/null || die "$t not found (run scripts/deps.sh)"
	done
	rm -rf "$OUT"
	mkdir -p "$src"
	# the tracked files as they are now (uncommitted edits included)
	if git -C "$TIPME_ROOT" rev-parse --git-dir > /dev/null 2>&1; then
		(cd "$TIPME_ROOT" && git ls-files -z --cached --others --exclude-standard |
			cpio -0pdm --quiet "$src")
	else
		(cd "$TIPME_ROOT" && tar --exclude=./build --exclude=./.cache -cf - .) | tar -xf - -C "$src"
	fi
	note "building the packages of tipme $VERSION in $src (log: build/deb/build.log)"
	(cd "$src" && dpkg-buildpackage -us -uc -b --jobs="$(nproc)") > "$OUT/build.log" 2>&1 ||
		{ tail -n 30 "$OUT/build.log" >&2; die "dpkg-buildpackage failed"; }
	ls "$OUT"/*.deb
}

lint() {
	lintian --fail-on error --tag-display-limit 0 "$OUT"/tipme_"$VERSION"_*.changes \
		> "$OUT/lintian.log" 2>&1 ||
		{ cat "$OUT/lintian.log" >&2; die "lintian found errors"; }
	cat "$OUT/lintian.log"
}

# dkms against the stock kernel's headers, in trees of its own: dkms's
# --sourcetree, --dkmstree and --installtree keep it out of /usr/src,
# /var/lib/dkms and /lib/modules.
dkms_build() {
	local kver d=$TIPME_ROOT/build/dkms deb
	command -v dkms > /dev/null || die "dkms not found (run scripts/deps.sh)"
	kver=$(tipme_kver) || die "no stock kernel with headers (run scripts/deps.sh)"
	deb=$(ls "$OUT"/tipme-dkms_"$VERSION"_amd64.deb 2> /dev/null) || die "no tipme-dkms package (scripts/deb.sh build)"
	rm -rf "$d"
	mkdir -p "$d/root" "$d/tree" "$d/install"
	dpkg -x "$deb" "$d/root"
	grep -q "^PACKAGE_VERSION=\"$VERSION\"" "$d/root/usr/src/tipme-$VERSION/dkms.conf" ||
		die "dkms.conf does not say version $VERSION"
	dkms add -m tipme -v "$VERSION" --sourcetree "$d/root/usr/src" --dkmstree "$d/tree" \
		> "$d/dkms.log" 2>&1 &&
		dkms build -m tipme -v "$VERSION" -k "$kver" --sourcetree "$d/root/usr/src" \
			--dkmstree "$d/tree" >> "$d/dkms.log" 2>&1 ||
		{ tail -n 30 "$d/dkms.log" >&2; cat "$d/tree/tipme/$VERSION/build/make.log" >&2 2> /dev/null; die "dkms build failed"; }
	# the build as a DKMS tarball: t-deb puts it where tipme-dkms's
	# postinst looks for prebuilt modules, so that the guest installs it
	# with dkms instead of compiling under TCG
	dkms mktarball -m tipme -v "$VERSION" -k "$kver" --sourcetree "$d/root/usr/src" \
		--dkmstree "$d/tree" --archive "tipme-$VERSION.dkms.tar.gz" >> "$d/dkms.log" 2>&1 ||
		{ tail -n 30 "$d/dkms.log" >&2; die "dkms mktarball failed"; }
	[ -s "$d/tree/tipme/$VERSION/tarball/tipme-$VERSION.dkms.tar.gz" ] ||
		die "dkms mktarball wrote no tipme-$VERSION.dkms.tar.gz"
	ls "$d/tree/tipme/$VERSION/$kver/x86_64/module/tipme.ko"
}

# dkms_scripts: tipme-dkms registers its source with DKMS when installed
# (the postinst dh_dkms writes) and removes it with the package, and
# depends on dkms.
dkms_scripts() {
	local deb dir
	deb=$(ls "$OUT"/tipme-dkms_"$VERSION"_amd64.deb 2> /dev/null) || die "no tipme-dkms package"
	dir=$(mktemp -d)
	dpkg-deb -e "$deb" "$dir"
	{ grep -qx "DKMS_NAME=tipme" "$dir/postinst" && grep -qx "DKMS_VERSION=$VERSION" "$dir/postinst" &&
		grep -q "/usr/lib/dkms/common.postinst" "$dir/postinst"; } 2> /dev/null ||
		{ rm -rf "$dir"; die "tipme-dkms's postinst does not run DKMS's for tipme $VERSION"; }
	{ grep -qx "DKMS_NAME=tipme" "$dir/prerm" && grep -q "dkms remove" "$dir/prerm"; } 2> /dev/null ||
		{ rm -rf "$dir"; die "tipme-dkms's prerm does not remove tipme from DKMS"; }
	rm -rf "$dir"
	dpkg-deb -f "$deb" Depends | grep -qw dkms || die "tipme-dkms does not depend on dkms"
	echo "postinst, prerm, Depends: $(dpkg-deb -f "$deb" Depends)"
}

# check: TAP.  Each part runs in a subshell, so a failing one (die) is a
# "not ok" with its reason, not the end of the step.
check() {
	local n=0 fail=0 err=$TIPME_ROOT/build/deb-check.err out rc
	result() {
		n=$((n + 1))
		if [ "$1" = 0 ]; then
			echo "ok $n - $2"
		else
			echo "not ok $n - $2"
			sed 's/^/# /' "$err"
			fail=1
		fi
	}
	mkdir -p "$TIPME_ROOT/build"
	out=$( (build) 2> "$err") && rc=0 || rc=$?
	result $rc "make deb: $(printf '%s\n' "$out" | sed 's|.*/||' | tr '\n' ' ')"
	out=$( (lint) 2> "$err") && rc=0 || rc=$?
	result $rc "lintian: no errors ($(printf '%s\n' "$out" | grep -c '^W:') warnings)"
	printf '%s\n' "$out" | grep -v '^$' | sed 's/^/# lintian: /'
	out=$( (dkms_scripts) 2> "$err") && rc=0 || rc=$?
	result $rc "tipme-dkms registers with DKMS on install and leaves on removal: $out"
	out=$( (dkms_build) 2> "$err") && rc=0 || rc=$?
	result $rc "dkms builds tipme-dkms's source for $(tipme_kver): ${out#"$TIPME_ROOT"/}"
	echo "1..$n"
	return $fail
}

case ${1:-} in
build)
	build
	lint
	;;
dkms)
	dkms_build
	;;
check)
	check
	;;
*)
	usage
	;;
esac
