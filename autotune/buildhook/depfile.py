"""Make the dependency file of a tuned compile byte-identical to the original's.

The compiler names the temporary tuned copy as the first prerequisite, and
because GCC wraps the rule at 72 columns, the longer temporary name also
moves the line breaks. Replacing the name is enough for ``make``; to give
exactly the original bytes the rule is re-wrapped with GCC's own rule
(libcpp's ``make_write``), but only after checking that this rule reproduces
the file the compiler actually wrote. Any other layout (another compiler,
another version) gets the plain name replacement.
"""

from __future__ import annotations

import os

COLMAX = 72  # the column limit GCC passes to deps_write


def make_escape(path: str) -> str:
    """A file name as GCC writes it in a dependency file."""
    return path.replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ")


def _write_names(names: list[str], col: int) -> tuple[str, int]:
    out = []
    for name in names:
        if col:
            if col + len(name) > COLMAX:
                out.append(" \\\n")
                col = 0
            col += 1
            out.append(" ")
        col += len(name)
        out.append(name)
    return "".join(out), col


def gcc_rule(targets: list[str], deps: list[str]) -> str:
    """One rule laid out as GCC lays it out (names already escaped)."""
    text, col = _write_names(targets, 0)
    rest, _ = _write_names(deps, col + 1)
    return f"{text}:{rest}\n"


def _split(text: str) -> list[str]:
    """Names separated by blanks, a backslash-escaped blank being part of a name."""
    names, cur, i = [], [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            cur.append(text[i : i + 2])
            i += 2
            continue
        if c in " \t\n":
            if cur:
                names.append("".join(cur))
                cur = []
        else:
            cur.append(c)
        i += 1
    if cur:
        names.append("".join(cur))
    return names


def _first_rule(text: str) -> tuple[str, list[str], list[str]] | None:
    """(the rule's exact text, targets, prerequisites) of the file's first rule."""
    end = text.find("\n")
    while end > 0 and text[end - 1] == "\\":
        end = text.find("\n", end + 1)
    if end < 0:
        return None
    rule = text[: end + 1]
    tokens = _split(rule.replace("\\\n", " "))
    for i, tok in enumerate(tokens):
        if tok.endswith(":") and not tok.endswith("\\:"):
            return rule, tokens[:i] + [tok[:-1]], tokens[i + 1 :]
    return None


def rewrite(text: str, moved: dict[str, str]) -> str:
    """``text`` with the temporary names replaced by the user's (escaped) names."""
    swap = {make_escape(tmp): make_escape(orig) for tmp, orig in moved.items()}
    parsed = _first_rule(text)
    if parsed is not None:
        rule, targets, deps = parsed
        if gcc_rule(targets, deps) == rule and any(d in swap for d in deps):
            new_rule = gcc_rule(targets, [swap.get(d, d) for d in deps])
            text = new_rule + text[len(rule) :]
    for old, new in swap.items():
        text = text.replace(old, new)
    return text


def fix_files(paths: list[str], moved: dict[str, str], since: float) -> None:
    """Rewrite the dependency files the compile just wrote (atomically)."""
    for path in paths:
        try:
            if os.path.getmtime(path) < since - 1.0:
                continue
            with open(path, encoding="utf-8", errors="surrogateescape") as fh:
                text = fh.read()
        except OSError:
            continue
        new = rewrite(text, moved)
        if new != text:
            tmp = f"{path}.autotune-{os.getpid()}"
            with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(new)
            os.replace(tmp, path)
