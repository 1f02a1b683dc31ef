"""`ember fuzz`, `ember findings` and `ember compare`: the harness's commands (wired into compiler/cli.py).

Only argparse is imported at module level so `ember --help` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path

from compiler.cli import positive_seconds
from compiler.diagnostics import UsageError

STRATEGY_CHOICES = ("callgraph", "linkage", "ember", "kernels", "llvm-ir", "corpus", "mixed")  # = fuzz.strategies.STRATEGIES


@contextlib.contextmanager
def _hypothesis_home(*, private: bool) -> Iterator[None]:
    """With `--no-database`, Hypothesis keeps its caches (`constants/`, ...) in a temporary
    directory, so nothing is written under `./.hypothesis`."""
    if not private:
        yield
        return
    from hypothesis import configuration

    with tempfile.TemporaryDirectory(prefix="ember-hypothesis-") as home:
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(None)


def _check_store(root: Path | None, option: str = "--findings") -> None:
    """A findings store option must name a directory (or nothing yet), checked before any work."""
    if root is not None and root.exists() and not root.is_dir():
        raise UsageError(f"{option} {root}: not a directory")


def add_fuzz_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--examples", type=int, default=200, help="programs to generate (default: %(default)s)")
    p.add_argument("--seed", type=int, default=None, help="Hypothesis seed (default: random, printed)")
    p.add_argument("--strategy", choices=STRATEGY_CHOICES, default="mixed", help="program generator (default: %(default)s)")
    p.add_argument("--max-seconds", type=positive_seconds, default=75.0, help="stop generating after this long (default: %(default)s)")
    p.add_argument("--shrink-seconds", type=positive_seconds, default=30.0, help="time allowed to shrink a failure (default: %(default)s)")
    p.add_argument("-j", "--jobs", default="1,2", help="job counts the split builds use, e.g. 1,2 (default: %(default)s)")
    p.add_argument(
        "--lanes", type=int, default=None,
        help="builds of one program in flight at once (default: $EMBER_CHECK_LANES, else the CPU count, at most 6)",
    )
    p.add_argument("--modes", default="subgraph,function,two-level", help="split modes to compare with --split none")
    p.add_argument("--candidate", metavar="TEMPLATE", help="also compare this compiler command ({in} -> {out})")
    p.add_argument("--findings", type=Path, default=None, help="findings store (default: $EMBER_FINDINGS or ./findings)")
    p.add_argument("--report-known", action="store_true", help="save findings for known open bugs too (fuzz/regressions)")
    p.add_argument("--no-database", action="store_true", help="do not replay or record examples in .hypothesis/ember")
    p.add_argument(
        "-g", "--debug-info", action="store_true",
        help="also build one plan in four with -g and check its DWARF (verify, subprograms, lines) against the serial build",
    )


def add_findings_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("list", "show", "reproduce"))
    p.add_argument("finding", nargs="?", help="finding id (or a unique prefix/suffix) or directory")
    p.add_argument("--root", type=Path, default=None, help="findings store (default: $EMBER_FINDINGS or ./findings)")


def add_compare_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help=".ll module with a main (what both compilers build)")
    p.add_argument("--candidate", required=True, metavar="TEMPLATE", help="compiler command with {in} and {out}")
    level = p.add_mutually_exclusive_group()
    for n in range(4):
        level.add_argument(f"-O{n}", dest="opt_level", action="store_const", const=n)
    p.set_defaults(opt_level=2)
    p.add_argument("--support", metavar="LL", help="module compiled once and linked next to both objects")
    p.add_argument("--findings", type=Path, default=None, help="findings store (default: $EMBER_FINDINGS or ./findings)")
    p.add_argument("--no-save", action="store_true", help="do not save a finding when they differ")


def cmd_fuzz(args: argparse.Namespace) -> int:
    from compiler.cli import int_list
    from fuzz import findings, profiles, properties
    from fuzz.campaign import Campaign, CampaignConfig

    if args.examples < 1:
        raise UsageError("--examples must be at least 1")
    if args.lanes is not None and args.lanes < 1:
        raise UsageError("--lanes must be at least 1")
    if args.lanes is None:
        args.lanes = properties.default_lanes()  # once, and a bad $EMBER_CHECK_LANES is said before any work
    if args.strategy == "corpus":  # say so before any work, not from inside a draw
        from compiler.diagnostics import EmberError
        from fuzz.strategies import corpus_slices

        try:
            corpus_slices.available()
        except corpus_slices.CorpusUnavailable as exc:
            raise EmberError(str(exc)) from None
    modes = tuple(m for m in args.modes.split(",") if m)
    bad = [m for m in modes if m not in properties.SPLIT_MODES]
    if bad:
        raise UsageError(f"unknown split mode(s) {', '.join(bad)} (choose from {', '.join(properties.SPLIT_MODES)})")
    if args.candidate is not None:
        from oracle.candidate import CandidateCommand

        CandidateCommand(args.candidate)  # validates the template
    _check_store(args.findings)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    root = args.findings or findings.default_root()
    config = CampaignConfig(
        strategy=args.strategy,
        modes=modes,
        jobs=int_list(args.jobs, "-j"),
        candidate=args.candidate,
        findings_root=root,
        shrink_seconds=args.shrink_seconds,
        time_budget=args.max_seconds,
        report_known=args.report_known,
        lanes=args.lanes,
        debug=None if args.debug_info else False,
    )
    print(
        f"ember fuzz: seed {seed}, {args.examples} programs ({args.strategy}) at most {args.max_seconds:g}s, "
        f"split {','.join(modes)} -j {args.jobs} vs --split none; findings -> {root}",
        flush=True,
    )
    campaign = Campaign(config, seed=seed, progress=lambda line: print(f"  {line}", flush=True))
    with _hypothesis_home(private=args.no_database):
        database = None if args.no_database else profiles.example_database()
        result = campaign.run(examples=args.examples, database=database)
    print(result.stats.render())
    print(result.coverage_text())
    print(f"campaign fingerprint {result.fingerprint} (programs, builds and verdicts: one seed, one print with --no-database)")
    for name, count in sorted(result.known.items()):
        print(f"known open bug '{name}' hit {count} time(s) (see fuzz/regressions; --report-known saves them)")
    if not result.found:
        print(f"no failures in {result.stats.examples} programs ({result.seconds:.0f}s)")
        return 0
    print(f"FAILED after {result.examples_to_failure} programs ({result.seconds_to_failure or 0:.1f}s):")
    for path in result.findings:
        info = findings.info(path)
        print(f"  {path}  {info.classification}  {info.summary[:100]}")
    print(f"inspect with: ember findings show {result.findings[-1].name}" if result.findings else "")
    return 1


def cmd_findings(args: argparse.Namespace) -> int:
    from fuzz import findings

    _check_store(args.root, "--root")
    if args.action == "list":
        print(findings.format_list(findings.list_findings(args.root)))
        return 0
    if not args.finding:
        raise UsageError(f"'ember findings {args.action}' needs a finding id or directory")
    path = findings.resolve(args.finding, args.root)
    if args.action == "show":
        print(findings.show(path))
        return 0
    report = findings.reproduce(path, allow_faults=False)
    if report.ok:
        print(f"does not reproduce: {report.summary()}")
        return 0
    print(report.diff_text(), end="")
    return 1


def cmd_compare(args: argparse.Namespace) -> int:
    from compiler import driver
    from fuzz import findings
    from oracle import candidate

    if driver.input_kind(args.input) is not driver.InputKind.LLVM_IR:
        raise UsageError(f"{args.input}: 'ember compare' takes an .ll module")
    candidate.CandidateCommand(args.candidate)  # a bad template is bad usage, before any build
    _check_store(args.findings)
    driver.read_input(args.input)  # a located error for a missing file
    if args.support:
        driver.read_input(args.support)
    from fuzz.properties import compare_file

    report = compare_file(args.input, args.candidate, opt_level=args.opt_level, support=args.support)
    for label, outcome in report.builds.items():
        state = outcome.error.splitlines()[0] if outcome.error else (outcome.run.outcome if outcome.run else "built")
        print(f"{label:<28} {state}")
    if report.ok:
        print("candidate agrees with the reference: same non-local symbols, no leaked local, same behaviour")
        return 0
    print(report.diff_text(), end="")
    if not args.no_save:
        path = findings.save(report, root=args.findings, test="ember compare")
        print(f"finding saved: {path}")
    return 1
