"""The planner's entity facts read from the live module (`facts.read`) equal the ones
`irmodel.parse_module` reads from its text, value by value: kind, linkage, visibility,
comdat, definition, cost, refs, address refs, block-address functions, a variable's
qualifiers, the function attributes the plan asks about, inline asm."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler.backend import engine, facts, irmodel, names, planner, split
from tests.test_cut import SMALL  # the small modules the cut is checked on: quoted names, aliases, comdats

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((ROOT / ".cache/corpus/bc").glob("lua-*.bc")) + sorted((ROOT / ".cache/corpus/bc").glob("zlib-*.bc"))

#: the shapes whose printed line counts, refs and qualifiers are easy to get wrong
SHAPES = """
target triple = "x86_64-unknown-linux-gnu"
$grouped = comdat any
@tls = internal thread_local global i32 0
@tls_alias = internal thread_local alias i32, ptr @tls
@in_section = internal global i32 1, section ".data.mine"
@constant = private unnamed_addr constant [3 x i8] c"hi\\00"
@scalar = internal global ptr null
@grouped = linkonce_odr global i32 3, comdat
@local_here = dso_local global i64 5
@hidden_one = hidden global i64 6
@elsewhere = external global ptr
@weak_one = extern_weak global i32
@dispatch = internal constant [2 x ptr] [ptr blockaddress(@jumps, %a), ptr blockaddress(@jumps, %b)]
@fn_alias = alias i32 (i32, i32), ptr @add
@picked = ifunc i32 (i32, i32), ptr @resolve

declare i32 @__gxx_personality_v0(...)
declare void @may_throw()
declare void @report() cold noreturn

define internal ptr @resolve() { ret ptr @add }

define i32 @add(i32 %x, i32 %y) {
start:
  %s = add i32 %x, %y
  ret i32 %s
}

define internal { i32, i64 } @pair() #0 {
  ret { i32, i64 } { i32 1, i64 2 }
}

define i32 @jumps(i32 %i) {
  %p = getelementptr [2 x ptr], ptr @dispatch, i32 0, i32 %i
  %t = load ptr, ptr %p
  indirectbr ptr %t, [label %a, label %b]
a:
  ret i32 1
b:
  ret i32 2
}

define i32 @switches(i32 %i) {
  switch i32 %i, label %d [
    i32 0, label %z
    i32 1, label %o
  ]
z:
  ret i32 0
o:
  ret i32 1
d:
  %self = ptrtoint ptr @switches to i32
  ret i32 %self
}

define void @unwinds(i1 %c) personality ptr @__gxx_personality_v0 {
  br i1 %c, label %l, label %r
l:
  invoke void @may_throw() to label %done unwind label %pad
r:
  invoke void @may_throw() to label %done unwind label %pad
pad:
  %which = phi i32 [ 1, %l ], [ 2, %r ]
  %lp = landingpad { ptr, i32 } cleanup catch ptr null filter [0 x ptr] zeroinitializer
  call void @report()
  unreachable
done:
  ret void
}

define i32 @asm_user() {
  %v = call i32 asm sideeffect "movl $$1, $0", "=r"()
  %w = load i32, ptr @tls_alias
  %g = load i32, ptr @grouped
  %x = load i32, ptr @in_section
  %q = call i32 @picked(i32 %v, i32 %w)
  %r = call i32 @fn_alias(i32 %q, i32 %x)
  %e = load ptr, ptr @elsewhere
  %c = load ptr, ptr @constant
  %n = load i64, ptr @local_here
  %h = load i64, ptr @hidden_one
  %k = load i32, ptr @weak_one
  store ptr @scalar, ptr @scalar
  %p = call { i32, i64 } @pair()
  ret i32 %r
}

attributes #0 = { alwaysinline nounwind }
"""


def _both(data: bytes | str) -> tuple[irmodel.IRModule, irmodel.IRModule]:
    """The text's entities and memory's, of the module as the driver plans it."""
    with engine.Module(data) as module:
        names.canonicalise(module)
        names.name_unnamed(module)
        return irmodel.parse_module(module.text()), facts.read(module)


def _differences(data: bytes | str) -> list[tuple[str, str, object, object]]:
    text, memory = _both(data)
    values = [e for e in text.entities if e.is_value]
    assert [e.name for e in values] == [e.name for e in memory.entities]
    found: list[tuple[str, str, object, object]] = []
    for t, m in zip(values, memory.entities, strict=True):
        for fact in ("kind", "linkage", "visibility", "comdat", "is_definition", "cost", "address_refs", "blockaddress_of"):
            if getattr(t, fact) != getattr(m, fact):
                found.append((t.name, fact, getattr(t, fact), getattr(m, fact)))
        if set(t.refs) != set(m.refs) or len(t.refs) != len(m.refs):
            found.append((t.name, "refs", t.refs, m.refs))
        if t.kind in ("global", "alias", "ifunc") and t.variable != m.variable:
            found.append((t.name, "variable", t.variable, m.variable))
        if t.kind in ("function", "declaration"):
            wanted = text.function_attributes(t) & set(facts.PLAN_ATTRIBUTES)
            if wanted != memory.function_attributes(m):
                found.append((t.name, "attributes", wanted, memory.function_attributes(m)))
        if t.kind == "function" and t.inline_asm != m.inline_asm:
            found.append((t.name, "inline asm", t.inline_asm, m.inline_asm))
    return found


def test_shapes_read_alike() -> None:
    assert _differences(SHAPES) == []


def test_shapes_facts_are_what_the_module_says() -> None:
    """Not only equal to the text: the facts the shapes were written for (so a reader and a
    text model that agree on a wrong answer fail here)."""
    _, memory = _both(SHAPES)
    by_name = {e.name: e for e in memory.entities}
    assert by_name["tls_alias"].variable.thread_local and by_name["tls"].variable.thread_local
    assert by_name["in_section"].variable.section and by_name["__ember_n0"].variable.constant  # private: renamed
    assert by_name["scalar"].variable.scalar and not by_name["elsewhere"].variable.scalar  # a declaration
    assert by_name["local_here"].variable.dso_local and not by_name["hidden_one"].variable.dso_local
    assert by_name["grouped"].comdat == "grouped" and not by_name["elsewhere"].is_definition
    assert by_name["dispatch"].blockaddress_of == {"jumps"}
    assert by_name["switches"].cost == 1 + 5 + 3 + 2 * 3  # 5 instructions, 3 case lines, 3 more blocks
    assert by_name["switches"].address_refs == {"switches"} and "switches" not in by_name["switches"].refs
    assert by_name["add"].cost == 1 + 2 + 1  # named entry block
    # 2 invokes, each with its own `to label` line; a landing pad after a phi, 2 clauses + cleanup
    assert by_name["unwinds"].cost == 1 + 8 + 2 * 4 + 2 + 3
    assert by_name["asm_user"].inline_asm and not by_name["add"].inline_asm
    assert memory.function_attributes(by_name["pair"]) == {"alwaysinline"}
    assert memory.function_attributes(by_name["report"]) == {"cold", "noreturn"}
    assert by_name["asm_user"].refs[:3] == ["in_section", "__ember_n0", "scalar"]  # module order
    assert "pair" not in by_name["asm_user"].address_refs and "scalar" in by_name["asm_user"].address_refs


def test_always_inline_behind_a_struct_return() -> None:
    """The attribute group after a `{ i32, i64 }` return type counts (it did not when the
    header was cut at its first brace)."""
    assert "pair" in planner.always_inline_functions(irmodel.parse_module(SHAPES))


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_small_modules_read_alike(path: Path) -> None:
    assert _differences(path.read_text()) == []


@pytest.mark.skipif(not CORPUS, reason="no corpus bitcode (bash ci/fetch_lua.sh, ci/fetch_corpus.sh)")
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name.split("-")[0])
def test_corpus_reads_alike(path: Path) -> None:
    assert _differences(path.read_bytes()) == []


def test_cxx_entry_points_exist() -> None:
    """The C++ methods `facts` calls by mangled name are in the wheel's libLLVM.so."""
    lib = engine.capi()
    for symbol in facts.MANGLED:
        assert getattr(lib, symbol) is not None


def _caller(name: str, args: str, size: int = 400) -> str:
    """An exported function of `size` instructions ending in a call of `pick` with `args`."""
    body = ["  %v0 = add i64 %x, 1"] + [f"  %v{i} = mul i64 %v{i - 1}, 3" for i in range(1, size)]
    return "\n".join([f"define i64 @{name}(i64 %x) {{", *body, f"  %p = call i64 @pick(i64 %v{size - 1}, {args})", "  ret i64 %p", "}"])


#: `pick` is called with `op` 0, 1 and 1 and `k` 5 everywhere, but once with `noundef`: only
#: `op` differs across the subgraphs' shares of the sites, and `k` is the same constant only
#: where its attributes are the same too
PICK = "\n".join([
    "define internal i64 @pick(i64 %x, i32 %op, i32 %k) {",
    "  %is1 = icmp eq i32 %op, 1",
    "  %a = add i64 %x, 7",
    "  %b = mul i64 %x, 3",
    "  %r = select i1 %is1, i64 %a, i64 %b",
    "  %w = zext i32 %k to i64",
    "  %s = add i64 %r, %w",
    "  ret i64 %s",
    "}",
    _caller("a", "i32 0, i32 5"),
    _caller("b", "i32 1, i32 5"),
    _caller("c", "i32 1, i32 noundef 5"),
])


@pytest.mark.parametrize("attributes_differ", [False, True])
def test_call_sites_from_memory_give_the_stand_ins(attributes_differ: bool) -> None:
    """The IPSCCP stand-ins a plan adds (`planner.serial_argument_callers`) from the call
    sites in the live module: `op` is passed on unknown (the subgraphs' shares of the sites
    pass different constants), `k` as the agreed constant only where every site passes the
    same one with the same attributes."""
    text = PICK if attributes_differ else PICK.replace("noundef 5", "5")
    policy = planner.PlanPolicy(target_cost=400, serial_argument_facts=True)
    from_memory = split.plan_module(text, policy)
    callers = [sg.cut.callers for sg in from_memory.subgraphs if sg.cut is not None]
    assert any(callers), "no stand-in: the module no longer shows the case"
    # `k` is passed as the agreed constant only where every site passes the same one
    assert all(c.constant == (False, False, not attributes_differ) for cs in callers for c in cs)
    rendered = [ln for sg in from_memory.subgraphs for ln in sg.text.splitlines() if re.match(r"  %\d+ = call i64 @pick", ln)]
    assert rendered, "the printed cuts show no stand-in"
    assert all(ln.endswith("i32 %op, i32 %k)" if attributes_differ else "i32 %op, i32 5)") for ln in rendered)


def test_a_variable_marked_constant_reads_constant() -> None:
    """The plan marks a never-written local constant (GlobalOpt's fact unsplit); what it then
    asks of the variable says so, whether the entity came from the text or from memory (a
    stale answer dropped the constant copies that let subgraphs fold its loads)."""
    text, memory = _both(SHAPES)
    for mod in (text, memory):
        e = next(e for e in mod.entities if e.name == "scalar")
        assert not e.variable.constant
        planner._mark_constant(e)
        assert e.variable.constant


def _variable_facts(module_text: str, names_: set[str]) -> tuple[set[str], set[str], set[str]]:
    """(unescaped, written of those, opaque) read from the live module."""
    with engine.Module(module_text) as module:
        mod = facts.read(module)
        unescaped, written = planner.variable_uses(mod, names_, module)
        # (which escaped variables are also written is nobody's business: left out)
        return unescaped, written & unescaped, planner.opaque_variables(mod, module)


def _stat_module(extra: str) -> str:
    from tests.test_planner import _TABLE, _stat_user

    no_debug = "    #dbg_value(ptr %now, !1, !DIExpression(), !2)\n"
    return "\n".join([_TABLE, _stat_user("a"), _stat_user("b", extra)]).replace(no_debug, "")


#: (an extra line in `b`, then what stays unescaped, which of those is written, which is
#: opaque) of the variables `stat` and `seen`: the planner's text walk's answers, which the use
#: lists equalled on every row until the text walk was deleted (step 7 of
#: docs/bench/plan-facts/DESIGN.md)
VARIABLE_ROWS = [
    ("", {"seen", "stat"}, {"stat"}, set()),
    ("  store ptr %now, ptr @seen, align 8", {"seen"}, {"seen"}, set()),  # `stat`'s address stored
    ("  call void @use(ptr %mx)", {"seen"}, set(), set()),
    ("  %cmp = icmp eq ptr %now, null", {"seen"}, set(), set()),
    ("  %sel = select i1 true, ptr %now, ptr null", {"seen"}, set(), set()),
    ("  %vol = load volatile i64, ptr %now, align 8", {"seen", "stat"}, {"stat"}, set()),
    ("  %at = load atomic i64, ptr %now seq_cst, align 8", {"seen"}, set(), set()),  # an escape, as the text read it
    ("  store atomic i64 1, ptr %mx release, align 8", {"seen"}, set(), set()),
    ("  %idx = ptrtoint ptr %now to i64\n  %gep = getelementptr i8, ptr @stat, i64 %idx", {"seen"}, set(), set()),
    ("  %back = getelementptr i8, ptr %mx, i64 8\n  %w = load i64, ptr %back, align 8", {"seen", "stat"}, {"stat"}, set()),
    ("  store ptr getelementptr (i8, ptr @stat, i64 8), ptr @seen, align 8", {"seen"}, {"seen"}, set()),
    ("  %s = load ptr, ptr @seen, align 8\n  store ptr %s, ptr @seen, align 8", {"seen", "stat"}, {"seen", "stat"}, {"seen"}),
    ("  store ptr @use, ptr @seen, align 8", {"seen", "stat"}, {"seen", "stat"}, set()),
    ("  store volatile ptr null, ptr @seen, align 8", {"seen", "stat"}, {"seen", "stat"}, set()),
    ("  %cx = cmpxchg ptr @seen, ptr null, ptr null seq_cst seq_cst", {"stat"}, {"stat"}, set()),
]


@pytest.mark.parametrize("extra,unescaped,written,opaque", VARIABLE_ROWS, ids=[r[0].strip() or "plain" for r in VARIABLE_ROWS])
def test_variable_accesses_from_memory(extra: str, unescaped: set[str], written: set[str], opaque: set[str]) -> None:
    """`facts.variable_accesses` (use lists): which variables escape, which are written,
    which are opaque (loaded and stored run-time values only)."""
    assert _variable_facts(_stat_module(extra), {"stat", "seen"}) == (unescaped, written, opaque)


def test_variable_accesses_see_initialisers_and_aliases() -> None:
    base = _stat_module("")
    for extra, unescaped, written in (("@keep = internal global ptr @seen", {"stat"}, {"stat"}),
                                      ("@other = alias ptr, ptr @seen", {"stat"}, {"stat"}),
                                      ("@inner = internal global ptr getelementptr (i8, ptr @stat, i64 16)", {"seen"}, set())):
        assert _variable_facts(base + "\n" + extra + "\n", {"stat", "seen"}) == (unescaped, written, set()), extra


def test_stand_in_parameters_from_memory_as_from_the_text() -> None:
    """A stand-in caller takes every parameter of the callee: not of a varargs function, nor
    one passed `swifterror`, `swiftasync`, `inalloca` or `preallocated` (a second caller
    cannot pass those on)."""
    text = (
        "%T = type { i32 }\n"
        "define internal i32 @plain(i32 noundef %x, ptr returned %p) {\n  ret i32 %x\n}\n"
        "define internal i32 @none() {\n  ret i32 0\n}\n"
        "define internal i32 @va(i32 %x, ...) {\n  ret i32 %x\n}\n"
        "define internal void @err(ptr swifterror %e) {\n  ret void\n}\n"
        "define internal void @async(ptr swiftasync %e) {\n  ret void\n}\n"
        "define internal void @alloca(ptr inalloca(%T) %e) {\n  ret void\n}\n"
        "define internal void @pre(ptr preallocated(%T) %e) {\n  ret void\n}\n"
    )
    want = {"plain": 2, "none": 0, "va": None, "err": None, "async": None, "alloca": None, "pre": None}
    with engine.Module(text) as module:
        assert {n: facts.stand_in_parameters(module, n) for n in want} == want


METADATA = """
@a = internal global i32 1
@b = internal global [2 x i8] zeroinitializer
@c = internal global i32 2
@d = internal global i32 3
@e = internal global i32 4, !associated !12
@t = internal global i32 5
!named = !{!9, !10}
!9 = !{ptr @a}
!10 = !{!11}
!11 = !{ptr getelementptr (i8, ptr @b, i64 1)}
!12 = !{ptr @d}
declare void @llvm.foo(metadata)
define void @callee() {
  ret void
}
define i32 @f(ptr %p) {
  %x = load i32, ptr @c
  call void %p(), !callees !13
  call void @llvm.foo(metadata ptr @t)
  ret i32 %x
}
!13 = !{ptr @callee}
"""


def test_metadata_refs_from_memory_are_the_nodes_refs() -> None:
    """Named metadata, nodes inside nodes, a constant expression, a global's attachment and an
    instruction's; a `metadata ptr @t` argument is not a node."""
    with engine.Module(METADATA) as module:
        assert facts.metadata_refs(module) == {"a", "b", "d", "callee"}
