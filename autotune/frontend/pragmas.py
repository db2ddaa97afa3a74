"""Parse the text of an ``#pragma omp ...`` line into a directive kind and clauses."""

from __future__ import annotations

from autotune.frontend.records import Clauses

# Words that make up directive names (as opposed to clauses).
DIRECTIVE_WORDS = {
    "parallel",
    "for",
    "do",
    "simd",
    "sections",
    "section",
    "single",
    "master",
    "masked",
    "task",
    "taskloop",
    "taskwait",
    "taskgroup",
    "taskyield",
    "barrier",
    "critical",
    "atomic",
    "flush",
    "ordered",
    "threadprivate",
    "target",
    "teams",
    "distribute",
    "loop",
    "declare",
    "end",
    "cancel",
    "cancellation",
    "point",
    "data",
    "enter",
    "exit",
    "update",
    "requires",
    "scope",
    "workshare",
    "reduction",
    "mapper",
    "variant",
    "metadirective",
    "allocate",
}
# Directives that stand alone (govern no following statement).
STANDALONE = {
    "barrier",
    "taskwait",
    "taskyield",
    "flush",
    "threadprivate",
    "cancel",
    "cancellation point",
    "target enter data",
    "target exit data",
    "target update",
    "requires",
    "declare reduction",
    "declare simd",
    "declare target",
    "end declare target",
    "section",
}


def is_standalone(kind: str) -> bool:
    """A directive that governs no statement: ``cancel for`` and ``cancellation point
    parallel`` name their construct after the directive, so the first words decide."""
    if kind in STANDALONE or kind.startswith("declare"):
        return True
    return kind.split(" ", 1)[0] in ("cancel", "cancellation")


def split_items(text: str) -> list[str]:
    """Top-level items: a word with an optional balanced ``( ... )`` group."""
    items: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t,\\\n\r":
            i += 1
            continue
        j = i
        while j < n and (text[j].isalnum() or text[j] == "_"):
            j += 1
        if j == i:  # stray character: keep it as its own item
            items.append(c)
            i += 1
            continue
        k = j
        while k < n and text[k] in " \t":
            k += 1
        if k < n and text[k] == "(":
            depth = 0
            while k < n:
                if text[k] == "(":
                    depth += 1
                elif text[k] == ")":
                    depth -= 1
                    if depth == 0:
                        k += 1
                        break
                k += 1
            items.append(text[i:j] + text[j:k].strip())
            i = k
        else:
            items.append(text[i:j])
            i = j
    return items


def _arg(item: str) -> str:
    return item[item.index("(") + 1 : -1].strip() if "(" in item else ""


def _modifier(arg: str) -> str:
    """The word before the first colon of a clause argument, lower case."""
    return arg.partition(":")[0].strip().lower()


def _names(arg: str) -> list[str]:
    return [a.strip() for a in arg.split(",") if a.strip()]


def parse_omp(text: str) -> tuple[str, Clauses] | None:
    """Return (kind, clauses) for an OpenMP pragma text, or None for other pragmas.

    ``text`` is what follows ``#pragma`` (pycparser's ``Pragma.string``).
    """
    items = split_items(text)
    if not items or items[0] != "omp":
        return None
    items = items[1:]
    words: list[str] = []
    while items:
        head = items[0]
        name = head.split("(")[0]
        if name not in DIRECTIVE_WORDS:
            break
        # "ordered"/"reduction" are directive words only when they come first;
        # "update" names a directive after "target" ("target update") and is a
        # clause of "atomic" ("atomic update", like "atomic read").
        if name in ("ordered", "reduction", "allocate") and words:
            break
        if name == "update" and words != ["target"]:
            break
        words.append(name)
        items.pop(0)
        if "(" in head:  # critical(name), flush(list), threadprivate(list)...
            items.insert(0, "__arg" + head[len(name) :])
            break
    kind = " ".join(words) if words else "unknown"
    clauses = Clauses()
    for item in items:
        if item.startswith("__arg"):
            clauses.other.append(item[len("__arg") :])
            continue
        _apply_clause(clauses, item)
    return kind, clauses


def _apply_clause(c: Clauses, item: str) -> None:
    name = item.split("(")[0].strip().lower()
    arg = _arg(item)
    if name == "schedule":
        parts = [p.strip() for p in arg.split(",", 1)]
        kind = parts[0]
        if ":" in kind:  # schedule(monotonic: dynamic, 4)
            kind = kind.split(":")[-1].strip()
        c.schedule = kind or None
        c.chunk = parts[1] if len(parts) > 1 else None
    elif name == "num_threads":
        c.num_threads = arg
    elif name == "collapse":
        try:
            c.collapse = int(arg, 0)
        except ValueError:
            c.other.append(item)
    elif name == "reduction":
        c.reduction.append(arg)
    elif name == "lastprivate" and _modifier(arg) == "conditional":
        names = _names(arg.partition(":")[2])
        c.lastprivate.extend(names)
        c.lastprivate_conditional.extend(names)
    elif name in ("private", "firstprivate", "lastprivate", "shared"):
        getattr(c, name).extend(_names(arg))
    elif name == "copyin":
        c.copyin.extend(_names(arg))
        c.other.append(item)  # still listed verbatim, as before the clause was read
    elif name == "linear":
        c.linear.append(arg)
        c.other.append(item)  # still listed verbatim, as before the clause was read
    elif name == "default":
        c.default = arg
    elif name == "nowait":
        c.nowait = True
    elif name == "ordered":
        c.ordered = True
        if arg:
            c.other.append(item)
    elif name == "if":
        c.if_clause = arg
    else:
        c.other.append(item)
