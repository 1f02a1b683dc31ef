"""`ember fuzz`: a differential campaign from the command line (registered by fuzz/commands.py).

Only argparse and the strategy names are imported at module level so `ember --help` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import tempfile
from collections.abc import Iterator
from pathlib import Path

from compiler.backend import split_mode
from compiler.cli import positive_seconds
from compiler.diagnostics import UsageError
from fuzz.findings_command import check_store
from fuzz.strategy_names import STRATEGIES


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


def add_fuzz_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--examples", type=int, default=200, help="programs to generate (default: %(default)s)")
    p.add_argument("--seed", type=int, default=None, help="Hypothesis seed (default: random, printed)")
    p.add_argument("--strategy", choices=STRATEGIES, default="mixed", help="program generator (default: %(default)s)")
    p.add_argument("--time-budget", type=positive_seconds, default=75.0, metavar="S",
                   help="stop generating after S seconds (default: %(default)s)")
    p.add_argument("--max-seconds", dest="time_budget", type=positive_seconds, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.add_argument("--shrink-seconds", type=positive_seconds, default=30.0, help="time allowed to shrink a failure (default: %(default)s)")
    p.add_argument("-j", "--jobs", default="1,2", help="job counts the split builds use, e.g. 1,2 (default: %(default)s)")
    p.add_argument(
        "--lanes", type=int, default=None,
        help="builds of one program in flight at once (default: $EMBER_CHECK_LANES, else the CPU count, at most 6)",
    )
    p.add_argument(
        "--modes", default=",".join(split_mode.SPLITTING), help="split modes to compare with --split none (default: %(default)s)"
    )
    p.add_argument("--candidate", metavar="TEMPLATE", help="also compare this compiler command ({in} -> {out})")
    p.add_argument("--findings", type=Path, default=None, metavar="DIR", help="findings store (default: $EMBER_FINDINGS or ./findings)")
    p.add_argument("--report-known", action="store_true", help="save findings for known open bugs too (fuzz/regressions)")
    p.add_argument("--no-database", action="store_true", help="do not replay or record examples in .hypothesis/ember")
    p.add_argument(
        "-g", "--debug-info", action="store_true",
        help="build one plan in four with -g, not one in eight, and check its DWARF (verify, subprograms, lines) "
        "against the serial build",
    )
    p.add_argument(
        "--target", metavar="TRIPLE", default=None,
        help="build every program for TRIPLE (aarch64-linux-gnu), link it with the cross gcc and run it under QEMU "
        "(default: the host; fuzz/cross.py)",
    )
    from fuzz.fleet import options as fleet_options

    fleet_options.add_fuzz_arguments(p)  # --redis, --status, --html


#: strategies whose programs are host-only: GPU kernels run on the host's grid emulator, corpus
#: slices are x86-64 bitcode
_HOST_ONLY_STRATEGIES = ("kernels", "corpus")


def _check_target(args: argparse.Namespace) -> None:
    """`--target`: one the harness can link and run here (fuzz/cross.py), with a strategy and
    no candidate that would build for the host; said before any work."""
    if args.target is None:
        return
    from compiler.diagnostics import EmberError
    from fuzz import cross

    if args.target not in cross.RUNNABLE:
        raise UsageError(f"--target {args.target}: the campaign links and runs {', '.join(cross.RUNNABLE)} only (or the host: no --target)")
    if args.strategy in _HOST_ONLY_STRATEGIES:
        raise UsageError(f"--strategy {args.strategy} makes host-only programs; it cannot run with --target")
    if args.candidate is not None:
        raise UsageError("--candidate builds for the host; it cannot run with --target")
    reason = cross.missing()
    if reason is not None:
        raise EmberError(f"--target {args.target}: cannot run its programs here: {reason}")


def cmd_fuzz(args: argparse.Namespace) -> int:
    from compiler.cli import int_list
    from fuzz import findings, profiles, properties
    from fuzz.campaign import Campaign, CampaignConfig
    from fuzz.fleet import commands as fleet
    from fuzz.strategies import plans

    status = fleet.fuzz_status(args)  # --status/--html: the fleet's picture, no campaign
    if status is not None:
        return status
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
    bad = [m for m in modes if m not in split_mode.SPLITTING]
    if bad:
        raise UsageError(f"unknown split mode(s) {', '.join(bad)} (choose from {', '.join(split_mode.SPLITTING)})")
    _check_target(args)
    if args.candidate is not None:
        from oracle.candidate import CandidateCommand

        CandidateCommand(args.candidate)  # validates the template
    check_store(args.findings)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    root = args.findings or findings.default_root()
    config = CampaignConfig(
        strategy=args.strategy,
        modes=modes,
        jobs=int_list(args.jobs, "-j"),
        candidate=args.candidate,
        findings_root=root,
        shrink_seconds=args.shrink_seconds,
        time_budget=args.time_budget,
        report_known=args.report_known,
        lanes=args.lanes,
        debug=None,
        debug_one_in=4 if args.debug_info else plans.DEBUG_ONE_IN,
        target=args.target,
    )
    print(
        f"ember fuzz: seed {seed}, {args.examples} programs ({args.strategy}) at most {args.time_budget:g}s, "
        f"split {','.join(modes)} -j {args.jobs} vs --split none{f' for {args.target}' if args.target else ''}; findings -> {root}",
        flush=True,
    )
    session = fleet.start_session(args, seed, root)  # --redis / $EMBER_REDIS_URL: findings and coverage shared
    campaign = Campaign(
        config, seed=seed, progress=lambda line: print(f"  {line}", flush=True),
        on_finding=session and session.finding_saved, on_progress=session and session.progress,
    )
    with _hypothesis_home(private=args.no_database):
        database = None if args.no_database else profiles.example_database(redis_url=args.redis)
        result = campaign.run(examples=args.examples, database=database)
    fleet.end_session(session, result)
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
