"""Reading compiler command lines the way the GCC driver does."""

from __future__ import annotations

import pytest

from autotune.buildhook.cmdline import (
    expand_response_files,
    parse_command,
    quote_response_arg,
    split_response_text,
)


def parse(line: str):
    return parse_command(line.split())


def test_sources_outputs_and_flags():
    cmd = parse(
        "gcc -Iinc -I other -DN=10 -D M -DX=1 -UX -O3 -fopenmp -MMD -MP -MF d/a.d "
        "-c src/a.c -o build/a.o"
    )
    assert [(s.path, s.index) for s in cmd.sources] == [("src/a.c", 15)]
    assert cmd.args[cmd.sources[0].index] == "src/a.c"
    assert cmd.defines == {"N": "10", "M": "1"} and cmd.undefined == ["X"]
    assert cmd.include_dirs == ["inc", "other"]
    assert cmd.output == "build/a.o" and cmd.compile_only and cmd.openmp
    assert cmd.makes_deps and cmd.dep_files == ["d/a.d"]
    assert "-O3" in cmd.codegen_flags and cmd.passthrough_reason() == ""


def test_option_values_are_not_inputs():
    cmd = parse("gcc -fopenmp -o out.c -MT x.c -include pre.c -c a.c")
    assert [s.path for s in cmd.sources] == ["a.c"] and cmd.output == "out.c"
    assert cmd.cpp_flags[:2] == ["-fopenmp", "-include"]


@pytest.mark.parametrize(
    "line, reason",
    [
        ("gcc -fopenmp -E a.c", "-E"),
        ("gcc -fopenmp -S a.c", "-S"),
        ("gcc -fopenmp -M a.c", "-M/-MM"),
        ("gcc -fopenmp -fsyntax-only a.c", "-fsyntax-only"),
        ("gcc -c a.c", "without -fopenmp"),
        ("gcc -fopenmp -fno-openmp -c a.c", "without -fopenmp"),
        ("g++ -fopenmp -c a.c", "as C++"),
        ("gcc -fopenmp -c a.cpp b.s c.o", "no C source"),
        ("gcc -fopenmp -x c++ -c a.c", "no C source"),
        ("gcc -fopenmp -I- -c a.c", "-I-"),
        ("gcc -fopenmp --coverage -c a.c", "coverage"),
    ],
)
def test_commands_passed_through(line, reason):
    assert reason in parse(line).passthrough_reason()


def test_language_switches():
    cmd = parse("gcc -fopenmp -x c a.inc -x none b.inc c.c -xc d.txt")
    assert [(s.path, s.forced) for s in cmd.sources] == [
        ("a.inc", True),
        ("c.c", False),
        ("d.txt", True),
    ]
    assert cmd.other_inputs == ["b.inc"]
    assert parse("gcc -fopenmp -MD -M -c a.c").passthrough_reason() == ""  # -MD: still compiles


def test_launchers_and_stdin():
    cmd = parse_command(["ccache", "gcc", "-fopenmp", "-c", "a.c"])
    assert cmd.launcher == ["ccache"] and cmd.compiler == "gcc" and cmd.sources
    stdin = parse("gcc -fopenmp -x c -c - b.c")  # '-' is passed through, b.c may be tuned
    assert stdin.reads_stdin and [s.path for s in stdin.sources] == ["b.c"]


def test_response_files(tmp_path):
    inner = tmp_path / "inner.rsp"
    inner.write_text("-DNAME='two words' \"-I/a b\" back\\ slash")
    outer = tmp_path / "outer.rsp"
    outer.write_text(f"-fopenmp\n-c\n@{inner} src.c\n")
    args, used = expand_response_files([f"@{outer}", "@missing.rsp"])
    assert used and args == [
        "-fopenmp",
        "-c",
        "-DNAME=two words",
        "-I/a b",
        "back slash",
        "src.c",
        "@missing.rsp",
    ]
    cmd = parse_command(["gcc", f"@{outer}"])
    assert cmd.used_response_file and cmd.defines == {"NAME": "two words"}
    assert [s.path for s in cmd.sources] == ["src.c"]


@pytest.mark.parametrize(
    "arg", ["plain", "with space", "it's", 'say "hi"', "back\\slash", "", "tab\there"]
)
def test_response_quoting_round_trips(arg):
    assert split_response_text(quote_response_arg(arg) + " next") == [arg, "next"]
