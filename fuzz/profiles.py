"""Hypothesis profiles and the example database of Ember's fuzz campaigns.

Profiles (load one explicitly with `EMBER_PROFILE=<name>`; the default is `ci`):

- `ci`: fast and derandomised (the same examples every run): 8 programs per campaign test,
  25 examples per ordinary property test. Hypothesis forbids a
  database with `derandomize=True`, so campaign tests (`fuzz.campaign`) get the same
  effect another way: a fixed seed per test plus the local database (`campaign_settings`),
  and a failure found once is replayed first next time;
- `dev`: more examples (40 programs per campaign test), random;
- `campaign`: 2,000 programs per campaign test, no deadline, random:
  `EMBER_PROFILE=campaign pytest -n auto fuzz/`.

Hypothesis loads its *own* `ci` profile (no database) when `CI` is set; `load()` replaces
it with ours, so CI runs with the database too. `load()` also stops Hypothesis from mixing
the literals of whatever modules are imported into its draws (`fuzz.determinism`).

Database: a local `DirectoryBasedExampleDatabase` (`$EMBER_HYPOTHESIS_DIR`, default
`.hypothesis/ember`); with `EMBER_REDIS_URL=redis://host:port/0` it is multiplexed with a
shared `RedisExampleDatabase`, so a failure one worker (or machine) finds is replayed by
every other.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase, MultiplexedDatabase

from fuzz import determinism

PROFILE_ENV = "EMBER_PROFILE"
DIR_ENV = "EMBER_HYPOTHESIS_DIR"
REDIS_ENV = "EMBER_REDIS_URL"
DEFAULT_PROFILE = "ci"
#: Examples per ordinary @given test under each profile (profiles are process-wide: they also
#: apply to property tests elsewhere in the run).
EXAMPLES = {"ci": 25, "dev": 100, "campaign": 2000}
#: Programs per differential campaign test (each costs a few builds and runs).
CAMPAIGN_EXAMPLES = {"ci": 8, "dev": 40, "campaign": 2000}
SLOW_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]


def local_database(path: str | Path | None = None) -> DirectoryBasedExampleDatabase:
    return DirectoryBasedExampleDatabase(str(path or os.environ.get(DIR_ENV) or Path(".hypothesis") / "ember"))


def redis_database(url: str) -> ExampleDatabase:
    """A shared database on a Redis server (`redis://host:port/db`); Redis going away mid-campaign
    is noted once and the campaign goes on with its local database (`fuzz.fleet.exampledb`)."""
    from fuzz.fleet import connection
    from fuzz.fleet.exampledb import TolerantRedisDatabase

    return TolerantRedisDatabase(connection.connect(url), url, key_prefix=b"ember-hypothesis:")


def example_database(local: str | Path | None = None, redis_url: str | None = None) -> ExampleDatabase:
    """The local directory database, multiplexed with Redis when `EMBER_REDIS_URL` (or `redis_url`) is set."""
    db: ExampleDatabase = local_database(local)
    url = redis_url if redis_url is not None else os.environ.get(REDIS_ENV)
    if url:
        db = MultiplexedDatabase(db, redis_database(url))
    return db


def register() -> None:
    """Register Ember's profiles (replacing Hypothesis' built-in `ci`)."""
    db = example_database()
    base = settings.get_profile("default")  # not whatever profile happens to be loaded
    settings.register_profile(
        "ci",
        parent=base,
        max_examples=EXAMPLES["ci"],
        derandomize=True,
        database=None,  # Hypothesis: derandomize implies no database (campaign_settings adds one)
        deadline=None,
        print_blob=True,
        suppress_health_check=SLOW_CHECKS,
    )
    settings.register_profile(
        "dev", parent=base, max_examples=EXAMPLES["dev"], database=db, deadline=None, suppress_health_check=SLOW_CHECKS
    )
    settings.register_profile(
        "campaign",
        parent=base,
        max_examples=EXAMPLES["campaign"],
        database=db,
        deadline=None,
        print_blob=True,
        suppress_health_check=SLOW_CHECKS,
    )


def load(name: str | None = None) -> str:
    """Register and load a profile (`name`, else `$EMBER_PROFILE`, else `ci`); returns its name."""
    register()
    chosen = name or os.environ.get(PROFILE_ENV) or DEFAULT_PROFILE
    if chosen not in EXAMPLES:
        raise ValueError(f"unknown {PROFILE_ENV} '{chosen}' (choose from {', '.join(EXAMPLES)})")
    settings.load_profile(chosen)
    # what a test draws depends on its seed, not on which modules the process imported
    determinism.switch_off_local_constants()
    global _LOADED
    _LOADED = chosen
    return chosen


_LOADED: str | None = None


def active() -> str | None:
    """The profile `load()` last loaded in this process (None before any)."""
    return _LOADED


def campaign_settings(key: str) -> tuple[settings, int | None]:
    """Settings and seed for a campaign test under the loaded profile.

    A derandomised profile becomes a fixed seed (stable per `key`) with the example
    database switched on; other profiles keep their own settings and a random seed.
    """
    current = settings.default
    assert current is not None
    examples = CAMPAIGN_EXAMPLES.get(_LOADED or "", current.max_examples)
    if not current.derandomize:
        return settings(current, max_examples=examples), None
    import hashlib

    seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big")
    return settings(current, derandomize=False, database=example_database(), max_examples=examples), seed
