"""A real `redis-server` on a free loopback port for tests (skipped, with the reason, where it is missing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz.fleet import localserver


class RedisServer(localserver.RedisServer):
    """`localserver.RedisServer`, skipping the test where redis-server is not installed."""

    def __init__(self, directory: Path, port: int | None = None) -> None:
        if localserver.redis_server_path() is None:
            pytest.skip(localserver.MISSING)
        super().__init__(directory, port)
