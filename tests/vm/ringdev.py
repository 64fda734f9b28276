#!/usr/bin/env python3
"""/dev/tipme against hostile callers: what each must get (TAP on stdout).

Run as root in the guest with tipme.ko loaded.  Argument: the ring bytes
per CPU (sub-buffer size times sub-buffers).
"""
import errno
import fcntl
import mmap
import os
import struct
import sys

DEV = "/dev/tipme"
RING = int(sys.argv[1])
# nr_cpu_ids: one more than the last possible CPU
NCPU = int(open("/sys/devices/system/cpu/possible").read().strip().replace(",", "-").split("-")[-1]) + 1

# _IOWR(0xB7, 1, 16 bytes), _IOW(0xB7, 2, 4 bytes)
RING_CHECK = (3 << 30) | (16 << 16) | (0xB7 << 8) | 1
THAW = (1 << 30) | (4 << 16) | (0xB7 << 8) | 2

n = 0
failed = 0


def result(ok, name):
    global n, failed
    n += 1
    failed += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - {name}", flush=True)


def errno_of(fn):
    try:
        fn()
    except OSError as e:
        return e.errno
    return 0


def child_errno(fn):
    """errno of fn() run in a child as nobody (65534)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
        os.write(w, str(errno_of(fn)).encode())
        os._exit(0)
    os.close(w)
    got = int(os.read(r, 64) or b"-1")
    os.waitpid(pid, 0)
    return got


st = os.stat(DEV)
result(st.st_uid == 0 and (st.st_mode & 0o777) == 0o600, "/dev/tipme is root's, mode 0600")
result(child_errno(lambda: os.open(DEV, os.O_RDONLY)) == errno.EACCES,
       "nobody cannot open it (EACCES)")
result(errno_of(lambda: os.open(DEV, os.O_RDWR)) == errno.EINVAL,
       "opening it for writing: EINVAL")

fd = os.open(DEV, os.O_RDONLY)
m = mmap.mmap(fd, RING * NCPU, mmap.MAP_SHARED, mmap.PROT_READ)
result(len(m) == RING * NCPU, f"every CPU's ring maps read-only ({NCPU} x {RING} bytes)")
m.close()
e = errno_of(lambda: mmap.mmap(fd, RING * NCPU + 4096, mmap.MAP_SHARED, mmap.PROT_READ))
result(e == errno.EINVAL, f"a mapping past the last ring: EINVAL (got {errno.errorcode.get(e, e)})")
e = errno_of(lambda: mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ, offset=RING * NCPU))
result(e == errno.EINVAL, f"a mapping starting past the last ring: EINVAL (got {errno.errorcode.get(e, e)})")
result(errno_of(lambda: mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE))
       == errno.EACCES, "a writable mapping: EACCES")
result(errno_of(lambda: mmap.mmap(fd, 4096, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_EXEC))
       == errno.EPERM, "an executable mapping: EPERM")

buf = bytearray(struct.pack("=IIQ", 0, 0, 0))
result(errno_of(lambda: fcntl.ioctl(fd, RING_CHECK, buf)) == 0, "RING_CHECK on CPU 0")
print(f"# oldest intact sub-buffer of CPU 0: {struct.unpack('=IIQ', buf)[2]}")
for cpu, res in ((NCPU, 0), (1 << 31, 0), (0, 1)):
    b = bytearray(struct.pack("=IIQ", cpu, res, 0))
    result(errno_of(lambda: fcntl.ioctl(fd, RING_CHECK, b)) == errno.EINVAL,
           f"RING_CHECK cpu={cpu} reserved={res}: EINVAL")
result(errno_of(lambda: fcntl.ioctl(fd, THAW, struct.pack("=I", 0))) == errno.EINVAL,
       "THAW of generation 0: EINVAL")
result(errno_of(lambda: fcntl.ioctl(fd, THAW, struct.pack("=I", 12345))) == 0,
       "THAW of a window that is not frozen: nothing to do")
result(errno_of(lambda: fcntl.ioctl(fd, (0xB7 << 8) | 99, 0)) == errno.ENOTTY,
       "an unknown ioctl: ENOTTY")
os.close(fd)
print(f"1..{n}")
sys.exit(1 if failed else 0)
