"""Builds with the real compiler: cache by content, compile errors, missing compiler."""

from __future__ import annotations

import json
import subprocess
import time

import pytest

from autotune.cli.main import main
from autotune.errors import UserError
from autotune.measure.build import BuildOptions, build, first_error_line

HELLO = '#include <stdio.h>\n#include "val.h"\nint main(void){printf("%d\\n", VAL);return 0;}\n'


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))


def _out(exe) -> str:
    return subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout


def test_build_is_cached_by_content_including_local_headers(tmp_path):
    src = tmp_path / "hello.c"
    src.write_text(HELLO)
    (tmp_path / "val.h").write_text("#define VAL 41\n")
    first = build(src.read_text(), source_path=src, name_hint="hello")
    assert first.ok and not first.cached and _out(first.exe_path) == "41\n"
    again = build(src.read_text(), source_path=src, name_hint="hello")
    assert again.cached and again.exe_path == first.exe_path
    (tmp_path / "val.h").write_text("#define VAL 42\n")  # header changed: new binary
    changed = build(src.read_text(), source_path=src, name_hint="hello")
    assert not changed.cached and _out(changed.exe_path) == "42\n"
    flags = build(src.read_text(), source_path=src, name_hint="hello", cflags=["-O1"])
    assert not flags.cached  # other argv, other key


def test_defines_extra_sources_and_libm(tmp_path):
    (tmp_path / "extra.c").write_text("#include <math.h>\ndouble root(double x){return sqrt(x);}\n")
    main = tmp_path / "main.c"
    main.write_text(
        "#include <stdio.h>\ndouble root(double);\n"
        'int main(int c, char **v){printf("%g %d\\n", root(16.0 + c - 1), K);'
        "return 0;}\n"
    )
    opts = BuildOptions(
        defines={"K": "7"}, extra_sources=[str(tmp_path / "extra.c")], cache_dir=tmp_path / "c2"
    )
    res = opts.build(main.read_text(), source_path=main, name_hint="main")
    assert res.ok, res.message
    assert _out(res.exe_path) == "4 7\n"
    assert "-fopenmp" in res.command and res.command.endswith("-lm")
    assert (tmp_path / "c2" / "builds").is_dir()


def test_compile_error_message_starts_with_first_error_line(tmp_path):
    src = tmp_path / "bad.c"
    src.write_text("int main(void)\n{\n    int x = ;\n    return y;\n}\n")
    res = build(src.read_text(), source_path=src)
    assert not res.ok and res.exe_path is None
    first = res.message.splitlines()[0]
    assert first.startswith(f"{src}:3:") and "error" in first
    assert build(src.read_text(), source_path=src).cached  # failures are cached too


def test_missing_compiler_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="compiler not found: 'no-such-cc-xyz'"):
        build("int main(void){return 0;}", cc="no-such-cc-xyz")


def test_first_error_line_prefers_errors_and_linker_messages():
    text = (
        "a.c: In function 'f':\na.c:2:3: warning: unused\n/usr/bin/ld: a.o: in function "
        "`main':\na.c:(.text+0x5): undefined reference to `g'\ncollect2: error: ld "
        "returned 1 exit status\n"
    )
    assert first_error_line(text) == "a.c:(.text+0x5): undefined reference to `g'"
    assert first_error_line("x.c:1: warning: w\nx.c:2:1: error: e\n") == "x.c:2:1: error: e"
    assert first_error_line("collect2: error: ld returned 1\n").startswith("collect2")


STAMPED = r"""#include <stdio.h>
#define N 100000
static double a[N];
int main(void)
{
    printf("Code compiled on %s at %s\n", __DATE__, __TIME__);
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        a[i] = 0.5 * i;
    printf("%.1f\n", a[N - 1]);
    return 0;
}
"""


def test_every_build_sees_one_compile_date(tmp_path, monkeypatch, capsys):
    """A program that prints when it was compiled (BOUT++'s 'Code compiled on ... at
    ...'): its original, built and cached first, and a variant built a second later
    print the same line, so the variant verifies; a SOURCE_DATE_EPOCH the user set is
    the one every build gets."""
    src = tmp_path / "stamped.c"
    src.write_text(STAMPED)
    argv = ["measure", str(src), "--json", "--compile-mode", "per-variant"]
    argv += ["--repetitions", "1", "--db", str(tmp_path / "s.db")]
    assert main([*argv, "--variants", "static,-,t2"]) == 0
    capsys.readouterr()
    time.sleep(1.2)  # the next variant's binary is compiled in a later second
    assert main([*argv, "--variants", "dynamic,3,t2"]) == 0
    (loop,) = json.loads(capsys.readouterr().out)["loops"]
    assert [v["status"] for v in loop["variants"]] == ["ok"], loop["variants"]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    mine = build(STAMPED, name_hint="stamped")
    assert "Nov 14 2023" in _out(mine.exe_path)


def test_a_file_without_main_says_to_give_the_others(tmp_path):
    """A loop's file alone (Rodinia lud's lud_omp.c, main in lud.c) does not link: the
    first line says which option brings the rest of the program."""
    lonely = build("void scale(double *a, int n){for(int i=0;i<n;i++) a[i]*=2;}\n")
    assert not lonely.ok and "--extra-source" in lonely.first_line
    assert "no main" in lonely.first_line
    missing = build("void helper(void);\nint main(void){helper();return 0;}\n")
    assert "defines helper with --extra-source" in missing.first_line


def test_measure_on_a_file_without_main_says_what_to_give(tmp_path, capsys):
    src = tmp_path / "lud_omp.c"
    src.write_text(
        "void scale(double *a)\n{\n#pragma omp parallel for\n"
        "    for (int i = 0; i < 1000; i++)\n        a[i] *= 2.0;\n}\n"
    )
    argv = ["measure", str(src), "--variants", "static,-,t2", "--db", str(tmp_path / "m.db")]
    assert main(argv) == 2
    (err,) = capsys.readouterr().err.strip().splitlines()
    assert "does not compile" in err and "give the program's other files with --extra-source" in err
