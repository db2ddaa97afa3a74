"""Which OpenMP runtime a compiler links with ``-fopenmp`` (libgomp, libomp, ...).

The variant space collapses only what that runtime is known to run
identically, so the answer comes from a real link: a one-line program is
built and its dynamic dependencies are read with ``ldd``.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shlex
import shutil
import subprocess
import tempfile
from pathlib import Path

from autotune import cachedir

PROBE = "#include <omp.h>\nint main(void) { return omp_get_max_threads() < 0; }\n"
KNOWN = (("libgomp", "libgomp"), ("libomp", "libomp"), ("libiomp", "libiomp5"))


@functools.lru_cache(maxsize=8)
def openmp_runtime(cc: str = "gcc") -> str:
    """``libgomp``, ``libomp``, ``libiomp5`` or ``unknown`` (never raises). The answer is
    kept in the cache directory per compiler binary (its path, size and time): every
    ``rank`` and every compile through the build hook asked it with a link of its own."""
    key = _compiler_key(cc)
    path = os.path.join(cachedir.cache_dir(), "openmp-runtime.json")
    known: dict[str, str] = {}
    with contextlib.suppress(OSError, ValueError):
        with open(path, encoding="utf-8") as fh:
            known = dict(json.load(fh))
    if key is not None and known.get(key) in {name for _, name in KNOWN}:
        return known[key]
    found = _probe(cc)
    if key is not None and found != "unknown":
        with contextlib.suppress(OSError):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".openmp-runtime.", dir=os.path.dirname(path))
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({**known, key: found}, fh)
            os.replace(tmp, path)
    return found


def _compiler_key(cc: str) -> str | None:
    """The compiler binary as it is now (a new gcc is probed again), or None."""
    try:
        words = shlex.split(cc)
        exe = shutil.which(words[0]) if words else None
        if exe is None:
            return None
        real = os.path.realpath(exe)
        st = os.stat(real)
    except (OSError, ValueError):
        return None
    return f"{' '.join(words[1:])}|{real}|{st.st_size}|{st.st_mtime_ns}"


def _probe(cc: str) -> str:
    """Link a one-line OpenMP program and read which runtime ``ldd`` names."""
    try:
        with tempfile.TemporaryDirectory(prefix="autotune-rt-") as tmp:
            src, exe = Path(tmp) / "probe.c", Path(tmp) / "probe"
            src.write_text(PROBE)
            build = subprocess.run(
                [*shlex.split(cc), "-fopenmp", str(src), "-o", str(exe)],
                capture_output=True,
                text=True,
                timeout=60,
            )
            if build.returncode != 0:
                return "unknown"
            ldd = subprocess.run(["ldd", str(exe)], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError, ValueError):
        return "unknown"
    for needle, name in KNOWN:
        if needle in ldd.stdout:
            return name
    return "unknown"
