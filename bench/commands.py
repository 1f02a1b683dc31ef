"""`ember bench`: the compiler against LLVM's own tools, generated modules or the real-world
corpus (registered through the `ember.commands` entry-point group)."""

from __future__ import annotations

import argparse
from pathlib import Path

from compiler import cli, outputs
from compiler.diagnostics import UsageError


def _check_written_later(path: str | None, option: str) -> None:
    """A file a long run writes at its end (or after each step): refuse a bad path before
    the first measurement rather than lose the run to it."""
    if path is None or path == "-":
        return
    outputs.check_output(path, [], option)
    parent = Path(path).parent
    if not parent.is_dir():
        raise UsageError(f"{option} {path}: no such directory: {parent}")


def cmd_bench(args: argparse.Namespace) -> int:
    from bench import split

    _check_written_later(args.json, "--json")

    sizes = list(cli.int_list(args.sizes, "--sizes")) if args.sizes else []
    if any(n > split.MAX_SIZE for n in sizes):
        raise UsageError(f"--sizes must be at most {split.MAX_SIZE:,} functions")
    jobs = list(cli.int_list(args.jobs, "--jobs")) if args.jobs else None
    if args.corpus is not None:
        from bench import corpus as corpus_bench
        from fuzz import corpus

        names = [n for n in args.corpus.split(",") if n and n != "all"]
        unknown = [n for n in names if n not in corpus.BY_NAME]
        if unknown:
            raise UsageError(f"unknown corpus program '{unknown[0]}' (choose from {', '.join(corpus.BY_NAME)})")
        if args.runs < 1:
            raise UsageError("--runs must be at least 1")
        if args.repeats < 1:
            raise UsageError("--repeats must be at least 1")
        if args.opt_level not in (0, 1, 2, 3):
            raise UsageError("--opt-level must be 0, 1, 2 or 3")
        return corpus_bench.main(
            names, jobs or [1, 2], runs=args.runs, repeats=args.repeats, json_path=args.json, level=args.opt_level
        )
    if not sizes and not args.inputs and not args.runtime:
        raise UsageError("nothing to benchmark: give --sizes or input modules")
    for path in args.inputs:
        split.check_input(path)
    _check_written_later(args.plot, "--plot")
    return split.main(sizes, args.inputs, jobs, args.plot, runtime=args.runtime, json_path=args.json)


def register(sub: argparse._SubParsersAction) -> None:
    """Add `ember bench`."""
    p = sub.add_parser("bench", help="serial vs split back end vs LLVM's tools (opt+llc; --corpus: llvm-lto, llvm-split), side by side")
    p.add_argument("inputs", nargs="*", help=".ll/.bc modules to measure besides generated ones")
    p.add_argument("--sizes", default="1000,3000", help="generated module sizes (functions), comma separated")
    p.add_argument("-j", "--jobs", default=None, help="job counts to try, e.g. 1,2 (default: 1..cores)")
    p.add_argument("--plot", default="bench-speedup.png", help="PNG plot of speed-up vs jobs")
    p.add_argument("--runtime", action="store_true", help="also compare run time of split vs unsplit programs")
    p.add_argument("--corpus", nargs="?", const="all", default=None, metavar="NAMES",
                   help="benchmark the real-world corpus instead (comma-separated names, default all; ci/fetch_corpus.sh)")
    p.add_argument("--runs", type=int, default=3, help="--corpus: workload runs per build (best counts)")
    p.add_argument("--opt-level", type=int, default=2, metavar="N", help="--corpus: build every column at -ON (default 2)")
    p.add_argument("--repeats", type=int, default=1, help="--corpus: builds per column (the median counts)")
    p.add_argument("--json", metavar="FILE", help="also write the raw rows here (after every module or program)")
    p.set_defaults(func=cmd_bench)
