"""The differential property: `check(case, plan)` builds the reference and every
configuration of the plan and classifies what disagreed."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from fuzz.properties.build_runner import BuildRunner, default_lanes
from fuzz.properties.exports import export_failures
from fuzz.properties.model import (
    INTERP_LABEL,
    RUN_LIMITS,
    BuildConfig,
    BuildOutcome,
    CheckPlan,
    Failure,
    Report,
    Stats,
)
from fuzz.properties.signature import error_cause
from fuzz.strategies import FuzzCase
from oracle import runner


def check(
    case: FuzzCase,
    plan: CheckPlan,
    *,
    faults: frozenset[str] = frozenset(),
    stats: Stats | None = None,
    limits: runner.Limits = RUN_LIMITS,
    lanes: int | None = None,
    task_cache: Path | None = None,
) -> Report:
    """Run every check of `plan` on `case` and classify what disagreed (never raises on a finding).

    `lanes`: builds in flight at once (default `default_lanes()`; 1 is strictly sequential).
    `task_cache`: a folder where split builds reuse the subgraph tasks of earlier checks
    (`fuzz.task_cache`: a reducer's candidates share most subgraphs; the objects are the same).
    """
    stats = stats if stats is not None else Stats()
    stats.examples += 1
    report = Report(case, plan, faults)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ember-check-") as tmp:
        build_runner = BuildRunner(
            case, Path(tmp), faults=faults, stats=stats, limits=limits, lanes=lanes or default_lanes(), target=plan.target,
            task_cache=task_cache,
        )
        checks_before = stats.checks
        try:
            _run_plan(build_runner, plan, report)
        finally:
            build_runner.close()
            report.builds = {c.label: o for c, o in build_runner.builds.items()}
            report.checks = stats.checks - checks_before
    stats.wall += time.perf_counter() - start
    return report


def debug_failures(ref: BuildOutcome, cand: BuildOutcome) -> list[Failure]:
    """A `-g` split object against the `-g` serial one (`oracle.debuginfo`'s three checks)."""
    from oracle import debuginfo

    if ref.obj is None or cand.obj is None:
        return []
    r, c = ref.config.label, cand.config.label
    problems = debuginfo.verify(cand.obj)
    if problems is not None:
        return [Failure("debug-info", r, c, f"{c}: llvm-dwarfdump --verify: {problems.splitlines()[0]}", problems, "verify")]
    want, got = debuginfo.subprograms(ref.obj), debuginfo.subprograms(cand.obj)
    if want != got:
        detail = "\n".join([*(f"- {s}" for s in sorted(want - got)), *(f"+ {s}" for s in sorted(got - want))])
        return [Failure("debug-info", r, c, f"{c}: subprograms differ", detail, "subprograms")]
    lines = debuginfo.compare_lines(ref.obj, cand.obj)
    if lines.differences:
        return [Failure("debug-info", r, c, f"{c}: {lines.differences[0]}", "\n".join(lines.differences), "lines")]
    return []


def _run_plan(build_runner: BuildRunner, plan: CheckPlan, report: Report) -> None:
    opt_check = plan.opt_check and build_runner.case.runnable
    other_level = BuildConfig(opt=0 if plan.opt != 0 else 2, target=plan.target)
    build_runner.prefetch([plan.reference, *plan.configs, *([other_level] if opt_check else [])])
    interpreted: BuildOutcome | None = None
    if build_runner.case.is_ember:
        interpreted = build_runner.interpret()
        if interpreted.error is not None:
            kind = "hang" if interpreted.hang else "crash"
            report.failures.append(Failure(kind, "-", INTERP_LABEL, f"interpreter: {interpreted.error.splitlines()[0]}", interpreted.error))
            return
    ref = build_runner.build(plan.reference)
    if ref.error is not None:
        kind = "hang" if ref.hang else "crash"
        report.failures.append(
            Failure(kind, "-", ref.config.label, f"reference build failed: {ref.error.splitlines()[0]}", ref.error, error_cause(ref.error))
        )
        return
    if interpreted is not None:  # interpreter == compiled (--split none at the plan's -O)
        failures = build_runner.compare(interpreted, ref, symbols=False) + export_failures(build_runner.case.module, ref)
        report.failures += failures
        if failures:
            return
    if build_runner.case.runnable:
        build_runner.execute(ref)
    if build_runner.case.runnable and (ref.run is None or ref.run.outcome != "exit 0"):
        what = ref.run_error or (ref.run.outcome if ref.run else "no run")
        report.failures.append(Failure("crash", "-", ref.config.label, f"reference program did not exit 0: {what}", ""))
        return
    for config in plan.configs:
        report.failures += build_runner.compare(ref, build_runner.build(config), symbols=True)
        if plan.debug and config.debug and config.candidate is None:
            start = time.perf_counter()
            report.failures += debug_failures(ref, build_runner.build(config))
            build_runner._count("compare", time.perf_counter() - start, "checks")
    groups: dict[tuple[str, int, int | None], list[BuildOutcome]] = {}
    for config in plan.configs:
        if config.candidate is None and config.split != "none":
            groups.setdefault((config.split, config.opt, config.cost), []).append(build_runner.builds[config])
    for outcomes in groups.values():
        for other in outcomes[1:]:
            report.failures += build_runner.same_bytes(outcomes[0], other)
    if opt_check:
        baseline = interpreted if interpreted is not None else ref
        report.failures += build_runner.compare(baseline, build_runner.build(other_level), symbols=False)
