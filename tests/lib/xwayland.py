"""An Xwayland of its own for a test: the X server of a Wayland desktop.

Xwayland(user) starts sway with wlroots' headless backend (no GPU, no input
devices, no seat daemon) and Xwayland forced on, as the unprivileged USER
(sway refuses to run as root).  Like tests/lib/xvfb.py's Xvfb it has
display, env (DISPLAY set), spawn, run and stop; and also:

  server_pid     the Xwayland process (the X server X clients talk to)
  wtype(*args)   keys through the compositor: wtype's virtual keyboard, so
                 they reach X clients the way a Wayland desktop's keyboard
                 does (compositor -> wl_keyboard -> Xwayland), not XTEST
  swaymsg(*args) the compositor's IPC, as JSON

Root's X clients are let in with `xhost +si:localuser:root` (Xwayland only
admits its own user otherwise).
"""
import ctypes
import json
import os
import pwd
import shutil
import subprocess
import tempfile

from xvfb import XServer, wait_for

NEEDS = ("sway", "Xwayland", "wtype", "xhost", "swaymsg", "setpriv")


PR_SET_CHILD_SUBREAPER = 36


class Xwayland(XServer):
    def __init__(self, user="nobody"):
        # wlroots starts Xwayland through a child that exits at once: be its
        # subreaper, so that it is ours to reap (and to wait for) at the end
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        self.server_pid = None
        pw = pwd.getpwnam(user)
        self.uid, self.gid = pw.pw_uid, pw.pw_gid
        self.dir = tempfile.mkdtemp(prefix="tipme-xwayland-")
        os.chmod(self.dir, 0o755)
        self.run_dir = os.path.join(self.dir, "run")
        os.mkdir(self.run_dir, 0o700)
        os.chown(self.run_dir, self.uid, self.gid)
        ready = os.path.join(self.run_dir, "display")
        config = os.path.join(self.dir, "config")
        with open(config, "w") as f:
            f.write("xwayland force\n"
                    "output HEADLESS-1 resolution 1024x768\n"
                    # DISPLAY is sway's Xwayland: once it answers, let
                    # root's clients in, then say which display it is
                    "exec sh -c 'xhost +si:localuser:root > /dev/null && "
                    "echo \"$DISPLAY\" > %s.tmp && mv %s.tmp %s'\n" % (ready, ready, ready))
        self.log_path = os.path.join(self.dir, "sway.log")
        self.env_wl = dict(os.environ, XDG_RUNTIME_DIR=self.run_dir, HOME=self.dir,
                           WLR_BACKENDS="headless", WLR_LIBINPUT_NO_DEVICES="1",
                           WLR_RENDERER="pixman")
        self.env_wl.pop("DISPLAY", None)
        self.env_wl.pop("WAYLAND_DISPLAY", None)
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen(
                self.as_user(["sway", "-c", config]), env=self.env_wl,
                stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        self.procs = []
        self.keyboard = None
        try:
            wait_for(lambda: os.path.exists(ready) or self.proc.poll() is not None, 30,
                     "sway to start Xwayland")
            if self.proc.poll() is not None:
                raise RuntimeError("sway exited with status %d:\n%s" %
                                   (self.proc.returncode, self.log_tail()))
            with open(ready) as f:
                self.display = f.read().strip()
            sockets = [s for s in os.listdir(self.run_dir) if s.startswith("wayland-") and
                       not s.endswith(".lock")]
            self.env_wl["WAYLAND_DISPLAY"] = sockets[0]
            ipc = [s for s in os.listdir(self.run_dir) if s.startswith("sway-ipc.")]
            self.env_wl["SWAYSOCK"] = os.path.join(self.run_dir, ipc[0])
            self.server_pid = self._xwayland_pid()
            # the desktop's keyboard: a virtual one that stays for the
            # server's life, as a real one does.  Without it each wtype run
            # would add and remove the seat's only keyboard, and Xwayland
            # its keyboard device, losing the first key of the run.
            self.keyboard = subprocess.Popen(self.as_user(["wtype", "-s", "86400000"]),
                                             env=self.env_wl, stdout=subprocess.DEVNULL,
                                             stderr=subprocess.DEVNULL)
            self.procs.append(self.keyboard)
            wait_for(lambda: any(s["capabilities"] & 2 for s in self.swaymsg("-t", "get_seats")),
                     15, "the seat to have a keyboard")
        except BaseException:
            self.stop()
            raise
        self.env = dict(os.environ, DISPLAY=self.display)
        self.env.pop("WAYLAND_DISPLAY", None)

    def as_user(self, argv):
        return ["setpriv", "--reuid=%d" % self.uid, "--regid=%d" % self.gid,
                "--clear-groups", "--"] + list(argv)

    def log_tail(self, n=20):
        with open(self.log_path, errors="replace") as f:
            return "".join(f.readlines()[-n:])

    def _xwayland_pid(self):
        # wlroots starts Xwayland through a short-lived child: it is not
        # sway's child, so find it by its display
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open("/proc/%s/cmdline" % d, "rb") as f:
                    argv = f.read().split(b"\0")
            except OSError:
                continue
            if os.path.basename(argv[0]) == b"Xwayland" and self.display.encode() in argv[1:2]:
                return int(d)
        raise RuntimeError("no Xwayland for %s" % self.display)

    def wtype(self, *args, timeout=20):
        subprocess.run(self.as_user(["wtype"] + list(args)), env=self.env_wl, timeout=timeout,
                       check=True, stdout=subprocess.DEVNULL)

    def swaymsg(self, *args):
        out = subprocess.run(self.as_user(["swaymsg", "-r"] + list(args)), env=self.env_wl,
                             timeout=20, check=True, stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
        return json.loads(out)

    def focused_pid(self):
        """the pid of the window with the compositor's keyboard focus"""
        nodes = [self.swaymsg("-t", "get_tree")]
        while nodes:
            n = nodes.pop()
            if n.get("focused"):
                return n.get("pid")
            nodes += n.get("nodes", []) + n.get("floating_nodes", [])
        return None

    @staticmethod
    def _reap(pid):
        try:
            wait_for(lambda: os.waitpid(pid, os.WNOHANG)[0] == pid, 10, "Xwayland to exit")
        except ChildProcessError:   # not ours: a stray already reaped
            pass
        except TimeoutError:
            os.kill(pid, 9)
            os.waitpid(pid, 0)

    def stop(self):
        self.stop_clients()
        self.stop_server()
        if self.server_pid:
            self._reap(self.server_pid)
        shutil.rmtree(self.dir, ignore_errors=True)
