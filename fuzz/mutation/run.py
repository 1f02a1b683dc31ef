"""Apply one mutant to a copy of the project, run a fixed-seed campaign against it, confirm the verdict.

The copy holds the four packages; the campaign runs in a child process with the copy
first on `PYTHONPATH` (its build server and pool workers inherit it), so the installed
project is never touched.

A finding alone does not kill a mutant: the finding's program and plan are replayed
(`fuzz.mutation.replay`, again in child processes) against the unmutated project and
against the mutated copy. The mutant is *killed* only when the unmutated project passes
that check and the mutated copy still fails it. When the unmutated project fails it too
(a real bug of the project, a flaky check, a timeout under load) the outcome is a *false
kill*; when the mutated copy passes it on replay, or a replay cannot run, it is
*unconfirmed*. Neither counts as killed.

A campaign that runs past its timeout is compared with the control: the same campaign
(seed, examples, strategy) on an unmodified copy. When the control finishes within half
the timeout the mutant is killed by `hang` (it made the compiler stall); otherwise the
stall says nothing and the mutant survives with a note.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from compiler import children
from compiler.diagnostics import EmberError, Location
from fuzz.mutation.mutants import Mutant

#: the project's root (the folder holding the packages)
ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("compiler", "oracle", "fuzz", "equivalence")

KILLED, FALSE_KILL, UNCONFIRMED, SURVIVED = "killed", "false kill", "unconfirmed", "survived"


@dataclass(frozen=True)
class Outcome:
    """What the campaign did to one mutant (`verdict` is one of killed, false kill, unconfirmed, survived)."""

    mutant: str
    killed: bool
    programs: int | None  # programs until the first finding (all of them when nothing was found)
    classification: str | None
    seconds: float
    note: str = ""
    verdict: str = SURVIVED
    #: the campaign's verdict was checked: the finding fails the mutated copy and passes the
    #: unmutated project (or, for a hang, the unmutated campaign finished in time)
    confirmed: bool = False
    file: str = ""
    strategy: str = ""
    #: one line: the finding's classification and summary (for a hang, the stall)
    finding: str = ""
    #: what the control campaign of this strategy did, when one ran
    control: str | None = None


@dataclass(frozen=True)
class Found:
    """One failure a campaign saved: its class, its one-line summary, its finding directory."""

    classification: str
    summary: str
    finding: str


@dataclass(frozen=True)
class CampaignRun:
    """What one campaign child did."""

    seconds: float
    completed: bool  # it printed a verdict within the timeout
    timed_out: bool = False
    programs: int | None = None
    failures: tuple[Found, ...] = ()
    error: str = ""

    @property
    def found(self) -> bool:
        return bool(self.failures)


@dataclass(frozen=True)
class Replay:
    """A finding's check re-run in one tree: `ok` None when the replay itself could not run."""

    finding: str
    ok: bool | None
    classification: str = ""
    summary: str = ""
    error: str = ""


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


def copy_packages(into: Path, root: Path = ROOT) -> None:
    for package in PACKAGES:
        shutil.copytree(root / package, into / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def mutated_copy(mutant: Mutant, into: Path, root: Path = ROOT) -> Path:
    """Copy the packages into `into` and apply `mutant` there; returns the mutated file."""
    mutated = check_applies(mutant, root)
    copy_packages(into, root)
    target = into / mutant.path
    target.write_text(mutated)
    return target


# ------------------------------------------------------------------ child processes


def _env(tree: Path) -> dict[str, str]:
    """The environment of a child that runs `tree`'s packages."""
    env = dict(os.environ, PYTHONPATH=str(tree) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("EMBER_FINDINGS", None)
    return env


def _run_child(cmd: Sequence[str], *, tree: Path, cwd: Path, timeout_s: float) -> tuple[int, str, str] | None:
    """Run `cmd` with `tree` first on PYTHONPATH: (returncode, stdout, stderr), or None past `timeout_s`.

    `compiler.children.run_captured`: on a timeout or an interrupt the child's whole
    process tree (build server, pool workers) is killed, not the child alone.
    """
    done = children.run_captured(cmd, timeout=timeout_s, cwd=str(cwd), env=_env(tree))
    if done.timed_out:
        return None
    return done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")


def _last_line(text: str) -> str:
    return (text.strip().splitlines() or ["?"])[-1][:160]


def run_campaign(tree: Path, *, strategy: str, seed: int, examples: int, timeout_s: float, findings_dir: Path) -> CampaignRun:
    """The fixed-seed campaign (`fuzz.mutation.child`) on the packages in `tree`."""
    start = time.perf_counter()
    cmd = [sys.executable, "-m", "fuzz.mutation.child", "--strategy", strategy, "--seed", str(seed),
           "--examples", str(examples), "--findings", str(findings_dir)]
    done = _run_child(cmd, tree=tree, cwd=tree, timeout_s=timeout_s)
    seconds = time.perf_counter() - start
    if done is None:
        return CampaignRun(seconds, completed=False, timed_out=True)
    returncode, stdout, stderr = done
    lines = [ln for ln in stdout.splitlines() if ln.startswith("{")]
    if returncode != 0 or not lines:
        return CampaignRun(seconds, completed=False, error=_last_line(stderr))
    data = json.loads(lines[-1])
    failures = tuple(Found(str(f["classification"]), str(f["summary"]), str(f["finding"])) for f in data.get("failures", []))
    return CampaignRun(seconds, completed=True, programs=data["programs"], failures=failures)


def replay(finding_dirs: Sequence[str], tree: Path, *, timeout_s: float) -> dict[str, Replay]:
    """Each finding's check re-run with `tree`'s packages (`fuzz.mutation.replay`, one child for all)."""
    cmd = [sys.executable, "-m", "fuzz.mutation.replay", *finding_dirs]
    with tempfile.TemporaryDirectory(prefix="ember-replay-") as cwd:
        done = _run_child(cmd, tree=tree, cwd=Path(cwd), timeout_s=timeout_s)
    answers: dict[str, Replay] = {}
    if done is not None:
        for line in done[1].splitlines():
            if not line.startswith("{"):
                continue
            d = json.loads(line)
            if "error" in d:
                answers[d["finding"]] = Replay(d["finding"], None, error=str(d["error"]))
            else:
                answers[d["finding"]] = Replay(d["finding"], bool(d["ok"]), str(d["classification"]), str(d["summary"]))
    why = f"replay past {timeout_s:g}s" if done is None else f"replay failed to run: {_last_line(done[2])}"
    return {f: answers.get(f) or Replay(f, None, error=why) for f in finding_dirs}


# ------------------------------------------------------------------ the control


@dataclass
class Controls:
    """The campaign of each strategy on an unmodified copy of `root`, run once and kept.

    Findings go to `store` when one is given (a control finding is a finding of the
    project itself), else to a temporary folder.
    """

    seed: int
    examples: int
    timeout_s: float
    root: Path = ROOT
    store: Path | None = None
    runs: dict[str, CampaignRun] = field(default_factory=dict)

    def get(self, strategy: str) -> CampaignRun:
        if strategy not in self.runs:
            with tempfile.TemporaryDirectory(prefix=f"ember-control-{strategy}-") as tmp:
                copy = Path(tmp) / "tree"
                copy_packages(copy, self.root)
                found_in = self.store if self.store is not None else Path(tmp) / "findings"
                self.runs[strategy] = run_campaign(copy, strategy=strategy, seed=self.seed, examples=self.examples,
                                                   timeout_s=self.timeout_s, findings_dir=found_in)
        return self.runs[strategy]

    def text(self, strategy: str) -> str | None:
        """One line: what the control of `strategy` did (None when it has not run)."""
        run = self.runs.get(strategy)
        if run is None:
            return None
        if run.timed_out:
            return f"past {self.timeout_s:g}s"
        if not run.completed:
            return f"failed to run: {run.error}"
        if not run.found:
            return f"no finding in {run.programs} programs ({run.seconds:.0f}s)"
        first = run.failures[0]
        stored = f" (finding {first.finding})" if self.store is not None else ""
        return f"FOUND after {run.programs} programs: {first.summary}{stored}"


# ------------------------------------------------------------------ one mutant


def run_mutant(
    mutant: Mutant, *, seed: int, examples: int, timeout_s: float, root: Path = ROOT, controls: Controls | None = None
) -> Outcome:
    """The campaign on a mutated copy of `root`, its finding confirmed against `root` itself."""
    if controls is None:
        controls = Controls(seed=seed, examples=examples, timeout_s=timeout_s, root=root)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"ember-mutant-{mutant.name}-") as tmp:
        copy = Path(tmp) / "tree"
        mutated_copy(mutant, copy, root)
        campaign = run_campaign(copy, strategy=mutant.strategy, seed=seed, examples=examples, timeout_s=timeout_s,
                                findings_dir=Path(tmp) / "findings")
        base = Outcome(mutant.name, False, campaign.programs, None, 0.0, file=mutant.path, strategy=mutant.strategy)
        if campaign.timed_out:
            result = _judge_stall(base, controls, timeout_s)
        elif not campaign.completed:  # not a verdict: the campaign itself failed
            result = _verdict(base, SURVIVED, f"campaign failed to run: {campaign.error}")
        elif not campaign.found:
            result = base
        else:
            result = _confirm(base, campaign, copy=copy, root=root, timeout_s=timeout_s)
    return replace(result, seconds=time.perf_counter() - start, control=controls.text(mutant.strategy))


def _verdict(base: Outcome, verdict: str, note: str = "", **changes: Any) -> Outcome:
    return replace(base, verdict=verdict, killed=verdict == KILLED, note=note, **changes)


def _judge_stall(base: Outcome, controls: Controls, timeout_s: float) -> Outcome:
    """A campaign past its timeout: killed by `hang` only when the unmutated campaign finished well within it."""
    control = controls.get(base.strategy)
    stalled = f"campaign past {timeout_s:g}s"
    if control.completed and control.seconds <= timeout_s / 2:
        note = f"{stalled}; the unmutated campaign finished in {control.seconds:.0f}s: the mutant made the compiler hang"
        return _verdict(base, KILLED, note, classification="hang", confirmed=True, finding=f"hang: {stalled}")
    if control.timed_out:
        why = "the unmutated campaign too"
    elif not control.completed:
        why = f"the unmutated campaign failed to run: {control.error}"
    else:
        why = f"the unmutated campaign took {control.seconds:.0f}s, over half of that: inconclusive"
    return _verdict(base, SURVIVED, f"{stalled} ({why})")


def _confirm(base: Outcome, campaign: CampaignRun, *, copy: Path, root: Path, timeout_s: float) -> Outcome:
    """Killed only when a finding passes on the unmutated project and still fails on the mutated copy."""
    found = list(campaign.failures)
    clean = replay([f.finding for f in found], root, timeout_s=timeout_s)
    passing = [f for f in found if clean[f.finding].ok is True]
    if passing:
        again = replay([f.finding for f in passing], copy, timeout_s=timeout_s)
        for f in passing:
            if again[f.finding].ok is False:
                return _verdict(base, KILLED, classification=f.classification, confirmed=True, finding=f.summary)
        f = passing[0]
        r = again[f.finding]
        why = r.error if r.ok is None else "the mutated copy passes it on replay (a flaky verdict)"
        return _verdict(base, UNCONFIRMED, f"unconfirmed: {why}", classification=f.classification, finding=f.summary)
    f = found[0]
    r = clean[f.finding]
    if r.ok is False:
        note = f"false kill: the unmutated project gives {r.classification} too ({r.summary})"
        return _verdict(base, FALSE_KILL, note, classification=f.classification, finding=f.summary)
    return _verdict(base, UNCONFIRMED, f"unconfirmed: on the unmutated project, {r.error}",
                    classification=f.classification, finding=f.summary)


def outcome_json(outcomes: list[Outcome]) -> str:
    return json.dumps([asdict(o) for o in outcomes], indent=1) + "\n"
