"""The parallel back end keeps contract 1 and 2: same symbols, same behaviour, same bytes for any -j."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler import driver
from compiler.backend import engine, irmodel, planner, split
from compiler.diagnostics import EmberError
from compiler.hooks import BuildHooks
from fuzz import faults
from fuzz.genmodule import ModuleShape, generate
from oracle import runner, symtab
from tests import plan_fingerprint
from tests.conftest import DATA

MODES = ["subgraph", "function", "two-level"]


def _build(path: Path, split_mode: str, jobs: int = 2, cost: int | None = None, level: int = 2, **kw) -> bytes:
    options = driver.BuildOptions(opt_level=level, split=split_mode, jobs=jobs, subgraph_cost=cost, **kw)
    out = driver.build(str(path), options).output
    assert isinstance(out, bytes)
    return out


def _check_equivalent(reference: bytes, candidate: bytes) -> None:
    diff = symtab.diff_symbols(symtab.read_symbols(reference), symtab.read_symbols(candidate))
    assert diff.clean, diff.render("--split none", "split")
    want, got = runner.run_object(reference), runner.run_object(candidate)
    assert (got.stdout, got.outcome) == (want.stdout, want.outcome)
    assert want.outcome == "exit 0" and want.stdout


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["linkages", "split_semantics"])
def test_checklist_modules(name: str, mode: str) -> None:
    src = DATA / f"{name}.ll"
    reference = _build(src, "none")
    # cost 1 puts every anchor in its own subgraph: every cross-subgraph rule is exercised
    _check_equivalent(reference, _build(src, mode, cost=1))


def test_split_semantics_output_is_the_expected_one() -> None:
    """Hand-derived: ctor ran once, the address-taken function kept one identity, blockaddress branches."""
    result = runner.run_object(_build(DATA / "split_semantics.ll", "two-level", cost=1))
    assert result.stdout.startswith(b"ctor=1 same=1 ba=112 ")


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("level", [0, 2])
def test_generated_modules_all_modes(tmp_path: Path, seed: int, level: int) -> None:
    src = tmp_path / f"gen{seed}.ll"
    src.write_text(generate(seed, ModuleShape(functions=120)))
    reference = _build(src, "none", level=level)
    for mode in MODES:
        _check_equivalent(reference, _build(src, mode, cost=150, level=level))


def test_bytes_identical_for_every_job_count(tmp_path: Path) -> None:
    src = tmp_path / "gen.ll"
    src.write_text(generate(7, ModuleShape(functions=150)))
    outputs = {jobs: _build(src, "two-level", jobs=jobs, cost=200) for jobs in (1, 2, 8)}
    assert outputs[1] == outputs[2] == outputs[8]


def test_internal_mutable_global_has_one_definition(tmp_path: Path) -> None:
    src = tmp_path / "gen.ll"
    src.write_text(generate(4, ModuleShape(functions=150, globals=3)))
    syms = symtab.read_symbols(_build(src, "two-level", cost=100))
    for g in ("g0", "g1", "g2"):
        defs = [s for s in syms if s.name == g]
        assert len(defs) == 1 and defs[0].binding == "LOCAL", defs


def test_specialised_copies_stay_separate() -> None:
    """`special` reached from two subgraphs: each keeps its own local copy, none is global or weak."""
    syms = symtab.read_symbols(_build(DATA / "split_semantics.ll", "two-level", cost=1, level=0))
    copies = [s for s in syms if s.name.split(planner.COPY_SUFFIX)[0] == "special"]
    assert len(copies) == 2
    assert all(s.binding == "LOCAL" for s in copies)


def test_no_formerly_local_symbol_leaks_on_a_big_module(tmp_path: Path) -> None:
    src = tmp_path / "big.ll"
    src.write_text(generate(11, ModuleShape(functions=600)))
    reference = symtab.read_symbols(_build(src, "none"))
    ours = symtab.read_symbols(_build(src, "two-level"))
    diff = symtab.diff_symbols(reference, ours)
    assert diff.clean and not diff.leaked_locals
    locals_before = {s.name for s in reference if s.is_local}
    assert locals_before, "the module must have local symbols for this test to mean anything"
    assert not [s for s in ours if s.name in locals_before and not s.is_local]


def test_plan_does_not_depend_on_jobs(tmp_path: Path) -> None:
    text = generate(5, ModuleShape(functions=200))
    assert split.plan_module(text).describe() == split.plan_module(text).describe()
    # the plan takes no job count at all: -j only decides how many workers run it
    assert "jobs" not in planner.plan.__code__.co_varnames


def test_crashing_worker_is_reported_and_piece_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBER_CRASH_DIR", str(tmp_path / "crashes"))
    src = tmp_path / "crash.ll"
    src.write_text(
        'define i32 @"ember.test.crash.worker"() {\n  ret i32 1\n}\n'
        "define i32 @main() {\n  ret i32 0\n}\n"
    )
    with pytest.raises(EmberError) as info:
        _build(src, "two-level", cost=1, hooks=faults.hooks_for({faults.CRASH_WORKER}))
    assert "worker process crashed" in info.value.message
    saved = Path(str(info.value.location))
    assert saved.exists() and "ember.test.crash.worker" in saved.read_text()


def test_a_crashed_piece_of_a_plan_without_text_is_saved_as_its_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build plans from the live module alone (no text to render a piece from): a piece
    whose worker dies is saved as its cut, printed (`split._source_text`), with its members."""
    monkeypatch.setenv("EMBER_CRASH_DIR", str(tmp_path / "crashes"))
    text = (
        'define i32 @"ember.test.crash.worker"() {\n  ret i32 1\n}\n'
        "define i32 @main() {\n  %r = call i32 @helper()\n  ret i32 %r\n}\n"
        "define internal i32 @helper() {\n  ret i32 0\n}\n"
    )
    made = plan_fingerprint.driver_module(text, "crash.ll", 0, debug=False)
    hooks = faults.hooks_for({faults.CRASH_WORKER})
    config = split.BackendConfig(opt_level=0, triple=made.triple, worker_hooks=hooks.worker)
    with pytest.raises(EmberError) as info:
        split.compile_split(made.module, made.bitcode, "two-level", 1, config, subgraph_cost=1, hooks=hooks)
    assert "worker process crashed" in info.value.message
    saved = Path(str(info.value.location)).read_text()
    assert "define i32 @ember.test.crash.worker()" in saved  # the member, with its body
    with engine.Module(saved) as piece:  # a module LLVM reads back
        piece.verify()


def _rename_main(module: engine.Module) -> None:
    """An optimised-subgraph hook whose work shows in the object: `main` becomes `hooked_main`."""
    for value in module.definitions():
        if value.name == "main":
            value.rename("hooked_main")


@pytest.mark.parametrize("level", [0, 2])
def test_an_optimised_hook_runs_in_the_worker(level: int) -> None:
    """`BuildHooks.optimised` runs on each optimised subgraph before its codegen, in one phase
    (-O0) and in the second (-O2): the merged object shows what it did."""
    text = (
        "define i32 @main() {\n  %r = call i32 @helper()\n  ret i32 %r\n}\n"
        "define i32 @helper() {\n  ret i32 0\n}\n"
    )
    hooks = BuildHooks(optimised=(_rename_main,))
    assert hooks.changes_the_back_end
    made = plan_fingerprint.driver_module(text, "hooked.ll", level, debug=False)
    config = split.BackendConfig(opt_level=level, triple=made.triple, optimised_hooks=hooks.optimised)
    result = split.compile_split(made.module, made.bitcode, "two-level", 1, config, subgraph_cost=1, hooks=hooks)
    assert result.obj
    names = {s.name for s in symtab.read_symbols(result.obj)}
    assert "hooked_main" in names and "main" not in names and "helper" in names


def test_hanging_worker_times_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBER_CRASH_DIR", str(tmp_path / "crashes"))
    src = tmp_path / "hang.ll"
    src.write_text('define i32 @"ember.test.hang.worker"() {\n  ret i32 1\n}\n')
    with pytest.raises(EmberError) as info:
        _build(src, "two-level", cost=1, worker_timeout=3.0, hooks=faults.hooks_for({faults.HANG_WORKER}))
    assert "timed out" in info.value.message
    assert Path(str(info.value.location)).exists()


def test_no_input_can_trigger_a_test_hook(tmp_path: Path) -> None:
    """The crash marker is inert without the harness's hook object (the CLI never builds one);
    the harness refuses a hook name it does not know."""
    src = tmp_path / "crash.ll"
    src.write_text('define i32 @"ember.test.crash.worker"() {\n  ret i32 1\n}\n')
    assert _build(src, "two-level", cost=1)  # builds: no hooks were passed
    with pytest.raises(EmberError, match="not one of the harness's"):
        faults.hooks_for({"no-such-hook"})


def test_save_pieces_and_plan(tmp_path: Path, ember) -> None:
    out = tmp_path / "pieces"
    r = ember(
        "build", str(DATA / "split_semantics.ll"), "--split", "two-level", "--split-cost", "1", "--save-pieces", str(out),
        "--print-split-plan", "-o", str(tmp_path / "x.o"),
    )
    assert r.status == 0
    assert "subgraph 0" in r.stderr and "anchor_a" in r.stderr
    assert (out / "plan.txt").exists()
    assert len(list(out.glob("subgraph-*.ll"))) >= 4
    pieces = list(out.glob("piece-*.o"))  # every piece's object
    assert pieces and all(p.read_bytes()[:4] == b"\x7fELF" for p in pieces)


def test_entity_model_finds_linkage_and_references() -> None:
    mod = irmodel.parse_module((DATA / "split_semantics.ll").read_text())
    v = mod.values
    assert v["special"].linkage == "internal" and v["anchor_a"].linkage == "external"
    assert "special" in v["anchor_a"].refs and "special" not in v["anchor_a"].address_refs
    assert "address_taken" in v["anchor_c"].address_refs
    assert v["in_comdat"].comdat == "shared_comdat" and v["comdat_data"].comdat == "shared_comdat"
    assert v["with_blockaddress"].blockaddress_of == {"with_blockaddress"}
    assert irmodel.rename_refs('call @f(ptr @g, c"@f")', {"f": "h"}) == 'call @h(ptr @g, c"@f")'


@pytest.mark.parametrize("text", [
    "  %a = call i32 @f.1(ptr @g)\n  store ptr @f.10, ptr @$x-y, align 8\n  call void @0()\n  %b = load i32, ptr @f",
    '  %a = call i32 @f.1(ptr @"g h")\n  store ptr @f.10, ptr @s, align 8 ; c"@f.1"\n  %b = load i32, ptr @f',
])
def test_reference_scan_without_quotes_matches_the_full_tokenizer(text: str) -> None:
    """Bodies without a double quote take a faster scan: same references, same renaming."""
    full = [(irmodel.unquote(m.group("name")), m.start(), m.end()) for m in irmodel._TOKEN.finditer(text) if m.group("name")]
    assert list(irmodel.iter_refs(text)) == full
    mapping = {"f.1": "f.1.ember.2", "f": "renamed f", "0": "zero", "g h": "gh"}
    expected = irmodel._TOKEN.sub(
        lambda m: m.group(0) if m.group("name") is None or irmodel.unquote(m.group("name")) not in mapping
        else "@" + irmodel.quote(mapping[irmodel.unquote(m.group("name"))]), text)
    assert irmodel.rename_refs(text, mapping) == expected
    assert "@f.1.ember.2(" in expected and '@"renamed f"' in expected and "@f.10," in expected


def test_unknown_mode_is_rejected() -> None:
    made = plan_fingerprint.driver_module("define i32 @main() {\n  ret i32 0\n}\n", "m.ll", 0, debug=False)
    with pytest.raises(EmberError, match="unknown split mode 'bogus'"):
        split.compile_split(made.module, made.bitcode, "bogus", 1, split.BackendConfig())


def test_unguarded_user_script_can_use_the_split_back_end(tmp_path: Path) -> None:
    """spawn re-runs __main__ in each worker unless it is hidden; a script without a guard must work."""
    import subprocess
    import sys

    script = tmp_path / "user_script.py"
    script.write_text(
        "from compiler import driver\n"
        f"out = driver.build({str(DATA / 'linkages.ll')!r}, driver.BuildOptions(split='two-level', jobs=2, subgraph_cost=1))\n"
        "print('built', len(out.output) > 0)\n"
    )
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "built True"


def test_private_name_inside_string_data_is_not_renamed() -> None:
    """Fuzzer finding: the MC link renamed `msg` -> `.Lmsg` inside `.asciz "msg hello"` too."""
    src = DATA / "private_name_in_string.ll"
    _check_equivalent(_build(src, "none"), _build(src, "two-level", cost=1, jobs=1))
    assert runner.run_object(_build(src, "two-level", cost=1, jobs=1)).stdout == b"msg hello\n"


def test_level2_piece_cost_option_cuts_more_pieces_and_changes_nothing_else() -> None:
    """`BuildOptions.piece_cost` (`--split-piece-cost`, drawn by the fuzz plan) reaches the workers' level-2 cut."""
    src = DATA / "split_semantics.ll"
    notes = {}
    for piece in (None, 1):
        options = driver.BuildOptions(opt_level=2, split="two-level", jobs=2, subgraph_cost=1, piece_cost=piece)
        result = driver.build(str(src), options)
        notes[piece] = " ".join(result.times.notes)
        _check_equivalent(_build(src, "none"), result.output if isinstance(result.output, bytes) else b"")
    pieces = {p: int(re.search(r"(\d+) codegen pieces", n).group(1)) for p, n in notes.items()}  # type: ignore[union-attr]
    assert pieces[1] > pieces[None], notes


