"""Known-bad rewrites must be rejected, each for the right reason, with a counterexample."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import cli
from compiler.midend import rewrites
from compiler.midend.rewrites.table import Rewrite
from equivalence import verify
from equivalence.known_bad import KNOWN_BAD

#: the check each known-bad pattern fails (Alive's UB / poison / value)
EXPECTED_CHECK = {
    "bad-select-true-to-or": "poison",
    "bad-select-false-to-and": "poison",
    "bad-select-blend": "poison",
    "bad-add-of-add-keep-nsw": "poison",
    "bad-mul-pow2-keep-nsw": "poison",
    "bad-ceildivsi-add": "value",
    "bad-ceildivsi-negate": "value",
    "bad-floordivsi-negate": "value",
    "bad-div-self": "value",
    "bad-shift-by-width": "poison",
    "bad-floor-mod-remsi": "UB",
}


def test_every_known_bad_pattern_has_an_expectation() -> None:
    assert {r.name for r in KNOWN_BAD} == set(EXPECTED_CHECK)


@pytest.mark.parametrize("row", KNOWN_BAD, ids=lambda r: r.name)
def test_known_bad_pattern_is_rejected(row: Rewrite) -> None:
    (p,) = rewrites.load([row])
    (result,) = verify.verify_patterns([p], width=None if p.i1_only else 8, jobs=1)
    assert not result.holds
    first = result.first_failure()
    assert first is not None and first.status == "fail"
    assert first.check == EXPECTED_CHECK[row.name]
    text = first.counterexample
    assert f"check failed: {first.check}" in text
    for part in ("Example:", "Source:", "Target:", "Source value:", "Target value:", "0x", "(u ", ", s "):
        assert part in text, part


def test_the_nsw_reassociation_counterexample_overflows_the_constant_sum() -> None:
    (p,) = rewrites.load([r for r in KNOWN_BAD if r.name == "bad-add-of-add-keep-nsw"])
    r = verify.check_width(p, "8")
    assert r.status == "fail"
    values = {}
    for line in r.counterexample.splitlines():
        if line.startswith("  i8 C"):
            name, rest = line.split(" = ")
            values[name.split()[-1]] = int(rest.split(", s ")[1].rstrip(")"))
    assert not -128 <= values["C0"] + values["C1"] < 128
    assert "Target value: poison" in r.counterexample


def test_bare_self_division_is_a_correct_rewrite() -> None:
    """x / x -> 1 is right for arith.divsi: x = 0 (or poison) is UB in the source, so the
    target may do anything there. Only the zero-guarded form (bad-div-self) is wrong."""
    (p,) = rewrites.load([Rewrite("div-self", "divsi(x, x) => 1", "")])
    assert all(verify.check_width(p, w).status == "ok" for w in ("1", "8", "64"))


def test_cli_rejects_known_bad_and_prints_a_counterexample(capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main(["verify", "--include-known-bad", "--pattern", "bad-ceildivsi-add",
                       "--pattern", "bad-select-blend", "-j", "1"])
    out = capsys.readouterr().out
    assert status == 1
    assert "pattern 'bad-ceildivsi-add' is wrong at i" in out
    assert "ERROR: Value mismatch (check failed: value)" in out
    assert "ERROR: Target is more poisonous than source (check failed: poison)" in out
    assert "every known-bad pattern was rejected" in out


def test_cli_pattern_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.pat"
    good.write_text("# two patterns\nmy-add-zero: addi(x, 0) => x\nmy-xor: xori(x, x) => 0\n")
    assert cli.main(["verify", "--pattern-file", str(good), "--stats", "-j", "1", "--width", "16"]) == 0
    out = capsys.readouterr().out
    assert "my-add-zero" in out and "all 2 patterns hold" in out
    bad = tmp_path / "bad.pat"
    bad.write_text("ok: addi(x, 0) => x\nbroken: addi(x, 0) => y\n")
    assert cli.main(["verify", "--pattern-file", str(bad)]) != 0
    err = capsys.readouterr().err
    assert f"{bad}:2:9: error: pattern 'broken': target uses unbound value 'y'" in err
    assert "Traceback" not in err
