"""Tuned choices in the database, keyed so that a build finds them again.

A build compiles the same file from another directory, with another spelling
of its path, so the key is the file's content hash, the defines in force (the
only flags that change which loops exist and their trip counts) and the
machine fingerprint; a loop is named by its line and column in that content.
"""

from __future__ import annotations

import hashlib
import json

from autotune import textfile
from autotune.frontend.records import LoopRecord
from autotune.variants.space import Variant


def content_hash(text: str) -> str:
    return textfile.content_hash(text)


def defines_key(defines: dict[str, str]) -> str:
    blob = json.dumps({k: defines[k] for k in sorted(defines)}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def loop_key(record: LoopRecord) -> str:
    """Path-independent name of a loop within one file content."""
    return record.key


def save_winner(
    store,
    *,
    source_text: str,
    defines: dict[str, str],
    machine_fp: str,
    record: LoopRecord,
    variant: Variant,
    baseline_s: float | None,
    best_s: float | None,
) -> None:
    store.save_tuned(
        source_hash=content_hash(source_text),
        flags_key=defines_key(defines),
        machine=machine_fp,
        loop_id=loop_key(record),
        variant_key=variant.key,
        baseline_s=baseline_s,
        best_s=best_s,
        sizes=record.guard_sizes or None,
    )
