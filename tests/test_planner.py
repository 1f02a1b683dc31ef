"""The level-1 cost model (compiler/backend/planner.py): each step alone, and the work bound.

The bound the issue sets: all subgraphs together (copies and imports included) compile at
most 1.3x the module's instructions, or the planner's small-module floor.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from compiler import driver
from compiler.backend import cut, engine, facts, irmodel, names, planner, split
from fuzz.genmodule import ModuleShape, generate
from oracle import symtab

REGRESSIONS = Path(__file__).parent.parent / "fuzz" / "regressions"


def _fn(name: str, body_lines: int, calls: tuple[str, ...] = (), linkage: str = "") -> str:
    """A function of about `body_lines` instructions calling `calls` (each with its own result)."""
    lines = [f"define {linkage}i64 @{name}(i64 %x) {{", "  %v0 = add i64 %x, 1"]
    for i in range(1, body_lines):
        lines.append(f"  %v{i} = mul i64 %v{i - 1}, {2 * i + 1}")
    last = f"%v{body_lines - 1}"
    for n, callee in enumerate(calls):
        lines.append(f"  %c{n} = call i64 @{callee}(i64 {last})")
        last = f"%c{n}"
    lines += [f"  ret i64 {last}", "}"]
    return "\n".join(lines)


def _members(p: planner.SplitPlan) -> list[set[str]]:
    return [set(sg.members) for sg in p.subgraphs]


def test_single_caller_local_lives_with_its_caller() -> None:
    text = "\n".join([
        _fn("big_local", 300, linkage="internal "),
        _fn("a", 300, ("big_local",)),
        _fn("b", 300),
        _fn("c", 300),
    ])
    p = split.plan_module(text, planner.PlanPolicy(target_cost=400))
    assert len(p.subgraphs) >= 2
    home = next(m for m in _members(p) if "a" in m)
    assert "big_local" in home
    assert not any(planner.COPY_SUFFIX in n for m in _members(p) for n in m)


def test_small_shared_local_is_copied_large_one_is_exported_once() -> None:
    text = "\n".join([
        _fn("small", 5, linkage="internal "),
        _fn("large", 400, linkage="internal "),
        _fn("a", 400, ("small", "large")),
        _fn("b", 400, ("small", "large")),
    ])
    p = split.plan_module(text, planner.PlanPolicy(target_cost=600))
    assert len(p.subgraphs) == 2
    members = _members(p)
    # `small` is in both (one renamed copy); `large` is defined in exactly one subgraph
    assert sum("small" in m for m in members) == 1 and sum(f"small{planner.COPY_SUFFIX}" in " ".join(m) for m in members) == 1
    assert sum("large" in m for m in members) == 1
    other = next(sg for sg in p.subgraphs if "large" not in sg.members)
    assert "declare hidden i64 @large(i64)" in other.text
    owner = next(sg for sg in p.subgraphs if "large" in sg.members)
    assert "define hidden i64 @large(" in owner.text  # exported while compiling, local again at link
    assert "large" in p.local_names


def _state(text: str, policy: planner.PlanPolicy) -> planner.PlanState:
    """The planner's loaded state of `text` (its module stays open for the test's steps)."""
    module = engine.Module(text, "<test>")
    names.name_unnamed(module)
    return planner.load_state(module, policy)


def test_imports_are_not_transitive() -> None:
    """The import step alone: `top`'s subgraph imports `mid`, not `mid`'s callee `leaf`."""
    text = "\n".join([_fn("leaf", 20), _fn("mid", 20, ("leaf",)), _fn("top", 600, ("mid",))])
    state = _state(text, planner.PlanPolicy(import_cost=planner.IMPORT_COST))
    planner.form_atoms(state)
    state.bucket_members = [{"top": None}, {"mid": None, "leaf": None}]
    state.imported = [set(), set()]
    planner.import_small_callees(state)
    assert state.imported == [{"mid"}, set()]
    assert state.imported_cost == state.by_name["mid"].cost


def test_import_budget_is_relative_to_the_subgraph() -> None:
    callees = tuple(f"c{i}" for i in range(30))
    text = "\n".join([*(_fn(c, 50) for c in callees), _fn("top", 1000, callees)])
    state = _state(text, planner.PlanPolicy(import_cost=planner.IMPORT_COST, import_share=0.1))
    planner.form_atoms(state)
    state.bucket_members = [{"top": None}, dict.fromkeys(callees)]
    state.imported = [set(), set()]
    planner.import_small_callees(state)
    own = state.by_name["top"].cost
    assert 0 < state.imported_cost <= max(0.1 * own, planner.IMPORT_COST)


def test_work_stays_within_the_bound_on_generated_modules() -> None:
    for seed, functions in ((1, 400), (2, 1000)):
        text = generate(seed, ModuleShape(functions=functions))
        p = split.plan_module(text, planner.PlanPolicy(import_cost=planner.IMPORT_COST))
        work = p.work
        assert work.work_cost == sum(sg.cost for sg in p.subgraphs)
        assert work.ratio <= 1.3 or work.work_cost - work.module_cost <= planner.WORK_FLOOR, work.render()


def test_plan_reports_its_work() -> None:
    text = generate(3, ModuleShape(functions=200))
    p = split.plan_module(text)
    assert p.describe().splitlines()[0] == p.work.render()
    # the cost model counts the lines of each definition as LLVM prints it
    with engine.Module(text) as module:
        printed = module.text()
    assert p.work.module_cost == sum(e.cost for e in irmodel.parse_module(printed).entities if e.is_value and e.is_definition)


@pytest.mark.parametrize("mode", ["function", "two-level"])
def test_metadata_naming_a_function_elsewhere_is_declared(mode: str, tmp_path: Path) -> None:
    """Regression (duktape): `!callees` metadata named functions a level-2 piece did not declare."""
    src = REGRESSIONS / "callees_metadata_piece.ll"
    none = driver.build(str(src), driver.BuildOptions(split="none")).output
    split_out = driver.build(str(src), driver.BuildOptions(split=mode, jobs=1, piece_cost=1, subgraph_cost=1)).output
    assert isinstance(none, bytes) and isinstance(split_out, bytes)
    diff = symtab.diff_symbols(symtab.read_symbols(none), symtab.read_symbols(split_out))
    assert diff.clean, diff.render("none", mode)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_inlined_libcall_folds_the_same_split(level: int) -> None:
    """Regression: at -O1 nothing was imported, so printf(get()) became puts only unsplit."""
    src = REGRESSIONS / "libcall_O1_split.ll"
    none = driver.build(str(src), driver.BuildOptions(split="none", opt_level=level)).output
    split_out = driver.build(str(src), driver.BuildOptions(split="two-level", jobs=2, subgraph_cost=1, opt_level=level)).output
    assert isinstance(none, bytes) and isinstance(split_out, bytes)
    diff = symtab.diff_symbols(symtab.read_symbols(none), symtab.read_symbols(split_out))
    assert diff.clean, diff.render("none", "two-level")


def test_imported_callee_brings_its_small_locals_and_never_exports_them() -> None:
    """`main` imports `a`; `a`'s internal callee comes along as a copy, so its home stays
    internal (exported, IPSCCP could not specialise it: the specialised-copies fault hid)."""
    text = "\n".join([
        "declare i32 @printf(ptr, ...)",
        "@fmt = private unnamed_addr constant [9 x i8] c\"spec %ld\\0A\"",
        "define internal i64 @spec(i64 %x, i64 %k) noinline {",
        "  call i32 (ptr, ...) @printf(ptr @fmt, i64 %k)",
        "  %m = mul i64 %x, %k",
        "  ret i64 %m",
        "}",
        "define i64 @a(i64 %x) {\n  %r = call i64 @spec(i64 %x, i64 3)\n  ret i64 %r\n}",
        "define i64 @b(i64 %x) {\n  %r = call i64 @spec(i64 %x, i64 5)\n  ret i64 %r\n}",
        "define i32 @main() {\n  %p = call i64 @a(i64 1)\n  %q = call i64 @b(i64 2)\n  ret i32 0\n}",
    ])
    p = split.plan_module(text, planner.PlanPolicy(target_cost=1, import_cost=planner.IMPORT_COST))
    home = next(sg for sg in p.subgraphs if "spec" in sg.members)
    assert irmodel.parse_module(home.text).values["spec"].linkage == "internal"
    main = next(sg for sg in p.subgraphs if "main" in sg.members)
    values = irmodel.parse_module(main.text).values
    assert values["a"].linkage == "available_externally"
    assert any(n.startswith(f"spec{planner.COPY_SUFFIX}") for n in main.members)


ALWAYS_INLINE = "\n".join([
    "@counter = internal global i64 0",
    "define i64 @bump(i64 %x) #0 {",
    "  %c = load i64, ptr @counter",
    "  %n = add i64 %c, %x",
    "  store i64 %n, ptr @counter",
    "  ret i64 %n",
    "}",
    "define i64 @a(i64 %x) noinline {\n  %r = call i64 @bump(i64 %x)\n  ret i64 %r\n}",
    "define i64 @b(i64 %x) noinline {\n  %r = call i64 @bump(i64 %x)\n  %s = add i64 %r, 1\n  ret i64 %s\n}",
    "define i32 @main() {\n  %p = call i64 @a(i64 1)\n  %q = call i64 @b(i64 2)\n  ret i32 0\n}",
    "attributes #0 = { alwaysinline }",
])


def test_an_always_inline_callee_is_imported_at_every_level() -> None:
    """-O0 runs the always-inliner too: an exported `alwaysinline` callee comes into every
    subgraph calling it (attribute group or not, naming a mutable local or not), as the
    unsplit compile inlines it there."""
    assert planner.always_inline_functions(irmodel.parse_module(ALWAYS_INLINE)) == {"bump"}
    p = split.plan_module(ALWAYS_INLINE, planner.PlanPolicy(target_cost=1, import_always_inline=True))
    for caller in ("a", "b"):
        sg = next(sg for sg in p.subgraphs if caller in sg.members)
        assert irmodel.parse_module(sg.text).values["bump"].linkage == "available_externally"
    assert not split.plan_module(ALWAYS_INLINE, planner.PlanPolicy(target_cost=1)).work.imported


#: an internal `alwaysinline` helper well over the copy limit, called from two anchors
BIG_ALWAYS_INLINE = "\n".join([
    "define internal i64 @big(i64 %x) alwaysinline {",
    *[f"  %v{i} = mul i64 {'%x' if i == 0 else f'%v{i - 1}'}, {i + 3}" for i in range(planner.COPY_COST + 20)],
    f"  ret i64 %v{planner.COPY_COST + 19}",
    "}",
    "define i64 @c(i64 %x) noinline {\n  %r = call i64 @big(i64 %x)\n  ret i64 %r\n}",
    "define i64 @e(i64 %x) noinline {\n  %r = call i64 @big(i64 %x)\n  %s = add i64 %r, 1\n  ret i64 %s\n}",
])


@pytest.mark.parametrize("mode", ["subgraph", "two-level"])
@pytest.mark.parametrize("module", [ALWAYS_INLINE, BIG_ALWAYS_INLINE], ids=["exported", "internal-large"])
def test_at_O0_every_function_is_the_same_size_split(mode: str, module: str, tmp_path: Path) -> None:
    """At -O0 nothing crosses functions but the always-inliner: each function's bytes, and so
    its size, are what the unsplit compile gives (the full comparison checks that)."""
    src = tmp_path / "m.ll"
    src.write_text(module)
    none = driver.build(str(src), driver.BuildOptions(split="none", opt_level=0)).output
    split_out = driver.build(str(src), driver.BuildOptions(split=mode, jobs=1, subgraph_cost=1, opt_level=0)).output
    assert isinstance(none, bytes) and isinstance(split_out, bytes)
    lines = symtab.diff_full(symtab.read_symbols(none), symtab.read_symbols(split_out),
                             symtab.read_relocations(none), symtab.read_relocations(split_out), exact_code=True)
    assert not lines, lines


def test_a_large_inline_closure_shrinks_to_an_even_count() -> None:
    """Every subgraph copies the 150 helpers the serial inliner inlines everywhere: over
    CLOSURE_WORK of the module, so the plan uses fewer subgraphs; an even number of them
    (five would leave one of two workers idle for a whole subgraph)."""
    helpers = [f"helper{i}" for i in range(150)]
    text = "\n".join(
        [_fn(h, 30, linkage="internal ") for h in helpers]
        + [_fn(f"anchor{i}", 2000, calls=tuple(helpers)) for i in range(36)]
    )
    policy = planner.PlanPolicy(import_cost=planner.IMPORT_COST, import_always_inline=True, inline_level=2)
    unshrunk = split.plan_module(text, dataclasses.replace(policy, inline_level=0))
    shrunk = split.plan_module(text, policy)
    assert len(unshrunk.subgraphs) > 5
    assert planner.MIN_SUBGRAPHS <= len(shrunk.subgraphs) < len(unshrunk.subgraphs)
    assert len(shrunk.subgraphs) % 2 == 0
    for sg in shrunk.subgraphs:  # the closure came along: no helper is called across subgraphs
        assert all(f"{h}{planner.COPY_SUFFIX}" in sg.text or f"define internal i64 @{h}(" in sg.text for h in helpers)


def test_an_import_may_name_a_variable_the_optimiser_knows_nothing_about() -> None:
    """gawk's `set_loc` stores its arguments into two static variables; serially it is inlined
    into every caller. A variable loaded and stored run-time values gives GlobalOpt nothing to
    use, so the import takes it in place (exported while compiling) instead of staying a call;
    a variable only ever stored a constant is not given up that way."""
    setter = (
        "@where = internal global i64 0, align 8\n@flag = internal global i64 0, align 8\n"
        "define void @set_loc(i64 %x) {\n  store i64 %x, ptr @where, align 8\n  ret void\n}\n"
        "define void @set_flag() {\n  store i64 1, ptr @flag, align 8\n  ret void\n}\n"
        "define i64 @get_loc(i64 %x) {\n  %w = load i64, ptr @where, align 8\n  %f = load i64, ptr @flag, align 8\n"
        "  %s = add i64 %w, %f\n  ret i64 %s\n}\n"
    )
    callers = "\n".join(_fn(f"caller{i}", 400, calls=("get_loc",)) for i in range(4))
    calls = "".join(f"  call void @set_loc(i64 {i})\n  call void @set_flag()\n" for i in range(3))
    text = setter + callers.replace("  ret i64 %c0", calls + "  ret i64 %c0")
    with engine.Module(text) as module:
        assert planner.opaque_variables(facts.read(module), module) == {"where"}
    policy = planner.PlanPolicy(target_cost=400, import_cost=planner.IMPORT_COST, import_always_inline=True, inline_level=2)
    plan = split.plan_module(text, policy)
    importing = [sg.text for sg in plan.subgraphs if "define available_externally void @set_loc(" in sg.text]
    assert importing, "no subgraph imports set_loc"
    for sg_text in importing:
        assert "@where = external hidden global i64" in sg_text


def test_the_callers_of_a_local_left_out_of_line_share_its_subgraph() -> None:
    """IPSCCP specialises a local the serial build keeps out of line on the constants all its
    calls pass (fuzz/regressions/ipsccp_argument_across_subgraphs.ll: `frem` and `floor` on
    them fold, and `UND fmod`, `UND floor` with them). Only a subgraph holding every call sees
    that, so the callers' clusters join the local's while they fit a default-sized subgraph;
    beyond that the plan stays split (the local is called across subgraphs, as before)."""
    text = "\n".join([
        _fn("shared", 300, linkage="internal "),
        _fn("a", 300, ("shared",)),
        _fn("b", 300, ("shared",)),
        _fn("c", 300),
    ])
    policy = planner.PlanPolicy(target_cost=400, import_cost=planner.IMPORT_COST, import_always_inline=True, inline_level=2)
    together = next(m for m in _members(split.plan_module(text, policy)) if "shared" in m)
    assert {"a", "b"} <= together and "c" not in together
    assert not any(planner.COPY_SUFFIX in n for n in together)
    # -O0 inlines nothing and specialises nothing: the plan does not follow
    unspecialised = split.plan_module(text, dataclasses.replace(policy, inline_level=0))
    assert not any({"a", "b", "shared"} <= m for m in _members(unspecialised))
    # too large together for one subgraph: split as before
    large = "\n".join([_fn("shared", 300, linkage="internal "), _fn("a", 4000, ("shared",)), _fn("b", 4000, ("shared",)), _fn("c", 300)])
    assert not any({"a", "b"} <= m for m in _members(split.plan_module(large, policy)))


def _pick_module(ops: tuple[int, int]) -> str:
    """`pick` (small, local) called with a constant `op` by two large exported callers."""
    pick = "\n".join([
        "define internal i64 @pick(i64 %x, i32 %op) {",
        "  %is1 = icmp eq i32 %op, 1",
        "  %a = add i64 %x, 7",
        "  %b = mul i64 %x, 3",
        "  %r = select i1 %is1, i64 %a, i64 %b",
        "  ret i64 %r",
        "}",
    ])
    callers = []
    for name, op in zip(("a", "b"), ops, strict=True):
        body = _fn(name, 400).replace("  ret i64 %v399", f"  %p = call i64 @pick(i64 %v399, i32 {op})\n  ret i64 %p")
        callers.append(body)
    return "\n".join([pick, *callers])


def test_a_copy_sees_the_argument_facts_of_all_its_call_sites(tmp_path: Path) -> None:
    """Each subgraph sees one caller of `pick`, passing one constant `op`; unsplit, IPSCCP sees
    0 and 1 and folds nothing, so each subgraph gets a discardable caller passing an unknown
    `op` (jq's `order_cmp`: otherwise its copies are folded before inlining and the merged
    debug locations differ). Where every call site passes the same `op`, nothing is added,
    and the caller never reaches the object."""
    policy = planner.PlanPolicy(target_cost=400, serial_argument_facts=True)
    p = split.plan_module(_pick_module((0, 1)), policy)
    assert len(p.subgraphs) == 2
    for sg in p.subgraphs:
        lines = sg.text.splitlines()
        at = [i for i, ln in enumerate(lines) if ln.startswith("define linkonce_odr hidden void @__ember_ipsccp.")]
        assert len(at) == 1, sg.text
        call = lines[at[0] + 1]  # both arguments unknown (x varies too), the subgraph's own name of `pick`
        names = ("@pick(", f"@pick{planner.COPY_SUFFIX}{sg.index}(")
        assert call in (f"  %1 = call i64 {name}i64 %x, i32 %op)" for name in names), call
    same = split.plan_module(_pick_module((1, 1)), policy)
    assert not any("__ember_ipsccp" in sg.text for sg in same.subgraphs)
    off = split.plan_module(_pick_module((0, 1)), dataclasses.replace(policy, serial_argument_facts=False))
    assert not any("__ember_ipsccp" in sg.text for sg in off.subgraphs)
    src = tmp_path / "pick.ll"
    src.write_text(_pick_module((0, 1)))
    none = driver.build(str(src), driver.BuildOptions(split="none")).output
    split_out = driver.build(str(src), driver.BuildOptions(split="subgraph", jobs=1, subgraph_cost=400)).output
    assert isinstance(split_out, bytes) and b"__ember_ipsccp" not in split_out
    assert symtab.diff_symbols(symtab.read_symbols(none), symtab.read_symbols(split_out)).clean


_TABLE = "\n".join([
    "%struct.stat = type { [4 x i64], [4 x i64] }",
    "@stat = internal global %struct.stat zeroinitializer, align 8",
    "@seen = internal global ptr null, align 8",
    "declare void @use(ptr)",
])


def _stat_user(name: str, extra: str = "") -> str:
    """A large function that bumps `stat.now[i]` through a GEP chain (and a constant GEP)."""
    body = _fn(name, 400).replace("  ret i64 %v399", "\n".join([
        "  %now = getelementptr inbounds [4 x i64], ptr @stat, i64 0, i64 %x",
        "  %old = load i64, ptr %now, align 8",
        "  %new = add i64 %old, %v399",
        "  store i64 %new, ptr %now, align 8",
        "  %mx = getelementptr inbounds [4 x i64], ptr getelementptr inbounds (%struct.stat, ptr @stat, i32 0, i32 1), i64 0, i64 %x",
        "  store i64 %new, ptr %mx, align 8",
        extra,
        "  ret i64 %new",
    ]))
    return body


def _variable_uses(text: str, candidates: set[str]) -> tuple[set[str], set[str]]:
    """`planner.variable_uses` of `candidates` in `text`: (never escaping, written)."""
    with engine.Module(text) as module:
        return planner.variable_uses(facts.read(module), candidates, module)


def _non_escaping(text: str, candidates: set[str]) -> set[str]:
    return _variable_uses(text, candidates)[0]


def _never_written(text: str, candidates: set[str]) -> set[str]:
    unescaped, written = _variable_uses(text, candidates)
    return unescaped - written


def test_non_escaping_variables_follow_gep_chains_and_stop_at_any_other_use() -> None:
    ok = "\n".join([_TABLE, _stat_user("a"), _stat_user("b")])
    assert _non_escaping(ok, {"stat", "seen"}) == {"stat", "seen"}
    for escape in (
        "  store ptr %now, ptr @seen, align 8",  # the address stored: `seen` is fine, `stat` escapes
        "  call void @use(ptr %mx)",
        "  %cmp = icmp eq ptr %now, null",
        "  %sel = select i1 true, ptr %now, ptr null",
    ):
        escaping = "\n".join([_TABLE, _stat_user("a"), _stat_user("b", escape)])
        assert "stat" not in _non_escaping(escaping, {"stat"}), escape
    stored = "\n".join([_TABLE, _stat_user("a", "  store ptr %now, ptr @seen, align 8")])
    assert _non_escaping(stored, {"stat", "seen"}) == {"seen"}


def test_a_variable_used_across_subgraphs_stays_local_in_its_owner_when_it_never_escapes(tmp_path: Path) -> None:
    """SQLite's `sqlite3Stat`: exported hidden while compiling, GlobalsAA lost its no-escape
    fact and GVN kept another of two equal loads (other debug line). Its owner keeps it
    `internal`, with a keeper standing for the other subgraphs' accesses; the object is the
    same as before (no keeper, `stat` local)."""
    text = "\n".join([_TABLE, _stat_user("a"), _stat_user("b")])
    policy = planner.PlanPolicy(target_cost=400, serial_alias_facts=True)
    p = split.plan_module(text, policy)
    assert len(p.subgraphs) == 2
    owner = next(sg for sg in p.subgraphs if "stat" in sg.members)
    other = next(sg for sg in p.subgraphs if sg is not owner)
    assert "@stat = internal global" in owner.text
    assert f"define hidden void @{planner.KEEPER_PREFIX}" in owner.text and "getelementptr i8, ptr @stat, i64 %at" in owner.text
    assert "@stat = external hidden global" in other.text and planner.KEEPER_PREFIX not in other.text
    escaping = split.plan_module("\n".join([_TABLE, _stat_user("a"), _stat_user("b", "  call void @use(ptr %mx)")]), policy)
    owner = next(sg for sg in escaping.subgraphs if "stat" in sg.members)
    assert "@stat = hidden global" in owner.text and planner.KEEPER_PREFIX not in owner.text
    src = tmp_path / "stat.ll"
    src.write_text(text)
    none = driver.build(str(src), driver.BuildOptions(split="none")).output
    for mode in ("subgraph", "two-level"):
        split_out = driver.build(str(src), driver.BuildOptions(split=mode, jobs=1, subgraph_cost=400)).output
        assert isinstance(split_out, bytes) and planner.KEEPER_PREFIX.encode() not in split_out
        assert symtab.diff_symbols(symtab.read_symbols(none), symtab.read_symbols(split_out)).clean


FUNCTION_ALIAS = """
define internal i32 @impl(i32 %a, i32 %b) noinline {
  %s = add i32 %a, %b
  ret i32 %s
}
@two = alias i32 (i32, i32), ptr @impl
define i32 @u1(i32 %x) noinline {
  %r = call i32 @two(i32 %x, i32 2)
  ret i32 %r
}
define i32 @u2(i32 %x) noinline {
  %r = call i32 @two(i32 %x, i32 3)
  ret i32 %r
}
"""


def test_a_function_alias_is_declared_with_its_whole_type() -> None:
    # the parameters' commas are inside the type: read as `alias ([^,]+),` it was `declare void @two()`
    p = split.plan_module(FUNCTION_ALIAS, planner.PlanPolicy(target_cost=1))
    declared = [line for sg in p.subgraphs for line in sg.text.splitlines() if line.startswith("declare") and "@two" in line]
    assert declared and all(line == "declare i32 @two(i32, i32)" for line in declared), declared


def test_a_top_level_line_the_model_does_not_know_is_an_error_not_dropped() -> None:
    from compiler.backend import irmodel
    from compiler.diagnostics import EmberError

    known = "define void @f() {\n  ret void\n}\nuselistorder ptr @f, { 1, 0 }\n"
    assert [e.name for e in irmodel.parse_module(known).entities] == ["f"]  # a use-list order carries nothing
    with pytest.raises(EmberError, match="does not model: something_new @f"):
        irmodel.parse_module(known + "something_new @f\n")


def test_a_quoted_name_with_an_equals_sign_is_one_name() -> None:
    """`@"a<=1" = ...` names `a<=1` (a campaign's `names-quoted` slice read it as `"a<`), and
    its users name the same value; so do a comdat's and a type's."""
    text = (
        '%"t=1" = type { i32 }\n$"c=2" = comdat any\n'
        '@"s\\09<=1" = private unnamed_addr constant [2 x i8] c"=\\00", align 1\n'
        '@"g=3" = global %"t=1" zeroinitializer, comdat($"c=2")\n'
        'define ptr @f() {\n  ret ptr @"s\\09<=1"\n}\n'
    )
    mod = irmodel.parse_module(text)
    by_kind = {(e.kind, e.name) for e in mod.entities}
    assert {("comdat", "c=2"), ("global", "s\\09<=1"), ("global", "g=3")} <= by_kind, by_kind
    assert mod.values["f"].refs == ["s\\09<=1"] and mod.values["s\\09<=1"].linkage == "private"
    assert mod.values["g=3"].comdat == "c=2"
    assert irmodel.declaration_of(mod.values["g=3"]).startswith('@"g=3" = external global %"t=1"')


def test_asm_probe_holds_only_the_asm() -> None:
    """The driver's asm check compiles the module asm and the functions holding inline asm,
    the rest declared; a module without asm needs none."""
    text = (
        'module asm ".globl marker"\n'
        "define internal void @spin() {\n  call void asm sideeffect \"pause\", \"\"()\n  ret void\n}\n"
        "define i32 @plain(i32 %x) {\n  call void @spin()\n  ret i32 %x\n}\n"
        "define i32 @main() {\n  %r = call i32 @plain(i32 1)\n  ret i32 %r\n}\n"
    )
    with engine.Module(text) as module:
        probe = planner.asm_probe(facts.read(module))
        bitcode = split.whole_module_bitcode(module)
    assert probe is not None
    assert probe.cut.keep == {"spin": (cut.AS_IS, "")} and probe.cut.asm  # the build cuts it from the bitcode
    with cut.cut(bitcode[0], probe.cut, "probe", bitcode[1]) as piece:
        piece.verify()  # a module LLVM accepts as it is
        shown = piece.text()
    assert 'module asm ".globl marker"' in shown and "define internal void @spin()" in shown
    assert "define i32 @plain" not in shown and "define i32 @main" not in shown
    with engine.Module("define i32 @main() {\n  ret i32 0\n}\n") as no_asm:
        assert planner.asm_probe(facts.read(no_asm)) is None


def _reader(name: str, access: str) -> str:
    """A function that reads `stat.now[%x]` through a GEP with `access` (a load line of `%now`)."""
    return "\n".join([
        f"define i64 @{name}(i64 %x) {{",
        "  %now = getelementptr inbounds [4 x i64], ptr @stat, i64 0, i64 %x",
        f"  {access}",
        "  ret i64 %v",
        "}",
    ])


def test_never_written_variables_are_read_only_through_plain_loads() -> None:
    """What GlobalOpt marks constant unsplit: no store anywhere (through any GEP), no volatile
    or atomic access, the address never escaping; the plan then marks it constant."""
    plain = "%v = load i64, ptr %now, align 8"
    read = "\n".join([_TABLE, _reader("a", plain), _reader("b", plain)])
    assert _never_written(read, {"stat"}) == {"stat"}
    for write in (
        "%v = load volatile i64, ptr %now, align 8",
        "%v = load atomic i64, ptr %now seq_cst, align 8",
        "store i64 1, ptr %now, align 8\n  %v = add i64 0, 0",
    ):
        written = "\n".join([_TABLE, _reader("a", plain), _reader("b", write)])
        assert _never_written(written, {"stat"}) == set(), write
        if "atomic" not in write:  # an atomic access counts as an escape already
            assert _non_escaping(written, {"stat"}) == {"stat"}, write
    escaped = "\n".join([_TABLE, _reader("a", plain), _reader("b", "call void @use(ptr %now)\n  %v = add i64 0, 0")])
    assert _never_written(escaped, {"stat"}) == set()
