"""Campaign mechanics: the shrink budget really ends shrinking."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis.internal.conjecture import engine as hypothesis_engine

from fuzz.campaign import Campaign, CampaignConfig


def test_shrinking_stops_once_its_budget_is_spent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Hypothesis' own shrink limit is five minutes of drawing programs that no longer get
    # checked; a 300 s CI timeout was hit that way. With a zero budget only the replays of
    # the failing examples and the rest of the generation phase run after the first
    # failure (22 examples for this seed; 317 without the limit).
    default_limit = hypothesis_engine.MAX_SHRINKING_SECONDS
    examples_after_failure = 0
    body = Campaign.body

    def counting_body(self: Campaign, data: object) -> None:
        nonlocal examples_after_failure
        if self._first_failure is not None:
            examples_after_failure += 1
        body(self, data)  # type: ignore[arg-type]

    monkeypatch.setattr(Campaign, "body", counting_body)
    config = CampaignConfig(
        strategy="callgraph",
        faults=frozenset({"skip-linkage-restore"}),
        opt_check=False,
        findings_root=tmp_path,
        shrink_seconds=0.0,
    )
    result = Campaign(config, seed=7, name="shrink-budget").run(
        examples=100, database=None, shrink=True
    )
    assert result.found
    assert examples_after_failure < 60, examples_after_failure
    assert default_limit == hypothesis_engine.MAX_SHRINKING_SECONDS  # restored for other tests


def test_generation_stops_once_the_time_budget_is_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    # `--examples 100000 --time-budget S` (or a pytest shard under $EMBER_CAMPAIGN_SECONDS) used
    # to draw every remaining program after the budget, unchecked: minutes of nothing.
    after_skip = 0
    body = Campaign.body

    def counting_body(self: Campaign, data: object) -> None:
        nonlocal after_skip
        if self._skipped_for_time:  # an example was already skipped for time
            after_skip += 1
        body(self, data)  # type: ignore[arg-type]

    monkeypatch.setattr(Campaign, "body", counting_body)
    config = CampaignConfig(strategy="callgraph", time_budget=1.0, save_findings=False, opt_check=False,
                            determinism=False, modes=("two-level",), jobs=(1,))
    campaign = Campaign(config, seed=3)
    original = hypothesis_engine.ConjectureRunner.should_generate_more
    result = campaign.run(examples=100_000)
    assert result.stats.examples >= 1 and not result.found and campaign._skipped_for_time == 1
    assert after_skip == 0  # the first example skipped for time was the last one drawn
    assert hypothesis_engine.ConjectureRunner.should_generate_more is original  # the engine is restored
