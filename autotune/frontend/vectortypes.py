"""GCC vector types, which pycparser cannot read, kept the size they have.

``typedef double __m256d __attribute__ ((__vector_size__ (32)))`` is four doubles, and
``*(__m256d_u *)p = v`` (what ``_mm256_storeu_pd(p, v)`` does) writes all four. With the
attribute erased the type would read as one ``double``, and the legality proof would see
one element written where four are: a loop storing four lanes at every second index
would look independent. So each vector typedef is rewritten to go through a typedef of
its element type whose name carries the vector's bytes, which ``vector_bytes`` reads
back (``analysis.layout`` sizes the type by it); the attribute itself is erased with the
others (``preprocess``).
"""

from __future__ import annotations

import re

from autotune.frontend.inlineasm import closing_paren

PREFIX = "__autotune_vec"
_NAME = re.compile(PREFIX + r"(\d+)_")
_VECTOR_ATTR = re.compile(
    r"\b__attribute__\s*\(\(([^;{}]*?)\b(?:__vector_size__|vector_size)\s*\(\s*(\d+)\s*\)"
)
# the declaration the attribute belongs to: from ``typedef`` to the attribute (the
# element type, then the name), within one statement
_BEFORE = re.compile(r"\btypedef\s+([A-Za-z_][\w\s]*?)\s+([A-Za-z_]\w*)\s*$")
# ``typedef double __attribute__ ((vector_size (32))) v4d;``: the name after it
_TYPE_ONLY = re.compile(r"\btypedef\s+([A-Za-z_][\w\s]*?)\s*$")
_NAME_AFTER = re.compile(r"\s*([A-Za-z_]\w*)\s*;")


def vector_bytes(name: str) -> int | None:
    """The bytes of a vector type from the name ``mark_vector_typedefs`` gave its
    element typedef; None for any other name."""
    m = _NAME.match(name)
    return int(m.group(1)) if m else None


def mark_vector_typedefs(text: str) -> str:
    """``typedef T NAME __attribute__((vector_size(N)))`` ->
    ``typedef T __autotune_vecN_NAME; typedef __autotune_vecN_NAME NAME __attribute__...``
    on the same line; the form with the attribute before the name likewise."""
    if "vector_size" not in text:
        return text
    out: list[str] = []
    pos = 0
    for m in _VECTOR_ATTR.finditer(text):
        start = (
            max(
                text.rfind(";", 0, m.start()),
                text.rfind("{", 0, m.start()),
                text.rfind("}", 0, m.start()),
            )
            + 1
        )
        head = text[start : m.start()]
        before = _BEFORE.search(head)
        if before is not None and before.group(2) not in ("const", "volatile"):
            base, name = before.group(1), before.group(2)
            element = f"{PREFIX}{m.group(2)}_{name}"
            cut = start + before.start()
            out.append(text[pos:cut])
            out.append(f"typedef {base} {element}; typedef {element} {name} ")
            pos = m.start()
            continue
        only = _TYPE_ONLY.search(head)
        paren = text.find("(", m.start())
        close = closing_paren(text, paren) if paren >= 0 else None
        after = _NAME_AFTER.match(text, close) if only is not None and close else None
        if only is not None and after is not None:
            name = after.group(1)
            element = f"{PREFIX}{m.group(2)}_{name}"
            cut = start + only.start()
            out.append(text[pos:cut])
            out.append(f"typedef {only.group(1)} {element}; typedef {element} ")
            pos = m.start()
    out.append(text[pos:])
    return "".join(out)
