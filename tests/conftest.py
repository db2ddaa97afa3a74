"""Fixtures shared by the test modules, and the walls between the suite and the user.

The suite never reads or writes the user's own files: before any test module is imported,
``HOME``, ``XDG_CACHE_HOME``, ``AUTOTUNE_CACHE_DIR`` and ``AUTOTUNE_DB`` point into one
temporary folder for the run (subprocesses inherit them), every test gets a database of
its own, and at the end the run fails if the user's real cache folder changed.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile

import pytest

_ISOLATED = ("HOME", "XDG_CACHE_HOME", "AUTOTUNE_CACHE_DIR", "AUTOTUNE_DB", "AUTOTUNE_CONFIG")
_STATE: dict = {}


def _real_cache_dir() -> str:
    """The cache folder autotune would use for this user, as the environment says now
    (``autotune.cachedir``'s rule, written out: this runs before anything is imported, and
    must not fail where the package is not installed)."""
    env = os.environ.get("AUTOTUNE_CACHE_DIR")
    if env:
        return os.path.expanduser(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = os.path.expanduser(xdg) if xdg else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "autotune")


def _snapshot(folder: str) -> dict[str, tuple[int, int]]:
    """Every path under ``folder`` with its size and modification time (nanoseconds)."""
    seen: dict[str, tuple[int, int]] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            seen[path] = (st.st_size, st.st_mtime_ns)
    return seen


# the import names of the dependencies pyproject.toml lists (without them no test module
# can be imported: say so once, rather than an ImportError per module)
_NEEDED = {
    "pycparser": "pycparser",
    "numpy": "numpy",
    "scipy": "scipy",
    "sklearn": "scikit-learn",
    "jinja2": "jinja2",
    "skmisc": "scikit-misc",
    "matplotlib": "matplotlib",
    "distributed": "dask[distributed]",
    "islpy": "islpy-barvinok",
}


def _missing() -> list[str]:
    import importlib.util

    return [dist for mod, dist in _NEEDED.items() if importlib.util.find_spec(mod) is None]


def pytest_configure(config) -> None:
    """Point every place autotune keeps things at a temporary folder for this run."""
    missing = _missing()
    if missing:
        pytest.exit(
            f"the suite needs autotune's dependencies, and this Python ({sys.executable}) "
            f"lacks {', '.join(missing)}: install them as the README says "
            "(python -m pip install -e '.[test]' in a virtualenv), then run the tests there",
            returncode=4,
        )
    real = _real_cache_dir()
    _STATE["real_cache"] = real
    _STATE["before"] = _snapshot(real)
    base = tempfile.mkdtemp(prefix="autotune-tests-")
    _STATE["base"] = base
    _STATE["saved"] = {k: os.environ.get(k) for k in _ISOLATED}
    home = os.path.join(base, "home")
    os.makedirs(home)
    os.environ["HOME"] = home
    os.environ["XDG_CACHE_HOME"] = os.path.join(home, ".cache")
    # one cache for the run: it holds only what can be made again (header parses, builds),
    # and a cold one per test would cost minutes; the env fixture gives a test its own
    os.environ["AUTOTUNE_CACHE_DIR"] = os.path.join(base, "cache")
    os.environ["AUTOTUNE_DB"] = os.path.join(base, "autotune.db")
    os.environ.pop("AUTOTUNE_CONFIG", None)
    # a fault inside the analysis or the proof fails the test that meets it (a user's run
    # keeps that loop as written and says why)
    os.environ["AUTOTUNE_RAISE_ANALYSIS_FAULTS"] = "1"


def pytest_sessionfinish(session, exitstatus) -> None:
    """Fail the run if anything was written to the user's real cache folder."""
    if "real_cache" not in _STATE:
        return
    for key, value in _STATE["saved"].items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
    shutil.rmtree(_STATE["base"], ignore_errors=True)
    after = _snapshot(_STATE["real_cache"])
    changed = sorted(
        p for p in after.keys() | _STATE["before"].keys() if after.get(p) != _STATE["before"].get(p)
    )
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        what = ", ".join(changed[:5]) + (f" (+{len(changed) - 5} more)" if len(changed) > 5 else "")
        line = f"the suite changed the user's own cache folder {_STATE['real_cache']}: {what}"
        if reporter is not None:
            reporter.write_line(f"ERROR: {line}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True)
def _own_database(tmp_path, monkeypatch):
    """Each test's results go to a database of its own, unless it names one."""
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "autotune.db"))


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A fresh cache directory and results database for one test, as a new user has."""
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "results.db"))
    return tmp_path
