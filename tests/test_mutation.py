"""`ember mutants`: the suite applies to the current tree, a mutant never touches the
installed project, a campaign kills a plain mutant, and a kill counts only when the
unmutated project passes the finding (a finding the project itself also fails is a false
kill); survivors are no error; a stalled campaign is a hang kill only against the control."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.diagnostics import EmberError
from fuzz.mutation import mutants_command, run
from fuzz.mutation.mutants import BY_NAME, MUTANTS, Mutant

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
    """Private declarations made internal break every Ember build: killed by the first programs,
    and the kill is confirmed (the unmutated project passes the finding)."""
    outcome = run.run_mutant(BY_NAME["internalize-private-declarations"], seed=1, examples=20, timeout_s=300)
    assert outcome.killed and outcome.confirmed and outcome.verdict == run.KILLED, outcome
    assert outcome.programs is not None and outcome.programs <= 5
    assert outcome.classification == "crash"
    assert outcome.file == "compiler/midend/passes/internalize_private.py"
    assert outcome.finding.startswith("crash: ")


#: a mutant that changes nothing the campaign can see (a comment): it survives on a sound project
HARMLESS = Mutant(
    "harmless-comment", "compiler/backend/objlink.py",
    "    # a piece with a GNU extension (an IFUNC, a unique symbol) says ELFOSABI_GNU: so does the merge\n",
    "    # a piece with a GNU extension (an IFUNC, a unique symbol) says ELFOSABI_GNU: so does the merge (mutated)\n",
    "a comment", "ember",
)

#: a campaign that stalls: the child sleeps before it runs anything
STALL = Mutant(
    "stalling-campaign", "fuzz/mutation/child.py",
    "    args = ap.parse_args(argv)\n",
    "    args = ap.parse_args(argv)\n    __import__('time').sleep(600)\n",
    "the campaign never finishes", "ember",
)


@pytest.fixture
def broken_project(tmp_path: Path) -> Path:
    """A copy of the project with a real bug of its own (private declarations made internal:
    every Ember build fails), standing in for the unmutated project."""
    project = tmp_path / "project"
    run.copy_packages(project, ROOT)
    bug = BY_NAME["internalize-private-declarations"]
    (project / bug.path).write_text(run.check_applies(bug, project))
    return project


def test_a_finding_the_unmutated_project_also_fails_is_a_false_kill(broken_project: Path) -> None:
    """The mutated campaign finds the project's own bug; the replay on the unmutated project
    fails the same way, so the mutant is not killed."""
    outcome = run.run_mutant(HARMLESS, seed=1, examples=5, timeout_s=300, root=broken_project)
    assert outcome.verdict == run.FALSE_KILL, outcome
    assert not outcome.killed and not outcome.confirmed
    assert outcome.classification == "crash"
    assert outcome.note.startswith("false kill: the unmutated project gives crash too"), outcome.note


def test_survivors_are_a_measurement_exit_0_and_control_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("EMBER_FINDINGS", str(tmp_path / "store"))
    out_json = tmp_path / "out.json"
    rc = mutants_command.main(None, seed=1, examples=3, timeout_s=300, json_out=str(out_json), control=True, mutants=[HARMLESS])
    out = capsys.readouterr().out
    assert rc == 0
    assert "control ember     no finding in 3 programs" in out
    assert "CONTROL FINDING" not in out
    row = next(line for line in out.splitlines() if line.startswith("harmless-comment"))
    assert "compiler/backend/objlink.py" in row and " NO " in row
    assert "kill rate: 0/1" in out and "survived: harmless-comment" in out
    assert '"verdict": "survived"' in out_json.read_text()


def test_a_control_finding_is_reported_and_the_kill_is_false(
    broken_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "store"
    monkeypatch.setenv("EMBER_FINDINGS", str(store))
    rc = mutants_command.main(None, seed=1, examples=3, timeout_s=300, json_out=None, control=True, mutants=[HARMLESS],
                      root=broken_project)
    out = capsys.readouterr().out
    assert rc == 0
    assert "control ember     CONTROL FINDING: FOUND after 1 programs: crash: " in out
    assert "verdicts at this seed are not trustworthy" in out
    row = next(line for line in out.splitlines() if line.startswith("harmless-comment"))
    assert " false " in row and "false kill: the unmutated project gives crash too" in row
    assert "kill rate: 0/1" in out and "false kills (the unmutated project fails the finding too): harmless-comment" in out
    assert any(store.iterdir()), "the control's finding is kept in the store"


def test_a_stalled_campaign_is_a_hang_kill_only_when_the_control_finishes(tmp_path: Path) -> None:
    """The stalling mutant runs past its (short) timeout; the control (given: finished in 2 s)
    did not stall, so the mutant is killed by hang. With a control that stalled too, it survives."""
    controls = run.Controls(seed=1, examples=3, timeout_s=8)
    controls.runs["ember"] = run.CampaignRun(2.0, completed=True, programs=3)
    outcome = run.run_mutant(STALL, seed=1, examples=3, timeout_s=8, controls=controls)
    assert outcome.killed and outcome.verdict == run.KILLED and outcome.confirmed, outcome
    assert outcome.classification == "hang" and "the mutant made the compiler hang" in outcome.note
    assert outcome.seconds < 60

    stalled_too = run.Controls(seed=1, examples=3, timeout_s=8)
    stalled_too.runs["ember"] = run.CampaignRun(8.0, completed=False, timed_out=True)
    base = run.Outcome(STALL.name, False, None, None, 0.0, file=STALL.path, strategy="ember")
    judged = run._judge_stall(base, stalled_too, 8)
    assert not judged.killed and judged.verdict == run.SURVIVED
    assert judged.note == "campaign past 8s (the unmutated campaign too)"
