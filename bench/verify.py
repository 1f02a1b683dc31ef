"""Benchmark `ember verify`: all rewrite patterns at every width, and TV of a 50-op function.

    .venv/bin/python -m bench.verify [-j JOBS] [--repeat N] [--skip-patterns] [--json FILE]

Prints the wall time of proving every pattern at widths 1..64 and index 32/64, the
per-pattern solver times, and the median time to validate Ember's -O2 midend pipeline
(and a few single passes) on a generated 50-op arith function.
"""

from __future__ import annotations

import random
import statistics

from bench import report, runner
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


def bench_patterns(jobs: int) -> dict[str, object]:
    pats = rewrites.patterns()
    with runner.measure() as used:
        results = verify.verify_patterns(pats, jobs=jobs)
    proofs = sum(len(r.widths) for r in results)
    ok = all(r.holds for r in results)
    print(f"patterns: {len(pats)}, proofs: {proofs}, all hold: {ok}")
    print(f"wall time, all widths, {jobs} worker(s): {used.wall:.2f} s; CPU {used.cpu:.2f} s; "
          f"solver time {sum(r.seconds for r in results):.2f} s")
    slowest = sorted(results, key=lambda r: -r.seconds)[:10]
    print(report.table(["slowest patterns", "solver s, all widths"], [[r.pattern.name, r.seconds] for r in slowest]))
    return {"patterns": len(pats), "proofs": proofs, "all_hold": ok, "jobs": jobs, "wall_s": round(used.wall, 2),
            "cpu_s": round(used.cpu, 2), "per_pattern_s": {r.pattern.name: round(r.seconds, 3) for r in results}}


def bench_tv(repeat: int) -> list[dict[str, object]]:
    text = fifty_op_function()
    rows: list[dict[str, object]] = []
    for passes in (pipeline.MIDEND_PIPELINES[2], "canonicalize", "ember-rewrites", "int-range-optimizations"):
        times = []
        status = ""
        for _ in range(repeat):
            with runner.measure() as used:
                (r,) = tv.validate_text(text, "bench.mlir", passes)
            times.append(used.wall)
            status = r.status
        label = "-O2 pipeline" if passes == pipeline.MIDEND_PIPELINES[2] else passes
        rows.append({"passes": label, "median_s": statistics.median(times), "min_s": min(times), "max_s": max(times),
                     "n": repeat, "status": status})
    print(report.table(["TV of a 50-op i32 function", "median s", "min s", "max s", "n", "status"],
                       [[r["passes"], f"{r['median_s']:.3f}", f"{r['min_s']:.3f}", f"{r['max_s']:.3f}", r["n"], r["status"]]
                        for r in rows], numeric=[False, True, True, True, True, False]))
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = report.arguments("bench.verify", __doc__)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--skip-patterns", action="store_true")
    args = ap.parse_args(argv)
    record: dict[str, object] = {}
    if not args.skip_patterns:
        record["patterns"] = bench_patterns(args.jobs)
    record["tv"] = bench_tv(args.repeat)
    report.write_json(args.json, record)


if __name__ == "__main__":
    main()
