"""numpy's BLAS on one thread in autotune's own process, and nothing of it in what the
programs autotune runs inherit; a value the user set is theirs."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

threadpoolctl = pytest.importorskip("threadpoolctl")

PROBE = """
import json, os
from autotune.numpyload import load_numpy_single_threaded
load_numpy_single_threaded()
from threadpoolctl import threadpool_info
blas = [p["num_threads"] for p in threadpool_info() if p.get("user_api") == "blas"]
print(json.dumps({"blas": blas, "env": os.environ.get("OPENBLAS_NUM_THREADS")}))
"""


def _probe(env: dict) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: BLAS has one thread anyway")
def test_blas_runs_on_one_thread_and_children_inherit_nothing():
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    seen = _probe(env)
    if not seen["blas"]:
        pytest.skip("numpy here has no BLAS threadpoolctl can see")
    assert seen["blas"] == [1] * len(seen["blas"])
    assert seen["env"] is None  # a program autotune runs sees the user's environment


def test_a_value_the_user_set_is_kept():
    env = dict(os.environ, OPENBLAS_NUM_THREADS="2")
    seen = _probe(env)
    if not seen["blas"]:
        pytest.skip("numpy here has no BLAS threadpoolctl can see")
    assert seen["env"] == "2" and seen["blas"] == [2] * len(seen["blas"])
