"""`ember compare`: an external candidate compiler against Ember's reference build of one
module (registered by fuzz/commands.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from compiler.diagnostics import UsageError
from fuzz.findings_command import check_store


def add_compare_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", help=".ll module with a main (what both compilers build)")
    p.add_argument("--candidate", required=True, metavar="TEMPLATE", help="compiler command with {in} and {out}")
    level = p.add_mutually_exclusive_group()
    for n in range(4):
        level.add_argument(f"-O{n}", dest="opt_level", action="store_const", const=n)
    p.set_defaults(opt_level=2)
    p.add_argument("--support", metavar="LL", help="module compiled once and linked next to both objects")
    p.add_argument("--findings", type=Path, default=None, metavar="DIR", help="findings store (default: $EMBER_FINDINGS or ./findings)")
    p.add_argument("--no-save", action="store_true", help="do not save a finding when they differ")


def cmd_compare(args: argparse.Namespace) -> int:
    from compiler import driver
    from fuzz import findings
    from oracle import candidate

    if driver.input_kind(args.input) is not driver.InputKind.LLVM_IR:
        raise UsageError(f"{args.input}: 'ember compare' takes an .ll module")
    candidate.CandidateCommand(args.candidate)  # a bad template is bad usage, before any build
    check_store(args.findings)
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
