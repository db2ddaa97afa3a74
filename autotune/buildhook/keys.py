"""The tuned table's keys, computed without importing the front end.

``autotune.tuning.persist`` defines how ``autotune tune`` stores a winner:
the content hash of the file's text, a hash of the defines, and the loop's
``line:column``. Importing it pulls in pycparser (~50 ms), which the warm
path of every compile cannot afford, so the same three functions are
repeated here; ``tests/test_buildhook_keys.py`` checks they agree. For the
same reason ``json`` (which imports ``re``) and OpenSSL's ``hashlib`` are
avoided: the defines are encoded exactly as ``json.dumps`` would.
"""

from __future__ import annotations

from collections.abc import Mapping

from autotune import textfile

try:  # the built-in SHA-256 loads faster than OpenSSL's
    from _sha256 import sha256
except ImportError:  # pragma: no cover - other Python builds
    from hashlib import sha256

_SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def json_ascii(s: str) -> str:
    """A string as ``json.dumps`` writes it (ensure_ascii)."""
    out = []
    for c in s:
        o = ord(c)
        if c in _SHORT:
            out.append(_SHORT[c])
        elif 0x20 <= o <= 0x7E:
            out.append(c)
        elif o > 0xFFFF:
            o -= 0x10000
            out.append(f"\\u{0xD800 | (o >> 10):04x}\\u{0xDC00 | (o & 0x3FF):04x}")
        else:
            out.append(f"\\u{o:04x}")
    return '"' + "".join(out) + '"'


def text_of(data: bytes) -> str:
    """The source's text as every command reads it (``autotune.textfile``)."""
    return textfile.decode(data)


def content_hash(text: str) -> str:
    return textfile.content_hash(text)


def defines_key(defines: Mapping[str, str]) -> str:
    items = ", ".join(f"{json_ascii(k)}: {json_ascii(defines[k])}" for k in sorted(defines))
    return sha256(("{" + items + "}").encode()).hexdigest()[:16]


def loop_key(line: int, column: int) -> str:
    return f"{line}:{column}"
