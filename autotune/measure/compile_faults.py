"""What a compiler says when the machine fails it, not the source: a full or read-only
disk, no temporary space or memory, the compiler killed. Such a compile is said as one
line and never stored as a variant's result (a later run on a healthy machine would read
it back as the variant's own).
"""

from __future__ import annotations

import os
import re
import tempfile

_FAULTS = (
    (re.compile(r"No space left on device|Disk quota exceeded"), "no space left on the disk"),
    (re.compile(r"cannot create temporary file|can't open temporary"), "no temporary space"),
    (re.compile(r"Cannot allocate memory|virtual memory exhausted|out of memory"), "no memory"),
    (re.compile(r"Read-only file system"), "a read-only file system"),
    (re.compile(r"Killed signal terminated program|terminated signal 9"), "the compiler killed"),
)


def environment_fault(returncode: int, output: str) -> str:
    """What failed in the machine when a compile failed for it ('' when it did not):
    a full or read-only disk, no temporary space or memory, the compiler killed."""
    if returncode == 0:
        return ""
    if returncode < 0:
        return f"the compiler was killed by signal {-returncode}"
    for pattern, what in _FAULTS:
        if pattern.search(output):
            tmp = os.environ.get("TMPDIR") or tempfile.gettempdir()
            return f"{what} ({pattern.search(output).group(0)}; TMPDIR is {tmp})"
    return ""
