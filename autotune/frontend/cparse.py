"""Parse preprocessed C with pycparser and turn its errors into one user line."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from pycparser import c_ast, c_parser

from autotune.errors import CompilerRejects, UserError
from autotune.frontend.headercache import parse_with_cached_headers
from autotune.frontend.knr import add_implicit_int
from autotune.frontend.options import SourceOptions
from autotune.frontend.preprocess import (
    SYSTEM_PREFIX,
    Preprocessed,
    find_compiler,
    first_compiler_error,
    is_system_file,
    preprocess,
)
from autotune.frontend.unsupported import construct_on_line, unsupported_construct

# The analysis walks the AST recursively, a few frames a level: a sum of a few hundred terms
# (a macro's expansion in generated code) is already deeper than Python's default limit
# allows; past MAX_DEPTH a file is refused with its place rather than walked
RECURSION_LIMIT = 20_000
MAX_DEPTH = 2_000
_COORD = re.compile(r"^(?P<file>[^:]*):(?P<line>\d+)(?::(?P<col>\d+))?:\s*(?P<msg>.*)$", re.S)


def parse_text(text: str, filename: str) -> c_ast.FileAST:
    """Parse preprocessed text; ParseError becomes UserError at file:line."""
    parser = c_parser.CParser()
    try:
        return parser.parse(text, filename=filename)
    except c_parser.ParseError as exc:
        m = _COORD.match(str(exc))
        if m:
            where = f"{user_file(m.group('file'), filename)}:{m.group('line')}"
            what = construct_on_line(text, m.group("file"), int(m.group("line")))
            message = what or m.group("msg").strip()
            raise UserError(f"cannot parse C: {message}", location=where) from None
        found = unsupported_construct(text)
        if found is not None:
            raise UserError(f"cannot parse C: {found[1]}", location=found[0]) from None
        message = str(exc).replace(SYSTEM_PREFIX, "")  # pycparser's "file: message"
        message = message.split(": ", 1)[1] if message.startswith(f"{filename}: ") else message
        raise UserError(f"cannot parse C: {message}", location=filename) from None
    except (
        RecursionError,
        ValueError,
        TypeError,
        AttributeError,
        IndexError,
        AssertionError,
    ) as exc:  # pycparser asserts on some unbalanced braces
        raise UserError(f"cannot parse C: {type(exc).__name__}: {exc}", location=filename) from None


def parse_file(path: str, options: SourceOptions, cc: str = "gcc") -> c_ast.FileAST:
    """Preprocess and parse ``path`` (see ``parse_unit``)."""
    return parse_unit(path, options, cc)[0]


def parse_unit(
    path: str, options: SourceOptions, cc: str = "gcc"
) -> tuple[c_ast.FileAST, list[str]]:
    """Preprocess and parse ``path``; also the user's headers it read.

    The real system headers come first (their declarations are the truth).
    When pycparser still fails inside a system header (or on a line of the user's a
    system macro expanded into), we retry with our own small stub headers; the first
    error is the one reported.
    """
    try:
        pre = preprocess(path, options, cc)
    except CompilerRejects as exc:
        if compiler_syntax_error(path, options, cc) is not None:
            raise
        # the compiler reads the file: what failed is autotune's neutralising of GCC's
        # extensions for its parser (a macro of a header it spells differently)
        raise UserError(
            f"cannot preprocess the file for analysis: {exc} (the compiler accepts this "
            "file: a construct autotune's preprocessing does not support)",
            location=path,
        ) from None
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)
    ast = _parse(path, options, cc, pre)
    _check_depth(ast, path)
    return ast, pre.headers


def _check_depth(ast: c_ast.FileAST, path: str) -> None:
    """UserError at the deepest place when the tree is nested deeper than MAX_DEPTH (a
    macro that expands to a 200,000-term expression): walked without recursion."""
    stack: list[tuple[c_ast.Node, int]] = [(ast, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            coord = getattr(node, "coord", None)
            where = path
            if coord is not None and coord.line:
                where = f"{user_file(str(coord.file), path)}:{coord.line}"
            raise UserError(
                f"an expression nested over {MAX_DEPTH} levels deep (a macro that expands "
                "to thousands of terms?) is beyond what the analysis reads; the compiler "
                "compiles it as written",
                location=where,
            )
        stack.extend((child, depth + 1) for _, child in node.children())


def _parse(path: str, options: SourceOptions, cc: str, pre: Preprocessed) -> c_ast.FileAST:
    fast = parse_with_cached_headers(pre.text, lambda text: parse_text(text, path))
    if fast is not None:
        return fast
    try:
        return parse_text(pre.text, path)
    except UserError as first:
        error = first
    old_style, count = add_implicit_int(pre.text)
    if count:  # K&R / implicit-int definitions, which gcc accepts
        try:
            return parse_text(old_style, path)
        except UserError as again:
            error = again
    # a system header, or the user's line a system macro expanded into (also reported
    # as the user's): their stubs may read
    if _in_system_header(error.location) or (error.location or "").rsplit(":", 1)[0] == path:
        try:
            return parse_text(preprocess(path, options, cc, use_stubs=True).text, path)
        except UserError:
            pass
    compiler_says = compiler_syntax_error(path, options, cc)
    if compiler_says:
        raise CompilerRejects(compiler_says) from None
    raise UserError(
        f"{error.message} (the compiler accepts this file: a construct autotune's "
        "C parser does not support)",
        location=error.location,
    )


def user_file(name: str, filename: str) -> str:
    """``name`` without the system mark when it is the user's own file: gcc flags the
    user's lines that a system header's macro expanded into (``I`` from <complex.h>)."""
    rest = name.removeprefix(SYSTEM_PREFIX)
    if rest != name and os.path.realpath(rest) == os.path.realpath(filename):
        return rest
    return name


def compiler_syntax_error(path: str, options: SourceOptions, cc: str) -> str | None:
    """The compiler's first error line for ``path``, or None when it compiles.

    pycparser sometimes reports an error without a line; the compiler always
    names the user's file and line, so its verdict is the one we show.
    """
    argv = [find_compiler(cc), "-fsyntax-only", "-fopenmp", *options.cpp_args(), path]
    try:
        proc = subprocess.run(argv, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode == 0:
        return None
    return first_compiler_error(proc.stderr.decode("utf-8", "replace"), path)


def _in_system_header(location: str | None) -> bool:
    if not location:
        return False
    return is_system_file(location.rsplit(":", 1)[0])
