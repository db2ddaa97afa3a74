"""The OpenMP settings measured programs see on a worker: the user's, not Dask's.

Dask's nanny starts every worker with ``OMP_NUM_THREADS=1`` (and the same for
MKL and OpenBLAS) so that numeric libraries do not oversubscribe. A program
measured there would then run its original with one thread and every variant
would look many times faster. The campaign hands the client's OpenMP settings
(those of the person who started it) to every worker through a worker plugin,
at set-up and before any task, and each measuring task checks them.
"""

from __future__ import annotations

import os

from distributed.diagnostics.plugin import WorkerPlugin

PREFIXES = ("OMP_", "GOMP_", "KMP_")
NAMES = ("MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")
PLUGIN_NAME = "autotune-openmp-environment"


def openmp_environment() -> dict[str, str]:
    """This process's OpenMP-related variables."""
    return {k: v for k, v in os.environ.items() if k.startswith(PREFIXES) or k in NAMES}


def thread_settings(env: dict[str, str]) -> dict[str, str]:
    """The variables that set thread counts and placement for GNU OpenMP and the BLAS:
    what Dask's nanny changes, and what a measuring task checks. (scikit-learn sets two
    Intel-runtime KMP_ variables when it is imported, in workers too: not compared.)"""
    return {k: v for k, v in env.items() if k.startswith(("OMP_", "GOMP_")) or k in NAMES}


def adopt(env: dict[str, str]) -> None:
    """Make this process's OpenMP variables exactly ``env``."""
    for name in openmp_environment():
        if name not in env:
            del os.environ[name]
    os.environ.update(env)


class OpenMPEnvironment(WorkerPlugin):
    """Applies the client's OpenMP settings on every worker, joining ones included."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = dict(env)

    def setup(self, worker) -> None:  # a distributed.Worker
        adopt(self.env)
