"""Iterative-compilation campaigns: many programs and sizes, measured on Dask.

``plan`` reads plans (no Dask needed); ``runner`` and ``tasks`` import Dask,
so they are imported where a campaign runs, not with this package.
"""

from autotune.campaign.plan import CampaignPlan, ProgramPlan, load_plan

__all__ = ["CampaignPlan", "ProgramPlan", "load_plan"]
