"""Where the jinja2 templates live, for a wheel, an editable install and a bare checkout.

``pyproject.toml`` ships the top-level ``templates/`` directory as the
package ``autotune.templates``; a checkout used without installing has no
such package, so fall back to the directory next to the ``autotune`` package.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

import autotune

if TYPE_CHECKING:
    import jinja2


def template_dir() -> Path:
    """The directory holding the ``*.j2`` files."""
    from importlib import resources

    try:
        found = resources.files("autotune.templates")
        path = Path(str(found))
        if path.is_dir() and any(path.glob("*.j2")):
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    path = Path(autotune.__file__).resolve().parent.parent / "templates"
    if path.is_dir():
        return path
    raise RuntimeError("autotune templates not found: the installation is incomplete")


@functools.cache
def environment() -> jinja2.Environment:
    """One shared environment: C text, so no autoescaping; strict about missing names.
    jinja2 is imported here, not with the module: ``rank`` and the build hook's
    decisions reach this module but render nothing."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(template_dir())),
        autoescape=False,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def render(name: str, **context: object) -> str:
    return environment().get_template(name).render(**context)
