"""A shared Redis example database: a failure one worker finds is replayed by another.

Starts a real `redis-server` on a free loopback port. Worker A (its own local database)
runs a campaign against a broken back end and finds a failure; worker B, with an empty
local database of its own, runs *only* Hypothesis' reuse phase and must fail on the
example A stored in Redis.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fuzz.fleet import localserver

FAULT = "skip-linkage-restore"


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    if localserver.redis_server_path() is None:
        pytest.skip(localserver.MISSING)
    server = localserver.RedisServer(tmp_path).start()
    try:
        yield server.url
    finally:
        server.stop()


def _worker(local_db: Path, redis_url: str, findings: Path, *extra: str) -> dict[str, Any]:
    env = dict(os.environ, EMBER_HYPOTHESIS_DIR=str(local_db), EMBER_REDIS_URL=redis_url)
    proc = subprocess.run(
        [sys.executable, "-m", "fuzz.worker", "--fault", FAULT, "--findings", str(findings), *extra],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert lines, f"worker printed no result (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr[-3000:]}"
    result: dict[str, Any] = json.loads(lines[-1])
    assert proc.returncode == (1 if result["found"] else 0), proc.stderr[-3000:]
    return result


def test_failure_found_by_one_worker_is_replayed_by_another(tmp_path: Path, redis_url: str) -> None:
    import redis

    a = _worker(tmp_path / "db-a", redis_url, tmp_path / "findings", "--seed", "7", "--examples", "100", "--shrink-seconds", "3")
    # the fault leaks locals (symbol-difference); a leaked private can also make the assembler exit (crash)
    # (which of the two a campaign meets first depends on how far shrinking got in its time budget)
    assert a["found"] and a["classifications"], a
    assert set(a["classifications"]) <= {"symbol-difference", "crash"}, a
    keys = redis.Redis.from_url(redis_url).keys(b"ember-hypothesis:*")
    assert keys, "worker A stored nothing in the shared database"

    b_local = tmp_path / "db-b"
    assert not b_local.exists()
    b = _worker(b_local, redis_url, tmp_path / "findings", "--replay-only")
    assert b["found"], f"worker B did not replay the shared failure: {b}"
    assert set(b["classifications"]) <= set(a["classifications"]), (a, b)
    assert b["examples_to_failure"] == 1  # the very first example it ran was the one A stored

    # control: with an unrelated Redis database, B has nothing to replay
    c = _worker(tmp_path / "db-c", redis_url.rsplit("/", 1)[0] + "/1", tmp_path / "findings", "--replay-only")
    assert not c["found"] and c["examples"] == 0, c
