"""barvinok's counts kept between runs, by the text of the set they count.

Ranking asks barvinok for a count per array and per schedule shape (a thread's
share of a cyclic hand-out of chunks), 1 to 8 ms each, tens per source: most
of what ranking a source costs once autotune is loaded. The same sets come back
whenever a source is analysed again: after an edit elsewhere in the file, after
``autotune tune`` writes the database (every kept build decision is then made
again), on the next ``autotune rank``. A count is a piecewise quasi-polynomial
that isl prints exactly and reads back in a tenth of a millisecond, so the
texts are kept in one JSON file under the cache directory, read once per
process and merged back at exit (a write lost to a concurrent build costs a
count, never a wrong one: the key is the whole question, the answer exact).
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import json
import os
import tempfile

import islpy as isl

from autotune import cachedir

FORMAT = "2"  # bump when a question (its key) comes to mean something else
MAX_ENTRIES = 10000  # ~1 MB, read in ~4 ms; a file grown past it starts again
MISSING = object()


class CountMemo:
    """The answers kept in this cache directory (JSON values), by question."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._kept: dict[str, object] | None = None
        self._new: dict[str, object] = {}

    @staticmethod
    def key(*question: object) -> str:
        text = repr((FORMAT, isl.__version__, question))
        return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]

    def get(self, key: str) -> object:
        """The kept answer, or ``MISSING`` (see ``missing``)."""
        if key in self._new:
            return self._new[key]
        return self._load().get(key, MISSING)

    def put(self, key: str, answer: object) -> None:
        if not self._new:
            atexit.register(self.save)
        self._new[key] = answer

    def answer(self, question: tuple, compute, encode, decode):
        """The kept answer to ``question`` (``decode`` of what was kept), else ``compute()``
        kept as ``encode`` of it; an answer that cannot be decoded is computed again."""
        key = self.key(*question)
        got = self.get(key)
        if not missing(got):
            value = decode(got)
            if not missing(value):
                return value
        value = compute()
        self.put(key, encode(value))
        return value

    def _load(self) -> dict[str, object]:
        if self._kept is None:
            self._kept = _read(self.path)
        return self._kept

    def save(self) -> None:
        """Merge this run's counts into the file (atomically: a reader never sees half)."""
        if not self._new:
            return
        merged = _read(self.path)
        if len(merged) + len(self._new) > MAX_ENTRIES:
            merged = {}
        merged.update(self._new)
        with contextlib.suppress(OSError):
            folder = os.path.dirname(self.path)
            os.makedirs(folder, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".counts.", dir=folder)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    json.dump({"format": FORMAT, "counts": merged}, fh)
                os.replace(tmp, self.path)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        self._new.clear()


def _read(path: str) -> dict[str, object]:
    with contextlib.suppress(OSError, ValueError):
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        counts = doc.get("counts") if isinstance(doc, dict) else None
        if doc.get("format") == FORMAT and isinstance(counts, dict):
            return counts
    return {}


_MEMOS: dict[str, CountMemo] = {}


def memo() -> CountMemo:
    """The memo of the cache directory in force now (tests and the build hook's server
    change it between questions)."""
    path = os.path.join(cachedir.cache_dir(), "counts.json")
    if path not in _MEMOS:
        _MEMOS[path] = CountMemo(path)
    return _MEMOS[path]


def missing(value: object) -> bool:
    return value is MISSING


def save_all() -> None:
    """Write what this process learnt now: the build hook leaves by ``exec`` (and its
    server's children by ``_exit``), where ``atexit`` never runs."""
    for kept in _MEMOS.values():
        kept.save()


def count_text(count: isl.PwQPolynomial | None) -> str | None:
    return None if count is None else str(count)


def count_of(text: object) -> isl.PwQPolynomial | None | object:
    """A kept count read back (None: kept as uncountable; ``MISSING``: unreadable)."""
    if text is None:
        return None
    try:
        return isl.PwQPolynomial.read_from_str(isl.DEFAULT_CONTEXT, str(text))
    except isl.Error:
        return MISSING
