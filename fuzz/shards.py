"""Shards of the pytest campaign, so `EMBER_PROFILE=campaign pytest -n auto fuzz/` fills every core.

xdist distributes tests, not examples: one Hypothesis test per strategy kept at most as
many workers busy as there are strategies. Each strategy's campaign test is therefore
parametrised by shard (`fuzz/test_campaign.py`): shard `k` of `n` is a whole campaign
test of its own, with its own seed stream, its own examples (the profile's count per
test) and its own findings, so `n` workers run `n` shards of every strategy at once.

The shard count is `$EMBER_SHARDS`, else (under the `campaign` profile only) xdist's
worker count, else 1. Under `ci`/`dev` it stays 1 unless `$EMBER_SHARDS` asks, so the
README's test command does exactly the work it did before sharding; strategies that had
no pytest campaign before (`CAMPAIGN_ONLY`) run only under the `campaign` profile.

Seeds: a derandomised profile (`ci`) gives every shard a fixed seed of its own
(`profiles.campaign_settings` keyed by test and shard; shard 0 keeps the unsharded key,
so its database entries and examples are those of before). Under a random profile each
shard draws its own seed from `$EMBER_SEED` (reproducible: the same base seed gives the
same per-shard seeds) or from the OS, and the seed is recorded in its findings.
`$EMBER_CAMPAIGN_SECONDS` bounds each shard's checking time (like `ember fuzz --time-budget`).
"""

from __future__ import annotations

import hashlib
import os
import random

import pytest

from fuzz import profiles

SHARDS_ENV = "EMBER_SHARDS"
SEED_ENV = "EMBER_SEED"
SECONDS_ENV = "EMBER_CAMPAIGN_SECONDS"
#: every `ember fuzz` strategy but `mixed` (which only mixes callgraph, linkage and ember)
STRATEGIES = ("callgraph", "linkage", "ember", "kernels", "llvm-ir", "corpus")
#: strategies whose pytest campaign runs only under the `campaign` profile (the README's
#: test command ran only the first three before sharding and must not get slower)
CAMPAIGN_ONLY = frozenset({"kernels", "llvm-ir", "corpus"})
#: the test names of before sharding, kept as Hypothesis database keys of shard 0
NAMES = {s: f"fuzz/test_campaign.py::{s}" for s in STRATEGIES}


def shard_count(environ: dict[str, str] | None = None, profile: str | None = None) -> int:
    """`$EMBER_SHARDS`, else xdist's worker count under the `campaign` profile, else 1."""
    env = os.environ if environ is None else environ
    raw = env.get(SHARDS_ENV, "").strip()
    if raw:
        try:
            count = int(raw)
        except ValueError:
            raise ValueError(f"{SHARDS_ENV}={raw!r}: expected a whole number of shards (at least 1)") from None
        if count < 1:
            raise ValueError(f"{SHARDS_ENV}={raw!r}: expected a whole number of shards (at least 1)")
        return count
    chosen = profile if profile is not None else env.get(profiles.PROFILE_ENV) or profiles.DEFAULT_PROFILE
    if chosen != "campaign":
        return 1
    try:
        return max(1, int(env.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1))
    except ValueError:
        return 1


def shard_name(strategy: str, shard: int) -> str:
    """The campaign's name (database key and the `test` of its findings); shard 0 keeps the old one."""
    return NAMES[strategy] if shard == 0 else f"{NAMES[strategy]}#shard{shard}"


def shard_seed(strategy: str, shard: int, base: int | None) -> int:
    """Shard `shard`'s seed under a random profile: derived from `base` (`$EMBER_SEED`), else random."""
    if base is None:
        return random.SystemRandom().randrange(2**32)
    digest = hashlib.sha256(f"{base}:{strategy}:{shard}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def base_seed() -> int | None:
    """`$EMBER_SEED` as an int (None when unset); a bad value is a one-line usage error."""
    raw = os.environ.get(SEED_ENV, "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise pytest.UsageError(f"{SEED_ENV}={raw!r}: expected an integer seed") from None


def campaign_seconds() -> float | None:
    """`$EMBER_CAMPAIGN_SECONDS`: each shard stops checking new programs after this long (a night's
    run on a CI runner, a short measurement); unset: the profile's example count alone."""
    raw = os.environ.get(SECONDS_ENV, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise pytest.UsageError(f"{SECONDS_ENV}={raw!r}: expected a positive number of seconds")
    return value


def run_shard(strategy: str, shard: int) -> None:
    """Run shard `shard` of `strategy`'s campaign as (part of) a pytest test.

    With `$EMBER_REDIS_URL` its findings and coverage also go to the fleet store
    (`fuzz.fleet`), as `ember fuzz --redis` does.
    """
    from fuzz.campaign import Campaign, CampaignConfig

    if strategy in CAMPAIGN_ONLY and profiles.active() != "campaign":
        pytest.skip(f"the {strategy} campaign runs under EMBER_PROFILE=campaign only (keeps the default test run short)")
    if strategy == "corpus":
        from fuzz.strategies import corpus_slices

        try:
            corpus_slices.available()
        except corpus_slices.CorpusUnavailable as exc:
            pytest.skip(str(exc))
    name = shard_name(strategy, shard)
    seed = None
    if profiles.active() not in (None, "ci"):
        seed = shard_seed(strategy, shard, base_seed())
    session = None
    url = os.environ.get(profiles.REDIS_ENV)
    if url:
        from compiler.diagnostics import UsageError
        from fuzz.fleet.connection import resolve_url
        from fuzz.fleet.session import FleetSession

        try:
            resolve_url(url)
        except UsageError as exc:
            raise pytest.UsageError(f"{profiles.REDIS_ENV}: {exc}") from None

        session = FleetSession(url, name=name, strategy=strategy, seed=seed)
    campaign = Campaign(
        CampaignConfig(strategy=strategy, time_budget=campaign_seconds()),
        seed=seed,
        name=name,
        on_finding=session.finding_saved if session else None,
        on_progress=session.progress if session else None,
    )
    try:
        campaign.hypothesis_test()()
    finally:
        if session is not None:
            session.finish(campaign.result)
