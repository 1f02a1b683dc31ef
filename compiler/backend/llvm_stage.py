"""The LLVM stage: parse IR/bitcode, optimise with the new pass manager, emit code.

Each function is individually callable so the split back end can run the same stages
on pieces of a module inside worker processes. Optimisation and code generation run on the
native engine (`engine.py`, the tools wheel's libLLVM); llvmlite parses for located
diagnostics and checks targets.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from compiler.backend import engine
from compiler.diagnostics import UsageError, error_from_llvm

if TYPE_CHECKING:
    import llvmlite.binding as llvm


@functools.cache
def _init_targets() -> None:
    """Initialise llvmlite's LLVM (imported only off the hot path: diagnostics, the reducer)."""
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    llvm.initialize_all_asmparsers() if hasattr(llvm, "initialize_all_asmparsers") else None
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.initialize_native_asmparser()


def host_triple() -> str:
    """The triple objects are produced for when `--target` is not given."""
    return engine.default_triple()


#: architectures whose code Ember builds only as PTX (`--emit ptx`), never as objects or assembly
GPU_ARCHS = ("nvptx", "amdgcn", "r600", "spirv")
#: triple components whose object format is not ELF (the split back end's object link merges ELF)
NON_ELF = (
    "darwin", "macos", "ios", "tvos", "watchos", "windows", "win32", "mingw", "cygwin", "uefi", "aix", "zos", "macho", "coff", "xcoff",
)


def check_target(triple: str, *, emit: str, split: bool) -> None:
    """Refuse, before any work, a triple Ember cannot carry to `emit` (one line, exit 2):
    unknown to LLVM, a GPU outside `--emit ptx`, or a split build for anything but x86-64 or AArch64 ELF."""
    if engine.target_name(triple) is None:
        raise UsageError(f"unknown target triple '{triple}' (LLVM has no target for it)")
    if emit not in ("obj", "asm"):
        return
    parts = triple.lower().split("-")
    gpu = parts[0].startswith(GPU_ARCHS)
    if gpu and emit == "obj":
        raise UsageError(f"target '{triple}' is a GPU: no objects for it (--emit asm prints its assembly, --emit ptx a program's kernels)")
    if split and not splittable(triple):
        raise UsageError(f"the split back end links x86-64 and AArch64 ELF64 code only; use --split none for target '{triple}'")


#: LLVM target names whose ELF64 objects the object link merges (compiler/backend/objlink.py).
#: Not 32-bit x86: ELF32 `.rel` sections keep addends in the section bytes, which the merge
#: does not patch, so i686 builds serially (`--split auto`) or is refused (an explicit mode)
SPLIT_ELF_TARGETS = ("x86-64", "aarch64")
#: environments of those targets whose objects are ELF32 all the same (x32, AArch64 ILP32)
ILP32_ENVIRONMENTS = ("gnux32", "muslx32", "x32", "gnu_ilp32", "ilp32")


def splittable(triple: str) -> bool:
    """Whether the split back end can build for `triple`: x86-64/AArch64 ELF. Not NVPTX:
    its pieces' PTX would be joined as text into one file with a `.version` and `.target`
    header per piece, which is no PTX module (a program's kernels go through `--emit ptx`,
    which links PTX modules properly: compiler/offload/ptxlink.py)."""
    name = engine.target_name(triple)
    if name is None:
        return False
    parts = triple.lower().split("-")
    return (
        name in SPLIT_ELF_TARGETS
        and not any(p.startswith(NON_ELF) for p in parts[1:])
        and not any(p in ILP32_ENVIRONMENTS for p in parts[1:])
    )


def parse_ir(text: str, path: str) -> llvm.ModuleRef:
    """Parse and verify textual LLVM IR; errors carry `path:line:col`."""
    _init_targets()
    import llvmlite.binding as llvm

    try:
        module = llvm.parse_assembly(text)
        module.verify()
    except RuntimeError as exc:
        raise error_from_llvm(exc, path) from None
    return module


def parse_bitcode(data: bytes, path: str) -> llvm.ModuleRef:
    """Parse and verify LLVM bitcode."""
    _init_targets()
    import llvmlite.binding as llvm

    try:
        module = llvm.parse_bitcode(data)
        module.verify()
    except RuntimeError as exc:
        raise error_from_llvm(exc, path) from None
    return module


def target_machine(triple: str | None = None, opt: int = 2) -> llvm.TargetMachine:
    """A PIC, small-code-model target machine (not llvmlite's JIT default)."""
    _init_targets()
    import llvmlite.binding as llvm

    triple = triple or host_triple()
    try:
        target = llvm.Target.from_triple(triple)
    except RuntimeError as exc:
        raise UsageError(f"unknown target triple '{triple}': {str(exc).strip()}") from None
    cpu = ""
    if triple.startswith("nvptx"):
        cpu = "sm_80"
    return target.create_target_machine(cpu=cpu, opt=opt, codemodel="small", reloc="pic")


def native(data: str | bytes, path: str) -> engine.Module:
    """Parse and verify textual IR or bitcode with the native engine (the hot path's LLVM);
    a module it refuses gets the located diagnostic llvmlite's parser gives."""
    try:
        return engine.Module(data, path, verify=True)
    except engine.EngineError as exc:
        if isinstance(data, bytes):
            parse_bitcode(data, path)
        else:
            parse_ir(data, path)
        raise error_from_llvm(exc, path) from None


def native_target(triple: str | None, opt: int = 2) -> engine.Target:
    """The engine's target for `triple` (the host when None): PIC, small code model."""
    return engine.Target.for_triple(triple or host_triple(), opt)


def optimise(module: engine.Module, target: engine.Target, level: int) -> None:
    """Run LLVM's default `O<level>` module pipeline in place (what `opt -O<level>` runs)."""
    if level not in (0, 1, 2, 3):
        raise UsageError(f"invalid optimisation level {level}")
    module.optimise(target, level)


def emit_object(module: engine.Module, target: engine.Target) -> bytes:
    """Codegen to an ELF relocatable object (each call makes its own target machine: LLVM's
    ELF lowering keeps the `llvm.used` globals of every module it printed, by address)."""
    return module.emit(target, "obj")


def emit_assembly(module: engine.Module, target: engine.Target) -> str:
    """Codegen to assembly text."""
    return module.emit(target, "asm").decode("utf-8", "replace")


#: the first pass of `default<O<n>>` after its whole-module prefix (the serial inliner's start)
_PREFIX_END = "always-inline"
#: the levels whose `default<O<n>>` the printed pipeline spells exactly (`split_pipeline`)
CUT_LEVELS = (1, 2)


@dataclass(frozen=True)
class SplitPipeline:
    """`default<O<n>>` cut in two (issue 36): `prefix`, the module simplification the serial
    pipeline runs before its inliner (early function cleanup, IPSCCP, GlobalOpt, mem2reg,
    InstCombine, SimplifyCFG), runs once on the whole module before the split; `rest`, from
    `always-inline` on, in each subgraph, so no pass runs twice. Run one after the other on one
    module they are the printed pipeline run whole, which is `default<O<n>>` byte for byte on
    the test modules, zlib, Lua and SQLite (tests/test_split_pipeline.py), but not on rust-regex:
    9 of its 1,169 functions (aho-corasick's AVX2 Teddy searchers, same object size) come out
    differently from the printed pipeline, cut or not; something of `default<O2>` the text does
    not carry (not found). The split back end's default at -O1/-O2 (`--split-prefix`,
    docs/backend.md)."""

    prefix: str
    rest: str


def split_pipeline(level: int, target: engine.Target) -> SplitPipeline | None:
    """`default<O<level>>` for `target`, cut before the inliner; None where it cannot be cut:
    -O0 (nothing to cut), -O3 (its inliner's threshold, 250, is a parameter the printed
    pipeline does not carry: `inline` parsed from text takes -O2's 225, so the printed -O3
    pipeline is not `default<O3>`), or where the tools wheel's `opt` cannot print the pipeline
    or it has no top-level `always-inline`."""
    if level not in CUT_LEVELS:
        return None
    passes = _default_passes(level, target.triple, target.cpu, target.features)
    if _PREFIX_END not in passes[1:]:
        return None
    at = passes.index(_PREFIX_END, 1)
    return SplitPipeline(",".join(passes[:at]), ",".join(passes[at:]))


@functools.cache
def _default_passes(level: int, triple: str, cpu: str, features: str) -> tuple[str, ...]:
    """The top-level passes of `default<O<level>>` as the tools wheel's `opt` prints them for
    this target (`-print-pipeline-passes`: the pipeline the engine's `LLVMRunPasses` builds
    from the same libLLVM); () where it cannot."""
    import subprocess

    from compiler.backend import irmodel  # its bracket-aware splitter; a serial build never gets here

    command = [str(engine.tools_dir() / "opt"), f"-mtriple={triple}", f"-O{level}", "-print-pipeline-passes", "-disable-output"]
    command += [f"-mcpu={cpu}"] if cpu else []
    command += [f"-mattr={features}"] if features else []
    try:
        proc = subprocess.run(command, input="", capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError):
        return ()
    return tuple(irmodel.split_top_level(proc.stdout.strip())) if proc.returncode == 0 else ()

