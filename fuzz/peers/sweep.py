"""Tally every kind of failure a candidate compiler shows over N generated programs.

`ember fuzz --candidate` stops at the first failing program; against a peer that leaks
locals in every program that hides whatever else it does. This runs the properties'
check (reference `--split none` against the candidate, behaviour and symbols) on each of
N programs of one strategy and counts (class, kind) pairs, so a wrong output or a crash
shows next to the leaks. The first program of each pair is saved as `<out>/<class>-<n>.ll`.
A candidate that fails to build is run again for its whole stderr, and the crash's kind
names what the tool said (`crash_message`), not only its exit status: "candidate exited 1"
alone would lump llvm-split's broken ifunc parts with ld's TLS refusal (docs/peers.md).

    python -m fuzz.peers.sweep 'sh fuzz/peers/llvm_split.sh {in} {out}' --strategy linkage -n 40 -o sweep/
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import tempfile
from pathlib import Path

#: `tool: /path/File.cpp:614: void f(): Assertion `cond' failed.`
_ASSERTION = re.compile(r"(\w+\([^()]*\))[^:]*: Assertion `(.*)' failed")
_PATH = re.compile(r"\S*/\S+")


def crash_message(stderr: str) -> str:
    """What a failed candidate said, without paths or symbol names, for a crash's kind: an
    assertion as `function(): Assertion `cond' failed`, else the first line of its stderr
    (ld's `ld: SYMBOL: ...` without the symbol, section names dropped)."""
    for line in stderr.splitlines():
        if m := _ASSERTION.search(line):
            return f"{m.group(1)}: Assertion `{m.group(2)}' failed"
    first = next((ln.strip() for ln in stderr.splitlines() if ln.strip()), "")
    first = re.sub(r"^ld: [^:\s]+: ", "ld: ", first)
    first = re.sub(r" section \S+", "", first)
    return _PATH.sub("…", first)[:100]


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
    command = CandidateCommand(args.candidate)
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
            kind = f.cause or f.summary.split(": ", 1)[-1][:60]
            if f.classification == "crash" and f.cause.startswith("candidate exited"):
                with tempfile.TemporaryDirectory(prefix="ember-sweep-") as tmp:
                    (Path(tmp) / "in.ll").write_text(case.module)
                    kind = f"{kind}: {crash_message(command.compile(Path(tmp) / 'in.ll').stderr)}"
            key = (f.classification, kind)
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
