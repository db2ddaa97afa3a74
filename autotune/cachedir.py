"""Where autotune keeps what it can make again: one function every stage may use.

Plain ``os.path`` (no pathlib): the build hook's no-op path imports it and must
start fast.
"""

from __future__ import annotations

import os


def cache_dir() -> str:
    """``$AUTOTUNE_CACHE_DIR``, else ``$XDG_CACHE_HOME/autotune``, else ``~/.cache/autotune``."""
    env = os.environ.get("AUTOTUNE_CACHE_DIR")
    if env:
        return os.path.expanduser(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = os.path.expanduser(xdg) if xdg else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "autotune")
