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
