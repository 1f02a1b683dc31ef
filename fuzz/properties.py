"""The differential properties: what split, -j, -O and candidate builds must agree on.

One *check* compares one build with its reference: behaviour (stdout and exit status of
the linked program), the symbol-table normal form (`symdiff`), or the object bytes.
`check(case, plan)` builds the reference (`--split none` at the plan's -O), then every
configuration of the plan, and returns a `Report` whose failures are classified:

- `crash`: the compiler, a worker, the assembler or the link failed (or the program
  died of a signal where the reference did not);
- `hang`: a worker or the program ran past its time limit where the reference did not;
- `wrong-output`: stdout or exit status differ from the reference;
- `symbol-difference`: a non-local symbol differs or a local leaked (contract 1);
- `nondeterminism`: the same configuration gave different bytes for another `-j`;
- `debug-info`: in a `-g` plan, a split object's DWARF does not verify, describes other
  subprograms, or maps code that is the serial object's to other lines
  (`oracle.debuginfo`).

An Ember program (`case.is_ember`) is judged against the reference interpreter first:
every build's behaviour must equal the interpreter's (`interpreter == compiled`), and
split builds must also equal `--split none` at the symbol level.

Builds run through `driver.build` in a long-lived build server (`fuzz.buildserver`:
warm LLVM and worker pools, and a compiler that exits or hangs cannot take the harness
down); runs are cached by the object's hash, so identical objects run once. A check's
builds, links and runs go on in `lanes` threads at once (each thread on a build server
of its own), while the main thread interprets and compares; the verdicts are the same
as a sequential check's, since every comparison still happens in plan order.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import hashlib
import os
import re
import tempfile
import threading
import time
import traceback
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from compiler import driver
from compiler.diagnostics import EmberError
from compiler.link import link_executable
from compiler.offload import embed
from fuzz import buildserver
from fuzz import faults as _faults  # noqa: F401  (installs the harness's back-end hooks)
from fuzz.strategies import FuzzCase
from oracle import interp, runner, symtab

#: In the order a report's headline picks them.
CLASSIFICATIONS = ("crash", "hang", "wrong-output", "symbol-difference", "nondeterminism", "debug-info")
SPLIT_MODES = tuple(m for m in driver.SPLIT_MODES if m not in ("none", "auto"))
#: Generated programs finish in milliseconds: anything near this is a hang.
RUN_LIMITS = runner.Limits(timeout_s=10.0, memory_mb=1024, cpu_s=20, output_mb=16)
WORKER_TIMEOUT = 120.0
#: A whole build (the driver's own timeout is per worker piece).
BUILD_TIMEOUT = 300.0
#: A whole build of a generated Ember program (they compile in about a second; the MLIR
#: midend is the part that has hung).
EMBER_BUILD_TIMEOUT = 30.0
#: Interpreter limits for generated Ember programs (they need a few thousand steps).
INTERP_FUEL = 5_000_000
INTERP_LABEL = "interpreter"
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


@dataclass(frozen=True)
class BuildConfig:
    """One way of compiling the module: Ember with options, or an external candidate command."""

    split: str = "none"
    jobs: int = 1
    opt: int = 2
    cost: int | None = None
    candidate: str | None = None
    piece_cost: int | None = None  # level-2 codegen piece cost (None: the planner's default)
    debug: bool = False  # `-g`

    @property
    def label(self) -> str:
        if self.candidate == INTERP_LABEL:
            return INTERP_LABEL
        if self.candidate is not None:
            return f"candidate -O{self.opt}"
        parts = [f"--split {self.split}", f"-O{self.opt}", *(["-g"] if self.debug else [])]
        if self.split != "none":
            parts.insert(1, f"-j{self.jobs}")
            if self.cost is not None:
                parts.append(f"--split-cost {self.cost}")
            if self.piece_cost is not None:
                parts.append(f"--split-piece-cost {self.piece_cost}")
        return " ".join(parts)

    @property
    def slug(self) -> str:
        """The label as a directory name."""
        return "-".join(p.lstrip("-").replace(" ", "") for p in self.label.split(" ") if p).replace("split-", "")

    def options(self, faults: frozenset[str] = frozenset()) -> driver.BuildOptions:
        return driver.BuildOptions(
            opt_level=self.opt,
            split=self.split,
            jobs=self.jobs,
            subgraph_cost=self.cost,
            piece_cost=self.piece_cost,
            worker_timeout=WORKER_TIMEOUT,
            faults=faults if self.split != "none" else frozenset(),
            debug_info=self.debug,
        )

    def command(self, inp: str, out: str) -> str:
        """The exact shell command that makes this build."""
        if self.candidate == INTERP_LABEL:
            return f"ember interp {inp}"
        if self.candidate is not None:
            from oracle.candidate import CandidateCommand

            return CandidateCommand(self.candidate).render(inp, out)
        words = ["ember", "build", inp, "-o", out, "--split", self.split, f"-O{self.opt}", *(["-g"] if self.debug else [])]
        if self.split != "none":
            words += ["-j", str(self.jobs)]
            if self.cost is not None:
                words += ["--split-cost", str(self.cost)]
            if self.piece_cost is not None:
                words += ["--split-piece-cost", str(self.piece_cost)]
        return " ".join(words)


REFERENCE = BuildConfig()
#: level-2 piece costs a plan draws from (besides the default): 1 puts every function in a piece of its own
PIECE_COSTS = (1, 8, 30, 100, 250)


@dataclass
class BuildOutcome:
    """One build and (lazily) its run."""

    config: BuildConfig
    obj: bytes | None = None
    error: str | None = None
    hang: bool = False
    seconds: float = 0.0
    symbols: list[symtab.Symbol] | None = None
    relocations: list[symtab.Relocation] | None = None
    run: runner.RunResult | None = None
    run_error: str | None = None

    @property
    def behaviour(self) -> tuple[str, bytes] | None:
        return None if self.run is None else (self.run.outcome, self.run.stdout)


@dataclass(frozen=True)
class Failure:
    """One classified disagreement between a build and its reference."""

    classification: str
    reference: str
    candidate: str
    summary: str
    detail: str = ""
    #: for a build that failed: what failed, without file names or positions (`error_cause`)
    cause: str = ""


@dataclass
class Stats:
    """Where the time went (seconds per stage) and how many checks ran."""

    generation: float = 0.0
    compile: float = 0.0
    run: float = 0.0
    compare: float = 0.0
    #: wall-clock seconds of generation and checking (the stages above overlap within a check)
    wall: float = 0.0
    checks: int = 0
    examples: int = 0
    builds: int = 0
    runs: int = 0

    def add(self, other: Stats) -> None:
        for name, value in asdict(other).items():
            setattr(self, name, getattr(self, name) + value)

    @property
    def busy(self) -> float:
        return self.generation + self.compile + self.run + self.compare

    def render(self) -> str:
        busy = self.busy or 1e-9
        parts = [
            f"{name} {getattr(self, name):.2f}s ({100 * getattr(self, name) / busy:.0f}%)"
            for name in ("generation", "compile", "run", "compare")
        ]
        return (
            f"{self.examples} examples, {self.checks} checks, {self.builds} builds, {self.runs} runs; "
            f"{self.checks / (self.wall or busy):.1f} checks/s; busy time " + ", ".join(parts)
        )


@dataclass(frozen=True)
class CheckPlan:
    """What to compare for one module: split configurations at one -O, plus the -O0/-O2 check."""

    opt: int = 2
    cost: int | None = None
    configs: tuple[BuildConfig, ...] = ()
    opt_check: bool = True
    #: `-g`: the reference is built with -g too, and each split object's DWARF is checked against it
    debug: bool = False

    @property
    def reference(self) -> BuildConfig:
        return BuildConfig(opt=self.opt, debug=self.debug)

    def __repr__(self) -> str:
        checks = "; ".join(c.label for c in self.configs)
        g = " -g" if self.debug else ""
        return f"CheckPlan(reference --split none -O{self.opt}{g}; {checks}{'; -O check' if self.opt_check else ''})"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # Hypothesis' pretty printer
        p.text(repr(self))

    def to_json(self) -> dict[str, object]:
        return {"opt": self.opt, "cost": self.cost, "opt_check": self.opt_check, "debug": self.debug,
                "configs": [asdict(c) for c in self.configs]}

    @staticmethod
    def from_json(data: dict[str, object]) -> CheckPlan:
        configs = data.get("configs", [])
        assert isinstance(configs, list)
        opt, cost = data.get("opt", 2), data.get("cost")
        assert isinstance(opt, int) and (cost is None or isinstance(cost, int))
        return CheckPlan(
            opt, cost, tuple(BuildConfig(**c) for c in configs), bool(data.get("opt_check", True)), bool(data.get("debug", False))
        )


@dataclass
class Report:
    """Every build of one check and what disagreed."""

    case: FuzzCase
    plan: CheckPlan
    faults: frozenset[str]
    builds: dict[str, BuildOutcome] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    checks: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def classification(self) -> str:
        found = {f.classification for f in self.failures}
        return next((c for c in CLASSIFICATIONS if c in found), "ok")

    def summary(self) -> str:
        if self.ok:
            return f"{self.checks} checks agree"
        return "; ".join(f"{f.classification}: {f.summary}" for f in self.failures[:4]) + (
            f" (+{len(self.failures) - 4} more)" if len(self.failures) > 4 else ""
        )

    def diff_text(self) -> str:
        blocks = []
        for f in self.failures:
            blocks.append(f"== {f.classification}: {f.reference}  vs  {f.candidate}\n{f.summary}\n{f.detail}".rstrip())
        return "\n\n".join(blocks) + "\n"


# ------------------------------------------------------------------ failures as exceptions


class DifferentialFailure(AssertionError):
    """A check failed; `finding` is the saved reproducer (written before this is raised)."""

    classification = "failure"

    def __init__(self, report: Report, finding: Path | None = None) -> None:
        self.report = report
        self.finding = finding
        where = f"\nfinding saved: {finding}" if finding else ""
        super().__init__(f"{report.classification}: {report.summary()}{where}\n\n{report.diff_text()}")


class Crash(DifferentialFailure):
    classification = "crash"


class Hang(DifferentialFailure):
    classification = "hang"


class WrongOutput(DifferentialFailure):
    classification = "wrong-output"


class SymbolDifference(DifferentialFailure):
    classification = "symbol-difference"


class Nondeterminism(DifferentialFailure):
    classification = "nondeterminism"


class DebugInfoDifference(DifferentialFailure):
    classification = "debug-info"


EXCEPTIONS: dict[str, type[DifferentialFailure]] = {
    cls.classification: cls for cls in (Crash, Hang, WrongOutput, SymbolDifference, Nondeterminism, DebugInfoDifference)
}


#: `file:line:col: error: ` (or `file: error: `) in front of a rendered diagnostic
_LOCATED = re.compile(r"^(?:[^:\n]*:(?:\d+:)*\s*)?(?:error|internal error):\s*")


def error_cause(error: str) -> str:
    """What a failed build's error says failed, without where: the first line's message up
    to its first colon (`assembler aborted`, `worker crashed`), so two candidates that fail
    the same way agree even though their file names and positions differ."""
    first = error.strip().splitlines()[0] if error.strip() else ""
    return _LOCATED.sub("", first).split(":")[0].strip()


Signature = frozenset[tuple[str, str, str, str]]


def signature(report: Report, classifications: Iterable[str] | None = None) -> Signature:
    """How a check failed, as the reducer preserves it: (classification, reference,
    candidate, cause) of each failure, optionally only of some classifications."""
    wanted = None if classifications is None else set(classifications)
    return frozenset(
        (f.classification, f.reference, f.candidate, f.cause)
        for f in report.failures
        if wanted is None or f.classification in wanted
    )


def render_signature(sig: Signature) -> str:
    """One line per failure: `crash: --split none -O2 vs --split two-level -j2 -O2 (assembler aborted)`."""
    return "; ".join(f"{c}: {r} vs {k}" + (f" ({why})" if why else "") for c, r, k, why in sorted(sig))


def failure_exception(report: Report, finding: Path | None = None) -> DifferentialFailure:
    """The exception for a failed report (its class names the headline classification)."""
    return EXCEPTIONS[report.classification](report, finding)


# ------------------------------------------------------------------ building, running, comparing


class Checker:
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
    ) -> None:
        self.case = case
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
                result = buildserver.build(src, driver.BuildOptions(split="none"), out, timeout=WORKER_TIMEOUT)
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
                built = buildserver.build(self.input, config.options(self.faults), out, timeout=timeout, share_lowering=shared)
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
                exe = link_executable(objects, Path(tmp) / "prog", with_runtime=self.case.is_ember)
                result: tuple[runner.RunResult | None, str | None] = (runner.run_executable(exe, limits=self.limits), None)
        except EmberError as exc:
            result = (None, exc.message)
        except BaseException as exc:  # never leave another thread waiting on this run
            mine.set_exception(exc)
            raise
        mine.set_result(result)
        self._count("run", time.perf_counter() - start, "runs")
        return result

    def interpret(self) -> BuildOutcome:
        """The reference interpreter's run of an Ember program, as a pseudo-build."""
        outcome = BuildOutcome(BuildConfig(candidate=INTERP_LABEL))
        start = time.perf_counter()
        try:
            r = interp.run_source(self.case.module, str(self.input), fuel=INTERP_FUEL)
        except EmberError as exc:  # the generator made a program the checker rejects
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


SOURCE_LABEL = "the program's @export list"


def exported_names(source: str) -> set[str]:
    """The functions an Ember program marks `@export` (decorators stacked in any order)."""
    names: set[str] = set()
    decorators: list[str] = []
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith("@"):
            decorators.append(stripped.split("(")[0])
            continue
        if stripped.startswith("def ") and "@export" in decorators:
            names.add(stripped[4:].split("(")[0].strip())
        if stripped:
            decorators = []
    return names


def export_failures(source: str, ref: BuildOutcome) -> list[Failure]:
    """An Ember object defines exactly the program's `@export` functions and `main` as
    non-local symbols: a helper that leaks (or an export that goes local) is a difference
    no split-vs-unsplit comparison can see, since both builds share the front end."""
    if ref.symbols is None:
        return []
    defined = {s.name for s in ref.symbols if not s.is_local and s.defined}
    wanted = exported_names(source) | {"main"}
    if "@kernel" in source:  # the embedded PTX table the GPU runtime looks up (docs/offload.md)
        wanted |= {embed.TABLE, embed.COUNT}
    if defined == wanted:
        return []
    extra, missing = sorted(defined - wanted), sorted(wanted - defined)
    what = ", ".join([*(f"+ {n}" for n in extra), *(f"- {n}" for n in missing)])
    return [Failure("symbol-difference", SOURCE_LABEL, ref.config.label, f"{ref.config.label}: non-local symbols {what}",
                    f"defined non-local: {sorted(defined)}\n@export and main: {sorted(wanted)}", "exports")]


def debug_failures(ref: BuildOutcome, cand: BuildOutcome) -> list[Failure]:
    """A `-g` split object against the `-g` serial one (`oracle.debuginfo`'s three checks)."""
    from oracle import debuginfo

    if ref.obj is None or cand.obj is None:
        return []
    r, c = ref.config.label, cand.config.label
    problems = debuginfo.verify(cand.obj)
    if problems is not None:
        return [Failure("debug-info", r, c, f"{c}: llvm-dwarfdump --verify: {problems.splitlines()[0]}", problems, "verify")]
    want, got = debuginfo.subprograms(ref.obj), debuginfo.subprograms(cand.obj)
    if want != got:
        detail = "\n".join([*(f"- {s}" for s in sorted(want - got)), *(f"+ {s}" for s in sorted(got - want))])
        return [Failure("debug-info", r, c, f"{c}: subprograms differ", detail, "subprograms")]
    lines = debuginfo.compare_lines(ref.obj, cand.obj)
    if lines.differences:
        return [Failure("debug-info", r, c, f"{c}: {lines.differences[0]}", "\n".join(lines.differences), "lines")]
    return []


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


# ------------------------------------------------------------------ the properties


def check(
    case: FuzzCase,
    plan: CheckPlan,
    *,
    faults: frozenset[str] = frozenset(),
    stats: Stats | None = None,
    limits: runner.Limits = RUN_LIMITS,
    lanes: int | None = None,
) -> Report:
    """Run every check of `plan` on `case` and classify what disagreed (never raises on a finding).

    `lanes`: builds in flight at once (default `default_lanes()`; 1 is strictly sequential).
    """
    stats = stats if stats is not None else Stats()
    stats.examples += 1
    report = Report(case, plan, faults)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ember-check-") as tmp:
        checker = Checker(case, Path(tmp), faults=faults, stats=stats, limits=limits, lanes=lanes or default_lanes())
        checks_before = stats.checks
        try:
            _run_plan(checker, plan, report)
        finally:
            checker.close()
            report.builds = {c.label: o for c, o in checker.builds.items()}
            report.checks = stats.checks - checks_before
    stats.wall += time.perf_counter() - start
    return report


def _run_plan(checker: Checker, plan: CheckPlan, report: Report) -> None:
    opt_check = plan.opt_check and checker.case.runnable
    other_level = BuildConfig(opt=0 if plan.opt != 0 else 2)
    checker.prefetch([plan.reference, *plan.configs, *([other_level] if opt_check else [])])
    oracle: BuildOutcome | None = None
    if checker.case.is_ember:
        oracle = checker.interpret()
        if oracle.error is not None:
            kind = "hang" if oracle.hang else "crash"
            report.failures.append(Failure(kind, "-", INTERP_LABEL, f"interpreter: {oracle.error.splitlines()[0]}", oracle.error))
            return
    ref = checker.build(plan.reference)
    if ref.error is not None:
        kind = "hang" if ref.hang else "crash"
        report.failures.append(
            Failure(kind, "-", ref.config.label, f"reference build failed: {ref.error.splitlines()[0]}", ref.error, error_cause(ref.error))
        )
        return
    if oracle is not None:  # interpreter == compiled (--split none at the plan's -O)
        failures = checker.compare(oracle, ref, symbols=False) + export_failures(checker.case.module, ref)
        report.failures += failures
        if failures:
            return
    if checker.case.runnable:
        checker.execute(ref)
    if checker.case.runnable and (ref.run is None or ref.run.outcome != "exit 0"):
        what = ref.run_error or (ref.run.outcome if ref.run else "no run")
        report.failures.append(Failure("crash", "-", ref.config.label, f"reference program did not exit 0: {what}", ""))
        return
    for config in plan.configs:
        report.failures += checker.compare(ref, checker.build(config), symbols=True)
        if plan.debug and config.debug and config.candidate is None:
            start = time.perf_counter()
            report.failures += debug_failures(ref, checker.build(config))
            checker._count("compare", time.perf_counter() - start, "checks")
    groups: dict[tuple[str, int, int | None], list[BuildOutcome]] = {}
    for config in plan.configs:
        if config.candidate is None and config.split != "none":
            groups.setdefault((config.split, config.opt, config.cost), []).append(checker.builds[config])
    for outcomes in groups.values():
        for other in outcomes[1:]:
            report.failures += checker.same_bytes(outcomes[0], other)
    if opt_check:
        baseline = oracle if oracle is not None else ref
        report.failures += checker.compare(baseline, checker.build(other_level), symbols=False)


# ------------------------------------------------------------------ plan strategies


@st.composite
def check_plans(
    draw: st.DrawFn,
    modes: Iterable[str] = SPLIT_MODES,
    jobs: tuple[int, ...] = (1, 2),
    opt_levels: tuple[int, ...] = (2, 0, 1, 3),
    max_cost: int = 200,
    opt_check: bool = True,
    determinism: bool = True,
    candidate: str | None = None,
    debug: bool | None = False,
) -> CheckPlan:
    """The -O level, a small split cost (many subgraphs), a level-2 piece cost, a -j per mode, one -j pair;
    `-g` for every build when `debug` (None: drawn, one plan in four)."""
    opt = draw(st.sampled_from(opt_levels), label="opt")
    cost = draw(st.integers(1, max_cost), label="split cost")
    # generated programs are smaller than the planner's 600: small piece costs make level 2 cut
    piece = draw(st.one_of(st.none(), st.sampled_from(PIECE_COSTS)), label="level-2 piece cost")
    configs = [BuildConfig(mode, draw(st.sampled_from(jobs)), opt, cost, piece_cost=piece) for mode in modes]
    if determinism and len(set(jobs)) > 1 and configs:
        base = configs[draw(st.integers(0, len(configs) - 1))]
        other = next(j for j in jobs if j != base.jobs)
        configs.append(BuildConfig(base.split, other, opt, cost, piece_cost=piece))
    g = draw(st.sampled_from((False, False, False, True)), label="-g") if debug is None else debug
    if g:
        configs = [dataclasses.replace(c, debug=True) for c in configs]
    if candidate is not None:
        configs.append(BuildConfig(opt=opt, candidate=candidate))
    return CheckPlan(opt, cost, tuple(configs), opt_check, g)


def compare_file(
    path: str | Path, template: str, *, opt_level: int = 2, support: str | Path | None = None
) -> Report:
    """Compare the candidate's object for one input file with Ember's reference build.

    Returns the report (symbol diff and behaviour, classified).
    """
    module = Path(path).read_text()
    support_text = Path(support).read_text() if support else None
    case = FuzzCase(module, support_text, origin=str(path))
    plan = CheckPlan(
        opt=opt_level, cost=None, configs=(BuildConfig(opt=opt_level, candidate=template),), opt_check=False
    )
    return check(case, plan)
