"""Wrapper settings, default paths, and the dependency-file rewriter."""

from __future__ import annotations

import subprocess

import pytest

from autotune.buildhook import config, depfile
from autotune.measure import paths


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"AUTOTUNE_DB": "~/x/r.db"},
        {"AUTOTUNE_CACHE_DIR": "/c"},
        {"XDG_CACHE_HOME": "/xdg"},
        {"AUTOTUNE_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/xdg", "AUTOTUNE_DB": "/d.db"},
    ],
)
def test_default_paths_agree_with_the_store(monkeypatch, env):
    for k in ("AUTOTUNE_DB", "AUTOTUNE_CACHE_DIR", "XDG_CACHE_HOME"):
        monkeypatch.delenv(k, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert config.cache_dir() == str(paths.cache_dir())
    assert config.default_db_path() == str(paths.default_db_path())


def test_config_file_found_upward_and_overridden_by_env(tmp_path, monkeypatch):
    for k in ("AUTOTUNE_MODE", "AUTOTUNE_DB", "AUTOTUNE_QUIET", "AUTOTUNE_CONFIG"):
        monkeypatch.delenv(k, raising=False)
    (tmp_path / ".autotune.toml").write_text(
        'mode = "rank"\ndb = "res/a.db"\nquiet = true\ntune_args = "--top 2"\n'
    )
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    cfg = config.load_config(str(deep))
    assert (cfg.mode, cfg.quiet, cfg.tune_args) == ("rank", True, ["--top", "2"])
    assert cfg.db == str(tmp_path / "res" / "a.db")
    assert config.log_path(cfg) == str(tmp_path / "res" / "a.builds.jsonl")
    monkeypatch.setenv("AUTOTUNE_MODE", "off")
    monkeypatch.setenv("AUTOTUNE_QUIET", "0")
    cfg = config.load_config(str(deep))
    assert cfg.mode == "off" and not cfg.quiet
    (deep / "autotune.cfg").write_text("[build]\nmode = tune\n")  # nearer file wins
    monkeypatch.delenv("AUTOTUNE_MODE")
    assert config.load_config(str(deep)).mode == "tune"
    (deep / "autotune.cfg").write_text("[build\nmode = tune\n")
    with pytest.raises(config.ConfigError):
        config.load_config(str(deep))


def test_dependency_file_of_a_moved_source_is_rewritten_byte_for_byte(tmp_path):
    """What the wrapper does: compile a copy elsewhere, then name the original again."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "x.h").write_text("#define X 1\n")
    src = tmp_path / "a.c"
    src.write_text('#include <stdio.h>\n#include "inc/x.h"\nint f(void){return X;}\n')
    copy_dir = tmp_path / ("long-temporary-directory-" * 3) / "0"
    copy_dir.mkdir(parents=True)
    copy = copy_dir / "a.c"
    copy.write_text(src.read_text())

    def deps(source, *flags: str) -> str:
        dep = tmp_path / "out.d"
        subprocess.run(
            [
                "gcc",
                "-c",
                *flags,
                "-iquote",
                str(tmp_path),
                "-MF",
                str(dep),
                str(source),
                "-o",
                str(tmp_path / "a.o"),
            ],
            check=True,
        )
        return dep.read_text()

    for flags in (["-MD"], ["-MMD", "-MP"], ["-MD", "-MT", "t1", "-MT", "t2.o"]):
        original, moved = deps(src, *flags), deps(copy, *flags)
        assert moved != original
        rule, targets, prereqs = depfile._first_rule(moved)
        assert depfile.gcc_rule(targets, prereqs) == rule  # the layout check holds for gcc
        assert depfile.rewrite(moved, {str(copy): str(src)}) == original
