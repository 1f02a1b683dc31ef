"""The parallel back end: plan the split, optimise and codegen pieces in worker processes, MC-link.

The modes (`subgraph`, `function`, `two-level`) are described with their names in
compiler/backend/split_mode.py. Workers come from a `spawn` pool (LLVM is not fork-safe after
use); a subgraph travels to its worker as its cut of the whole module's bitcode
(compiler/backend/cut.py; as text with debug info or a harness's rewrite), and at -O1 and up back to the driver as
bitcode with its reference graph, so that definitions no subgraph uses any more are deleted
before codegen (`dead_definitions`).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from compiler.backend import (
    cut,
    deadfields,
    engine,
    globalmerge,
    guard,
    llvm_stage,
    names,
    objlink,
    planner,
    pool,
    split_mode,
)
from compiler.backend.split_mode import SplitMode
from compiler.diagnostics import EmberError, Location
from compiler.hooks import BuildHooks, TaskCache


@dataclass(frozen=True)
class BackendConfig:
    """What every worker needs to compile a piece."""

    opt_level: int = 2
    triple: str | None = None
    force_triple: bool = False
    #: a harness's worker-side hooks (`BuildHooks.worker`: module-level functions, so they pickle)
    worker_hooks: tuple[Callable[[str], None], ...] = ()
    #: a harness's hooks on each optimised subgraph, just before codegen (`BuildHooks.optimised`)
    optimised_hooks: tuple[Callable[[engine.Module], None], ...] = ()
    #: run -j1 tasks in this process (`BuildHooks.in_process`)
    in_process: bool = False
    #: level-2 codegen pieces group functions up to this cost (the harness draws small ones)
    piece_cost: int = planner.LEVEL2_PIECE_COST
    #: a folder for each subgraph task's LLVM output (`_task_stderr`): warnings are dropped, as
    #: the serial build's are, and a crashed task's message is quoted in its one-line error;
    #: None: the worker's own stderr (not in `task_key`: where output goes changes no result)
    stderr_dir: str | None = None
    #: the passes each subgraph runs instead of `default<O<opt_level>>`: the rest of it, where
    #: the driver ran its whole-module prefix before the split (`llvm_stage.split_pipeline`)
    pipeline: str | None = None


#: one codegen piece's code: its ELF object, which the driver merges (compiler/backend/objlink.py)
PieceCode = bytes
#: what one subgraph's worker task returns (`optimise_task`): [(members, code, is_shared_copy)],
#: the local names defined, the private names that crossed pieces, CPU seconds per stage
TaskResult = tuple[list[tuple[list[str], PieceCode, bool]], set[str], set[str], dict[str, float]]


@dataclass
class Optimised:
    """A subgraph optimised in a worker, before its code is generated: between the two, the
    driver finds the definitions no subgraph uses any more (`dead_definitions`)."""

    members: list[str]
    bitcode: bytes
    #: the local names defined here (after the worker's renames)
    local: set[str]
    #: the definitions here (what may be found dead), and what each global value here uses
    #: (`engine.Module.references`)
    defined: list[str]
    references: dict[str, set[str]]
    cpu: dict[str, float]
    #: compiled as one module (else cut in pieces, per function with `level2`)
    whole: bool = True
    level2: bool = False
    #: the functions defined here (of `defined`: whose `references` are code's, what
    #: GlobalMerge counts, compiler/backend/globalmerge.py)
    functions: set[str] = field(default_factory=set)


@dataclass
class SplitResult:
    """The whole module's object (the pieces' objects merged) plus facts for the time report."""

    obj: bytes
    subgraphs: int
    pieces: int
    plan: planner.SplitPlan
    stage_seconds: dict[str, float] = field(default_factory=dict)
    #: the driver's CPU seconds in the same stages (the worker stage: its own share of it)
    stage_cpu: dict[str, float] = field(default_factory=dict)
    worker_cpu: dict[str, float] = field(default_factory=dict)
    #: subgraph index -> members of each codegen piece compiled from it
    piece_members: dict[int, list[list[str]]] = field(default_factory=dict)
    #: subgraph tasks whose result came from `BuildHooks.tasks` (not compiled in this build)
    reused: int = 0
    #: each subgraph task's worker CPU seconds (optimise + codegen), in plan order: what a
    #: schedule on more workers is projected from
    task_cpu: list[float] = field(default_factory=list)

    @property
    def plan_text(self) -> str:
        """The plan with linkages and codegen pieces (computed on demand: it re-parses subgraphs)."""
        return self.plan.describe(self.piece_members)


# ------------------------------------------------------------------ worker side


def _worker_target(config: BackendConfig) -> engine.Target:
    return llvm_stage.native_target(config.triple, config.opt_level)


def _run_worker_hooks(text: str, config: BackendConfig) -> None:
    """Call a harness's worker-side hooks on a subgraph's text (none in a product build)."""
    for hook in config.worker_hooks:
        hook(text)


#: linkages of definitions that may be dropped where unused (a link keeps one copy)
_DISCARDABLE = frozenset({engine.LINKONCE_ANY, engine.LINKONCE_ODR, engine.AVAILABLE_EXTERNALLY})
_LOCAL = frozenset({engine.INTERNAL, engine.PRIVATE})


#: a module's `source_filename` line: the input's path (its folder and its file name)
_SOURCE_FILENAME = re.compile(r'^source_filename = "([^"\n]*/)([^"\n/]*)"$', re.M)


def _hook_names(hooks: tuple[Callable[..., None], ...]) -> list[str]:
    """A harness's hooks by name, as keys name them (functions are compared by what they are called)."""
    return [f"{h.__module__}.{h.__qualname__}" for h in hooks]


def _run_optimised_hooks(module: engine.Module, config: BackendConfig) -> None:
    """Call a harness's hooks on an optimised subgraph before its codegen (none in a product build)."""
    for hook in config.optimised_hooks:
        hook(module)


def task_key(text: str, known: list[str], k: int, config: BackendConfig, level2: bool, two_phase: bool = False) -> str:
    """A digest of everything `optimise_task` reads, for a `BuildHooks.tasks` cache: two
    tasks with the same key produce the same result. (`in_process` only says where the task
    runs; worker and optimised hooks count by name, as a harness names its faults.)

    Of the input's path only its file name counts: code generation reads no more of it (the
    `.file` directive), and a harness builds each check in a folder of its own."""
    hooks = _hook_names(config.worker_hooks)
    named = _SOURCE_FILENAME.sub(r'source_filename = "\2"', text, count=1)
    fields = [named, known, k, level2, config.opt_level, config.triple, config.force_triple, config.piece_cost, hooks]
    if config.optimised_hooks:
        fields.append({"optimised": _hook_names(config.optimised_hooks)})
    if config.pipeline is not None:
        fields.append(config.pipeline)
    if two_phase:
        fields.append("two-phase")
    return hashlib.sha256(json.dumps(fields).encode()).hexdigest()


@dataclass(frozen=True)
class WholeModule:
    """The module every subgraph is cut from: its bitcode (one file every worker reads) and
    its module asm (kept apart: `cut.cut`)."""

    bitcode_path: str
    module_asm: str = ""


def prepare_whole_module(
    module: engine.Module, target: engine.Target, opt_level: int,
    stage: Callable[[str], AbstractContextManager[object]] = lambda _name: nullcontext(),
) -> dict[str, str]:
    """The driver's steps between a prepared module (debug info already stripped without
    `-g`) and its plan, in place: the table fields the serial GlobalOpt drops cleared (at -O1
    and up: no subgraph can see them unread, compiler/backend/deadfields.py), names the link
    could mistake for registers or mnemonics, or must quote, made plain synthetic ones (spelled
    back in the link, compiler/backend/names.py), the unnamed named (the text and the bitcode
    name them alike). Returns the synthetic names' spellings. `stage`: times each step
    (`--time-report`'s "table fields" and "names")."""
    if opt_level >= 1:
        with stage("table fields"):
            deadfields.clear_unread_fields(module, target)
    with stage("names"):
        spellings = names.canonicalise(module)
        names.name_unnamed(module)
    return spellings


@dataclass(frozen=True)
class CutPiece:
    """A subgraph as its worker gets it: the whole module and the plan's cut of it
    (compiler/backend/cut.py)."""

    whole: WholeModule
    spec: cut.CutSpec


@functools.lru_cache(maxsize=1)
def _whole_bitcode(path: str) -> bytes:
    """The whole module's bitcode, read once per worker and build (a file per build)."""
    return Path(path).read_bytes()


def _module_of(source: str | bytes | CutPiece, name: str) -> engine.Module:
    """The module a worker compiles: parsed from its text (a harness's rewrite) or bitcode
    (a serial build's optimised module), or cut from the whole module."""
    if isinstance(source, str | bytes):
        return llvm_stage.native(source, name)
    return cut.cut(_whole_bitcode(source.whole.bitcode_path), source.spec, name, source.whole.module_asm)


def _source_text(source: str | bytes | CutPiece) -> str:
    """A worker's module as text (rendered only to save it when the worker fails)."""
    if isinstance(source, str):
        return source
    with _module_of(source, "<piece>") as module:
        return module.text()


def _keyed_texts(sources: list[str | CutPiece]) -> list[str]:
    """What a harness's task cache keys each task by: its text, or for a cut piece the digest
    of its cut printed (the same piece cut from two reducer candidates is the same text,
    where a key on the whole module would miss on every candidate). The cuts are printed in
    one forked child (`guard.forked`: the driver must outlive a cut LLVM ends on; one child,
    not one per piece: a fork costs about 20 ms); if it dies, piece by piece (`_printed_cut`)."""
    cuts = [s for s in sources if isinstance(s, CutPiece)]
    if not cuts:
        return [s for s in sources if isinstance(s, str)]

    def digest(text: str) -> str:
        named = _SOURCE_FILENAME.sub(r'source_filename = "\2"', text, count=1)
        return "cut " + hashlib.sha256(named.encode()).hexdigest()

    def print_all() -> list[str]:
        out = []
        for piece in cuts:
            with _module_of(piece, "<piece>") as module:
                out.append(digest(module.text()))
        return out

    try:
        digests = guard.forked(print_all, doing="cutting the pieces", save=lambda _what: Path(os.devnull))
    except EmberError:
        digests = [digest(_printed_cut((_whole_bitcode(p.whole.bitcode_path), p.whole.module_asm), p.spec)) for p in cuts]
    found = iter(digests)
    return [s if isinstance(s, str) else next(found) for s in sources]


def print_cuts(the_plan: planner.SplitPlan, bitcode: tuple[bytes, str]) -> None:
    """Give each subgraph of `the_plan` its text, printed when first asked for: its cut of
    the whole module `bitcode` (the bytes and the module asm), printed (`_printed_cut`)."""
    for sg in the_plan.subgraphs:
        if sg.cut is not None:
            sg.render_by(functools.partial(_printed_cut, bitcode, sg.cut))


def whole_module_bitcode(module: engine.Module) -> tuple[bytes, str]:
    """The module as bitcode without its module asm, and that asm: the bitcode writer parses
    module asm for a symbol table, and a bad line would end ember before the split's asm
    check names it (the module keeps its asm: the plan asks whether there is any)."""
    module_asm = module.module_asm()
    module.set_module_asm("")
    try:
        return module.bitcode(), module_asm
    finally:
        module.set_module_asm(module_asm)


def plan_module(
    data: str | bytes, policy: planner.PlanPolicy | None = None, *, name: str = "<module>", debug: bool = False,
) -> planner.SplitPlan:
    """The level-1 plan of LLVM IR (text or bitcode) for a caller outside the build (the
    GPU slicer, the harness's slices, tests): parsed and verified by LLVM, debug info
    stripped unless `debug`, numbered values named, planned from memory; its subgraphs'
    texts are their cuts printed. The module's own names are kept (no canonical ones: a
    caller reads members by the names it wrote)."""
    with llvm_stage.native(data, name) as module:
        if not debug:
            module.strip_debug_info()
        names.name_unnamed(module)
        bitcode = whole_module_bitcode(module)
        the_plan = planner.plan(module, policy=policy or planner.PlanPolicy())
    print_cuts(the_plan, bitcode)
    return the_plan


def _printed_cut(bitcode: tuple[bytes, str], spec: cut.CutSpec) -> str:
    """A piece of a plan made without the module's text, as text: its cut of the whole
    module's bitcode (and module asm), printed in a forked child (`guard.forked`): a worker
    that crashed on its cut is saved through here, and the same cut must not take the driver
    with it. If the child dies, the whole module is printed instead, headed by what the
    piece keeps, so the saved input still reproduces."""

    def render() -> str:
        with cut.cut(bitcode[0], spec, "<piece>", bitcode[1]) as module:
            return module.text()

    try:
        return guard.forked(render, doing="cutting the piece", save=lambda _what: Path(os.devnull))
    except EmberError as exc:
        with engine.Module(bitcode[0], "<module>") as module:
            module.set_module_asm(bitcode[1])
            whole = module.text()
        kept = ", ".join(f"{name} ({how}{', as ' + shown if shown else ''})" for name, (how, shown) in sorted(spec.keep.items()))
        said = exc.message.removesuffix("; input saved")
        return f"; ember: cutting this piece failed ({said}); the whole module follows\n; the piece keeps: {kept}\n{whole}"


def _subgraph_module(source: str | CutPiece, k: int, config: BackendConfig) -> engine.Module:
    """The subgraph's module: cut from the whole module in memory, or parsed from its text;
    a harness's worker hooks see its text either way."""
    if isinstance(source, str):
        _run_worker_hooks(source, config)
        return llvm_stage.native(source, f"<subgraph {k}>")
    module = _module_of(source, f"<subgraph {k}>")
    if config.worker_hooks:
        try:
            _run_worker_hooks(module.text(), config)
        except BaseException:
            module.close()
            raise
    return module


def optimise_task(
    text: str | CutPiece, known: list[str], k: int, config: BackendConfig, level2: bool, two_phase: bool = False
) -> TaskResult | Optimised:
    """One subgraph in a worker: optimise (level 1), then codegen right here (no round trip),
    or, with `two_phase`, stop before codegen and return the optimised subgraph as bitcode
    with its reference graph (`Optimised`): `codegen_optimised_task` finishes it once the
    driver knows which definitions no subgraph uses any more.

    Returns [(members, object, is_shared_copy)], the local names defined, the private
    names that crossed pieces, and CPU seconds per stage. With `level2`, the optimised
    subgraph is cut per function and each piece compiled as its own module; otherwise
    the optimised module is compiled in place (locals the optimiser created renamed
    in memory), unless it holds discardable linkonce copies, which need pieces of their
    own so the link can keep one of each.
    """
    import time

    cpu: dict[str, float] = {}
    start = time.process_time()
    target = _worker_target(config)
    with _stderr_to(_task_stderr(config, k)), _subgraph_module(text, k, config) as module:
        module.prepare(target, force_triple=config.force_triple)
        if config.pipeline is not None:
            module.run_passes(config.pipeline, target)
        else:
            llvm_stage.optimise(module, target, config.opt_level)
        # the stand-ins for other subgraphs' accesses to a variable kept local, and any
        # argument-fact caller GlobalOpt left (nothing calls either)
        stand_ins = (planner.KEEPER_PREFIX, planner.CALLER_PREFIX)
        for v in [v for v in module.definitions() if v.name.startswith(stand_ins)]:
            v.delete_function()
        cpu["optimise"] = time.process_time() - start
        start = time.process_time()
        values = list(module.definitions())
        whole = not level2 and not any(v.linkage in _DISCARDABLE for v in values)
        local = _name_locals(values, known, k, rename_fresh=whole)
        if two_phase:
            references = module.references()
            defined = [v.name for v in values]
            functions = {v.name for v in values if v.is_function and v.linkage != engine.AVAILABLE_EXTERNALLY}
            optimised = Optimised(list(known), module.bitcode(), local, defined, references, cpu, whole, level2, functions)
            cpu["optimise"] += time.process_time() - start
            return optimised
        _run_optimised_hooks(module, config)
        return _codegen(module, known, local, k, config, target, cpu, start, whole=whole, level2=level2)


def _name_locals(values: list[engine.Value], known: list[str], k: int, *, rename_fresh: bool) -> set[str]:
    """Name the unnamed locals the optimiser made (`__ember_unnamed_<k>_<n>`) and, with
    `rename_fresh`, rename the other locals it made `<name>.ember.<k>` (two subgraphs never
    define the same local; a module cut in pieces renames them as it cuts); the local names."""
    known_set = set(known)
    local: set[str] = set()
    unnamed = 0
    for v in values:
        if v.linkage not in _LOCAL:
            continue
        name = v.name
        if not name:
            name = f"__ember_unnamed_{k}_{unnamed}"
            unnamed += 1
            v.rename(name)
        elif rename_fresh and name not in known_set and planner.COPY_SUFFIX not in name:
            name = f"{name}{planner.COPY_SUFFIX}{k}"
            v.rename(name)
        local.add(name)
    return local


def _codegen(
    module: engine.Module, known: list[str], local: set[str], k: int, config: BackendConfig, target: engine.Target,
    cpu: dict[str, float], start: float, *, whole: bool, level2: bool,
) -> TaskResult:
    """An optimised subgraph's code (`_emit`): in place when `whole`, else cut in pieces."""
    import time

    if whole:
        code = llvm_stage.emit_object(module, target)
        cpu["codegen"] = cpu.get("codegen", 0.0) + time.process_time() - start
        return [(list(known), code, False)], local, set(), cpu
    # level 2 in memory: the pieces are cuts of the optimised module's bitcode (its asm apart:
    # the bitcode writer would parse it), as the driver's level 1 (planner.split_functions)
    pieces, local, private = planner.split_functions(
        module, set(known), k, per_function=level2, piece_cost=config.piece_cost)
    module_asm = module.module_asm()
    module.set_module_asm("")
    bitcode = module.bitcode()
    out: list[tuple[list[str], PieceCode, bool]] = []
    for members, spec, shared in pieces:
        with cut.cut(bitcode, spec, f"<subgraph {k} piece>", module_asm) as piece_module:
            piece_module.prepare(target, force_triple=config.force_triple)
            out.append((members, llvm_stage.emit_object(piece_module, target), shared))
    cpu["codegen"] = cpu.get("codegen", 0.0) + time.process_time() - start
    return out, local, private, cpu


def codegen_optimised_task(optimised: Optimised, dead: list[str], k: int, config: BackendConfig) -> TaskResult:
    """The second half of a two-phase subgraph task: delete the `dead` definitions, then
    generate its code as `optimise_task` would have."""
    import time

    start = time.process_time()
    target = _worker_target(config)
    with _stderr_to(_task_stderr(config, k)), llvm_stage.native(optimised.bitcode, f"<subgraph {k}>") as module:
        module.prepare(target, force_triple=config.force_triple)
        module.drop_definitions(set(dead), target)
        local = optimised.local - set(dead)
        _run_optimised_hooks(module, config)
        return _codegen(
            module, optimised.members, local, k, config, target, dict(optimised.cpu), start,
            whole=optimised.whole, level2=optimised.level2,
        )


def dead_definitions(
    results: list[TaskResult | Optimised], local_names: set[str]
) -> dict[int, list[str]]:
    """The definitions, per subgraph, that were local in the module and that nothing left
    uses after optimisation: what the serial pipeline's GlobalDCE deletes once a call to
    them folded away in another subgraph (a local exported while compiling stays alive in
    its owner, which cannot see that), functions and variables (a vtable only dead code
    named, and the methods only it names; `engine.Module.drop_definitions` erases such a
    variable, so no DWARF names it). Everything not local is a root; none when a subgraph
    compiled in pieces (its uses unknown)."""
    if not all(isinstance(r, Optimised) for r in results):
        return {}
    optimised = cast(list[Optimised], results)
    candidates = {
        n for r in optimised for n in r.defined
        if n in local_names or n in r.local
    }
    uses: dict[str, set[str]] = {}
    for r in optimised:
        for name, used in r.references.items():
            uses.setdefault(name, set()).update(used)
    live: set[str] = set()
    stack = [n for r in optimised for n in (*r.defined, *r.references) if n not in candidates]
    while stack:
        name = stack.pop()
        if name not in live:
            live.add(name)
            stack.extend(uses.get(name, ()))
    return {k: dead for k, r in enumerate(optimised) if (dead := sorted(n for n in r.defined if n in candidates and n not in live))}


def codegen_task(source: str | bytes | CutPiece, config: BackendConfig, emit: str, stderr_path: str) -> bytes | str:
    """Codegen an (optimised) module, as text, bitcode or a cut of the whole module (the asm
    probe), in a worker, LLVM's error output in `stderr_path`: LLVM exits the whole process
    on a bad inline or module asm line."""
    with _stderr_to(stderr_path):
        target = _worker_target(config)
        with _module_of(source, "<input>") as module:
            module.prepare(target, force_triple=config.force_triple)
            return llvm_stage.emit_object(module, target) if emit == "obj" else llvm_stage.emit_assembly(module, target)


@contextmanager
def _stderr_to(path: str | None) -> Iterator[None]:
    """Point file descriptor 2 at `path` for the block (nothing changes when it is None)."""
    if path is None:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.dup2(fd, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(fd)
        os.close(saved)


def _task_stderr(config: BackendConfig, k: int) -> str | None:
    """Where subgraph `k`'s task writes LLVM's output (`BackendConfig.stderr_dir`), or None."""
    return os.path.join(config.stderr_dir, f"subgraph-{k}.stderr") if config.stderr_dir else None


def _run_quoting_llvm(config: BackendConfig, run: Callable[[], list[object]]) -> list[object]:
    """`run()` (a `pool.run` of subgraph tasks); a task that failed says what LLVM wrote last
    in its error (`LLVM ERROR: ...`, or its first `error:` line), read from the tasks' files."""
    try:
        return run()
    except EmberError as exc:
        said = _llvm_message(config.stderr_dir) if config.stderr_dir else ""
        if not said:
            raise
        raise EmberError(f"{exc.message}; LLVM said: {said}", exc.location) from None


def _llvm_message(folder: str) -> str:
    """The first fatal LLVM message (else the first `error:` line) in a folder's task files."""
    files = sorted(Path(folder).glob("subgraph-*.stderr"))
    for path in files:
        fatal = _llvm_fatal_error(str(path))
        if fatal:
            return fatal
    return next((first for path in files if (first := _first_llvm_error(str(path)))), "")


def codegen_isolated(
    source: str | bytes | CutPiece, emit: str, jobs: int, config: BackendConfig, path: str, timeout: float,
) -> bytes | str:
    """`emit` ('obj' or 'asm') of a module (its text or bitcode, or a cut of the whole module:
    the asm probe) generated in a worker, so what LLVM ends the process on becomes one line: a bad
    inline or module asm line `PATH: error: inline asm: ...`, and what it cannot lower for
    the target (a COMDAT on MachO) `PATH: error: LLVM cannot generate code for 'TRIPLE': ...`."""
    label = source if isinstance(source, str) else functools.partial(_source_text, source)
    with tempfile.TemporaryDirectory(prefix="ember-asm-") as tmp:
        err = os.path.join(tmp, "stderr.txt")
        try:
            [out] = pool.run(
                jobs, codegen_task, [(label, (source, config, emit, err))], timeout, doing="generating code", isolated=True,
                in_process=config.in_process,
            )
        except EmberError:
            first = _first_llvm_error(err)
            if first:
                raise EmberError(f"inline asm: {first}", Location(path)) from None
            fatal = _llvm_fatal_error(err)
            if fatal:
                raise EmberError(f"LLVM cannot generate code for '{config.triple or 'the host'}': {fatal}", Location(path)) from None
            raise
    assert isinstance(out, bytes | str)
    return out


def _llvm_fatal_error(stderr_path: str) -> str:
    """What LLVM said before ending the worker (`LLVM ERROR: ...`), or ''."""
    said = Path(stderr_path).read_text(errors="replace") if os.path.exists(stderr_path) else ""
    return next((ln.split("LLVM ERROR:", 1)[1].strip() for ln in said.splitlines() if "LLVM ERROR:" in ln), "")


def _first_llvm_error(stderr_path: str) -> str:
    """The first `error:` LLVM printed to `stderr_path`, as `message (where)`, or ''."""
    return guard.first_error(Path(stderr_path).read_text(errors="replace") if os.path.exists(stderr_path) else "")


# ------------------------------------------------------------------ driver side


def compile_split(
    module: engine.Module,
    bitcode: tuple[bytes, str],
    mode: str,
    jobs: int,
    config: BackendConfig,
    *,
    save_pieces: str | None = None,
    worker_timeout: float = 600.0,
    subgraph_cost: int | None = None,
    hooks: BuildHooks | None = None,
    spellings: dict[str, str] | None = None,
    check_asm: Callable[[CutPiece], object] | None = None,
    inferred: dict[str, tuple[tuple[int, str, int], ...]] | None = None,
) -> SplitResult:
    """Compile the live `module` (as `prepare_whole_module` leaves it) with the split back
    end: the plan reads its facts in memory (compiler/backend/facts.py), and it is closed
    here once planned (the workers make their own). `bitcode`: the same module as bitcode
    without its module asm, and that asm (`engine.Module.module_asm`), from which the
    workers cut their subgraphs in memory (compiler/backend/cut.py); a piece's text, where
    one is asked for (a saved piece, a printed plan, a harness's rewrite, a task cache's
    key), is its cut printed. `hooks`: a harness's changes to the plan, the pieces and the
    link (compiler/hooks.py); `spellings`: the synthetic names `names.canonicalise` gave the
    module, spelled back in the link; `check_asm`: generates code for the plan's
    `asm_probe`, cut from `bitcode` (a bad asm line raises there, as one line, before it can
    end a worker); `inferred`: what FunctionAttrs inferred on the whole module
    (compiler/backend/inferred.py), for every piece's declarations and imports."""
    if mode not in split_mode.SPLITTING:
        module.close()
        raise EmberError(f"unknown split mode '{mode}'")
    with tempfile.TemporaryDirectory(prefix="ember-split-") as scratch:
        if config.stderr_dir is None:  # the tasks' LLVM output, each in a file here
            config = dataclasses.replace(config, stderr_dir=scratch)
        whole = WholeModule(os.path.join(scratch, "module.bc"), bitcode[1])
        Path(whole.bitcode_path).write_bytes(bitcode[0])
        return _compile_split(module, bitcode, mode, jobs, config, save_pieces=save_pieces, worker_timeout=worker_timeout,
                              subgraph_cost=subgraph_cost, hooks=hooks, spellings=spellings, check_asm=check_asm,
                              whole=whole, inferred=inferred)


def _compile_split(
    module: engine.Module,
    bitcode: tuple[bytes, str],
    mode: str,
    jobs: int,
    config: BackendConfig,
    *,
    save_pieces: str | None,
    worker_timeout: float,
    subgraph_cost: int | None,
    hooks: BuildHooks | None,
    spellings: dict[str, str] | None,
    check_asm: Callable[[CutPiece], object] | None,
    whole: WholeModule,
    inferred: dict[str, tuple[tuple[int, str, int], ...]] | None = None,
) -> SplitResult:
    """`compile_split`, the whole module's bitcode in a file (`whole`) and in memory
    (`bitcode`: what a printed piece is cut from, after the file is gone)."""
    import time

    seconds: dict[str, float] = {}
    cpu_seconds: dict[str, float] = {}
    t0, c0 = time.perf_counter(), time.process_time()
    # `function` mode is level 2 only: one subgraph optimised whole, codegen per function
    target_cost = 1 << 40 if mode == SplitMode.FUNCTION else (subgraph_cost or planner.TARGET_SUBGRAPH_COST)
    # small exported callees come into their callers' subgraphs as available_externally
    # copies whenever the pipeline inlines (-O1 and up), so what the unsplit build inlines
    # (and the libcalls it then folds, e.g. printf -> puts) stays the same; the cost model
    # bounds copies and imports together (docs/backend.md, "The cost model")
    policy = planner.PlanPolicy(
        target_cost=target_cost,
        import_cost=planner.IMPORT_COST if config.opt_level >= 1 and mode != SplitMode.FUNCTION else 0,
        import_always_inline=mode != SplitMode.FUNCTION,
        # each subgraph gets the callees the unsplit inliner would inline (compiler/backend/summary.py)
        inline_level=config.opt_level if mode != SplitMode.FUNCTION else 0,
        serial_argument_facts=config.opt_level >= 1,
        serial_alias_facts=config.opt_level >= 1,
        # the prefix gave every local its serial calling convention and argument facts already
        import_locals=config.pipeline is not None,
    )
    hooks = hooks or BuildHooks()
    if hooks.plan_assignment is not None:  # a harness's fixed plan, by the module's own names
        synthetic = {name: synth for synth, name in (spellings or {}).items()}
        policy = dataclasses.replace(
            policy, assignment={synthetic.get(n, n): k for n, k in hooks.plan_assignment.items()})
    # debug info reaching here is wanted (`-g`; the driver strips it otherwise): pieces keep it
    try:
        the_plan = planner.plan(module, policy=policy, inferred=inferred)
    finally:
        module.close()  # the workers make their own pieces: free the whole module first
    print_cuts(the_plan, bitcode)
    for rewrite_plan in hooks.plan:
        the_plan = rewrite_plan(the_plan)
    seconds["split"], cpu_seconds["split"] = time.perf_counter() - t0, time.process_time() - c0
    if check_asm is not None and the_plan.asm_probe is not None:
        t0, c0 = time.perf_counter(), time.process_time()
        check_asm(_probe_source(the_plan.asm_probe, whole))
        seconds["asm check"], cpu_seconds["asm check"] = time.perf_counter() - t0, time.process_time() - c0
    order = the_plan.order
    local_names = set(the_plan.local_names)
    private_names: set[str] = set()
    # -O0 runs no GlobalDCE unsplit: every variable stays, referenced or not
    dead_when_unused = the_plan.dead_when_unused if config.opt_level >= 1 else set()
    t0, c0 = time.perf_counter(), time.process_time()
    # at -O1 and up: optimise, drop what no subgraph uses any more, then codegen (-O0 runs no
    # GlobalDCE unsplit; like GlobalDCE, names inside asm strings keep nothing alive)
    two_phase = config.opt_level >= 1
    tasks = [
        (_label(sg), (_source(sg, whole), sg.members, sg.index, config, mode != SplitMode.SUBGRAPH, two_phase))
        for sg in the_plan.subgraphs
    ]
    first, reused = _run_tasks(tasks, the_plan, jobs, config, worker_timeout, hooks.tasks)
    dead = dead_definitions(first, local_names)
    results = _second_phase(first, dead, the_plan, jobs, config, worker_timeout, hooks.tasks)
    merge_uses = _merge_uses(first, dead, the_plan, config)
    shared_seen: set[tuple[str, ...]] = set()
    cpu = {"optimise": 0.0, "codegen": 0.0}
    largest = 0.0  # CPU of the biggest task: the critical path with enough workers
    tasks_cpu: list[float] = []
    objects: list[objlink.ObjectPiece] = []
    piece_members: dict[int, list[list[str]]] = {}
    for sg, result in zip(the_plan.subgraphs, results, strict=True):
        pieces, local, private, task_cpu = result
        for stage, secs in task_cpu.items():
            cpu[stage] = cpu.get(stage, 0.0) + secs
        largest = max(largest, sum(task_cpu.values()))
        tasks_cpu.append(sum(task_cpu.values()))
        local_names |= local
        private_names |= private
        piece_members[sg.index] = [members for members, _, _ in pieces]
        for j, (members, code, shared) in enumerate(pieces):
            if shared:  # discardable linkonce copy: keep the first subgraph's, drop the rest
                ident = tuple(sorted(members))
                if ident in shared_seen:
                    continue
                shared_seen.add(ident)
            objects.append(objlink.ObjectPiece(_key(members, order, sg.index, j), code))
    seconds["optimise+codegen"], cpu_seconds["optimise+codegen"] = time.perf_counter() - t0, time.process_time() - c0
    if save_pieces:
        _write_pieces(save_pieces, the_plan, piece_members, objects)

    t0, c0 = time.perf_counter(), time.process_time()
    sizes, size_of = _object_alias_sizes(the_plan, config, merge_uses, objects)
    object_names = objlink.ObjectNames(
        local_names, private_names | the_plan.private_names, dead_when_unused & local_names, spellings, sizes, size_of)
    for rewrite_objects in hooks.objects:  # a harness's faults, after the tasks (cached results stay true)
        objects = rewrite_objects(objects)
    for rewrite_object_names in hooks.object_names:
        object_names = rewrite_object_names(object_names)
    obj = objlink.merge(objects, object_names)
    seconds["link"], cpu_seconds["link"] = time.perf_counter() - t0, time.process_time() - c0
    cpu["largest task"] = largest
    cpu["worker peak MiB"] = pool.peak_memory_mb(jobs)
    return SplitResult(
        obj, len(the_plan.subgraphs), len(objects), the_plan, seconds, cpu_seconds, cpu, piece_members, reused, tasks_cpu,
    )


def _merge_uses(
    first: list[TaskResult | Optimised], dead: dict[int, list[str]], the_plan: planner.SplitPlan, config: BackendConfig,
) -> dict[str, set[str]]:
    """GlobalMerge's input where the object link needs its decision (globalmerge.merging):
    each function the split's optimised subgraphs keep (their `dead` definitions left out)
    -> the global values it uses; else nothing. A local the optimiser made, which the plan
    does not know, is keyed with its subgraph (`name<NUL>k`): two subgraphs may each make
    one of the same name (globalmerge reads the name before the NUL)."""
    facts = the_plan.merge_facts
    if facts is None or not globalmerge.merging(facts, config.triple, config.opt_level):
        return {}
    uses: dict[str, set[str]] = {}
    for k, result in enumerate(first):
        if isinstance(result, Optimised):
            for function in result.functions - set(dead.get(k, ())):
                key = f"{function}\0{k}" if function in result.local and function not in the_plan.order else function
                uses.setdefault(key, set()).update(result.references.get(function, ()))
    return uses


def _object_alias_sizes(
    the_plan: planner.SplitPlan, config: BackendConfig, uses: dict[str, set[str]], objects: list[objlink.ObjectPiece],
) -> tuple[dict[str, int], dict[str, str]]:
    """The alias sizes the object link writes (globalmerge.object_alias_sizes): explicit
    sizes, and alias -> base where the alias takes its base's size."""
    facts = the_plan.merge_facts
    if facts is None:
        return {}, {}
    data = objlink.data_symbols(objects) if globalmerge.merging(facts, config.triple, config.opt_level) else {}
    return globalmerge.object_alias_sizes(facts, config.triple, config.opt_level, uses, data, the_plan.order)


def _second_phase(
    first: list[TaskResult | Optimised],
    dead: dict[int, list[str]],
    the_plan: planner.SplitPlan,
    jobs: int,
    config: BackendConfig,
    worker_timeout: float,
    cache: TaskCache | None,
) -> list[TaskResult]:
    """Every subgraph's finished result: the two-phase ones get their `dead` definitions
    (`dead_definitions`) deleted and their code generated on the pool (largest first),
    through `cache` too."""
    todo = [i for i, r in enumerate(first) if isinstance(r, Optimised)]
    if not todo:
        return cast(list[TaskResult], first)
    results: list[TaskResult | Optimised] = list(first)
    keys: dict[int, str] = {}
    if cache is not None:
        for i in todo:
            optimised = cast(Optimised, first[i])
            # everything `codegen_optimised_task` reads: the subgraph's place (fresh locals are
            # named for it), how it is cut in pieces, its members and locals, the target
            fields = [hashlib.sha256(optimised.bitcode).hexdigest(), dead.get(i, []), i, optimised.members,
                      sorted(optimised.local), optimised.whole, optimised.level2, config.piece_cost, config.opt_level,
                      config.triple, config.force_triple]
            if config.optimised_hooks:  # a harness's hooks run in this phase (keys without them stay)
                fields.append(_hook_names(config.optimised_hooks))
            keys[i] = hashlib.sha256(json.dumps(fields).encode()).hexdigest()
            hit = cache.get(keys[i])
            if hit is not None and not isinstance(hit, Optimised):
                results[i] = (hit[0], hit[1], hit[2], {stage: 0.0 for stage in hit[3]})
    run = sorted((i for i in todo if isinstance(results[i], Optimised)), key=lambda i: -the_plan.subgraphs[i].cost)
    if run:
        args = [(_label(the_plan.subgraphs[i]), (first[i], dead.get(i, []), i, config)) for i in run]
        done = _run_quoting_llvm(config, lambda: pool.run(
            jobs, codegen_optimised_task, args, worker_timeout, in_process=config.in_process))
        for i, result in zip(run, done, strict=True):
            results[i] = cast(TaskResult, result)
            if cache is not None:
                cache.put(keys[i], results[i])
    return cast(list[TaskResult], results)


def _run_tasks(
    tasks: list[tuple[Callable[[], str], tuple[str | CutPiece, list[str], int, BackendConfig, bool, bool]]],
    the_plan: planner.SplitPlan,
    jobs: int,
    config: BackendConfig,
    worker_timeout: float,
    cache: TaskCache | None,
) -> tuple[list[TaskResult | Optimised], int]:
    """Every subgraph's task result, in plan order, and how many came from `cache`: the
    others run on the pool (biggest first, so it stays busy) and are stored in it."""
    results: list[TaskResult | Optimised | None] = [None] * len(tasks)
    keys: list[str] = []
    if cache is not None:
        keys = []
        texts = _keyed_texts([source for _label, (source, *_rest) in tasks])
        for text, (_label, (_source, *rest)) in zip(texts, tasks, strict=True):
            keys.append(task_key(text, *rest))  # type: ignore[arg-type]
        for i, key in enumerate(keys):
            hit = cache.get(key)
            if isinstance(hit, Optimised):  # compiled before: no CPU spent on it in this build
                results[i] = dataclasses.replace(hit, cpu={stage: 0.0 for stage in hit.cpu})
            elif hit is not None:
                results[i] = (hit[0], hit[1], hit[2], {stage: 0.0 for stage in hit[3]})
    todo = [i for i in range(len(tasks)) if results[i] is None]
    schedule = sorted(todo, key=lambda i: -the_plan.subgraphs[i].cost)
    if schedule:
        done = _run_quoting_llvm(config, lambda: pool.run(
            jobs, optimise_task, [tasks[i] for i in schedule], worker_timeout, in_process=config.in_process))
        for i, result in zip(schedule, done, strict=True):
            finished = results[i] = cast(TaskResult | Optimised, result)
            if cache is not None:
                cache.put(keys[i], finished)
    assert all(r is not None for r in results)
    return cast(list[TaskResult | Optimised], results), len(tasks) - len(schedule)


def _source(sg: planner.Subgraph, whole: WholeModule) -> str | CutPiece:
    """What a subgraph's worker gets: its cut of the whole module's bitcode file, or its text
    (no bitcode file, or a harness rewrote the text)."""
    return CutPiece(whole, sg.cut) if sg.cut is not None else sg.text


def _probe_source(probe: planner.AsmProbe, whole: WholeModule) -> CutPiece:
    """What the asm check generates code for: the probe cut from the whole module's bitcode file."""
    return CutPiece(whole, probe.cut)


def _label(sg: planner.Subgraph) -> Callable[[], str]:
    """A subgraph's text, rendered only when a worker fails on it and it is saved (`pool.run`)."""
    return lambda: sg.text


def _key(members: list[str], order: dict[str, int], k: int, j: int) -> tuple[int, int, int]:
    """Stable output position: the input position of the piece's first original member."""
    positions = [order[_original(n)] for n in members if _original(n) in order]
    return (min(positions) if positions else 1 << 30, k, j)


def _original(name: str) -> str:
    return name.split(planner.COPY_SUFFIX, 1)[0]


def _write_pieces(
    directory: str,
    the_plan: planner.SplitPlan,
    piece_members: dict[int, list[list[str]]],
    objects: list[objlink.ObjectPiece],
) -> None:
    """The plan, every subgraph's text and every piece's object in `directory`."""
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    (root / "plan.txt").write_text(the_plan.describe(piece_members) + "\n")
    for sg in the_plan.subgraphs:
        (root / f"subgraph-{sg.index:03d}.ll").write_text(sg.text)
    for n, obj in enumerate(sorted(objects, key=lambda p: p.key)):
        (root / f"piece-{n:04d}-sg{obj.key[1]}.o").write_bytes(obj.obj)
