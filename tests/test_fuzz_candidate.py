"""External candidates: the harness judges toolchains Ember did not write (llvm-split is the anchor)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from fuzz import properties
from fuzz.campaign import Campaign, CampaignConfig
from fuzz.properties import compare_file
from oracle.candidate import CandidateCommand
from tests.conftest import DATA

#: llvm-split + llc + ld -r: SplitModule externalises locals as GLOBAL HIDDEN (never restored)
LLVM_SPLIT = (
    'sh -c "llvm-split -j2 -o p {in} && llc -filetype=obj -relocation-model=pic p0 -o p0.o'
    ' && llc -filetype=obj -relocation-model=pic p1 -o p1.o && ld -r p0.o p1.o -o {out}"'
)
needs_ld = pytest.mark.skipif(shutil.which("ld") is None, reason="GNU ld (binutils) is needed for `ld -r`")


def test_placeholders_are_filled_and_quoted() -> None:
    cmd = CandidateCommand('sh -c "cat {in} > x && cp x {out}"')
    assert cmd.argv("/a b/in.ll", "/o.o") == ["sh", "-c", "cat '/a b/in.ll' > x && cp x /o.o"]
    assert CandidateCommand("llc {in} -o {out}").argv("/a b/in.ll", "/o.o") == ["llc", "/a b/in.ll", "-o", "/o.o"]


@needs_ld
def test_llvm_split_leaks_locals_and_the_harness_says_so() -> None:
    report = compare_file(DATA / "linkages.ll", LLVM_SPLIT, opt_level=0)
    assert isinstance(report, properties.Report)
    assert report.classification == "symbol-difference", report.diff_text()
    detail = report.failures[0].detail
    for local in ("add_one", "counter", "init", "tls_internal"):
        assert f"! {local}: LOCAL in --split none -O0 became GLOBAL HIDDEN in candidate -O0" in detail
    # ... while behaving the same: the leak is only visible at the symbol level
    assert {f.classification for f in report.failures} == {"symbol-difference"}


@needs_ld
def test_campaign_against_llvm_split_finds_leaks_on_generated_programs(tmp_path: Path) -> None:
    config = CampaignConfig(
        strategy="callgraph",
        modes=(),
        opt_levels=(0,),
        opt_check=False,
        determinism=False,
        candidate=LLVM_SPLIT,
        findings_root=tmp_path,
        shrink_seconds=0.0,
    )
    result = Campaign(config, seed=5, name="candidate:llvm-split").run(examples=60, database=None, shrink=False)
    assert result.found and result.examples_to_failure is not None and result.examples_to_failure < 60
    failure = result.failure
    assert isinstance(failure, properties.DifferentialFailure)
    assert failure.classification == "symbol-difference"
    # a local (LOCAL -> GLOBAL HIDDEN) or a private `.L` symbol (new GLOBAL HIDDEN) leaked
    assert re.search(r"GLOBAL (\w+ )?HIDDEN", failure.report.diff_text()), failure.report.diff_text()
    assert failure.finding is not None and (failure.finding / "builds" / "candidate-O0" / "out.o").is_file()


@needs_ld
def test_ember_compare_cli(tmp_path: Path, ember) -> None:
    honest = 'sh -c "opt -O2 {in} -o o.bc && llc -O2 -filetype=obj -relocation-model=pic o.bc -o {out}"'
    r = ember("compare", str(DATA / "linkages.ll"), "--candidate", honest, "--findings", str(tmp_path))
    assert r.status == 0 and "candidate agrees" in r.stdout
    r = ember("compare", str(DATA / "linkages.ll"), "-O0", "--candidate", LLVM_SPLIT, "--findings", str(tmp_path))
    assert r.status == 1 and "became GLOBAL HIDDEN" in r.stdout and "finding saved" in r.stdout
    assert len(list(tmp_path.iterdir())) == 1
    r = ember("compare", str(DATA / "linkages.ll"), "--candidate", "llc {in}")
    assert r.status == 2 and "{out}" in r.stderr
