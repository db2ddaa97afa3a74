"""Where measured runs leave their side files, and what a killed autotune leaves behind.

A run's timing file goes into one folder per autotune process (``autotune-<pid>`` in the
temporary folder), removed when the process exits. A process killed outright (SIGKILL,
an out-of-memory kill) cannot clean up: the next autotune removes the folders of
processes that no longer exist. And the measured program is told to die with the
process that started it, so a killed autotune leaves no run going on.
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import os
import shutil
import signal
import tempfile
import threading
from pathlib import Path

PREFIX = "autotune-"
_PR_SET_PDEATHSIG = 1
_mine: Path | None = None


def scratch_dir() -> Path:
    """This process's folder for run side files (made on first use, with the folders of
    processes that are gone removed first)."""
    global _mine
    if _mine is None or not _mine.is_dir():
        root = Path(tempfile.gettempdir())
        sweep_stale(root)
        _mine = root / f"{PREFIX}{os.getpid()}"
        _mine.mkdir(exist_ok=True)
        atexit.register(shutil.rmtree, _mine, True)
    return _mine


def sweep_stale(root: Path) -> list[Path]:
    """Remove ``autotune-<pid>`` folders of processes that no longer exist; the ones
    removed."""
    gone = []
    for entry in root.glob(f"{PREFIX}*"):
        pid = entry.name[len(PREFIX) :]
        if not pid.isdigit() or not entry.is_dir() or _alive(int(pid)):
            continue
        shutil.rmtree(entry, ignore_errors=True)
        gone.append(entry)
    return gone


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def die_with_parent():
    """A ``preexec_fn`` making the child receive SIGKILL when autotune dies (Linux's
    PR_SET_PDEATHSIG); None where the C library has no ``prctl``, or where other threads
    run (a Dask worker: code between fork and exec must not meet a lock they hold)."""
    if threading.active_count() > 1:
        return None
    name = ctypes.util.find_library("c")
    try:
        prctl = ctypes.CDLL(name, use_errno=True).prctl if name else None
    except (OSError, AttributeError):
        prctl = None
    if prctl is None:
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # the parent died before the request was made
            os.kill(os.getpid(), signal.SIGKILL)

    return preexec
