"""What a reduction preserves: a failure of the fuzz properties' check, or an interestingness script.

A candidate is judged by `fuzz.properties.check`, the same builds, runs, comparisons and
failure classes as a campaign (so a finding and its reduction speak one vocabulary);
`--property` picks which of its failure classes must stay.
"""

from __future__ import annotations

import dataclasses
import errno
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from compiler import children, driver
from compiler.backend.split_mode import SplitMode
from compiler.diagnostics import EmberError, Location, UsageError

if TYPE_CHECKING:
    from fuzz import properties
    from oracle import runner

# `fuzz.properties` (and with it Hypothesis and the whole harness: ~2 s) is imported where a
# built-in property runs, not here: a `--test` reduction of a 300-function module takes
# about as long as that import.

#: `--property` values: the check's failure classes, or `any` (the check fails; its headline class is kept)
CLASSES: dict[str, tuple[str, ...] | None] = {
    "any": None,
    "crash": ("crash",),
    "hang": ("hang",),
    "wrong-output": ("wrong-output",),
    "symbol-difference": ("symbol-difference",),
}
#: the names the reducer used before it shared the properties' classes (still accepted)
ALIASES = {
    "split-mismatch": "any",
    "symtab-mismatch": "symbol-difference",
    "output-mismatch": "wrong-output",
    "interp-mismatch": "any",
}
PROPERTIES = (*CLASSES, *ALIASES)
#: an LLVM module with a `main` is linked and run; one without is judged on its symbols
_DEFINES_MAIN = re.compile(r"^define [^@\n]*@main\(", re.M)


@dataclass(frozen=True)
class Settings:
    """How candidates are built when checking a built-in property."""

    split: str = SplitMode.TWO_LEVEL
    jobs: int = 1
    opt_level: int = 2
    subgraph_cost: int | None = None
    timeout_s: float = 10.0
    faults: frozenset[str] = frozenset()

    def plan(self) -> properties.CheckPlan:
        """The check: the reference `--split none` build against this split build, at one -O."""
        from fuzz import properties

        config = properties.BuildConfig(self.split, self.jobs, self.opt_level, self.subgraph_cost)
        return properties.CheckPlan(self.opt_level, self.subgraph_cost, (config,), opt_check=False)

    def limits(self) -> runner.Limits:
        from fuzz import properties

        return dataclasses.replace(properties.RUN_LIMITS, timeout_s=self.timeout_s)


@dataclass(frozen=True)
class Judgement:
    """One candidate's check: the preserved part of its failures, or why it has none."""

    report: properties.Report
    signature: properties.Signature
    #: the reference (unsplit build, its run, or the interpreter) failed: nothing to compare
    reference_failure: str | None = None

    @property
    def text(self) -> str | None:
        from fuzz import properties

        return properties.render_signature(self.signature) if self.signature else None


def classes_of(prop: str) -> tuple[str, ...] | None:
    """The failure classes `prop` preserves (None: every class)."""
    name = ALIASES.get(prop, prop)
    if name not in CLASSES:
        raise UsageError(f"unknown property '{prop}' (choose from {', '.join(PROPERTIES)})")
    return CLASSES[name]


def judge(path: Path, prop: str, s: Settings, task_cache: Path | None = None) -> Judgement:
    """Run the check on the file at `path` and keep the failures of `prop`'s classes.

    With deliberate faults, a failure counts only if the same check without them passes,
    so a reducer does not drift to programs that differ anyway (an address printed,
    undefined behaviour). `task_cache`: the reduction's folder of compiled subgraphs
    (`fuzz.task_cache`), shared by its candidates' split builds."""
    from fuzz import properties
    from fuzz.strategies import FuzzCase

    classes = classes_of(prop)
    is_ember = driver.input_kind(str(path)) is driver.InputKind.EMBER
    if prop == "interp-mismatch" and not is_ember:
        raise EmberError("interp-mismatch needs an Ember (.em) program", Location(str(path)))
    text = path.read_text()
    origin = "ember" if is_ember else ("reduce" if _DEFINES_MAIN.search(text) else "library")
    case = FuzzCase(text, None, origin)
    report = properties.check(case, s.plan(), faults=s.faults, limits=s.limits(), task_cache=task_cache)
    broken = next((f for f in report.failures if f.reference == "-"), None)
    if broken is not None:
        return Judgement(report, frozenset(), broken.summary)
    # `any`: the headline class, the one a finding is named by (crash, hang, wrong-output,
    # symbol-difference, nondeterminism); a lesser difference that comes and goes with it
    # (a symbol's size next to a wrong output) need not stay
    sig = properties.signature(report, classes if classes is not None else (report.classification,))
    if sig and s.faults:
        control = properties.check(case, s.plan(), faults=frozenset(), limits=s.limits(), task_cache=task_cache)
        if not control.ok:
            return Judgement(report, frozenset())
    return Judgement(report, sig)


def signature(path: Path, prop: str, s: Settings) -> str | None:
    """The preserved failures of `path` under `prop` as one line, or None when it does not
    fail that way (a reference that fails is not interesting either)."""
    return judge(path, prop, s).text


def script_says_interesting(
    script: str, candidate_text: str, suffix: str, timeout_s: float, on_timeout: Callable[[], None] | None = None
) -> bool:
    """llvm-reduce's `--test`: exit 0 = interesting; the candidate path is the last argument.

    The script runs in its own process group, killed whole on timeout (then `on_timeout` is
    called and the candidate counts as not interesting); a script that cannot be run at all
    is a usage error."""
    with tempfile.TemporaryDirectory(prefix="ember-reduce-") as tmp:
        path = Path(tmp) / f"candidate{suffix}"
        path.write_text(candidate_text)
        try:
            proc = children.run_captured([script, str(path)], timeout=timeout_s)
        except OSError as exc:
            hint = " (no '#!' line?)" if exc.errno == errno.ENOEXEC else ""
            raise UsageError(f"--test {script}: cannot run it: {exc.strerror}{hint}") from None
        if proc.timed_out and on_timeout is not None:
            on_timeout()
        return proc.returncode == 0 and not proc.timed_out
