"""Power check: the campaign catches every deliberately broken back end within a bounded budget.

Each variant of `fuzz.faults.FAULTS` breaks one rule of the split contract.
The campaign (LLVM IR strategies: call graphs and linkage modules, no shrinking, a fixed
seed) must report it in fewer than
200 programs, with the expected classification, save the finding first, and the same
program must pass once the fault is switched off (the fault, not the program, failed).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler import driver
from fuzz import faults as faults_mod
from fuzz import properties
from fuzz.campaign import Campaign, CampaignConfig
from fuzz.regressions import known_bug

BOUND = 200
SEED = 20240601
#: what each fault must look like to the harness
EXPECTED = {
    # leaked bindings: module locals and crossed privates stay global hidden
    "skip-linkage-restore": {"symbol-difference", "crash"},
    # section-relative references (strings, jump tables, unwind and debug info) into the first
    # piece's bytes: wrong data read at run time, or a program that faults
    "drop-section-offsets": {"wrong-output", "crash"},
    # a zeroed duplicate of a function table can make -O2 code run away: a hang is a fair report
    # (or, with locals compared at -O0, the duplicate definitions themselves)
    "duplicate-internal-global": {"wrong-output", "crash", "hang", "symbol-difference"},
    "drop-ctors": {"wrong-output"},
    # the home copy may be gone (inlined, internalised away): an undefined symbol or a failed link
    "merge-specialised-copies": {"wrong-output", "crash", "symbol-difference"},
}


#: every fault must be caught within the bound (merge-specialised-copies by the linkage strategy's
#: `specialised` fragment, see STRATEGY); `python -m bench.power` measures how soon
CAMPAIGN_PARAMS = sorted(faults_mod.FAULTS)
CHECKLIST = Path(__file__).parent.parent / "tests" / "data" / "split_semantics.ll"


def test_every_fault_has_an_expectation() -> None:
    assert set(EXPECTED) == set(faults_mod.FAULTS)


@pytest.mark.parametrize("fault", sorted(faults_mod.FAULTS))
def test_fault_changes_the_object(fault: str) -> None:
    """Each variant must actually break something on the checklist module (one anchor per subgraph)."""

    def build(faults: frozenset[str]) -> bytes | str:
        options = driver.BuildOptions(
            opt_level=0, split="two-level", jobs=1, subgraph_cost=1, emit="obj", hooks=faults_mod.hooks_for(faults)
        )
        return driver.build(str(CHECKLIST), options).output

    try:
        broken = build(frozenset({fault}))
    except Exception:  # a fault may make the build itself fail: that is a change too
        return
    assert broken != build(frozenset()), f"fault {fault} leaves the output unchanged"


#: the strategy each fault is hunted with: the LLVM IR strategies, except where one family
#: holds the fragment aimed at the fault (with the cost model only small locals are copied,
#: and call-graph programs dilute the linkage `specialised` fragment past the bound)
STRATEGY = {"merge-specialised-copies": "linkage"}


@pytest.mark.parametrize("fault", CAMPAIGN_PARAMS)
def test_campaign_catches_fault(fault: str, tmp_path: Path) -> None:
    config = CampaignConfig(
        strategy=STRATEGY.get(fault, "llvm-ir"), faults=frozenset({fault}), opt_check=False, findings_root=tmp_path,
        shrink_seconds=0.0,
    )
    result = Campaign(config, seed=SEED, name=f"power:{fault}").run(examples=BOUND - 1, database=None, shrink=False)
    assert result.found, f"fault {fault} was not caught in {BOUND - 1} programs"
    assert result.examples_to_failure is not None and result.examples_to_failure < BOUND
    assert {f.classification for f in result.failures} & EXPECTED[fault], [str(f)[:2000] for f in result.failures]
    failure = next(f for f in result.failures if f.classification in EXPECTED[fault])
    # saved before it was reported, as a complete finding
    assert failure.finding is not None and (failure.finding / "finding.json").is_file()
    assert (failure.finding / failure.report.case.input_name).read_text() == failure.report.case.module
    # control: without the fault the very same program and builds agree
    control = properties.check(failure.report.case, failure.report.plan)
    assert control.ok or known_bug(control), control.diff_text()


#: what each fault the default campaign must catch looks like to it
EXPECTED_DEFAULT = {
    # a quoted or unicode name left `__ember_n<N>` in the object (target-word and odd names)
    faults_mod.SKIP_NAME_SPELLINGS: {"symbol-difference"},
    # the dead local's external: `+ UND umask` (the `dead-caller` linkage fragment)
    faults_mod.KEEP_DEAD_EXPORTED_LOCALS: {"symbol-difference"},
    # an inlined header row a line off: only a `-g` plan of a program whose debug info has
    # several files (`fuzz.strategies.debuginfo`) shows it
    faults_mod.SHIFT_ROWS_AFTER_FILE_SWITCH: {"debug-info"},
    # the back end before the whole-module prefix: the external only IPSCCP-dead code calls,
    # `+ UND getppid` (the `dead-capture` linkage fragment: std's output capture)
    faults_mod.SKIP_WHOLE_MODULE_PREFIX: {"symbol-difference"},
}


def test_every_default_campaign_fault_has_an_expectation() -> None:
    assert set(EXPECTED_DEFAULT) == set(faults_mod.DEFAULT_CAMPAIGN_FAULTS)


@pytest.mark.parametrize("fault", sorted(EXPECTED_DEFAULT))
def test_default_campaign_catches_fault(fault: str, tmp_path: Path) -> None:
    """The main command's campaign (`ember fuzz`: `CampaignConfig()`'s mixed programs and drawn
    configurations, nothing aimed at the fault) catches each of these in under 200 programs;
    each needs a shape only a generator dimension makes (target-word names, dead callers,
    debug info with several files)."""
    config = CampaignConfig(faults=frozenset({fault}), findings_root=tmp_path, shrink_seconds=0.0)
    result = Campaign(config, seed=SEED, name=f"power:default:{fault}").run(examples=BOUND - 1, database=None, shrink=False)
    assert result.found, f"fault {fault} was not caught by the default campaign in {BOUND - 1} programs"
    assert result.examples_to_failure is not None and result.examples_to_failure < BOUND
    assert {f.classification for f in result.failures} & EXPECTED_DEFAULT[fault], [str(f)[:2000] for f in result.failures]
    failure = next(f for f in result.failures if f.classification in EXPECTED_DEFAULT[fault])
    assert failure.finding is not None and (failure.finding / "finding.json").is_file()
    control = properties.check(failure.report.case, failure.report.plan)
    assert control.ok or known_bug(control), control.diff_text()
