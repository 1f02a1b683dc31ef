"""`ember reduce`: shrink an input while it keeps the same failure signature (or a --test script says yes)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shlex
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from compiler import driver, outputs
from compiler.backend import llvm_stage
from compiler.diagnostics import EmberError, Location, UsageError
from fuzz.reduce import em_deltas, engine, interestingness
from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.table import IR_DELTAS


@dataclass(frozen=True)
class InputFormat:
    """How one kind of input is reduced: its delta table, validator, size measure, file suffix."""

    deltas: list[DeltaPass]
    validate: Callable[[str], bool]
    size: Callable[[str], int]
    suffix: str


LLVM_FORMAT = InputFormat(IR_DELTAS, engine.valid_ir, engine.lines_of, ".ll")
EMBER_FORMAT = InputFormat(em_deltas.EM_DELTAS, em_deltas.valid_source, em_deltas.source_lines, ".em")


def load_input(path: str) -> tuple[str, InputFormat]:
    """The input as text plus how to reduce it (.em source, or LLVM IR; bitcode is disassembled)."""
    if driver.input_kind(path) is driver.InputKind.EMBER:
        text = driver.read_input(path)
        assert isinstance(text, str)
        try:
            normal = em_deltas.normalise(text)
        except SyntaxError as exc:
            raise EmberError(f"invalid syntax: {exc.msg}", Location(path, exc.lineno or 0, exc.offset or 0)) from None
        if not em_deltas.valid_source(normal):
            raise EmberError("the program does not type-check (run `ember build` for the errors)", Location(path))
        return normal, EMBER_FORMAT
    return load_ir_text(path), LLVM_FORMAT


def load_ir_text(path: str) -> str:
    """The input as printed LLVM IR (bitcode is disassembled first)."""
    kind = driver.input_kind(path)
    if kind is driver.InputKind.BITCODE:
        data = driver.read_input(path, binary=True)
        assert isinstance(data, bytes)
        return str(llvm_stage.parse_bitcode(data, path))
    if kind is driver.InputKind.LLVM_IR:
        text = driver.read_input(path)
        assert isinstance(text, str)
        return str(llvm_stage.parse_ir(text, path))
    raise UsageError(f"{path}: ember reduce takes .em programs, .ll or .bc modules")


def reduce_file(
    path: str,
    out: str,
    *,
    prop: str | None,
    test: str | None,
    settings: interestingness.Settings,
    jobs: int,
    time_budget: float | None,
    quiet: bool = False,
    allow_faults: bool = False,
    test_timeout: float | None = None,
    evidence_slice: bool = True,
    task_cache: bool = True,
    split_triage: bool = True,
) -> engine.ReduceStats:
    """Reduce `path` into `out` (saved after every success) and write `out`.report.txt.

    With `split_triage`, `--property symbol-difference` on an LLVM module is a whole-module
    triage (`fuzz.reduce.split_triage`): the symbols themselves are kept, regions of the
    reference graph go first and cheap judgements come before both builds.

    With `task_cache`, a built-in property's split builds reuse every subgraph compiled for
    an earlier candidate of this reduction (`fuzz.task_cache`; the objects are the same).

    `path` may also be a findings directory: then the recorded check itself is the
    property (see `reduce_finding`), and `prop`/`test` must be None. With a built-in
    property and `evidence_slice`, an LLVM module is first cut to the slice around the
    symbols its failure names (`fuzz.reduce.evidence`), when that slice fails the same way.
    """
    _check_outputs(path, out, test)
    if Path(path).is_dir():
        if not (Path(path) / "finding.json").is_file():
            raise EmberError("no such file: a directory to reduce must be a findings directory",
                             Location(str(Path(path) / "finding.json")))
        if prop is not None or test is not None:
            raise UsageError("a findings directory is reduced by its own recorded check: drop --property/--test")
        return reduce_finding(path, out, jobs=jobs, time_budget=time_budget, quiet=quiet, allow_faults=allow_faults,
                              evidence_slice=evidence_slice, task_cache=task_cache)
    if (prop is None) == (test is None):
        raise UsageError("give exactly one of --property or --test")
    with _task_folder(task_cache and test is None) as tasks:
        if (split_triage and prop is not None and interestingness.classes_of(prop) == ("symbol-difference",)
                and (not settings.faults or allow_faults) and driver.input_kind(path) is not driver.InputKind.EMBER):
            return _triage_file(path, out, prop=prop, settings=settings, jobs=jobs, time_budget=time_budget, quiet=quiet,
                                tasks=tasks)
        return _reduce_text_file(path, out, prop=prop, test=test, settings=settings, jobs=jobs, time_budget=time_budget,
                                 quiet=quiet, test_timeout=test_timeout, evidence_slice=evidence_slice, tasks=tasks)


def _triage_file(
    path: str, out: str, *, prop: str, settings: interestingness.Settings, jobs: int, time_budget: float | None,
    quiet: bool, tasks: Path | None,
) -> engine.ReduceStats:
    """`reduce_file` of an LLVM module by whole-module triage of its symbol difference."""
    from fuzz.reduce import split_triage

    text = load_ir_text(path)

    def say(message: str) -> None:
        if not quiet:
            print(f"reduce: {message}", file=sys.stderr, flush=True)

    from fuzz import buildserver

    try:
        result = split_triage.triage(
            text, split=settings.split, split_jobs=settings.jobs, opt=settings.opt_level, cost=settings.subgraph_cost,
            jobs=jobs, time_budget=time_budget, task_cache=tasks, on_success=lambda t: outputs.write_output(out, t),
            say=say, faults=tuple(sorted(settings.faults)),
        )
    finally:
        buildserver.stop_all()  # gracefully: their workers' CPU then counts in this process's children's
    if result is None:
        raise EmberError(f"the input does not show '{prop}' with these settings", Location(path))
    outputs.write_output(out, result.text)
    polish = result.polish
    stats = engine.ReduceStats(
        initial_lines=LLVM_FORMAT.size(text), final_lines=LLVM_FORMAT.size(result.text),
        candidates=result.regions.candidates + polish.candidates, accepted=result.regions.accepted + polish.accepted,
        seconds=result.seconds, per_pass={"regions": result.regions.accepted, **polish.per_pass},
    )
    wanted = f"{prop} [{result.difference.render()}]"
    lines = [
        *_report_head(path, out, wanted, stats),
        f"started from: {result.started}",
        f"regions: {result.regions.candidates} candidates, {result.regions.accepted} accepted, "
        f"{result.regions.seconds:.0f}s, lines {' -> '.join(str(n) for n in result.regions.lines)}",
        f"judgements: {result.judge.render()}",
        "",
        "symbols kept (serial -> split): " + "; ".join(f"{n}: {r or 'absent'} -> {c or 'absent'}"
                                                       for n, (r, c) in result.difference.symbols.items()),
        "",
        "reproduce:",
        "  " + reproduce_command(out, dataclasses.replace(settings, subgraph_cost=result.difference.cost)),
    ]
    if result.needs_plan and result.difference.assignment is not None:
        import json

        outputs.write_output(out + ".plan.json", json.dumps(result.difference.assignment, indent=0, sort_keys=True) + "\n")
        why = ("no plain `--split-cost` shows it" if result.plan_checked else
               "not built without it: the time budget was spent first")
        lines += ["  (shows with the failing build's own split plan, kept in " + out + ".plan.json: "
                  f"`BuildHooks.plan_assignment`; {why})"]
    outputs.write_output(out + ".report.txt", "\n".join(lines) + "\n")
    return stats


@contextlib.contextmanager
def _task_folder(wanted: bool) -> Iterator[Path | None]:
    """The reduction's folder of compiled subgraphs (`fuzz.task_cache`), removed at its end;
    None when not `wanted`."""
    if not wanted:
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="ember-reduce-tasks-") as tmp:
        yield Path(tmp)


def _reduce_text_file(
    path: str,
    out: str,
    *,
    prop: str | None,
    test: str | None,
    settings: interestingness.Settings,
    jobs: int,
    time_budget: float | None,
    quiet: bool,
    test_timeout: float | None,
    evidence_slice: bool,
    tasks: Path | None,
) -> engine.ReduceStats:
    """`reduce_file` of one .em, .ll or .bc file (`tasks`: the folder of compiled subgraphs, or None)."""
    text, fmt = load_input(path)
    original_lines = fmt.size(text)
    started: str | None = None

    if test is not None:
        _check_script(test)
        limit = test_timeout if test_timeout is not None else settings.timeout_s * 6
        timeouts: list[float] = []

        def interesting(candidate: str) -> bool:
            return interestingness.script_says_interesting(test, candidate, fmt.suffix, limit, lambda: _timed_out(timeouts, limit, quiet))

        if not interestingness.script_says_interesting(test, text, fmt.suffix, limit, lambda: timeouts.append(limit)):
            if timeouts:
                raise EmberError(f"the --test script timed out after {limit:g}s on the input (raise --test-timeout)", Location(path))
            raise EmberError("the input is not interesting to the --test script", Location(path))
        wanted = f"--test {test}"
    else:
        assert prop is not None
        first = _judge_text(text, prop, settings, fmt.suffix, tasks)
        if first.reference_failure is not None:
            raise EmberError(f"nothing to compare against: {first.reference_failure}", Location(path))
        if first.text is None:
            raise EmberError(f"the input does not show '{prop}' with these settings", Location(path))
        wanted_sig = first.signature

        def interesting(candidate: str) -> bool:
            return _judge_text(candidate, prop, settings, fmt.suffix, tasks).signature == wanted_sig

        wanted = f"{prop} [{first.text}]"
        if evidence_slice:
            evidence_texts = [f"{f.summary}\n{f.detail}" for f in first.report.failures
                              if (f.classification, f.reference, f.candidate, f.cause) in wanted_sig]
            text, started = _start_from_evidence(text, fmt, evidence_texts, interesting, quiet)

    reduced, stats = _reduce_to_file(text, interesting, fmt, out, jobs=jobs, time_budget=time_budget, quiet=quiet)
    stats.initial_lines = original_lines
    _write_report(path, out, reduced, wanted, settings, prop, test, stats, fmt.suffix, started=started, tasks=tasks)
    return stats


def _start_from_evidence(
    text: str, fmt: InputFormat, failure_texts: list[str], interesting: Callable[[str], bool], quiet: bool
) -> tuple[str, str | None]:
    """The slice around the symbols the failure names, when it fails the same way; else `text`.
    Also says what it started from (None: the whole input)."""
    if fmt is not LLVM_FORMAT:
        return text, None
    from fuzz.reduce import evidence

    def said(s: evidence.Slice, ok: bool) -> None:
        if not quiet:
            what = ", ".join(s.anchors[:4]) + (f" (+{len(s.anchors) - 4})" if len(s.anchors) > 4 else "")
            print(f"reduce: slice of {what}: {s.lines} lines, {'same failure' if ok else 'not the same failure'}",
                  file=sys.stderr, flush=True)

    found = evidence.first_interesting(text, failure_texts, lambda t: fmt.validate(t) and interesting(t), said)
    if found is None:
        return text, None
    names = ", ".join(found.anchors[:8]) + (f" (+{len(found.anchors) - 8})" if len(found.anchors) > 8 else "")
    return found.text, f"the slice of {names} ({found.lines} lines), from the symbols the failure names"


def _check_script(test: str) -> None:
    """The --test script must exist, be a file and be executable: else one line, exit 2."""
    if not Path(test).exists():
        raise UsageError(f"--test {test}: interestingness script not found")
    if not Path(test).is_file():
        raise UsageError(f"--test {test}: not a file")
    if not os.access(test, os.X_OK):
        raise UsageError(f"--test {test}: not executable (chmod +x it, and give it a '#!' line)")


def _timed_out(seen: list[float], limit: float, quiet: bool) -> None:
    """Say (once) that the --test script hit its time limit: the candidate counts as not interesting."""
    if not seen and not quiet:
        print(
            f"\nreduce: note: the --test script timed out after {limit:g}s on a candidate "
            "(its process group killed; counted as not interesting; --test-timeout S changes the limit)",
            file=sys.stderr,
        )
    seen.append(limit)


def _check_outputs(path: str, out: str, test: str | None) -> None:
    """Neither the output nor its report may be the input, the --test script or a finding's file."""
    inputs = [path, *([test] if test else [])]
    if Path(path).is_dir():
        inputs += [str(p) for p in Path(path).iterdir()]
    outputs.check_output(out, inputs)
    if out == outputs.STDOUT:
        raise UsageError("-o -: ember reduce saves its best result as it goes and needs a file")
    outputs.check_output(out + ".report.txt", inputs, option="-o (its report)")


def _reduce_to_file(
    text: str,
    interesting: Callable[[str], bool],
    fmt: InputFormat,
    out: str,
    *,
    jobs: int,
    time_budget: float | None,
    quiet: bool,
) -> tuple[str, engine.ReduceStats]:
    """Run the engine with `fmt`'s table; `out` holds the best text from the start to the end."""

    def save(best: str) -> None:
        outputs.write_output(out, best)

    def progress(pass_name: str, lines: int) -> None:
        if not quiet:
            print(f"\rreduce: {pass_name:<28} {lines:>7} lines", end="", file=sys.stderr, flush=True)

    save(text)
    reduced, stats = engine.reduce_text(
        text, interesting, fmt.deltas, jobs=jobs, time_budget=time_budget, on_success=save, on_progress=progress,
        validate=fmt.validate, measure=fmt.size,
    )
    save(reduced)
    if not quiet:
        print(file=sys.stderr)
    return reduced, stats


def _report_head(original: str, out: str, wanted: str, stats: engine.ReduceStats) -> list[str]:
    """The first lines of every reduction report: sizes, what was preserved, the work done."""
    return [
        f"reduced {original} -> {out}: {stats.initial_lines} -> {stats.final_lines} lines",
        f"preserved: {wanted}",
        f"candidates tried: {stats.candidates}, accepted: {stats.accepted}, {stats.seconds:.1f}s",
        "accepted per pass: " + ", ".join(f"{k} {v}" for k, v in stats.per_pass.items()),
    ]


def reduce_finding(
    path: str, out: str, *, jobs: int, time_budget: float | None, quiet: bool = False, allow_faults: bool = False,
    evidence_slice: bool = True, task_cache: bool = True,
) -> engine.ReduceStats:
    """Reduce a findings directory: keep the same classified failures of the recorded check.

    The property re-runs the finding's whole recorded plan and compares the set of (classification, reference, candidate) triples, so the
    reduced input fails exactly the way the fuzzer saw, not just somehow. With `evidence_slice`
    (triage, LLVM input) a candidate need only fail with the same classes and kinds of
    failure (`evidence.kinds`: `symbol-difference (added)`, whichever configurations show
    it), the plan becomes the finest split (`evidence.finest_plan`) when that shows the
    same kinds, and the reduction starts from the slice around the symbols the failure names.
    """
    with _task_folder(task_cache) as tasks:
        return _reduce_finding(path, out, jobs=jobs, time_budget=time_budget, quiet=quiet, allow_faults=allow_faults,
                               evidence_slice=evidence_slice, tasks=tasks)


def _reduce_finding(
    path: str, out: str, *, jobs: int, time_budget: float | None, quiet: bool, allow_faults: bool, evidence_slice: bool,
    tasks: Path | None,
) -> engine.ReduceStats:
    """`reduce_finding` with its folder of compiled subgraphs (`tasks`, or None)."""
    import dataclasses

    from fuzz import findings, properties

    root = Path(path)
    case, plan, faults = findings.load_report_inputs(root)
    if faults and not allow_faults:
        raise UsageError(
            f"{path}: this finding was made with deliberate back-end faults ({', '.join(sorted(faults))}); "
            "the ember CLI never enables them (use fuzz.reduce.reduce_command.reduce_finding from Python)"
        )
    fmt = EMBER_FORMAT if (root / "input.em").exists() else LLVM_FORMAT

    report = properties.check(case, plan, faults=faults, task_cache=tasks)
    wanted = properties.signature(report)
    if not wanted:
        raise EmberError("the finding no longer reproduces (its recorded check passes)", Location(path))
    plan_note = ""
    triage = evidence_slice and fmt is LLVM_FORMAT
    from fuzz.reduce import evidence

    if triage:
        fine = evidence.finest_plan(plan)
        if fine != plan:
            fine_sig = properties.signature(properties.check(case, fine, faults=faults, task_cache=tasks))
            if evidence.kinds(fine_sig) == evidence.kinds(wanted):
                plan, wanted = fine, fine_sig
                plan_note = "the finding's check at split cost 1 and piece cost 1 (the same classes and kinds of failure)"

    def failures_of(module: str) -> properties.Signature:
        return properties.signature(properties.check(dataclasses.replace(case, module=module), plan, faults=faults, task_cache=tasks))

    def interesting(c: str) -> bool:
        if triage:  # the class and kind of each failure, whichever configurations show it
            return evidence.kinds(failures_of(c)) == evidence.kinds(wanted)
        return failures_of(c) == wanted

    text, started = case.module, None
    if evidence_slice:
        text, started = _start_from_evidence(text, fmt, [f"{f.summary}\n{f.detail}" for f in report.failures], interesting, quiet)
    _, stats = _reduce_to_file(text, interesting, fmt, out, jobs=jobs, time_budget=time_budget, quiet=quiet)
    stats.initial_lines = fmt.size(case.module)
    preserved = properties.render_signature(wanted)
    if triage:
        kinds = ", ".join(f"{c} ({k})" for c, k in sorted(evidence.kinds(wanted)))
        preserved = f"{kinds}, by class and kind; first seen as: {preserved}"
    lines = [
        *_report_head(f"finding {path}", out, preserved, stats),
        *([f"started from: {started}"] if started else []),
        *([f"checked with: {plan_note}"] if plan_note else []),
        "",
        "reproduce: copy the reduced input over the finding's input and run its reproduce.sh, or",
        "  " + reproduce_command(out, interestingness.Settings(opt_level=plan.opt, subgraph_cost=plan.cost)),
    ]
    outputs.write_output(out + ".report.txt", "\n".join(lines) + "\n")
    return stats


def _judge_text(
    text: str, prop: str, settings: interestingness.Settings, suffix: str = ".ll", tasks: Path | None = None
) -> interestingness.Judgement:
    with tempfile.TemporaryDirectory(prefix="ember-reduce-") as tmp:
        path = Path(tmp) / f"candidate{suffix}"
        path.write_text(text)
        return interestingness.judge(path, prop, settings, tasks)


def reproduce_command(out: str, settings: interestingness.Settings) -> str:
    """The commands that show the failure on the reduced module."""
    q = shlex.quote(out)
    cost = f" --split-cost {settings.subgraph_cost}" if settings.subgraph_cost else ""
    return (
        f"ember build {q} -O{settings.opt_level} --split none -o ref.o && "
        f"ember build {q} -O{settings.opt_level} --split {settings.split} -j {settings.jobs}{cost} -o split.o && "
        "ember symdiff ref.o split.o; cc ref.o -o ref -lm && cc split.o -o split -lm && "
        "diff <(./ref) <(./split)"
    )


def _write_report(
    original: str,
    out: str,
    reduced: str,
    wanted: str,
    settings: interestingness.Settings,
    prop: str | None,
    test: str | None,
    stats: engine.ReduceStats,
    suffix: str = ".ll",
    *,
    started: str | None = None,
    tasks: Path | None = None,
) -> None:
    lines = [
        *_report_head(original, out, wanted, stats),
        *([f"started from: {started}"] if started else []),
        "",
        "reproduce:",
        "  " + (f"{test} {shlex.quote(out)}" if test else reproduce_command(out, settings)),
    ]
    if prop is not None and not settings.faults:
        lines += ["", "the reduced input's check:", _judge_text(reduced, prop, settings, suffix, tasks).report.diff_text().rstrip()]
    outputs.write_output(out + ".report.txt", "\n".join(lines) + "\n")
