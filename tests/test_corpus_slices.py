"""The corpus fuzz strategy: slices are valid, self-contained modules holding what was drawn;
a `-g` plan's slice carries clang's debug info, and the debug-info oracle checks it."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from compiler.backend import irmodel, llvm_stage
from fuzz import faults, properties
from fuzz.campaign import configured
from fuzz.properties.model import BuildConfig, CheckPlan
from fuzz.strategies import FuzzCase, corpus_cases, known_features
from fuzz.strategies import corpus_slices as cs


def _unavailable() -> str | None:
    try:
        cs.available()
    except cs.CorpusUnavailable as exc:
        return str(exc)
    return None


needs_corpus = pytest.mark.skipif(_unavailable() is not None, reason=str(_unavailable()))


def _names() -> tuple[str, ...]:
    return cs.available()


def _c_names() -> tuple[str, ...]:
    """The C programs: the drawn-slice tests below keep to them (a Rust module takes 10-20 s to
    load and slice; its own tests are at the end)."""
    return tuple(n for n in cs.available() if not n.startswith("rust-"))


@needs_corpus
def test_slice_defines_its_anchors_and_every_local_it_names() -> None:
    name = _names()[0]
    anchors = list(cs.load(name).anchors[:3])
    text = cs.render_slice(name, cs.slice_members(name, anchors))
    llvm_stage.parse_ir(text, f"<{name} slice>")  # parses and verifies: nothing undefined
    mod = irmodel.parse_module(text)
    defined = {e.name for e in mod.entities if e.is_value and e.is_definition}
    assert set(anchors) <= defined
    for e in mod.entities:
        for r in e.refs:
            target = mod.values.get(r)
            assert target is not None, f"{e.name} names {r}, which the slice neither defines nor declares"
            assert not (target.is_local and not target.is_definition)


@needs_corpus
def test_slice_stops_growing_past_its_limit() -> None:
    name = _names()[0]
    anchors = list(cs.load(name).anchors)
    small = cs.slice_members(name, anchors, max_lines=1)
    assert 0 < len(small) < len(cs.slice_members(name, anchors, max_lines=10**9))


@needs_corpus
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
@given(corpus_cases(max_anchors=3, programs=_c_names() if _unavailable() is None else None))
def test_drawn_slices_parse(case) -> None:  # type: ignore[no-untyped-def]
    assert case.origin == "corpus" and not case.runnable
    llvm_stage.parse_ir(case.module, "<slice>")


@needs_corpus
def test_sharers_name_a_local_the_anchor_names() -> None:
    """`shared-local` slices: each sharer of an anchor names one of the anchor's locals."""
    name = _names()[0]
    mod = cs._slicer(name).mod
    table = cs.sharers(name)
    assert any(table.values()), f"no two anchors of {name} share a local"
    for anchor, others in list(table.items())[:50]:
        mine = {r for r in mod.values[anchor].refs if mod.values[r].is_local}
        for other in others:
            assert other != anchor and mine & {r for r in mod.values[other].refs if r in mod.values}


@needs_corpus
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(corpus_cases(max_anchors=3, programs=_c_names() if _unavailable() is None else None))
def test_shared_local_slices_define_a_local_two_anchors_name(case) -> None:  # type: ignore[no-untyped-def]
    assume("shared-local" in case.features)  # Unsatisfiable if no slice of 20 shares
    mod = irmodel.parse_module(case.module)
    anchors = [e for e in mod.entities if e.is_value and e.is_definition and not e.is_local and e.kind == "function"]
    named = [{r for r in a.refs if r in mod.values and mod.values[r].is_local} for a in anchors]
    assert any(x & y for i, x in enumerate(named) for y in named[i + 1:]), case.module[:400]


def test_missing_corpus_is_one_line_before_any_work(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Without the corpus (no C sources, and no cargo for the Rust programs), `fuzz --strategy
    corpus` and `bench --corpus` say so in one line, exit 1."""
    import os
    import subprocess
    import sys

    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if "cargo" not in p)
    env = {**os.environ, "EMBER_CORPUS_CACHE": str(tmp_path / "none"), "PATH": path, "CARGO_HOME": str(tmp_path / "no-cargo")}
    for args in (["fuzz", "--strategy", "corpus", "--examples", "2", "--findings", str(tmp_path / "f")],
                 ["bench", "--corpus", "lua"]):
        r = subprocess.run([sys.executable, "-m", "compiler.cli", *args], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=120)
        errors = [ln for ln in r.stderr.splitlines() if "error" in ln]
        assert r.returncode == 1 and len(errors) == 1 and "fetch_corpus.sh" in errors[0], r.stderr
        assert "Traceback" not in r.stderr


#: a cJSON_Utils.c function that calls cJSON.c's `cJSON_IsArray`, which -O2 inlines into it:
#: the line table switches file inside the function, as it does wherever a header's or another
#: file's function is inlined
CROSS_FILE_CALL = ("cJSONUtils_FindPointerFromObjectTo", "cJSON_IsArray")
_DEFINE = re.compile(r"^define [^@]*(@\"[^\"]*\"|@[-\w$.]+)\(.*!dbg (![0-9]+) \{$", re.M)


def _debug_info_problems(module: str) -> list[str]:
    """What a `-g` slice lacks: its units, their list and flags, a subprogram per definition."""
    problems = [what for what in ("!llvm.dbg.cu = ", '!"Debug Info Version"', "distinct !DICompileUnit(") if what not in module]
    definitions = len(re.findall(r"^define ", module, re.M))
    attached = _DEFINE.findall(module)
    if len(attached) != definitions:
        problems.append(f"{definitions - len(attached)} of {definitions} definitions have no !dbg")
    for name, node in attached:
        if not re.search(rf"^{node} = distinct !DISubprogram\(.*\bunit: ", module, re.M):
            problems.append(f"{name}'s {node} is no subprogram of a unit in the slice")
    if len(set(re.findall(r'!DIFile\(filename: "([^"]*)"', module))) < 2:
        problems.append("one file only")
    return problems


@needs_corpus
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(corpus_cases(max_anchors=3, programs=_c_names() if _unavailable() is None else None), st.data())
def test_a_g_plan_builds_the_same_slice_of_the_g_module(case, data) -> None:  # type: ignore[no-untyped-def]
    """The swarm's `-g` plans (`fuzz.campaign.configured`) build a slice with clang's debug info:
    the same definitions, each with its subprogram, the units, `!llvm.dbg.cu`, module flags,
    several files; it verifies (LLVM's verifier checks debug info too)."""
    assert configured(case, CheckPlan(debug=False), data) is case and "!llvm.dbg.cu" not in case.module
    g = configured(case, CheckPlan(debug=True), data)
    assert g.origin == "corpus" and "cfg-g" in g.features and set(g.features) <= set(known_features("corpus"))
    llvm_stage.parse_ir(g.module, "<-g slice>")
    assert not _debug_info_problems(g.module), _debug_info_problems(g.module)

    def defined(text: str) -> set[str]:
        return {e.name for e in irmodel.parse_module(text).entities if e.is_value and e.is_definition}

    assert defined(g.module) == defined(case.module)


@pytest.mark.skipif("cjson" not in ((_unavailable() is None and _names()) or ()), reason="needs cJSON in the corpus")
def test_debug_info_oracle_on_a_g_slice_catches_a_line_table_fault() -> None:
    """The split build's debug-info oracle on a `-g` slice of cJSON: clean without a fault; the
    line-table mistake that only shows after a file switch (`shift-rows-after-file-switch`) is
    caught in the function that inlines another file's function."""
    text = cs.debug_slice("cjson", CROSS_FILE_CALL)
    assert not _debug_info_problems(text), _debug_info_problems(text)
    assert "DILexicalBlock(" in text and len(set(re.findall(r"distinct !DICompileUnit\(", text))) >= 1
    assert "dbg-headers" in cs.debug_features(text)  # functions of two files
    case = FuzzCase(text, None, "corpus")
    plan = CheckPlan(2, 1, (BuildConfig("subgraph", 1, 2, 1, debug=True),), opt_check=False, debug=True)
    clean = properties.check(case, plan)
    assert clean.ok, clean.failures
    broken = properties.check(case, plan, faults=frozenset({faults.SHIFT_ROWS_AFTER_FILE_SWITCH}))
    assert [f.classification for f in broken.failures] == ["debug-info"], broken.failures
    assert f"{CROSS_FILE_CALL[0]}+0x" in broken.failures[0].summary and "cJSON.c:" in broken.failures[0].summary


RUST = "rust-markdown"
needs_rust = pytest.mark.skipif(RUST not in ((_unavailable() is None and _names()) or ()), reason=f"needs {RUST} in the corpus")


@needs_rust
def test_a_rust_slice_exports_its_local_anchors() -> None:
    """A Rust fat-LTO module exports only `main`: its anchors are its own functions whose slice
    fits, and a slice exports them hidden, or the serial build would delete them unused."""
    module = cs.load(RUST)
    mod = cs._slicer(RUST).mod
    assert module.exported_anchors and len(module.anchors) > 100
    assert all(mod.values[a].is_local for a in module.anchors[:50])
    anchors = list(module.anchors[:3])
    members = cs.slice_members(RUST, anchors)
    assert len(members) > len(anchors)
    text = cs.render_slice(RUST, members, anchors=tuple(anchors))
    llvm_stage.parse_ir(text, f"<{RUST} slice>")
    sliced = irmodel.parse_module(text)
    for a in anchors:
        e = sliced.values[a]
        assert e.is_definition and not e.is_local and "hidden" in e.text.split("@", 1)[0], e.text[:200]
    # the other members stay as the module has them
    assert all(sliced.values[m].is_local for m in members if m not in anchors and mod.values[m].is_local)


@needs_rust
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), database=None, derandomize=True)
@given(corpus_cases(max_anchors=4, programs=(RUST,)))
def test_rust_slices_split_equals_serial(case) -> None:  # type: ignore[no-untyped-def]
    """rustc's IR shapes (invokes and landing pads everywhere, `noundef`/`range` attributes,
    v0-mangled names, std's generics) through the campaign's check: split (subgraph and
    two-level, cost 1) against serial at -O2, every symbol compared."""
    assert case.origin == "corpus" and not case.runnable
    plan = CheckPlan(2, 1, (BuildConfig("subgraph", 1, 2, 1), BuildConfig("two-level", 2, 2, 1)), opt_check=False)
    result = properties.check(case, plan)
    assert result.ok, result.failures


@needs_rust
def test_a_rust_g_slice_keeps_the_anchors_the_g_module_has() -> None:
    """The `-g` twin of a Rust slice: std's functions (prebuilt) have the same names in the `-g`
    build and come with their debug info; the program's own crates' do not (their hash changes
    with `-g`), and a slice of those alone stays the slice drawn, without debug info."""
    g_values = cs._slicer(RUST, True).mod.values
    anchors = cs.load(RUST).anchors
    shared = [a for a in anchors if a in g_values and g_values[a].is_definition]
    own = [a for a in anchors if a not in g_values]
    assert shared and own, (len(shared), len(own))
    text = cs.debug_slice(RUST, (shared[0], own[0]))
    llvm_stage.parse_ir(text, "<-g rust slice>")
    assert "distinct !DICompileUnit(" in text and "distinct !DISubprogram(" in text
    sliced = irmodel.parse_module(text)
    assert sliced.values[shared[0]].is_definition and not sliced.values[shared[0]].is_local
    assert own[0] not in sliced.values
    plain = cs.debug_slice(RUST, (own[0],))
    assert "!DICompileUnit(" not in plain
    assert plain == cs.render_slice(RUST, cs.slice_members(RUST, [own[0]]), anchors=(own[0],))
