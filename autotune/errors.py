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
