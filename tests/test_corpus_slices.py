"""The corpus fuzz strategy: slices are valid, self-contained modules holding what was drawn."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings

from compiler.backend import irmodel, llvm_stage
from fuzz.strategies import corpus_cases
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
@given(corpus_cases(max_anchors=3))
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
@given(corpus_cases(max_anchors=3))
def test_shared_local_slices_define_a_local_two_anchors_name(case) -> None:  # type: ignore[no-untyped-def]
    assume("shared-local" in case.features)  # Unsatisfiable if no slice of 20 shares
    mod = irmodel.parse_module(case.module)
    anchors = [e for e in mod.entities if e.is_value and e.is_definition and not e.is_local and e.kind == "function"]
    named = [{r for r in a.refs if r in mod.values and mod.values[r].is_local} for a in anchors]
    assert any(x & y for i, x in enumerate(named) for y in named[i + 1:]), case.module[:400]


def test_missing_corpus_is_one_line_before_any_work(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Without the corpus, `fuzz --strategy corpus` and `bench --corpus` say so in one line, exit 1."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "EMBER_CORPUS_CACHE": str(tmp_path / "none")}
    for args in (["fuzz", "--strategy", "corpus", "--examples", "2", "--findings", str(tmp_path / "f")],
                 ["bench", "--corpus", "lua"]):
        r = subprocess.run([sys.executable, "-m", "compiler.cli", *args], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=120)
        errors = [ln for ln in r.stderr.splitlines() if "error" in ln]
        assert r.returncode == 1 and len(errors) == 1 and "fetch_corpus.sh" in errors[0], r.stderr
        assert "Traceback" not in r.stderr
