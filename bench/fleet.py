"""Opt-in benchmark: 1, 2, 4 ... concurrent `ember fuzz --redis` campaigns against one local Redis.

    python -m bench.fleet [--campaigns 1,2,4] [--time-budget 30] [--examples 80] [--strategy mixed] [--json F]
    python -m bench.fleet --pytest-workers 1,2 [--pytest-strategy callgraph] [--time-budget 30]

Starts a `redis-server` on a free loopback port; for each count N it empties the store,
resets Redis' command statistics, and runs N campaigns at once (seeds 1..N, each with its
own findings store and Hypothesis database, `EMBER_MACHINE=bench-<i>`). Per N it reports
each campaign's checks/s (from its run record in Redis), the total checks/s over the
wall time, the campaigns' CPU and peak memory, and the Redis commands and round trips per check (`INFO commandstats`; a
pipeline's commands share one round trip: round trips are `EXEC`s, script calls and
connection handshakes), plus the loopback latency
of the two writes a campaign makes (a progress record; a finding upload). Figures and
the projection for 16 machines: `docs/fuzzing.md`, "Campaigns on many machines".
`--pytest-workers` measures the sharded pytest campaign instead: one shard per xdist
worker, each shard's checks/s over its checking window, from its run record in Redis.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import report, runner
from fuzz.fleet.localserver import RedisServer
from fuzz.fleet.store import FleetStore, RunRecord


def _commands(client: Any) -> dict[str, int]:
    stats = client.info("commandstats")
    return {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items()}


def run_round(server: RedisServer, n: int, seconds: float, examples: int, strategy: str, work: Path) -> dict[str, Any]:
    client = server.client()
    client.flushall()
    client.config_resetstat()
    cmds, envs = [], []
    for i in range(1, n + 1):
        envs.append(runner.ember_env(EMBER_MACHINE=f"bench-{i}", EMBER_HYPOTHESIS_DIR=str(work / f"db-{n}-{i}"),
                                     EMBER_REDIS_URL=None))
        cmds.append([*runner.ember_command(), "fuzz", "--redis", server.url, "--seed", str(i),
                     "--strategy", strategy, "--examples", str(examples), "--time-budget", str(seconds),
                     "--findings", str(work / f"findings-{n}-{i}")])
    step = runner.run_children(cmds, envs, timeout=seconds * 4 + 300)
    bad = [c for c in step.returncodes if c not in (0, 1)]
    if bad or step.timed_out:
        raise RuntimeError(f"campaign exited {bad[0] if bad else 'late'}: {step.stderr[-2000:]}")
    wall = step.wall
    calls = _commands(client)  # before the bench's own reads below
    runs = FleetStore(client).runs()
    checks = sum(r.checks for r in runs)
    total_calls = sum(calls.values()) - calls.get("config|resetstat", 0)
    round_trips = sum(calls.get(k, 0) for k in ("exec", "hello", "evalsha", "eval", "script|load"))
    return {
        "campaigns": n,
        "wall_s": round(wall, 1),
        "cpu_s": round(step.cpu, 1),
        "peak_mb": round(step.peak_mb),
        "per_campaign_checks_per_s": [round(r.checks_per_s, 2) for r in sorted(runs, key=lambda r: r.machine)],
        "checks": checks,
        "total_checks_per_s": round(sum(r.checks_per_s for r in runs), 2),
        "redis_commands": total_calls,
        "redis_commands_per_check": round(total_calls / checks, 4) if checks else None,
        "redis_round_trips_per_check": round(round_trips / checks, 4) if checks else None,
        "commands": calls,
        "findings": len(FleetStore(client).finding_ids()),
    }


def pytest_round(server: RedisServer, workers: int, seconds: float, strategy: str, work: Path) -> dict[str, Any]:
    """`EMBER_PROFILE=campaign pytest -n WORKERS fuzz/test_campaign.py -k STRATEGY` for `seconds` of checking:
    one shard per worker, each shard's checks/s over its checking window (its progress samples)."""
    client = server.client()
    client.flushall()
    test = {"callgraph": "callgraph", "linkage": "linkage_modules", "ember": "ember_programs"}[strategy]
    env = runner.ember_env(EMBER_PROFILE="campaign", EMBER_CAMPAIGN_SECONDS=str(seconds), EMBER_REDIS_URL=server.url,
                           EMBER_HYPOTHESIS_DIR=str(work / f"pydb-{workers}"), EMBER_FINDINGS=str(work / f"pyfindings-{workers}"),
                           EMBER_MACHINE="bench", EMBER_SHARDS=None)
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", str(workers),
           str(runner.ROOT / "fuzz" / "test_campaign.py"), "-k", test]
    step = runner.run_children([cmd], env, capture_stdout=True, timeout=seconds * 10 + 600, cwd=work)
    wall = step.wall
    runs = FleetStore(client).runs()
    if not runs:
        raise RuntimeError(f"pytest wrote no run records (exit {step.returncodes}): {step.stdout[-2000:]}")
    rates = []
    for r in runs:
        window = [(t, c) for t, c, _ in r.samples if t <= seconds + 15]
        t, c = window[-1] if window else (r.seconds, r.checks)
        rates.append(c / t if t else 0.0)
    return {"workers": workers, "shards": len(runs), "wall_s": round(wall, 1), "cpu_s": round(step.cpu, 1),
            "per_shard_checks_per_s": [round(x, 2) for x in sorted(rates)], "total_checks_per_s": round(sum(rates), 2),
            "exit": step.returncodes[0]}


def latencies(server: RedisServer) -> dict[str, float]:
    """Milliseconds per progress record and per finding upload (loopback, median of 50)."""
    from fuzz.fleet import records

    store = FleetStore(server.client())
    out = {}
    samples = []
    for i in range(50):
        t = time.perf_counter()
        store.put_run(RunRecord(id="lat", machine="m", strategy="s", updated=float(i), checks=i, seconds=1.0,
                                coverage={f"f{k}": k for k in range(40)}))
        samples.append(time.perf_counter() - t)
    out["progress_record_ms"] = round(sorted(samples)[25] * 1000, 3)
    meta = {"id": "x", "classification": "crash", "plan": {"configs": []}, "reproduce": "-", "faults": [],
            "failures": [{"classification": "crash", "reference": "a", "candidate": "b", "cause": "c"}]}
    blob = records.pack_files({"finding.json": b"{}", "builds/x/out.o": os.urandom(20_000)})
    samples = []
    for i in range(50):
        t = time.perf_counter()
        store.upload(meta, blob, {"machine": "m", "seen": float(i)}, f"m:{i}")
        samples.append(time.perf_counter() - t)
    out["finding_upload_ms"] = round(sorted(samples)[25] * 1000, 3)
    out["finding_upload_bytes"] = len(blob)
    server.client().flushall()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = report.arguments("bench.fleet", __doc__)
    parser.add_argument("--campaigns", default="1,2,4")
    parser.add_argument("--time-budget", type=float, default=30.0, metavar="S", help="seconds each campaign checks")
    parser.add_argument("--seconds", dest="time_budget", type=float, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    parser.add_argument("--strategy", default="mixed")
    parser.add_argument("--examples", type=int, default=80,
                        help="programs per campaign (after --time-budget the rest are drawn but not checked, which takes time)")
    parser.add_argument("--pytest-workers", default="", help="instead: the sharded pytest campaign at these -n, e.g. 1,2")
    parser.add_argument("--pytest-strategy", default="callgraph", choices=("callgraph", "linkage", "ember"))
    args = parser.parse_args(argv)
    counts = [int(c) for c in args.campaigns.split(",") if c]
    rows = []
    with tempfile.TemporaryDirectory(prefix="ember-fleet-bench-") as tmp:
        server = RedisServer(Path(tmp)).start()
        try:
            if args.pytest_workers:
                prow = [pytest_round(server, int(w), args.time_budget, args.pytest_strategy, Path(tmp))
                        for w in args.pytest_workers.split(",") if w]
                for r in prow:
                    print(f"pytest -n {r['workers']}: {r['shards']} shard(s), per shard {r['per_shard_checks_per_s']} "
                          f"checks/s, total {r['total_checks_per_s']} checks/s (wall {r['wall_s']} s, exit {r['exit']})")
                report.write_json(args.json, {"pytest": prow})
                return 0
            lat = latencies(server)
            print(f"loopback: progress record {lat['progress_record_ms']} ms, finding upload "
                  f"({lat['finding_upload_bytes']} bytes) {lat['finding_upload_ms']} ms", flush=True)
            for n in counts:
                row = run_round(server, n, args.time_budget, args.examples, args.strategy, Path(tmp))
                rows.append(row)
                print(f"{n} campaign(s): per campaign {row['per_campaign_checks_per_s']} checks/s, total "
                      f"{row['total_checks_per_s']} checks/s, {row['redis_commands_per_check']} Redis commands per check "
                      f"({row['redis_commands']} commands, {row['checks']} checks, wall {row['wall_s']} s)", flush=True)
        finally:
            server.stop()
    print(report.table(["campaigns", "total checks/s", "per campaign checks/s", "Redis commands per check",
                        "round trips per check", "wall s", "CPU s", "peak MiB"],
                       [[r["campaigns"], r["total_checks_per_s"], ", ".join(map(str, r["per_campaign_checks_per_s"])),
                         r["redis_commands_per_check"], r["redis_round_trips_per_check"], r["wall_s"], r["cpu_s"], r["peak_mb"]]
                        for r in rows]))
    report.write_json(args.json, {"latency": lat, "rounds": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
