"""autotune: compiler-side autotuning of OpenMP loops in C."""

__version__ = "0.1.0"
