"""Where builds and the measurement database live by default.

Builds and runs are kept per user (not next to the sources) so a sweep never
writes into the user's tree and a later run of any command reuses them.
"""

from __future__ import annotations

import os
from pathlib import Path

from autotune import cachedir


def cache_dir() -> Path:
    """``$AUTOTUNE_CACHE_DIR``, else ``$XDG_CACHE_HOME/autotune``, else ``~/.cache/autotune``."""
    return Path(cachedir.cache_dir())


def default_db_path() -> Path:
    """``$AUTOTUNE_DB``, else ``<cache dir>/autotune.db``."""
    env = os.environ.get("AUTOTUNE_DB")
    if env:
        return Path(env).expanduser()
    return cache_dir() / "autotune.db"
