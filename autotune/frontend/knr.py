"""Old-style C that gcc accepts and pycparser does not: implicit ``int`` definitions.

``main(argc, argv) char **argv; { ... }`` (K&R, as in many older benchmark
codes) defines a function with no return type. pycparser parses K&R
parameter declarations but wants a type in front, so before parsing, such a
definition gets ``int `` inserted in front of its name, on the same line:
every line keeps its number. Only a name at the start of a line, after the
end of a previous declaration, whose parenthesised list is followed by ``{``
or by parameter declarations, is touched; a call (followed by ``;``) never is.
"""

from __future__ import annotations

import re

_CANDIDATE = re.compile(r"^([A-Za-z_]\w*)[ \t]*\(", re.MULTILINE)
_KEYWORDS = frozenset(
    "if while for switch return sizeof do else case goto typedef struct union enum".split()
)
_LINEMARK = re.compile(r"^#.*$", re.MULTILINE)
# ``extern layer_size;``: a declaration whose only specifier is a storage class
_STORAGE_ONLY = re.compile(
    r"(?<![\w])(extern|static|register|auto)([ \t]+)(?!(?:int|char|short|long|float|double"
    r"|void|signed|unsigned|const|volatile|struct|union|enum|_Bool|inline|_Complex|__\w+)\b)"
    r"([A-Za-z_]\w*)(?=[ \t]*[;,=\[])"
)


def add_implicit_int(text: str) -> tuple[str, int]:
    """``text`` with ``int `` before each implicit-int function definition and each
    declaration with a storage class but no type (``extern n;``); how many."""
    text, declared = _STORAGE_ONLY.subn(r"\1\2int \3", text)
    text, defined = _definitions(text)
    return text, declared + defined


def _definitions(text: str) -> tuple[str, int]:
    spans: list[int] = []
    for m in _CANDIDATE.finditer(text):
        if m.group(1) in _KEYWORDS or not _after_declaration(text, m.start()):
            continue
        close = _matching_paren(text, m.end() - 1)
        if close is not None and _starts_body(text, close + 1):
            spans.append(m.start())
    if not spans:
        return text, 0
    out, pos = [], 0
    for start in spans:
        out += [text[pos:start], "int "]
        pos = start
    out.append(text[pos:])
    return "".join(out), len(spans)


def _after_declaration(text: str, at: int) -> bool:
    """The last significant character before ``at`` (line markers skipped) ends one."""
    before = _LINEMARK.sub("", text[max(0, at - 4000) : at]).rstrip()
    return not before or before[-1] in ";}"


def _matching_paren(text: str, i: int) -> int | None:
    depth = 0
    for j in range(i, min(len(text), i + 4000)):
        c = text[j]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
        elif c in "{};":
            return None
    return None


def _starts_body(text: str, i: int) -> bool:
    """After the parameter list: ``{`` or K&R declarations (each ending in ';') then ``{``."""
    rest = text[i : i + 4000]
    m = re.match(r"\s*(?:[A-Za-z_][^;{}()]*;\s*)*\{", rest)
    return m is not None
