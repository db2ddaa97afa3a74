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


class EnvironmentFault(UserError):
    """The machine failed, not the input: a full disk, no temporary space, the compiler
    killed. Said as one line, and never stored as a variant's result (a later run on a
    healthy machine would otherwise read it back as the variant's)."""


class NoLoops(UserError):
    """The file has no OpenMP worksharing loop: nothing to rank or tune in it (most files
    of a program of several have none)."""


def raise_analysis_faults() -> bool:
    """Whether a fault inside the analysis or the proof is raised rather than turned into
    "kept as written" (``AUTOTUNE_RAISE_ANALYSIS_FAULTS=1``: the test suite sets it, so
    that an exception inside the proof fails a test and never passes for a kept loop)."""
    import os

    return os.environ.get("AUTOTUNE_RAISE_ANALYSIS_FAULTS", "") not in ("", "0")


_CXX_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".C", ".hpp")


def require_c_file(path: object) -> None:
    """A source file autotune can read, or one line that says what it is instead."""
    import errno
    import os
    import stat

    text = os.fspath(path)  # type: ignore[arg-type]
    try:
        st = os.stat(text)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UserError("a loop of symbolic links, not a C file", text) from None
        if exc.errno == errno.ENOENT:
            dangling = os.path.islink(text)
            what = "a symbolic link to nothing" if dangling else "no such file"
            raise UserError(what, text) from None
        raise UserError(f"cannot read it: {exc.strerror}", text) from None
    if stat.S_ISDIR(st.st_mode):
        raise UserError("is a directory, not a C file", text)
    if not stat.S_ISREG(st.st_mode):
        raise UserError("not a regular file (a device, pipe or socket), not a C file", text)
    if text.endswith(_CXX_SUFFIXES):
        raise UserError("a C++ file: autotune reads C (C99/C11 with OpenMP) only", text)
