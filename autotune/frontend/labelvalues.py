"""Labels as values (GNU C), which pycparser cannot read, made readable for the analysis.

Interpreters and state machines keep label addresses in tables (``static void *next[]
= {&&add, &&sub}``) and jump through them (``goto *next[op];``). The parse only feeds
the analysis (the compiler builds the user's own text), so each ``&&label`` becomes a
null pointer and each computed ``goto *e;`` a ``goto`` to a label no code has: the
proof keeps any loop holding such a jump ("a goto at file:line"), and the rest of the
file is read as before. Line numbers are unchanged.
"""

from __future__ import annotations

import re

from autotune.frontend.inlineasm import in_literal, line_breaks

COMPUTED_LABEL = "__autotune_computed_goto__"

# ``&&label`` where no operand stands before it: after ``=``, ``,``, ``{``, ``(``, ``?``,
# ``:`` or ``return`` (``a && b`` always has one)
_ADDRESS = re.compile(r"([=,{(?:]|\breturn\b)(\s*)&&\s*([A-Za-z_]\w*)")
_JUMP = re.compile(r"\bgoto\s*\*([^;]*);")


def replace_label_values(text: str) -> str:
    """``text`` (preprocessed) with label addresses as null pointers and computed jumps
    as plain ones."""
    if "&&" not in text and "goto" not in text:
        return text
    text = _JUMP.sub(_jump, text)
    return _ADDRESS.sub(lambda m: _address(text, m), text)


def _jump(m: re.Match[str]) -> str:
    if in_literal(m.string, m.start()):
        return m.group(0)
    return f"goto {COMPUTED_LABEL};{line_breaks(m.group(1))}"


def _address(text: str, m: re.Match[str]) -> str:
    if in_literal(text, m.start(3)):
        return m.group(0)
    return f"{m.group(1)}{m.group(2)}((void *)0)"
