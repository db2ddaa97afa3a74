"""Iterative-compilation campaigns: many programs and sizes, measured on Dask."""

from autotune.campaign.plan import CampaignPlan, ProgramPlan, load_plan
from autotune.campaign.runner import CampaignResult, CampaignRunner, connect, local_client

__all__ = [
    "CampaignPlan",
    "CampaignResult",
    "CampaignRunner",
    "ProgramPlan",
    "connect",
    "load_plan",
    "local_client",
]
