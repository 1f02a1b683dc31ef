"""The parallel back end: plan the split, optimise and codegen pieces in worker processes, MC-link.

Modes: `subgraph` (level 1 only: each optimised subgraph is one codegen piece),
`function` (no level 1: the unoptimised module is cut per function, optimised and
compiled per piece), `two-level` (level 1 for optimisation, level 2 per function for
codegen). Workers come from a `spawn` pool (llvmlite holds one global lock and LLVM is
not fork-safe); modules travel as text.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from compiler.backend import mclink, planner
from compiler.diagnostics import EmberError, Location

SPLIT_MODES = ("subgraph", "function", "two-level")

#: Deliberately broken variants for the harness's power check; never reachable from the CLI.
FAULTS = frozenset(
    {"skip-linkage-restore", "reuse-local-labels", "duplicate-internal-global", "drop-ctors", "merge-specialised-copies"}
)


@dataclass(frozen=True)
class BackendConfig:
    """What every worker needs to compile a piece."""

    opt_level: int = 2
    triple: str | None = None
    force_triple: bool = False
    faults: frozenset[str] = frozenset()
    #: instructions per level-2 codegen piece (None: planner.LEVEL2_PIECE_COST); the fuzz plan varies it
    level2_piece_cost: int | None = None


#: the planner's own level-2 piece cost, restored for builds that do not set one
_DEFAULT_LEVEL2_PIECE_COST = planner.LEVEL2_PIECE_COST


@dataclass
class SplitResult:
    """Assembly of the whole module plus facts for the time report."""

    asm: str
    subgraphs: int
    pieces: int
    plan: planner.SplitPlan
    stage_seconds: dict[str, float] = field(default_factory=dict)
    worker_cpu: dict[str, float] = field(default_factory=dict)
    #: subgraph index -> members of each codegen piece compiled from it
    piece_members: dict[int, list[list[str]]] = field(default_factory=dict)

    @property
    def plan_text(self) -> str:
        """The plan with linkages and codegen pieces (computed on demand: it re-parses subgraphs)."""
        return self.plan.describe(self.piece_members)


# ------------------------------------------------------------------ worker side


def _worker_tm(config: BackendConfig) -> Any:
    from compiler.backend import llvm_stage

    return llvm_stage.target_machine(config.triple, config.opt_level)


def _maybe_crash(text: str) -> None:
    """Test hook: a piece containing this marker kills or hangs its worker."""
    if "ember.test.crash.worker" in text:
        os.abort()
    if "ember.test.hang.worker" in text:
        import time

        time.sleep(3600)


def optimise_task(
    text: str, known: list[str], k: int, config: BackendConfig, level2: bool
) -> tuple[list[tuple[list[str], str, bool]], set[str], set[str], dict[str, float]]:
    """One subgraph in a worker: optimise (level 1), then codegen right here (no round trip).

    Returns [(members, assembly, is_shared_copy)], the local names defined, the private
    names that crossed pieces, and CPU seconds per stage. With `level2`, the optimised
    subgraph is cut per function and each piece compiled as its own module; otherwise
    the optimised module is compiled in place (locals the optimiser created renamed
    in memory), unless it holds discardable linkonce copies, which need pieces of their
    own so the link can keep one of each.
    """
    import time

    import llvmlite.binding as llvm

    from compiler.backend import llvm_stage

    _maybe_crash(text)
    cpu: dict[str, float] = {}
    start = time.process_time()
    tm = _worker_tm(config)
    module = llvm_stage.parse_ir(text, f"<subgraph {k}>")
    llvm_stage.prepare(module, tm, force_triple=config.force_triple)
    llvm_stage.optimise(module, tm, config.opt_level)
    cpu["optimise"] = time.process_time() - start
    start = time.process_time()
    discardable = {llvm.Linkage.linkonce_any, llvm.Linkage.linkonce_odr, llvm.Linkage.available_externally}
    values = [*module.functions, *module.global_variables]
    has_shared = any(not v.is_declaration and v.linkage in discardable for v in values)
    if not level2 and not has_shared:
        known_set = set(known)
        local_kinds = {llvm.Linkage.internal, llvm.Linkage.private}
        local: set[str] = set()
        unnamed = 0
        for v in values:
            if v.is_declaration or v.linkage not in local_kinds:
                continue
            if not v.name:
                v.name = f"__ember_unnamed_{k}_{unnamed}"
                unnamed += 1
            elif v.name not in known_set and planner.COPY_SUFFIX not in v.name:
                v.name = f"{v.name}{planner.COPY_SUFFIX}{k}"
            local.add(v.name)
        asm = llvm_stage.emit_assembly(module, tm)
        cpu["codegen"] = time.process_time() - start
        return [(list(known), asm, False)], local, set(), cpu
    # planner._chunk reads the module global: set it per task (pool workers serve many builds)
    planner.LEVEL2_PIECE_COST = config.level2_piece_cost or _DEFAULT_LEVEL2_PIECE_COST
    pieces, local, private = planner.split_functions(str(module), set(known), k, per_function=level2)
    out = []
    for members, piece, shared in pieces:
        piece_module = llvm_stage.parse_ir(piece, f"<subgraph {k} piece>")
        llvm_stage.prepare(piece_module, tm, force_triple=config.force_triple)
        out.append((members, llvm_stage.emit_assembly(piece_module, tm), shared))
    cpu["codegen"] = time.process_time() - start
    return out, local, private, cpu


def assemble_task(asm: str, config: BackendConfig, stderr_path: str | None = None) -> bytes:
    """The MC-linked module's assembly to one object (in a worker); LLVM's own error
    output goes to `stderr_path`, so the parent can quote it if the assembler aborts."""
    from compiler.backend import llvm_stage

    if stderr_path is None:
        return llvm_stage.assemble(asm, _worker_tm(config))
    sys.stderr.flush()
    saved = os.dup(2)
    fd = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.dup2(fd, 2)
        return llvm_stage.assemble(asm, _worker_tm(config))
    finally:
        os.dup2(saved, 2)
        os.close(fd)
        os.close(saved)


def assemble_linked(asm: str, jobs: int, config: BackendConfig, timeout: float) -> bytes:
    """Assemble the linked text in a worker: LLVM aborts the whole process on some assembler
    errors (e.g. `.globl` on a `.L` label), and that must become a clean error naming the
    assembler's complaint, not kill the driver."""
    with tempfile.TemporaryDirectory(prefix="ember-asm-") as tmp:
        err = os.path.join(tmp, "stderr.txt")
        try:
            [obj] = _run_all(
                jobs, assemble_task, [(asm, (asm, config, err))], timeout,
                doing="assembling the linked module", saved_name="linked.s", isolated=True,
            )
        except EmberError as exc:
            said = Path(err).read_text(errors="replace") if os.path.exists(err) else ""
            first = next((ln.strip() for ln in said.splitlines() if "error:" in ln), "")
            if not first:
                raise
            raise EmberError(f"assembler aborted: {first.split('error:', 1)[1].strip()} ({exc.message})", exc.location) from None
    assert isinstance(obj, bytes)
    return obj


def warm_up() -> bool:
    """Import LLVM and initialise targets in a fresh worker (overlaps the parent's parsing)."""
    from compiler.backend import llvm_stage

    llvm_stage.target_machine(None, 2)
    return True


def warm_pool(jobs: int) -> None:
    """Start the workers now so their start-up overlaps the parent's parse and plan."""
    _pool(jobs)


# ------------------------------------------------------------------ pool

_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(jobs: int) -> ProcessPoolExecutor:
    """A cached spawn pool per job count (worker start-up is paid once per process)."""
    pool = _POOLS.get(jobs)
    if pool is None:
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"))
        _POOLS[jobs] = pool
        # start every worker now, with the caller's __main__ hidden: spawn would otherwise
        # re-run a user's script (one without a __main__ guard) inside each worker
        with _main_module_hidden():
            for _ in range(jobs):
                pool.submit(warm_up)
    return pool


@contextmanager
def _main_module_hidden() -> Iterator[None]:
    main = sys.modules.get("__main__")
    saved = {k: getattr(main, k) for k in ("__file__", "__spec__") if main is not None and hasattr(main, k)}
    try:
        if "__file__" in saved:
            delattr(main, "__file__")
        if "__spec__" in saved:
            main.__spec__ = None  # type: ignore[union-attr]
        yield
    finally:
        for k, v in saved.items():
            setattr(main, k, v)


def worker_peak_mb(jobs: int) -> float:
    """Largest peak resident set (VmHWM) among the live workers of the pool, in MiB."""
    pool = _POOLS.get(jobs)
    peak = 0.0
    for proc in list(getattr(pool, "_processes", {}).values()) if pool else []:
        try:
            for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) / 1024)
        except OSError:
            continue
    return peak


def _discard_pool(jobs: int) -> None:
    pool = _POOLS.pop(jobs, None)
    if pool is not None:
        _shut_down(pool)


def _shut_down(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers (one may be hung) and drop the pool."""
    for proc in list(getattr(pool, "_processes", {}).values()):
        if proc.is_alive():
            proc.kill()
    pool.shutdown(wait=False, cancel_futures=True)


def shutdown_pools() -> None:
    """Stop every cached worker pool."""
    for jobs in list(_POOLS):
        _discard_pool(jobs)


def _save_piece(text: str, what: str, name: str = "piece.ll") -> Path:
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    directory = Path(os.environ.get("EMBER_CRASH_DIR", tempfile.gettempdir())) / f"ember-crash-{digest}"
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    tmp = directory / f".{name}.{os.getpid()}.{threading.get_ident()}.tmp"  # concurrent savers of one piece
    tmp.write_text(text)
    os.replace(tmp, path)
    (directory / "what.txt").write_text(what + "\n")
    return path


def _run_all(
    jobs: int,
    fn: Callable[..., object],
    tasks: Sequence[tuple[str, tuple[object, ...]]],
    timeout: float,
    doing: str = "compiling a piece",
    saved_name: str = "piece.ll",
    isolated: bool = False,
) -> list[object]:
    """Run tasks (piece text, args) on the pool; a crash or hang names and saves the piece.

    `EMBER_INPROCESS_J1` (a reducer's per-candidate script) runs -j1 tasks in this process,
    except `isolated` ones (LLVM may abort on them), which get a forked child: cheap, and
    the abort becomes an error instead of killing the caller.
    """
    in_process = jobs == 1 and bool(os.environ.get("EMBER_INPROCESS_J1"))
    if in_process and not isolated:
        return [fn(*args) for _text, args in tasks]
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork")) if in_process else _pool(jobs)
    futures: list[Future[object]] = [pool.submit(fn, *args) for _text, args in tasks]
    results: list[object] = []
    try:
        for (text, _args), future in zip(tasks, futures, strict=True):
            try:
                results.append(future.result(timeout=timeout))
            except BrokenProcessPool:
                if not in_process:
                    _discard_pool(jobs)
                culprit = text if len(tasks) == 1 else _find_crasher(fn, tasks, timeout)
                saved = _save_piece(culprit, "worker crashed", saved_name)
                raise EmberError(f"worker process crashed while {doing}; input saved", Location(str(saved))) from None
            except TimeoutError:
                if not in_process:
                    _discard_pool(jobs)
                saved = _save_piece(text, f"worker exceeded {timeout:g}s", saved_name)
                raise EmberError(f"worker timed out after {timeout:g}s on a piece; piece saved", Location(str(saved))) from None
            except EmberError as exc:
                saved = _save_piece(text, exc.render(), saved_name)
                raise EmberError(f"piece failed to compile: {exc.message}", Location(str(saved))) from None
    finally:
        if in_process:
            _shut_down(pool)
    return results


def _find_crasher(fn: Callable[..., object], tasks: Sequence[tuple[str, tuple[object, ...]]], timeout: float) -> str:
    """Re-run tasks one at a time in a fresh single worker to find the one that kills it."""
    for text, args in tasks:
        probe = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        try:
            with _main_module_hidden():
                future = probe.submit(fn, *args)
            future.result(timeout=timeout)
        except BrokenProcessPool:
            return text
        except Exception:
            pass
        finally:
            _shut_down(probe)
    return tasks[0][0] if tasks else ""


# ------------------------------------------------------------------ driver side


def compile_split(
    module_text: str,
    mode: str,
    jobs: int,
    config: BackendConfig,
    *,
    save_pieces: str | None = None,
    worker_timeout: float = 600.0,
    subgraph_cost: int | None = None,
) -> SplitResult:
    """Compile printed LLVM IR with the split back end; returns one assembly text."""
    import time

    if mode not in SPLIT_MODES:
        raise EmberError(f"unknown split mode '{mode}'")
    seconds: dict[str, float] = {}
    t0 = time.perf_counter()
    # `function` mode is level 2 only: one subgraph optimised whole, codegen per function
    target_cost = 1 << 40 if mode == "function" else (subgraph_cost or planner.TARGET_SUBGRAPH_COST)
    # cross-subgraph imports (callees inlined across subgraphs) keep the object's libcalls
    # and run time as unsplit, but every imported body is optimised again: -O3 imports up
    # to 8,000 instructions per subgraph, -O2 up to 2,000 (docs/performance.md: on 3,000
    # functions at -j2, 0.82x vs 1.16x vs 1.55x with none)
    import_cost = planner.IMPORT_COST if config.opt_level >= 2 and mode != "function" else 0
    budget = planner.IMPORT_BUDGET if config.opt_level >= 3 else planner.IMPORT_BUDGET_O2
    the_plan = planner.plan(module_text, target_cost=target_cost, import_cost=import_cost, import_budget=budget)
    if "duplicate-internal-global" in config.faults:
        the_plan = _fault_duplicate_globals(the_plan)
    seconds["split"] = time.perf_counter() - t0
    order = the_plan.order
    local_names = set(the_plan.local_names)
    private_names: set[str] = set()

    t0 = time.perf_counter()
    tasks = [(sg.text, (sg.text, sg.members, sg.index, config, mode != "subgraph")) for sg in the_plan.subgraphs]
    # biggest subgraphs first so the pool stays busy; output order comes from the keys
    schedule = sorted(range(len(tasks)), key=lambda i: -the_plan.subgraphs[i].cost)
    results_in_schedule = _run_all(jobs, optimise_task, [tasks[i] for i in schedule], worker_timeout)
    results: list[object] = [None] * len(tasks)
    for i, result in zip(schedule, results_in_schedule, strict=True):
        results[i] = result
    shared_seen: set[tuple[str, ...]] = set()
    cpu = {"optimise": 0.0, "codegen": 0.0}
    pieces_asm: list[mclink.AsmPiece] = []
    piece_members: dict[int, list[list[str]]] = {}
    for sg, result in zip(the_plan.subgraphs, results, strict=True):
        pieces, local, private, task_cpu = cast(
            tuple[list[tuple[list[str], str, bool]], set[str], set[str], dict[str, float]], result
        )
        for stage, secs in task_cpu.items():
            cpu[stage] += secs
        local_names |= local
        private_names |= private
        piece_members[sg.index] = [members for members, _, _ in pieces]
        for j, (members, asm_text, shared) in enumerate(pieces):
            if shared:  # discardable linkonce copy: keep the first subgraph's, drop the rest
                ident = tuple(sorted(members))
                if ident in shared_seen:
                    continue
                shared_seen.add(ident)
            pieces_asm.append(mclink.AsmPiece(_key(members, order, sg.index, j), asm_text))
    seconds["optimise+codegen"] = time.perf_counter() - t0
    if save_pieces:
        _write_pieces(save_pieces, the_plan, pieces_asm, piece_members)

    t0 = time.perf_counter()
    if "drop-ctors" in config.faults:  # constructors live in .ctors (llvmlite) or .init_array
        pieces_asm = [
            mclink.AsmPiece(p.key, p.asm.replace(".init_array", ".data.ember_dropped").replace(".ctors", ".data.ember_dropped"))
            for p in pieces_asm
        ]
    if "merge-specialised-copies" in config.faults:
        pieces_asm = _fault_merge_copies(pieces_asm)
    asm = mclink.link(
        pieces_asm,
        local_names,
        private_names | the_plan.private_names,
        keep_linkage_directives="skip-linkage-restore" in config.faults,
        unique_labels="reuse-local-labels" not in config.faults,
    )
    seconds["link"] = time.perf_counter() - t0
    cpu["worker peak MiB"] = worker_peak_mb(jobs)
    return SplitResult(asm, len(the_plan.subgraphs), len(pieces_asm), the_plan, seconds, cpu, piece_members)


def _key(members: list[str], order: dict[str, int], k: int, j: int) -> tuple[int, int, int]:
    """Stable output position: the input position of the piece's first original member."""
    positions = [order[_original(n)] for n in members if _original(n) in order]
    return (min(positions) if positions else 1 << 30, k, j)


def _original(name: str) -> str:
    return name.split(planner.COPY_SUFFIX, 1)[0]


def _write_pieces(
    directory: str,
    the_plan: planner.SplitPlan,
    pieces: list[mclink.AsmPiece],
    piece_members: dict[int, list[list[str]]],
) -> None:
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    (root / "plan.txt").write_text(the_plan.describe(piece_members) + "\n")
    for sg in the_plan.subgraphs:
        (root / f"subgraph-{sg.index:03d}.ll").write_text(sg.text)
    for n, piece in enumerate(sorted(pieces, key=lambda p: p.key)):
        (root / f"piece-{n:04d}-sg{piece.key[1]}.s").write_text(piece.asm)


def _fault_duplicate_globals(the_plan: planner.SplitPlan) -> planner.SplitPlan:
    """Power-check fault: every subgraph defines its own copy of internal mutable globals."""
    import re

    for sg in the_plan.subgraphs:
        sg.text = re.sub(
            r"^@([-\w$.]+) = external hidden global (.+?)(, align \d+)?$",
            lambda m: f"@{m.group(1)} = internal global {m.group(2)} zeroinitializer{m.group(3) or ''}",
            sg.text,
            flags=re.M,
        )
    return the_plan


def _fault_merge_copies(pieces: list[mclink.AsmPiece]) -> list[mclink.AsmPiece]:
    """Power-check fault: every use of a per-subgraph copy `f.ember.K` goes to the home `f` instead.

    This is the wrong merge contract 2 forbids: copies that IPO specialised differently
    (constant arguments propagated, dead arguments dropped) are not interchangeable.
    """
    import re

    copy_ref = re.compile(r"(?<![\w.$])([A-Za-z_$][\w$]*)" + re.escape(planner.COPY_SUFFIX) + r"\d+(?![\w$])")

    def merge(asm: str) -> str:
        lines = asm.splitlines()
        for n, line in enumerate(lines):
            stripped = line.lstrip()
            if line[:1] in (" ", "\t") and not stripped.startswith("."):  # instructions only, not definitions
                lines[n] = copy_ref.sub(lambda m: m.group(1), line)
        return "\n".join(lines) + "\n"

    return [mclink.AsmPiece(p.key, merge(p.asm)) for p in pieces]
