"""`ember run`, `interp`, `symtab` and `symdiff`: the oracle's subcommands (registered through
the `ember.commands` entry-point group)."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from compiler import cli, driver, outputs
from compiler.diagnostics import EmberError, Location, UsageError
from compiler.link import link_executable


def cmd_run(args: argparse.Namespace) -> int:
    from oracle import runner

    options = cli.build_options(args, "obj")
    result = driver.build(args.input, options)
    assert isinstance(result.output, bytes)
    on_gpu = _use_gpu(args.device, result.output, args.input, options.gpu_arch)
    with tempfile.TemporaryDirectory(prefix="ember-run-") as tmp:
        obj = Path(tmp) / "prog.o"
        obj.write_bytes(result.output)
        try:
            exe = link_executable([obj], Path(tmp) / ("prog.so" if on_gpu else "prog"), shared=on_gpu)
        except EmberError as exc:  # report it against the user's input, not the temporary object
            no_main = "undefined reference to `main'" in exc.message
            raise EmberError("the program has no 'main' function" if no_main else exc.message, Location(args.input)) from None
        if on_gpu:
            limits = runner.Limits(timeout_s=args.timeout, memory_mb=None)
            run = runner.run_command([sys.executable, "-m", "compiler.offload.gpu_host", str(exe)], limits=limits)
        else:
            run = runner.run_executable(exe, args.args, limits=runner.Limits(timeout_s=args.timeout))
    outputs.write_stdout(run.stdout)
    outputs.write_stderr(run.stderr)
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
    if args.max_depth > interp.MAX_DEPTH:
        raise UsageError(f"--max-depth must be at most {interp.MAX_DEPTH:,} (the interpreter's stack)")
    source = driver.read_input(args.input)
    assert isinstance(source, str)
    stream = interp.StreamedOutput(outputs.write_stdout)  # printed as it runs, never all in memory
    result = interp.run_source(source, args.input, fuel=args.fuel, max_depth=args.max_depth, stream=stream)
    outputs.write_stdout(result.stdout)
    outputs.write_stderr(result.stderr)
    return result.exit_status


def cmd_symtab(args: argparse.Namespace) -> int:
    from oracle import symtab

    symbols = symtab.read_symbols(args.object)
    print(symtab.to_json(symbols) if args.format == "json" else symtab.format_table(symbols))
    return 0


def cmd_symdiff(args: argparse.Namespace) -> int:
    """The non-local symbol diff, then the checks the fuzz property runs on the same pair
    (copies, attributes, locals reached through the GOT, TLS models; with --exact-code the
    -O0 ones too): a finding's reproduce.sh shows what the campaign saw."""
    from oracle import symtab

    sa, sb = symtab.read_symbols(args.a), symtab.read_symbols(args.b)  # located errors for bad input
    ra, rb = symtab.read_relocations(args.a), symtab.read_relocations(args.b)
    diff = symtab.diff_symbols(sa, sb)
    more = symtab.diff_full(sa, sb, ra, rb, exact_code=args.exact_code)
    if diff.clean and more:
        print(f"--- {args.a}\n+++ {args.b}")
    elif not diff.clean:
        print(diff.render(args.a, args.b))
    print("\n".join(more) if more else ("symbol tables agree" if diff.clean else ""), end="\n" if more or diff.clean else "")
    return 0 if diff.clean and not more else 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the oracle's subcommands to `ember`."""
    p = sub.add_parser("run", help="compile, link and run a program; its exit status is passed through")
    p.add_argument("input")
    p.add_argument("args", nargs="*", help="arguments for the program (after '--' when they start with '-')")
    p.add_argument("--timeout", type=cli.positive_seconds, default=10.0, help="seconds before the program is killed")
    p.add_argument(
        "--device",
        default="auto",
        choices=("auto", "cpu", "gpu"),
        help="where kernel launches run: the GPU when one is present (auto, default), always the CPU grid emulator, or the GPU or an error",
    )
    cli.add_build_options(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("interp", help="run a .em program in the reference interpreter (exit 124: out of fuel)")
    p.add_argument("input")
    p.add_argument("--fuel", type=int, default=10_000_000, help="steps before the run is stopped (exit 124)")
    p.add_argument("--max-depth", type=int, default=5_000, help="deepest call nesting allowed (exit 124)")
    p.set_defaults(func=cmd_interp)

    p = sub.add_parser("symtab", help="print the normal form of an object's symbol table")
    p.add_argument("object")
    p.add_argument("--format", choices=("text", "json"), default="text", help="a table (default) or one JSON object per symbol")
    p.add_argument("--json", dest="format", action="store_const", const="json", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_symtab)

    p = sub.add_parser(
        "symdiff", help="exit 1 when B's non-local symbols differ from A's, a local leaked, or B's relocations break the split contract"
    )
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--exact-code", action="store_true", help="both built at -O0: every local and relocation must match too")
    p.set_defaults(func=cmd_symdiff)
