"""Power check: the campaign catches every deliberately broken back end within a bounded budget.

Each variant of `compiler.backend.split.FAULTS` breaks one rule of the split contract.
The campaign (mixed strategy, no shrinking, a fixed seed) must report it in fewer than
200 programs, with the expected classification, save the finding first, and the same
program must pass once the fault is switched off (the fault, not the program, failed).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import driver
from compiler.backend import split
from fuzz import properties
from fuzz.campaign import Campaign, CampaignConfig
from fuzz.regressions import known_bug

BOUND = 200
SEED = 20240601
#: what each fault must look like to the harness
EXPECTED = {
    "skip-linkage-restore": {"symbol-difference"},
    "reuse-local-labels": {"crash"},
    # a zeroed duplicate of a function table can make -O2 code run away: a hang is a fair report
    "duplicate-internal-global": {"wrong-output", "crash", "hang"},
    "drop-ctors": {"wrong-output"},
}


#: open problems with the fault variants themselves (owned by the back end; see the reason)
DROP_CTORS_NOOP = pytest.mark.xfail(
    strict=True,
    reason="the drop-ctors fault rewrites '.init_array', but the back end emits constructors in "
    "'.ctors' (llvmlite's TargetMachine does not use init_array), so the fault changes nothing",
)
#: ... and the campaign would spend all 199 programs to confirm it: not run until the fault is fixed
#: (when test_fault_changes_the_object[drop-ctors] XPASSes, delete both marks)
DROP_CTORS_NOT_RUN = pytest.mark.xfail(run=False, reason="drop-ctors fault is a no-op (see test_fault_changes_the_object)")
FAULT_PARAMS = [pytest.param(f, marks=DROP_CTORS_NOOP) if f == "drop-ctors" else f for f in sorted(split.FAULTS)]
CAMPAIGN_PARAMS = [pytest.param(f, marks=DROP_CTORS_NOT_RUN) if f == "drop-ctors" else f for f in sorted(split.FAULTS)]
CHECKLIST = Path(__file__).parent.parent / "tests" / "data" / "split_semantics.ll"


def test_every_fault_has_an_expectation() -> None:
    assert set(EXPECTED) == set(split.FAULTS)


@pytest.mark.parametrize("fault", FAULT_PARAMS)
def test_fault_changes_the_object(fault: str) -> None:
    """Each variant must actually break something on the checklist module (one anchor per subgraph)."""

    def build(faults: frozenset[str]) -> bytes | str:
        options = driver.BuildOptions(opt_level=0, split="two-level", jobs=1, subgraph_cost=1, emit="asm", faults=faults)
        return driver.build(str(CHECKLIST), options).output

    try:
        broken = build(frozenset({fault}))
    except Exception:  # a fault may make the build itself fail: that is a change too
        return
    assert broken != build(frozenset()), f"fault {fault} leaves the output unchanged"


@pytest.mark.parametrize("fault", CAMPAIGN_PARAMS)
def test_campaign_catches_fault(fault: str, tmp_path: Path) -> None:
    config = CampaignConfig(
        strategy="mixed", faults=frozenset({fault}), opt_check=False, findings_root=tmp_path, shrink_seconds=0.0
    )
    result = Campaign(config, seed=SEED, name=f"power:{fault}").run(examples=BOUND - 1, database=None, shrink=False)
    assert result.found, f"fault {fault} was not caught in {BOUND - 1} programs"
    assert result.examples_to_failure is not None and result.examples_to_failure < BOUND
    assert {f.classification for f in result.failures} & EXPECTED[fault], [str(f)[:2000] for f in result.failures]
    failure = next(f for f in result.failures if f.classification in EXPECTED[fault])
    # saved before it was reported, as a complete finding
    assert failure.finding is not None and (failure.finding / "finding.json").is_file()
    assert (failure.finding / "input.ll").read_text() == failure.report.case.module
    # control: without the fault the very same program and builds agree
    control = properties.check(failure.report.case, failure.report.plan)
    assert control.ok or known_bug(control), control.diff_text()
