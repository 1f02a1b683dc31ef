"""`ember`: build, run, inspect symbol tables. Errors are one line; bad usage exits 2."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from compiler import driver
from compiler.diagnostics import EXIT_INTERNAL_ERROR, EmberError, Location, UsageError


def _add_build_options(p: argparse.ArgumentParser) -> None:
    level = p.add_mutually_exclusive_group()
    for n in range(4):
        level.add_argument(f"-O{n}", dest="opt_level", action="store_const", const=n)
    p.set_defaults(opt_level=2)
    p.add_argument("--target", metavar="TRIPLE", help="target triple (default: the host)")
    p.add_argument(
        "--split",
        default=driver.DEFAULT_SPLIT,
        choices=driver.SPLIT_MODES,
        help="how the LLVM back end splits the module (default: %(default)s; ignored for --emit llvm/mlir)",
    )
    p.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: one per core)")
    p.add_argument("--time-report", action="store_true", help="print per-stage wall time and peak memory to stderr")
    p.add_argument("--save-pieces", metavar="DIR", help="keep every split piece (subgraphs, codegen pieces, plan) in DIR")
    p.add_argument("--print-split-plan", action="store_true", help="print which function lands in which subgraph")
    p.add_argument("--split-cost", type=int, default=None, metavar="N", help="target instructions per level-1 subgraph")
    p.add_argument("--split-piece-cost", type=int, default=None, metavar="N", help="target instructions per level-2 codegen piece")
    p.add_argument("--offload-flow", default="all-kernel", choices=driver.OFFLOAD_FLOWS, help="kernels to PTX: one MLIR pipeline for all kernels (default) or one per kernel")
    p.add_argument("--gpu-arch", default="sm_80", choices=("sm_80", "sm_90"), help="GPU architecture of the PTX (--emit ptx and the PTX embedded in objects; default: %(default)s)")


def _options(args: argparse.Namespace, emit: str) -> driver.BuildOptions:
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("-j must be at least 1")
    if args.split_cost is not None and args.split_cost < 1:
        raise UsageError("--split-cost must be at least 1")
    if args.split_piece_cost is not None and args.split_piece_cost < 1:
        raise UsageError("--split-piece-cost must be at least 1")
    return driver.BuildOptions(
        opt_level=args.opt_level,
        emit=emit,
        target=args.target,
        split=args.split,
        jobs=args.jobs,
        time_report=args.time_report,
        save_pieces=args.save_pieces,
        print_split_plan=args.print_split_plan,
        subgraph_cost=args.split_cost,
        piece_cost=args.split_piece_cost,
        offload_flow=args.offload_flow,
        gpu_arch=args.gpu_arch,
    )


def cmd_build(args: argparse.Namespace) -> int:
    options = _options(args, args.emit)
    result = driver.build(args.input, options)
    out = args.output or driver.default_output(args.input, args.emit)
    if out == "-":
        if isinstance(result.output, bytes):
            sys.stdout.buffer.write(result.output)
        else:
            sys.stdout.write(result.output)
    else:
        driver.write_atomically(out, result.output)
    if args.time_report:
        own, _children = driver.peak_memory_mb()
        print(result.times.render(), file=sys.stderr)
        print(f"peak memory: {own:.0f} MiB (driver)", file=sys.stderr)
    elif args.print_split_plan:
        print("\n".join(n for n in result.times.notes if n.startswith("subgraph")), file=sys.stderr)
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from oracle import runner

    options = _options(args, "obj")
    result = driver.build(args.input, options)
    assert isinstance(result.output, bytes)
    on_gpu = _use_gpu(args.device, result.output, args.input, options.gpu_arch)
    with tempfile.TemporaryDirectory(prefix="ember-run-") as tmp:
        obj = Path(tmp) / "prog.o"
        obj.write_bytes(result.output)
        try:
            exe = runner.link_executable([obj], Path(tmp) / ("prog.so" if on_gpu else "prog"), shared=on_gpu)
        except EmberError as exc:  # report it against the user's input, not the temporary object
            raise EmberError(exc.message, Location(args.input)) from None
        if on_gpu:
            limits = runner.Limits(timeout_s=args.timeout, memory_mb=None)
            run = runner.run_command([sys.executable, "-m", "compiler.offload.gpu_host", str(exe)], limits=limits)
        else:
            run = runner.run_executable(exe, args.args, limits=runner.Limits(timeout_s=args.timeout))
    sys.stdout.buffer.write(run.stdout)
    sys.stdout.flush()
    sys.stderr.buffer.write(run.stderr)
    if run.timed_out:
        print(f"{args.input}: error: program timed out after {args.timeout:g}s", file=sys.stderr)
    elif run.signal is not None:
        print(f"{args.input}: error: program killed by {run.outcome.split()[1]}", file=sys.stderr)
    return run.exit_status


def _use_gpu(device: str, obj: bytes, path: str, arch: str) -> bool:
    """`--device`: cpu never, gpu always (or an error), auto when the program has embedded
    kernels and a GPU answers (cuda-python is imported only then)."""
    from compiler.offload import embed

    if device == "cpu" or (device == "auto" and embed.TABLE.encode() not in obj):
        return False
    from compiler.offload import gpu_host

    reason = gpu_host.gpu_unavailable_reason(arch)
    if reason is None:
        return True
    if device == "gpu":
        raise EmberError(f"no GPU: {reason} (--device cpu runs kernels on the CPU grid emulator)", Location(path))
    return False


def cmd_interp(args: argparse.Namespace) -> int:
    from oracle import interp

    if driver.input_kind(args.input) is not driver.InputKind.EMBER:
        raise UsageError(f"{args.input}: 'ember interp' runs .em programs only")
    if args.fuel < 1 or args.max_depth < 1:
        raise UsageError("--fuel and --max-depth must be at least 1")
    source = driver.read_input(args.input)
    assert isinstance(source, str)
    result = interp.run_source(source, args.input, fuel=args.fuel, max_depth=args.max_depth)
    sys.stdout.buffer.write(result.stdout)
    sys.stdout.flush()
    sys.stderr.buffer.write(result.stderr)
    sys.stderr.flush()
    return result.exit_status


def cmd_symtab(args: argparse.Namespace) -> int:
    from oracle import symtab

    symbols = symtab.read_symbols(args.object)
    print(symtab.to_json(symbols) if args.json else symtab.format_table(symbols))
    return 0


def cmd_symdiff(args: argparse.Namespace) -> int:
    from oracle import symtab

    diff = symtab.diff_symbols(symtab.read_symbols(args.a), symtab.read_symbols(args.b))
    print(diff.render(args.a, args.b))
    return 0 if diff.clean else 1


def cmd_bench(args: argparse.Namespace) -> int:
    from compiler import bench

    sizes = [int(x) for x in args.sizes.split(",") if x] if args.sizes else []
    jobs = [int(x) for x in args.jobs.split(",")] if args.jobs else None
    if not sizes and not args.inputs and not args.runtime:
        raise UsageError("nothing to benchmark: give --sizes or input modules")
    return bench.main(sizes, args.inputs, jobs, args.plot, runtime=args.runtime)


def cmd_reduce(args: argparse.Namespace) -> int:
    from fuzz.reduce import command, oracle

    if args.jobs < 1:
        raise UsageError("-j must be at least 1")
    settings = oracle.Settings(split=args.split, jobs=args.split_jobs, opt_level=args.opt_level, subgraph_cost=args.split_cost)
    stats = command.reduce_file(
        args.input, args.output, prop=args.property, test=args.test, settings=settings, jobs=args.jobs,
        time_budget=args.time_budget,
    )
    print(f"{args.output}: {stats.initial_lines} -> {stats.final_lines} lines (report: {args.output}.report.txt)")
    return 0


def cmd_fuzz(args: argparse.Namespace) -> int:
    from fuzz import cli as fuzz_cli

    return fuzz_cli.cmd_fuzz(args)


def cmd_findings(args: argparse.Namespace) -> int:
    from fuzz import cli as fuzz_cli

    return fuzz_cli.cmd_findings(args)


def cmd_compare(args: argparse.Namespace) -> int:
    from fuzz import cli as fuzz_cli

    return fuzz_cli.cmd_compare(args)


def cmd_verify(args: argparse.Namespace) -> int:
    from equivalence import command

    return command.run(args)


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ember", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("build", help="compile .em/.mlir/.ll/.bc to an object, assembly, LLVM IR or MLIR")
    p.add_argument("input")
    p.add_argument("-o", "--output", help="output path ('-' for stdout)")
    p.add_argument("--emit", default="obj", choices=driver.EMIT_KINDS)
    _add_build_options(p)
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("run", help="compile, link and run a program; its exit status is passed through")
    p.add_argument("input")
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the program")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds before the program is killed")
    p.add_argument(
        "--device",
        default="auto",
        choices=("auto", "cpu", "gpu"),
        help="where kernel launches run: the GPU when one is present (auto, default), always the CPU grid emulator, or the GPU or an error",
    )
    _add_build_options(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("bench", help="serial vs split back end vs opt+llc, side by side")
    p.add_argument("inputs", nargs="*", help=".ll/.bc modules to measure besides generated ones")
    p.add_argument("--sizes", default="1000,3000", help="generated module sizes (functions), comma separated")
    p.add_argument("--jobs", default=None, help="job counts to try, e.g. 1,2 (default: 1..cores)")
    p.add_argument("--plot", default="bench-speedup.png", help="PNG plot of speed-up vs jobs")
    p.add_argument("--runtime", action="store_true", help="also compare run time of split vs unsplit programs")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("interp", help="run a .em program in the reference interpreter (exit 124: out of fuel)")
    p.add_argument("input")
    p.add_argument("--fuel", type=int, default=10_000_000, help="steps before the run is stopped (exit 124)")
    p.add_argument("--max-depth", type=int, default=5_000, help="deepest call nesting allowed (exit 124)")
    p.set_defaults(func=cmd_interp)

    p = sub.add_parser("reduce", help="shrink a .em program or .ll/.bc module that shows a split-linkage failure")
    p.add_argument("input", help=".em program, .ll/.bc module, or a findings directory")
    p.add_argument("-o", "--output", required=True)
    how = p.add_mutually_exclusive_group()
    how.add_argument(
        "--property", choices=("split-mismatch", "symtab-mismatch", "output-mismatch", "interp-mismatch", "crash")
    )
    how.add_argument("--test", metavar="SCRIPT", help="interestingness script: exit 0 = interesting, candidate path last")
    p.add_argument("-j", "--jobs", type=int, default=1, help="candidates evaluated in parallel")
    p.add_argument("--time-budget", type=float, default=None, metavar="S", help="stop after S seconds (best result kept)")
    p.add_argument("--split", default="two-level", choices=("subgraph", "function", "two-level"))
    p.add_argument("--split-jobs", type=int, default=1, help="-j of the split builds the property runs")
    p.add_argument("--split-cost", type=int, default=None)
    level = p.add_mutually_exclusive_group()
    for n in range(4):
        level.add_argument(f"-O{n}", dest="opt_level", action="store_const", const=n)
    p.set_defaults(func=cmd_reduce, opt_level=2)

    p = sub.add_parser("fuzz", help="differential fuzz campaign: split vs unsplit, -j, -O0 vs -O2; findings saved")
    from fuzz import cli as fuzz_cli

    fuzz_cli.add_fuzz_arguments(p)
    p.set_defaults(func=cmd_fuzz)

    p = sub.add_parser("findings", help="list, show or re-run saved fuzz findings")
    fuzz_cli.add_findings_arguments(p)
    p.set_defaults(func=cmd_findings)

    p = sub.add_parser("compare", help="compare a candidate compiler command with Ember's reference build of IN")
    fuzz_cli.add_compare_arguments(p)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("symtab", help="print the normal form of an object's symbol table")
    p.add_argument("object")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_symtab)

    p = sub.add_parser("symdiff", help="exit 1 when B's non-local symbols differ from A's or a local leaked")
    p.add_argument("a")
    p.add_argument("b")
    p.set_defaults(func=cmd_symdiff)

    p = sub.add_parser("verify", help="prove Ember's rewrite patterns with Z3, or validate a pass pipeline (--tv)")
    from equivalence import command as verify_command

    verify_command.add_arguments(p)
    p.set_defaults(func=cmd_verify)
    return parser


def run_guarded(func: Callable[[], int], prog: str) -> int:
    """Run a command body: EmberErrors become one-line diagnostics, bugs an internal-error line."""
    try:
        return func()
    except EmberError as exc:
        print(exc.render(), file=sys.stderr)
        return exc.exit_status
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug in Ember: one line, full traceback on request
        if os.environ.get("EMBER_TRACEBACK"):
            raise
        print(f"{prog}: internal error: {type(exc).__name__}: {exc} (set EMBER_TRACEBACK=1 for details)", file=sys.stderr)
        return EXIT_INTERNAL_ERROR


def main(argv: Sequence[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    return run_guarded(lambda: int(args.func(args)), "ember")


if __name__ == "__main__":
    sys.exit(main())
