"""`ember compare`'s check: an external candidate compiler's object for one input file
against Ember's reference build."""

from __future__ import annotations

from pathlib import Path

from fuzz.properties.checks import check
from fuzz.properties.model import BuildConfig, CheckPlan, Report
from fuzz.strategies import FuzzCase


def compare_file(
    path: str | Path, template: str, *, opt_level: int = 2, support: str | Path | None = None
) -> Report:
    """Compare the candidate's object for one input file with Ember's reference build.

    Returns the report (symbol diff and behaviour, classified).
    """
    module = Path(path).read_text()
    support_text = Path(support).read_text() if support else None
    case = FuzzCase(module, support_text, origin=str(path))
    plan = CheckPlan(
        opt=opt_level, cost=None, configs=(BuildConfig(opt=opt_level, candidate=template),), opt_check=False
    )
    return check(case, plan)
