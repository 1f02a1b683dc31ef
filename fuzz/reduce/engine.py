"""ddmin over the delta-pass table, with parallel candidates, a time budget and progress.

Deterministic: candidates of one round are evaluated in parallel but the first
interesting one *in order* wins, so the result does not depend on -j or timing. The
best module so far is handed to `on_success` after every accepted step (the CLI
writes it to disk atomically, so Ctrl-C loses nothing).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from compiler import children
from compiler.backend import llvm_stage
from compiler.diagnostics import EmberError, error_from_llvm

if TYPE_CHECKING:
    import llvmlite.binding as llvm


@dataclass(frozen=True)
class DeltaPass:
    """One row of a delta table: `chunks(text)` lists what may go; `apply(text, keep)` keeps
    only the chunks whose index is in `keep` (llvm-reduce's `DeltaPasses.def` entry)."""

    name: str
    chunks: Callable[[str], list[str]]
    apply: Callable[[str, set[int]], str]


@dataclass
class ReduceStats:
    """What the reduction did."""

    initial_lines: int
    final_lines: int = 0
    candidates: int = 0
    accepted: int = 0
    seconds: float = 0.0
    per_pass: dict[str, int] = field(default_factory=dict)

    def merge(self, later: ReduceStats) -> None:
        """Add a later run's counts (the same reduction going on from where this one ended)."""
        self.final_lines = later.final_lines
        self.candidates += later.candidates
        self.accepted += later.accepted
        self.seconds += later.seconds
        for name, n in later.per_pass.items():
            self.per_pass[name] = self.per_pass.get(name, 0) + n


def lines_of(text: str) -> int:
    """Size measure: non-blank, non-comment lines."""
    return sum(1 for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith(";"))


def size_key(text: str, measure: Callable[[str], int]) -> tuple[int, int, int]:
    """What "smaller" means: fewer lines, then fewer local-value references, then fewer characters."""
    return measure(text), text.count("%"), len(text)


#: the module flag under which LLVM's IR parser verifies the module it has read and, finding
#: it broken outside its debug info, ends the process (`UpgradeDebugInfo`: `LLVM ERROR: Broken
#: module found, compilation aborted!`); LLVM looks for this exact key
DEBUG_INFO_VERSION = '!"Debug Info Version"'
#: what makes LLVM's `StripDebugInfo` say it stripped something, and so warn on standard
#: error, once the version flag is gone: `!llvm.dbg.*`/`!llvm.gcov`, `!dbg` attachments,
#: old-style `llvm.dbg.*` calls
_DEBUG_NAMED = re.compile(r"^!llvm\.(?:dbg\.\S*|gcov) = .*$", re.M)
_DEBUG_ATTACHMENT = re.compile(r",? !dbg !\d+\b")
_DEBUG_CALL = re.compile(r"^[ \t]*(?:tail |notail |musttail )?call void @llvm\.dbg\.\w+\(.*$", re.M)


def without_debug_info(text: str) -> str:
    """The module without its debug-info version flag (LLVM's parser then leaves verifying to
    us, and cannot end the process) and without the debug info (parsed without the flag,
    LLVM would drop it with a warning)."""
    text = _DEBUG_ATTACHMENT.sub("", text.replace(DEBUG_INFO_VERSION, '!"ember: no Debug Info Version"'))
    if "!llvm.dbg." in text or "!llvm.gcov" in text:
        text = _DEBUG_NAMED.sub("", text)
    if "@llvm.dbg." in text:
        text = _DEBUG_CALL.sub("", text)
    return text


def parse_candidate(text: str) -> llvm.ModuleRef:
    """`llvm_stage.parse_ir` for a candidate, any text a delta made: an EmberError, never the
    end of the process. A module with the debug-info version flag is verified first without
    its debug info (`without_debug_info`), so that one LLVM's parser would verify and exit on
    is rejected here, at the cost of a second parse; a module without the flag costs nothing
    more (LLVM reports, not exits). Not a forked child: forked from the reducer's threads, a
    child can wait forever on a lock another thread held."""
    if DEBUG_INFO_VERSION in text:
        import llvmlite.binding as llvm

        try:
            module = llvm.parse_assembly(without_debug_info(text))
        except RuntimeError:
            pass  # nor does the candidate parse (LLVM parses all before it verifies): said below
        else:
            try:
                module.verify()
            except RuntimeError as exc:
                raise error_from_llvm(exc, "<candidate>") from None
            finally:
                module.close()
    return llvm_stage.parse_ir(text, "<candidate>")


def valid_ir(text: str) -> bool:
    """A candidate must parse and verify before the property runs."""
    try:
        parse_candidate(text)
    except EmberError:
        return False
    return True


def reduce_text(
    text: str,
    interesting: Callable[[str], bool],
    deltas: Sequence[DeltaPass],
    *,
    jobs: int = 1,
    time_budget: float | None = None,
    on_success: Callable[[str], None] = lambda _t: None,
    on_progress: Callable[[str, int], None] = lambda _p, _n: None,
    validate: Callable[[str], bool] = valid_ir,
    measure: Callable[[str], int] = lines_of,
) -> tuple[str, ReduceStats]:
    """Shrink `text` while `interesting` holds; passes repeat until none makes progress.

    `validate` rejects candidates before the property runs (IR must verify, source must
    type-check); `measure` is the size reported (lines).
    """
    start = time.monotonic()
    stats = ReduceStats(initial_lines=measure(text))

    def out_of_time() -> bool:
        return time_budget is not None and time.monotonic() - start > time_budget

    def check(candidate: str) -> bool:
        return candidate is not None and validate(candidate) and interesting(candidate)

    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    try:
        progress = True
        while progress and not out_of_time():
            progress = False
            for delta in deltas:
                n = len(delta.chunks(text))
                size = max(1, n // 2)
                while n and size >= 1 and not out_of_time():
                    on_progress(delta.name, measure(text))
                    groups = [set(range(i, min(i + size, n))) for i in range(0, n, size)]
                    accepted = False
                    for batch_start in range(0, len(groups), max(1, jobs)):
                        batch = groups[batch_start : batch_start + max(1, jobs)]
                        candidates = []
                        for group in batch:
                            try:
                                candidates.append(delta.apply(text, set(range(n)) - group))
                            except (EmberError, ValueError, IndexError, KeyError, AssertionError, SyntaxError, RecursionError):
                                candidates.append("")
                        # only strictly smaller candidates: a change that is not a reduction
                        # (a renaming, an attribute added) could otherwise be accepted forever
                        current = size_key(text, measure)
                        candidates = [c if c and size_key(c, measure) < current else "" for c in candidates]
                        results = list(pool.map(lambda c: bool(c) and check(c), candidates))
                        stats.candidates += sum(1 for c in candidates if c)
                        winner = next((c for c, ok in zip(candidates, results, strict=True) if ok), None)
                        if winner is not None:
                            text = winner
                            stats.accepted += 1
                            stats.per_pass[delta.name] = stats.per_pass.get(delta.name, 0) + 1
                            on_success(text)
                            accepted = progress = True
                            break
                        if out_of_time():
                            break
                    if accepted:
                        n = len(delta.chunks(text))
                        size = min(size, max(1, n // 2)) if n else 0
                    else:
                        size //= 2
    except BaseException:  # Ctrl-C, SIGTERM: the scripts the threads wait on go now, no new ones start
        children.kill_all_groups()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    stats.final_lines = measure(text)
    stats.seconds = time.monotonic() - start
    return text, stats
