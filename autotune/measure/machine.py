"""The machine fingerprint: what a measurement or a fitted model is only valid for.

Cache sizes and associativities come from sysfs because the power-law model's
X1 variable is built from exactly these numbers; every run and every set of
coefficients is stored under the fingerprint's hash.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

SYSFS_CACHE = Path("/sys/devices/system/cpu/cpu0/cache")


@dataclass(frozen=True)
class CacheLevel:
    level: int
    kind: str  # Data | Unified | Instruction
    size_bytes: int
    associativity: int
    line_bytes: int


@dataclass(frozen=True)
class Machine:
    cpu_model: str
    cores: int
    l1d_bytes: int
    l1d_assoc: int
    l2_bytes: int
    l2_assoc: int
    l3_bytes: int
    l3_assoc: int
    line_bytes: int
    compiler: str = "gcc"
    compiler_version: str = ""

    @property
    def fingerprint(self) -> str:
        """Short stable hash of everything that makes timings comparable."""
        blob = json.dumps(asdict(self), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def to_dict(self) -> dict:
        d = asdict(self)
        d["fingerprint"] = self.fingerprint
        return d


def _parse_size(text: str) -> int:
    text = text.strip().upper()
    mult = 1
    if text.endswith("K"):
        mult, text = 1024, text[:-1]
    elif text.endswith("M"):
        mult, text = 1024 * 1024, text[:-1]
    return int(text) * mult


def read_caches(root: Path = SYSFS_CACHE) -> list[CacheLevel]:
    """Cache levels of cpu0 from sysfs; empty when sysfs is not available."""
    levels = []
    for idx in sorted(root.glob("index*")):
        try:
            levels.append(
                CacheLevel(
                    level=int((idx / "level").read_text()),
                    kind=(idx / "type").read_text().strip(),
                    size_bytes=_parse_size((idx / "size").read_text()),
                    associativity=int((idx / "ways_of_associativity").read_text() or 0),
                    line_bytes=int((idx / "coherency_line_size").read_text()),
                )
            )
        except (OSError, ValueError):
            continue
    return levels


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def compiler_version(cc: str = "gcc") -> str:
    exe = shutil.which(cc)
    if exe is None:
        return ""
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.splitlines()[0].strip() if out.stdout else ""


# Used when sysfs says nothing (containers, non-Linux): a typical modern x86 core.
_FALLBACK = {1: (32 * 1024, 8), 2: (1024 * 1024, 8), 3: (32 * 1024 * 1024, 16)}


def detect_machine(cc: str = "gcc") -> Machine:
    """Fingerprint of this machine with compiler ``cc``."""
    by_level: dict[int, CacheLevel] = {}
    for c in read_caches():
        if c.kind in ("Data", "Unified"):
            by_level.setdefault(c.level, c)

    def get(level: int) -> tuple[int, int]:
        c = by_level.get(level)
        if c is None or c.size_bytes <= 0:
            return _FALLBACK[level]
        return c.size_bytes, max(c.associativity, 1)

    l1, l1a = get(1)
    l2, l2a = get(2)
    l3, l3a = get(3)
    line = by_level[1].line_bytes if 1 in by_level else 64
    return Machine(
        cpu_model=_cpu_model(),
        cores=os.cpu_count() or 1,
        l1d_bytes=l1,
        l1d_assoc=l1a,
        l2_bytes=l2,
        l2_assoc=l2a,
        l3_bytes=l3,
        l3_assoc=l3a,
        line_bytes=line,
        compiler=os.path.basename(cc),
        compiler_version=compiler_version(cc),
    )


def numa_nodes(root: Path = Path("/sys/devices/system/node")) -> int:
    """How many NUMA nodes hold CPUs here (1 when sysfs does not say)."""
    try:
        nodes = [d for d in root.glob("node[0-9]*") if (d / "cpulist").read_text().strip()]
    except OSError:
        return 1
    return max(1, len(nodes))
