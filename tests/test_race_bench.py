"""bench/race_bench.py on two programs of our own in a race benchmark's layout: the
racy one's loop is kept as written, the race-free one's varies, neither is flagged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench" / "race_bench.py"

PROGRAM = """#include <stdio.h>
static double a[1000];
int main(void)
{{
    int i;
    for (i = 0; i < 1000; i++)
        a[i] = i % 7;
#pragma omp parallel for
    for (i = 1; i < 1000; i++)
        a[i] = {update};
    printf("%f\\n", a[999]);
    return 0;
}}
"""


def test_race_bench_flags_only_loops_of_racy_programs_it_lets_vary(tmp_path):
    (tmp_path / "prefix-yes.c").write_text(PROGRAM.format(update="a[i - 1] + 1.0"))
    (tmp_path / "scale-no.c").write_text(PROGRAM.format(update="2.0 * a[i]"))
    out = tmp_path / "rows.json"
    argv = [sys.executable, str(BENCH), str(tmp_path), "--json", str(out)]
    done = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=300)
    rows = {r["program"]: r for r in json.loads(out.read_text())}
    assert rows["prefix-yes.c"]["varies"] == "nothing" and rows["prefix-yes.c"]["look"] == ""
    assert "a[i - 1]" in rows["prefix-yes.c"]["why"]
    assert rows["scale-no.c"]["varies"] == "schedule,threads" and not rows["scale-no.c"]["look"]
    assert "1 loops of racy programs: 0 allowed to vary" in done.stdout
    assert "1 loops of race-free programs: 0 kept as written" in done.stdout
