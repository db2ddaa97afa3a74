"""The tuned source: several loops' choices applied at once, written atomically."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_variants_emit import COMBINED_C, REGION_C
from variants_support import build, changed_lines, needs_gcc, records_for, run

from autotune.errors import UserError
from autotune.textfile import read_source
from autotune.variants.apply import apply_variants, write_atomic
from autotune.variants.emit import EmitError
from autotune.variants.space import BASELINE, Variant


@needs_gcc
def test_several_loops_at_once(tmp_path: Path) -> None:
    path = tmp_path / "prog.c"
    path.write_text(COMBINED_C)
    recs = records_for(path)
    tuned = apply_variants(
        COMBINED_C,
        [
            (recs[0], Variant("guided", 32, 2)),
            (recs[1], BASELINE),
            (recs[2], Variant("dynamic", 4, None)),
        ],
    )
    assert changed_lines(COMBINED_C, tuned) == [12, 23]
    lines = tuned.split("\n")
    assert lines[11] == (
        "#pragma omp parallel for schedule(guided, 32) num_threads(2) reduction(+:sum)"
    )
    assert lines[22] == "#pragma omp parallel for collapse(2) private(j) schedule(dynamic, 4)"
    assert "autotune_" not in tuned and "#line" not in tuned
    assert run(build(tmp_path, tuned, "tuned")) == run(build(tmp_path, COMBINED_C, "orig"))


def test_loops_sharing_a_region_must_agree_on_threads(tmp_path: Path) -> None:
    path = tmp_path / "region.c"
    path.write_text(REGION_C)
    a, b = records_for(path)
    tuned = apply_variants(
        REGION_C, [(a, Variant("static", 8, 3)), (b, Variant("dynamic", None, 3))]
    )
    assert changed_lines(REGION_C, tuned) == [9, 11, 14]
    assert tuned.split("\n")[8] == "#pragma omp parallel num_threads(3) shared(a, b)"
    assert tuned.split("\n")[10] == "#pragma omp for nowait schedule(static, 8)"
    with pytest.raises(EmitError, match="different thread counts"):
        apply_variants(REGION_C, [(a, Variant("static", 8, 3)), (b, Variant("static", 8, 2))])


def test_crlf_and_odd_bytes_survive(tmp_path: Path) -> None:
    raw = REGION_C.replace("\n", "\r\n").encode() + b"/* caf\xe9 */\r\n"
    path = tmp_path / "crlf.c"
    path.write_bytes(raw)
    a, b = records_for(path)
    text = read_source(path)
    tuned = apply_variants(text, [(b, Variant("guided", 2, None))])
    write_atomic(path, tuned)
    out = path.read_bytes()
    assert out.split(b"\r\n")[13] == b"#pragma omp for schedule(guided, 2) reduction(+:s)"
    assert out.replace(b"schedule(guided, 2)", b"schedule(guided)") == raw


def test_write_atomic_backup_and_mode(tmp_path: Path) -> None:
    target = tmp_path / "k.c"
    target.write_text("one\n")
    os.chmod(target, 0o640)
    assert write_atomic(target, "two\n") is None
    assert target.read_text() == "two\n" and (target.stat().st_mode & 0o777) == 0o640
    first = write_atomic(target, "three\n", backup=True)
    assert first == tmp_path / "k.c.orig" and first.read_text() == "two\n"
    second = write_atomic(target, "four\n", backup=True)
    assert second == tmp_path / "k.c.bak" and second.read_text() == "three\n"
    assert (tmp_path / "k.c.orig").read_text() == "two\n"  # the first backup is kept
    assert target.read_text() == "four\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.c", "k.c.bak", "k.c.orig"]
    with pytest.raises(UserError):
        write_atomic(tmp_path / "missing-dir" / "x.c", "x")
