"""What a running campaign does with the fleet store: upload each finding, report its coverage.

A finding is saved locally first (contract 5), then queued (`<store>/.fleet-pending/<id>.json`,
the sighting: machine, seed, programs-to-find, when), then uploaded and unqueued. If Redis
is down the campaign says so in one line and goes on locally; it tries again at its end,
and whatever is still queued is uploaded by the next campaign (or `ember findings list
--redis`) that reaches Redis from this findings store. An upload retried after a kill counts
its sighting once (the sighting id is machine + local finding id).
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from compiler.diagnostics import EmberError
from fuzz import findings
from fuzz.fleet import connection, records
from fuzz.fleet.store import FleetStore, RunRecord

PENDING = ".fleet-pending"
#: seconds between attempts to reach Redis again after it went down
RETRY_S = 60.0


def machine_name() -> str:
    """This machine as sightings name it: `$EMBER_MACHINE`, else the host name."""
    return (os.environ.get("EMBER_MACHINE") or socket.gethostname() or "unknown")[:64]


def _redis_errors() -> tuple[type[BaseException], ...]:
    import redis

    return (redis.exceptions.RedisError, OSError)


class FleetSession:
    """One campaign's link to the fleet store (`url` is never printed unredacted)."""

    def __init__(
        self,
        url: str,
        *,
        name: str,
        strategy: str,
        seed: int | None,
        root: Path | None = None,
        note: Callable[[str], None] | None = None,
    ) -> None:
        self.url = url
        self.where = connection.redact(url)
        self.root = Path(root) if root is not None else findings.default_root()
        self.note = note or (lambda line: print(line, file=sys.stderr, flush=True))
        self.store = FleetStore(connection.connect(url))
        self.machine = machine_name()
        self.run = RunRecord(
            id=f"{self.machine}-{os.getpid()}-{int(time.time())}-{secrets.token_hex(3)}",
            machine=self.machine, strategy=strategy, campaign=name, seed=seed, started=time.time(),
        )
        self.name = name
        self.uploaded: list[str] = []
        self._down_since: float | None = None
        self._last_try = 0.0
        self._refused: set[str] = set()
        self._start = time.perf_counter()
        self.flush()

    # ------------------------------------------------------------ Redis up or down

    def _attempt(self, what: Callable[[], Any]) -> bool:
        """Run `what` against Redis; on failure say so once (one line) and remember it is down."""
        now = time.perf_counter()
        if self._down_since is not None and now - self._last_try < RETRY_S:
            return False
        self._last_try = now
        import redis

        try:
            what()
        except redis.exceptions.ResponseError as exc:  # Redis answered: it refused this write
            reason = connection.describe_error(exc, self.url)
            if reason not in self._refused:
                self._refused.add(reason)
                self.note(f"ember fleet: Redis {self.where} refused a write ({reason}); kept locally and queued")
            return False
        except _redis_errors() as exc:
            self._down_since = self._down_since or now
            connection.note_down(self.url, exc)
            return False
        self._down_since = None
        if connection.note_up(self.url):
            self.note(f"ember fleet: Redis {self.where} is back; uploading queued findings")
        return True

    @property
    def up(self) -> bool:
        return self._down_since is None

    # ------------------------------------------------------------ findings

    def finding_saved(self, path: Path, result: Any = None) -> None:
        """Campaign hook: queue the sighting of a just-saved finding, then try to upload the queue."""
        stats = getattr(result, "stats", None)
        sighting = {
            "machine": self.machine,
            "seed": self.run.seed,
            "campaign": self.name,
            "strategy": self.run.strategy,
            "examples_to_find": getattr(result, "examples_to_failure", None),
            "programs_checked": getattr(stats, "examples", None),
            "seen": time.time(),
            "finding": path.name,
        }
        queue = self.root / PENDING
        queue.mkdir(parents=True, exist_ok=True)
        tmp = queue / f".{path.name}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(sighting))
        os.replace(tmp, queue / f"{path.name}.json")
        self.flush()

    def flush(self) -> None:
        """Upload every queued sighting of this findings store (stops at the first Redis failure)."""
        queue = self.root / PENDING
        if not queue.is_dir():
            return
        for marker in sorted(queue.glob("*.json")):
            finding = self.root / marker.stem
            try:
                sighting = json.loads(marker.read_text())
                meta = findings.read_meta(finding)
                blob = records.pack(finding)
            except FileNotFoundError:
                continue  # another process uploaded and unqueued it
            except (OSError, ValueError, records.RecordError, EmberError) as exc:
                reason = exc.render() if isinstance(exc, EmberError) else str(exc)
                self.note(f"ember fleet: not sharing {finding.name}: {reason}")
                marker.unlink(missing_ok=True)
                continue
            sid = f"{sighting.get('machine', self.machine)}:{finding.name}"
            if not self._attempt(functools.partial(self.store.upload, meta, blob, sighting, sid)):
                if self.up:
                    continue  # Redis refused this one (said once): it stays queued, the others go on
                return
            marker.unlink(missing_ok=True)
            self.uploaded.append(finding.name)

    def pending(self) -> list[str]:
        queue = self.root / PENDING
        return sorted(m.stem for m in queue.glob("*.json")) if queue.is_dir() else []

    # ------------------------------------------------------------ coverage

    def progress(self, result: Any) -> None:
        """Campaign hook: send the running totals and one checks/s sample."""
        self._fill(result)
        if self._attempt(lambda: self.store.put_run(self.run)):
            self.flush()  # Redis may be back after an outage: the queue goes up now

    def finish(self, result: Any) -> None:
        """At the campaign's end: final totals, and one more try at the queue (Redis may be back)."""
        self._fill(result)
        self._last_try = 0.0  # try now, whatever the retry clock says
        if self._attempt(lambda: self.store.put_run(self.run)):
            self.flush()
    def _fill(self, result: Any) -> None:
        stats = result.stats
        self.run.examples = stats.examples
        self.run.checks = stats.checks
        self.run.seconds = time.perf_counter() - self._start
        self.run.updated = time.time()
        self.run.coverage = dict(result.coverage)
