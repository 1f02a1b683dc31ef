"""Builds, links, runs and compares the configurations of one module: a cache of builds and
of runs by the object's hash, with up to `lanes` builds in flight (each thread on a build
server of its own)."""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import os
import tempfile
import threading
import time
import traceback
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from compiler import driver
from compiler.backend.split_mode import SplitMode
from compiler.diagnostics import EmberError
from compiler.link import link_executable
from fuzz import buildserver, cross
from fuzz.properties.model import (
    INTERP_FUEL,
    INTERP_LABEL,
    RUN_LIMITS,
    WORKER_TIMEOUT,
    BuildConfig,
    BuildOutcome,
    Failure,
    Stats,
)
from fuzz.properties.signature import error_cause
from fuzz.strategies import FuzzCase
from oracle import interp, runner, symtab

#: A whole build (the driver's own timeout is per worker piece).
BUILD_TIMEOUT = 300.0
#: A whole build of a generated Ember program (they compile in about a second; the MLIR
#: midend is the part that has hung).
EMBER_BUILD_TIMEOUT = 30.0
#: Most builds one check has in flight (a plan has about six: more lanes would idle).
MAX_LANES = 6


def default_lanes() -> int:
    """Concurrent builds per check: `$EMBER_CHECK_LANES`, else this process's share of the
    CPUs (pytest-xdist's workers split them), between 1 and `MAX_LANES`."""
    configured = os.environ.get("EMBER_CHECK_LANES", "").strip()
    if configured:
        if not configured.isdigit() or int(configured) < 1:
            raise EmberError(f"EMBER_CHECK_LANES must be a whole number of at least 1, not {configured!r}")
        return int(configured)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    sharers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1") or 1)
    return max(1, min(MAX_LANES, cpus // max(1, sharers)))


class BuildRunner:
    """Builds, runs and compares configurations of one module in a scratch directory.

    `prefetch` starts builds (and the links and runs of what they produce) in up to
    `lanes` threads; `build` and `execute` then wait for those results, or do the work
    themselves. Call `close` before the scratch directory goes.
    """

    def __init__(
        self,
        case: FuzzCase,
        workdir: Path,
        *,
        faults: frozenset[str] = frozenset(),
        stats: Stats | None = None,
        limits: runner.Limits = RUN_LIMITS,
        lanes: int = 1,
        task_cache: Path | None = None,
        target: str | None = None,
    ) -> None:
        self.case = case
        #: a folder of split back-end tasks shared with other checks (a reduction's; `fuzz.task_cache`)
        self.task_cache = task_cache
        #: what the support module is built for and the programs are linked and run for (None: the host)
        self.target = target
        self.workdir = workdir
        self.faults = faults
        self.stats = stats if stats is not None else Stats()
        self.limits = limits
        self.input = workdir / case.input_name
        self.input.write_text(case.module)
        self.support_obj: Path | None = None
        self.builds: dict[BuildConfig, BuildOutcome] = {}
        self._runs: dict[str, Future[tuple[runner.RunResult | None, str | None]]] = {}
        self._pending: dict[BuildConfig, Future[BuildOutcome]] = {}
        self._tables: dict[str, tuple[list[symtab.Symbol], list[symtab.Relocation]]] = {}
        self._executor = ThreadPoolExecutor(lanes, thread_name_prefix="ember-check") if lanes > 1 else None
        self._lock = threading.Lock()  # stats, the output counter and the run table
        self._support_lock = threading.Lock()
        self._outputs = 0

    def close(self) -> None:
        """Wait for builds in flight and drop those not started (a check that stopped early)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def _count(self, stage: str, amount: float, counter: str | None = None) -> None:
        """Add to a stage (or counter) of the shared stats; threads of a check call this."""
        with self._lock:
            setattr(self.stats, stage, getattr(self.stats, stage) + amount)
            if counter is not None:
                setattr(self.stats, counter, getattr(self.stats, counter) + 1)

    def _support(self) -> Path | None:
        if self.case.support is None:
            return None
        with self._support_lock:
            if self.support_obj is None:
                src = self.workdir / "support.ll"
                src.write_text(self.case.support)
                out = self.workdir / "support.o"
                options = driver.BuildOptions(split=SplitMode.NONE, target=self.target)
                result = buildserver.build(src, options, out, timeout=WORKER_TIMEOUT)
                if not result.ok:
                    raise EmberError(f"support module does not build: {result.error}")
                self.support_obj = out
            return self.support_obj

    def prefetch(self, configs: Iterable[BuildConfig]) -> None:
        """Start building `configs` (and, for a runnable case, linking and running them) in the background."""
        if self._executor is None:
            return
        for config in configs:
            if config in self.builds or config in self._pending:
                continue
            self._pending[config] = self._executor.submit(self._build_and_run, config)

    def _build_and_run(self, config: BuildConfig) -> BuildOutcome:
        outcome = self._build(config)
        if self.case.runnable and outcome.obj is not None:
            # a harness error here is raised again where `execute` asks for this run
            with contextlib.suppress(Exception):
                self._run_object(outcome.obj)
        return outcome

    def build(self, config: BuildConfig) -> BuildOutcome:
        """Compile (once per configuration); failures are recorded, never raised."""
        if config in self.builds:
            return self.builds[config]
        pending = self._pending.pop(config, None)
        outcome = pending.result() if pending is not None else self._build(config)
        self.builds[config] = outcome
        return outcome

    def _build(self, config: BuildConfig) -> BuildOutcome:
        outcome = BuildOutcome(config)
        start = time.perf_counter()
        try:
            if config.candidate is not None:
                from oracle.candidate import CandidateCommand

                result = CandidateCommand(config.candidate).compile(self.input, workdir=self.workdir)
                outcome.obj, outcome.error, outcome.hang = result.obj, result.error, result.timed_out
            else:
                with self._lock:
                    out = self.workdir / f"build-{self._outputs}.o"
                    self._outputs += 1
                timeout = EMBER_BUILD_TIMEOUT if self.case.is_ember else BUILD_TIMEOUT
                shared = self.workdir if self.case.is_ember else None  # one lowering per -O for all lanes
                built = buildserver.build(self.input, config.options(self.faults), out, timeout=timeout, share_lowering=shared,
                                          task_cache=self.task_cache)
                if built.ok:
                    outcome.obj = out.read_bytes()
                else:
                    outcome.error, outcome.hang = built.error, built.hang
        except Exception as exc:  # a bug in the harness's own plumbing: still a crash finding, never lost
            outcome.error = f"internal error: {type(exc).__name__}: {exc}\n{traceback.format_exc()}"
        outcome.seconds = time.perf_counter() - start
        self._count("compile", outcome.seconds, "builds")
        if outcome.obj is not None:
            start = time.perf_counter()
            digest = hashlib.sha256(outcome.obj).hexdigest()
            try:
                with self._lock:
                    tables = self._tables.get(digest)
                if tables is None:  # identical objects (a -j pair, usually) are read once
                    tables = symtab.read_tables(outcome.obj)
                    with self._lock:
                        self._tables[digest] = tables
                outcome.symbols, outcome.relocations = tables
            except EmberError as exc:
                outcome.error = f"unreadable object: {exc.render()}"
                outcome.obj = None
            self._count("compare", time.perf_counter() - start)
        return outcome

    def execute(self, outcome: BuildOutcome) -> None:
        """Link (with the support object) and run, once per distinct object."""
        if outcome.obj is None or outcome.run is not None or outcome.run_error is not None:
            return
        outcome.run, outcome.run_error = self._run_object(outcome.obj)

    def _run_object(self, obj: bytes) -> tuple[runner.RunResult | None, str | None]:
        """The run of one object; a second thread asking for the same bytes waits for the first."""
        digest = hashlib.sha256(obj).hexdigest()
        mine: Future[tuple[runner.RunResult | None, str | None]] = Future()
        with self._lock:
            first = self._runs.setdefault(digest, mine)
        if first is not mine:
            return first.result()
        start = time.perf_counter()
        try:
            with tempfile.TemporaryDirectory(prefix="run-", dir=self.workdir) as tmp:
                path = Path(tmp) / "prog.o"
                path.write_bytes(obj)
                objects: list[Path] = [path]
                support = self._support()
                if support is not None:
                    objects.append(support)
                result: tuple[runner.RunResult | None, str | None] = (self._link_and_run(objects, Path(tmp) / "prog"), None)
        except EmberError as exc:
            result = (None, exc.message)
        except BaseException as exc:  # never leave another thread waiting on this run
            mine.set_exception(exc)
            raise
        mine.set_result(result)
        self._count("run", time.perf_counter() - start, "runs")
        return result

    def _link_and_run(self, objects: list[Path], exe: Path) -> runner.RunResult:
        """Link for the target (the host's `cc`, or the cross gcc) and run it (natively, or under QEMU)."""
        if self.target is None:
            return runner.run_executable(link_executable(objects, exe, with_runtime=self.case.is_ember), limits=self.limits)
        cross.link(objects, exe, with_runtime=self.case.is_ember)
        return runner.run_command([*cross.runner_prefix(), str(exe)], limits=self.limits)

    def interpret(self) -> BuildOutcome:
        """The reference interpreter's run of an Ember program, as a pseudo-build."""
        outcome = BuildOutcome(BuildConfig(candidate=INTERP_LABEL))
        start = time.perf_counter()
        try:
            r = interp.run_source(self.case.module, str(self.input), fuel=INTERP_FUEL)
        except EmberError as exc:  # the generator made a program the builds rejects
            outcome.error = exc.render()
        else:
            if r.exhausted:
                outcome.error, outcome.hang = r.stderr.decode(errors="replace").strip(), True
            else:
                outcome.run = runner.RunResult(r.stdout, r.stderr, r.exit_status)
        self._count("run", time.perf_counter() - start, "runs")
        self.builds[outcome.config] = outcome
        return outcome

    def compare(self, ref: BuildOutcome, cand: BuildOutcome, *, symbols: bool) -> list[Failure]:
        """Behaviour (and, with `symbols`, the symbol normal form) of `cand` against `ref`."""
        self._count("checks", 1)
        r, c = ref.config.label, cand.config.label
        if cand.error is not None:
            return [Failure("hang" if cand.hang else "crash", r, c, f"{c}: build failed", cand.error, error_cause(cand.error))]
        if self.case.runnable:
            self.execute(ref)
            self.execute(cand)
        start = time.perf_counter()
        try:
            failures: list[Failure] = []
            if symbols and ref.symbols is not None and cand.symbols is not None:
                diff = symtab.diff_symbols(ref.symbols, cand.symbols)
                if not diff.clean:
                    first = (diff.leaked_locals + diff.added + diff.removed + [a for a, _ in diff.changed])[0]
                    kinds = [k for k, found in (("leaked-local", diff.leaked_locals), ("added", diff.added),
                                                ("removed", diff.removed), ("changed", diff.changed)) if found]
                    failures.append(
                        Failure("symbol-difference", r, c, f"{c}: symbol '{first.name}' differs", diff.render(r, c),
                                ",".join(kinds))
                    )
                else:
                    failures += _full_symbol_failures(ref, cand)
            if cand.run_error is not None and ref.run_error is None:
                failures.insert(0, Failure("crash", r, c, f"{c}: {cand.run_error}", cand.run_error))
                return failures
            if ref.run is None or cand.run is None:
                return failures
            failures[:0] = _behaviour(ref, cand)
            return failures
        finally:
            self._count("compare", time.perf_counter() - start)

    def same_bytes(self, a: BuildOutcome, b: BuildOutcome) -> list[Failure]:
        """Objects of the same configuration at different -j must be byte-identical."""
        self._count("checks", 1)
        if a.obj is None or b.obj is None or a.obj == b.obj:
            return []
        detail = ""
        if a.symbols is not None and b.symbols is not None:
            ta, tb = symtab.format_table(a.symbols), symtab.format_table(b.symbols)
            detail = "\n".join(difflib.unified_diff(ta.splitlines(), tb.splitlines(), a.config.label, b.config.label, lineterm=""))
        first = next(i for i, (x, y) in enumerate(zip(a.obj, b.obj, strict=False)) if x != y) if len(a.obj) == len(b.obj) else -1
        where = f"first differing byte at offset {first}" if first >= 0 else f"sizes {len(a.obj)} vs {len(b.obj)} bytes"
        return [Failure("nondeterminism", a.config.label, b.config.label, f"object bytes differ across -j ({where})", detail)]


def _full_symbol_failures(ref: BuildOutcome, cand: BuildOutcome) -> list[Failure]:
    """Sizes, types, section kinds of every symbol and (at -O0 on both sides) locals and relocations."""
    if cand.config.candidate is not None or ref.symbols is None or cand.symbols is None:
        return []  # an external candidate names and lays out its pieces its own way
    exact = ref.config.opt == 0 and cand.config.opt == 0
    lines = symtab.diff_full(ref.symbols, cand.symbols, ref.relocations or [], cand.relocations or [], exact_code=exact)
    if not lines:
        return []
    r, c = ref.config.label, cand.config.label
    detail = "\n".join([f"--- {r}", f"+++ {c}", *lines])
    return [Failure("symbol-difference", r, c, f"{c}: {lines[0]}", detail, "attributes")]


def _behaviour(ref: BuildOutcome, cand: BuildOutcome) -> list[Failure]:
    assert ref.run is not None and cand.run is not None
    r, c = ref.config.label, cand.config.label
    if cand.run.timed_out and not ref.run.timed_out:
        return [Failure("hang", r, c, f"{c}: program ran past its time limit (reference: {ref.run.outcome})")]
    if cand.run.signal is not None and ref.run.signal is None:
        return [Failure("crash", r, c, f"{c}: program died of {cand.run.outcome.split()[-1]}", _output_diff(ref, cand))]
    if ref.behaviour != cand.behaviour:
        return [Failure("wrong-output", r, c, f"{c}: {_first_difference(ref, cand)}", _output_diff(ref, cand))]
    return []


def _first_difference(ref: BuildOutcome, cand: BuildOutcome) -> str:
    assert ref.run is not None and cand.run is not None
    if ref.run.outcome != cand.run.outcome:
        return f"{cand.run.outcome} (reference: {ref.run.outcome})"
    a, b = ref.run.stdout.decode(errors="replace").splitlines(), cand.run.stdout.decode(errors="replace").splitlines()
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"stdout line {i + 1}: {y!r} (reference: {x!r})"
    return f"stdout has {len(b)} lines (reference: {len(a)})"


def _output_diff(ref: BuildOutcome, cand: BuildOutcome) -> str:
    assert ref.run is not None and cand.run is not None
    a = ref.run.stdout.decode(errors="replace").splitlines() + [f"[{ref.run.outcome}]"]
    b = cand.run.stdout.decode(errors="replace").splitlines() + [f"[{cand.run.outcome}]"]
    return "\n".join(difflib.unified_diff(a, b, ref.config.label, cand.config.label, lineterm=""))
