"""The wrapper's settings: environment variables over a project config file.

A build cannot pass options to a compiler wrapper, so the project says what
it wants in ``.autotune.toml`` (TOML) or ``autotune.cfg`` (INI), found by
walking up from the compiler's working directory, and a person overrides it
for one build with ``AUTOTUNE_*`` variables. A config can name commands to run
(``tune_command``), so one found on the way up is read only when it is trusted
as a Makefile is: owned by this user or root and writable by no one else. Both
files use a ``[build]`` section; a ``.autotune.toml`` may also put the keys at top
level.
"""

from __future__ import annotations

import os

from autotune.cachedir import cache_dir

MODES = ("apply", "rank", "tune", "off")
CONFIG_NAMES = (".autotune.toml", "autotune.cfg")


class ConfigError(ValueError):
    """A config file or variable the wrapper cannot use (it then compiles unchanged)."""


class HookConfig:
    """The settings of one compile (a plain class: see cmdline.Command on why)."""

    def __init__(self) -> None:
        self.mode = "apply"
        self.db = ""  # explicit database path ('' = $AUTOTUNE_DB or the default)
        self.log = ""  # explicit decision log path ('' = next to the database)
        self.quiet = False
        self.tune_command: list[str] = []  # [] = python -m autotune tune
        self.tune_args: list[str] = []
        self.program_args: str | None = None  # the program's own arguments for tune/profile
        self.tune_timeout_s = 3600.0
        self.server = False  # decide new sources in a resident process (server.py)
        self.overlap = True  # compile as written while a new source is decided (runner.py)
        self.source = ""  # the config file read, if any
        self.ignored: list[str] = []  # config files passed over, each said once per build


def find_config(start: str | None = None) -> tuple[str | None, list[str]]:
    """``$AUTOTUNE_CONFIG``, else the nearest config file from ``start`` upward that this
    user may trust; and a line for each nearer one passed over (see ``untrusted``)."""
    env = os.environ.get("AUTOTUNE_CONFIG")
    if env:
        return env, []  # named by the user's own environment
    skipped: list[str] = []
    d = os.path.abspath(start or os.getcwd())
    while True:
        for name in CONFIG_NAMES:
            p = os.path.join(d, name)
            if os.path.isfile(p):
                why = untrusted(p)
                if not why:
                    return p, skipped
                skipped.append(f"ignored {p}: {why} (a config can name commands to run)")
        parent = os.path.dirname(d)
        if parent == d:
            return None, skipped
        d = parent


def untrusted(path: str) -> str:
    """Why a config file found on the way up must not steer this user's build ('' when
    it may): it can name the commands tune mode runs, so it must be owned by this user or
    by root and writable by no one else, as a Makefile one runs is."""
    try:
        st = os.stat(path)
    except OSError as exc:
        return f"cannot read it: {exc.strerror}"
    return _foreign(st)


def _foreign(st: os.stat_result) -> str:
    """Why a file of this status is not this user's to trust ('' when it is)."""
    uid = os.getuid()
    if st.st_uid not in (uid, 0):
        return f"owned by {_user_name(st.st_uid)}, not by {_user_name(uid)} or root"
    if st.st_mode & 0o022:
        return "writable by other users"
    return ""


def _user_name(uid: int) -> str:
    try:
        import pwd

        return pwd.getpwuid(uid).pw_name
    except (ImportError, KeyError):
        return f"uid {uid}"


def _read_file(path: str, trusted_only: bool = False) -> dict:
    try:
        with open(path, "rb") as fh:
            why = _foreign(os.fstat(fh.fileno())) if trusted_only else ""
            data = b"" if why else fh.read()
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    if why:  # replaced between the walk and the open
        raise ConfigError(f"{path}: {why}")
    if path.endswith(".toml"):
        import tomllib

        try:
            doc = tomllib.loads(data.decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{path}: {exc}") from None
        section = doc.get("build", doc)
        return section if isinstance(section, dict) else {}
    import configparser

    parser = configparser.ConfigParser()
    try:
        parser.read_string(data.decode("utf-8"), source=path)
    except (configparser.Error, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None
    return dict(parser["build"]) if parser.has_section("build") else {}


def _words(value: object, what: str) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    if isinstance(value, str):
        import shlex

        try:
            return shlex.split(value)
        except ValueError as exc:
            raise ConfigError(f"{what}: {exc}") from None
    raise ConfigError(f"{what}: expected a list or a string")


def _truthy(value: object) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("1", "yes", "true", "on")


def load_config(cwd: str | None = None) -> HookConfig:
    """Settings for this compile; ConfigError on a bad file or value."""
    cfg = HookConfig()
    path, cfg.ignored = find_config(cwd)
    if path:
        doc = _read_file(path, trusted_only=not os.environ.get("AUTOTUNE_CONFIG"))
        base = os.path.dirname(os.path.abspath(path))
        cfg.source = path
        if "mode" in doc:
            cfg.mode = str(doc["mode"]).strip().lower()
        if doc.get("db"):
            cfg.db = os.path.join(base, os.path.expanduser(str(doc["db"])))
        if doc.get("log"):
            cfg.log = os.path.join(base, os.path.expanduser(str(doc["log"])))
        if "quiet" in doc:
            cfg.quiet = _truthy(doc["quiet"])
        if "server" in doc:
            cfg.server = _truthy(doc["server"])
        if "overlap" in doc:
            cfg.overlap = _truthy(doc["overlap"])
        if doc.get("tune_command"):
            cfg.tune_command = _words(doc["tune_command"], f"{path}: tune_command")
        if doc.get("tune_args"):
            cfg.tune_args = _words(doc["tune_args"], f"{path}: tune_args")
        if doc.get("args") is not None:
            cfg.program_args = str(doc["args"])
        if doc.get("tune_timeout"):
            try:
                cfg.tune_timeout_s = float(doc["tune_timeout"])
            except (TypeError, ValueError):
                raise ConfigError(f"{path}: tune_timeout must be seconds") from None
    env = os.environ
    if env.get("AUTOTUNE_MODE"):
        cfg.mode = env["AUTOTUNE_MODE"].strip().lower()
    if env.get("AUTOTUNE_DB"):
        cfg.db = os.path.expanduser(env["AUTOTUNE_DB"])
    if env.get("AUTOTUNE_BUILD_LOG"):
        cfg.log = os.path.expanduser(env["AUTOTUNE_BUILD_LOG"])
    if "AUTOTUNE_QUIET" in env:
        cfg.quiet = _truthy(env["AUTOTUNE_QUIET"])
    if "AUTOTUNE_SERVER" in env:
        cfg.server = _truthy(env["AUTOTUNE_SERVER"])
    if "AUTOTUNE_OVERLAP" in env:
        cfg.overlap = _truthy(env["AUTOTUNE_OVERLAP"])
    if "AUTOTUNE_ARGS" in env:
        cfg.program_args = env["AUTOTUNE_ARGS"]
    if env.get("AUTOTUNE_TUNE_ARGS"):
        cfg.tune_args = _words(env["AUTOTUNE_TUNE_ARGS"], "AUTOTUNE_TUNE_ARGS")
    if cfg.mode not in MODES:
        where = "AUTOTUNE_MODE" if env.get("AUTOTUNE_MODE") else (path or "config")
        raise ConfigError(f"{where}: unknown mode {cfg.mode!r}; use one of {', '.join(MODES)}")
    return cfg


def default_db_path() -> str:
    """``autotune.measure.paths.default_db_path`` without importing pathlib (start-up)."""
    env = os.environ.get("AUTOTUNE_DB")
    return os.path.expanduser(env) if env else os.path.join(cache_dir(), "autotune.db")


def db_path(cfg: HookConfig) -> str:
    """Absolute: tune mode runs commands in other directories."""
    return os.path.abspath(cfg.db or default_db_path())


def log_path(cfg: HookConfig) -> str:
    """The decision log lives next to the database: ``<db stem>.builds.jsonl``."""
    if cfg.log:
        return os.path.abspath(cfg.log)
    return default_log_path(db_path(cfg))


def default_log_path(db: str) -> str:
    root, _ = os.path.splitext(db)
    return root + ".builds.jsonl"
