"""Small on-disk caches that keep the wrapper's warm path free of parsing.

Parsing a file takes ~0.3 s and detecting the machine runs the compiler, so
a warm compile must only hash the source, ``stat`` the database and read one
small JSON file. Two levels:

- ``decisions/<key>``: the whole decision for (source hash, defines, mode,
  compiler identity, database signature). Any write to the database changes
  its signature, so a new ``autotune tune`` result is never missed.
- ``tuned/<key>``: the tuned text for (source hash, defines, chosen variants):
  survives database changes that do not change the choice.

Both keys also name the preprocessor flags (include directories, ``-U``, ``-include``);
both entries carry the manifest of the user's headers the analysis read (path, size,
modification time, SHA-256, as ccache's direct mode does): a header edited since (a size
in ``params.h`` changed from 12 to 4, where the proof no longer holds) makes the entry
stale, and the source is decided again. An entry keeps up to ``KEPT_VERSIONS``
versions, one per set of header contents (NAS's classes S and W built in turn).

Entries are written to a temporary name and renamed, so concurrent compiles
(``make -j``) read either nothing or a whole entry. They are ``marshal``
data behind a SHA-256 of it (``json`` costs a warm compile more to import
than the rest of its work; the checksum keeps a damaged file from ever
reaching ``marshal.loads``).
"""

from __future__ import annotations

import marshal
import os
import sys
import time

from autotune.buildhook.keys import sha256

CACHE_FORMAT = f"3-py{sys.version_info[0]}.{sys.version_info[1]}"
TRUST_MTIME_AFTER_NS = 2 * 10**9  # a header older than this when read: (size, mtime) suffice


def cache_root() -> str:
    from autotune.buildhook.config import cache_dir

    return os.path.join(cache_dir(), "buildhook")


def digest(*parts: object) -> str:
    """A short key for ``parts`` (lists, strings, numbers; dicts in a fixed order)."""
    blob = repr([CACHE_FORMAT, *parts]).encode("utf-8", "surrogatepass")
    return sha256(blob).hexdigest()[:40]


def read_entry(path: str) -> dict | None:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError:
        return None
    body = data[32:]
    if len(data) < 33 or sha256(body).digest() != data[:32]:
        return None
    try:
        doc = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return None
    return doc if isinstance(doc, dict) else None


def write_entry(path: str, doc: dict) -> None:
    """Atomic write; a failure only costs a future cache miss."""
    tmp = f"{path}.{os.getpid()}.{time.monotonic_ns()}.tmp"
    try:
        body = marshal.dumps(doc)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(sha256(body).digest() + body)
        os.replace(tmp, path)
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def which(cmd: str) -> str | None:
    """``shutil.which`` for the compiler (shutil is not imported on the warm path)."""
    if os.sep in cmd:
        return cmd if os.access(cmd, os.X_OK) else None
    for d in os.environ.get("PATH", os.defpath).split(os.pathsep):
        p = os.path.join(d or ".", cmd)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def file_signature(path: str) -> list:
    """What changes when a file changes (size, mtime, inode); [] when absent."""
    try:
        st = os.stat(path)
    except OSError:
        return []
    return [st.st_size, st.st_mtime_ns, st.st_ino]


_CODE_SIGNATURES: dict[str, str] = {}
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def code_signature(root: str = PACKAGE_ROOT) -> str:
    """What changes when autotune's own code changes (every module's size and mtime): a
    decision made by an older proof or ship rule is not reused after an upgrade that
    kept the version number (an editable install, a pull). Once per process (~2 ms)."""
    if root not in _CODE_SIGNATURES:
        stats = []
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    st = os.stat(os.path.join(folder, name))
                    stats.append((os.path.relpath(folder, root), name, st.st_size, st.st_mtime_ns))
        _CODE_SIGNATURES[root] = digest("code", stats)
    return _CODE_SIGNATURES[root]


def db_signature(db: str) -> list:
    """The database and its write-ahead log: any committed write changes one of them.

    An empty log is the same as none: readers create and remove it (``make
    -j`` compiles open the database concurrently) without writing anything.
    """
    wal = file_signature(db + "-wal")
    return [db, file_signature(db), wal if wal and wal[0] > 0 else []]


def compiler_identity(cc: str) -> list:
    """The compiler executable the command runs, resolved, with its signature."""
    exe = which(cc) or cc
    real = os.path.realpath(exe)
    return [cc, real, file_signature(real)]


def cached_machine(cc: str, root: str) -> dict:
    """``Machine.to_dict()`` of this machine with ``cc``, cached per compiler identity."""
    key = digest("machine", compiler_identity(cc), os.cpu_count())
    path = os.path.join(root, "machine", key)
    doc = read_entry(path)
    if doc and doc.get("fingerprint"):
        return doc
    from autotune.measure.machine import detect_machine

    doc = detect_machine(cc).to_dict()
    write_entry(path, doc)
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


def header_manifest(paths: list[str]) -> list[list]:
    """[path, size, mtime_ns, sha256, trusted] for each header: ``trusted`` when it was
    last modified long enough before it was read that (size, mtime) stand for its bytes."""
    out = []
    now = time.time_ns()
    for path in paths:
        try:
            st = os.stat(path)
            with open(path, "rb") as fh:
                digest = sha256(fh.read()).hexdigest()
        except OSError:
            digest, st = "", None  # gone since the analysis read it: never holds
        if st is None:
            out.append([path, -1, -1, digest, False])
            continue
        trusted = now - st.st_mtime_ns > TRUST_MTIME_AFTER_NS
        out.append([path, st.st_size, st.st_mtime_ns, digest, trusted])
    return out


def manifest_holds(manifest: object) -> bool:
    """Every header of ``manifest`` still has the bytes it had (a stat each on the warm
    path; a hash only where the times differ or were too recent to trust)."""
    if not isinstance(manifest, list):
        return False
    for item in manifest:
        try:
            path, size, mtime, digest, trusted = item
            st = os.stat(path)
        except (OSError, TypeError, ValueError):
            return False
        if trusted and st.st_size == size and st.st_mtime_ns == mtime:
            continue
        try:
            with open(path, "rb") as fh:
                if sha256(fh.read()).hexdigest() != digest:
                    return False
        except OSError:
            return False
    return True


KEPT_VERSIONS = 4  # decisions kept per key: one per set of header contents (NPB's classes)


def _same_headers(a: object, b: object) -> bool:
    def contents(m: object) -> list:
        return [(h[0], h[3]) for h in m] if isinstance(m, list) else []

    return contents(a) == contents(b)


def current_version(path: str) -> dict | None:
    """The version kept at ``path`` that was made with the headers as they are now (its
    ``headers`` manifest holds); None when none was. An entry keeps a few versions,
    newest first, so a build flipping between two generated headers (class S, class W)
    finds each decision again."""
    return next((v for v in _versions(path) if manifest_holds(v.get("headers"))), None)


def add_version(path: str, version: dict) -> None:
    """Keep ``version`` first at ``path``, with the older ones made with other headers."""
    mine = version.get("headers")
    older = [v for v in _versions(path) if not _same_headers(v.get("headers"), mine)]
    write_entry(path, {"versions": [version, *older][:KEPT_VERSIONS]})


def _versions(path: str) -> list[dict]:
    doc = read_entry(path)
    versions = doc.get("versions") if doc else None
    return [v for v in versions if isinstance(v, dict)] if isinstance(versions, list) else []
