"""Clause constants read as C reads them: gcc prints each expression, and the reader of
``num_threads`` and chunk texts must agree (octal, hexadecimal, suffixes, truncating
division), or say it is no constant."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from autotune.cli.main import main
from autotune.frontend.constants import int_constant

CONSTANT = ["4", "(2*8)", "0x10", "010", "16u", "16UL", "-3", "7/2", "-7/2", "4 * (3 + 1)", "0"]
NOT_CONSTANT = ["n", "omp_get_max_threads()", "1.5", "2 ** 3", "N", ""]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_constants_are_read_as_gcc_reads_them(tmp_path):
    body = "".join(f'    printf("%lld\\n", (long long)({t}));\n' for t in CONSTANT)
    src = tmp_path / "k.c"
    src.write_text(f"#include <stdio.h>\nint main(void)\n{{\n{body}    return 0;\n}}\n")
    subprocess.run(["gcc", str(src), "-o", str(tmp_path / "k")], check=True)
    out = subprocess.run([str(tmp_path / "k")], capture_output=True, text=True, check=True)
    assert [int_constant(t) for t in CONSTANT] == [int(v) for v in out.stdout.split()]
    assert [int_constant(t) for t in NOT_CONSTANT] == [None] * len(NOT_CONSTANT)


def test_a_variant_spelling_the_written_octal_count_is_the_original(tmp_path, capsys):
    """num_threads(010) is 8 threads and chunk 0x40 is 64: the variant static,64 on 8
    threads is the loop as written, so rank drops it as the original (it was ranked as a
    variant of its own while the octal count read as no number)."""
    src = tmp_path / "octal.c"
    src.write_text(
        "#include <stdio.h>\n#define N 4096\nstatic double a[N];\nint main(void)\n{\n"
        "#pragma omp parallel for num_threads(010) schedule(static, 0x40)\n"
        "    for (int i = 0; i < N; i++)\n        a[i] = i * 0.5;\n"
        '    printf("%f\\n", a[7]);\n    return 0;\n}\n'
    )
    args = ["rank", str(src), "--schedules", "static", "--chunks", "64,8", "--threads", "8,2"]
    assert main([*args, "--json"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["files"][0]["loops"]
    assert {e["key"]: e["equivalent_to"] for e in loop["equivalent"]} == {
        "static,64,t8": "baseline"
    }
    ranked = {v["key"] for v in loop["variants"]}
    assert "static,64,t8" not in ranked and {"static,8,t8", "static,64,t2"} <= ranked
