"""Whole-module triage side by side: `ember reduce` (triage) against `llvm-reduce` and the
generic `ember reduce --test`, given one interestingness script, on whole-module split-vs-serial
symbol differences: the Rust fat-LTO modules' real ones (kept by planting the back end as it
was), and a planted libcall fault in the two ~100,000-line C programs, jq and Lua (the default
cases).

    python -m bench.triage [--cases rust-regex+skip-whole-module-prefix,...] [--timeout 600] [--json FILE]
    python -m bench.triage --cases sqlite+no-inline-across-subgraphs --reducers ember-triage --timeout 600

A case is a corpus program (`rust-regex`: the Rust fat-LTO module; `sqlite`: the C corpus's
module, `fuzz.corpus.module_path`; since the whole-module prefix is the default, neither differs
as built today), or `PROGRAM+FAULT`: the same module with a deliberate
back-end fault (`fuzz.faults`, `PLANTED`) planted in every split build, the difference being
what the fault adds (the symbols the fault-free split build has as the serial one does).
`ember reduce` cannot plant a fault, so a planted case's `ember-triage` row runs the same
reduction (`reduce_file`, the triage) in a child `python -m bench.triage --planted-run`.
`ember-triage-no-plan` is the triage before it kept the failing build's plan (split cost 1
after the regions instead), for a side by side on one machine.

For each case the module's difference is established once (a serial and a split build);
the script (`python -m bench.triage --script DIFF.json CANDIDATE`) builds a
candidate serially and split and exits 0 when one of the difference's symbols is as it was
in both objects and the kinds of difference are the same, which is what the triage keeps.
Every reducer runs with `-j 2` (the split builds `-j 2` too) and a wall-clock limit; the
table gives lines (non-blank, non-comment), wall and CPU seconds (`bench.runner`: the
reducer and every process it waited for) and candidates per second where the reducer
reports them. Prints a Markdown table; `--json` keeps the raw rows.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from bench import report, runner
from compiler.backend import engine as llvm_engine
from fuzz.reduce import split_triage
from fuzz.reduce.engine import lines_of

ROOT = runner.ROOT
CORPUS = ROOT / ".cache" / "corpus" / "rust"
SPLIT, SPLIT_JOBS, OPT = "subgraph", 2, 2
#: the whole-module faults a case may plant (`PROGRAM+FAULT`)
#: (`skip-whole-module-prefix`: the split back end before its whole-module prefix, which had the
#: Rust modules' real differences until 2026-11-29: the default cases plant it to keep them)
PLANTED = ("keep-dead-across-subgraphs", "no-inline-across-subgraphs", "keep-dead-exported-locals", "skip-whole-module-prefix")


@dataclass
class Row:
    case: str
    reducer: str
    lines_before: int
    lines_after: int
    wall_s: float
    cpu_s: float
    candidates: int | None
    stopped: bool


def module_of(case: str) -> Path:
    """The corpus module of `case` (`rust-regex`: .cache/corpus/rust/rust-regex-*/module.bc, not -g;
    a C program: `fuzz.corpus.module_path`); `PROGRAM+FAULT` names PROGRAM's."""
    case = case.split("+", 1)[0]
    if not case.startswith("rust-"):
        from fuzz import corpus

        program = next((p for p in corpus.PROGRAMS if p.name == case), None)
        if program is None:
            raise SystemExit(f"no corpus program {case}")
        return corpus.module_path(program)
    found = sorted(p for p in CORPUS.glob(f"{case}-*/module.bc") if not p.parent.name.endswith("-g"))
    if not found:
        raise SystemExit(f"no module for {case} under {CORPUS} (bash ci/fetch_rust_corpus.sh)")
    return found[0]


def faults_of(case: str) -> tuple[str, ...]:
    """The faults `case` plants (`PROGRAM+FAULT+FAULT...`)."""
    faults = tuple(case.split("+")[1:])
    unknown = [f for f in faults if f not in PLANTED]
    if unknown:
        raise SystemExit(f"{case}: {unknown[0]} is not one of the planted faults ({', '.join(PLANTED)})")
    return faults


def planted_run(src: str, out: str, faults: str, budget: float, keep_plan: bool) -> int:
    """`ember reduce SRC --property symbol-difference` with `faults` planted (comma-separated; a
    child of `bench_case`, which measures it): the triage as the CLI runs it."""
    from fuzz.reduce import interestingness, reduce_command

    settings = interestingness.Settings(split=SPLIT, jobs=SPLIT_JOBS, opt_level=OPT,
                                        faults=frozenset(f for f in faults.split(",") if f))
    if not keep_plan:
        split_triage.KEEP_PLAN = False
    reduce_command.reduce_file(src, out, prop="symbol-difference", test=None, settings=settings, jobs=2,
                               time_budget=budget, allow_faults=True)
    return 0


def script_main(diff_json: str, candidate: str) -> int:
    """The interestingness script's body: 0 when `candidate` shows the difference."""
    data = json.loads(Path(diff_json).read_text())
    diff = split_triage.Difference(data["cause"], {k: (v[0], v[1]) for k, v in data["symbols"].items()},
                                   data["split"], data["jobs"], data["opt"], data["cost"],
                                   faults=tuple(data.get("faults", ())))
    with tempfile.TemporaryDirectory(prefix="triage-script-") as tmp:
        judge = split_triage.SymbolJudge(diff, set(), None, Path(tmp))
        return 0 if judge(Path(candidate).read_text()) else 1


def _write_script(work: Path, diff: split_triage.Difference) -> Path:
    diff_json = work / "difference.json"
    diff_json.write_text(json.dumps(asdict(diff)))
    script = work / "interesting.sh"
    script.write_text(f"#!/bin/sh\ncd {shlex.quote(str(ROOT))} && exec {shlex.quote(sys.executable)} -m "
                      f"bench.triage --script {shlex.quote(str(diff_json))} \"$1\"\n")
    script.chmod(0o755)
    return script


def _candidates(report: Path) -> int | None:
    if not report.exists():
        return None
    m = re.search(r"candidates tried: (\d+)", report.read_text())
    return int(m.group(1)) if m else None


def bench_case(case: str, timeout: float, work: Path, reducers: list[str]) -> list[Row]:
    """One case: the difference established once, then each reducer from the same .ll input."""
    from fuzz.reduce.reduce_command import load_ir_text

    work.mkdir(parents=True, exist_ok=True)
    text = split_triage.strip_debug(load_ir_text(str(module_of(case))))
    src = work / "input.ll"
    src.write_text(text)
    faults = faults_of(case)
    script = None
    if set(reducers) - {"ember-triage", "ember-triage-no-plan"}:  # a script's reducers: the difference once, here
        diff = split_triage.establish(text, SPLIT, SPLIT_JOBS, OPT, None, work, None, parallel=True, faults=faults)
        if diff is None:
            raise SystemExit(f"{case}: the split build's symbols no longer differ from the serial build's")
        print(f"{case}: {diff.render()}", file=sys.stderr, flush=True)
        script = _write_script(work, diff)
    ember = runner.ember_command()
    before = lines_of(text)
    rows = []
    for reducer in reducers:
        out = work / f"{reducer}.ll"
        if reducer in ("ember-triage", "ember-triage-no-plan") and (faults or reducer != "ember-triage"):
            cmd = [sys.executable, "-m", "bench.triage", "--planted-run", str(src), str(out), ",".join(faults),
                   str(timeout), "keep" if reducer == "ember-triage" else "no-plan"]
            limit = timeout + 300
        elif reducer == "ember-triage":
            cmd = [*ember, "reduce", str(src), "-o", str(out), "--property", "symbol-difference", "--split", SPLIT,
                   "--split-jobs", str(SPLIT_JOBS), "-j", "2", "--time-budget", str(timeout)]
            limit = timeout + 300  # the budget stops the reduction; the report's check comes after
        elif reducer == "ember-test":
            assert script is not None
            cmd = [*ember, "reduce", str(src), "-o", str(out), "--test", str(script), "-j", "2",
                   "--time-budget", str(timeout), "--test-timeout", "900"]
            limit = timeout + 300
        else:
            assert script is not None
            cmd = [str(llvm_engine.tools_dir() / "llvm-reduce"), f"--test={script}", "-j", "2", str(src), "-o", str(out)]
            limit = timeout
        step = runner.run_children([cmd], runner.ember_env(), timeout=limit, cwd=ROOT)
        (work / f"{reducer}.log").write_text(step.stderr)  # the reducer's progress lines, with their times
        after = lines_of(out.read_text()) if out.exists() else before
        rows.append(Row(case, reducer, before, after, round(step.wall, 1), round(step.cpu, 1),
                        _candidates(Path(f"{out}.report.txt")), step.timed_out))
        print(f"  {reducer}: {before} -> {after} lines, {step.wall:.0f} s wall, {step.cpu:.0f} s CPU"
              f"{' (stopped)' if step.timed_out else ''}{'' if out.exists() else ': ' + step.stderr.strip()[-300:]}",
              file=sys.stderr, flush=True)
    return rows


def table(rows: list[Row]) -> str:
    head = ["module", "reducer", "lines before", "lines after", "wall s", "CPU s", "candidates/s"]
    body = [[r.case, r.reducer, f"{r.lines_before:,}", f"{r.lines_after:,}",
             f"{r.wall_s:.0f}" + (" (stopped)" if r.stopped else ""), f"{r.cpu_s:.0f}",
             f"{r.candidates / r.wall_s:.3f}" if r.candidates and r.wall_s else "-"] for r in rows]
    return report.table(head, body, numeric=[False, False, True, True, True, True, True])


def main(argv: list[str] | None = None) -> int:
    ap = report.arguments("bench.triage", __doc__)
    ap.add_argument("--cases", default="rust-regex+skip-whole-module-prefix,rust-markdown+skip-whole-module-prefix,"
                                       "jq+no-inline-across-subgraphs,lua+no-inline-across-subgraphs")
    ap.add_argument("--reducers", default="ember-triage,llvm-reduce,ember-test")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds each reducer may take (default 600)")
    ap.add_argument("--work", metavar="DIR", help="keep inputs, scripts and outputs here (default: a temporary folder)")
    ap.add_argument("--script", nargs=2, metavar=("DIFF_JSON", "CANDIDATE"), help=argparse.SUPPRESS)
    ap.add_argument("--planted-run", nargs=5, metavar=("SRC", "OUT", "FAULTS", "BUDGET", "PLAN"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.script:
        return script_main(*args.script)
    if args.planted_run:
        src, out, faults, budget, plan = args.planted_run
        return planted_run(src, out, faults, float(budget), plan == "keep")
    rows: list[Row] = []
    root = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="ember-triage-bench-"))
    for case in [c for c in args.cases.split(",") if c]:
        rows += bench_case(case, args.timeout, root / case, [r for r in args.reducers.split(",") if r])
        report.write_json(args.json, {"command": " ".join(["python -m bench.triage", *(argv or sys.argv[1:])]),
                                      "rows": [asdict(r) for r in rows]})
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
