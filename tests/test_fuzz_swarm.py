"""Swarm testing: the default campaign's programs are distinct, and every feature is in 5% of them.

Only generation runs here (the check is replaced by one that accepts every program), so
the whole default campaign's 200 programs cost a few seconds.
"""

from __future__ import annotations

import pytest

from fuzz import properties
from fuzz.campaign import Campaign, CampaignConfig, CampaignResult
from fuzz.strategies import FuzzCase, known_features

#: `ember fuzz`'s defaults: the mixed strategy, 200 programs
PROGRAMS = 200
SHARE = 0.05


def accept(case: FuzzCase, plan: properties.CheckPlan, **_options: object) -> properties.Report:
    """A check that builds nothing and finds nothing."""
    return properties.Report(case, plan, frozenset())


def generated(seed: int, monkeypatch: pytest.MonkeyPatch) -> CampaignResult:
    """The default campaign at `seed`, generation only."""
    monkeypatch.setattr(properties, "check", accept)
    config = CampaignConfig(save_findings=False, lanes=1)
    return Campaign(config, seed=seed).run(examples=PROGRAMS, database=None, shrink=False)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_feature_is_in_five_percent_of_the_default_campaign(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    result = generated(seed, monkeypatch)
    assert len(result.trace) == PROGRAMS
    rare = {f: n for f, n in result.coverage.items() if n < SHARE * PROGRAMS}
    assert not rare, result.coverage_text()
    assert set(result.coverage) == set(known_features("mixed"))


def test_campaign_programs_are_fresh_draws_not_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hypothesis' span mutator made near-copies of each program (25% were exact repeats)."""
    result = generated(1, monkeypatch)
    assert len(set(result.trace)) >= 0.9 * PROGRAMS, len(set(result.trace))
