"""Front end: preprocess and parse a C file, find its OpenMP directives and loops.

What flows out is plain data (``records.LoopRecord`` and friends, filled in by
the analysis stage). The entry point that runs both stages on a file is
``autotune.analysis.analyze_file``.
"""
