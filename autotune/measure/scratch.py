"""Where measured runs leave their side files, and what a killed autotune leaves behind.

A run's timing file goes into one folder per autotune process (``autotune-run-<pid>-*``
in the temporary folder, made by ``mkdtemp``), removed when the process exits. A process
killed outright (SIGKILL, an out-of-memory kill) cannot clean up: the next autotune of the
same user removes the folders of its processes that no longer exist, and never another
user's folder or one named otherwise (the build hook's server folder ``autotune-<uid>``).
And the measured program is told to die with the process that started it, so a killed
autotune leaves no run going on.
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import os
import shutil
import signal
import stat
import tempfile
import threading
from pathlib import Path

from autotune.cachedir import process_alive

PREFIX = "autotune-run-"  # then the pid, '-', and mkdtemp's random part
_PR_SET_PDEATHSIG = 1
_mine: Path | None = None


def scratch_dir() -> Path:
    """This process's folder for run side files: made by ``mkdtemp`` (a new name, mode
    0700, never a folder someone else made first), with the stale folders of this user's
    processes that are gone removed first."""
    global _mine
    if _mine is None or not _is_ours(_mine):
        root = Path(tempfile.gettempdir())
        sweep_stale(root)
        _mine = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-", dir=root))
        atexit.register(shutil.rmtree, _mine, True)
    return _mine


def _is_ours(path: Path) -> bool:
    """A real folder (not a link) owned by this user and closed to everyone else."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def sweep_stale(root: Path) -> list[Path]:
    """Remove the scratch folders this user's autotune processes left when they were
    killed: only folders named as ``scratch_dir`` names them, owned by this user, closed
    to others, whose process no longer exists; the ones removed."""
    gone = []
    for entry in root.glob(f"{PREFIX}*"):
        pid, sep, rest = entry.name[len(PREFIX) :].partition("-")
        if not (pid.isdigit() and sep and rest) or not _is_ours(entry) or process_alive(int(pid)):
            continue
        shutil.rmtree(entry, ignore_errors=True)
        gone.append(entry)
    return gone


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
