"""Load site-packages on demand when the wrapper was started with ``python -S``.

``launch.py`` starts the wrapper without ``site`` (the warm path needs only the
standard library and this package); a compile that needs third-party packages
calls ``ensure_site`` first.
"""

from __future__ import annotations

import sys

_SITE_LOADED = False


def ensure_site() -> None:
    """Load site-packages if started by launch.py (``python -S``) and a package is needed."""
    global _SITE_LOADED
    if sys.flags.no_site and not _SITE_LOADED:
        import site

        site.main()
        _SITE_LOADED = True
