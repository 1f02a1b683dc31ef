"""Benchmark translation validation: wall time per function for the upstream passes.

    .venv/bin/python -m bench.tv [--examples 6] [--widths 8,16,32,64] [--timeout 60] [--json FILE]

Prints one line per (pass, function): its width, status and TV wall time, then per pass
the median and maximum; first the division expansions (`arith-expand` on `ceildivsi`,
`floordivsi`, `remsi`) at i32 and i64. Functions come from the property test's strategy
(`equivalence/tv_programs.py`, derandomised, so every run validates the same ones).
"""

from __future__ import annotations

import statistics

from hypothesis import HealthCheck, Phase, given, settings

from bench import report
from equivalence import tv
from equivalence.tv_programs import (
    DIVISION_FUNCTION,
    NESTED_DIVISION_FUNCTION,
    arith_functions,
)

UPSTREAM = ["arith-expand", "canonicalize", "sccp", "cse", "int-range-optimizations"]
DIVISIONS = DIVISION_FUNCTION + NESTED_DIVISION_FUNCTION


def functions(widths: tuple[int, ...], count: int, max_ops: int) -> list[str]:
    """`count` generated arith/scf functions, the same on every run."""
    out: list[str] = []

    @settings(max_examples=count, derandomize=True, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), deadline=None)
    @given(arith_functions(widths, max_ops, loops=True))
    def collect(text: str) -> None:
        out.append(text)

    collect()
    return out[:count]


def width_of(text: str) -> str:
    """The integer type of a generated function (its first argument's)."""
    return text.split("%a: ", 1)[1].split(",", 1)[0]


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments("bench.tv", __doc__)
    ap.add_argument("--examples", type=int, default=6, help="generated functions per pass")
    ap.add_argument("--widths", default="8,16,32,64")
    ap.add_argument("--max-ops", type=int, default=12)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per function (tv's budget)")
    args = ap.parse_args(argv)
    rows: list[dict[str, object]] = []
    expand = "builtin.module(func.func(arith-expand))"
    for w in (32, 64):
        for r in tv.validate_text(DIVISIONS.replace("iW", f"i{w}"), "div.mlir", expand, timeout_s=args.timeout):
            print(f"arith-expand  division  @{r.name:<8} i{w:<3} {r.status:<8} {r.seconds:7.3f} s  {r.detail}")
            rows.append({"pass": "arith-expand", "function": r.name, "width": f"i{w}", "status": r.status, "seconds": r.seconds})
    texts = functions(tuple(int(w) for w in args.widths.split(",")), args.examples, args.max_ops)
    summary = []
    for pass_name in UPSTREAM:
        times = []
        for n, text in enumerate(texts):
            (r,) = tv.validate_text(text, "gen.mlir", f"builtin.module(func.func({pass_name}))", timeout_s=args.timeout)
            times.append(r.seconds)
            print(f"{pass_name:<24} #{n:<2} {width_of(text):<4} {r.status:<8} {r.seconds:7.3f} s  {r.detail}")
            rows.append({"pass": pass_name, "function": f"#{n}", "width": width_of(text), "status": r.status, "seconds": r.seconds})
        summary.append([pass_name, f"{statistics.median(times):.3f}", f"{max(times):.3f}", len(times)])
    print(report.table(["pass", "median s", "max s", "functions"], summary))
    report.write_json(args.json, {"rows": rows})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
