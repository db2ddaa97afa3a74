"""The one error of the variant stage (re-exported by ``autotune.variants.emit``)."""

from __future__ import annotations

from autotune.errors import UserError


class EmitError(UserError):
    """A loop that cannot be rewritten as written (e.g. its ``for`` comes from a macro).

    A UserError so the CLI reports it as one line; the measurement stage
    records it as the variant's outcome instead of crashing a sweep.
    """
