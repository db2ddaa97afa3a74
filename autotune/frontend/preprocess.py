"""Run the system C preprocessor so that pycparser sees what the compiler sees.

Real programs include glibc headers full of GCC extensions that pycparser
rejects. We neutralise them twice over: with ``-D`` definitions on the
preprocessor line (cheap, covers most) and with a text pass over the output
(``__attribute__((...))`` with nested parentheses; ``asm``: ``inlineasm``), keeping
``#`` line markers so every node maps back to the user's file and line.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from autotune import textfile
from autotune.errors import CompilerRejects, UserError, require_c_file
from autotune.frontend.inlineasm import (
    C_LITERAL,
    closing_paren,
    in_literal,
    line_breaks,
    replace_asm,
)
from autotune.frontend.labelvalues import replace_label_values
from autotune.frontend.options import SourceOptions
from autotune.frontend.vectortypes import mark_vector_typedefs

STUB_DIR = Path(__file__).resolve().parent.parent / "stubs"

# Applied on the preprocessor command line: extension keywords become nothing
# (or their standard spelling), GCC-only types become a standard type of the
# same size class (only declarations in headers use them).
NEUTRALISE_DEFINES = [
    "-D__extension__=",
    "-D__restrict=restrict",
    "-D__restrict__=restrict",
    "-D__inline=inline",
    "-D__inline__=inline",
    "-D__builtin_va_list=void*",
    "-D__const=const",
    "-D__volatile__=volatile",
    "-D__signed__=signed",
    "-D_Float128=long double",
    "-D_Float64x=long double",
    "-D_Float64=double",
    "-D_Float32x=double",
    "-D_Float32=float",
    "-D_Float16=float",
    "-D__float128=long double",
    "-D__int128=long long",
    "-D__thread=_Thread_local",  # pycparser reads C11's storage class: each thread's own
    "-D__typeof__(...)=int",  # variadic: stdatomic.h writes __typeof__ ((void)0, *p)
    "-D__typeof(...)=int",
    "-D_Noreturn=",
    "-D__builtin_offsetof(t,m)=0",
]

_BALANCED_KEYWORDS = re.compile(r"\b(__attribute__|__attribute|__declspec)\b")
_SIMPLE_REPLACE = {
    "__extension__": "",
    "__restrict__": "restrict",
    "__restrict": "restrict",
    "__inline__": "inline",
    "__inline": "inline",
}
_SIMPLE_RE = re.compile(r"\b(" + "|".join(_SIMPLE_REPLACE) + r")\b")

# GCC's imaginary constants (``1.0iF``, what <complex.h>'s ``I`` expands to), after
# the literals that may hold the same letters: pycparser has no imaginary type
_IMAGINARY = re.compile(
    C_LITERAL
    + r"|(?<![\w.])((?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?)(?:([fFlL]?)[iIjJ]|[iIjJ]([fFlL]?))\b"
)
_IMAGINARY_HINT = re.compile(r"\d[fFlL]?[iIjJ][fFlL]?\b")


@dataclass
class Preprocessed:
    text: str
    argv: list[str]
    used_stubs: bool = False
    # the user's headers the preprocessor read (absolute paths; system headers left out):
    # what a decision about the file depends on besides its own text and flags
    headers: list[str] = field(default_factory=list)


def find_compiler(cc: str = "gcc") -> str:
    exe = shutil.which(cc)
    if exe is None:
        raise UserError(f"C compiler {cc!r} not found on PATH (needed to preprocess)")
    return exe


def preprocess(
    path: str, options: SourceOptions, cc: str = "gcc", use_stubs: bool = False
) -> Preprocessed:
    """``cc -E`` the file with the user's flags; raise UserError on failure."""
    require_c_file(path)
    argv = [find_compiler(cc), "-E", "-fopenmp", "-std=gnu11"]
    argv += NEUTRALISE_DEFINES
    if use_stubs:
        argv += ["-nostdinc", "-isystem", str(STUB_DIR)]
    argv += options.cpp_args()
    argv.append(path)
    try:
        proc = subprocess.run(argv, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        raise UserError("preprocessor timed out", location=path) from None
    except OSError as exc:
        raise UserError(f"cannot run preprocessor: {exc}", location=path) from None
    if proc.returncode != 0:
        raise CompilerRejects(first_compiler_error(proc.stderr.decode("utf-8", "replace"), path))
    # the source's bytes as every command reads them (a Latin-1 literal survives)
    text = mark_system_headers(textfile.decode(proc.stdout))
    headers = user_headers(text, path)
    return Preprocessed(clean_extensions(text), argv, used_stubs=use_stubs, headers=headers)


def same_program(path: str, options: SourceOptions, cc: str, original: str, rewritten: str) -> bool:
    """Whether the preprocessor makes the same program of two texts of ``path`` (the
    tokens it emits, line markers and spacing aside), as the compiler would see them
    with the user's flags and OpenMP on: what proves that a macro's invocation may be
    replaced by the directive it expands to."""
    here = os.path.dirname(os.path.abspath(path))
    argv = [find_compiler(cc), "-E", "-P", "-fopenmp", "-iquote", here, *options.cpp_args(), "-"]
    marker = f'#line 1 "{os.path.abspath(path)}"\n'
    outputs = []
    for text in (original, rewritten):
        try:
            proc = subprocess.run(
                argv, input=textfile.encode(marker + text), capture_output=True, timeout=120
            )
        except (OSError, subprocess.SubprocessError):
            return False
        if proc.returncode != 0:
            return False
        outputs.append(b" ".join(proc.stdout.split()))
    return outputs[0] == outputs[1]


SYSTEM_PREFIX = "<system>"
_LINEMARKER = re.compile(r'^(# \d+ ")([^"]*)("(?: \d+)*)$', re.MULTILINE)


def mark_system_headers(text: str) -> str:
    """Prefix the file names of system headers with ``<system>`` in the line markers.

    The preprocessor flags a system header with a 3 in its line marker
    (``# 1 "/usr/include/stdio.h" 1 3 4``); that, not where a file lives, is
    what makes it one: a user's file under /usr/local/src is the user's code.
    """

    def mark(m: re.Match[str]) -> str:
        if "3" not in m.group(3)[1:].split() or m.group(2).startswith("<"):
            return m.group(0)
        return f"{m.group(1)}{SYSTEM_PREFIX}{m.group(2)}{m.group(3)}"

    return _LINEMARKER.sub(mark, text)


def user_headers(text: str, path: str) -> list[str]:
    """The files ``text`` entered (line markers with flag 1) without the system-header
    flag 3, other than ``path`` itself, as absolute paths in a fixed order. A header
    that only defines macros (``#define NX 12``) is named too: its lines leave no node.
    The entering marker decides: gcc also flags a user file's lines that a system macro
    expanded into (``# 38 "spmv.c" 3 4``), and leaves a system header's unflagged."""
    own = os.path.realpath(path)
    out = set()
    for m in _LINEMARKER.finditer(text):
        flags = m.group(3)[1:].split()
        name = m.group(2)
        if "1" not in flags or "3" in flags or not name or is_system_file(name):
            continue
        full = os.path.abspath(name.replace("\\\\", "\\"))  # markers double a backslash
        if os.path.realpath(full) != own:
            out.add(full)
    return sorted(out)


def is_system_file(name: str | None) -> bool:
    """True for a system header (marked by ``mark_system_headers``) or ``<built-in>``."""
    return bool(name) and str(name).startswith("<")


def first_compiler_error(stderr: str, path: str) -> str:
    """The first ``file:line:col: error`` line of compiler output, or a summary."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    for needle in (": fatal error:", ": error:", "error"):
        for ln in lines:
            if needle in ln:
                return ln.strip()
    return f"{path}: preprocessing failed: {lines[0].strip() if lines else 'no message'}"


def clean_extensions(text: str) -> str:
    """Remove GCC extensions that survived the -D pass (nested-paren attributes); the
    user's asm statements become calls the proof keeps (``inlineasm``)."""
    text = replace_label_values(replace_asm(text))
    if _BALANCED_KEYWORDS.search(text):
        text = _strip_balanced(mark_vector_typedefs(text))
    text = _SIMPLE_RE.sub(lambda m: _SIMPLE_REPLACE[m.group(1)], text)
    if _IMAGINARY_HINT.search(text):
        text = _IMAGINARY.sub(_real_part, text)
    return text


def _real_part(m: re.Match[str]) -> str:
    """An imaginary constant as the real one of its digits and precision (``1.0iF`` ->
    ``1.0F``): the parse only feeds the analysis, where a constant factor of a complex
    product counts and depends alike; the compiler builds the user's own text."""
    if m.group(1):
        return m.group(1)
    return m.group(2) + (m.group(3) or m.group(4) or "")


def _strip_balanced(text: str) -> str:
    """Erase ``__attribute__ ((...))`` and its kin, parentheses balanced (a literal's
    own parenthesis skipped), keeping the line breaks and line markers they span."""
    out: list[str] = []
    pos = 0
    for m in _BALANCED_KEYWORDS.finditer(text):
        if m.start() < pos or in_literal(text, m.start()):
            continue
        out.append(text[pos : m.start()])
        j = m.end()
        while j < len(text) and (text[j] in " \t\r\n" or _marker_at(text, j)):
            j = text.index("\n", j) + 1 if _marker_at(text, j) else j + 1
        end = closing_paren(text, j) if j < len(text) and text[j] == "(" else None
        if end is None:
            out.append(line_breaks(text[m.start() : m.end()]))
            pos = m.end()
            continue
        out.append(line_breaks(text[m.start() : end]))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _marker_at(text: str, j: int) -> bool:
    """A line marker starts at ``j`` (gcc puts them inside a macro's expansion)."""
    return text[j] == "#" and (j == 0 or text[j - 1] == "\n") and "\n" in text[j : j + 400]
