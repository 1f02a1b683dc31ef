"""The fleet store in Redis: findings by failure signature, their sightings, each campaign's coverage.

Keys (prefix `ember-fleet:`):

    finding:<sig>    hash   signature, meta (finding.json), first_seen, last_seen, sightings, size
    repro:<sig>      string the reproducer directory, packed (`records.pack`)
    sightings:<sig>  list   one JSON object per sighting: machine, seed, examples_to_find, seen, campaign
    seen-ids:<sig>   set    sighting ids already counted (an upload retried after a kill counts once)
    findings         zset   sig -> first seen (the index)
    run:<id>         hash   one campaign: machine, strategy, campaign (name), seed, started, updated, examples, checks,
                            seconds, coverage (JSON feature -> programs)
    samples:<id>     list   JSON [t, checks, examples] every progress tick (checks/s over time)
    runs             zset   run id -> last update

A finding is written by one Lua script (`UPLOAD`): Redis runs a script whole or not at
all, so a campaign killed mid-upload leaves nothing partial (a request cut short never
runs), and two campaigns racing on one signature make one finding with two sightings.
A smaller reproducer of the same signature replaces the stored one. Run records hold
absolute totals, so re-sending one after a lost reply counts nothing twice.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fuzz.fleet import records

PREFIX = "ember-fleet:"
#: sightings kept per finding (the count in the hash keeps counting beyond)
MAX_SIGHTINGS = 1000
#: progress samples kept per campaign
MAX_SAMPLES = 2000

UPLOAD = """
-- KEYS: finding, repro, sightings, seen-ids, index
-- ARGV: sig, signature text, meta, repro blob, size, sighting json, sighting id, seen, max sightings
if redis.call('SADD', KEYS[4], ARGV[7]) == 0 then return 0 end
local created = 0
local seen = tonumber(ARGV[8])
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'signature', ARGV[2], 'meta', ARGV[3], 'first_seen', ARGV[8],
             'last_seen', ARGV[8], 'sightings', 0, 'size', ARGV[5])
  redis.call('SET', KEYS[2], ARGV[4])
  redis.call('ZADD', KEYS[5], ARGV[8], ARGV[1])
  created = 1
else
  -- an existing record that another writer left malformed gets sane values, never a script error
  if tonumber(ARGV[5]) < (tonumber(redis.call('HGET', KEYS[1], 'size') or '') or math.huge) then
    redis.call('HSET', KEYS[1], 'meta', ARGV[3], 'size', ARGV[5])
    redis.call('SET', KEYS[2], ARGV[4])
  end
  if seen < (tonumber(redis.call('HGET', KEYS[1], 'first_seen') or '') or math.huge) then
    redis.call('HSET', KEYS[1], 'first_seen', ARGV[8])
    redis.call('ZADD', KEYS[5], ARGV[8], ARGV[1])
  end
  if seen > (tonumber(redis.call('HGET', KEYS[1], 'last_seen') or '') or 0) then
    redis.call('HSET', KEYS[1], 'last_seen', ARGV[8])
  end
end
redis.call('HINCRBY', KEYS[1], 'sightings', 1)
redis.call('RPUSH', KEYS[3], ARGV[6])
redis.call('LTRIM', KEYS[3], -tonumber(ARGV[9]), -1)
return 1 + created
"""


@dataclass
class RunRecord:
    """One campaign's contribution to the coverage picture."""

    id: str
    machine: str = ""
    strategy: str = ""
    #: the campaign's name (`ember fuzz`, or a pytest shard's `fuzz/test_campaign.py::ember#shard3`)
    campaign: str = ""
    seed: int | None = None
    started: float = 0.0
    updated: float = 0.0
    examples: int = 0
    checks: int = 0
    seconds: float = 0.0
    coverage: dict[str, int] = field(default_factory=dict)
    samples: list[tuple[float, int, int]] = field(default_factory=list)

    @property
    def checks_per_s(self) -> float:
        return self.checks / self.seconds if self.seconds > 0 else 0.0


class FleetStore:
    """Findings and coverage in one Redis database (`client`: a redis-py client)."""

    def __init__(self, client: Any, prefix: str = PREFIX) -> None:
        self.client = client
        self.prefix = prefix
        self._upload = client.register_script(UPLOAD)

    def _k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    # ------------------------------------------------------------ findings

    def upload(self, meta: dict[str, Any], blob: bytes, sighting: dict[str, Any], sighting_id: str) -> int:
        """Record one sighting of a finding: 2 = new finding, 1 = a new sighting, 0 = already counted."""
        text, sig = records.signature_of(meta)
        meta_json = json.dumps(meta, sort_keys=True)
        if len(meta_json) > records.MAX_META_BYTES:
            raise records.RecordError(f"finding metadata is over {records.MAX_META_BYTES} bytes")
        seen = float(sighting.get("seen") or time.time())
        keys = [self._k("finding", sig), self._k("repro", sig), self._k("sightings", sig), self._k("seen-ids", sig),
                self._k("findings")]
        args = [sig, text, meta_json, blob, len(blob), json.dumps(sighting, sort_keys=True), sighting_id, repr(seen),
                MAX_SIGHTINGS]
        return int(self._upload(keys=keys, args=args))

    def finding_ids(self) -> list[str]:
        """Every finding's signature id, first seen first."""
        return [m.decode("ascii", "replace") for m in self.client.zrange(self._k("findings"), 0, -1)]

    def finding(self, sig: str, *, with_sightings: bool = False) -> records.FleetFinding:
        """One finding, checked; a bad record comes back with `problem` set (never raises for it)."""
        try:
            found = records.parse_finding(sig, self.client.hgetall(self._k("finding", sig)))
        except records.RecordError as exc:
            return records.FleetFinding(id=sig, classification="corrupt", problem=str(exc))
        raw = self.client.lrange(self._k("sightings", sig), 0, -1)
        parsed = [s for s in (records.parse_sighting(r) for r in raw) if s is not None]
        found.machines = tuple(sorted({records.clean(str(s.get("machine", "?"))[:64]) for s in parsed}))
        if with_sightings:
            found.meta = dict(found.meta, _sightings=parsed)
        return found

    def findings(self) -> list[records.FleetFinding]:
        return [self.finding(sig) for sig in self.finding_ids()]

    def resolve(self, ident: str) -> str:
        """A finding's id from a unique prefix of it (ids are hex, so anything else matches nothing)."""
        ids = self.finding_ids()
        matches = [i for i in ids if i.startswith(ident.lower())] if ident else []
        if len(matches) == 1:
            return matches[0]
        from compiler.diagnostics import UsageError

        if not matches:
            raise UsageError(f"no fleet finding '{ident[:40]}' (see 'ember findings list --redis URL')")
        raise UsageError(f"'{ident}' matches {len(matches)} fleet findings; give more of the id")

    def reproducer(self, sig: str) -> dict[str, bytes]:
        """The reproducer files of a finding, checked (`records.unpack`)."""
        blob = self.client.get(self._k("repro", sig))
        if blob is None:
            raise records.RecordError("the finding has no reproducer")
        return records.unpack(blob)

    # ------------------------------------------------------------ coverage

    def put_run(self, run: RunRecord, sample: bool = True) -> None:
        """Write a campaign's totals (absolute values) and a progress sample, in one round trip."""
        doc = {
            "machine": run.machine, "strategy": run.strategy, "campaign": run.campaign, "seed": "" if run.seed is None else str(run.seed),
            "started": repr(run.started), "updated": repr(run.updated), "examples": run.examples,
            "checks": run.checks, "seconds": repr(run.seconds), "coverage": json.dumps(run.coverage, sort_keys=True),
        }
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(self._k("run", run.id), mapping=doc)
        if sample:
            pipe.rpush(self._k("samples", run.id), json.dumps([round(run.seconds, 3), run.checks, run.examples]))
            pipe.ltrim(self._k("samples", run.id), -MAX_SAMPLES, -1)
        pipe.zadd(self._k("runs"), {run.id: run.updated})
        pipe.execute()

    def runs(self) -> list[RunRecord]:
        """Every campaign's record; malformed ones are skipped (they are counted in `bad_runs`)."""
        out = []
        self.bad_runs = 0
        ids = [m.decode("ascii", "replace") for m in self.client.zrange(self._k("runs"), 0, -1)]
        pipe = self.client.pipeline(transaction=False)
        for rid in ids:
            pipe.hgetall(self._k("run", rid))
            pipe.lrange(self._k("samples", rid), 0, -1)
        replies = pipe.execute() if ids else []
        for rid, fields, samples in zip(ids, replies[0::2], replies[1::2], strict=True):
            try:
                out.append(_parse_run(rid, fields, samples))
            except (KeyError, ValueError, TypeError, UnicodeDecodeError, json.JSONDecodeError):
                self.bad_runs += 1
        return out


def _parse_run(rid: str, fields: dict[bytes, bytes], samples: Iterable[bytes]) -> RunRecord:
    f = {k.decode(): v.decode("utf-8") for k, v in fields.items()}
    coverage = json.loads(f["coverage"])
    if not isinstance(coverage, dict) or len(f["coverage"]) > records.MAX_META_BYTES:
        raise ValueError("coverage")
    points = []
    for raw in list(samples)[-MAX_SAMPLES:]:
        t, checks, examples = json.loads(raw)
        points.append((float(t), int(checks), int(examples)))
    return RunRecord(
        id=records.clean(rid[:100]), machine=records.clean(f.get("machine", "?")[:64]),
        strategy=records.clean(f.get("strategy", "?")[:20]), campaign=records.clean(f.get("campaign", "")[:120]),
        seed=int(f["seed"]) if f.get("seed") else None, started=float(f["started"]), updated=float(f["updated"]),
        examples=int(f["examples"]), checks=int(f["checks"]), seconds=float(f["seconds"]),
        coverage={records.clean(str(k)[:64]): int(v) for k, v in coverage.items()}, samples=points,
    )
