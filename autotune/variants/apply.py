"""Write the tuned source: chosen variants applied, no instrumentation.

Used by ``autotune tune --apply`` and the build hook; the result differs
from the user's file only on the directive lines of the chosen loops, and, for a
loop proven only above some size (``record.guard``), by the ``if (guard) { ... }
else { ... }`` around it that keeps the loop as written below that size.
"""

from __future__ import annotations

import contextlib
import glob
import os
import tempfile
from pathlib import Path

from autotune import textfile
from autotune.cachedir import process_alive
from autotune.errors import UserError
from autotune.frontend.records import LoopRecord
from autotune.variants.emit import rewrite_source
from autotune.variants.space import Variant


def apply_variants(
    source: str, choices: list[tuple[LoopRecord, Variant]], share_of: int | None = None
) -> str:
    """``source`` with every (loop, variant) choice applied at once.

    Baseline choices change nothing. Two loops of one parallel region may
    share its num_threads only if they agree (EmitError otherwise). With
    ``share_of`` (the cores tuned on) thread counts are written as shares of
    the cores found at run time (see ``rewrite_source``).
    """
    return rewrite_source(source, list(choices), share_of=share_of)


def write_atomic(path: str | os.PathLike[str], text: str, backup: bool = False) -> Path | None:
    """Replace ``path`` with ``text`` so readers never see a half-written file.

    Writes a temporary file in the same directory and ``os.replace``s it over
    the target (atomic on POSIX); the file mode is kept. With ``backup`` the
    previous content is first kept as ``FILE.orig`` (``FILE.bak`` when a
    ``.orig`` already exists, so a first backup is never overwritten).
    Returns the backup path, or None.
    """
    target = Path(path)
    backup_path: Path | None = None
    try:
        mode = target.stat().st_mode & 0o7777 if target.exists() else None
        if backup and target.exists():
            backup_path = target.with_name(target.name + ".orig")
            if backup_path.exists():
                backup_path = target.with_name(target.name + ".bak")
            _write_replace(backup_path, target.read_bytes(), mode)
        _write_replace(target, textfile.encode(text), mode)
    except OSError as exc:
        raise UserError(f"cannot write: {exc.strerror or exc}", str(target)) from exc
    return backup_path


def _remove_orphans(target: Path) -> None:
    """The temporary files a killed autotune left beside ``target`` (``.NAME.<pid>.*.tmp``
    of this user whose process is gone): an interrupted write leaves nothing for long."""
    for tmp in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
        pid = tmp.name[len(target.name) + 2 :].split(".", 1)[0]
        try:
            mine = tmp.lstat().st_uid == os.getuid()
        except OSError:
            continue
        if pid.isdigit() and mine and not process_alive(int(pid)):
            with contextlib.suppress(OSError):
                tmp.unlink()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_replace(target: Path, data: bytes, mode: int | None) -> None:
    _remove_orphans(target)
    prefix = f".{target.name}.{os.getpid()}."
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode if mode is not None else 0o666 & ~_umask())  # as open() would
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
