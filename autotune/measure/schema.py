"""The measurement database's tables, and the version a file written by them carries.

Apart from ``store.py`` (how the tables are read and written) so the layout reads in
one place: machines, sources, loops and their variants, every run and its outputs, kept
profiles, adopted models, the tuned choices (with the sizes they were tuned at) and
campaign outcomes. A file of a newer version is refused, not misread.
"""

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS machines (
    fingerprint TEXT PRIMARY KEY, info TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS sources (
    hash TEXT NOT NULL, path TEXT NOT NULL, created REAL NOT NULL,
    PRIMARY KEY (hash, path));
CREATE TABLE IF NOT EXISTS loops (
    source_hash TEXT NOT NULL, loop_id TEXT NOT NULL, record TEXT NOT NULL,
    PRIMARY KEY (source_hash, loop_id));
CREATE TABLE IF NOT EXISTS variants (
    source_hash TEXT NOT NULL, loop_id TEXT NOT NULL, variant_key TEXT NOT NULL,
    schedule TEXT, chunk INTEGER, threads INTEGER,
    PRIMARY KEY (source_hash, loop_id, variant_key));
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    machine TEXT NOT NULL, source_hash TEXT NOT NULL, flags_key TEXT NOT NULL,
    flags TEXT NOT NULL, loop_id TEXT NOT NULL, variant_key TEXT NOT NULL,
    mode TEXT NOT NULL, repetition INTEGER NOT NULL, status TEXT NOT NULL,
    message TEXT NOT NULL DEFAULT '', wall_s REAL, loop_wall_s REAL, loop_cpu_s REAL,
    executions INTEGER, returncode INTEGER, stdout_sha TEXT, stderr_sha TEXT,
    created REAL NOT NULL,
    UNIQUE (machine, source_hash, flags_key, loop_id, variant_key, mode, repetition));
CREATE INDEX IF NOT EXISTS runs_loop ON runs (source_hash, loop_id);
CREATE TABLE IF NOT EXISTS outputs (sha TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS profiles (
    key TEXT PRIMARY KEY, doc TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS models (
    id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, machine TEXT NOT NULL,
    target TEXT NOT NULL, params TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS tuned (
    id INTEGER PRIMARY KEY AUTOINCREMENT, source_hash TEXT NOT NULL,
    flags_key TEXT NOT NULL, machine TEXT NOT NULL, loop_id TEXT NOT NULL,
    variant_key TEXT NOT NULL, baseline_s REAL, best_s REAL, created REAL NOT NULL,
    UNIQUE (source_hash, flags_key, machine, loop_id));
CREATE TABLE IF NOT EXISTS tuned_sizes (
    source_hash TEXT NOT NULL, flags_key TEXT NOT NULL, machine TEXT NOT NULL,
    loop_id TEXT NOT NULL, sizes TEXT NOT NULL,
    PRIMARY KEY (source_hash, flags_key, machine, loop_id));
CREATE TABLE IF NOT EXISTS outcomes (
    label TEXT NOT NULL, program TEXT NOT NULL, size TEXT NOT NULL,
    source_hash TEXT NOT NULL, flags_key TEXT NOT NULL, machine TEXT NOT NULL,
    loop_id TEXT NOT NULL, doc TEXT NOT NULL, created REAL NOT NULL,
    PRIMARY KEY (label, source_hash, flags_key, machine, loop_id));
"""
