"""numpy loaded with its BLAS on one thread, without changing what children inherit.

autotune's arrays are small (a loop's variants, a few features): OpenBLAS's
thread pool buys nothing there, yet it starts one thread per core at import and
they spin after each call. Under ``make -j`` those cycles are taken from the
compiles running beside the build hook: a project's first build in rank mode
used 2.0 s of CPU for 1.9 s of wall time on 2 cores, 1.5 s with one BLAS thread.
OpenBLAS reads ``OPENBLAS_NUM_THREADS`` once, when numpy loads it; the variable
is set for that moment only, so the programs autotune builds and runs see the
environment the user gave. A value the user set is kept.
"""

from __future__ import annotations

import os
import sys

VARIABLE = "OPENBLAS_NUM_THREADS"


def load_numpy_single_threaded() -> None:
    """Import numpy now, its BLAS on one thread unless the user said otherwise."""
    if "numpy" in sys.modules:
        return
    if VARIABLE in os.environ:
        import numpy

        return
    os.environ[VARIABLE] = "1"
    try:
        import numpy  # noqa: F401
    finally:
        os.environ.pop(VARIABLE, None)
