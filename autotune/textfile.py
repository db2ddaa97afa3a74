"""The one way autotune reads and writes C sources: bytes in, the same bytes out.

C files are not always UTF-8 (a Latin-1 comment or string literal is common
in older codes, and gcc accepts it), and their line endings are the
author's. So a source is decoded as UTF-8 with ``surrogateescape`` (any byte
that is not UTF-8 survives as a lone surrogate and is written back as the
same byte), with no newline translation. Every content hash is taken over
those exact bytes, so the build hook (reading bytes) and ``tune`` (reading
the file) name a file's content alike. Kept free of heavy imports: the build
hook's fast path uses it.
"""

from __future__ import annotations

import os

try:  # the build hook's launcher avoids loading OpenSSL through hashlib
    from _sha256 import sha256
except ImportError:  # pragma: no cover - other Python builds
    from hashlib import sha256

ENCODING = "utf-8"
ERRORS = "surrogateescape"


def decode(data: bytes) -> str:
    return data.decode(ENCODING, ERRORS)


def encode(text: str) -> bytes:
    return text.encode(ENCODING, ERRORS)


def read_bytes_text(path: str | os.PathLike[str]) -> str:
    """The file's text exactly (raises OSError)."""
    with open(path, "rb") as fh:
        return decode(fh.read())


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` as the bytes it was read from (raises OSError)."""
    with open(path, "wb") as fh:
        fh.write(encode(text))


def content_hash(text: str) -> str:
    """SHA-256 of the exact bytes of ``text``."""
    return sha256(encode(text)).hexdigest()


def read_data(path: str | os.PathLike[str]) -> str:
    """A data file (CSV, samples) for parsing: bytes that are not UTF-8 become U+FFFD,
    so a bad value is reported by the parser with its line, never a decode error."""
    with open(path, "rb") as fh:
        return fh.read().decode(ENCODING, "replace")


def read_source(path: str | os.PathLike[str]) -> str:
    """The file's text exactly: no newline translation, undecodable bytes kept; one line
    ``FILE: cannot read: why`` when it fails."""
    from autotune.errors import UserError

    try:
        return read_bytes_text(path)
    except OSError as exc:
        raise UserError(f"cannot read: {exc.strerror or exc}", str(path)) from exc
