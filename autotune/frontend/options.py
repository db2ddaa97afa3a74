"""How a C file is preprocessed: what a compiler line would say about it."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SourceOptions:
    """How to preprocess a C file: what a compiler line would say."""

    defines: dict[str, str] = field(default_factory=dict)
    include_dirs: list[str] = field(default_factory=list)
    cflags: list[str] = field(default_factory=list)  # extra flags, already split
    # the program's other C files: the legality proof follows calls into them
    extra_sources: list[str] = field(default_factory=list)

    def cpp_args(self) -> list[str]:
        """Arguments for the preprocessor (and the compiler) in argv form."""
        args = [f"-D{k}={v}" for k, v in self.defines.items()]  # "-DX=" stays empty
        args += [f"-I{d}" for d in self.include_dirs]
        return args + list(self.cflags)

    def key(self) -> str:
        """Stable text of everything that changes the preprocessed program."""
        extra = [f"--extra-source={p}" for p in self.extra_sources]
        return " ".join(sorted(self.cpp_args()) + extra)
