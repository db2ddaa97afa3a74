"""``autotune report`` and ``export`` on the database of a real tune (CLI, gcc, runs)."""

from __future__ import annotations

import base64
import csv
import io
import json
import re
import shutil
import sqlite3
import statistics
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from autotune.cli.main import main

# A Rodinia-style kernel: per-row work that grows with the row (an imbalanced
# static schedule) and a checksum the variants must reproduce.
PROGRAM = r"""#include <stdio.h>
#ifndef ROWS
#define ROWS 600
#endif
static double m[ROWS][ROWS];
int main(void) {
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < ROWS; j++) m[i][j] = (i * 7 + j) % 13;
#pragma omp parallel for
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j <= i; j++) m[i][j] = m[i][j] * 0.5 + 1.0;
  double s = 0.0;
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < ROWS; j++) s += m[i][j];
  printf("checksum %.6f\n", s);
  return 0;
}
"""


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self.images: list[dict] = []
        self._cell = False

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            self._cell = True
            self.cells.append("")
        if tag == "img":
            self.images.append(dict(attrs))

    def handle_endtag(self, tag):
        if tag == "td":
            self._cell = False

    def handle_data(self, data):
        if self._cell:
            self.cells[-1] += data.strip()


@pytest.fixture(scope="module")
def tuned(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("report")
    src = tmp / "rowsum.c"
    src.write_text(PROGRAM)
    db = tmp / "results.db"
    args = ["tune", str(src), "--db", str(db), "--top", "3", "--search", "top", "--allow-busy"]
    args += ["--repetitions", "2", "--confirm-runs", "2", "-q"]
    args += ["--schedules", "static,dynamic", "--chunks", "none,8", "--threads", "1,2"]
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("AUTOTUNE_CACHE_DIR", str(tmp / "cache"))
        assert main(args) == 0
    return db


def test_report_shows_every_loop_with_the_numbers_the_database_holds(tuned, tmp_path, capsys):
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(tuned), "-o", str(out)]) == 0
    assert str(out) in capsys.readouterr().out
    page = _Page()
    page.feed(out.read_text())
    assert "rowsum.c:10" in page.cells
    with sqlite3.connect(tuned) as c:
        base = [
            r[0] for r in c.execute("SELECT loop_wall_s FROM runs WHERE variant_key = 'baseline'")
        ]
        (doc,) = [json.loads(r[0]) for r in c.execute("SELECT doc FROM outcomes")]
    # the original's time in the summary table is the median of its stored runs
    assert f"{statistics.median(base) * 1e3:.3g}" in page.cells
    chosen = (doc["best"] or {}).get("key") or "original kept"
    assert chosen in page.cells and f"{doc['speedup']:.2f}x" in page.cells
    # every measured variant is listed with its measured time
    for v in doc["variants"]:
        if v["status"] == "ok":
            assert v["key"] in page.cells and f"{v['measured_s'] * 1e3:.3g}" in page.cells
        iv = v.get("speedup_interval")
        if v["key"] != "baseline" and v["status"] == "ok" and iv:  # its loop speedup's interval
            assert f"{iv['ratio']:.2f}x [{iv['low']:.2f}x, {iv['high']:.2f}x]" in page.cells
    assert any(v.get("speedup_interval") for v in doc["variants"])
    # the whole-program check, with its interval whenever a choice reached it
    text = out.read_text()
    if doc["whole_program"] is not None:
        assert "Whole program" in text and doc["whole_program"]["decision"].split(":")[0] in text
        if doc["whole_program"]["speedup_interval"] or "as fast as the original" in doc["decision"]:
            assert "interval" in text
    # the model that ranked the loop, described from the one registry of models
    from autotune.tuning.registry import card_for_outcome

    card = card_for_outcome(doc["model"])
    assert card is not None and card.title in page.cells and card.source in page.cells
    # the figures are embedded PNGs with labels saying what they show
    pngs = [i for i in page.images if i["src"].startswith("data:image/png;base64,")]
    assert len(pngs) == 2 and all("alt" in i for i in pngs)
    assert all(base64.b64decode(i["src"].split(",", 1)[1])[:4] == b"\x89PNG" for i in pngs)


def test_report_renders_non_blank_in_headless_chromium(tuned, tmp_path):
    browser = next(
        (
            shutil.which(b)
            for b in ("chromium", "chromium-browser", "google-chrome")
            if shutil.which(b)
        ),
        None,
    )
    if browser is None:
        pytest.skip("headless Chromium is not installed")
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(tuned), "-o", str(out)]) == 0
    shot = tmp_path / "shot.png"
    subprocess.run(
        [browser, "--headless", "--no-sandbox", f"--screenshot={shot}", out.as_uri()],
        check=True,
        timeout=120,
        capture_output=True,
    )
    from matplotlib import image

    pixels = image.imread(shot)
    assert pixels.std() > 0.01  # not one flat colour
    # the page as the browser built it holds the Models section with the model's card
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--dump-dom", out.as_uri()],
        check=True,
        timeout=120,
        capture_output=True,
        text=True,
    ).stdout
    from autotune.tuning.registry import card_for_outcome

    ((text,),) = _docs(tuned)
    card = card_for_outcome(json.loads(text)["model"])
    assert 'id="models"' in dom and card is not None and card.title in dom


def _docs(db):
    with sqlite3.connect(db) as c:
        return c.execute("SELECT doc FROM outcomes").fetchall()


def test_export_csv_and_json_match_the_database(tuned, capsys):
    assert main(["export", "--db", str(tuned), "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 1 and rows[0]["label"] == "tune" and rows[0]["loop"].endswith(":10")
    assert main(["export", "--db", str(tuned), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    with sqlite3.connect(tuned) as c:
        n_runs = c.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    assert len(data["runs"]) == n_runs > 0
    # runs name their loop as the decisions do (file:line), and say when in ISO 8601
    assert {r["loop"] for r in data["runs"]} == {rows[0]["loop"]}
    assert all(
        re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$", r["created"]) for r in data["runs"]
    )
    assert data["decisions"][0]["speedup"] == pytest.approx(float(rows[0]["speedup"]))
    (doc,) = [json.loads(r[0]) for r in _docs(tuned)]
    if doc["figures_valid"]:
        (q,) = data["quality"]
        assert q["measured"] >= 1 and q["k"] == 3
    else:  # the whole program contradicted the loop's figures: the model is not judged
        assert data["quality"] == []


def test_report_of_an_empty_database_is_one_clear_line(tmp_path, capsys):
    from autotune.measure.store import Store

    db = tmp_path / "empty.db"
    Store(db).close()
    assert main(["report", "--db", str(db), "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert "nothing to report" in err and "Traceback" not in err
    assert not (tmp_path / "r.html").exists()
    assert re.search(r"empty\.db", err)


def test_report_and_export_read_a_database_without_writing_to_it(tuned, tmp_path, capsys):
    """A database on a read-only filesystem (an archived experiment): report and export
    open it read-only; nothing is made or changed next to it."""
    import shutil

    folder = tmp_path / "archive"
    folder.mkdir()
    db = folder / "results.db"
    shutil.copy(tuned, db)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    stamp = db.stat().st_mtime_ns
    assert main(["export", "--db", str(db), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["decisions"]
    out = tmp_path / "report.html"
    assert main(["report", "--db", str(db), "-o", str(out)]) == 0
    capsys.readouterr()
    assert out.is_file()
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert db.stat().st_mtime_ns == stamp
