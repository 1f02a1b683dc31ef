"""The triage's polish runs the reducer's own passes to a fixpoint (fuzz/reduce/split_triage.py):
after a delta pass that shrank bodies the regions run again, runs of two functions or more
only and dead code kept as regions. No builds: the property is a text test."""

from __future__ import annotations

import pytest

from compiler.backend import llvm_stage
from fuzz.reduce import regions, split_triage
from fuzz.reduce.engine import lines_of
from fuzz.reduce.ir import block_regions

#: `main` calls `@noise` (and through it a chain of internal functions) on one side of a
#: branch and `@w` (which calls `writev`) on the other
MODULE = """\
define i32 @main(i32 %c) {
entry:
  %t = icmp eq i32 %c, 0
  br i1 %t, label %quiet, label %loud
quiet:
  call void @w()
  br label %done
loud:
  call void @noise(i32 %c)
  br label %done
done:
  ret i32 0
}

define internal void @w() {
  %n = call i64 @writev(i32 2, ptr null, i32 0)
  ret void
}

define internal void @noise(i32 %x) {
  call void @noise2(i32 %x)
  call void @puts(ptr null)
  ret void
}

define internal void @noise2(i32 %x) {
  call void @perror(ptr null)
  ret void
}

declare i64 @writev(i32, ptr, i32)
declare void @puts(ptr)
declare void @perror(ptr)
"""


def _writes(text: str) -> bool:
    return "call i64 @writev" in text


def _dead_gone(text: str) -> str:
    return regions.remove(regions.graph(text), set())


def test_after_pass_runs_after_a_pass_that_accepted_and_its_text_goes_on() -> None:
    calls: list[str] = []

    def again(text: str) -> str:
        calls.append(text)
        return _dead_gone(text)

    out, stats = split_triage.reduce_adaptive(MODULE, _writes, [block_regions.PASS], jobs=1, measure=lines_of,
                                              after_pass=again)
    llvm_stage.parse_ir(out, "<test>")
    assert calls and "@noise" in calls[0] and "@noise" not in out and _writes(out)
    assert stats.accepted >= 1
    plain, _ = split_triage.reduce_adaptive(MODULE, _writes, [block_regions.PASS], jobs=1, measure=lines_of)
    assert "@noise2" in plain  # block-regions alone leaves what only the deleted block called
    # a pass that accepts nothing does not call it
    calls.clear()
    split_triage.reduce_adaptive(MODULE, lambda _t: False, [block_regions.PASS], jobs=1, measure=lines_of,
                                 after_pass=again)
    assert not calls


def test_regions_again_start_with_dead_code_kept_when_told() -> None:
    dead = MODULE + "\ndefine internal void @unused() {\n  call void @w()\n  ret void\n}\n"
    seen: list[str] = []

    def interesting(text: str) -> bool:
        seen.append(text)
        return _writes(text) and "@unused" in text

    out, stats = split_triage.reduce_regions(dead, interesting, jobs=1)
    assert seen[0] == _dead_gone(dead)  # first: everything no root reaches at once (rejected here)
    assert stats.kept_unreachable and "@unused" in out
    # from there, told that dropping dead code loses the difference, that candidate is not tried again
    twice, told = split_triage.reduce_regions(out, interesting, jobs=1)
    again, stats = split_triage.reduce_regions(out, interesting, jobs=1, drop_unreachable=False)
    assert stats.candidates == told.candidates - 1 and again == twice
    assert stats.kept_unreachable and "@unused" in again and _writes(again)


#: ten leaves under main, one of them (`@f3`) the one that writes
WIDE = "define i32 @main() {\n" + "".join(f"  call void @f{i}()\n" for i in range(10)) + "  ret i32 0\n}\n" + "".join(
    f"define internal void @f{i}() {{\n  call void @g{i}()\n  ret void\n}}\n"
    f"define internal void @g{i}() {{\n  {'%n = call i64 @writev(i32 2, ptr null, i32 0)' if i == 3 else 'ret void'}\n"
    f"{'  ret void' if i == 3 else ''}\n}}\n" for i in range(10)) + "declare i64 @writev(i32, ptr, i32)\n"


def _removed(text: str) -> set[str]:
    return {f"f{i}" for i in range(10) if f"call void @g{i}()" not in text}


@pytest.mark.parametrize("jobs", [1, 2])
def test_regions_with_a_minimum_run_never_try_a_function_alone(jobs: int) -> None:
    llvm_stage.parse_ir(WIDE, "<test>")
    seen: list[str] = []

    def interesting(text: str) -> bool:
        seen.append(text)
        return _writes(text)

    out, stats = split_triage.reduce_regions(WIDE, interesting, jobs=jobs, drop_unreachable=False, min_run=2)
    assert _writes(out) and len(_removed(out)) >= 5  # a run without f3 went
    if jobs == 1:  # judged in order: each candidate removes two or more functions beyond the text it came from
        base: set[str] = set()
        for t in seen:
            assert len(_removed(t) - base) >= 2
            if _writes(t):
                base = _removed(t)
    assert stats.candidates < 10
    # without the minimum every function is tried alone: f3's neighbours go too
    full, full_stats = split_triage.reduce_regions(WIDE, interesting, jobs=jobs, drop_unreachable=False)
    assert _removed(full) == {f"f{i}" for i in range(10)} - {"f3"} and full_stats.candidates > stats.candidates
