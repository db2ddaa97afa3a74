"""The tuned table's keys, computed without importing the front end.

``autotune.tuning.persist`` defines how ``autotune tune`` stores a winner:
the content hash of the file's text, a hash of the defines, and the loop's
``line:column``. Importing it pulls in pycparser (~50 ms), which the warm
path of every compile cannot afford, so the same three functions are
repeated here; ``tests/test_buildhook_keys.py`` checks they agree.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping


def text_of(data: bytes) -> str:
    """The text ``Path.read_text()`` gives (UTF-8, universal newlines), as tune reads it."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def defines_key(defines: Mapping[str, str]) -> str:
    blob = json.dumps({k: defines[k] for k in sorted(defines)}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def loop_key(line: int, column: int) -> str:
    return f"{line}:{column}"
