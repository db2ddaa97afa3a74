"""Loop analysis: trip counts, weighted ops, data footprint, legality.

``analyze_file`` / ``analyze_options`` (in ``unit.py``) run the front end and
this stage on a C file: one ``LoopRecord`` per OpenMP loop.
"""

from autotune.analysis.unit import analyze_file, analyze_options

__all__ = ["analyze_file", "analyze_options"]
