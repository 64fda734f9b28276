"""What bench/tracers/guest.py (in the guest) and native.py (on this
machine) both count of the desktop-like load."""
import resource


def load_switches():
    """Context switches of the caller's reaped descendants (rusage: the
    load's own tasks, whatever else the machine runs)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_nvcsw + r.ru_nivcsw
