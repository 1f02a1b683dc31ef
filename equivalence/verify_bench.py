"""Benchmark `ember verify`: all rewrite patterns at every width, and TV of a 50-op function.

    .venv/bin/python -m equivalence.verify_bench [-j JOBS] [--repeat N] [--skip-patterns]

Prints the wall time of proving every pattern at widths 1..64 and index 32/64, the
per-pattern solver times, and the median time to validate Ember's -O2 midend pipeline
(and a few single passes) on a generated 50-op arith function.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from compiler.midend import pipeline, rewrites
from equivalence import tv, verify

_OPS = ["addi", "subi", "muli", "andi", "ori", "xori", "shli", "shrui", "shrsi", "maxsi", "minui"]
_PREDS = ["eq", "ne", "slt", "sle", "ult", "uge"]


def fifty_op_function(seed: int = 0, n_ops: int = 50, width: int = 32) -> str:
    """A loop-free arith function of `n_ops` ops (binops, constants, cmpi, select)."""
    rng = random.Random(seed)
    ty = f"i{width}"
    vals = ["%a", "%b", "%c", "%d"]
    conds: list[str] = []
    lines = []
    for i in range(n_ops):
        name = f"%v{i}"
        r = rng.random()
        if r < 0.12:
            lines.append(f"{name} = arith.constant {rng.choice([0, 1, 2, 3, 4, 7, 8, -1, 16])} : {ty}")
        elif r < 0.24:
            x, y = rng.sample(vals, 2)
            lines.append(f"{name} = arith.cmpi {rng.choice(_PREDS)}, {x}, {y} : {ty}")
            conds.append(name)
            continue
        elif r < 0.34 and conds:
            lines.append(f"{name} = arith.select {rng.choice(conds)}, {rng.choice(vals)}, {rng.choice(vals)} : {ty}")
        else:
            op = rng.choice(_OPS)
            flags = " overflow<nsw>" if op in ("addi", "subi", "muli") and rng.random() < 0.3 else ""
            lines.append(f"{name} = arith.{op} {rng.choice(vals[-8:])}, {rng.choice(vals)}{flags} : {ty}")
        vals.append(name)
    body = "\n".join(f"  {ln}" for ln in lines)
    return f"func.func @f(%a: {ty}, %b: {ty}, %c: {ty}, %d: {ty}) -> {ty} {{\n{body}\n  return {vals[-1]} : {ty}\n}}\n"


def bench_patterns(jobs: int) -> None:
    pats = rewrites.patterns()
    start = time.perf_counter()
    results = verify.verify_patterns(pats, jobs=jobs)
    wall = time.perf_counter() - start
    proofs = sum(len(r.widths) for r in results)
    ok = all(r.holds for r in results)
    print(f"patterns: {len(pats)}, proofs: {proofs}, all hold: {ok}")
    print(f"wall time, all widths, {jobs} worker(s): {wall:.2f} s; solver time {sum(r.seconds for r in results):.2f} s")
    print("slowest patterns (solver seconds over all widths):")
    for r in sorted(results, key=lambda r: -r.seconds)[:10]:
        print(f"  {r.pattern.name:<28}{r.seconds:8.2f}")


def bench_tv(repeat: int) -> None:
    text = fifty_op_function()
    for passes in (pipeline.MIDEND_PIPELINES[2], "canonicalize", "ember-rewrites", "int-range-optimizations"):
        times = []
        status = ""
        for _ in range(repeat):
            start = time.perf_counter()
            (r,) = tv.validate_text(text, "bench.mlir", passes)
            times.append(time.perf_counter() - start)
            status = r.status
        label = "-O2 pipeline" if passes == pipeline.MIDEND_PIPELINES[2] else passes
        print(f"TV of a 50-op i32 function, {label:<24} median {statistics.median(times):.3f} s "
              f"(min {min(times):.3f}, max {max(times):.3f}, n={repeat}) [{status}]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--skip-patterns", action="store_true")
    args = ap.parse_args()
    if not args.skip_patterns:
        bench_patterns(args.jobs)
    bench_tv(args.repeat)


if __name__ == "__main__":
    main()
