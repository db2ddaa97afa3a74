"""A stand-in for 'autotune tune' in the build-hook tests: no measurement.

Takes the same arguments the wrapper passes to 'autotune tune', appends them
to $FAKE_TUNE_CALLS (one JSON line per call) and stores $FAKE_TUNE_VARIANT as
the winner of every loop of the file, through the tuner's own persistence. With
$FAKE_TUNE_BUSY set, it ends as 'autotune tune' does when it held a gain back for the
machine's load: that line on stderr, nothing stored, exit status 3.
"""

import argparse
import json
import os
import sys
from pathlib import Path

from autotune.analysis import analyze_options
from autotune.cli.common import add_source_arguments, source_options
from autotune.measure.machine import detect_machine
from autotune.measure.store import Store
from autotune.tuning.persist import save_winner
from autotune.variants.space import Variant

parser = argparse.ArgumentParser()
parser.add_argument("file")
add_source_arguments(parser)
parser.add_argument("--extra-source", action="append", default=[])
parser.add_argument("--ldflags", default="")
parser.add_argument("--cc", default="gcc")
parser.add_argument("--db")
parser.add_argument("--quiet", action="store_true")
args = parser.parse_args()
with open(os.environ["FAKE_TUNE_CALLS"], "a") as fh:
    fh.write(json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd()}) + "\n")
if os.environ.get("FAKE_TUNE_BUSY"):
    print(
        f"autotune: the machine was busy: {os.environ['FAKE_TUNE_BUSY']}; the original is kept"
        " (exit 3; --busy keep exits 0)",
        file=sys.stderr,
    )
    sys.exit(3)
options = source_options(args)
unit = analyze_options(args.file, options, cc=args.cc)
with Store(args.db) as store:
    fp = store.add_machine(detect_machine(args.cc))
    for rec in unit.loops:
        save_winner(
            store,
            source_text=Path(args.file).read_text(),
            defines=options.defines,
            machine_fp=fp,
            record=rec,
            variant=Variant.from_key(os.environ["FAKE_TUNE_VARIANT"]),
            baseline_s=1.0,
            best_s=0.5,
        )
