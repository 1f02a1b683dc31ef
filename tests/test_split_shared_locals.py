"""Locals several subgraphs call come in as imports of one body, not as renamed copies
(`planner.PlanPolicy.import_locals`, -O1 and up after the whole-module prefix).

A copy the inliner leaves out of line is a second body in the object (duktape: 90 KB of
copies, +16% `.text` against the serial build); an import's body is dropped and its calls
go to the owner's one definition. A local whose only call site lies outside its own
call-graph cycle is still copied: the serial inliner takes that last call, and an import
would take the bonus from its owner.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.backend import cut, planner, split
from compiler.backend.split_mode import SplitMode
from oracle import runner, symtab
from tests.conftest import build_object

#: `helper` (internal, `noinline`: left out of line at every level) is called from three
#: exported functions that a split cost of 1 puts in three subgraphs
SHARED_NOINLINE = """
@.fmt = private unnamed_addr constant [5 x i8] c"%ld\\0A\\00"
declare i32 @printf(ptr, ...)

define internal i64 @helper(i64 %x) noinline {
  %a = mul i64 %x, 7
  %b = xor i64 %a, 12345
  %c = add i64 %b, %x
  %d = mul i64 %c, %c
  %e = lshr i64 %d, 3
  %f = xor i64 %e, %a
  %g = mul i64 %f, 31
  %h = add i64 %g, %b
  %i = xor i64 %h, %c
  %j = mul i64 %i, %e
  %k = add i64 %j, 977
  %l = xor i64 %k, %g
  ret i64 %l
}

define i64 @f1(i64 %x) noinline {
  %r = call i64 @helper(i64 %x)
  %s = add i64 %r, 1
  ret i64 %s
}

define i64 @f2(i64 %x) noinline {
  %r = call i64 @helper(i64 %x)
  %s = add i64 %r, 2
  ret i64 %s
}

define i64 @f3(i64 %x) noinline {
  %r = call i64 @helper(i64 %x)
  %s = add i64 %r, 3
  ret i64 %s
}

define i32 @main(i32 %argc, ptr %argv) {
  %n = sext i32 %argc to i64
  %a = call i64 @f1(i64 %n)
  %b = call i64 @f2(i64 %a)
  %c = call i64 @f3(i64 %b)
  %p = call i32 (ptr, ...) @printf(ptr @.fmt, i64 %c)
  ret i32 0
}
"""


def _build(path: Path, split: str) -> bytes:
    return build_object(path, split, subgraph_cost=1)


def test_a_local_left_out_of_line_has_one_body_in_the_split_object(tmp_path: Path) -> None:
    src = tmp_path / "shared.ll"
    src.write_text(SHARED_NOINLINE)
    serial = _build(src, "none")
    for mode in ("subgraph", "two-level"):
        ours = _build(src, mode)
        bodies = [s for s in symtab.read_symbols(ours) if s.name.split(planner.COPY_SUFFIX)[0] == "helper"]
        assert [(s.name, s.binding) for s in bodies] == [("helper", "LOCAL")], (mode, bodies)
        diff = symtab.diff_symbols(symtab.read_symbols(serial), symtab.read_symbols(ours))
        assert diff.clean, diff.render("--split none", mode)
        want, got = runner.run_object(serial), runner.run_object(ours)
        assert want.outcome == "exit 0" and (got.stdout, got.outcome) == (want.stdout, want.outcome)


def _fn(name: str, body: int, calls: tuple[str, ...] = (), linkage: str = "") -> str:
    """A function of about `body` instructions calling `calls` in turn."""
    lines = [f"define {linkage}i64 @{name}(i64 %x) {{", "  %v0 = add i64 %x, 1"]
    lines += [f"  %v{i} = mul i64 %v{i - 1}, {2 * i + 1}" for i in range(1, body)]
    last = f"%v{body - 1}"
    for n, callee in enumerate(calls):
        lines.append(f"  %c{n} = call i64 @{callee}(i64 {last})")
        last = f"%c{n}"
    return "\n".join([*lines, f"  ret i64 {last}", "}"])


def _plan(text: str, import_locals: bool) -> planner.SplitPlan:
    policy = planner.PlanPolicy(target_cost=400, inline_level=2, import_locals=import_locals)
    return split.plan_module(text, policy)


def _how(p: planner.SplitPlan, name: str) -> list[str]:
    """How each subgraph holds `name`: "defines", "imports", "copies" or "declares"."""
    out = []
    for sg in p.subgraphs:
        text = sg.text
        if f"@{name}{planner.COPY_SUFFIX}" in text:
            out.append("copies")
        elif f"define available_externally hidden i64 @{name}(" in text:
            out.append("imports")
        elif f"define hidden i64 @{name}(" in text or f"define internal i64 @{name}(" in text:
            out.append("defines")
        elif f"@{name}(" in text:
            out.append("declares")
        else:
            out.append("")
    return out


#: `small` (two call sites, in `a` and `b`), `once` (one call site, in the small `wrap`,
#: which `a` and `b` both call), `rec` (one call site, in `loop`, which it calls back)
SIZE = 14
SHAPES = "\n".join([
    _fn("small", SIZE, linkage="internal "),
    _fn("once", SIZE, linkage="internal "),
    _fn("wrap", SIZE, ("once",), linkage="internal "),
    "define internal i64 @loop(i64 %x) {\n  %c = icmp ult i64 %x, 3\n  br i1 %c, label %done, label %more\n"
    "more:\n  %y = lshr i64 %x, 1\n  %r = call i64 @rec(i64 %y)\n  ret i64 %r\ndone:\n  ret i64 %x\n}",
    _fn("rec", SIZE, ("loop",), linkage="internal "),
    _fn("a", 400, ("small", "wrap", "loop")),
    _fn("b", 400, ("small", "wrap", "loop")),
])


def test_shared_locals_are_imported_and_last_calls_copied() -> None:
    p = _plan(SHAPES, import_locals=True)
    assert len(p.subgraphs) == 2
    assert sorted(_how(p, "small")) == ["defines", "imports"]
    assert sorted(_how(p, "wrap")) == ["defines", "imports"]
    # one call site, in `wrap`, outside its cycle: a copy beside the imported `wrap`
    assert sorted(_how(p, "once")) == ["copies", "defines"]
    # one call site, in `loop`, which it calls back: the serial inliner may take `loop` first
    assert sorted(_how(p, "rec")) == ["defines", "imports"]
    # the owner of an imported local exports it while compiling; the object has it local again
    assert {"small", "wrap", "rec"} <= set(p.local_names)


def test_without_the_policy_every_shared_local_is_copied() -> None:
    p = _plan(SHAPES, import_locals=False)
    for name in ("small", "wrap", "once", "rec"):
        assert sorted(_how(p, name)) == ["copies", "defines"], name


def _mixing(name: str, body: int, linkage: str = "") -> list[str]:
    """The head and `body` instructions of a function mixing its argument in at every step (no
    pass folds it shorter, as a chain of constant multiplies is: the prefix runs before the plan)."""
    lines = [f"define {linkage}i64 @{name}(i64 %x) {{", "  %v0 = add i64 %x, 1"]
    for i in range(1, body):
        op = "mul" if i % 2 else "xor"
        lines.append(f"  %v{i} = {op} i64 %v{i - 1}, " + (f"{2 * i + 1}" if i % 2 else "%x"))
    return lines


#: `deep` (internal, large: inlined serially by the last-call bonus alone) has one call site, in
#: `entry` (exported, small), which only `b` calls; `deep` calls `b` back (a cycle across the
#: subgraphs: duktape's call path). `deep` and `entry` are placed beside `a`, `b` in a subgraph
#: of its own. The recursion ends: each round halves the argument.
CYCLE = "\n".join([
    *_mixing("deep", 300, "internal "),
    "  %c = icmp ult i64 %x, 3\n  br i1 %c, label %done, label %more\nmore:\n  %h = lshr i64 %x, 1",
    "  %l = call i64 @b(i64 %h)\n  ret i64 %l\ndone:\n  ret i64 %v299\n}",
    "define i64 @entry(i64 %x) {\n  %r = call i64 @deep(i64 %x)\n  %s = add i64 %r, 1\n  ret i64 %s\n}",
    *_mixing("a", 400), "  ret i64 %v399\n}",
    *_mixing("b", 400),
    "  %h = lshr i64 %x, 1\n  %r = call i64 @entry(i64 %h)\n  %s = add i64 %r, %v399\n  ret i64 %s\n}",
])
CYCLE_PLACES = {"deep": 0, "entry": 0, "a": 0, "b": 1, "main": 0}


def _placed_plan(text: str, import_locals: bool = True) -> planner.SplitPlan:
    policy = planner.PlanPolicy(target_cost=400, inline_level=2, import_locals=import_locals, assignment=CYCLE_PLACES)
    return split.plan_module(text, policy)


def test_a_local_called_only_in_its_owner_stays_local_there_and_the_others_name_a_clone() -> None:
    """`b`'s subgraph imports `entry` and `deep` (in one cycle, so not copied: `_last_call_inlined`).
    The owner keeps `deep` internal, with the serial inliner's last-call bonus; `b`'s subgraph
    names `deep`'s clone, which one more subgraph defines, exported hidden while compiling
    (before, the owner exported `deep` itself, and never inlined it: duktape's
    `duk__create_arguments_object`, 2,491 bytes beside its caller)."""
    p = _placed_plan(CYCLE)
    clone = f"deep{planner.COPY_SUFFIX}2"
    owner, other, clones = (sg.text for sg in p.subgraphs)
    assert "define internal i64 @deep(" in owner and clone not in owner
    assert f"define available_externally hidden i64 @{clone}(" in other and "@deep(" not in other
    assert f"define hidden i64 @{clone}(" in clones and p.subgraphs[2].members == [clone]
    assert clone in p.local_names  # local in the object, where anything still calls it
    printed = p.describe()  # `--print-split-plan`
    assert f"  deep: available_externally hidden (import of the clone {clone})" in printed
    assert f"  {clone}: external hidden (clone of deep, exported while compiling) -> internal in the object" in printed
    # without the prefix (-O3) there is no clone: `deep` is copied, as every shared local is
    assert _how(_placed_plan(CYCLE, import_locals=False), "deep") == ["defines", "copies"]


def test_no_clone_where_the_callers_body_is_copied_first() -> None:
    """`rec`'s one caller `loop` is small and called from `a` and `b`: the serial inliner
    copies `loop` into both before it comes to `rec`, whose call is then no longer the last
    one (mujs's `jsY_lexx` under `jsY_lex`, Lua's `moveresults` under `luaD_poscall`). The
    owner exports `rec` and the other subgraph imports it, as without clones."""
    p = _plan(SHAPES, import_locals=True)
    assert len(p.subgraphs) == 2
    assert sorted(_how(p, "rec")) == ["defines", "imports"]
    assert not any(planner.COPY_SUFFIX in m for sg in p.subgraphs for m in sg.members if m.startswith("rec"))


#: `next` and `peek` (exported, small: inlined serially into `a` and `b`) both call `lex`
#: (internal, far too large to copy, two call sites: never inlined), like Lua's `luaX_next`
#: and `luaX_lookahead` around its lexer's `llex`
LEXER = "\n".join([
    _fn("lex", 200, linkage="internal "),
    _fn("next", SIZE, ("lex",)),
    _fn("peek", SIZE, ("lex",)),
    _fn("a", 400, ("next", "next")),
    _fn("b", 400, ("next", "peek")),
])


def test_an_import_names_a_large_local_function_as_a_declaration() -> None:
    """The serial inliner takes `next` into both callers. Split, the subgraphs of `a` and `b`
    import it, and `lex` stays a declaration there, exported hidden by its owner while compiling
    (after the prefix: `import_locals`); before, the import was refused and `next` stayed a call."""

    def heads(p: planner.SplitPlan) -> list[set[str]]:
        return [{line.split(" {")[0] for line in sg.text.splitlines() if line.startswith(("define ", "declare "))}
                for sg in p.subgraphs]

    ours = heads(_plan(LEXER, import_locals=True))
    assert {"define hidden i64 @lex(i64 %x)", "define i64 @next(i64 %x)"} in [h & {
        "define hidden i64 @lex(i64 %x)", "define i64 @next(i64 %x)"} for h in ours]
    callers = [h for h in ours if "define i64 @a(i64 %x)" in h or "define i64 @b(i64 %x)" in h]
    assert len(callers) == 2
    for h in callers:
        assert {"define available_externally i64 @next(i64 %x)", "declare hidden i64 @lex(i64)"} <= h, h
    assert "lex" in _plan(LEXER, import_locals=True).local_names
    # without the prefix's facts a local stays where it is, and the import is refused
    for h in heads(_plan(LEXER, import_locals=False)):
        assert "define available_externally i64 @next(i64 %x)" not in h and "declare hidden i64 @lex(i64)" not in h


#: a `main` calling `a`, then `b` with its result (exit status: the low byte)
MAIN_AB = ("define i32 @main(i32 %argc, ptr %argv) {\n  %n = sext i32 %argc to i64\n  %r = call i64 @a(i64 %n)\n"
           "  %s = call i64 @b(i64 %r)\n  %t = trunc i64 %s to i32\n  ret i32 %t\n}")


def _assert_split_agrees_with_serial(src: Path) -> None:
    """Built -O2 (with the prefix) in subgraph and two-level mode at split cost 400: the object's
    symbols are `--split none`'s and the program behaves alike."""
    serial = build_object(src, "none")
    for mode in ("subgraph", "two-level"):
        ours = build_object(src, mode, subgraph_cost=400)
        diff = symtab.diff_symbols(symtab.read_symbols(serial), symtab.read_symbols(ours))
        assert diff.clean, diff.render("--split none", mode)
        want, got = runner.run_object(serial), runner.run_object(ours)
        assert (got.stdout, got.outcome) == (want.stdout, want.outcome)


def test_the_declared_local_is_one_local_body_in_the_object(tmp_path: Path) -> None:
    """Built (-O2, with the prefix), the declared `lex` is exported only while compiling: the
    object's symbols are the serial object's (`lex` local, once) and the program behaves alike."""
    src = tmp_path / "lexer.ll"
    src.write_text(LEXER + "\n" + MAIN_AB + "\n")
    _assert_split_agrees_with_serial(src)


def test_a_local_copied_along_may_name_a_declared_local_function() -> None:
    """`next` calls the small `noinline` local `step` (not in the inline closure: it comes along
    beside the import), which calls the large local `lex`: `lex` is declared (before, the copy naming a
    missing local refused the whole import)."""
    module = "\n".join([
        _fn("lex", 200, linkage="internal "),
        "define internal i64 @step(i64 %x) noinline {\n  %c = call i64 @lex(i64 %x)\n  ret i64 %c\n}",
        _fn("next", SIZE, ("step",)),
        _fn("peek", SIZE, ("lex",)),
        _fn("a", 400, ("next", "next")),
        _fn("b", 400, ("next", "peek")),
    ])
    callers = [sg.text for sg in _plan(module, import_locals=True).subgraphs
               if "define i64 @a(" in sg.text or "define i64 @b(" in sg.text]
    assert len(callers) == 2
    for text in callers:
        assert "define available_externally i64 @next(" in text, text
        assert "declare hidden i64 @lex(i64)" in text
        # `noinline`: imported, not copied (a copy would stay out of line, a second body)
        assert "define available_externally hidden i64 @step(" in text, text


def test_the_cloned_local_builds_like_the_serial_one(tmp_path: Path) -> None:
    """Built with `CYCLE`'s placement, the plan holds `deep`'s clone; the object's symbols are
    the serial object's and the program behaves alike, in subgraph and two-level mode."""
    from compiler import driver
    from compiler.hooks import BuildHooks

    src = tmp_path / "cycle.ll"
    src.write_text(CYCLE + "\n" + MAIN_AB + "\n")
    serial = build_object(src, "none")
    want = runner.run_object(serial)
    for mode in ("subgraph", "two-level"):
        built = driver.build(str(src), driver.BuildOptions(
            opt_level=2, split=mode, jobs=2, subgraph_cost=400, print_split_plan=True,
            hooks=BuildHooks(plan_assignment=CYCLE_PLACES)))
        printed = next(n for n in built.times.notes if "\nsubgraph 0 (cost " in n)
        assert f"deep{planner.COPY_SUFFIX}" in printed, printed
        assert isinstance(built.output, bytes)
        diff = symtab.diff_symbols(symtab.read_symbols(serial), symtab.read_symbols(built.output))
        assert diff.clean, diff.render("--split none", mode)
        got = runner.run_object(built.output)
        assert (got.stdout, got.outcome) == (want.stdout, want.outcome)


#: `bump` (exported, small: inlined serially into `a` and `b`) updates the local array `ring`,
#: which no rule could copy: like gawk's `gawk_srandom` and its generator state
RING = "\n".join([
    "@ring = internal global [4 x i64] zeroinitializer",
    "define i64 @bump(i64 %x) {\n  %i = and i64 %x, 3\n  %p = getelementptr [4 x i64], ptr @ring, i64 0, i64 %i\n"
    "  %v = load i64, ptr %p\n  %w = add i64 %v, %x\n  store i64 %w, ptr %p\n  ret i64 %w\n}",
    _fn("a", 400, ("bump", "bump")),
    _fn("b", 400, ("bump",)),
    MAIN_AB,
])


def test_an_import_names_a_local_variable_as_a_declaration(tmp_path: Path) -> None:
    """After the prefix `bump` is imported beside `a` and `b` and `ring` declared there (its owner
    exports it while compiling); without the prefix's facts the import is refused. Built, the
    object's symbols are the serial object's (`ring` local) and the program behaves alike."""
    importers = [sg.text for sg in _plan(RING, import_locals=True).subgraphs if "define i64 @bump(" not in sg.text]
    assert importers
    for text in importers:
        assert "define available_externally i64 @bump(" in text, text
        assert "@ring = external hidden global [4 x i64]" in text, text
    for sg in _plan(RING, import_locals=False).subgraphs:
        assert "define available_externally i64 @bump(" not in sg.text
    src = tmp_path / "ring.ll"
    src.write_text(RING + "\n")
    _assert_split_agrees_with_serial(src)


def _copies_and_clones_defined_once(p: planner.SplitPlan) -> int:
    """Every renamed copy or clone `NAME.ember.K` is defined by subgraph K alone (the link and
    `dead_definitions` take a local's name for one definition); how many there are."""
    where: dict[str, list[int]] = {}
    for sg in p.subgraphs:
        assert sg.cut is not None
        for name, (how, shown) in sg.cut.keep.items():
            if how in (cut.AS_IS, cut.EXPORT) and planner.COPY_SUFFIX in (shown or name):
                where.setdefault(shown or name, []).append(sg.index)
    for name, subgraphs in where.items():
        assert subgraphs == [int(name.rsplit(".", 1)[1])], (name, subgraphs)
    return len(where)


@pytest.mark.parametrize("name", ["duktape", "lua", "mujs"])
def test_copies_and_clones_are_defined_once_in_the_corpus_plans(name: str) -> None:
    """The default -O2 plan (after the prefix) of corpus programs with clones: each copy and
    clone has one definition, in the subgraph its name says."""
    from fuzz import corpus
    from tests import plan_fingerprint as pf

    path = corpus.cached_module(corpus.BY_NAME[name])
    if path is None:
        pytest.skip("the corpus is not built (ci/corpus.sh builds it)")
    [(_config, p)] = pf.plans_for(path, [pf.Config(2, SplitMode.SUBGRAPH, prefix=True)], name)
    assert _copies_and_clones_defined_once(p) > 0
    assert any(sg.members and all(planner.COPY_SUFFIX in m for m in sg.members) for sg in p.subgraphs)  # the clones'


def test_the_cycle_plans_define_each_clone_once() -> None:
    assert _copies_and_clones_defined_once(_placed_plan(CYCLE)) == 1
