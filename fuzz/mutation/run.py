"""Apply one mutant to a copy of the project and run a fixed-seed campaign against it.

The copy holds the four packages; the campaign runs in a child process with the copy
first on `PYTHONPATH` (its build server and pool workers inherit it), so the installed
project is never touched. A mutant is *killed* when the campaign saves a finding.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from compiler.diagnostics import EmberError, Location
from fuzz.mutation.mutants import Mutant

#: the project's root (the folder holding the packages)
ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("compiler", "oracle", "fuzz", "equivalence")


@dataclass(frozen=True)
class Outcome:
    """What the campaign did to one mutant."""

    mutant: str
    killed: bool
    programs: int | None  # programs until the first finding (all of them when not killed)
    classification: str | None
    seconds: float
    note: str = ""


def check_applies(mutant: Mutant, root: Path = ROOT) -> str:
    """The mutated file's text; a located error when the original is not there exactly once."""
    path = root / mutant.path
    if not path.is_file():
        raise EmberError(f"mutant '{mutant.name}': no such file", Location(str(path)))
    text = path.read_text()
    count = text.count(mutant.original)
    if count != 1:
        what = "not found" if count == 0 else f"found {count} times"
        raise EmberError(f"mutant '{mutant.name}': its original text is {what} (update the table)", Location(str(path)))
    return text.replace(mutant.original, mutant.replacement)


def mutated_copy(mutant: Mutant, into: Path, root: Path = ROOT) -> Path:
    """Copy the packages into `into` and apply `mutant` there; returns the mutated file."""
    mutated = check_applies(mutant, root)
    for package in PACKAGES:
        shutil.copytree(root / package, into / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    target = into / mutant.path
    target.write_text(mutated)
    return target


def run_mutant(mutant: Mutant, *, seed: int, examples: int, timeout_s: float) -> Outcome:
    """The campaign on a mutated copy: killed or not, after how many programs."""
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"ember-mutant-{mutant.name}-") as tmp:
        copy = Path(tmp) / "tree"
        mutated_copy(mutant, copy)
        env = dict(os.environ, PYTHONPATH=str(copy) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("EMBER_FINDINGS", None)
        cmd = [sys.executable, "-m", "fuzz.mutation.child", "--strategy", mutant.strategy, "--seed", str(seed),
               "--examples", str(examples), "--findings", str(Path(tmp) / "findings")]
        try:
            proc = subprocess.run(cmd, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout_s,
                                  start_new_session=True)
        except subprocess.TimeoutExpired:
            return Outcome(mutant.name, False, None, None, time.perf_counter() - start, f"campaign past {timeout_s:g}s")
        seconds = time.perf_counter() - start
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        if proc.returncode != 0 or not lines:
            # not a verdict: the campaign itself failed (counted as surviving, with the reason)
            tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
            return Outcome(mutant.name, False, None, None, seconds, f"campaign failed to run: {tail[:160]}")
        data = json.loads(lines[-1])
        return Outcome(mutant.name, bool(data["killed"]), data["programs"], data["classification"], seconds)


def outcome_json(outcomes: list[Outcome]) -> str:
    return json.dumps([asdict(o) for o in outcomes], indent=1) + "\n"
