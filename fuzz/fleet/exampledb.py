"""Hypothesis's Redis example database, made to survive Redis going away mid-campaign.

`RedisExampleDatabase` raises on a lost connection, and Hypothesis would end the campaign
with that error. Here a failed call says so once (one line on stderr, password redacted)
and behaves as an empty database (tried again after `RETRY_S`): the multiplexed local directory database still records
everything, so nothing the campaign finds is lost; the next call tries Redis again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from hypothesis.extra.redis import RedisExampleDatabase

from fuzz.fleet import connection

T = TypeVar("T")
#: seconds before a down Redis is tried again
RETRY_S = 30.0


class TolerantRedisDatabase(RedisExampleDatabase):
    """A `RedisExampleDatabase` whose calls never raise Redis errors (noted once per outage)."""

    def __init__(self, client: Any, url: str, **kwargs: Any) -> None:
        super().__init__(client, **kwargs)
        self._url = url
        self._down = False
        self._failed_at = 0.0

    def _guard(self, call: Callable[[], T], empty: T) -> T:
        import redis

        if self._down and time.monotonic() - self._failed_at < RETRY_S:
            return empty  # no connection timeout per example while it is away
        try:
            result = call()
        except (redis.exceptions.RedisError, OSError) as exc:
            self._failed_at = time.monotonic()
            self._down = True
            connection.note_down(self._url, exc)
            return empty
        self._down = False
        return result

    def fetch(self, key: bytes) -> Iterable[bytes]:
        return self._guard(lambda: list(super(TolerantRedisDatabase, self).fetch(key)), [])

    def save(self, key: bytes, value: bytes) -> None:
        self._guard(lambda: super(TolerantRedisDatabase, self).save(key, value), None)

    def delete(self, key: bytes, value: bytes) -> None:
        self._guard(lambda: super(TolerantRedisDatabase, self).delete(key, value), None)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self._guard(lambda: super(TolerantRedisDatabase, self).move(src, dest, value), None)
