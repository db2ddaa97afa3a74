"""Read a compiler command line the way the GCC/Clang driver does.

The wrapper only ever replaces one argument (a C source) and adds a few
search flags, so it must know exactly which argument is an input file, in
which language, what the driver will do with it (-E, -S, -c, link) and
which flags change the preprocessed program (the lookup key and the front
end's view of the file). Everything else is passed through untouched.
"""

from __future__ import annotations

import os

# Options whose value may be the next argument ("-o out" as well as "-oout").
_JOINABLE = ("-o", "-x", "-I", "-D", "-U", "-L", "-l", "-MF", "-MT", "-MQ", "-B", "-T")
# Options whose value is always the next argument when written alone.
_SEPARATE = {
    "-include",
    "-imacros",
    "-idirafter",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
    "-isystem",
    "-isysroot",
    "-iquote",
    "-imultilib",
    "-imultiarch",
    "-iframework",
    "-Xlinker",
    "-Xassembler",
    "-Xpreprocessor",
    "-Xclang",
    "-aux-info",
    "--param",
    "-A",
    "-u",
    "-e",
    "-z",
    "-wrapper",
    "-dumpbase",
    "-dumpdir",
    "-dumpbase-ext",
    "--sysroot",
    "-target",
    "-arch",
    "-framework",
    "-specs",
    "-G",
    "-MJ",
    "-Xopenmp-target",
}
# Preprocessing flags with a value that the front end must see too.
_CPP_WITH_VALUE = {
    "-include",
    "-imacros",
    "-idirafter",
    "-isystem",
    "-iquote",
    "-isysroot",
    "-iprefix",
    "-iwithprefix",
    "-iwithprefixbefore",
}
_CPP_PLAIN_PREFIXES = (
    "-std=",
    "-ansi",
    "-nostdinc",
    "-undef",
    "-m32",
    "-m64",
    "-funsigned-char",
    "-fsigned-char",
    "-fopenmp",
    "-pthread",
)
_OPENMP_ON = ("-fopenmp", "-qopenmp", "-fiopenmp", "-openmp")
_NOT_CODEGEN = (
    "-fdiagnostics",
    "-fmessage-length",
    "-fcolor",
    "-fno-color",
    "-fdebug-prefix",
    "-ffile-prefix",
    "-fmacro-prefix",
    "-fsyntax-only",
    "-fopenmp",
    "-fno-openmp",
)
_C_EXTENSIONS = (".c",)
_LAUNCHERS = {"ccache", "sccache", "distcc", "icecc"}  # run the compiler named next
_NO_COMPILE = {
    "-E": "-E (preprocess only)",
    "-S": "-S (assembly output)",
    "-fsyntax-only": "-fsyntax-only",
    "-###": "-### (dry run)",
}


class Source:
    """One input the driver compiles as C: where it sits in the expanded argv."""

    def __init__(self, index: int, path: str, forced: bool = False) -> None:
        self.index = index  # position in ``Command.args``
        self.path = path  # as written
        self.forced = forced  # C because of ``-x c``, not because of its name

    def __repr__(self) -> str:
        return f"Source({self.index}, {self.path!r}, forced={self.forced})"


class Command:
    """A parsed compiler invocation (``compiler`` + ``args`` after ``@file`` expansion).

    A plain class, not a dataclass: importing ``dataclasses`` costs a warm
    compile more than everything else the wrapper does in Python.
    """

    def __init__(
        self,
        compiler: str,
        args: list[str],
        launcher: list[str] | None = None,
        used_response_file: bool = False,
    ) -> None:
        self.compiler = compiler
        self.args = args  # expanded (response files inlined)
        self.launcher = launcher or []  # e.g. ["ccache"] before the compiler
        self.used_response_file = used_response_file
        self.sources: list[Source] = []
        self.other_inputs: list[str] = []  # non-C inputs, passed through
        self.defines: dict[str, str] = {}  # after every -D/-U, in order
        self.undefined: list[str] = []  # -U of names not defined again
        self.include_dirs: list[str] = []
        self.cpp_flags: list[str] = []  # other flags that change the preprocessed text
        self.codegen_flags: list[str] = []  # -O/-f/-m: for ``autotune tune``
        self.link_flags: list[str] = []  # -l/-L/-Wl,: for ``autotune tune``
        self.output: str | None = None
        self.compile_only = False  # -c
        self.no_compile = ""  # why the driver stops before producing code (-E, -S, ...)
        self.openmp = False
        self.dep_files: list[str] = []  # explicit -MF / -Wp,-MD,file
        self.makes_deps = False  # -MD / -MMD (dependency file as a side effect)
        self.debug = False
        self.reads_stdin = False
        self.unsupported = ""  # a flag we cannot reproduce with a moved source

    @property
    def object_output(self) -> str | None:
        """The object this command writes: ``-o`` as given, or for ``cc -c file.c``
        without ``-o`` the driver's own choice, ``file.o`` in the working directory."""
        if self.output or not self.compile_only or len(self.sources) != 1:
            return self.output
        base = os.path.basename(self.sources[0].path)
        return os.path.splitext(base)[0] + ".o"

    @property
    def cxx_driver(self) -> bool:
        """``g++ x.c`` compiles C++: never treat .c as C there."""
        return "++" in os.path.basename(self.compiler)

    def passthrough_reason(self) -> str:
        """Why nothing in this command can use a tuned variant (empty: something can)."""
        if not self.sources:
            return "no C source in the command"
        if self.cxx_driver:
            return f"{os.path.basename(self.compiler)} compiles .c files as C++"
        if self.no_compile:
            return self.no_compile
        if self.unsupported:
            return self.unsupported
        if not self.openmp:
            return "compiled without -fopenmp: OpenMP pragmas are ignored"
        return ""


def expand_response_files(args: list[str], depth: int = 0) -> tuple[list[str], bool]:
    """Inline ``@file`` arguments like libiberty's ``expandargv``; unreadable ones stay."""
    out: list[str] = []
    used = False
    for a in args:
        if a.startswith("@") and len(a) > 1 and depth < 20:
            try:
                with open(a[1:], encoding="utf-8", errors="surrogateescape") as fh:
                    text = fh.read()
            except OSError:
                out.append(a)  # the driver treats it as a file name; so do we
                continue
            inner, _ = expand_response_files(split_response_text(text), depth + 1)
            out.extend(inner)
            used = True
        else:
            out.append(a)
    return out, used


def split_response_text(text: str) -> list[str]:
    """Split like libiberty's ``buildargv``: whitespace, quotes, backslash escapes."""
    args: list[str] = []
    cur: list[str] = []
    in_arg = squote = dquote = bsquote = False
    for ch in text:
        if not in_arg and not (squote or dquote or bsquote) and ch.isspace():
            continue
        if bsquote:
            cur.append(ch)
            bsquote = False
        elif ch == "\\":
            bsquote = True
        elif squote:
            if ch == "'":
                squote = False
            else:
                cur.append(ch)
        elif dquote:
            if ch == '"':
                dquote = False
            else:
                cur.append(ch)
        elif ch.isspace():
            args.append("".join(cur))
            cur, in_arg = [], False
            continue
        elif ch == "'":
            squote = True
        elif ch == '"':
            dquote = True
        else:
            cur.append(ch)
        in_arg = True
    if in_arg:
        args.append("".join(cur))
    return args


def quote_response_arg(arg: str) -> str:
    """One argument in response-file syntax (the inverse of ``split_response_text``)."""
    if arg == "":
        return "''"
    return "".join("\\" + c if c.isspace() or c in "'\"\\" else c for c in arg)


def _language_of(path: str, forced: str) -> str:
    if forced and forced != "none":
        return forced
    return "c" if path.endswith(_C_EXTENSIONS) else "other"


def parse_command(argv: list[str]) -> Command:
    """Parse ``[compiler, *args]``; never raises on odd flags (they pass through)."""
    launcher: list[str] = []
    while len(argv) > 1 and os.path.basename(argv[0]) in _LAUNCHERS:
        launcher.append(argv[0])
        argv = argv[1:]
    compiler, raw = argv[0], list(argv[1:])
    args, used_rsp = expand_response_files(raw)
    cmd = Command(compiler=compiler, args=args, used_response_file=used_rsp, launcher=launcher)
    lang = ""
    only_deps = False
    i = 0
    n = len(args)
    while i < n:
        a = args[i]
        value: str | None = None
        opt = a
        if a in _SEPARATE or a in _JOINABLE:
            value = args[i + 1] if i + 1 < n else None
            i += 2
        else:
            joined = next((p for p in _JOINABLE if a.startswith(p) and len(a) > len(p)), None)
            if joined:
                opt, value = joined, a[len(joined) :]
            i += 1
        if not a.startswith("-") or a == "-":
            if a == "-":
                cmd.reads_stdin = True
            elif _language_of(a, lang) == "c":
                cmd.sources.append(Source(i - 1, a, forced=not a.endswith(_C_EXTENSIONS)))
            else:
                cmd.other_inputs.append(a)
            continue
        _apply_option(cmd, opt, value)
        if opt == "-x":
            lang = value or ""
        elif opt in ("-M", "-MM"):
            only_deps = True
    if only_deps and not cmd.makes_deps and not cmd.no_compile:
        cmd.no_compile = "-M/-MM (dependencies only)"
    cmd.undefined = [u for u in cmd.undefined if u not in cmd.defines]
    return cmd


def _apply_option(cmd: Command, opt: str, value: str | None) -> None:
    if opt == "-D" and value is not None:
        name, eq, val = value.partition("=")
        cmd.defines.pop(name, None)
        cmd.defines[name] = val if eq else "1"
    elif opt == "-U" and value is not None:
        cmd.defines.pop(value, None)
        cmd.undefined.append(value)
    elif opt == "-I" and value is not None:
        if value == "-":
            cmd.unsupported = "-I- changes the quote include search"
        else:
            cmd.include_dirs.append(value)
    elif opt in _CPP_WITH_VALUE and value is not None:
        cmd.cpp_flags += [opt, value]
    elif opt in ("-l", "-L") and value is not None:
        cmd.link_flags.append(opt + (os.path.abspath(value) if opt == "-L" else value))
    elif opt.startswith("-Wl,") or opt == "-pthread":
        cmd.link_flags.append(opt)
    elif opt == "-o":
        cmd.output = value
    elif opt == "-c":
        cmd.compile_only = True
    elif opt in _NO_COMPILE:
        cmd.no_compile = cmd.no_compile or _NO_COMPILE[opt]
    elif opt in ("-MD", "-MMD"):
        cmd.makes_deps = True
    elif opt == "-MF" and value is not None:
        cmd.dep_files.append(value)
    elif opt.startswith("-Wp,"):
        parts = opt.split(",")
        if len(parts) >= 3 and parts[1] in ("-MD", "-MMD", "-MF"):
            cmd.makes_deps = True
            cmd.dep_files.append(",".join(parts[2:]))
    elif opt.startswith(_OPENMP_ON):
        cmd.openmp = True
        cmd.cpp_flags.append(opt)
    elif opt in ("-fno-openmp", "-qno-openmp"):
        cmd.openmp = False
    elif opt == "-Xpreprocessor" and value in _OPENMP_ON:
        cmd.openmp = True
    elif opt.startswith("-g"):
        cmd.debug = opt not in ("-g0", "-ggdb0")
    elif opt.startswith(("--coverage", "-ftest-coverage")):
        cmd.unsupported = f"{opt}: coverage notes would name the temporary file"
    elif opt.startswith(_CPP_PLAIN_PREFIXES):
        cmd.cpp_flags.append(opt)
    if opt.startswith(("-O", "-f", "-m")) and not opt.startswith(_NOT_CODEGEN):
        cmd.codegen_flags.append(opt)
