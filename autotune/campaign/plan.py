"""A campaign plan: programs, their builds, sizes and the measuring budget (TOML).

::

    name = "stream-sizes"          # label of the results (default: the file's stem)
    repetitions = 3
    budget = "top"                 # "top": the model guides K measurements; "exhaustive"
    top = 5
    search = "sequential"          # or "top": the model's K best, measured together
    confirm_runs = 5               # whole-program runs confirming each loop's choice
    space = { threads = "1,2,4" }  # optional: part of the variant space (schedules, chunks)

    [[program]]
    name = "stream"
    source = "stream.c"            # relative to the plan file
    cflags = ["-O3"]
    args = ["100"]                 # the program's own arguments
    defines = { NTIMES = "5" }     # every size gets these
    sizes = [{ N = "100000" }, { N = "400000" }]   # one -D set per size
    loops = []                     # ids or lines; empty: every loop

Bad plans are refused in one line naming the plan file and the entry.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from autotune.errors import UserError

BUDGETS = ("top", "exhaustive")
SEARCHES = ("sequential", "top")
_PLAN_KEYS = {
    "name",
    "repetitions",
    "budget",
    "top",
    "search",
    "confirm_runs",
    "model",
    "space",
    "program",
    "time_budget",
}
_SPACE_KEYS = {"schedules", "chunks", "threads"}
_PROGRAM_KEYS = {
    "name",
    "source",
    "cc",
    "cflags",
    "ldflags",
    "include_dirs",
    "extra_sources",
    "args",
    "stdin",
    "defines",
    "sizes",
    "loops",
    "check",
}


@dataclass
class ProgramPlan:
    """One program and the sizes it is measured at."""

    name: str
    source: Path
    cc: str = "gcc"
    cflags: list[str] = field(default_factory=list)
    ldflags: list[str] = field(default_factory=list)
    include_dirs: list[str] = field(default_factory=list)
    extra_sources: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    stdin: str | None = None
    defines: dict[str, str] = field(default_factory=dict)
    sizes: list[dict[str, str]] = field(default_factory=lambda: [{}])
    loops: list[str] = field(default_factory=list)
    check: str = "stdout"

    def size_defines(self, size: dict[str, str]) -> dict[str, str]:
        return {**self.defines, **size}


@dataclass
class CampaignPlan:
    name: str
    programs: list[ProgramPlan]
    repetitions: int = 3
    budget: str = "top"
    top: int = 5
    search: str = "sequential"
    model: str = "auto"
    space: dict[str, str] = field(default_factory=dict)  # schedules/chunks/threads lists
    path: Path | None = None  # the plan file
    confirm_runs: int = 5  # interleaved whole-program runs of the original and the choice
    # seconds after which no new loop is measured (None: no limit); a loop left out is
    # measured by the next run of the plan
    time_budget: float | None = None

    @property
    def exhaustive(self) -> bool:
        return self.budget == "exhaustive"


def size_label(defines: dict[str, str]) -> str:
    """How a size is written in tables and the database: ``-DN=1000 -DM=20``."""
    return " ".join(f"-D{k}={v}" for k, v in sorted(defines.items()))


def load_plan(path: str | Path) -> CampaignPlan:
    """Read and check a plan; every error is one line naming the plan."""
    path = Path(path)
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read the plan: {exc.strerror or exc}", str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"not a valid TOML plan: {exc}", str(path)) from None
    return plan_from_dict(doc, path)


def plan_from_dict(doc: dict, path: Path) -> CampaignPlan:
    where = str(path)
    _no_unknown(doc, _PLAN_KEYS, where, "plan")
    programs = doc.get("program")
    if not isinstance(programs, list) or not programs:
        raise UserError("the plan lists no [[program]]", where)
    plan = CampaignPlan(
        name=_text(doc.get("name", path.stem), where, "name"),
        programs=[_program(p, path.parent, where, i) for i, p in enumerate(programs, 1)],
        repetitions=_int(doc.get("repetitions", 3), where, "repetitions"),
        budget=_choice(doc.get("budget", "top"), BUDGETS, where, "budget"),
        top=_int(doc.get("top", 5), where, "top"),
        search=_choice(doc.get("search", "sequential"), SEARCHES, where, "search"),
        confirm_runs=_int(doc.get("confirm_runs", 5), where, "confirm_runs"),
        model=_choice(doc.get("model", "auto"), ("auto", "faithful", "extended"), where, "model"),
        space=_space(doc.get("space", {}), where),
        path=path,
        time_budget=_seconds(doc.get("time_budget"), where, "time_budget"),
    )
    names = [p.name for p in plan.programs]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise UserError(f"program name {dup[0]!r} is used twice", where)
    return plan


def _program(doc: object, base: Path, where: str, index: int) -> ProgramPlan:
    what = f"program {index}"
    if not isinstance(doc, dict):
        raise UserError(f"{what}: not a table", where)
    _no_unknown(doc, _PROGRAM_KEYS, where, what)
    if "source" not in doc:
        raise UserError(f"{what}: no 'source'", where)
    source = (base / _text(doc["source"], where, f"{what}.source")).resolve()
    if not source.is_file():
        raise UserError(f"{what}: no such source file {source}", where)
    sizes = doc.get("sizes", [{}])
    if not isinstance(sizes, list) or not all(isinstance(s, dict) for s in sizes) or not sizes:
        raise UserError(f"{what}: 'sizes' must be a list of tables of -D values", where)

    def paths(key: str) -> list[str]:
        return [str((base / p).resolve()) for p in _texts(doc.get(key, []), where, f"{what}.{key}")]

    return ProgramPlan(
        name=_text(doc.get("name", source.stem), where, f"{what}.name"),
        source=source,
        cc=_text(doc.get("cc", "gcc"), where, f"{what}.cc"),
        cflags=_texts(doc.get("cflags", []), where, f"{what}.cflags"),
        ldflags=_texts(doc.get("ldflags", []), where, f"{what}.ldflags"),
        include_dirs=paths("include_dirs"),
        extra_sources=paths("extra_sources"),
        args=_texts(doc.get("args", []), where, f"{what}.args"),
        stdin=str((base / doc["stdin"]).resolve()) if doc.get("stdin") else None,
        defines=_defines(doc.get("defines", {}), where, f"{what}.defines"),
        sizes=[_defines(s, where, f"{what}.sizes") for s in sizes],
        loops=_texts(doc.get("loops", []), where, f"{what}.loops"),
        check=_choice(
            doc.get("check", "stdout"), ("stdout", "stderr", "both", "none"), where, what
        ),
    )


def _space(value: object, where: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise UserError("space must be a table: schedules, chunks, threads", where)
    _no_unknown(value, _SPACE_KEYS, where, "space")
    return {k: ",".join(map(str, v)) if isinstance(v, list) else str(v) for k, v in value.items()}


def _no_unknown(doc: dict, known: set[str], where: str, what: str) -> None:
    unknown = sorted(set(doc) - known)
    if unknown:
        raise UserError(
            f"{what}: unknown key {unknown[0]!r} (known: {', '.join(sorted(known))})", where
        )


def _text(value: object, where: str, key: str) -> str:
    if not isinstance(value, str) or not value:
        raise UserError(f"{key} must be a non-empty string", where)
    return value


def _texts(value: object, where: str, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str | int | float) for v in value):
        raise UserError(f"{key} must be a list of strings", where)
    return [str(v) for v in value]


def _int(value: object, where: str, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise UserError(f"{key} must be a whole number of at least 1", where)
    return value


def _seconds(value: object, where: str, key: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
        raise UserError(f"{key} must be a positive number of seconds", where)
    return float(value)


def _choice(value: object, choices: tuple[str, ...], where: str, key: str) -> str:
    if value not in choices:
        raise UserError(f"{key} must be one of {', '.join(choices)}, not {value!r}", where)
    return str(value)


def _defines(value: object, where: str, key: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise UserError(f"{key} must be a table of NAME = value", where)
    return {str(k): str(v) for k, v in value.items()}
