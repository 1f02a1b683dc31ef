"""Campaign throughput, side by side: one check at a time vs the default concurrent checks.

    python -m bench.throughput [--strategies mixed,ember,callgraph] [--examples 100] [--rounds 2]

Runs the default `ember fuzz` campaign (every split mode, a -j pair, the -O check), each
in a fresh process, on the same seed twice per round: *sequential* (one build in flight per check, every
build lowers its Ember program itself: how campaigns ran before lanes) and *default*
(`properties.default_lanes()` builds in flight, the build server's lowering cache on).
The two alternate, so load from elsewhere falls on both alike. Prints checks per
second of wall time and the ratio per strategy, and a markdown table; each row also has the
campaign's CPU (its build servers and workers included) and peak memory.
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

from bench import report, runner
from fuzz import properties
from fuzz.strategies import STRATEGIES

VARIANTS = {"sequential": ("1", "0"), "default": (None, None)}
_STATS = re.compile(r"(\d+) examples, (\d+) checks, (\d+) builds")


def run_once(strategy: str, examples: int, seed: int, variant: str, findings_root: Path) -> dict[str, object]:
    """One `ember fuzz` campaign of `examples` programs under `variant`, in a fresh process
    (as a user runs it: a long-lived parent forks more slowly as its heap grows)."""
    lanes, cache = VARIANTS[variant]
    env = runner.ember_env(EMBER_CHECK_LANES=lanes, EMBER_LOWERING_CACHE=cache)
    cmd = [*runner.ember_command(), "fuzz", "--strategy", strategy, "--seed", str(seed), "--examples", str(examples),
           "--time-budget", "3600", "--shrink-seconds", "1", "--no-database", "--findings", str(findings_root)]
    step = runner.run_children([cmd], env, capture_stdout=True)
    m = _STATS.search(step.stdout)
    code = step.returncodes[0]
    if m is None or code not in (0, 1):
        raise SystemExit(f"bench.throughput: the campaign did not run (exit {code}): {step.stderr.strip()[-500:]}")
    wall = step.wall
    checks = int(m.group(2))
    return {
        "strategy": strategy,
        "variant": variant,
        "lanes": int(lanes) if lanes else properties.default_lanes(),
        "examples": int(m.group(1)),
        "checks": checks,
        "builds": int(m.group(3)),
        "wall_s": round(wall, 2),
        "cpu_s": round(step.cpu, 2),
        "peak_mb": round(step.peak_mb),
        "checks_per_s": round(checks / wall, 2),
        "found": code == 1,
    }


def main(argv: list[str] | None = None) -> int:
    parser = report.arguments("bench.throughput", __doc__)
    parser.add_argument("--strategies", default="mixed,ember,callgraph")
    parser.add_argument("--examples", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
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
    body = []
    for strategy in strategies:
        rate = {
            v: statistics.median(float(str(r["checks_per_s"])) for r in rows if r["strategy"] == strategy and r["variant"] == v)
            for v in VARIANTS
        }
        body.append([strategy, f"{rate['sequential']:.1f}", f"{rate['default']:.1f}", f"{rate['default'] / rate['sequential']:.2f}x"])
    print(report.table(["strategy", "sequential checks/s", "default checks/s", "ratio"], body, numeric=[False, True, True, True]))
    report.write_json(args.json, {"rows": rows})
    return 1 if any(r["found"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
