"""Files a program writes as its result (srad's image, lavaMD's result.txt), checked
like its standard output.

Nothing of the user's is removed: a file is read after the run only when the run
wrote it (its modification time or size changed, or it appeared); otherwise the run is
said not to have written it, which fails verification against an original that did.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

from autotune.measure.verify import FILE_MARK

MARK = FILE_MARK  # a file's section in the compared text; never in real output


def _where(path: str, cwd: str | Path | None) -> Path:
    p = Path(path)
    return p if p.is_absolute() else Path(cwd or os.getcwd()) / p


def snapshot(paths: Sequence[str], cwd: str | Path | None) -> dict[str, tuple[int, int] | None]:
    """(mtime in ns, size) of each file before a run (None: it does not exist)."""
    out: dict[str, tuple[int, int] | None] = {}
    for path in paths:
        try:
            st = _where(path, cwd).stat()
            out[path] = (st.st_mtime_ns, st.st_size)
        except OSError:
            out[path] = None
    return out


def written_text(
    paths: Sequence[str], cwd: str | Path | None, before: dict[str, tuple[int, int] | None]
) -> str:
    """The files this run wrote, as text sections appended to its output: text files
    whole (numbers compared with the same tolerance as stdout), others by digest."""
    parts: list[str] = []
    for path in paths:
        now = snapshot([path], cwd)[path]
        if now is None or now == before.get(path):
            parts.append(f"{MARK} {path}: not written by this run\x00")
            continue
        data = _where(path, cwd).read_bytes()
        try:
            if b"\x00" in data:
                raise UnicodeDecodeError("utf-8", data, 0, 1, "binary")
            body = data.decode("utf-8")
        except UnicodeDecodeError:
            body = f"binary, sha256 {hashlib.sha256(data).hexdigest()}"
        parts.append(f"{MARK} {path}\x00\n{body}")
    return "".join(f"\n{p}" for p in parts)
