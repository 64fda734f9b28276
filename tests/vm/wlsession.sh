# shellcheck shell=bash
# A Wayland desktop in the guest, as t-wayland.sh, t-foot.sh and make
# demo-wayland (scripts/demo-wayland-guest.sh) start it: sway on its DRM
# backend (virtio-gpu: the test's header says "gpu=virtio"; wlroots 0.15
# refuses bochs, which has no PRIME import) with the pixman renderer and
# tests/vm/wayland-sway.conf, seatd, udevd, and a uinput keyboard that
# libinput finds through udev and that the caller types into with
# wl_type.  Sourced after tests/lib/tap.sh (wait_for), with B (the build
# directory) and out (where the logs go) set.
# shellcheck disable=SC2154 # B, out: set by the caller
# shellcheck disable=SC2034 # WL_ERR, SWAY_PID, SEATD_PID, WESTON_PID: for the caller

WL_UID=4242
WL_RT=/run/user/$WL_UID
WL_ERR=
wl_pids=()

# as_wl CMD...: CMD as the session's user
as_wl() { setpriv --reuid=$WL_UID --regid=$WL_UID --clear-groups "$@"; }
# shellcheck disable=SC2010 # names made by libwayland: wayland-N and wayland-N.lock
wl_sock() { ls "$WL_RT" 2>/dev/null | grep -m1 '^wayland-[0-9]*$'; }
wl_have_sock() { [ -n "$(wl_sock)" ]; }
wl_err() { WL_ERR=$*; return 1; }
wl_udevd_up() { udevadm control --ping >> "$out/udevd.log" 2>&1; }

# wl_base: what every compositor here needs before it starts: udevd
# (the add events replayed), the session's user and its runtime dir, and
# the keyboard.  0, or 1 with WL_ERR.  Logs: $out/udevd.log (udevadm's
# too), vkbd.out.
wl_base() {
	modprobe -a virtio_gpu uinput || wl_err "modprobe virtio_gpu uinput failed" || return
	# libinput and wlroots find their devices through libudev, and skip
	# those udev has not initialised: run udevd and replay the add events
	/lib/systemd/systemd-udevd > "$out/udevd.log" 2>&1 &
	wl_pids+=("$!")
	wait_for 30 wl_udevd_up || wl_err "udevd did not answer" || return
	{ udevadm trigger --action=add && udevadm settle -t 60; } >> "$out/udevd.log" 2>&1 ||
		wl_err "udevadm trigger, settle failed (udevd.log)" || return
	[ -z "${WL_DRM_USER:-}" ] || chmod 0666 /dev/dri/card0 ||
		wl_err "chmod /dev/dri/card0 failed" || return

	# sway refuses to run as root: a user of our own, its runtime dir on tmpfs
	echo "wl:x:$WL_UID:$WL_UID:wayland test user:$WL_RT:/bin/sh" >> /etc/passwd
	echo "wl:x:$WL_UID:" >> /etc/group
	mkdir -p "$WL_RT" && chown $WL_UID:$WL_UID "$WL_RT" && chmod 0700 "$WL_RT"
	export XDG_RUNTIME_DIR=$WL_RT HOME=$WL_RT

	# the keyboard, before the compositor starts: libinput opens it at start
	rm -f /tmp/wlkeys
	mkfifo /tmp/wlkeys
	"$B"/tests/vm/vkbd --stdin < /tmp/wlkeys > "$out/vkbd.out" 2>&1 &
	wl_pids+=("$!")
	exec 7> /tmp/wlkeys
	wait_for 30 grep -q ready "$out/vkbd.out" || wl_err "the virtual keyboard: $(cat "$out/vkbd.out")" ||
		return
	udevadm settle -t 30
}

# wl_session [SWAY_ARGS...]: starts the desktop.  0 with sway up,
# WAYLAND_DISPLAY, XDG_RUNTIME_DIR and HOME exported and SWAY_PID and
# SEATD_PID set; else 1 with WL_ERR saying what failed (sway's last log
# lines when it is sway).  Logs: wl_base's, seatd.log, and sway.log in
# $WL_LOGS if set (a guest tmpfs directory: a write to $out, a 9p mount,
# blocks sway for long), else in $out.  sway's configuration: $WL_CONF if
# set, else tests/vm/wayland-sway.conf.  WL_DRM_USER=1 (wl_base): the
# session's user may open the DRM device itself (as a desktop's user in
# group video does): wlroots opens it again by its path for a DRM lease,
# which Xwayland asks for at start; refused, sway sends Xwayland a
# protocol error ("no memory"), Xwayland exits, and sway 1.7 crashes
# (seen in t-xwayland's guest).
wl_session() {
	wl_base || return
	seatd -u wl -g wl > "$out/seatd.log" 2>&1 &
	SEATD_PID=$!
	wl_pids+=("$SEATD_PID")

	# (setpriv, not as_wl: a function in the background is a subshell,
	# and $! would be its pid, not sway's)
	WLR_BACKENDS=drm,libinput WLR_RENDERER=pixman WLR_DRM_DEVICES=/dev/dri/card0 \
		LIBSEAT_BACKEND=seatd setpriv --reuid=$WL_UID --regid=$WL_UID --clear-groups \
		sway "$@" -c "${WL_CONF:-$TIPME_SRC/tests/vm/wayland-sway.conf}" > "${WL_LOGS:-$out}/sway.log" 2>&1 &
	SWAY_PID=$!
	wl_pids+=("$SWAY_PID")
	wait_for 90 wl_have_sock ||
		wl_err "sway did not start: $(grep -v DEBUG "${WL_LOGS:-$out}/sway.log" | tail -n 5)" || return
	export WAYLAND_DISPLAY
	WAYLAND_DISPLAY=$(wl_sock)
}

# wl_weston: the desktop with weston 10 instead of sway: its DRM backend
# (virtio-gpu's card0) with the pixman renderer and the kiosk shell (no
# panel, no background, no client of its own: the one window gets the
# screen and the keyboard), never idle.  Debian 12's weston is built
# without libseat: its DRM backend opens the devices through logind
# (there is none in the guest) or itself as root on a VT ("direct"), so it
# runs as root on tty2, its socket in the session's runtime dir.  0 with
# weston up, WAYLAND_DISPLAY exported and WESTON_PID set; else 1 with
# WL_ERR (weston's last log lines).  Logs: wl_base's, and weston.log in
# $WL_LOGS if set, else in $out.
wl_weston() {
	local log=${WL_LOGS:-$out}/weston.log
	wl_base || return
	weston --backend=drm-backend.so --use-pixman --drm-device=card0 --tty=2 \
		--shell=kiosk-shell.so --idle-time=0 --no-config --log="$log" > "$log.out" 2>&1 &
	WESTON_PID=$!
	wl_pids+=("$WESTON_PID")
	wait_for 90 wl_have_sock ||
		wl_err "weston did not start: $(tail -n 8 "$log" "$log.out" 2>/dev/null)" || return
	export WAYLAND_DISPLAY
	WAYLAND_DISPLAY=$(wl_sock)
}

# wl_type CHORD: the keyboard types CHORD ("c", "ctrl+alt+minus": vkbd's;
# "@PID c": once thread PID sleeps)
wl_type() { echo "$1" >&7; }

# wl_fb: the primary plane's framebuffer in DRM's debugfs state, a new
# one at every flip (sway's swapchain never draws into the buffer on the
# screen): the display's own record of a flip; wl_fb_not FB: it is not FB
wl_fb() { awk '/^plane\[/ { p++ } p == 1 && /fb=/ { print $1; exit }' /sys/kernel/debug/dri/0/state; }
wl_fb_not() { [ "$(wl_fb)" != "$1" ]; }

# wl_flips_watch: DRM's page-flip events in ftrace from now on, in
# CLOCK_MONOTONIC.  wl_flip_after NS: one was delivered after NS
# (CLOCK_MONOTONIC ns).  A framebuffer seen in DRM's state is committed;
# its flip's event (the kernel's vblank_delivered record, which the
# report ends a press at) comes at the vblank after, so a trigger right
# after the new framebuffer is seen may make a dump without it.
WL_TRACE=/sys/kernel/tracing
wl_flips_watch() {
	echo mono > $WL_TRACE/trace_clock &&
		echo 1 > $WL_TRACE/events/drm/drm_vblank_event_delivered/enable &&
		echo 1 > $WL_TRACE/tracing_on
}
wl_flip_after() {
	awk -v ns="$1" '/drm_vblank_event_delivered:/ {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/ && substr($i, 1, length($i) - 1) * 1e9 > ns)
				found = 1
	} END { exit !found }' $WL_TRACE/trace
}

# wl_end: stops what wl_session or wl_weston started and ends the keyboard
wl_end() {
	local p
	for p in "${wl_pids[@]}"; do kill "$p" 2>/dev/null; done
	exec 7>&-
}
