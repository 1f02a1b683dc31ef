"""Planted whole-module faults (`fuzz.faults.NO_INLINE_ACROSS_SUBGRAPHS`) and the triage that
reduces their difference with the failing build's plan kept (docs/reducer.md, "Whole-module
differences")."""

from __future__ import annotations

from pathlib import Path

from fuzz import buildserver, faults, regressions
from fuzz.reduce import split_triage


def _filler(name: str, n: int) -> str:
    body = ["  %v0 = add i64 %x, 1", *(f"  %v{i} = mul i64 %v{i - 1}, {2 * i + 1}" for i in range(1, n))]
    return "\n".join([f"define i64 @{name}(i64 %x) {{", *body, f"  ret i64 %v{n - 1}", "}"])


#: `say` prints through printf; inlined with a constant format (serially, and in the split build
#: through its copies) each call folds to puts, so printf is not called at all; never inlined
#: across subgraphs it stays a printf of an unknown string
MODULE = "\n".join([
    '@.hello = private unnamed_addr constant [7 x i8] c"hello\\0A\\00"',
    '@.bye = private unnamed_addr constant [5 x i8] c"bye\\0A\\00"',
    "define internal void @say(ptr %s) #0 {",
    "  %r = call i32 (ptr, ...) @printf(ptr %s)",
    "  ret void",
    "}",
    "define void @a() #0 {",
    "  call void @say(ptr @.hello)",
    "  call void @say(ptr @.bye)",
    "  ret void",
    "}",
    "define void @b() #0 {",
    "  call void @say(ptr @.bye)",
    "  call void @say(ptr @.hello)",
    "  ret void",
    "}",
    _filler("c", 40),
    _filler("d", 60),
    "declare i32 @printf(ptr, ...)",
    "attributes #0 = { nounwind }",
    "",
])


def _with_and_without(module: str, fault: str, tmp_path: Path) -> tuple[split_triage.Difference | None, split_triage.Difference | None]:
    """The triage's difference with `fault` planted in the split build, and without it."""
    try:
        planted = split_triage.establish(module, "subgraph", 1, 2, 5, tmp_path, None, parallel=False, faults=(fault,))
        clean = split_triage.establish(module, "subgraph", 1, 2, 5, tmp_path, None, parallel=False)
    finally:
        buildserver.stop_all()
    return planted, clean


def test_no_inline_across_subgraphs_changes_the_libcalls(tmp_path: Path) -> None:
    diff, clean = _with_and_without(MODULE, faults.NO_INLINE_ACROSS_SUBGRAPHS, tmp_path)
    assert clean is None  # the split build without the fault agrees with the serial one
    assert diff is not None and diff.faults == (faults.NO_INLINE_ACROSS_SUBGRAPHS,)
    assert diff.symbols.get("printf") == (None, "GLOBAL NOTYPE DEFAULT UND"), diff.symbols


def test_the_triage_keeps_the_plan_and_the_planted_difference(tmp_path: Path) -> None:
    said: list[str] = []
    try:
        result = split_triage.triage(MODULE, split="subgraph", split_jobs=1, opt=2, cost=5, jobs=1, time_budget=120,
                                     task_cache=tmp_path, say=said.append, faults=(faults.NO_INLINE_ACROSS_SUBGRAPHS,))
    finally:
        buildserver.stop_all()
    assert result is not None
    assert any("plan" in line and "shows it" in line for line in said), said
    assert result.difference.assignment is not None or not result.needs_plan
    assert "printf" in result.difference.symbols
    text = result.text
    assert "@printf" in text and "@say" in text and "@c(" not in text and "@d(" not in text


#: `helper` calls `only_here` when its flag is set; both callers, in two subgraphs, pass what
#: `is_set` returns, false: once the inliner has inlined both (serially, and through the split's
#: copies) the call folds away and `helper` dies. `is_set` is `linkonce_odr`, a definition
#: IPSCCP may not trust, so the whole-module prefix before the split cannot fold the branch
#: first (a constant argument, or an exported `is_set`, it would).
DEAD_MODULE = "\n".join([
    "define internal void @helper(i1 %flag) #0 {",
    "  br i1 %flag, label %yes, label %no",
    "yes:",
    "  call void @only_here()",
    "  br label %no",
    "no:",
    "  ret void",
    "}",
    "define linkonce_odr i1 @is_set() #0 {",
    "  ret i1 false",
    "}",
    "define void @a() #0 {",
    "  %f = call i1 @is_set()",
    "  call void @helper(i1 %f)",
    "  ret void",
    "}",
    "define void @b() #0 {",
    "  %f = call i1 @is_set()",
    "  call void @helper(i1 %f)",
    "  ret void",
    "}",
    _filler("c", 40),
    "declare void @only_here()",
    "attributes #0 = { nounwind }",
    "",
])


def test_keep_dead_across_subgraphs_keeps_what_only_dead_code_names(tmp_path: Path) -> None:
    diff, clean = _with_and_without(DEAD_MODULE, faults.KEEP_DEAD_ACROSS_SUBGRAPHS, tmp_path)
    assert clean is None
    assert diff is not None and diff.symbols == {"only_here": (None, "GLOBAL NOTYPE DEFAULT UND")}, diff


def test_compiler_used_grows_or_appears() -> None:
    assert faults._add_compiler_used("x\n", ["f"]).endswith(
        '@llvm.compiler.used = appending global [1 x ptr] [ptr @f], section "llvm.metadata"\n')
    text = '@llvm.compiler.used = appending global [1 x ptr] [ptr @g], section "llvm.metadata"\n'
    assert faults._add_compiler_used(text, ["f", "h x"]) == (
        '@llvm.compiler.used = appending global [3 x ptr] [ptr @g, ptr @f, ptr @"h x"], section "llvm.metadata"\n')


def test_skip_whole_module_prefix_brings_back_the_real_rust_difference(tmp_path: Path) -> None:
    """The split back end before the whole-module prefix, planted: std's output capture (the
    reduced shape of rust-markdown's real difference) keeps the calls only the whole module's
    IPSCCP proves dead, so a reduction benchmark keeps the real case the default build fixed."""
    module = (regressions.HERE / "ipsccp_dead_branch_across_subgraphs.ll").read_text()
    diff, clean = _with_and_without(module, faults.SKIP_WHOLE_MODULE_PREFIX, tmp_path)
    assert clean is None
    assert diff is not None and {"free", "perror"} <= diff.symbols.keys(), diff


#: glibc's `atoi` as the C corpus's modules carry it (`available_externally`, a `strtol` call):
#: inlined serially into @parse, a declaration in the faulty split build (`UND atoi`, no `strtol`);
#: the fillers stand for the rest of a program (jq: 95,000 lines)
ATOI_MODULE = "\n".join([
    "define available_externally i32 @atoi(ptr %s) #0 {",
    "  %r = call i64 @strtol(ptr %s, ptr null, i32 10)",
    "  %t = trunc i64 %r to i32",
    "  ret i32 %t",
    "}",
    "define internal i32 @parse(ptr %s) #0 {",
    "  %v = call i32 @atoi(ptr %s)",
    "  ret i32 %v",
    "}",
    *(_filler(f"fill{i}", 30).replace("define i64", "define internal i64") for i in range(6)),
    "define i32 @main(i32 %argc, ptr %argv) #0 {",
    "  %v = call i32 @parse(ptr %argv)",
    *(f"  %f{i} = call i64 @fill{i}(i64 {i})" for i in range(6)),
    "  ret i32 %v",
    "}",
    "declare i64 @strtol(ptr, ptr, i32)",
    "attributes #0 = { nounwind }",
    "",
])


def test_user_slices_root_each_function_that_names_the_symbols() -> None:
    from fuzz.reduce import evidence

    slices = evidence.user_slices(ATOI_MODULE, {"atoi", "strtol"})
    assert [s.anchors for s in slices] == [("parse",)]  # atoi names strtol but is one of the symbols
    text = slices[0].text
    assert "define hidden i32 @parse(" in text and "@atoi(" in text and "@fill" not in text
    assert evidence.user_slices(ATOI_MODULE, {"nothing_names_me"}) == []
    # `main` is a user like any other (jq: only `main` calls `atoi`)
    direct = ATOI_MODULE.replace("%v = call i32 @parse(ptr %argv)", "%v = call i32 @atoi(ptr %argv)")
    assert ("main",) in [s.anchors for s in evidence.user_slices(direct, {"atoi"})]


def test_the_triage_starts_from_the_slice_around_the_callers(tmp_path: Path) -> None:
    """A difference in `atoi`, a definition no slice around itself shows (nothing there calls it):
    the triage starts from the slice around its caller, not from the whole module."""
    said: list[str] = []
    try:
        result = split_triage.triage(ATOI_MODULE, split="subgraph", split_jobs=1, opt=2, cost=1, jobs=1,
                                     time_budget=120, task_cache=tmp_path, say=said.append,
                                     faults=(faults.NO_INLINE_ACROSS_SUBGRAPHS,))
    finally:
        buildserver.stop_all()
    assert result is not None and "atoi" in result.difference.symbols, said
    assert result.started.startswith("the slice of parse") and "functions that name" in result.started, said
    assert "@fill" not in result.text and result.regions.lines[0] < 20
