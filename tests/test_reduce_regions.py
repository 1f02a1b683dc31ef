"""Whole-module triage: regions of the reference graph (fuzz/reduce/regions.py) and the
region phase and cheap judgements of fuzz/reduce/split_triage.py, without builds."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.backend import llvm_stage
from fuzz.reduce import regions, split_triage
from fuzz.reduce.ir import block_regions, invokes
from oracle.symtab import Symbol

MODULE = """\
target triple = "x86_64-unknown-linux-gnu"

@vtable = internal constant [2 x ptr] [ptr @write_vectored, ptr @flush]
@used = internal global ptr @spawn

define i32 @main() {
  %p = call ptr @get_vtable()
  %r = call i32 @helper(i32 1)
  ret i32 %r
}

define internal ptr @get_vtable() {
  ret ptr @vtable
}

define internal i32 @helper(i32 %x) {
  %y = call i32 @leaf(i32 %x)
  ret i32 %y
}

define internal i32 @leaf(i32 %x) {
  ret i32 %x
}

define internal { i64, ptr } @write_vectored(ptr %v) {
  %n = call i64 @writev(i32 2, ptr %v, i32 1)
  %a = insertvalue { i64, ptr } undef, i64 %n, 0
  ret { i64, ptr } %a
}

define internal void @flush() {
  ret void
}

define internal void @spawn() {
  %r = call i32 @pidfd_spawnp(ptr null)
  ret void
}

define internal void @dead() {
  call void @flush()
  ret void
}

declare i64 @writev(i32, ptr, i32)
declare i32 @pidfd_spawnp(ptr)
"""


def test_return_types_of_define_lines() -> None:
    assert regions.return_type("define internal void @f() {") == "void"
    assert regions.return_type("define noundef range(i32 2, 9) i32 @f(i32 %0) unnamed_addr #1 {") == "i32"
    assert regions.return_type("define internal { i64, ptr } @f(ptr %v) {") == "{ i64, ptr }"
    assert regions.return_type("define internal noundef nonnull align 8 ptr @f() {") == "ptr"
    assert regions.return_type("define private <{ i8, i32 }> @f() {") == "<{ i8, i32 }>"


def test_graph_roots_dominators_and_unreachable() -> None:
    g = regions.graph(MODULE)
    assert g.roots == {"main"}
    assert g.unreachable == {"dead", "@used".lstrip("@"), "spawn"}
    assert g.idom["leaf"] == "helper" and g.idom["write_vectored"] == "vtable"
    # the frontier is the top of the tree: what main's region reaches directly, in preorder
    assert sorted(g.frontier(set())) == ["get_vtable", "helper"]
    assert sorted(g.frontier({"helper"})) == ["get_vtable", "leaf"]
    assert g.frontier(set()) == regions.graph(MODULE).frontier(set())
    assert g.region("get_vtable") == {"get_vtable", "vtable", "write_vectored", "flush"}
    # regions without the symbol's users first, then by size
    assert g.ranked_frontier(set(), {"write_vectored"}) == ["helper", "get_vtable"]
    assert g.ranked_frontier(set(), {"leaf"}) == ["get_vtable", "helper"]


def test_removing_a_region_drops_everything_only_it_reaches() -> None:
    g = regions.graph(MODULE)
    dce = regions.remove(g, set())
    assert "@dead" not in dce and "@spawn" not in dce and "pidfd_spawnp" not in dce
    assert "@writev" in dce
    out = regions.remove(g, {"get_vtable"})
    llvm_stage.parse_ir(out, "<test>")  # still a valid module
    assert "define internal ptr @get_vtable() {\n  ret ptr zeroinitializer\n}" in out
    assert "@vtable" not in out and "@write_vectored" not in out and "@writev" not in out
    assert "@helper" in out and "@leaf" in out


def _names_writev(text: str) -> bool:
    return "call i64 @writev" in text


@pytest.mark.parametrize("symbols", [None, {"writev"}])
@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_region_phase_keeps_the_path_to_the_symbol_whatever_the_jobs(jobs: int, symbols: set[str] | None) -> None:
    seen: list[str] = []

    def interesting(text: str) -> bool:
        seen.append(text)
        return _names_writev(text)

    out, stats = split_triage.reduce_regions(MODULE, interesting, jobs=jobs, symbols=symbols)
    llvm_stage.parse_ir(out, "<test>")
    assert _names_writev(out)
    assert "@leaf" not in out and "@dead" not in out
    assert "define internal i32 @helper(i32 %x) {\n  ret i32 zeroinitializer\n}" in out  # main still calls it
    assert "@get_vtable" in out and "@vtable" in out
    assert stats.accepted >= 2 and stats.lines[0] > stats.lines[-1]
    if jobs == 1:
        assert len(seen) == stats.candidates
    single, _ = split_triage.reduce_regions(MODULE, _names_writev, jobs=1, symbols=symbols)
    assert out == single


def test_region_phase_with_nothing_removable_changes_nothing() -> None:
    out, stats = split_triage.reduce_regions(MODULE, lambda _t: False, jobs=2)
    assert out == MODULE and stats.accepted == 0


def _sym(name: str, binding: str = "GLOBAL", defined: bool = False) -> Symbol:
    return Symbol(name, binding, "NOTYPE", "DEFAULT", ".text" if defined else "UND", 0)


def test_difference_names_its_symbols_and_cause() -> None:
    ref = [_sym("main", defined=True)]
    cand = [_sym("main", defined=True), _sym("writev"), _sym("pidfd_spawnp", "WEAK")]
    diff = split_triage.difference_of(ref, cand, "subgraph", 2, 2, None)
    assert diff is not None and diff.cause == "added"
    assert diff.symbols == {"pidfd_spawnp": (None, "WEAK NOTYPE DEFAULT UND"), "writev": (None, "GLOBAL NOTYPE DEFAULT UND")}
    assert split_triage.difference_of(ref, ref, "subgraph", 2, 2, None) is None


def test_judge_rejects_by_text_before_building_and_orders_checks_by_price(tmp_path: Path) -> None:
    diff = split_triage.Difference("added", {"writev": (None, "GLOBAL NOTYPE DEFAULT UND")}, "subgraph", 2, 2)
    builds: list[str] = []

    class Judge(split_triage.SymbolJudge):
        def _build(self, path: Path, check: str) -> list[Symbol] | None:
            builds.append(check)
            text = path.read_text()
            if check == "serial":
                return [_sym("main", defined=True)] + ([_sym("writev")] if "serial keeps" in text else [])
            extra = [_sym("drop_in_place")] if "@drop_in_place" in text else []
            return [_sym("main", defined=True)] + ([_sym("writev")] if "@writev" in text else []) + extra

    judge = Judge(diff, {"writev"}, None, tmp_path)
    assert not judge("define i32 @main() {\n  ret i32 0\n}\n")
    assert builds == [] and judge.stats.by_text == 1
    assert judge("declare i64 @writev(i32, ptr, i32)\n")
    assert judge("declare i64 @writev(i32, ptr, i32)\n")  # remembered: no build
    assert len(builds) == 2 and judge.stats.memo == 1
    # the serial build rejects the next few: it becomes the cheaper check and goes first
    for k in range(4):
        assert not judge(f"; serial keeps {k}\ndeclare i64 @writev(i32, ptr, i32)\n")
    assert judge.stats.checks["serial"].rejects == 4
    builds.clear()
    assert not judge("; serial keeps again\ndeclare i64 @writev(i32, ptr, i32)\n")
    assert builds == ["serial"]
    # a symbol the input's difference does not name may not join it, unless the input declares it
    assert not judge("declare i64 @writev(i32, ptr, i32)\ndeclare void @drop_in_place(ptr)\n")
    judge.external = split_triage.external_names("declare void @drop_in_place(ptr)\n@x = external global i32\n")
    assert judge.external == {"drop_in_place", "x"}
    assert judge("declare i64 @writev(i32, ptr, i32)\ndeclare void @drop_in_place(ptr) ; again\n")


INVOKES = """\
define void @f() personality ptr @pers {
entry:
  %a = invoke i32 @g()
          to label %ok unwind label %pad
ok:
  invoke void @h(i32 %a)
          to label %done unwind label %pad
pad:
  %p = phi i32 [ 0, %entry ], [ 1, %ok ]
  %lp = landingpad { ptr, i32 } cleanup
  call void @h(i32 %p)
  resume { ptr, i32 } %lp
done:
  ret void
}

declare i32 @g()
declare void @h(i32)
declare i32 @pers(...)
"""


def test_invokes_become_calls_and_landing_pads_go() -> None:
    assert len(invokes.PASS.chunks(INVOKES)) == 2
    one = invokes.PASS.apply(INVOKES, {1})  # the first goes: the pad keeps one predecessor
    llvm_stage.parse_ir(one, "<test>")
    assert "call i32 @g()" in one and "landingpad" in one and one.count("invoke ") == 1
    both = invokes.PASS.apply(INVOKES, set())
    llvm_stage.parse_ir(both, "<test>")
    assert "invoke " not in both and "landingpad" not in both and "resume" not in both
    assert invokes.PASS.chunks(both) == []


BLOCKS = """\
define i32 @f(i32 %x) personality ptr @pers {
entry:
  switch i32 %x, label %other [
    i32 0, label %zero
    i32 1, label %one
  ]
zero:
  %a = invoke i32 @g()
          to label %join unwind label %pad
one:
  %b = call i32 @g()
  br label %deep
deep:
  %c = add i32 %b, 1
  br label %join
other:
  br label %join
join:
  %r = phi i32 [ %a, %zero ], [ %c, %deep ], [ 7, %other ]
  ret i32 %r
pad:
  %lp = landingpad { ptr, i32 }
          cleanup
  resume { ptr, i32 } %lp
}

declare i32 @g()
declare i32 @pers(...)
"""


def test_block_regions_remove_a_block_with_what_it_dominates() -> None:
    chunks = block_regions.PASS.chunks(BLOCKS)
    names = [c.split()[-1] for c in chunks]
    assert sorted(names) == ["%deep", "%join", "%one", "%other", "%pad", "%zero"]
    assert names.index("%one") + 1 == names.index("%deep")  # preorder: a subtree is a run
    without_one = block_regions.PASS.apply(BLOCKS, {k for k, n in enumerate(names) if n != "%one"})
    llvm_stage.parse_ir(without_one, "<test>")
    assert "%c = add" not in without_one and "%b = call" not in without_one  # %deep went with %one
    assert "i32 @g()" in without_one.split("declare")[0] and "[ 7, %entry ]" in without_one
    without_pad = block_regions.PASS.apply(BLOCKS, {k for k, n in enumerate(names) if n != "%pad"})
    llvm_stage.parse_ir(without_pad, "<test>")
    every = block_regions.PASS.apply(BLOCKS, set())
    llvm_stage.parse_ir(every, "<test>")
    assert "@g()" not in every.split("declare")[0]


@pytest.mark.parametrize("jobs", [1, 2])
def test_adaptive_delta_table_keeps_what_the_test_needs_whatever_the_jobs(jobs: int) -> None:
    from fuzz.reduce.ir.table import IR_DELTAS

    out, stats = split_triage.reduce_adaptive(MODULE, _names_writev, split_triage.polish_order(IR_DELTAS), jobs=jobs)
    llvm_stage.parse_ir(out, "<test>")
    assert _names_writev(out) and "@leaf" not in out and "@dead" not in out
    assert stats.accepted >= 3
    single, _ = split_triage.reduce_adaptive(MODULE, _names_writev, split_triage.polish_order(IR_DELTAS), jobs=1)
    assert out == single


#: the difference lives in code no root reaches (a planted fault keeps `dead_caller`'s callee)
DEAD_MODULE = """define i32 @main() {
  %r = call i32 @live(i32 1)
  ret i32 %r
}

define internal i32 @live(i32 %x) {
  ret i32 %x
}

define internal void @dead_caller() {
  call void @kept()
  ret void
}

define internal void @kept() {
  call void @only_here()
  ret void
}

define internal void @other_dead() {
  call void @other_dead2()
  ret void
}

define internal void @other_dead2() {
  ret void
}

declare void @only_here()
"""


@pytest.mark.parametrize("jobs", [1, 2])
def test_regions_of_dead_code_when_dropping_it_loses_the_difference(jobs: int) -> None:
    def interesting(text: str) -> bool:
        return "call void @kept()" in text and "call void @only_here()" in text

    out, stats = split_triage.reduce_regions(DEAD_MODULE, interesting, jobs=jobs)
    llvm_stage.parse_ir(out, "<test>")
    assert interesting(out)
    assert "@other_dead" not in out and "@dead_caller" in out
    assert stats.accepted >= 1


def test_a_graph_keeping_dead_code_hangs_it_from_the_root() -> None:
    plain = regions.graph(DEAD_MODULE)
    assert {"dead_caller", "kept", "other_dead", "other_dead2"} <= plain.unreachable
    g = regions.graph(DEAD_MODULE, keep_unreachable=True)
    assert g.entries == {"dead_caller", "other_dead"} and not g.unreachable
    assert "@other_dead" not in regions.remove(g, {"other_dead"})
    assert "@kept" in regions.remove(g, {"other_dead"}) and "@kept" not in regions.remove(g, {"dead_caller"})
