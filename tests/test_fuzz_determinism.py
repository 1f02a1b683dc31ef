"""A fixed-seed campaign generates the same programs and gives the same verdicts wherever it runs.

The same small campaign (LLVM IR programs, a back-end fault so verdicts are not all `ok`)
runs in two fresh processes that import different modules, and in this process after
other work; their traces (program and builds hash, verdict, per program) must be equal.
What broke this before: Hypothesis mixes the literals of every imported local module
into its draws (`fuzz.determinism`), so the imports decided the programs.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis.internal.conjecture import providers

from fuzz import determinism, profiles
from fuzz.campaign import Campaign, CampaignConfig

ROOT = Path(__file__).resolve().parent.parent
SEED = 20240601
PROGRAMS = 20
#: a clean campaign (20 verdicts `ok`) and one with the back-end fault of the issue (caught
#: within the 20 at this seed): programs, builds and verdicts are compared
FAULTS = (frozenset(), frozenset({"drop-ctors"}))
#: what a fresh process runs after its `{preamble}`: the traces, printed as JSON
SCRIPT = """\
import json
{preamble}
from tests.test_fuzz_determinism import campaign_traces
print(json.dumps(campaign_traces()))
"""


def campaign_traces() -> list[list[str]]:
    """The traces of the fixed-seed campaigns (one per entry of `FAULTS`)."""
    traces = []
    for faults in FAULTS:
        config = CampaignConfig(
            strategy="llvm-ir", faults=faults, opt_check=False, save_findings=False, shrink_seconds=0.0, lanes=1
        )
        result = Campaign(config, seed=SEED, name="repro").run(examples=PROGRAMS, database=None, shrink=False)
        traces.append(result.trace)
    return traces


def literals_module(directory: Path, name: str, start: int) -> Path:
    """A local module full of integer literals (what Hypothesis harvests from imported code)."""
    values = [start + 7919 * i for i in range(200)] + [-(start + 104729 * i) for i in range(200)]
    path = directory / f"{name}.py"
    path.write_text(f"VALUES = ({', '.join(str(v) for v in values)},)\n")
    return path


def fresh_process_traces(tmp_path: Path, preamble: str, extra_env: dict[str, str]) -> list[list[str]]:
    """`campaign_traces()` in a new interpreter that first runs `preamble`."""
    code = SCRIPT.format(preamble=preamble)
    env = {k: v for k, v in os.environ.items() if k not in ("CI", profiles.PROFILE_ENV, "PYTEST_XDIST_WORKER_COUNT")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(tmp_path)])
    env.update(extra_env)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    traces: list[list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return traces


def test_campaign_is_the_same_in_fresh_processes_and_after_other_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    literals_module(tmp_path, "ember_literals_a", 1_000_003)
    literals_module(tmp_path, "ember_literals_b", 5_000_011)
    plain = fresh_process_traces(tmp_path, "", {})
    # other imports (local code with other literals, more of the project), $CI set (Hypothesis
    # then loads its own `ci` profile) and the global random state used
    crowded = fresh_process_traces(
        tmp_path,
        "import random, ember_literals_a, equivalence.semantics, oracle.interp\nrandom.seed(99); random.random()",
        {"CI": "true"},
    )
    # here: Hypothesis' own pool (a campaign must not rely on the conftest switching it off),
    # new local literals imported, another campaign run first, the global random state reseeded
    monkeypatch.setattr(providers, "_get_local_constants", determinism.hypothesis_local_constants)
    monkeypatch.syspath_prepend(str(tmp_path))
    __import__("ember_literals_b")
    other = CampaignConfig(strategy="callgraph", opt_check=False, save_findings=False, lanes=1)
    Campaign(other, seed=3, name="other").run(examples=3, database=None, shrink=False)
    random.seed(5)
    here = campaign_traces()
    clean, faulty = plain
    assert len(clean) == PROGRAMS and all(line.endswith(" ok") for line in clean), clean
    assert faulty and faulty[-1].endswith(" wrong-output"), faulty  # the verdicts are compared too
    assert crowded == plain
    assert here == plain
