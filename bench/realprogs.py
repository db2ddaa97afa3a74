"""The third-party programs of ../shared/real-programs as the benches use them: which
file holds the loops, the other files and include folders of the build, the commands
that prepare a copy (NPB's npbparams.h, srad's input image), how each is run, and how
its result is verified (output lines that change between runs, result files, an exit
status other than 0 by design). Paths are relative to a copy of that folder."""

from __future__ import annotations

from dataclasses import dataclass, field

COMMON = ["c_print_results.c", "c_randdp.c", "c_timers.c", "wtime.c"]


@dataclass
class Program:
    """How to analyse, build and run one program (paths relative to its copy)."""

    name: str
    source: str
    extra: list[str] = field(default_factory=list)
    include: list[str] = field(default_factory=list)
    prepare: list[list[str]] = field(default_factory=list)  # commands run once, in the copy
    args: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)  # output lines with these words
    cflags: list[str] = field(default_factory=list)
    also: list[str] = field(default_factory=list)  # other files of ``extra`` with loops
    check_files: list[str] = field(default_factory=list)  # results written to files
    checked_by: str = "stdout"  # how the result is verified, for the table
    expect_status: int = 0  # the exit status of a good run (XSBench: 1 by design)
    check: str = "stdout"  # what autotune compares (--check)


def npb(bench: str, klass: str = "S") -> Program:
    low = bench.lower()
    return Program(
        f"NPB {bench}",
        f"npb/{bench}/{low}.c",
        [f"npb/common/{c}" for c in COMMON],
        ["npb/common"],
        [["make", "-C", "npb", bench, f"CLASS={klass}"]],
        ignore=["Time", "Mop", "Compile", "date", "Version", "flags", "CC", "CLINK", "Random"],
    )


REAL = [
    Program(
        "STREAM",
        "stream/stream.c",
        cflags=["-DSTREAM_ARRAY_SIZE=400000", "-DNTIMES=4"],
        ignore=[
            "Copy:",
            "Scale:",
            "Add:",
            "Triad:",
            "clock",
            "resolution",
            "Each test",
            "time",
            "microseconds",
        ],
    ),
    Program(
        "XSBench",
        "xsbench/openmp-threading/Simulation.c",
        [
            f"xsbench/openmp-threading/{f}"
            for f in ("GridInit.c", "Materials.c", "Main.c", "XSutils.c", "io.c")
        ],
        also=["xsbench/openmp-threading/GridInit.c"],
        args=["-t", "2", "-s", "small", "-l", "20000", "-m", "event"],
        ignore=["Runtime", "Lookups/s", "Initialization", "Threads", "seconds", "Memory"],
        expect_status=1,  # "invalid checksum" for any lookup count but the default
    ),
    npb("CG"),
    npb("BT"),
    npb("SP"),
    npb("FT"),
    npb("EP"),
    Program(
        "Rodinia backprop",
        "rodinia/openmp/backprop/backprop.c",
        [
            f"rodinia/openmp/backprop/{f}"
            for f in ("facetrain.c", "imagenet.c", "backprop_kernel.c")
        ],
        args=["4096"],
        checked_by="nothing: the program prints no result",
    ),
    Program(
        "Rodinia srad_v1",
        "rodinia/openmp/srad/srad_v1/main.c",
        prepare=[["python3", "../../../data/srad/make_image.py"]],
        args=["2", "0.5", "502", "458", "2"],
        check="files",  # its stdout is timings only: the result is the image
        check_files=["image_out.pgm"],
        checked_by="image_out.pgm",
    ),
]
