"""`ember mutants`: the suite applies to the current tree, a mutant never touches the
installed project, and a campaign kills a plain mutant."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import EmberError
from fuzz.mutation import run
from fuzz.mutation.mutants import MUTANTS, Mutant

ROOT = Path(__file__).resolve().parent.parent


def test_the_suite_is_large_and_spread_over_the_compiler() -> None:
    assert len(MUTANTS) >= 20
    assert len({m.name for m in MUTANTS}) == len(MUTANTS)
    back_end = [m for m in MUTANTS if m.path.startswith("compiler/backend/")]
    front_and_mid = [m for m in MUTANTS if m.path.startswith(("compiler/frontend/", "compiler/midend/"))]
    assert len(back_end) >= 5 and len(front_and_mid) >= 5


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m.name)
def test_every_mutant_applies_exactly_once_and_changes_its_file(mutant: Mutant) -> None:
    original = (ROOT / mutant.path).read_text()
    mutated = run.check_applies(mutant, ROOT)
    assert mutated != original
    assert original.count(mutant.original) == 1


def test_a_mutant_whose_text_is_gone_is_a_located_error(tmp_path: Path) -> None:
    (tmp_path / "compiler").mkdir()
    (tmp_path / "compiler" / "x.py").write_text("a = 1\na = 1\n")
    twice = Mutant("twice", "compiler/x.py", "a = 1", "a = 2", "", "callgraph")
    with pytest.raises(EmberError, match="found 2 times") as err:
        run.check_applies(twice, tmp_path)
    assert err.value.location is not None and err.value.location.path.endswith("compiler/x.py")
    gone = Mutant("gone", "compiler/x.py", "b = 1", "b = 2", "", "callgraph")
    with pytest.raises(EmberError, match="not found"):
        run.check_applies(gone, tmp_path)


def test_applying_a_mutant_changes_the_copy_only(tmp_path: Path) -> None:
    mutant = MUTANTS[0]
    before = (ROOT / mutant.path).read_text()
    target = run.mutated_copy(mutant, tmp_path / "tree")
    assert (ROOT / mutant.path).read_text() == before
    assert target.read_text() == before.replace(mutant.original, mutant.replacement)
    other = tmp_path / "tree" / "compiler" / "driver.py"
    assert other.read_text() == (ROOT / "compiler" / "driver.py").read_text()


def test_a_campaign_kills_a_plain_mutant() -> None:
    """Private declarations made internal break every Ember build: killed by the first programs."""
    from fuzz.mutation.mutants import BY_NAME

    outcome = run.run_mutant(BY_NAME["internalize-private-declarations"], seed=1, examples=20, timeout_s=300)
    assert outcome.killed, outcome
    assert outcome.programs is not None and outcome.programs <= 5
    assert outcome.classification == "crash"
