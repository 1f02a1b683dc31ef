"""The serial pipeline cut in two (issue 36): its whole-module prefix once before the split,
the rest per subgraph (`llvm_stage.split_pipeline`, `BuildOptions.split_prefix`).

The cut strings come from the tools wheel's `opt -print-pipeline-passes`; run one after the
other on one module they must be `default<O<n>>` byte for byte, or a split build would start
its subgraphs from a state the serial build never has (this guards an LLVM upgrade)."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import driver
from compiler.backend import engine, irmodel, llvm_stage
from fuzz import corpus, regressions
from oracle import symtab
from tests.conftest import DATA

#: small modules of every kind (the test data, the fuzz reproducers), and a real program if built
MODULES = sorted(DATA.glob("*.ll")) + list(regressions.REPRODUCERS[:12])
#: a thread-local whose only writer dies after whole-module optimisation (rust-regex's `writev`)
WRITER = DATA / "split_prefix" / "dead_writer_makes_thread_local_constant.ll"
#: std's output capture (rust-markdown): the bug of the build without the prefix
CAPTURE = regressions.HERE / "ipsccp_dead_branch_across_subgraphs.ll"


def _object(data: bytes, level: int, passes: list[str]) -> bytes:
    target = llvm_stage.native_target(None, level)
    with engine.Module(data, "<module>") as module:
        module.prepare(target, force_triple=False)
        for pipeline in passes:
            module.run_passes(pipeline, target)
        return module.emit(target, "obj")


def _same_as_default(data: bytes, level: int) -> None:
    cut = llvm_stage.split_pipeline(level, llvm_stage.native_target(None, level))
    assert cut is not None
    assert _object(data, level, [cut.prefix, cut.rest]) == _object(data, level, [f"default<O{level}>"])


def test_the_pipeline_is_cut_before_the_inliner() -> None:
    target = llvm_stage.native_target(None, 2)
    cut = llvm_stage.split_pipeline(2, target)
    assert cut is not None
    prefix = irmodel.split_top_level(cut.prefix)
    assert cut.rest.startswith("always-inline,") and "ipsccp" in prefix and "globalopt" in prefix
    assert "inline" not in cut.prefix.replace("always-inline", "")
    # -O0 has nothing to cut; -O3's inliner threshold is not in the printed pipeline
    assert llvm_stage.split_pipeline(0, target) is None and llvm_stage.split_pipeline(3, target) is None
    assert irmodel.split_top_level("a,function<x>(b,c<d;e>),f") == ["a", "function<x>(b,c<d;e>)", "f"]


@pytest.mark.parametrize("level", llvm_stage.CUT_LEVELS)
@pytest.mark.parametrize("src", MODULES, ids=lambda p: p.stem)
def test_prefix_then_rest_is_the_default_pipeline(src: Path, level: int) -> None:
    _same_as_default(src.read_bytes(), level)


@pytest.mark.parametrize("level", llvm_stage.CUT_LEVELS)
def test_prefix_then_rest_is_the_default_pipeline_on_a_program(level: int) -> None:
    program = corpus.BY_NAME["zlib"]
    reason = corpus.missing(program)
    if reason:
        pytest.skip(reason)
    _same_as_default(corpus.module_path(program).read_bytes(), level)


def _undefined(src: Path, level: int, split: str = "subgraph", split_prefix: bool = False) -> set[str]:
    options = driver.BuildOptions(opt_level=level, split=split, jobs=1, subgraph_cost=1, split_prefix=split_prefix)
    obj = driver.build(str(src), options).output
    assert isinstance(obj, bytes)
    return {s.name for s in symtab.read_symbols(obj) if not s.defined and s.name}


@pytest.mark.parametrize("level", llvm_stage.CUT_LEVELS)
def test_the_prefix_deletes_what_only_whole_module_optimisation_proves_dead(level: int) -> None:
    """@run, the only writer of a thread-local, dies only after the whole module's IPSCCP and
    GlobalOpt; in a subgraph of its own it kept `writev` alive in another one (rust-regex)."""
    want = _undefined(WRITER, level, split="none")
    assert "writev" not in want
    for mode in ("subgraph", "two-level"):
        assert _undefined(WRITER, level, mode, split_prefix=True) == want
    assert "writev" in _undefined(WRITER, level)  # `--split-prefix off`


@pytest.mark.parametrize("level", llvm_stage.CUT_LEVELS)
def test_the_prefix_deletes_the_branches_whole_module_ipsccp_proves_dead(level: int) -> None:
    """std's output capture (`ipsccp-dead-branch-across-subgraphs`, open until the prefix)."""
    want = _undefined(CAPTURE, level, split="none")
    assert _undefined(CAPTURE, level, split_prefix=True) == want
    assert _undefined(CAPTURE, level) - want  # `--split-prefix off`


#: the triage benchmark's own reproducers (`python -m bench.triage`, the split back end as it was
#: planted as `skip-whole-module-prefix`): each file's first symbol the build without the prefix adds
TRIAGE_REPRODUCERS = {"rust_regex_writev.ll": "writev", "rust_markdown_output_capture.ll": "__cxa_thread_atexit_impl"}


@pytest.mark.parametrize("name", sorted(TRIAGE_REPRODUCERS))
def test_the_triages_reproducers_differ_only_without_the_prefix(name: str) -> None:
    """`ember reduce`'s 25-33-line results from the Rust modules: the default build agrees with the
    serial one; without the prefix (the benchmark's planted fault) the symbol is back."""
    src = DATA.parent.parent / "fuzz" / "reduce" / "reproducers" / name
    want = _undefined(src, 2, split="none")
    assert TRIAGE_REPRODUCERS[name] not in want
    assert _undefined(src, 2, split_prefix=True) == want
    assert TRIAGE_REPRODUCERS[name] in _undefined(src, 2) - want  # `--split-prefix off`
