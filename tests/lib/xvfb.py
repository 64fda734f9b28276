"""An Xvfb of its own for a test or benchmark, and waiting on a condition.

Xvfb(*extra) starts a server on a free display (-displayfd), its env has
DISPLAY set; spawn/run start clients on it, stop() ends them all.
"""
import os
import select
import subprocess
import time


def wait_for(pred, timeout, what):
    end = time.monotonic() + timeout
    while True:
        v = pred()
        if v:
            return v
        if time.monotonic() > end:
            raise TimeoutError("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(0.01)


class XServer:
    """What a test does with any X server: its clients (procs), started on
    its display (env); subclasses start the server and set proc, display,
    env and server_pid."""

    def spawn(self, argv, **kw):
        kw.setdefault("stdout", subprocess.DEVNULL)
        kw.setdefault("stderr", subprocess.DEVNULL)
        p = subprocess.Popen(argv, env=self.env, **kw)
        self.procs.append(p)
        return p

    def run(self, argv, timeout=20, **kw):
        kw.setdefault("stdout", subprocess.PIPE)
        kw.setdefault("stderr", subprocess.DEVNULL)
        return subprocess.run(argv, env=self.env, timeout=timeout, check=True,
                              universal_newlines=True, **kw)

    def stop_clients(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait()

    def stop_server(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Xvfb(XServer):
    def __init__(self, *extra):
        r, w = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-nolisten", "tcp", "-screen", "0", "800x600x24"] +
            list(extra),
            pass_fds=[w], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(w)
        buf = b""
        end = time.monotonic() + 15
        while not buf.endswith(b"\n"):
            left = end - time.monotonic()
            if left <= 0 or not select.select([r], [], [], left)[0]:
                self.proc.kill()
                raise TimeoutError("Xvfb did not start")
            chunk = os.read(r, 16)
            if not chunk:
                raise RuntimeError("Xvfb exited")
            buf += chunk
        os.close(r)
        self.display = ":" + buf.decode().strip()
        self.env = dict(os.environ, DISPLAY=self.display)
        self.server_pid = self.proc.pid
        self.procs = []

    def stop(self):
        self.stop_clients()
        self.stop_server()
