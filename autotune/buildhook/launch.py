"""Start autotune-cc without ``site``: ``python -S .../autotune/buildhook/launch.py CC ARGS``.

The interpreter's ``site`` step (site-packages, ``.pth`` files, editable
install finders) costs more than the wrapper's whole warm path, and the warm
path needs nothing outside the standard library and this package. ``autotune-cc
--launcher`` prints this command; the CMake module and ``autotune.mk`` use it.
When a compile needs third-party packages (the parser on a cold cache),
``sitepath.ensure_site`` runs ``site.main()`` first.
"""

import os
import sys

# sys.path[0] is this file's directory: replace it by the one holding the package.
sys.path[0] = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from autotune.buildhook.wrapper import main  # noqa: E402

raise SystemExit(main())
