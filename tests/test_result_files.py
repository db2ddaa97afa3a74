"""Programs whose result is not on stdout: a file they write (Rodinia srad's image), a
result seeded from the clock (lavaMD), or nothing printed at all (backprop). Driven
through ``autotune tune`` as a user runs it, with real gcc and real runs."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tune_support import SMALL_BUDGET

from autotune.cli.main import main
from autotune.measure import verify
from autotune.measure.run import run_program

# srad-style: a diffusion sweep over an image sized on the command line; the result is
# written as an ASCII PGM, stdout has only the program's own timing.
SRAD = r"""#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static void write_pgm(const char *name, const float *img, int rows, int cols)
{
    FILE *f = fopen(name, "w");
    if (!f) { perror(name); exit(1); }
    fprintf(f, "P2\n%d %d\n255\n", cols, rows);
    for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++)
            fprintf(f, "%d ", (int)(img[i * cols + j] * 255.0f));
        fprintf(f, "\n");
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    int rows = argc > 1 ? atoi(argv[1]) : 64, cols = argc > 2 ? atoi(argv[2]) : 64;
    int niter = argc > 3 ? atoi(argv[3]) : 4;
    float *J = malloc(sizeof(float) * rows * cols), *c = malloc(sizeof(float) * rows * cols);
    float *Jn = malloc(sizeof(float) * rows * cols);
    for (int k = 0; k < rows * cols; k++)
        Jn[k] = J[k] = (float)((k * 37) % 101) / 101.0f;
    double t0 = omp_get_wtime();
    for (int it = 0; it < niter; it++) {
#pragma omp parallel for
        for (int i = 1; i < rows - 1; i++)
            for (int j = 1; j < cols - 1; j++) {
                int k = i * cols + j;
                float g = J[k - cols] + J[k + cols] + J[k - 1] + J[k + 1] - 4.0f * J[k];
                c[k] = 1.0f / (1.0f + g * g);
            }
#pragma omp parallel for
        for (int i = 1; i < rows - 1; i++)
            for (int j = 1; j < cols - 1; j++) {
                int k = i * cols + j;
                Jn[k] = J[k] + 0.05f * c[k] * (J[k - cols] + J[k + cols] - 2.0f * J[k]);
            }
        float *t = J;
        J = Jn;
        Jn = t;
    }
    printf("Time spent in the main loop: %.6f s\n", omp_get_wtime() - t0);
    write_pgm("image_out.pgm", J, rows, cols);
    free(J);
    free(Jn);
    free(c);
    return 0;
}
"""

# lavaMD-style: the input is seeded from the clock, so two runs of the original differ
CLOCK = r"""#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N 20000
static double v[N];
int main(void)
{
    srand((unsigned)time(NULL) ^ (unsigned)clock());
    for (int i = 0; i < N; i++)
        v[i] = rand() / (double)RAND_MAX;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        v[i] = v[i] * v[i] + 1.0;
    FILE *f = fopen("result.txt", "w");
    for (int i = 0; i < N; i += 1000)
        fprintf(f, "%d %.17g\n", i, v[i]);
    fclose(f);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    printf("done at %ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
    return 0;
}
"""


def _tune(tmp_path: Path, src: Path, capsys, *extra: str) -> tuple[dict, str]:
    argv = ["tune", str(src), *SMALL_BUDGET, "--json", "-q", "--allow-busy", *extra]
    assert main(argv) == 0
    captured = capsys.readouterr()
    (f,) = json.loads(captured.out)["files"]
    return f, captured.err


def test_a_result_file_is_verified_and_an_empty_check_is_said(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "r.db"))
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "srad.c"
    src.write_text(SRAD)
    common = ["--args", "96 80 3", "--check-ignore", "^Time spent"]
    # stdout holds only the timing: without --check-file nothing is compared, and it is said
    f, _ = _tune(tmp_path, src, capsys, *common)
    warnings = [w for lp in f["loops"] for w in lp["warnings"]]
    assert any("verification is empty" in w for w in warnings), warnings
    # with the image named, every variant's image is compared with the original's
    f, _ = _tune(tmp_path, src, capsys, *common, "--check-file", "image_out.pgm", "--fresh")
    for lp in f["loops"]:
        assert not any("verification is empty" in w for w in lp["warnings"])
        assert any(v["status"] == "ok" for v in lp["variants"] if v["key"] != "baseline")
    assert (tmp_path / "image_out.pgm").read_text().startswith("P2\n80 96\n")
    # --strict-verify refuses to tune what it cannot verify
    argv = ["tune", str(src), *SMALL_BUDGET, "-q", *common, "--fresh"]
    assert main([*argv, "--strict-verify"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "verification is empty" in err[0]


def test_result_files_are_compared_and_a_missing_one_fails(tmp_path):
    """The comparison itself: a file written with other numbers differs; a run that does
    not write the file (it was there before) fails against one that did."""
    src = tmp_path / "w.c"
    src.write_text(
        "#include <stdio.h>\n#include <stdlib.h>\nint main(int c, char **v) {\n"
        '  if (atoi(v[1]) < 0) return 0;\n  FILE *f = fopen("out.txt", "w");\n'
        '  fprintf(f, "value %s\\n", v[1]);\n  fclose(f);\n  return 0;\n}\n'
    )
    exe = tmp_path / "w"
    subprocess.run(["gcc", str(src), "-o", str(exe)], check=True)

    def text(arg: str) -> str:
        res = run_program(exe, args=[arg], cwd=tmp_path, check_files=["out.txt"])
        assert res.status == "ok"
        return verify.select_output(res.stdout, res.stderr, "stdout")

    one, again, two, none = text("1.5"), text("1.5"), text("2.5"), text("-1")
    assert verify.compare_outputs(one, again)[0]
    assert not verify.compare_outputs(one, two)[0]
    assert "not written by this run" in none and not verify.compare_outputs(one, none)[0]
    assert verify.select_output("", "", "stderr") == ""
    assert "value 1.5" in verify.select_output(
        run_program(exe, args=["1.5"], cwd=tmp_path, check_files=["out.txt"]).stdout, "", "stderr"
    )


def test_a_clock_seeded_program_is_caught_and_said(tmp_path, monkeypatch, capsys):
    """Its result file differs between two runs of the original: no variant can be
    verified, and the tune says why instead of passing it."""
    monkeypatch.setenv("AUTOTUNE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("AUTOTUNE_DB", str(tmp_path / "r.db"))
    monkeypatch.chdir(tmp_path)
    src = tmp_path / "clock.c"
    src.write_text(CLOCK)
    f, _ = _tune(tmp_path, src, capsys, "--check-file", "result.txt", "--check-ignore", "^done at")
    (lp,) = f["loops"]
    assert any("output differs between runs" in w for w in lp["warnings"]), lp["warnings"]
    assert lp["best"] is None and f["written"] is None
    # --strict-verify: the same finding stops the tune in one line instead
    argv = ["tune", str(src), *SMALL_BUDGET, "-q", "--strict-verify"]
    argv += ["--check-file", "result.txt", "--check-ignore", "^done at", "--fresh"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "differs between runs" in err[0] and "--strict-verify" in err[0]
