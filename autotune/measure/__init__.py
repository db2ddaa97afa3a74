"""Measurement: build variants with the real compiler, run them, verify, store every run.

build (cached compiles) -> run (process group, timeout, timing side channel)
-> verify (tolerant output comparison) -> store (SQLite) ; sweep ties them
together for one loop's variants, round-robin and resumable.
"""
