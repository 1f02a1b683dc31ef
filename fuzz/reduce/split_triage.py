"""Whole-module triage of a split-vs-serial symbol difference: regions first, cheap checks first.

A difference that comes from whole-module facts (what serial optimisation proves dead in a
Rust fat-LTO module) is lost by any slice around the symbol it names, so the reduction
starts from the whole module, where one candidate costs a serial and a split build of
hundreds of thousands of lines (docs/reducer.md, "Whole-module differences"). In order:

- **The difference** (`establish`): both builds of the input without debug info; each
  symbol's normal form in the serial and the split object. A candidate keeps it when one
  of those symbols is as it was in both, no other symbol differs, and the kinds are the same.
- **The slice** around the defined symbols it names, when one keeps it (`fuzz.reduce.evidence`).
- **Regions** (`fuzz.reduce.regions`, `reduce_regions`): runs of the dominator tree's
  frontier go at once, each a function with everything only it reaches; the run length
  doubles after an accepted candidate and halves after a rejected one.
- **Cheap judgements first** (`SymbolJudge`): a candidate that names none of the
  symbols is rejected without building; otherwise the split and the serial build run one
  after the other, the one with fewer seconds per rejection so far first, and the second
  only when the first still allows the difference; the split build reuses the subgraphs
  compiled for earlier candidates (`fuzz.task_cache`).
- **The failing build's plan, kept** (`fixed_plan`): the split build that established the
  difference prints its plan, and every candidate of the regions is built with that
  assignment of functions to subgraphs (`BuildHooks.plan_assignment`), so deleting code
  moves nothing between subgraphs. After the regions, **split cost 1** (`finest`: every
  function its own subgraph, each found in the task cache while unchanged) where it shows
  the same symbols, else the fixed plan (or the default plan where none was kept) goes on.
- **The delta table** (`reduce_adaptive`, block-regions first) in the regions' adaptive runs;
  after each delta pass that accepted a candidate, the regions again (runs of two functions
  or more, dead code kept as regions): what a pass left unreachable or made removable goes
  in one candidate.

With -j N the next N candidates assuming each is rejected (the common case) are judged at
once and the first accepted in order wins, so the result does not depend on N.
"""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.backend import engine as llvm_engine
from compiler.backend import irmodel
from fuzz.reduce import regions
from fuzz.reduce.engine import DeltaPass as engine_DeltaPass
from fuzz.reduce.engine import ReduceStats

if TYPE_CHECKING:
    from oracle.symtab import Symbol

#: seconds one build of a candidate may take (a whole Rust module: ~100 s split at -j2)
BUILD_TIMEOUT = 900.0
#: `triage`'s default for `keep_plan` (bench/triage.py turns it off for the before column)
KEEP_PLAN = True


@dataclass(frozen=True)
class Difference:
    """A symbol difference to keep: the cause (`added`, `removed`, ... as the fuzz check names it)
    and, per symbol it names, its normal form in the serial and in the split object (None: absent)."""

    cause: str
    symbols: dict[str, tuple[str | None, str | None]]
    split: str
    jobs: int
    opt: int
    cost: int | None = None
    #: the failing build's plan (function -> subgraph) every split build keeps; None: the planner's own
    assignment: dict[str, int] | None = None
    #: deliberate back-end faults (`fuzz.faults`) the split builds carry: a planted difference
    faults: tuple[str, ...] = ()

    def render(self) -> str:
        shown = ", ".join(sorted(self.symbols)[:6]) + (f" (+{len(self.symbols) - 6})" if len(self.symbols) > 6 else "")
        return f"symbol-difference ({self.cause}): {shown}"


def symbol_lines(symbols: Sequence[Symbol]) -> dict[str, str]:
    """Non-local symbols by name: `BINDING TYPE VISIBILITY UND|DEF`."""
    out = {}
    for s in symbols:
        if not s.is_local:
            out[s.name] = f"{s.binding} {s.type} {s.visibility} {'DEF' if s.defined else 'UND'}"
    return out


def cause_of(ref: dict[str, str], cand: dict[str, str], ref_locals: set[str]) -> str:
    """The kinds of difference between two tables, as the fuzz check's cause (`added,removed`)."""
    added = [n for n in cand.keys() - ref.keys() if n not in ref_locals]
    removed = ref.keys() - cand.keys()
    changed = [n for n in ref.keys() & cand.keys() if ref[n] != cand[n]]
    leaked = ref_locals & (cand.keys() - ref.keys())
    return ",".join(k for k, found in (("leaked-local", leaked), ("added", added), ("removed", removed),
                                       ("changed", changed)) if found)


def difference_of(ref: Sequence[Symbol], cand: Sequence[Symbol], split: str, jobs: int, opt: int,
                  cost: int | None) -> Difference | None:
    """The difference between a serial and a split symbol table (None: none)."""
    r, c = symbol_lines(ref), symbol_lines(cand)
    ref_locals = {s.name for s in ref if s.is_local}
    cause = cause_of(r, c, ref_locals)
    if not cause:
        return None
    names = {n for n in r.keys() | c.keys() if r.get(n) != c.get(n)}
    return Difference(cause, {n: (r.get(n), c.get(n)) for n in sorted(names)}, split, jobs, opt, cost)


@dataclass
class CheckStats:
    """One check's record: runs, rejections, seconds (wall), for ordering and the report."""

    runs: int = 0
    rejects: int = 0
    seconds: float = 0.0

    def price(self) -> float:
        """Expected seconds per rejection (Laplace-smoothed): the cheaper check goes first."""
        return (self.seconds + 1.0) / (self.runs + 1) / ((self.rejects + 1) / (self.runs + 2))

    def likely_passes(self) -> bool:
        """Whether this check is more likely to pass a candidate than reject it (Laplace-smoothed:
        not before its first pass), so that the other build will be needed too."""
        return (self.rejects + 1) / (self.runs + 2) < 0.5


@dataclass
class JudgeStats:
    candidates: int = 0
    by_text: int = 0  # rejected for not naming any of the symbols
    memo: int = 0
    accepted: int = 0
    #: candidates judged alone whose second build ran beside the first (`SymbolJudge.alone`)
    together: int = 0
    #: of those, second builds left unread (the first check rejected)
    spare: int = 0
    checks: dict[str, CheckStats] = field(default_factory=lambda: {"split": CheckStats(), "serial": CheckStats()})

    def render(self) -> str:
        parts = [f"{self.candidates} candidates", f"{self.by_text} rejected by their text (no build)",
                 f"{self.memo} seen before"]
        for name, s in self.checks.items():
            parts.append(f"{name} build {s.runs} runs / {s.rejects} rejections / {s.seconds:.0f} s")
        if self.together or self.spare:
            parts.append(f"both builds at once {self.together + self.spare} times ({self.spare} second builds unread)")
        return ", ".join(parts)


class SymbolJudge:
    """Whether a candidate module shows `diff`: cheap judgements first (see the module docstring).

    `slots`: candidates the reduction judges at once (its -j). A candidate judged `alone` (the
    only one of its batch) with a free slot runs both builds at once when the first check is
    more likely to pass than not (`CheckStats.likely_passes`): on 2 cores the serial build
    (one process) and the split build (two workers part of the time) fill what one leaves idle.
    A build of a text may also be given beforehand (`preload`): the triage builds the first
    candidate alongside the input."""

    def __init__(self, diff: Difference, mentioned: set[str], task_cache: Path | None, workdir: Path,
                 external: set[str] | None = None, slots: int = 1) -> None:
        self.diff = diff
        #: the input's external declarations: symbols that may differ besides the difference's
        self.external = external or set()
        #: the difference's symbols the input names (`@name`): a candidate naming none of them cannot show it
        self.mentioned = mentioned
        self.task_cache = task_cache
        self.workdir = workdir
        self.slots = slots
        self.stats = JudgeStats()
        self._memo: dict[str, bool] = {}
        self._lock = threading.Lock()
        self._count = 0
        #: (text digest, check) -> (symbols, seconds) of builds made beforehand (`preload`)
        self._prebuilt: dict[tuple[str, str], tuple[Sequence[Symbol] | None, float]] = {}
        self._pool: ThreadPoolExecutor | None = None

    def names_a_symbol(self, text: str) -> bool:
        return not self.mentioned or any(f"@{irmodel.quote(n)}" in text for n in self.mentioned)

    def preload(self, text: str, check: str, symbols: Sequence[Symbol] | None, seconds: float) -> None:
        """Use `symbols` (a `check` build of `text` made beforehand, `seconds` long) when `text` is judged."""
        with self._lock:
            self._prebuilt[(_digest(text), check)] = (symbols, seconds)

    def __call__(self, text: str) -> bool:
        return self._verdict(text, alone=False)

    def alone(self, text: str) -> bool:
        """Judge `text`, the only candidate of its batch: both builds at once where that pays (see the class)."""
        return self._verdict(text, alone=True)

    def close(self) -> None:
        """Wait for the builds still running beside a verdict (their folders go when each ends)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def _verdict(self, text: str, alone: bool) -> bool:
        key = _digest(text)
        with self._lock:
            self.stats.candidates += 1
            if key in self._memo:
                self.stats.memo += 1
                return self._memo[key]
            self._count += 1
            n = self._count
        verdict = self._judge(text, n, alone and self.slots > 1)
        with self._lock:
            self._memo[key] = verdict
            if verdict:
                self.stats.accepted += 1
        return verdict

    def _judge(self, text: str, n: int, alone: bool = False) -> bool:
        if not self.names_a_symbol(text):
            with self._lock:
                self.stats.by_text += 1
            return False
        key = _digest(text)
        tmp = Path(tempfile.mkdtemp(prefix=f"triage-{n}-", dir=self.workdir))
        path = tmp / "candidate.ll"
        path.write_text(text)
        with self._lock:
            order = sorted(self.stats.checks, key=lambda c: self.stats.checks[c].price())
            given = {c: self._prebuilt.pop((key, c)) for c in order if (key, c) in self._prebuilt}
            together = alone and not given and self.stats.checks[order[0]].likely_passes()
        later: Future[tuple[Sequence[Symbol] | None, float]] | None = None
        if together:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max(1, self.slots))
            later = self._pool.submit(self._timed_build, path, order[1])
        try:
            tables: dict[str, dict[str, str]] = {}
            ref_locals: set[str] = set()
            for check in order:
                if check in given:
                    symbols, seconds = given[check]
                elif later is not None and check == order[1]:
                    symbols, seconds = later.result()
                    later = None
                    with self._lock:
                        self.stats.together += 1
                else:
                    symbols, seconds = self._timed_build(path, check)
                with self._lock:
                    s = self.stats.checks[check]
                    s.runs += 1
                    s.seconds += seconds
                ok = symbols is not None and self._still(check, symbol_lines(symbols))
                if not ok:
                    with self._lock:
                        self.stats.checks[check].rejects += 1
                    return False
                assert symbols is not None
                tables[check] = symbol_lines(symbols)
                if check == "serial":
                    ref_locals = {s.name for s in symbols if s.is_local}
        finally:
            if later is not None:  # the first check rejected: the other build ends on its own, unread
                with self._lock:
                    self.stats.spare += 1
                later.add_done_callback(lambda _f: shutil.rmtree(tmp, ignore_errors=True))
            else:
                shutil.rmtree(tmp, ignore_errors=True)
        return self.decide(tables["serial"], tables["split"], ref_locals)

    def decide(self, ref: dict[str, str], cand: dict[str, str], ref_locals: set[str]) -> bool:
        """Whether a serial table `ref` and a split table `cand` show the difference."""
        same = any(ref.get(n) == r and cand.get(n) == c for n, (r, c) in self.diff.symbols.items())
        # every other symbol that differs is one the input names as external (which of std's
        # dead functions the split keeps changes as code goes): a function made a declaration
        # on the way (its call kept split, deleted serially) may not join, or the reduction
        # drifts to it
        differing = {n for n in ref.keys() | cand.keys() if ref.get(n) != cand.get(n)}
        allowed = self.diff.symbols.keys() | self.external
        return same and differing <= allowed and cause_of(ref, cand, ref_locals) == self.diff.cause

    def _still(self, check: str, table: dict[str, str]) -> bool:
        """Whether one build alone still allows the difference: some symbol as it was in that build."""
        side = 0 if check == "serial" else 1
        return any(table.get(n) == pair[side] for n, pair in self.diff.symbols.items())

    def _timed_build(self, path: Path, check: str) -> tuple[Sequence[Symbol] | None, float]:
        start = time.perf_counter()
        symbols = self._build(path, check)
        return symbols, time.perf_counter() - start

    def _build(self, path: Path, check: str) -> Sequence[Symbol] | None:
        return build_symbols(path, check, self.diff, self.task_cache)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def build_symbols(path: Path, check: str, diff: Difference, task_cache: Path | None,
                  plan: dict[str, int] | None = None) -> Sequence[Symbol] | None:
    """The symbol table of the serial (`check` = serial) or split build of `path`; None when it fails.
    The split build keeps `diff.assignment` when it has one; given `plan`, it fills it with the
    build's own plan (function -> subgraph)."""
    from fuzz import buildserver
    from fuzz.properties import BuildConfig
    from oracle import symtab

    config = BuildConfig(opt=diff.opt) if check == "serial" else BuildConfig(diff.split, diff.jobs, diff.opt, diff.cost)
    out = path.with_suffix(f".{check}.o")
    # a worker optimising half of a Rust module may take minutes on a loaded machine: the fuzz
    # check's limit per worker (two minutes, for small programs) would reject a candidate for
    # its build time (rust-regex: the candidate to 93,079 lines was rejected in a run on a more
    # loaded machine, accepted in another)
    options = dataclasses.replace(config.options(frozenset(diff.faults) if check == "split" else frozenset()),
                                  worker_timeout=BUILD_TIMEOUT)
    if plan is not None and check == "split":
        options = dataclasses.replace(options, print_split_plan=True)
    result = buildserver.build(path, options, out, timeout=BUILD_TIMEOUT,
                               task_cache=task_cache if check == "split" else None,
                               plan_assignment=diff.assignment if check == "split" else None)
    if not result.ok:
        return None
    printed = Path(f"{out}.plan.txt")
    if plan is not None and printed.exists():
        plan.update(buildserver.plan_assignment_of(printed.read_text()))
    try:
        return symtab.read_tables(out.read_bytes())[0]
    except Exception:  # an unreadable object shows nothing
        return None


def strip_debug(text: str) -> str:
    """`text` without debug info (`opt --strip-debug`): builds without -g drop it first thing,
    so nothing a build does changes; the module loses a third of its lines."""
    opt = llvm_engine.tools_dir() / "opt"
    if "!dbg" not in text and "#dbg_" not in text or not opt.exists():
        return text
    proc = subprocess.run([str(opt), "-S", "--strip-debug", "-o", "-", "-"], input=text.encode(), capture_output=True,
                          check=False)
    return proc.stdout.decode() if proc.returncode == 0 else text


@dataclass
class RegionStats:
    """What the region phase did."""

    candidates: int = 0
    accepted: int = 0
    seconds: float = 0.0
    lines: list[int] = field(default_factory=list)
    #: dropping what no root reaches lost the difference, so dead code was kept as regions
    #: (`regions.graph(keep_unreachable=True)`): later phases must not drop it either
    kept_unreachable: bool = False


def reduce_regions(
    text: str,
    interesting: Callable[[str], bool],
    *,
    jobs: int = 1,
    time_budget: float | None = None,
    on_success: Callable[[str], None] = lambda _t: None,
    on_progress: Callable[[int, int], None] = lambda _lines, _size: None,
    measure: Callable[[str], int] = lambda t: t.count("\n"),
    symbols: set[str] | None = None,
    drop_unreachable: bool = True,
    min_run: int = 1,
    alone: Callable[[str], bool] | None = None,
    start_graph: regions.Graph | None = None,
) -> tuple[str, RegionStats]:
    """Remove regions of the reference graph while `interesting` holds (see the module docstring).

    The first candidate is the module without what no root reaches (where that loses the
    difference, what no root reaches becomes regions of its own: `regions.graph(keep_unreachable=True)`);
    then runs of the frontier (`regions.Graph.frontier`: the top of the dominator tree, and below every
    function found needed alone), the run length doubling after an acceptance and halving
    after a rejection. Deterministic: with `jobs` > 1 the next candidates assuming rejections are
    judged at once and the first accepted in order wins. With `symbols`, regions holding no
    function that names one of them come first (`regions.Graph.ranked_frontier`). Without
    `drop_unreachable` (an earlier run found that dropping it loses the difference) dead code
    is regions from the start. With `min_run` > 1 no run shorter than that is tried: the phase
    ends where the run would get shorter (a cheap pass: about log2 of the frontier's length
    candidates, no function tried alone). `alone` judges a candidate that is the only one of its
    batch (the first, a function tried alone): `SymbolJudge.alone`, both builds at once where that
    pays. `start_graph`: `regions.graph(text)` when the caller has it already."""
    start = time.monotonic()
    judge_alone = alone if alone is not None and jobs > 1 else interesting
    wanted = sorted(f"@{irmodel.quote(n)}" for n in symbols or ())

    def frontier(g: regions.Graph) -> list[str]:
        if not wanted:
            return g.frontier(decided)
        hot = {e.name for e in g.mod.entities if e.kind == "function" and any(w in e.text for w in wanted)}
        return g.ranked_frontier(decided, hot)

    stats = RegionStats(lines=[measure(text)])
    g = start_graph if start_graph is not None else regions.graph(text)
    decided: set[str] = set()  # functions a one-function run could not remove
    size = max(1, len(frontier(g)) // 2)
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))

    def out_of_time() -> bool:
        return time_budget is not None and time.monotonic() - start > time_budget

    keep_unreachable = False  # dropping what no root reaches lost the difference: regions of it instead
    try:
        first = regions.remove(g, set()) if drop_unreachable else text
        if not drop_unreachable:
            keep_unreachable = True
            g = regions.graph(text, keep_unreachable=True)
            size = max(1, len(frontier(g)) // 2)
        elif measure(first) < measure(text):
            stats.candidates += 1
            if judge_alone(first):
                text, g = first, regions.graph(first)
                stats.accepted += 1
                stats.lines.append(measure(text))
                on_success(text)
            else:
                keep_unreachable = True
                g = regions.graph(text, keep_unreachable=True)
                size = max(1, len(frontier(g)) // 2)
        while not out_of_time():
            undecided = frontier(g)
            if not undecided or min(size, len(undecided)) < min_run:
                break
            on_progress(measure(text), size)
            # the next `jobs` steps if each is rejected: (run, size after, newly decided); a
            # function needed alone is decided, and the functions it dominates join the frontier
            # (which the speculation does not know: it stops there)
            steps: list[tuple[list[str], int, str | None]] = []
            s = min(size, len(undecided))
            while len(steps) < max(1, jobs):
                run = undecided[:s]
                if s > 1:
                    steps.append((run, max(1, s // 2), None))
                    s = max(1, s // 2)
                    if s < min_run:
                        break
                else:
                    steps.append((run, 1, run[0]))
                    break
            candidates = [regions.remove(g, set(run)) for run, _s, _d in steps]
            current = measure(text)
            candidates = [c if measure(c) < current else "" for c in candidates]
            judged = judge_alone if sum(1 for c in candidates if c) == 1 else interesting
            verdicts = list(pool.map(lambda c, j=judged: bool(c) and j(c), candidates))
            stats.candidates += sum(1 for c in candidates if c)
            for (run, after, newly), cand, ok in zip(steps, candidates, verdicts, strict=True):
                if ok:
                    text = cand
                    g = regions.graph(text, keep_unreachable=keep_unreachable)
                    stats.accepted += 1
                    stats.lines.append(measure(text))
                    on_success(text)
                    size = min(len(run) * 2, max(1, len(frontier(g))))
                    break
                size = after
                if newly is not None:
                    decided.add(newly)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    stats.seconds = time.monotonic() - start
    stats.kept_unreachable = keep_unreachable
    return text, stats


def external_names(text: str) -> set[str]:
    """The names `text` declares without defining (`declare`, `external global`)."""
    import re

    name = r'([-\w.$]+|"[^"]*")'
    functions = re.finditer(rf"^declare [^@\n]*@{name}\(", text, re.M)
    variables = re.finditer(rf"^@{name} = (?:extern_weak |external )", text, re.M)
    return {irmodel.unquote(m.group(1)) for m in (*functions, *variables)}


def mentioned_symbols(text: str, diff: Difference) -> set[str]:
    """The difference's symbols that `text` names as `@name`."""
    return {n for n in diff.symbols if f"@{irmodel.quote(n)}" in text}


#: the least a check after the regions is taken to cost: two builds of a small module (process
#: round trips, linking, the symbol tables)
MIN_CHECK_SECONDS = 5.0


def work_folder() -> Path:
    """A scratch folder for the judge's candidates (removed by `cleanup`)."""
    return Path(tempfile.mkdtemp(prefix="ember-triage-"))


def cleanup(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)


def reduce_adaptive(
    text: str,
    interesting: Callable[[str], bool],
    deltas: Sequence[engine_DeltaPass],
    *,
    jobs: int = 1,
    time_budget: float | None = None,
    on_success: Callable[[str], None] = lambda _t: None,
    on_progress: Callable[[str, int], None] = lambda _p, _n: None,
    validate: Callable[[str], bool] | None = None,
    measure: Callable[[str], int] = lambda t: t.count("\n"),
    after_pass: Callable[[str], str] | None = None,
) -> tuple[str, ReduceStats]:
    """The delta table with the regions' adaptive runs instead of ddmin's rounds: in each pass,
    runs of chunks not yet found needed are removed, the run doubling after an acceptance
    and halving after a rejection; a chunk needed alone (by its label) is not tried again in
    the pass. ddmin tries every group at every size, about twice as many candidates as
    chunks where few go, each a build of thousands of lines here. Passes repeat until none
    makes progress. Deterministic for any `jobs` (speculation on rejections, as the regions).
    `after_pass` runs after each delta pass that accepted a candidate and returns the text to go on from (the
    triage re-runs the regions there: functions needed before may go once their bodies shrank)."""
    from fuzz.reduce import engine

    start = time.monotonic()
    stats = ReduceStats(initial_lines=measure(text))
    check = validate or engine.valid_ir
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))

    def out_of_time() -> bool:
        return time_budget is not None and time.monotonic() - start > time_budget

    def judge(candidate: str) -> bool:
        return bool(candidate) and check(candidate) and interesting(candidate)

    try:
        progress = True
        while progress and not out_of_time():
            progress = False
            for delta in deltas:
                if out_of_time():
                    break
                accepted_before = stats.accepted
                decided: set[str] = set()
                chunks = delta.chunks(text)
                size = restart = max(1, len(chunks) // 2)
                while not out_of_time():
                    undecided = [i for i, c in enumerate(chunks) if c not in decided]
                    if not undecided:
                        break
                    on_progress(delta.name, measure(text))
                    # the next `jobs` steps if each is rejected: (run, size after, restart after,
                    # newly decided); after a decision the run length starts again from half
                    # the length the halving started from
                    steps: list[tuple[list[int], int, int, str | None]] = []
                    s_, r_, gone = min(size, len(undecided)), restart, set()
                    while len(steps) < max(1, jobs):
                        left = [i for i in undecided if i not in gone]
                        if not left:
                            break
                        run = left[:s_]
                        if s_ > 1:
                            s_ = max(1, s_ // 2)
                            steps.append((run, s_, r_, None))
                        else:
                            gone.add(run[0])
                            s_ = r_ = max(1, r_ // 2)
                            steps.append((run, s_, r_, chunks[run[0]]))
                    current = engine.size_key(text, measure)
                    candidates = []
                    for run, _s, _r, _d in steps:
                        try:
                            c = delta.apply(text, set(range(len(chunks))) - set(run))
                        except Exception:  # a delta that cannot apply here: no candidate
                            c = ""
                        candidates.append(c if c and engine.size_key(c, measure) < current else "")
                    verdicts = list(pool.map(judge, candidates))
                    stats.candidates += sum(1 for c in candidates if c)
                    for (run, after, restart_after, newly), cand, ok in zip(steps, candidates, verdicts, strict=True):
                        if ok:
                            text = cand
                            stats.accepted += 1
                            stats.per_pass[delta.name] = stats.per_pass.get(delta.name, 0) + 1
                            on_success(text)
                            progress = True
                            chunks = delta.chunks(text)
                            size = restart = min(len(run) * 2, max(1, len(chunks)))
                            break
                        size, restart = after, restart_after
                        if newly is not None:
                            decided.add(newly)
                if after_pass is not None and stats.accepted > accepted_before and not out_of_time():
                    again = after_pass(text)
                    if again != text:
                        text = again
                        progress = True
                        on_success(text)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    stats.final_lines = measure(text)
    stats.seconds = time.monotonic() - start
    return text, stats


#: deltas the triage runs first on what the regions left: the functions left are the needed
#: ones, often huge (a Rust `main` with its callees inlined): the unwind edges, regions of
#: their CFGs and whole-function simplification go first, then the branches
POLISH_FIRST = ("block-regions", "simplify-functions", "branches-to-true", "branches-to-false", "invokes-to-calls")


def polish_order(deltas: Sequence[engine_DeltaPass]) -> list[engine_DeltaPass]:
    """`deltas` with `POLISH_FIRST` moved to the front (in that order)."""
    first = [d for name in POLISH_FIRST for d in deltas if d.name == name]
    return first + [d for d in deltas if d not in first]


def fixed_plan(text: str, diff: Difference, plan: dict[str, int], workdir: Path, task_cache: Path | None) -> Difference | None:
    """`diff` with `plan` (the failing split build's own, `establish`) as its fixed assignment,
    when a split build of `text` with it shows the difference's symbols as they were; None
    otherwise. The same module with its own plan gives the same subgraphs, so the task cache
    answers this build from the first."""
    if not plan or diff.split not in ("subgraph", "two-level"):
        return None
    fixed = dataclasses.replace(diff, assignment=dict(plan))
    path = workdir / "fixed.ll"
    path.write_text(text)
    symbols = build_symbols(path, "split", fixed, task_cache)
    if symbols is None:
        return None
    table = symbol_lines(symbols)
    return fixed if all(table.get(n) == c for n, (_r, c) in diff.symbols.items()) else None


def reestablished(text: str, diff: Difference, cost: int | None, workdir: Path, task_cache: Path | None,
                  parallel: bool, plan: dict[str, int] | None = None) -> Difference | None:
    """`diff` as plain split builds of `text` at split `cost` show it: its symbols that are as they
    were, the same kinds, no fixed plan; None when none are. `plan` is filled with the split
    build's own plan (`establish`)."""
    fresh = establish(text, diff.split, diff.jobs, diff.opt, cost, workdir, task_cache, parallel, plan=plan,
                      faults=diff.faults)
    if fresh is None or fresh.cause != diff.cause:
        return None
    kept = {n: v for n, v in fresh.symbols.items() if diff.symbols.get(n) == v}
    return dataclasses.replace(diff, symbols=kept, cost=cost, assignment=None) if kept else None


def finest(text: str, diff: Difference, workdir: Path, task_cache: Path | None, parallel: bool) -> Difference | None:
    """`diff` checked at split cost 1 (every function its own subgraph), when `text` shows some
    of its symbols the same way there; None otherwise. At the default cost the plan follows
    the module's size, so deleting code moves functions between subgraphs, and a difference
    that needs two of them apart comes and goes with it; at cost 1 the boundaries stay put
    while the module shrinks, and the task cache finds every unchanged function's subgraph.
    After the regions it is cheaper than the failing build's fixed plan too (a few large
    subgraphs, one of them rebuilt for nearly every candidate), so it replaces it there."""
    return None if diff.cost == 1 else reestablished(text, diff, 1, workdir, task_cache, parallel)


def replanned(text: str, diff: Difference, workdir: Path, task_cache: Path | None, parallel: bool) -> Difference | None:
    """`diff` judged with other boundaries on `text`: at its split cost, else at cost 1 (a small
    module at the default cost is one subgraph), with the build's own split plan kept (where
    that is not the plan `diff` has), else no fixed plan; None when none of these is new and
    shows some of its symbols as they were, with the same kinds."""
    for cost in dict.fromkeys((diff.cost, 1)):
        plan: dict[str, int] = {}
        plain = reestablished(text, diff, cost, workdir, task_cache, parallel, plan=plan)
        if plain is None:
            continue
        if plan and plan != diff.assignment:
            fixed = fixed_plan(text, plain, plan, workdir, task_cache)
            if fixed is not None:
                return fixed
        if diff.assignment is not None or cost != diff.cost:
            return plain
    return None


def without_plan(text: str, diff: Difference, workdir: Path, task_cache: Path | None, parallel: bool) -> Difference | None:
    """`diff` as plain split builds of `text` show it (some of its symbols as they were, the same
    kinds), at its own split cost and else at cost 1, with no fixed plan: what a reproducer's
    `ember build` command can show; None when only the fixed plan shows it."""
    for cost in dict.fromkeys((diff.cost, 1)):
        plain = reestablished(text, diff, cost, workdir, task_cache, parallel)
        if plain is not None:
            return plain
    return None


@dataclass
class TriageResult:
    """A whole-module triage: the reduced text, the difference kept and what each phase did."""

    text: str
    difference: Difference
    regions: RegionStats
    polish: ReduceStats  # the delta-table phase
    judge: JudgeStats
    seconds: float
    #: what the reduction started from, in words
    started: str
    #: the result shows the difference only with the difference's fixed plan (`Difference.assignment`),
    #: or the time budget left no check without it; otherwise at split cost `difference.cost`
    #: without it (`without_plan`)
    needs_plan: bool = False
    #: whether the result was built without the plan at all (False: the budget was spent first)
    plan_checked: bool = True


def establish(text: str, split: str, jobs: int, opt: int, cost: int | None, workdir: Path, task_cache: Path | None,
              parallel: bool, plan: dict[str, int] | None = None, faults: tuple[str, ...] = ()) -> Difference | None:
    """Build `text` serially and split (at once when `parallel`) and return their symbol
    difference; `plan`, when given, is filled with the split build's plan. With `faults`
    (planted in the split build), only the symbols the split build without them gets as
    the serial one does: the difference the faults make."""
    proto = Difference("", {}, split, jobs, opt, cost, faults=faults)
    path = workdir / "input.ll"
    path.write_text(text)
    with ThreadPoolExecutor(2 if parallel else 1) as ex:
        ref_f = ex.submit(build_symbols, path, "serial", proto, None)
        cand_f = ex.submit(build_symbols, path, "split", proto, task_cache, plan)
        ref, cand = ref_f.result(), cand_f.result()
    if ref is None or cand is None:
        return None
    diff = difference_of(ref, cand, split, jobs, opt, cost)
    if diff is None or not faults:
        return diff
    return planted_part(diff, build_symbols(path, "split", dataclasses.replace(proto, faults=()), task_cache), faults)


def planted_part(diff: Difference, clean: Sequence[Symbol] | None, faults: tuple[str, ...]) -> Difference | None:
    """The part of `diff` that planting `faults` makes: its symbols that the split build without
    them (`clean`) has as the serial build does; None when there are none or that build failed."""
    if clean is None:
        return None
    table = symbol_lines(clean)
    planted = {n: v for n, v in diff.symbols.items() if table.get(n) == v[0]}
    return dataclasses.replace(diff, symbols=planted, faults=faults) if planted else None


@dataclass
class FirstBuilds:
    """`establish` of the input and both builds of the first candidate, made at once (`establish_first`)."""

    difference: Difference | None
    #: the input's split build's plan (function -> subgraph)
    plan: dict[str, int]
    #: the first candidate's split build's own plan
    first_plan: dict[str, int]
    #: check -> (symbols, seconds) of the first candidate's builds (empty where the input shows no difference)
    first: dict[str, tuple[Sequence[Symbol] | None, float]]


def establish_first(text: str, first: str, split: str, jobs: int, opt: int, cost: int | None, workdir: Path,
                    task_cache: Path | None, parallel: bool, faults: tuple[str, ...] = ()) -> FirstBuilds:
    """`establish` on `text` and, at the same time, a serial and a split build (its own plan, printed)
    of the regions' first candidate `first` (what no root reaches dropped): none of the four waits
    for another, where the triage used to build the input twice, check the failing build's plan
    on it and then build the first candidate twice, one build after the other (rust-regex: 171 s
    before the second region candidate). With `parallel` false the builds run one at a time and
    the first candidate's only where the input shows a difference. With `faults` (planted in the
    split builds) the input's split build without them runs beside the others too, and the
    difference is what the faults add (`establish`)."""
    proto = Difference("", {}, split, jobs, opt, cost, faults=faults)
    (workdir / "first").mkdir(exist_ok=True)
    a, b = workdir / "input.ll", workdir / "first" / "candidate.ll"
    a.write_text(text)
    b.write_text(first)
    plan: dict[str, int] = {}
    first_plan: dict[str, int] = {}

    def timed(path: Path, check: str, cache: Path | None, into: dict[str, int] | None) -> tuple[Sequence[Symbol] | None, float]:
        start = time.perf_counter()
        symbols = build_symbols(path, check, proto, cache, into)
        return symbols, time.perf_counter() - start

    def clean_split() -> Sequence[Symbol] | None:
        return build_symbols(a, "split", dataclasses.replace(proto, faults=()), task_cache)

    with ThreadPoolExecutor((5 if faults else 4) if parallel else 1) as ex:
        ref_f = ex.submit(timed, a, "serial", None, None)
        cand_f = ex.submit(timed, a, "split", task_cache, plan)
        clean_f = ex.submit(clean_split) if faults else None
        firsts = {"split": ex.submit(timed, b, "split", task_cache, first_plan),
                  "serial": ex.submit(timed, b, "serial", None, None)}
        (ref, _), (cand, _) = ref_f.result(), cand_f.result()
        diff = None if ref is None or cand is None else difference_of(ref, cand, split, jobs, opt, cost)
        if diff is not None and clean_f is not None:
            diff = planted_part(diff, clean_f.result(), faults)
        if diff is None:
            for f in firsts.values():
                f.cancel()
            return FirstBuilds(None, plan, first_plan, {})
        built = {check: f.result() for check, f in firsts.items()}
    return FirstBuilds(diff, plan, first_plan, built)


def triage(
    text: str,
    *,
    split: str,
    split_jobs: int,
    opt: int,
    cost: int | None,
    jobs: int,
    time_budget: float | None,
    task_cache: Path | None,
    on_success: Callable[[str], None] = lambda _t: None,
    say: Callable[[str], None] = lambda _m: None,
    keep_plan: bool | None = None,
    faults: tuple[str, ...] = (),
) -> TriageResult | None:
    """Reduce a module whose split build's symbols differ from its serial build's: debug info
    dropped, regions removed, then the delta table; None when the module shows no difference.
    `keep_plan`: build every candidate with the failing build's plan (`fixed_plan`); otherwise,
    or where that plan does not show it, at split cost 1 after the regions (`finest`).
    `faults`: planted in every split build (a benchmark's planted difference, `establish`)."""
    from fuzz.reduce import engine
    from fuzz.reduce.ir.table import IR_DELTAS

    start = time.monotonic()
    keep_plan = KEEP_PLAN if keep_plan is None else keep_plan
    work = work_folder()
    judges: list[SymbolJudge] = []
    try:
        stripped = strip_debug(text)
        g0 = regions.graph(stripped)
        first = regions.remove(g0, set())  # the regions' first candidate: what no root reaches dropped
        plan: dict[str, int] = {}
        given: dict[str, tuple[Sequence[Symbol] | None, float]] = {}
        first_plan: dict[str, int] = {}
        if keep_plan and engine.lines_of(first) < engine.lines_of(stripped):
            builds = establish_first(stripped, first, split, split_jobs, opt, cost, work, task_cache,
                                     parallel=jobs > 1, faults=faults)
            diff, plan, first_plan, given = builds.difference, builds.plan, builds.first_plan, builds.first
        else:
            diff = establish(stripped, split, split_jobs, opt, cost, work, task_cache, parallel=jobs > 1,
                             plan=plan if keep_plan else None, faults=faults)
        if diff is None:
            return None
        # what one check of the whole input cost: the checks after the regions (at split cost
        # 1, without the plan) run only while the budget has that much left
        check_seconds = time.monotonic() - start
        input_lines = engine.lines_of(stripped)  # what that check built (before any slice)
        say(f"difference: {diff.render()} ({check_seconds:.0f}s)")
        external = external_names(stripped)
        mentioned = mentioned_symbols(stripped, diff)
        # a difference that names defined symbols (a planted MC-link mistake) is looked for in
        # slices first: the failing build's plan is checked on the input as before
        slices_first = any((e := g0.mod.values.get(n)) is not None and e.is_definition for n in diff.symbols)
        fixed = None
        if given and not slices_first and first_plan and diff.split in ("subgraph", "two-level"):
            # the first candidate's split build with its own plan is a failing build too: where it
            # shows the difference, that plan is kept from here (no check of the input's plan)
            probe = SymbolJudge(diff, mentioned, task_cache, work, external)
            for check, (symbols, seconds) in given.items():
                probe.preload(first, check, symbols, seconds)
            if probe(first):
                fixed = dataclasses.replace(diff, assignment=dict(first_plan))
                say(f"the first candidate's own plan ({len(set(first_plan.values()))} subgraphs) shows it: every "
                    f"candidate keeps it ({time.monotonic() - start:.0f}s)")
        if fixed is None and keep_plan:
            fixed = fixed_plan(stripped, diff, plan, work, task_cache)
            if fixed is not None:
                say(f"the failing build's plan ({len(set(plan.values()))} subgraphs) shows it: every candidate keeps it "
                    f"({time.monotonic() - start:.0f}s)")
        if fixed is not None:
            diff = fixed
        judge = SymbolJudge(diff, mentioned, task_cache, work, external, slots=jobs)
        judges.append(judge)
        for check, (symbols, seconds) in given.items():
            # the serial build knows no plan; the split one was built with the first candidate's own
            if check == "serial" or diff.assignment is None or diff.assignment == first_plan:
                judge.preload(first, check, symbols, seconds)
        on_success(stripped)
        # a difference that names defined symbols (a planted MC-link mistake) often lives in
        # the slice around them (`fuzz.reduce.evidence`): tried first, one judgement each
        from fuzz.reduce import evidence

        started = f"the module without debug info ({engine.lines_of(stripped)} lines), whole"
        found = evidence.first_interesting(stripped, [" ".join(diff.symbols)], judge)
        how = "from the symbols the difference names"
        if found is None:
            # a symbol no slice around itself shows (undefined, or decided by its callers): the
            # slices around the functions that name it, each a root of its own
            found = evidence.first_of(evidence.user_slices(stripped, diff.symbols, g0.mod), stripped, judge)
            how = "around the functions that name the difference's symbols"
        if found is not None:
            started = f"the slice of {', '.join(found.anchors[:8])} ({found.lines} lines), {how}"
            say(f"started from the slice of {', '.join(found.anchors[:4])} ({found.lines} lines)")
            stripped = found.text
            on_success(stripped)

        def left() -> float | None:
            return None if time_budget is None else max(0.0, time_budget - (time.monotonic() - start))

        def time_left() -> bool:
            remaining = left()
            return remaining is None or remaining > 0

        def affordable(what: str, text: str) -> bool:
            """Whether the budget left pays for a check of `text`: the input's first check scaled
            to its size, at least `MIN_CHECK_SECONDS` (a 16-line result's check is a second or
            two, not the 46 s of rust-regex's whole module); says so when not."""
            remaining = left()
            need = max(MIN_CHECK_SECONDS, check_seconds * engine.lines_of(text) / max(1, input_lines))
            if remaining is None or remaining >= need:
                return True
            say(f"{what}: not checked, the time budget is spent ({remaining:.0f}s left, a check takes ~{need:.0f}s)")
            return False

        reduced, rstats = reduce_regions(
            stripped, judge, jobs=jobs, time_budget=left(), on_success=on_success, symbols=set(diff.symbols),
            alone=judge.alone, start_graph=g0 if found is None else None,
            on_progress=lambda lines, size: say(f"regions: {lines} lines, runs of {size} ({time.monotonic() - start:.0f}s)"),
            measure=engine.lines_of,
        )
        say(f"regions: {engine.lines_of(reduced)} lines after {rstats.candidates} candidates ({time.monotonic() - start:.0f}s)")
        def judged_by(new: Difference, text: str) -> SymbolJudge:
            """A judge of `new` from here on, keeping the one record of every phase's judgements."""
            fresh = SymbolJudge(new, mentioned_symbols(text, new), task_cache, work, external, slots=jobs)
            fresh.stats = judge.stats
            judges.append(fresh)
            return fresh

        finer = finest(reduced, diff, work, task_cache, parallel=jobs > 1) if affordable("split cost 1", reduced) else None
        if finer is not None:
            diff = finer
            judge = judged_by(diff, reduced)
            say(f"split cost 1 shows {diff.render()}: checked so from here")
        seen: dict[str, int] = {}

        def progress(pass_name: str, lines: int) -> None:
            if seen.get(pass_name) != lines:
                seen[pass_name] = lines
                say(f"{pass_name}: {lines} lines ({time.monotonic() - start:.0f}s)")

        # the reducer's own passes to a fixpoint: after each delta pass that shrank bodies the
        # regions run again (a function needed before may go now), runs of two functions or more
        # only (trying each of ~60 frontier functions alone again took 86 s of a 300 s polish on
        # rust-regex), dead code kept as regions (this difference needs dead code: docs/reducer.md)
        wanted = set(diff.symbols)

        def regions_again(current: str) -> str:
            again, more = reduce_regions(
                current, judge, jobs=jobs, time_budget=left(), on_success=on_success, symbols=wanted,
                measure=engine.lines_of, drop_unreachable=False, min_run=2, alone=judge.alone)
            rstats.candidates += more.candidates
            rstats.accepted += more.accepted
            rstats.seconds += more.seconds
            rstats.lines += more.lines[1:]
            if more.accepted:
                say(f"regions again: {engine.lines_of(again)} lines ({time.monotonic() - start:.0f}s)")
            return again

        def polish(current: str) -> tuple[str, ReduceStats]:
            return reduce_adaptive(current, judge, polish_order(IR_DELTAS), jobs=jobs, time_budget=left(),
                                   on_success=on_success, on_progress=progress, measure=engine.lines_of,
                                   after_pass=regions_again)

        reduced, pstats = polish(reduced)
        # at the polish's fixpoint, the boundaries it was judged with (a plan fixed on a larger
        # module, or plain cost 1, which re-plans as functions go) are what stops it: another
        # set, the result's own plan kept, often lets candidates through (rust-regex: 33 -> 18
        # lines in 3 s). Again while a round shrinks the module and the budget lasts.
        while pstats.accepted and time_left():
            again = replanned(reduced, diff, work, task_cache, parallel=jobs > 1)
            if again is None:
                break
            diff = again
            judge = judged_by(diff, reduced)
            plan_words = f"its own plan ({len(set(diff.assignment.values()))} subgraphs)" if diff.assignment else "no fixed plan"
            say(f"re-planned at {engine.lines_of(reduced)} lines: {plan_words}, split cost {diff.cost or 'default'}")
            before = engine.size_key(reduced, engine.lines_of)
            reduced, more = polish(reduced)
            pstats.merge(more)
            if engine.size_key(reduced, engine.lines_of) >= before:
                break
        needs_plan = False
        unchecked = diff.assignment is not None and not affordable("the result without the plan", reduced)
        if unchecked:
            needs_plan = True  # not checked without it: the reproducer keeps the plan
        elif diff.assignment is not None:
            plain = without_plan(reduced, diff, work, task_cache, parallel=jobs > 1)
            needs_plan = plain is None
            diff = plain or diff
            say("the result shows it " + ("only with the failing build's plan" if needs_plan else
                                          f"at split cost {diff.cost or 'default'} too"))
        return TriageResult(reduced, diff, rstats, pstats, judge.stats, time.monotonic() - start, started, needs_plan,
                            plan_checked=not unchecked)
    finally:
        for j in judges:
            j.close()
        cleanup(work)
