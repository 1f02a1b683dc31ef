"""Campaign profiles are loaded explicitly (never Hypothesis' own `ci`), with the database set explicitly."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest
from hypothesis import settings
from hypothesis.database import DirectoryBasedExampleDatabase, MultiplexedDatabase
from hypothesis.extra.redis import RedisExampleDatabase

from fuzz import profiles


@pytest.fixture
def restore_profile() -> Iterator[None]:
    before = profiles._LOADED
    yield
    profiles.load(before or profiles.DEFAULT_PROFILE)


def test_ci_profile_is_ours_even_when_ci_is_set() -> None:
    code = (
        "from hypothesis import settings\n"
        "assert settings.default.database is None and settings.default.max_examples == 100  # Hypothesis' own ci\n"
        "from fuzz import profiles\n"
        "print(profiles.load(), settings.default.max_examples, settings.default.derandomize)\n"
        "s, seed = profiles.campaign_settings('k')\n"
        "print(s.max_examples, type(s.database).__name__, seed is not None, s.derandomize)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in (profiles.PROFILE_ENV, profiles.REDIS_ENV)}
    env["CI"] = "true"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout
    assert out.split("\n")[:2] == ["ci 25 True", "8 DirectoryBasedExampleDatabase True False"]


def test_campaign_profile(restore_profile: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(profiles.PROFILE_ENV, "campaign")
    assert profiles.load() == "campaign"
    current = settings.default
    assert current is not None
    assert current.max_examples == 2000 and current.deadline is None and not current.derandomize
    assert isinstance(current.database, DirectoryBasedExampleDatabase)
    s, seed = profiles.campaign_settings("x")
    assert seed is None and s.max_examples == 2000


def test_derandomised_campaigns_get_a_stable_seed_per_test(restore_profile: None) -> None:
    profiles.load("ci")
    a, seed_a = profiles.campaign_settings("test-a")
    _, seed_a2 = profiles.campaign_settings("test-a")
    _, seed_b = profiles.campaign_settings("test-b")
    assert seed_a == seed_a2 != seed_b
    assert a.database is not None and not a.derandomize


def test_redis_url_adds_a_shared_database(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv(profiles.REDIS_ENV, "redis://127.0.0.1:1/0")  # not contacted until used
    db = profiles.example_database(tmp_path)
    assert isinstance(db, MultiplexedDatabase)
    local, shared = db._wrapped
    assert type(local) is DirectoryBasedExampleDatabase and isinstance(shared, RedisExampleDatabase)


def test_unknown_profile_is_refused(restore_profile: None) -> None:
    with pytest.raises(ValueError, match="unknown EMBER_PROFILE"):
        profiles.load("nightly")
