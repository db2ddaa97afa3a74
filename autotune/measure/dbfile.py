"""Whether the database file can be written, and what is said while waiting for it:
read before connecting, so a read-only file or folder is one line at once (SQLite would
retry its lock for a minute), and a lock held by another process is said once.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path


def note(line: str) -> None:
    """A line on standard error while the command goes on (a wait for a lock)."""
    import sys

    print(f"autotune: {line}", file=sys.stderr, flush=True)


def is_lock(exc: sqlite3.OperationalError) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def not_writable(path: Path) -> str:
    """Why the database at ``path`` cannot be written ('' when it can, or may be made):
    the file or the folder it would go in is read-only (a read-only file system counts
    for root too)."""
    if path.exists():
        if not os.access(path, os.W_OK):
            return "the file is read-only"
        folder = path.parent
    else:
        folder = next((p for p in path.parents if p.exists()), Path("/"))
    if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is read-only"
    return ""
