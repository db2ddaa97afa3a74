"""Errors that reach the user as one line and exit status 2, never a traceback."""

from __future__ import annotations


class UserError(Exception):
    """A problem with the user's input or environment, reported as one line.

    ``location`` is ``file:line`` (or just ``file``) when the problem has one.
    """

    def __init__(self, message: str, location: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        if self.location:
            return f"{self.location}: {self.message}"
        return self.message


class CompilerRejects(UserError):
    """The compiler itself rejects the file: its own message says why (a build hook then
    stays silent and lets the compiler say it)."""


class NoLoops(UserError):
    """The file has no OpenMP worksharing loop: nothing to rank or tune in it (most files
    of a program of several have none)."""


_CXX_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".C", ".hpp")


def require_c_file(path: object) -> None:
    """A source file autotune can read, or one line that says what it is instead."""
    import os

    text = os.fspath(path)  # type: ignore[arg-type]
    if os.path.isdir(text):
        raise UserError("is a directory, not a C file", text)
    if not os.path.isfile(text):
        raise UserError("no such file", text)
    if text.endswith(_CXX_SUFFIXES):
        raise UserError("a C++ file: autotune reads C (C99/C11 with OpenMP) only", text)
