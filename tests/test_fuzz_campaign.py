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
