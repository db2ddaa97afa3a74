"""Is the machine quiet enough to decide? What other processes did while we measured.

A whole-program decision is only as good as the machine it was measured on: with
other processes running, OpenMP threads spin at barriers on oversubscribed cores and a
region's ``num_threads(1)`` can really be faster, for the moment. So the time other
processes (and the hypervisor, as steal) took from the cores is read from
``/proc/stat`` around the runs, our own children subtracted, and a decision taken
under such load is not shipped silently. Linux only; elsewhere nothing is known and
nothing is claimed about the load.

The runs that decide what ships (the whole-program runs) are the ones watched: a loop
choice found under a load is either confirmed on a quiet machine or not shipped.

``OMP_WAIT_POLICY`` is left as the user set it, so a program is measured as it will
run; ``passive`` would hide the spinning that makes oversubscription slow, and with it
the difference at stake. What was in force is recorded with the load.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

BUSY_SHARE = 0.25  # other processes used more than a quarter of one core, on average
STEAL_SHARE = 0.10  # or the hypervisor took more than a tenth of the cores


@dataclass
class Load:
    """What happened on the machine during a window of measurement."""

    wall_s: float
    cores: int
    others_cores: float  # cores' worth of CPU time other processes used, on average
    steal_share: float  # share of all cores' time taken by the hypervisor
    loadavg: float
    wait_policy: str = ""  # OMP_WAIT_POLICY / GOMP_SPINCOUNT in force, as said to the user

    def busy(self) -> str:
        """Why the window was too busy to decide on ('' when quiet)."""
        if self.others_cores > BUSY_SHARE:
            return (
                f"other processes used {self.others_cores:.2f} of {self.cores} cores while "
                f"autotune measured (load average {self.loadavg:.2f}"
                + (f"; {self.wait_policy}" if self.wait_policy else "")
                + ")"
            )
        if self.steal_share > STEAL_SHARE:
            return f"the hypervisor took {self.steal_share:.0%} of the cores (steal time)"
        return ""

    def to_dict(self) -> dict:
        return {
            "wall_s": self.wall_s,
            "cores": self.cores,
            "others_cores": self.others_cores,
            "steal_share": self.steal_share,
            "loadavg": self.loadavg,
            "busy": self.busy(),
            "wait_policy": self.wait_policy,
        }


def wait_policy() -> str:
    """How idle OpenMP threads wait in the measured runs (from the environment)."""
    policy = os.environ.get("OMP_WAIT_POLICY")
    spin = os.environ.get("GOMP_SPINCOUNT")
    said = (
        f"OMP_WAIT_POLICY={policy}"
        if policy
        else "OMP_WAIT_POLICY unset (libgomp spins, then sleeps)"
    )
    return said + (f", GOMP_SPINCOUNT={spin}" if spin else "")


def _cpu_jiffies() -> tuple[int, int] | None:
    """(busy, steal) jiffies of all CPUs since boot, or None where /proc/stat is missing."""
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            fields = fh.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    vals = [int(x) for x in fields[1:]]
    user, nice, system, idle, iowait, irq, softirq = (vals + [0] * 7)[:7]
    steal = vals[7] if len(vals) > 7 else 0
    return user + nice + system + irq + softirq, steal


def _own_cpu_s() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class LoadWatch:
    """Measures what others did between ``start()`` and ``stop()``."""

    def __init__(self) -> None:
        self._t0 = 0.0
        self._jiffies: tuple[int, int] | None = None
        self._own0 = 0.0

    def start(self) -> LoadWatch:
        self._t0 = time.monotonic()
        self._jiffies = _cpu_jiffies()
        self._own0 = _own_cpu_s()
        return self

    def stop(self) -> Load | None:
        """The window's load (None where the kernel does not say)."""
        end = _cpu_jiffies()
        if self._jiffies is None or end is None:
            return None
        wall = max(time.monotonic() - self._t0, 1e-6)
        hz = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        cores = os.cpu_count() or 1
        busy_s = (end[0] - self._jiffies[0]) / hz
        steal_s = (end[1] - self._jiffies[1]) / hz
        own_s = _own_cpu_s() - self._own0
        others = max(0.0, busy_s - own_s) / wall
        try:
            loadavg = os.getloadavg()[0]
        except OSError:
            loadavg = 0.0
        return Load(wall, cores, others, steal_s / (wall * cores), loadavg, wait_policy())
