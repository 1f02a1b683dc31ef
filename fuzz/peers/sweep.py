"""Tally every kind of failure a candidate compiler shows over N generated programs.

`ember fuzz --candidate` stops at the first failing program; against a peer that leaks
locals in every program that hides whatever else it does. This runs the properties'
check (reference `--split none` against the candidate, behaviour and symbols) on each of
N programs of one strategy and counts (class, kind) pairs, so a wrong output or a crash
shows next to the leaks. The first program of each pair is saved as `<out>/<class>-<n>.ll`.

    python -m fuzz.peers.sweep 'sh fuzz/peers/llvm_split.sh {in} {out}' --strategy linkage -n 40 -o sweep/
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m fuzz.peers.sweep", description=__doc__.split("\n\n")[0])
    ap.add_argument("candidate", help="command template with {in} and {out}")
    ap.add_argument("--strategy", choices=("callgraph", "linkage"), default="callgraph")
    ap.add_argument("-n", "--examples", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-O", dest="opt", type=int, choices=(0, 1, 2, 3), default=2)
    ap.add_argument("-o", "--out", type=Path, required=True, help="folder for one program per failure kind")
    args = ap.parse_args(argv)

    from hypothesis import HealthCheck, given, seed, settings

    from compiler.diagnostics import UsageError
    from fuzz import determinism, properties
    from fuzz.strategies import FuzzCase, callgraph_cases, linkage_cases
    from oracle.candidate import CandidateCommand

    try:
        CandidateCommand(args.candidate)
    except UsageError as exc:
        print(f"python -m fuzz.peers.sweep: error: {exc}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    plan = properties.CheckPlan(opt=args.opt, cost=None, opt_check=False,
                                configs=(properties.BuildConfig(candidate=args.candidate, opt=args.opt),))
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    strategy = callgraph_cases() if args.strategy == "callgraph" else linkage_cases()

    @seed(args.seed)
    @settings(max_examples=args.examples, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def sweep(case: FuzzCase) -> None:
        report = properties.check(case, plan)
        for f in report.failures:
            key = (f.classification, f.cause or f.summary.split(": ", 1)[-1][:60])
            if key not in counts:
                (args.out / f"{f.classification}-{len(counts)}.ll").write_text(case.module)
            counts[key] += 1

    with determinism.seed_only():
        sweep()
    print(f"{args.examples} {args.strategy} programs, seed {args.seed}, -O{args.opt}: {args.candidate}")
    for (cls, kind), n in counts.most_common():
        print(f"{n:>5}  {cls}  ({kind})")
    if not counts:
        print("    no failure")
    return 0


if __name__ == "__main__":
    sys.exit(main())
