"""The wheel must contain every subpackage, the jinja2 templates and the data files."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_subpackage_is_listed_in_pyproject():
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "autotune").rglob("__init__.py")
    }
    assert set(conf["packages"]) == on_disk | {"autotune.templates"}


def test_templates_and_data_resolve_as_package_resources():
    names = {p.name for p in resources.files("autotune.templates").iterdir()}
    assert {"directive.j2", "prelude.c.j2"} <= names
    data = resources.files("autotune") / "data" / "default_coefficients.json"
    assert data.is_file()
