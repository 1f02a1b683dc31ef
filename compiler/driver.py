"""The build driver: input -> MLIR -> LLVM IR -> optimised module -> object, stage by stage."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.backend import engine, guard, inferred, llvm_stage, names, policy, split_mode
from compiler.backend.split_mode import SplitMode
from compiler.diagnostics import EmberError, Location, UsageError
from compiler.hooks import BuildHooks

if TYPE_CHECKING:  # split loads late: a serial build never needs it
    from compiler.backend.split import CutPiece

EMIT_KINDS = ("obj", "asm", "llvm", "mlir", "ptx")
OFFLOAD_FLOWS = ("all-kernel", "per-kernel")
#: `ember build`'s default: split when it pays (compiler/backend/policy.py)
DEFAULT_SPLIT = SplitMode.AUTO
#: `--link`: how a split build's pieces become one object (BuildOptions.link)
LINKS = ("object",)
#: `--split-prefix`'s default: the serial pipeline's whole-module prefix (up to its inliner) runs
#: once before the split at -O1/-O2 and each subgraph runs the rest, so IPSCCP's and GlobalOpt's
#: whole-module facts are the serial build's (issue 36: both Rust modules' symbols equal the
#: serial build's; docs/backend.md, "The serial pipeline's prefix before the split")
SPLIT_PREFIX = True


class InputKind(Enum):
    """What a compiler input file holds, decided by its suffix."""

    EMBER = ".em"
    MLIR = ".mlir"
    LLVM_IR = ".ll"
    BITCODE = ".bc"


def input_kind(path: str) -> InputKind:
    """The kind of `path` from its suffix; unknown suffixes are a usage error."""
    suffix = Path(path).suffix
    for kind in InputKind:
        if kind.value == suffix:
            return kind
    raise UsageError(f"{path}: unknown input kind '{suffix}' (expected .em, .mlir, .ll or .bc)")


def read_input(path: str, *, binary: bool = False) -> str | bytes:
    """Read an input file; a missing or unreadable file is a located error."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise EmberError("no such file", Location(path)) from None
    except IsADirectoryError:
        raise EmberError("is a directory, not a file", Location(path)) from None
    except OSError as exc:
        raise EmberError(f"cannot read file: {exc.strerror}", Location(path)) from None
    if binary:
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise EmberError(f"not UTF-8 text (byte {exc.start}: 0x{data[exc.start]:02x})", Location(path, line, col)) from None
    if b"\0" in data:  # LLVM and MLIR would read the text only up to it
        at = data.index(b"\0")
        line, col = data.count(b"\n", 0, at) + 1, at - (data.rfind(b"\n", 0, at) + 1) + 1
        raise EmberError(f"not a text file (NUL byte at byte {at})", Location(path, line, col))
    return text


@dataclass(frozen=True)
class BuildOptions:
    """Everything `ember build` can be asked to do."""

    opt_level: int = 2
    emit: str = "obj"
    target: str | None = None
    split: str = SplitMode.NONE
    jobs: int | None = None
    time_report: bool = False
    save_pieces: str | None = None
    print_split_plan: bool = False
    worker_timeout: float = 600.0
    subgraph_cost: int | None = None
    #: level-2 codegen pieces group functions up to this cost (None: planner.LEVEL2_PIECE_COST)
    piece_cost: int | None = None
    #: how a split build's pieces become one object (LINKS): `object` merges the pieces'
    #: objects (compiler/backend/objlink.py); the text link (`asm`) was removed
    link: str = "object"
    #: -O1/-O2 split builds: the serial pipeline's whole-module prefix (up to its inliner) runs
    #: once before the split, each subgraph runs the rest (`llvm_stage.split_pipeline`, issue 36)
    split_prefix: bool = SPLIT_PREFIX
    #: --emit ptx: which offload flow and GPU architecture (docs/offload.md)
    offload_flow: str = "all-kernel"
    gpu_arch: str = "sm_80"
    #: put each kernel's PTX (for `gpu_arch`) in the host object so a GPU can run it
    embed_ptx: bool = True
    #: `-g`: DWARF for the program (Ember and MLIR inputs get it from source locations; the
    #: debug info of LLVM IR inputs is kept); without it, debug info is dropped in every mode
    debug_info: bool = False
    #: a harness's test seams (compiler/hooks.py: faults, a lowering cache); None in every product build
    hooks: BuildHooks | None = None

    @property
    def job_count(self) -> int:
        return self.jobs or os.cpu_count() or 1


@dataclass
class StageTimes:
    """Wall time per named stage, in the order the stages ran, and the CPU seconds the
    process that ran it spent (the driver, or its forked serial child): on a loaded machine
    the wall time of a stage says little, its CPU much."""

    seconds: dict[str, float] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: what the user should hear even without `--time-report` (one line each, `ember: note: `)
    user_notes: list[str] = field(default_factory=list)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start, cpu_start = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - start, time.process_time() - cpu_start)

    def add(self, name: str, wall: float, cpu: float) -> None:
        """Count `wall` and `cpu` seconds to stage `name` (a stage may run more than once)."""
        self.seconds[name] = self.seconds.get(name, 0.0) + wall
        self.cpu[name] = self.cpu.get(name, 0.0) + cpu

    def render(self) -> str:
        total = sum(self.seconds.values()) or 1e-9
        lines = ["===- Ember time report -===", f"{'stage':<24}{'wall (s)':>10}{'CPU (s)':>10}{'share':>8}"]
        for name, secs in self.seconds.items():
            lines.append(f"{name:<24}{secs:>10.4f}{self.cpu.get(name, 0.0):>10.4f}{100 * secs / total:>7.1f}%")
        lines.append(f"{'total':<24}{total:>10.4f}{sum(self.cpu.values()):>10.4f}")
        lines.extend(self.notes)
        return "\n".join(lines)


@dataclass
class BuildResult:
    """The product of a build: bytes for objects, text otherwise."""

    output: bytes | str
    times: StageTimes


def mlir_source_to_llvm_ir(text: str, path: str, options: BuildOptions, times: StageTimes) -> str:
    """Parse MLIR, run the midend and lowering, translate to LLVM IR text (or MLIR text for --emit mlir)."""
    from compiler.midend import pipeline

    with pipeline.mlir_context():
        with times.stage("mlir parse"):
            module = pipeline.parse_module(text, path)
        before = pipeline.count_operations(module)
        with times.stage("mlir midend"):
            pipeline.optimise(module, options.opt_level, path, timing=options.time_report)
        after = pipeline.count_operations(module)
        times.notes.append(f"mlir operations: {before} before midend, {after} after")
        if options.emit == "mlir":
            return str(module)
        with times.stage("mlir lower"):
            pipeline.lower_to_llvm_dialect(module, path)
            if options.debug_info:
                pipeline.add_debug_info(module, path, generated=input_kind(path) is InputKind.EMBER)
        with times.stage("mlir translate"):
            return pipeline.translate_to_llvm_ir(module, path)


def _lowering_key(kind: InputKind, text: str, path: str, options: BuildOptions) -> tuple[object, ...]:
    digest = hashlib.sha256(text.encode()).hexdigest()
    return (
        kind, digest, path, options.opt_level, options.target, options.embed_ptx, options.offload_flow, options.gpu_arch,
        options.debug_info,
    )


def _lower_cached(kind: InputKind, text: str, path: str, options: BuildOptions, times: StageTimes) -> str:
    """`_lower` through the harness's lowering cache (`options.hooks.lowering`: the fuzzing build
    servers lower one program once for all its split configurations) when the output is LLVM IR."""
    cache = options.hooks.lowering if options.hooks is not None else None
    if cache is None or options.emit == "mlir":
        return _lower(kind, text, path, options, times)
    key = _lowering_key(kind, text, path, options)
    return cache.lower(key, lambda: _lower(kind, text, path, options, times), times.notes)


def _lower(kind: InputKind, text: str, path: str, options: BuildOptions, times: StageTimes) -> str:
    """Ember source or MLIR text -> LLVM IR text with the kernel table (MLIR text for --emit mlir)."""
    if kind is InputKind.EMBER:
        from compiler.frontend import emit_mlir_text

        with times.stage("frontend"):
            text = emit_mlir_text(text, path, debug=options.debug_info)
    ir_text = mlir_source_to_llvm_ir(text, path, options, times)
    if options.emit == "mlir":
        return ir_text
    if options.embed_ptx:
        ir_text += _kernel_table(text, path, options, times)
    return ir_text


def load_llvm_module(path: str, options: BuildOptions, times: StageTimes) -> tuple[engine.Module | str, str | None]:
    """Bring any input down to an unoptimised native module (or MLIR text for --emit mlir),
    with the IR text it was parsed from (None for bitcode)."""
    kind = input_kind(path)
    if kind is InputKind.BITCODE:
        if options.emit == "mlir":
            raise UsageError("--emit mlir needs an .em or .mlir input")
        data = read_input(path, binary=True)
        assert isinstance(data, bytes)
        with times.stage("llvm parse"):
            return llvm_stage.native(data, path), None
    text = read_input(path)
    assert isinstance(text, str)
    if kind is InputKind.LLVM_IR:
        if options.emit == "mlir":
            raise UsageError("--emit mlir needs an .em or .mlir input")
        with times.stage("llvm parse"):
            return llvm_stage.native(text, path), text
    ir_text = _lower_cached(kind, text, path, options, times)
    if options.emit == "mlir":
        return ir_text, None
    with times.stage("llvm parse"):
        return llvm_stage.native(ir_text, path), ir_text


def _kernel_table(mlir_text: str, path: str, options: BuildOptions, times: StageTimes) -> str:
    """LLVM IR of the embedded PTX table when the program has kernels (docs/offload.md)."""
    from compiler.offload import embed

    if not embed.has_kernels(mlir_text):
        return ""
    _check_offload_options(options)
    with times.stage("offload"):
        table = embed.embedded_table(
            mlir_text, path, options.offload_flow, options.gpu_arch, options.opt_level, options.job_count
        )
    return "" if table is None else table


def _check_offload_options(options: BuildOptions) -> None:
    from compiler.offload import ptx

    if options.offload_flow not in OFFLOAD_FLOWS:
        raise UsageError(f"unknown offload flow '{options.offload_flow}'")
    if options.gpu_arch not in ptx.ARCHS:
        raise UsageError(f"unknown GPU architecture '{options.gpu_arch}' (choose from {', '.join(ptx.ARCHS)})")


def build(path: str, options: BuildOptions) -> BuildResult:
    """Compile `path` as `options` say; the serial (unsplit) pipeline."""
    if options.split not in split_mode.ALL:
        raise UsageError(f"unknown split mode '{options.split}' (choose from {', '.join(split_mode.ALL)})")
    if options.emit not in EMIT_KINDS:
        raise UsageError(f"unknown --emit kind '{options.emit}'")
    if options.link == "asm":
        raise UsageError("--link asm was removed: the split back end merges the pieces' objects (--link object)")
    if options.link not in LINKS:
        raise UsageError(f"unknown --link '{options.link}' (expected one of {', '.join(LINKS)})")
    times = StageTimes()
    if options.emit == "ptx":
        return BuildResult(_build_ptx(path, options, times), times)
    # the split back end links objects: `--emit asm` is one module's assembly, written serially
    split_build = options.split != SplitMode.NONE and options.emit == "obj"
    auto = options.split == SplitMode.AUTO
    asked_split = options.split not in (SplitMode.NONE, SplitMode.AUTO)
    if options.emit == "asm" and (asked_split or (auto and (options.print_split_plan or options.save_pieces))):
        # an explicit mode, a plan or pieces asked for: say why there are none
        times.user_notes.append(
            "--emit asm builds with the serial back end" + (f", not --split {options.split}" if asked_split else "")
            + " (the split back end links objects; --emit obj --save-pieces DIR keeps each piece's object)"
        )
    if options.target is not None:
        llvm_stage.check_target(options.target, emit=options.emit, split=split_build and not auto)
    if split_build and (not auto or _probably_splits(path, options)):
        from compiler.backend import pool

        # worker start-up overlaps parsing and planning; a tiny module starts no more
        # workers than it can have pieces
        pool.warm(options.job_count, tasks=_most_pieces(path))
    loaded, source = load_llvm_module(path, options, times)
    if isinstance(loaded, str):
        return BuildResult(loaded, times)
    with loaded as module:
        return _build_module(module, source, path, options, times, split_build)


def _build_module(
    module: engine.Module, source: str | None, path: str, options: BuildOptions, times: StageTimes, split_build: bool
) -> BuildResult:
    """Optimise and generate code for a parsed module: serially here, or split."""
    triple = options.target or module.triple or None  # a module's own triple is the target, not the host
    auto = options.split == SplitMode.AUTO
    if options.target is None and module.triple:
        llvm_stage.check_target(module.triple, emit=options.emit, split=split_build and not auto)
    target = llvm_stage.native_target(triple, options.opt_level)
    module.prepare(target, force_triple=options.target is not None)
    if not options.debug_info:
        module.strip_debug_info()
    if split_build and auto:
        choice = policy.choose(
            opt_level=options.opt_level,
            jobs=options.job_count,
            cost=module.block_count(),
            splittable=llvm_stage.splittable(target.triple),
            target=target.triple,
        )
        times.notes.append(choice.render())
        if not llvm_stage.splittable(target.triple):
            times.user_notes.append(f"{choice.reason}: built with the serial back end")
        options = dataclasses.replace(options, split=choice.mode)
        split_build = choice.mode != SplitMode.NONE
    if split_build:
        from compiler.backend import split

        spellings = split.prepare_whole_module(module, target, options.opt_level, times.stage)
        with_prefix = options.split_prefix and (options.hooks is None or options.hooks.whole_module_prefix)
        pipeline = None
        if with_prefix and options.opt_level in llvm_stage.CUT_LEVELS:
            with times.stage("module prefix"):  # the tools wheel's opt prints the pipeline to cut
                pipeline = llvm_stage.split_pipeline(options.opt_level, target)
            if pipeline is None:
                times.notes.append("split prefix: not run (the tools wheel's opt could not print the pipeline to cut)")
        if pipeline is not None:
            # what the serial pipeline does before its inliner, on the whole module, once:
            # IPSCCP's and GlobalOpt's facts (dead branches, constant variables, deleted code)
            # are then the serial build's in every subgraph, which runs the rest
            module, bitcode, found = _whole_module_prefix(module, pipeline.prefix, target, path, times)
        else:
            # the plan reads the live module alone (compiler/backend/facts.py) and the workers
            # cut their subgraphs from its bitcode in memory (compiler/backend/cut.py; debug
            # units: cutdebug.py), under a harness's hooks too: a piece a harness rewrites is its
            # cut printed (planner.Subgraph.text), and its task cache keys tasks by that text
            with times.stage("module to bitcode"):
                bitcode = split.whole_module_bitcode(module)  # without its asm (see there)
        # the plan reads its facts from the live module too; compile_split closes it once planned
        return _build_split(module, options, times, spellings, path, bitcode, pipeline.rest if pipeline else None,
                            found if pipeline is not None else None)
    # LLVM ends the process on what it cannot lower for an object format the split back end
    # does not link (a COMDAT on MachO): codegen in a worker, errors in one line. A bad asm
    # line ends the guarded child below instead (`explain_asm`), with no second parse
    codegen_in_worker = options.emit != "llvm" and not llvm_stage.splittable(target.triple)

    def serial_stages() -> tuple[bytes | str, tuple[dict[str, float], dict[str, float]]]:
        guard.progress("optimising the module")
        with times.stage("optimise"):
            llvm_stage.optimise(module, target, options.opt_level)
        if options.emit == "llvm":
            return module.text(), (times.seconds, times.cpu)
        if codegen_in_worker:  # as bitcode: the worker reads it faster than a printed module
            return module.bitcode(), (times.seconds, times.cpu)
        guard.progress("generating code")
        with times.stage("codegen"):
            if options.emit == "asm":
                return llvm_stage.emit_assembly(module, target), (times.seconds, times.cpu)
            return llvm_stage.emit_object(module, target), (times.seconds, times.cpu)

    # a crash inside LLVM ends a forked child, not ember: one line, the module saved
    def explain_asm(said: str) -> EmberError | None:
        """LLVM's complaint about an asm line of the input, as the split build words it."""
        first = guard.first_error(said) if "<inline asm>" in said else ""
        return EmberError(f"inline asm: {first}", Location(path)) if first else None

    output, (times.seconds, times.cpu) = guard.forked(
        serial_stages, doing="optimising the module", save=lambda what: _save_module(module, what), explain=explain_asm
    )
    if codegen_in_worker:
        assert isinstance(output, bytes)
        with times.stage("codegen"):
            return BuildResult(_codegen_isolated(output, module.triple, path, options), times)
    return BuildResult(output, times)


def _whole_module_prefix(
    module: engine.Module, prefix: str, target: engine.Target, path: str, times: StageTimes,
) -> tuple[engine.Module, tuple[bytes, str], inferred.Inferred]:
    """The serial pipeline's prefix run on the whole module in a forked child (guard.py: a crash
    inside LLVM is one line with the module saved, and what LLVM prints on success is dropped,
    as in the serial build). Returns the prefixed module, parsed back from the child's bitcode
    (`module` is closed), that bitcode with its module asm (what the split's workers cut), and
    what FunctionAttrs infers from its bodies (`inferred.infer`, on the child's copy once the
    bitcode is written: for the pieces' declarations and imports)."""
    from compiler.backend import split

    def run() -> tuple[tuple[bytes, str], inferred.Inferred, float]:
        start = time.process_time()
        guard.progress("running the whole-module prefix")
        module.run_passes(prefix, target)
        names.name_unnamed(module)  # what the prefix made: the text and the bitcode name them alike
        bitcode = split.whole_module_bitcode(module)
        return bitcode, inferred.infer(module, target), time.process_time() - start

    with times.stage("module prefix"):
        bitcode, found, child_cpu = guard.forked(
            run, doing="running the whole-module prefix", save=lambda what: _save_module(module, what))
        module.close()
        prefixed = engine.Module(bitcode[0], path)
        prefixed.set_module_asm(bitcode[1])
    times.add("module prefix", 0.0, child_cpu)  # the child's CPU is the driver's serial work too
    return prefixed, bitcode, found


def _save_module(module: engine.Module, what: str) -> Path:
    """Keep the module a serial build was compiling when LLVM died (as the split keeps a piece)."""
    from compiler.backend import pool

    return pool.save_piece(module.text(), what, "module.ll")


def _probably_splits(path: str, options: BuildOptions) -> bool:
    """Whether `--split auto` will probably split `path` (decides whether workers start early)."""
    cost = policy.estimated_cost(path)
    choice = policy.choose(opt_level=options.opt_level, jobs=options.job_count, cost=cost or 0, splittable=True)
    return cost is not None and choice.mode != SplitMode.NONE


#: what starts a function definition, per input kind (an upper bound on the split's pieces)
_DEFINITION_MARKERS = {InputKind.EMBER: b"def ", InputKind.MLIR: b"func.func", InputKind.LLVM_IR: b"define "}


def _most_pieces(path: str) -> int | None:
    """An upper bound on the pieces a split build of `path` runs at once (definitions in the
    file, plus one for the final assembly); None when the file can't tell (bitcode)."""
    try:
        marker = _DEFINITION_MARKERS.get(input_kind(path))
        return None if marker is None else Path(path).read_bytes().count(marker) + 1
    except (OSError, UsageError):
        return None  # the build itself reports it, located


def _codegen_isolated(
    source: str | bytes | CutPiece, triple: str, path: str, options: BuildOptions, opt_level: int | None = None,
) -> bytes | str:
    """Object or assembly of a module holding asm (its text or bitcode, or the split's asm
    probe cut from the whole module), generated in a worker (a bad asm line is then `PATH: error:
    inline asm: ...`)."""
    from compiler.backend import split

    level = options.opt_level if opt_level is None else opt_level
    in_process = options.hooks is not None and options.hooks.in_process
    config = split.BackendConfig(opt_level=level, triple=triple or None, force_triple=options.target is not None,
                                 in_process=in_process)
    return split.codegen_isolated(source, options.emit, options.job_count, config, path, options.worker_timeout)


def _build_ptx(path: str, options: BuildOptions, times: StageTimes) -> str:
    """`--emit ptx`: slice the kernels out of the program module; ONE PTX module of them all."""
    from compiler.offload import flows, ptxlink

    _check_offload_options(options)
    kind = input_kind(path)
    if kind not in (InputKind.EMBER, InputKind.MLIR):
        raise UsageError("--emit ptx needs an .em or .mlir input")
    text = read_input(path)
    assert isinstance(text, str)
    if kind is InputKind.EMBER:
        from compiler.frontend import emit_mlir_text

        with times.stage("frontend"):
            text = emit_mlir_text(text, path)
    with times.stage("offload"):
        result = flows.compile_kernels(
            text, path, options.offload_flow, (options.gpu_arch,), options.opt_level, options.job_count
        )
    if not result.ptx:
        raise EmberError("the program has no @kernel functions", Location(path))
    return ptxlink.link_ptx([(f"{name} ({options.gpu_arch})", by_arch[options.gpu_arch]) for name, by_arch in result.ptx.items()])


def _build_split(
    module: engine.Module, options: BuildOptions, times: StageTimes, spellings: dict[str, str], path: str,
    bitcode: tuple[bytes, str],
    pipeline: str | None = None,
    found: inferred.Inferred | None = None,
) -> BuildResult:
    """The parallel back end: split, optimise + codegen in workers, the object link. A bad
    asm line would end a worker: the plan's asm (only the functions holding it) is generated
    first, in a worker of its own, so it fails as `PATH: error: inline asm: ...`."""
    from compiler.backend import split

    hooks = options.hooks
    triple = module.triple
    config = split.BackendConfig(
        opt_level=options.opt_level,
        triple=triple or None,
        force_triple=options.target is not None,
        worker_hooks=hooks.worker if hooks is not None else (),
        optimised_hooks=hooks.optimised if hooks is not None else (),
        in_process=hooks is not None and hooks.in_process,
        pipeline=pipeline,
    )
    if options.piece_cost:
        config = dataclasses.replace(config, piece_cost=options.piece_cost)
    result = split.compile_split(
        module,
        bitcode,
        options.split,
        options.job_count,
        config,
        save_pieces=options.save_pieces,
        worker_timeout=options.worker_timeout,
        subgraph_cost=options.subgraph_cost,
        hooks=hooks,
        spellings=spellings,
        check_asm=lambda probe: _codegen_isolated(probe, triple, path, options, opt_level=0),
        inferred=found,
    )
    for stage, secs in result.stage_seconds.items():
        times.add(stage, secs, result.stage_cpu.get(stage, 0.0))
    times.notes.append(
        f"split {options.split}: {result.subgraphs} subgraphs, {result.pieces} codegen pieces, -j{options.job_count}"
    )
    if hooks is not None and hooks.tasks is not None:
        times.notes.append(f"split tasks: {result.reused} of {result.subgraphs} reused from the harness's task cache")
    if not options.print_split_plan:  # the printed plan starts with the same line
        times.notes.append(result.plan.work.render())
    peak = result.worker_cpu.pop("worker peak MiB", 0.0)
    times.notes.append(
        "worker CPU: " + ", ".join(f"{stage} {secs:.3f}s" for stage, secs in result.worker_cpu.items())
    )
    times.notes.append(f"peak worker memory: {peak:.0f} MiB")
    if options.print_split_plan:
        times.notes.append(names.readable(result.plan_text, spellings))
    times.notes.append("task CPU: " + ", ".join(f"{secs:.3f}s" for secs in sorted(result.task_cpu, reverse=True)))
    times.notes.append(_driver_alone(times))
    return BuildResult(result.obj, times)


#: the split build's stage that runs the workers; every other stage is the driver's alone
WORKER_STAGE = "optimise+codegen"


def _driver_alone(times: StageTimes) -> str:
    """The serial part of a split build: the driver's stages before and after the workers (no
    number of cores shortens them), and their share of the stages' wall time."""
    stages = list(times.seconds)
    at = stages.index(WORKER_STAGE) if WORKER_STAGE in stages else len(stages)
    before = sum(times.seconds[s] for s in stages[:at])
    after = sum(times.seconds[s] for s in stages[at + 1 :])
    cpu = sum(times.cpu.get(s, 0.0) for s in stages[:at] + stages[at + 1 :])
    total = sum(times.seconds.values()) or 1e-9
    return (
        f"driver alone: {before + after:.3f}s ({100 * (before + after) / total:.0f}% of the stages; CPU {cpu:.3f}s): "
        f"before the workers {before:.3f}s ({', '.join(stages[:at])}), after {after:.3f}s ({', '.join(stages[at + 1:])})"
    )


def peak_memory_mb() -> tuple[float, float]:
    """Peak resident memory (MiB) of this process and of its reaped children (the workers)."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return own, children


def default_output(path: str, emit: str) -> str:
    """`prog.em` -> `prog.o` / `prog.s` / `prog.opt.ll` / `prog.lowered.mlir` in the cwd."""
    stem = Path(path).stem
    return {"obj": f"{stem}.o", "asm": f"{stem}.s", "llvm": f"{stem}.opt.ll", "mlir": f"{stem}.out.mlir", "ptx": f"{stem}.ptx"}[emit]


def write_ptx_directory(path: str, text: str) -> None:
    """`--emit ptx -o DIR/`: one self-contained `<kernel>.ptx` per kernel of a linked PTX module."""
    from compiler import outputs
    from compiler.offload import ptxlink

    if not ptxlink.is_linked(text):
        raise EmberError("is a directory (only --emit ptx writes one file per kernel there)", Location(path))
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise EmberError(f"cannot create directory: {exc.strerror}", Location(path)) from None
    for kernel, ptx in ptxlink.split_linked(text).items():
        outputs.write_output(str(Path(path) / f"{kernel}.ptx"), ptx)
