"""`ember verify`: prove the rewrite patterns, or validate a pass pipeline on a file."""

from __future__ import annotations

import argparse
import os
import re
import sys
import time

from compiler.cli import positive_seconds
from compiler.diagnostics import EmberError, Location, UsageError
from compiler.midend import rewrites
from compiler.midend.rewrites.dsl import Pattern, PatternError
from compiler.midend.rewrites.table import Rewrite


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of `ember verify` (equivalence/commands.py registers the subcommand)."""
    p.add_argument("input", nargs="?", help="with --tv: the .mlir file whose functions are validated")
    p.add_argument("--stats", action="store_true", help="print the time each pattern took")
    p.add_argument("--width", type=int, help="prove at this bit width only (1..64)")
    p.add_argument("--pattern", action="append", default=[], metavar="NAME", help="only this pattern (repeatable)")
    p.add_argument("--pattern-file", metavar="FILE", help="prove the patterns of FILE ('name: src => tgt [if pre]' lines)")
    p.add_argument("--include-known-bad", action="store_true", help="also check the known-bad patterns (they must fail)")
    p.add_argument("--all-widths", action="store_true",
                   help="keep proving a pattern at wider widths after it failed at a narrow one")
    p.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: all cores)")
    p.add_argument("--timeout", type=positive_seconds, default=120.0, help="seconds per solver query")
    p.add_argument("--tv", action="store_true", help="translation validation of --pass-pipeline on INPUT")
    p.add_argument("--pass-pipeline", default="", help="with --tv: the pipeline whose output must refine its input")
    p.add_argument("--target", metavar="FILE", help="with --tv: validate FILE against INPUT instead of running a pipeline")
    p.add_argument("--index-width", type=int, default=64, choices=(32, 64), help="with --tv: bits of index")
    p.add_argument("--unroll", type=int, default=64, help="with --tv: most scf.for iterations unrolled")


_LINE = re.compile(r"^\s*(?P<name>[A-Za-z0-9_.-]+)\s*(?:\[(?P<phase>\w+)\])?\s*:\s*(?P<text>.+?)\s*$")


def read_pattern_file(path: str) -> list[Pattern]:
    """Patterns of a file: `name: source => target [if pre]`, `name [helper]: ...` for
    spec-only sources, `#` comments, blank lines ignored. Errors point at the line."""
    from compiler import driver

    text = driver.read_input(path)
    assert isinstance(text, str)
    out: list[Pattern] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.split("#", 1)[0]
        if not stripped.strip():
            continue
        m = _LINE.match(stripped)
        if m is None:
            raise EmberError("expected 'name: source => target [if precondition]'", Location(path, number, 1))
        name, phase = m.group("name"), m.group("phase") or "simplify"
        if name in seen:
            raise EmberError(f"pattern {name!r} is declared twice", Location(path, number, 1))
        seen.add(name)
        try:
            out.extend(rewrites.load([Rewrite(name, m.group("text"), "", phase)]))
        except PatternError as exc:
            raise EmberError(str(exc), Location(path, number, m.start("text") + 1)) from None
    if not out:
        raise EmberError("no patterns in file", Location(path))
    return out


def _select_patterns(args: argparse.Namespace) -> tuple[list[Pattern], set[str]]:
    """The patterns to prove, and the names of those that are expected to fail."""
    from equivalence.known_bad import KNOWN_BAD

    pats = read_pattern_file(args.pattern_file) if args.pattern_file else rewrites.patterns()
    bad: set[str] = set()
    if args.include_known_bad:
        known = rewrites.load(KNOWN_BAD)
        pats = pats + known
        bad = {p.name for p in known}
    if args.pattern:
        names = {p.name for p in pats}
        unknown = [n for n in args.pattern if n not in names]
        if unknown:
            raise UsageError(f"unknown pattern '{unknown[0]}' (see --stats for the list)")
        pats = [p for p in pats if p.name in args.pattern]
        bad &= set(args.pattern)
    return pats, bad


def _widths_text(pats: list[Pattern], width: int | None) -> str:
    if width is not None:
        return f"width {width}"
    return "widths 1..64 and index 32/64"


def run_patterns(args: argparse.Namespace) -> int:
    from equivalence import verify

    if args.width is not None and not 1 <= args.width <= 64:
        raise UsageError("--width must be between 1 and 64")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("-j must be at least 1")
    pats, expected_bad = _select_patterns(args)
    skipped = [p.name for p in pats if not verify.width_labels(p, args.width)]
    if skipped:
        print(f"(not at width {args.width}, only at i1: {', '.join(skipped)})")
        pats = [p for p in pats if p.name not in skipped]
        expected_bad -= set(skipped)
    if not pats:
        raise UsageError("no pattern has a meaning at that width")
    start = time.perf_counter()
    results = verify.verify_patterns(pats, width=args.width, jobs=args.jobs, timeout_s=args.timeout,
                                     all_widths=args.all_widths)
    wall = time.perf_counter() - start
    failed = [r for r in results if not r.holds]
    for r in failed:
        first = r.first_failure()
        assert first is not None
        if first.status == "fail":
            print(first.counterexample)
            others = [w.width for w in r.widths if w.status == "fail" and w is not first]
            if others:
                shown = ", ".join(others[:12]) + (", ..." if len(others) > 12 else "")
                print(f"(also wrong at widths {shown})")
        else:
            print(f"pattern '{r.pattern.name}' could not be proved at width {first.width}: solver timeout")
        print()
    queries = sum(len(r.widths) for r in results)
    if args.stats:
        print(f"{'pattern':<28}{'widths':>7}{'total (s)':>11}{'slowest':>17}  result")
        for r in results:
            slow = max(r.widths, key=lambda w: w.seconds) if r.widths else None
            slowest = f"{slow.width}: {slow.seconds:.3f}" if slow else "-"
            verdict = "ok" if r.holds else ("WRONG" if any(w.status == "fail" for w in r.widths) else "unknown")
            print(f"{r.pattern.name:<28}{len(r.widths):>7}{r.seconds:>11.3f}{slowest:>17}  {verdict}")
        cpu = sum(r.seconds for r in results)
        jobs = args.jobs or os.cpu_count() or 1
        print(f"total: {len(results)} patterns, {queries} proofs, {wall:.2f} s wall, {cpu:.2f} s in the solver, {jobs} worker(s)")
    what = _widths_text(pats, args.width)
    if not failed:
        print(f"ember verify: all {len(results)} patterns hold at {what} ({queries} proofs, {wall:.1f} s)")
        return 0
    unexpected = [r.pattern.name for r in failed if r.pattern.name not in expected_bad]
    missed = sorted(expected_bad - {r.pattern.name for r in failed})
    print(f"ember verify: {len(failed)} of {len(results)} patterns are wrong or unproved at {what}: "
          + ", ".join(r.pattern.name for r in failed))
    if expected_bad and not unexpected and not missed:
        print("ember verify: every known-bad pattern was rejected")
    if missed:
        print(f"ember verify: known-bad patterns that were NOT rejected: {', '.join(missed)}")
    return 1


def run_tv(args: argparse.Namespace) -> int:
    from equivalence import tv

    if not args.input:
        raise UsageError("--tv needs an input .mlir file")
    if bool(args.pass_pipeline) == bool(args.target):
        raise UsageError("--tv needs exactly one of --pass-pipeline and --target")
    if args.unroll < 0:
        raise UsageError("--unroll must not be negative")
    kwargs = {"index_width": args.index_width, "unroll": args.unroll, "timeout_s": args.timeout}
    if args.target:
        results = tv.validate_files(args.input, args.target, **kwargs)
        what = f"{args.target} against {args.input}"
    else:
        results = tv.validate_file(args.input, args.pass_pipeline, **kwargs)
        what = f"'{args.pass_pipeline}' on {args.input}"
    bad = 0
    for r in results:
        if r.status == "ok":
            print(f"ok       @{r.name} ({r.seconds:.3f} s)")
        elif r.status == "skipped":
            print(f"skipped  @{r.name}: {r.detail}")
        elif r.status == "unknown":
            bad += 1
            print(f"unknown  @{r.name}: {r.detail}")
        else:
            bad += 1
            print(f"WRONG    @{r.name}")
            print(r.detail)
    checked = sum(r.status != "skipped" for r in results)
    if bad:
        print(f"ember verify --tv: {bad} of {checked} functions not validated for {what}")
        return 1
    print(f"ember verify --tv: {checked} functions validated for {what}"
          + (f", {len(results) - checked} skipped" if checked != len(results) else ""))
    return 0


def run(args: argparse.Namespace) -> int:
    """Entry point of `ember verify`."""
    if args.tv:
        return run_tv(args)
    if args.input or args.pass_pipeline or args.target:
        raise UsageError("an input file, --pass-pipeline and --target need --tv")
    sys.stdout.flush()
    return run_patterns(args)
