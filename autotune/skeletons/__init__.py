"""Skeleton-based runtime estimation (Lobachev and Loogen, Lobachev and Loogen).

T(n, p) = W(n, p) + Abar(n, p): the skeleton's share of the sequential time
plus a per-PE parallel penalty, each extrapolated to unmeasured n or p with the
method chosen as in the paper's section 3. ``predict_point`` is the entry
point; ``autotune predict`` and ``autotune scale`` are thin layers over it.
"""

from autotune.skeletons.predictor import Prediction, predict_point
from autotune.skeletons.skeleton import Skeleton

__all__ = ["Prediction", "Skeleton", "predict_point"]
