"""A program's parallel structure: the pipeline one level above a single loop.

The C program's regions, sections, tasks and time-step loops as a skeleton tree
(``tree``, ``callgraph``, ``nodes``), timed by instrumented runs (``regions``,
``program_runs``, ``experiment``) and predicted node by node with the skeleton
predictors and the stand-alone models of ``autotune.structmodels``
(``predict_program``, ``extrapolate``, ``sections_model``).
"""
