"""`ember`: build, run, inspect symbol tables. Errors are one line; bad usage exits 2."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from compiler import driver, outputs
from compiler.backend import split_mode
from compiler.diagnostics import EXIT_INTERNAL_ERROR, EmberError, UsageError


def int_list(text: str, what: str) -> tuple[int, ...]:
    """A comma-separated list of integers >= 1 (`--sizes`, `--jobs`, fuzz's `-j`); else a usage error."""
    try:
        values = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise UsageError(f"{what} must be comma-separated integers, got '{text}'") from None
    if not values or any(v < 1 for v in values):
        raise UsageError(f"{what} must list integers >= 1, got '{text}'")
    return values


def positive_int(text: str) -> int:
    """argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got '{text}'")
    return value


def positive_seconds(text: str) -> float:
    """argparse type: a finite number of seconds above zero (`0`, `-1`, `nan`, `inf` are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: '{text}'") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds above 0, got '{text}'")
    return value


def add_build_options(p: argparse.ArgumentParser) -> None:
    level = p.add_mutually_exclusive_group()
    for n in range(4):
        level.add_argument(f"-O{n}", dest="opt_level", action="store_const", const=n)
    p.set_defaults(opt_level=2)
    p.add_argument("--target", metavar="TRIPLE", help="target triple (default: the host)")
    p.add_argument(
        "-g", dest="debug_info", action="store_const", const=True, default=None,
        help="debug info (DWARF) from source locations for .em/.mlir (a .ll/.bc input keeps its own without -g, as llc does)",
    )
    p.add_argument("-g0", dest="debug_info", action="store_const", const=False, help="no debug info, also none kept from a .ll/.bc input")
    p.add_argument(
        "--split",
        default=driver.DEFAULT_SPLIT,
        choices=split_mode.names(split_mode.ALL),
        help="how the LLVM back end splits the module (default: %(default)s; ignored for --emit llvm/mlir)",
    )
    p.add_argument("-j", "--jobs", type=int, default=None, help="worker processes (default: one per core)")
    p.add_argument("--time-report", action="store_true", help="print per-stage wall time and peak memory to stderr")
    p.add_argument("--save-pieces", metavar="DIR", help="keep every split piece (subgraphs, codegen pieces, plan) in DIR")
    p.add_argument("--print-split-plan", action="store_true", help="print which function lands in which subgraph")
    p.add_argument("--split-cost", type=int, default=None, metavar="N", help="target instructions per level-1 subgraph")
    p.add_argument(
        "--split-piece-cost", type=int, default=None, metavar="N",
        help="target instructions per level-2 codegen piece (small values cut per function)",
    )
    p.add_argument(
        "--link", default="object", metavar="object",
        help="how a split build's pieces become one object: merge the pieces' objects (object, the only link; "
        "the text link, asm, was removed)",
    )
    p.add_argument(
        "--split-prefix", choices=("on", "off"), default="on" if driver.SPLIT_PREFIX else "off",
        help="-O1/-O2 split builds: run the serial pipeline's whole-module prefix (up to the inliner) once "
        "before the split, the rest per subgraph (default: %(default)s)",
    )
    p.add_argument(
        "--offload-flow", default="all-kernel", choices=driver.OFFLOAD_FLOWS,
        help="kernels to PTX: one MLIR pipeline for all kernels (default) or one per kernel",
    )
    p.add_argument(
        "--gpu-arch", default="sm_80", choices=("sm_80", "sm_90"),
        help="GPU architecture of the PTX (--emit ptx and the PTX embedded in objects; default: %(default)s)",
    )


def make_directory(path: str, option: str) -> None:
    """Create the directory an option names (a file there, or no permission, is bad usage)."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot create the directory: {exc.strerror}") from None


def build_options(args: argparse.Namespace, emit: str) -> driver.BuildOptions:
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("-j must be at least 1")
    if args.jobs is not None:
        from compiler.backend.pool import MAX_JOBS

        if args.jobs > MAX_JOBS:
            print(f"ember: note: -j {args.jobs} capped at {MAX_JOBS} worker processes (twice the cores, at most 64)", file=sys.stderr)
    if args.split_cost is not None and args.split_cost < 1:
        raise UsageError("--split-cost must be at least 1")
    if args.split_piece_cost is not None and args.split_piece_cost < 1:
        raise UsageError("--split-piece-cost must be at least 1")
    if args.save_pieces is not None:
        make_directory(args.save_pieces, "--save-pieces")
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
        link=args.link,
        split_prefix=args.split_prefix == "on",
        offload_flow=args.offload_flow,
        gpu_arch=args.gpu_arch,
        debug_info=keeps_debug_info(args.debug_info, args.input),
    )


def keeps_debug_info(flag: bool | None, path: str) -> bool:
    """`-g` (True), `-g0` (False) or neither (None): as `llc` and `clang -c x.ll` do, the debug
    info already in an LLVM IR input is emitted unless `-g0`; Ember and MLIR inputs get DWARF
    only with `-g`. The last of `-g`/`-g0` counts, as in clang."""
    if flag is not None:
        return flag
    return Path(path).suffix in (driver.InputKind.LLVM_IR.value, driver.InputKind.BITCODE.value)


def cmd_build(args: argparse.Namespace) -> int:
    options = build_options(args, args.emit)
    out = args.output if args.output is not None else driver.default_output(args.input, args.emit)
    # `--emit ptx -o DIR/` (or an existing directory): one file per kernel
    ptx_dir = args.emit == "ptx" and out not in ("", outputs.STDOUT) and (out.endswith(os.sep) or os.path.isdir(out))
    if not ptx_dir:
        outputs.check_output(out, [args.input])
    result = driver.build(args.input, options)
    if ptx_dir:
        assert isinstance(result.output, str)
        driver.write_ptx_directory(out, result.output)
    else:
        outputs.write_output(out, result.output)
    for note in result.times.user_notes:
        print(f"ember: note: {note}", file=sys.stderr)
    if args.time_report:
        own, _children = driver.peak_memory_mb()
        print(result.times.render(), file=sys.stderr)
        print(f"peak memory: {own:.0f} MiB (driver)", file=sys.stderr)
        print(_whole_process(sum(result.times.seconds.values())), file=sys.stderr)
    elif args.print_split_plan:
        print("\n".join(n for n in result.times.notes if n.startswith(("plan work", "subgraph"))), file=sys.stderr)
    return 0


#: subcommands the compiler itself defines: `ember build ...` needs no other package's commands
CORE_COMMANDS = frozenset({"build"})



def _whole_process(stages: float) -> str:
    """The process's wall time so far and how much of it no stage of the report counts, so
    work outside the stages (start-up, reading and writing files, anything new) shows."""
    whole = _process_age()
    rest = max(0.0, whole - stages)
    return f"whole process: {whole:.3f}s wall; in no stage: {rest:.3f}s (start-up, reading the input, writing the output)"


def _process_age() -> float:
    """Seconds since this process started, to a clock tick: its start time in /proc counts
    ticks since boot, as CLOCK_BOOTTIME does (psutil's `create_time` adds a boot time
    rounded to whole seconds, which overstated the figure by up to a second)."""
    import os
    import time

    try:
        with open("/proc/self/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return time.clock_gettime(time.CLOCK_BOOTTIME) - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        import psutil

        return time.time() - psutil.Process().create_time()


def make_parser(plugins: bool = True) -> argparse.ArgumentParser:
    """The `ember` parser; without `plugins`, only the compiler's own subcommands (loading the
    other packages' costs about 60 ms, a tenth of a -O0 build of Lua)."""
    parser = argparse.ArgumentParser(
        prog="ember", usage="%(prog)s [-h] COMMAND ...", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # the flat list is hidden: the epilog lists the commands by what a user is doing
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help=argparse.SUPPRESS, prog="ember")

    p = sub.add_parser("build", help="compile .em/.mlir/.ll/.bc to an object, assembly, LLVM IR or MLIR")
    p.add_argument("input")
    p.add_argument("-o", "--output", help="output path ('-' for stdout)")
    p.add_argument("--emit", default="obj", choices=driver.EMIT_KINDS)
    add_build_options(p)
    p.set_defaults(func=cmd_build)
    for register in command_providers() if plugins else ():
        register(sub)
    parser.epilog = grouped_commands(sub)
    return parser


#: `ember --help` lists the commands by what a user is doing; one no group names comes last
COMMAND_GROUPS = (
    ("build", ("build", "run", "interp")),
    ("test", ("fuzz", "compare", "verify", "mutants")),
    ("triage", ("findings", "reduce", "symtab", "symdiff")),
    ("measure", ("bench",)),
)


def grouped_commands(sub: argparse._SubParsersAction) -> str:
    """The registered commands with their one-line help, under the headings of COMMAND_GROUPS."""
    helps = {action.dest: action.help or "" for action in sub._choices_actions}
    grouped = [(title, [n for n in names if n in helps]) for title, names in COMMAND_GROUPS]
    named = {n for _title, names in grouped for n in names}
    grouped.append(("other", [n for n in helps if n not in named]))
    width = max(map(len, helps), default=0) + 2
    lines = []
    for title, names in grouped:
        if names:
            lines += ["", f"{title}:"] + [f"  {n:<{width}}{helps[n]}" for n in names]
    lines += ["", "'ember COMMAND --help' describes a command's options."]
    return "\n".join(lines).lstrip("\n")


def command_providers() -> list[Callable[[argparse._SubParsersAction], None]]:
    """The `register(subparsers)` functions other packages declare in the `ember.commands`
    entry-point group (pyproject.toml): the harness, the oracle and the verifier add their
    own subcommands; the compiler imports none of them."""
    from importlib.metadata import entry_points

    order = {"oracle": 0, "fuzz": 1, "equivalence": 2, "bench": 3}
    found = sorted(entry_points(group="ember.commands"), key=lambda ep: (order.get(ep.name, 9), ep.name))
    return [ep.load() for ep in found]


class Terminated(KeyboardInterrupt):
    """SIGTERM: unwinds like Ctrl-C (children and workers are killed on the way out), exit 143."""


def _on_sigterm(signum: int, _frame: object) -> None:
    raise Terminated


def _stop_workers() -> None:
    """Kill the cached worker pools and running child groups now (an interrupt must not wait
    for their current tasks)."""
    from compiler import children

    children.kill_all_groups()
    pool = sys.modules.get("compiler.backend.pool")
    if pool is not None:
        pool.shutdown()


def run_guarded(func: Callable[[], int], prog: str) -> int:
    """Run a command body: EmberErrors become one-line diagnostics, bugs an internal-error line."""
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if main_thread else None
    try:
        return _guarded(func, prog)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _guarded(func: Callable[[], int], prog: str) -> int:
    """`run_guarded`'s body: each kind of failure to its one line and exit status."""
    try:
        return func()
    except EmberError as exc:
        print(exc.render(), file=sys.stderr)
        return exc.exit_status
    except Terminated:
        _stop_workers()
        print(f"{prog}: terminated", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        _stop_workers()
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except RecursionError:
        if os.environ.get("EMBER_TRACEBACK"):
            raise
        print(f"{prog}: error: input nested too deeply to process", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug in Ember: one line, full traceback on request
        if os.environ.get("EMBER_TRACEBACK"):
            raise
        print(f"{prog}: internal error: {type(exc).__name__}: {exc} (set EMBER_TRACEBACK=1 for details)", file=sys.stderr)
        return EXIT_INTERNAL_ERROR


def _quiet_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the exit-time flush does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def split_program_args(argv: list[str]) -> tuple[list[str], list[str]]:
    """`ember run IN [options] -- ARGS`: everything after the first `--` goes to the program."""
    if argv[:1] == ["run"] and "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1:]
    return argv, []


def main(argv: Sequence[str] | None = None) -> int:
    ours, program_args = split_program_args(list(sys.argv[1:] if argv is None else argv))
    parser = make_parser(plugins=not (ours[:1] and ours[0] in CORE_COMMANDS))
    args = parser.parse_args(ours)
    if program_args:
        args.args = [*args.args, *program_args]
    status = run_guarded(lambda: int(args.func(args)), "ember")
    if argv is None:  # the real CLI: a signal during the exit-time clean-up still ends it at once
        if status in (130, 143):
            exit_now(status)
        signal.signal(signal.SIGINT, _exit_on_signal)
        signal.signal(signal.SIGTERM, _exit_on_signal)
    return status


def _exit_on_signal(signum: int, _frame: object) -> None:
    """Ctrl-C or SIGTERM while exiting: kill the children and leave (128 + the signal)."""
    _stop_workers()
    exit_now(128 + signum)


def exit_now(status: int) -> None:
    """After Ctrl-C or SIGTERM (children already killed): leave at once, without the exit-time
    joins of executor threads that a half-started pool can hang or make print tracebacks."""
    from compiler import children

    children.kill_direct_children()  # a worker caught half-started, the pool's resource tracker
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)


if __name__ == "__main__":
    sys.exit(main())
