"""A deterministic mutation fuzzer: mutants of our kernels and test programs, as a
careless edit or a bad merge would make them. No command may end in a traceback, and
the build hook must always exit with the compiler's own status."""

from __future__ import annotations

import contextlib
import io
import random
import subprocess
from pathlib import Path

import pytest
from buildhook_support import hook_env, wrapper_exe

from autotune.cli.main import main

pytestmark = pytest.mark.slow  # real builds and many runs: the long suite (-m slow)

ROOT = Path(__file__).parent.parent
SOURCES = sorted(
    [
        *ROOT.glob("kernels/*.c"),
        *ROOT.glob("tests/data/c/regress/*.c"),
        *ROOT.glob("tests/data/c/legality/*.c"),
    ]
)
TOKENS = [
    b"{",
    b"}",
    b";",
    b"(",
    b")",
    b"#pragma omp for nowait",
    b"#pragma omp parallel",
    b"#pragma omp critical",
    b"nowait",
    b"schedule(dynamic,",
    b"\xe9",
    b"\r\n",
    b"/*",
    b"*/",
    b"#define abs(a) a",
    b"int",
    b"return",
    b"omp_get_thread_num()",
    b'"',
    b"'",
    b"#include <stdlib.h>",
    b"main(argc) char **argv; {",
    b"for (;;)",
    b"0x",
    b"\\",
]
SEED = 20261123


def mutate(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    kind = rng.randrange(6)
    i = rng.randrange(len(lines))
    if kind == 0:  # drop a line
        del lines[i]
    elif kind == 1:  # duplicate a line
        lines.insert(i, lines[i])
    elif kind == 2:  # insert a token inside a line
        ln = lines[i]
        at = rng.randrange(len(ln) + 1)
        lines[i] = ln[:at] + rng.choice(TOKENS) + ln[at:]
    elif kind == 3:  # swap two lines
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 4:  # cut the file short
        lines = lines[:i]
    else:  # flip one byte
        ln = bytearray(lines[i] or b" ")
        ln[rng.randrange(len(ln))] = rng.randrange(1, 256)
        lines[i] = bytes(ln)
    return b"\n".join(lines)


def mutants(count: int, seed: int) -> list[tuple[str, bytes]]:
    rng = random.Random(seed)
    out = []
    for k in range(count):
        src = rng.choice(SOURCES)
        data = src.read_bytes()
        for _ in range(rng.randrange(1, 3)):
            data = mutate(data, rng)
        out.append((f"m{k:03d}_{src.stem}", data))
    return out


def test_no_command_ends_in_a_traceback(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "r.db"))
    failures = []
    for k, (name, data) in enumerate(mutants(160, SEED)):
        path = tmp_path / f"{name}.c"
        path.write_bytes(data)
        argv = ["analyze", str(path), "--json"] if k % 4 else ["rank", str(path), "--top", "2"]
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                rc = main(argv)
        except Exception as exc:  # the point: nothing may escape
            failures.append(f"{name}: {type(exc).__name__}: {exc}")
            continue
        if rc not in (0, 2):
            failures.append(f"{name}: exit {rc}")
        elif rc == 2 and err.getvalue().count("\n") != 1:
            failures.append(f"{name}: error not one line: {err.getvalue()!r}")
    assert failures == []


def test_the_wrapper_exits_with_the_compilers_status(tmp_path):
    env = hook_env(tmp_path, AUTOTUNE_MODE="rank")
    failures = []
    for name, data in mutants(30, SEED + 1):
        path = tmp_path / f"{name}.c"
        path.write_bytes(data)
        argv = ["-O0", "-fopenmp", "-c", str(path), "-o"]
        cc = subprocess.run(
            ["gcc", *argv, str(tmp_path / "gcc.o")], capture_output=True, env=env, timeout=120
        )
        hook = subprocess.run(
            [wrapper_exe(), "gcc", *argv, str(tmp_path / "hook.o")],
            capture_output=True,
            env=env,
            timeout=120,
        )
        if cc.returncode != hook.returncode or b"Traceback" in hook.stderr:
            failures.append(
                f"{name}: gcc {cc.returncode}, autotune-cc {hook.returncode}: "
                f"{hook.stderr[-300:]!r}"
            )
    assert failures == []
    assert any(True for _ in tmp_path.glob("*.c"))


@pytest.mark.parametrize("seed", [SEED])
def test_the_mutants_are_varied(seed):
    """Not a fuzzer that only makes broken files, nor one that changes nothing."""
    made = mutants(160, seed)
    assert len({d for _, d in made}) >= 0.95 * len(made)
    compiles = sum(
        subprocess.run(
            ["gcc", "-fsyntax-only", "-fopenmp", "-x", "c", "-"], input=d, capture_output=True
        ).returncode
        == 0
        for _, d in made[:40]
    )
    assert 5 <= compiles <= 35
