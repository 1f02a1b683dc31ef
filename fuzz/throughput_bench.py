"""Campaign throughput, side by side: one check at a time vs the default concurrent checks.

    python -m fuzz.throughput_bench [--strategies mixed,ember,callgraph] [--examples 100] [--rounds 2]

Runs the default `ember fuzz` campaign (every split mode, a -j pair, the -O check), each
in a fresh process, on the same seed twice per round: *sequential* (one build in flight per check, every
build lowers its Ember program itself: how campaigns ran before lanes) and *default*
(`properties.default_lanes()` builds in flight, the build server's lowering cache on).
The two alternate, so load from elsewhere falls on both alike. Prints checks per
second of wall time and the ratio per strategy, and a markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fuzz import properties
from fuzz.strategies import STRATEGIES

VARIANTS = {"sequential": ("1", "0"), "default": (None, None)}
_STATS = re.compile(r"(\d+) examples, (\d+) checks, (\d+) builds")


def run_once(strategy: str, examples: int, seed: int, variant: str, findings_root: Path) -> dict[str, object]:
    """One `ember fuzz` campaign of `examples` programs under `variant`, in a fresh process
    (as a user runs it: a long-lived parent forks more slowly as its heap grows)."""
    lanes, cache = VARIANTS[variant]
    env = dict(os.environ)
    for name, value in (("EMBER_CHECK_LANES", lanes), ("EMBER_LOWERING_CACHE", cache)):
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    cmd = [sys.executable, "-m", "compiler.cli", "fuzz", "--strategy", strategy, "--seed", str(seed), "--examples", str(examples),
           "--max-seconds", "3600", "--shrink-seconds", "1", "--no-database", "--findings", str(findings_root)]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    m = _STATS.search(proc.stdout)
    if m is None or proc.returncode not in (0, 1):
        raise SystemExit(f"throughput_bench: the campaign did not run (exit {proc.returncode}): {proc.stderr.strip()[-500:]}")
    checks = int(m.group(2))
    return {
        "strategy": strategy,
        "variant": variant,
        "lanes": int(lanes) if lanes else properties.default_lanes(),
        "examples": int(m.group(1)),
        "checks": checks,
        "builds": int(m.group(3)),
        "wall_s": round(wall, 2),
        "checks_per_s": round(checks / wall, 2),
        "found": proc.returncode == 1,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.throughput_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--strategies", default="mixed,ember,callgraph")
    parser.add_argument("--examples", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the rows as JSON")
    args = parser.parse_args(argv)
    strategies = [s for s in args.strategies.split(",") if s]
    unknown = [s for s in strategies if s not in STRATEGIES]
    if unknown:
        parser.error(f"unknown strategy: {', '.join(unknown)}")
    if args.examples < 1 or args.rounds < 1:
        parser.error("--examples and --rounds must be at least 1")
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="ember-throughput-") as tmp:
        for rnd in range(args.rounds):
            for strategy in strategies:
                for variant in VARIANTS if rnd % 2 == 0 else reversed(VARIANTS):
                    row = run_once(strategy, args.examples, args.seed, variant, Path(tmp))
                    row["round"] = rnd + 1
                    rows.append(row)
                    print(
                        f"round {rnd + 1} {strategy:<10} {variant:<10} lanes {row['lanes']}: {row['checks']} checks "
                        f"in {row['wall_s']}s = {row['checks_per_s']} checks/s" + (" (FOUND a failure)" if row["found"] else ""),
                        flush=True,
                    )
    print(f"\n{os.cpu_count()} CPUs, {args.examples} programs per campaign, seed {args.seed}, {args.rounds} round(s)\n")
    print("| strategy | sequential checks/s | default checks/s | ratio |")
    print("|---|---:|---:|---:|")
    for strategy in strategies:
        rate = {
            v: statistics.median(float(str(r["checks_per_s"])) for r in rows if r["strategy"] == strategy and r["variant"] == v)
            for v in VARIANTS
        }
        print(f"| {strategy} | {rate['sequential']:.1f} | {rate['default']:.1f} | {rate['default'] / rate['sequential']:.2f}x |")
    if args.json:
        args.json.write_text(json.dumps({"cpus": os.cpu_count(), "date": time.strftime("%Y-%m-%d"), "rows": rows}, indent=2) + "\n")
    return 1 if any(r["found"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
