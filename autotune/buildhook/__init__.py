"""The build hook: ``autotune-cc``, a compiler launcher that compiles tuned variants.

``wrapper`` (entry point) -> ``cmdline`` (what the compiler was asked to do)
-> ``config`` (mode, database) -> ``lookup`` (tuned choice, caches) ->
``runner`` (the real compiler) ; ``report`` keeps the decision log read by
``autotune report-build``; ``tunemode`` and ``rank`` implement those modes.
"""
