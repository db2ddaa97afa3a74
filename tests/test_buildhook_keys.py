"""The wrapper's copy of the tuned-table keys must agree with the tuner's."""

from __future__ import annotations

from autotune import textfile
from autotune.buildhook import keys
from autotune.frontend.records import Directive, LoopRecord
from autotune.textfile import read_source
from autotune.tuning import persist


def test_keys_agree_with_tune_persistence(tmp_path):
    # CRLF line endings and a Latin-1 byte: tune reads the file's exact bytes, as the hook does
    data = b"int x; /* r\xe9sum\xe9 */\r\n#pragma omp parallel for\r\nfor (;;) {}\n"
    path = tmp_path / "a.c"
    path.write_bytes(data)
    as_tune_reads = read_source(path)
    assert keys.content_hash(keys.text_of(data)) == persist.content_hash(as_tune_reads)
    assert textfile.encode(as_tune_reads) == data
    odd = {"Q": 'say "hi"\\n', "T": "tab\there", "U": "é\u00ff\U0001f600\x7f", "V": "a\x01b"}
    for defines in ({}, {"N": "100"}, {"N": "100", "M": "", "A": "1"}, odd):
        assert keys.defines_key(defines) == persist.defines_key(defines)
    assert keys.defines_key({"N": "1"}) != keys.defines_key({"N": "2"})
    d = Directive("omp parallel for", "parallel for", "a.c", 11)
    rec = LoopRecord(
        id="a.c:12", file="a.c", line=12, function="f", directive=d, parallel=d, column=5
    )
    assert keys.loop_key(rec.line, rec.column) == persist.loop_key(rec)


def test_the_code_signature_changes_with_any_module_and_not_with_bytecode(tmp_path):
    """The build hook's kept decisions name the code that made them: after an upgrade
    that kept the version number, a module edited (the proof, the ship rule) makes every
    source be decided again; compiled bytecode written beside it does not."""
    import os

    from autotune.buildhook import cache

    pkg = tmp_path / "pkg"
    (pkg / "analysis" / "__pycache__").mkdir(parents=True)
    (pkg / "analysis" / "gate.py").write_text("RULE = 1\n")
    (pkg / "ranking.py").write_text("MIN_GAIN = 1.28\n")
    before = cache.code_signature(str(pkg))
    assert cache.code_signature(str(pkg)) == before  # once per process
    cache._CODE_SIGNATURES.clear()
    (pkg / "analysis" / "__pycache__" / "gate.cpython-312.pyc").write_bytes(b"\0" * 64)
    assert cache.code_signature(str(pkg)) == before
    cache._CODE_SIGNATURES.clear()
    (pkg / "analysis" / "gate.py").write_text("RULE = 2\n")
    os.utime(pkg / "analysis" / "gate.py", ns=(1, 1))
    assert cache.code_signature(str(pkg)) != before
    cache._CODE_SIGNATURES.clear()
