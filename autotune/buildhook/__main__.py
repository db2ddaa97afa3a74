"""``python -m autotune.buildhook COMPILER ARGS...``: the wrapper without the console script."""

from autotune.buildhook.wrapper import main

raise SystemExit(main())
