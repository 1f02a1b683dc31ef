"""`ember reduce`, `fuzz`, `findings`, `compare` and `mutants`: the harness's subcommands
(registered through the `ember.commands` entry-point group)."""

from __future__ import annotations

import argparse
import sys

from compiler import cli
from compiler.backend import split_mode
from compiler.backend.split_mode import SplitMode
from compiler.diagnostics import UsageError


def cmd_reduce(args: argparse.Namespace) -> int:
    from fuzz.reduce import interestingness, reduce_command

    if args.jobs < 1:
        raise UsageError("-j must be at least 1")
    from compiler.backend.pool import MAX_JOBS, capped_jobs

    if args.jobs > MAX_JOBS:  # each job runs a test script or a build at once: as many as build workers
        print(f"ember: note: -j {args.jobs} capped at {MAX_JOBS} candidates at once (twice the cores, at most 64)", file=sys.stderr)
        args.jobs = capped_jobs(args.jobs)
    settings = interestingness.Settings(split=args.split, jobs=args.split_jobs, opt_level=args.opt_level, subgraph_cost=args.split_cost)
    try:
        stats = reduce_command.reduce_file(
            args.input, args.output, prop=args.property, test=args.test, settings=settings, jobs=args.jobs,
            time_budget=args.time_budget, test_timeout=args.test_timeout, evidence_slice=args.evidence_slice,
            task_cache=args.task_cache,
        )
    except KeyboardInterrupt:
        print(file=sys.stderr)  # end the progress line (the best result so far is in OUT)
        raise
    print(f"{args.output}: {stats.initial_lines} -> {stats.final_lines} lines (report: {args.output}.report.txt)")
    return 0


def cmd_mutants(args: argparse.Namespace) -> int:
    from fuzz.mutation import mutants_command

    if args.list:
        print(mutants_command.list_mutants())
        return 0
    return mutants_command.main(args.only, seed=args.seed, examples=args.examples, timeout_s=args.timeout, json_out=args.json,
                        control=args.control)


def cmd_fuzz(args: argparse.Namespace) -> int:
    from fuzz import fuzz_command

    return fuzz_command.cmd_fuzz(args)


def cmd_findings(args: argparse.Namespace) -> int:
    from fuzz import findings_command

    return findings_command.cmd_findings(args)


def cmd_compare(args: argparse.Namespace) -> int:
    from fuzz import compare_command

    return compare_command.cmd_compare(args)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the harness's subcommands to `ember`."""
    p = sub.add_parser("reduce", help="shrink a .em program or .ll/.bc module that shows a split-linkage failure")
    p.add_argument("input", help=".em program, .ll/.bc module, or a findings directory")
    p.add_argument("-o", "--output", required=True)
    how = p.add_mutually_exclusive_group()
    how.add_argument(
        "--property",
        choices=("any", "crash", "hang", "wrong-output", "symbol-difference",
                 "split-mismatch", "symtab-mismatch", "output-mismatch", "interp-mismatch"),
        help="keep the check's failures of this class (the fuzz properties' classes; `any`: the check fails at all; "
        "older names: split-mismatch = any, symtab-mismatch = symbol-difference, output-mismatch = wrong-output, "
        "interp-mismatch = any on a .em program)",
    )
    how.add_argument("--test", metavar="SCRIPT", help="interestingness script: exit 0 = interesting, candidate path last")
    p.add_argument("--test-timeout", type=cli.positive_seconds, default=None, metavar="S",
                   help="seconds before a --test script run is killed, counted as not interesting (default: 60)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="candidates evaluated in parallel")
    p.add_argument("--time-budget", type=cli.positive_seconds, default=None, metavar="S", help="stop after S seconds (best result kept)")
    p.add_argument("--split", default=SplitMode.TWO_LEVEL, choices=split_mode.names(split_mode.SPLITTING))
    p.add_argument("--split-jobs", type=int, default=1, help="-j of the split builds the property runs")
    p.add_argument("--split-cost", type=int, default=None)
    p.add_argument("--no-slice", dest="evidence_slice", action="store_false",
                   help="start from the whole module, not the slice around the symbols the failure names")
    p.add_argument("--no-task-cache", dest="task_cache", action="store_false",
                   help="compile every subgraph of every candidate afresh (default: reuse a subgraph compiled for an earlier candidate)")
    level = p.add_mutually_exclusive_group()
    for n in range(4):
        level.add_argument(f"-O{n}", dest="opt_level", action="store_const", const=n)
    p.set_defaults(func=cmd_reduce, opt_level=2)

    p = sub.add_parser("fuzz", help="differential fuzz campaign: split vs unsplit, -j, -O0 vs -O2; findings saved")
    from fuzz import compare_command, findings_command, fuzz_command

    fuzz_command.add_fuzz_arguments(p)
    p.set_defaults(func=cmd_fuzz)

    p = sub.add_parser("findings", help="list, show or re-run saved fuzz findings")
    findings_command.add_findings_arguments(p)
    p.set_defaults(func=cmd_findings)

    p = sub.add_parser("compare", help="compare a candidate compiler command with Ember's reference build of IN")
    compare_command.add_compare_arguments(p)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("mutants", help="mutation analysis: realistic compiler mistakes, a fixed-seed campaign on each")
    p.add_argument("--only", metavar="NAMES", help="comma-separated mutants (default: the whole suite)")
    p.add_argument("--list", action="store_true", help="list the mutants and exit")
    p.add_argument("--seed", type=int, default=1, help="campaign seed (default: 1)")
    p.add_argument("--examples", type=cli.positive_int, default=300, help="programs per mutant (default: 300)")
    p.add_argument("--timeout", type=cli.positive_seconds, default=1800.0, metavar="S",
                   help="seconds one mutant's campaign may take (default: 1800)")
    p.add_argument("--json", metavar="FILE", help="also write the outcomes here (after every mutant)")
    p.add_argument("--control", action="store_true",
                   help="first run each strategy's campaign on an unmodified copy and report what it finds")
    p.set_defaults(func=cmd_mutants)
