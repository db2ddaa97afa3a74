"""Where autotune keeps what it can make again, and whether the process that left
something there still runs: functions every stage may use.

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


def process_alive(pid: int) -> bool:
    """Whether a process of that id exists (another user's counts): what a killed
    autotune left in the cache or the temporary folder is removed only when it is gone."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True
