"""Fixtures shared by the test modules."""

from __future__ import annotations

import pytest


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A fresh cache directory and results database for one test, as a new user has."""
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "results.db"))
    return tmp_path
