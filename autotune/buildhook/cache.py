"""Small on-disk caches that keep the wrapper's warm path free of parsing.

Parsing a file takes ~0.3 s and detecting the machine runs the compiler, so
a warm compile must only hash the source, ``stat`` the database and read one
small JSON file. Two levels:

- ``decisions/<key>``: the whole decision for (source hash, defines, mode,
  compiler identity, database signature). Any write to the database changes
  its signature, so a new ``autotune tune`` result is never missed.
- ``tuned/<key>``: the tuned text for (source hash, defines, chosen variants):
  survives database changes that do not change the choice.

Entries are written to a temporary name and renamed, so concurrent compiles
(``make -j``) read either nothing or a whole entry.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time

CACHE_FORMAT = "1"


def cache_root() -> str:
    from autotune.measure.paths import cache_dir

    return os.path.join(str(cache_dir()), "buildhook")


def digest(*parts: object) -> str:
    blob = json.dumps([CACHE_FORMAT, *parts], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()[:40]


def read_json(path: str) -> dict | None:
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def write_json(path: str, doc: dict) -> None:
    """Atomic write; a failure only costs a future cache miss."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.{time.monotonic_ns()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(doc, fh)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except (OSError, UnboundLocalError):
            pass


def file_signature(path: str) -> list:
    """What changes when a file changes (size, mtime, inode); [] when absent."""
    try:
        st = os.stat(path)
    except OSError:
        return []
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def db_signature(db: str) -> list:
    """The database and its write-ahead log: any committed write changes one of them.

    An empty log is the same as none: readers create and remove it (``make
    -j`` compiles open the database concurrently) without writing anything.
    """
    wal = file_signature(db + "-wal")
    return [db, file_signature(db), wal if wal and wal[0] > 0 else []]


def compiler_identity(cc: str) -> list:
    """The compiler executable the command runs, resolved, with its signature."""
    exe = shutil.which(cc) or cc
    real = os.path.realpath(exe)
    return [cc, real, file_signature(real)]


def cached_machine(cc: str, root: str) -> dict:
    """``Machine.to_dict()`` of this machine with ``cc``, cached per compiler identity."""
    key = digest("machine", compiler_identity(cc), os.cpu_count())
    path = os.path.join(root, "machine", key + ".json")
    doc = read_json(path)
    if doc and doc.get("fingerprint"):
        return doc
    from autotune.measure.machine import detect_machine

    doc = detect_machine(cc).to_dict()
    write_json(path, doc)
    return doc


def prune(directory: str, max_age_s: float = 14 * 86400.0, every: int = 200) -> None:
    """Now and then, drop entries nobody used for two weeks (keeps the cache small)."""
    if time.monotonic_ns() % every:
        return
    cutoff = time.time() - max_age_s
    try:
        with os.scandir(directory) as it:
            for entry in it:
                try:
                    if entry.stat().st_atime < cutoff and entry.stat().st_mtime < cutoff:
                        os.unlink(entry.path)
                except OSError:
                    continue
    except OSError:
        return
