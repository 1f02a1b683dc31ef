"""Reducer benchmark: `ember reduce` vs `llvm-reduce -j2`, same interestingness script, side by side.

Two suites (each case is a miscompile made by a deliberately broken back-end variant,
selectable only from code, the power check's faults):

* `findings`: for each fault, the first failing program of a fuzz campaign (the
  power check's `llvm-ir` strategy, not shrunk), as the fuzzer saved it;
* `generated`: generated N-function modules (`fuzz.genmodule`, default 500) for the
  faults that show on them.

Every reducer gets the same script (exit 0 = the candidate still fails with the same
signature *and* the same split build without the fault agrees with the unsplit one, so
the bug is the fault's, not nondeterminism or undefined behaviour; each call a fresh
process building in-process) and `-j2`.
`ember reduce` is also run with its built-in property (checks in-process, no script).
A reducer past `--timeout` is stopped; its best-so-far output is measured (llvm-reduce
saves each new best reduction to its output file too). Run on an idle machine:

    .venv/bin/python -m bench.reduce --suite findings
    .venv/bin/python -m bench.reduce --suite generated --functions 500 --timeout 1500
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench import report, runner
from compiler.backend import engine
from compiler.backend.split_mode import SplitMode
from fuzz.genmodule import ModuleShape, generate
from fuzz.reduce.engine import lines_of

FAULTS = ("skip-linkage-restore", "drop-section-offsets", "duplicate-internal-global", "drop-ctors", "merge-specialised-copies")

SCRIPT = """#!{python}
import os
import sys
os.environ["EMBER_INPROCESS_J1"] = "1"  # no worker pool per candidate: the script is the unit of parallelism
from pathlib import Path
from fuzz.reduce import interestingness
settings = interestingness.Settings(**{settings!r}, faults=frozenset({{{fault!r}}}))
sig = interestingness.signature(Path(sys.argv[-1]), "split-mismatch", settings)
sys.exit(0 if sig == {wanted!r} else 1)
"""

BUILTIN = """
from fuzz.reduce import interestingness, reduce_command
settings = interestingness.Settings(**{settings!r}, faults=frozenset({{{fault!r}}}))
reduce_command.reduce_file({src!r}, {out!r}, prop="split-mismatch", test=None, settings=settings, jobs=2, time_budget=None, quiet=True)
"""


@dataclass
class Case:
    """One miscompile to reduce: the module, the fault that makes it, the build settings, its signature."""

    name: str
    module: str
    fault: str
    settings: dict[str, object]
    wanted: str


def finding_cases(seed: int, tmp: Path) -> list[Case]:
    """The first finding of a fuzz campaign per fault, with build settings taken from its failing check."""
    from fuzz.campaign import Campaign, CampaignConfig

    cases = []
    for fault in FAULTS:
        config = CampaignConfig(
            strategy="llvm-ir", faults=frozenset({fault}), opt_check=False, findings_root=tmp / "findings", shrink_seconds=0.0
        )
        result = Campaign(config, seed=seed, name=f"bench:{fault}").run(examples=199, database=None, shrink=False)
        if result.failure is None:
            print(f"{fault}: no finding in 199 programs (seed {seed})", file=sys.stderr)
            continue
        report = result.failure.report
        if report.case.support is not None:
            print(f"{fault}: the finding needs a support module; skipped", file=sys.stderr)
            continue
        modes = [c.split for c in report.plan.configs if c.split != "none" and c.candidate is None]
        case = _case_for(f"finding/{fault}", report.case.module, fault, modes, report.plan.opt, report.plan.cost, tmp)
        if case is not None:
            cases.append(case)
    return cases


def _case_for(name: str, module: str, fault: str, modes: list[str], opt: int, cost: int | None, tmp: Path) -> Case | None:
    """The first split mode under which the module fails at -j1 (in-process builds), as a case."""
    from fuzz.reduce import interestingness

    src = tmp / "probe.ll"
    src.write_text(module)
    for mode in dict.fromkeys(modes):
        settings: dict[str, object] = {"split": str(mode), "opt_level": opt, "subgraph_cost": cost}  # plain text: the script repeats it
        wanted = interestingness.signature(src, "split-mismatch", interestingness.Settings(**settings, faults=frozenset({fault})))  # type: ignore[arg-type]
        if wanted is not None:
            return Case(name, module, fault, settings, wanted)
    print(f"{name}: does not fail at -j1 under any of its split modes; skipped", file=sys.stderr)
    return None


def generated_cases(functions: int, seed: int, faults: list[str], tmp: Path) -> list[Case]:
    """A generated module per fault, when the fault shows on it (split two-level, cost 50, -O2)."""
    module = generate(seed, ModuleShape(functions=functions))
    cases = []
    for fault in faults:
        case = _case_for(f"generated-{functions}/{fault}", module, fault, [SplitMode.TWO_LEVEL], 2, 50, tmp)
        if case is not None:
            cases.append(case)
    return cases


def run_case(case: Case, tmp: Path, timeout: float, tools: list[str]) -> dict[str, object]:
    """Each reducer on the case, one after the other; wall seconds and final (or best-so-far) lines."""
    work = tmp / case.name.replace("/", "-")
    work.mkdir(parents=True)
    src = work / "in.ll"
    src.write_text(case.module)
    script = work / "interesting.py"
    script.write_text(SCRIPT.format(python=sys.executable, settings=case.settings, fault=case.fault, wanted=case.wanted))
    script.chmod(0o755)
    ember = runner.ember_command()
    llvm_reduce = str(engine.tools_dir() / "llvm-reduce")
    runs = {
        "ember --test": ([*ember, "reduce", str(src), "-o", f"{work}/ember.ll", "--test", str(script), "-j", "2"], f"{work}/ember.ll"),
        "ember built-in": (
            [sys.executable, "-c", BUILTIN.format(settings=case.settings, fault=case.fault, src=str(src), out=f"{work}/builtin.ll")],
            f"{work}/builtin.ll",
        ),
        "llvm-reduce": ([llvm_reduce, "-j", "2", f"--test={script}", str(src), "-o", f"{work}/llvm.ll"], f"{work}/llvm.ll"),
    }
    row: dict[str, object] = {"case": case.name, "input_lines": lines_of(case.module), "signature": case.wanted}
    for tool in tools:
        cmd, out = runs[tool]
        step = runner.run_children([cmd], runner.ember_env(), timeout=timeout, cwd=work)
        status = "timeout" if step.timed_out else "ok"
        if step.failed:
            status = "failed: " + ((step.stderr.strip().splitlines() or ["?"])[-1][:80])
        lines = lines_of(Path(out).read_text()) if Path(out).exists() else None
        row[tool] = {"seconds": round(step.wall, 1), "cpu_s": round(step.cpu, 1), "peak_mb": round(step.peak_mb),
                     "lines": lines, "status": status}
        print(f"  {case.name:<40} {tool:<15} {step.wall:>8.1f}s {lines if lines is not None else '-':>7} lines  {status}", flush=True)
    return row


def print_table(rows: list[dict[str, object]], tools: list[str]) -> None:
    head = ["case", "input lines"] + [f"{t} {what}" for t in tools for what in ("s", "CPU s", "lines")]
    body: list[list[object]] = []
    for row in rows:
        cells: list[object] = [row["case"], row["input_lines"]]
        for t in tools:
            r = row[t]
            assert isinstance(r, dict)
            mark = "" if r["status"] == "ok" else ("*" if r["status"] == "timeout" else "!")
            cells += [f"{r['seconds']}{mark}", r["cpu_s"], r["lines"] if r["lines"] is not None else "-"]
        body.append(cells)
    print(report.table(head, body, numeric=[False] + [True] * (len(head) - 1)))
    print("* stopped at the timeout: lines are its best so far; ! the reducer failed")


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments("bench.reduce", __doc__)
    ap.add_argument("--suite", choices=["findings", "generated"], default="findings")
    ap.add_argument("--functions", type=int, default=500, help="module size for the generated suite")
    ap.add_argument("--faults", default=",".join(FAULTS), help="comma-separated faults (generated suite)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=1200, help="seconds each reducer may take per case")
    ap.add_argument("--tools", default="ember --test,ember built-in,llvm-reduce")
    ap.add_argument("--skip", default="", help="comma-separated case names to leave out")
    ap.add_argument("--keep", type=Path, default=None, help="copy each case's inputs and reduced outputs here")
    args = ap.parse_args(argv)
    tools = args.tools.split(",")
    with tempfile.TemporaryDirectory(prefix="ember-reduce-bench-") as tmp_name:
        tmp = Path(tmp_name)
        if args.suite == "findings":
            cases = finding_cases(args.seed, tmp)
        else:
            cases = generated_cases(args.functions, args.seed, args.faults.split(","), tmp)
        skip = set(filter(None, args.skip.split(",")))
        rows = [run_case(case, tmp, args.timeout, tools) for case in cases if case.name not in skip]
        if args.keep:
            shutil.copytree(tmp, args.keep, dirs_exist_ok=True, ignore=shutil.ignore_patterns("findings", "probe.ll"))
    print_table(rows, tools)
    report.write_json(args.json, {"suite": args.suite, "rows": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
