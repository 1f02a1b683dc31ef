"""The data of a differential check: build configurations, plans (and reading a recorded plan
back, every field checked), outcomes, classified failures, stats and the report."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from compiler import driver
from compiler.backend import split_mode
from compiler.backend.split_mode import SplitMode
from compiler.diagnostics import EmberError
from fuzz import cross
from fuzz.faults import hooks_for as fault_hooks
from fuzz.strategies import FuzzCase
from oracle import runner, symtab

#: In the order a report's headline picks them.
CLASSIFICATIONS = ("crash", "hang", "wrong-output", "symbol-difference", "nondeterminism", "debug-info")
#: Generated programs finish in milliseconds: anything near this is a hang.
RUN_LIMITS = runner.Limits(timeout_s=10.0, memory_mb=1024, cpu_s=20, output_mb=16)
WORKER_TIMEOUT = 120.0
#: Interpreter limits for generated Ember programs (they need a few thousand steps).
INTERP_FUEL = 5_000_000
INTERP_LABEL = "interpreter"


@dataclass(frozen=True)
class BuildConfig:
    """One way of compiling the module: Ember with options, or an external candidate command."""

    split: str = SplitMode.NONE
    jobs: int = 1
    opt: int = 2
    cost: int | None = None
    candidate: str | None = None
    piece_cost: int | None = None  # level-2 codegen piece cost (None: the planner's default)
    debug: bool = False  # `-g`
    target: str | None = None  # `--target` (None: the host; fuzz/cross.py links and runs the others)

    @property
    def label(self) -> str:
        if self.candidate == INTERP_LABEL:
            return INTERP_LABEL
        if self.candidate is not None:
            return f"candidate -O{self.opt}"
        parts = [f"--split {self.split}", f"-O{self.opt}", *(["-g"] if self.debug else [])]
        if self.split != "none":
            parts.insert(1, f"-j{self.jobs}")
            if self.cost is not None:
                parts.append(f"--split-cost {self.cost}")
            if self.piece_cost is not None:
                parts.append(f"--split-piece-cost {self.piece_cost}")
        if self.target is not None:
            parts.append(f"--target {self.target}")
        return " ".join(parts)

    @property
    def slug(self) -> str:
        """The label as a directory name."""
        return "-".join(p.lstrip("-").replace(" ", "") for p in self.label.split(" ") if p).replace("split-", "")

    def options(self, faults: frozenset[str] = frozenset()) -> driver.BuildOptions:
        return driver.BuildOptions(
            opt_level=self.opt,
            split=self.split,
            jobs=self.jobs,
            subgraph_cost=self.cost,
            piece_cost=self.piece_cost,
            worker_timeout=WORKER_TIMEOUT,
            hooks=fault_hooks(faults) if self.split != SplitMode.NONE else None,
            debug_info=self.debug,
            target=self.target,
        )

    def command(self, inp: str, out: str) -> str:
        """The exact shell command that makes this build."""
        if self.candidate == INTERP_LABEL:
            return f"ember interp {inp}"
        if self.candidate is not None:
            from oracle.candidate import CandidateCommand

            return CandidateCommand(self.candidate).render(inp, out)
        # the build drops an IR input's own debug info without -g; `ember build` keeps it unless -g0
        no_debug = ["-g0"] if inp.endswith((".ll", ".bc")) else []
        words = ["ember", "build", inp, "-o", out, "--split", self.split, f"-O{self.opt}", *(["-g"] if self.debug else no_debug)]
        if self.split != "none":
            words += ["-j", str(self.jobs)]
            if self.cost is not None:
                words += ["--split-cost", str(self.cost)]
            if self.piece_cost is not None:
                words += ["--split-piece-cost", str(self.piece_cost)]
        if self.target is not None:
            words += ["--target", self.target]
        return " ".join(words)


REFERENCE = BuildConfig()
#: level-2 piece costs a plan draws from (besides the default): 1 puts every function in a piece of its own
PIECE_COSTS = (1, 8, 30, 100, 250)


@dataclass
class BuildOutcome:
    """One build and (lazily) its run."""

    config: BuildConfig
    obj: bytes | None = None
    error: str | None = None
    hang: bool = False
    seconds: float = 0.0
    symbols: list[symtab.Symbol] | None = None
    relocations: list[symtab.Relocation] | None = None
    run: runner.RunResult | None = None
    run_error: str | None = None

    @property
    def behaviour(self) -> tuple[str, bytes] | None:
        return None if self.run is None else (self.run.outcome, self.run.stdout)


@dataclass(frozen=True)
class Failure:
    """One classified disagreement between a build and its reference."""

    classification: str
    reference: str
    candidate: str
    summary: str
    detail: str = ""
    #: for a build that failed: what failed, without file names or positions (`error_cause`)
    cause: str = ""


@dataclass
class Stats:
    """Where the time went (seconds per stage) and how many checks ran."""

    generation: float = 0.0
    compile: float = 0.0
    run: float = 0.0
    compare: float = 0.0
    #: wall-clock seconds of generation and checking (the stages above overlap within a check)
    wall: float = 0.0
    checks: int = 0
    examples: int = 0
    builds: int = 0
    runs: int = 0

    def add(self, other: Stats) -> None:
        for name, value in asdict(other).items():
            setattr(self, name, getattr(self, name) + value)

    @property
    def busy(self) -> float:
        return self.generation + self.compile + self.run + self.compare

    def render(self) -> str:
        busy = self.busy or 1e-9
        parts = [
            f"{name} {getattr(self, name):.2f}s ({100 * getattr(self, name) / busy:.0f}%)"
            for name in ("generation", "compile", "run", "compare")
        ]
        return (
            f"{self.examples} examples, {self.checks} checks, {self.builds} builds, {self.runs} runs; "
            f"{self.checks / (self.wall or busy):.1f} checks/s; busy time " + ", ".join(parts)
        )


@dataclass(frozen=True)
class CheckPlan:
    """What to compare for one module: split configurations at one -O, plus the -O0/-O2 check."""

    opt: int = 2
    cost: int | None = None
    configs: tuple[BuildConfig, ...] = ()
    opt_check: bool = True
    #: `-g`: the reference is built with -g too, and each split object's DWARF is checked against it
    debug: bool = False
    #: `--target` of every build (None: the host); the programs are linked and run for it (fuzz/cross.py)
    target: str | None = None

    @property
    def reference(self) -> BuildConfig:
        return BuildConfig(opt=self.opt, debug=self.debug, target=self.target)

    def __repr__(self) -> str:
        checks = "; ".join(c.label for c in self.configs)
        return f"CheckPlan(reference {self.reference.label}; {checks}{'; -O check' if self.opt_check else ''})"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:  # Hypothesis' pretty printer
        p.text(repr(self))

    def to_json(self) -> dict[str, object]:
        return {"opt": self.opt, "cost": self.cost, "opt_check": self.opt_check, "debug": self.debug, "target": self.target,
                "configs": [asdict(c) for c in self.configs]}

    @staticmethod
    def from_json(data: object) -> CheckPlan:
        """The plan a finding recorded; anything malformed is a ValueError saying which field."""
        if not isinstance(data, dict):
            raise ValueError(f"plan: expected an object, got {_json_type(data)}")
        configs = data.get("configs", [])
        if not isinstance(configs, list):
            raise ValueError(f"plan.configs: expected a list, got {_json_type(configs)}")
        opt_check = data.get("opt_check", True)
        if not isinstance(opt_check, bool):
            raise ValueError(f"plan.opt_check: expected true or false, got {opt_check!r}")
        debug = data.get("debug", False)
        if not isinstance(debug, bool):
            raise ValueError(f"plan.debug: expected true or false, got {debug!r}")
        return CheckPlan(
            _opt_level(data.get("opt", 2), "plan.opt"),
            _optional_count(data.get("cost"), "plan.cost"),
            tuple(_config_from_json(c, f"plan.configs[{i}]") for i, c in enumerate(configs)),
            opt_check,
            debug,
            _target(data.get("target"), "plan.target"),
        )


def _json_type(value: object) -> str:
    """What a JSON value is, in JSON's words."""
    names = {dict: "an object", list: "a list", str: "text", bool: "true/false", int: "a number", float: "a number"}
    return names.get(type(value), "null")


def _opt_level(value: object, where: str) -> int:
    if type(value) is not int or not 0 <= value <= 3:
        raise ValueError(f"{where}: expected an optimisation level 0..3, got {value!r}")
    return value


def _optional_count(value: object, where: str) -> int | None:
    if value is None:
        return None
    if type(value) is not int or value < 1:
        raise ValueError(f"{where}: expected a whole number at least 1, got {value!r}")
    return value


def _config_from_json(data: object, where: str) -> BuildConfig:
    """One recorded build configuration, every field checked (a finding may have been edited)."""
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected an object, got {_json_type(data)}")
    unknown = sorted(set(data) - {f.name for f in fields(BuildConfig)})
    if unknown:
        raise ValueError(f"{where}: unknown field '{unknown[0]}'")
    split = data.get("split", "none")
    allowed = (SplitMode.NONE, *split_mode.SPLITTING)
    if split not in allowed:
        raise ValueError(f"{where}.split: expected one of {', '.join(allowed)}, got {split!r}")
    candidate = data.get("candidate")
    if candidate is not None:
        if not isinstance(candidate, str):
            raise ValueError(f"{where}.candidate: expected a command template, got {candidate!r}")
        if candidate != INTERP_LABEL:
            from oracle.candidate import CandidateCommand

            try:
                CandidateCommand(candidate)
            except EmberError as exc:
                raise ValueError(f"{where}.candidate: {exc.message}") from None
    jobs = _optional_count(data.get("jobs", 1), f"{where}.jobs")  # the pool caps it on this machine
    if jobs is None:
        raise ValueError(f"{where}.jobs: expected a whole number at least 1, got null")
    return BuildConfig(
        split=str(split),
        jobs=jobs,
        opt=_opt_level(data.get("opt", 2), f"{where}.opt"),
        cost=_optional_count(data.get("cost"), f"{where}.cost"),
        candidate=candidate,
        piece_cost=_optional_count(data.get("piece_cost"), f"{where}.piece_cost"),
        debug=_flag(data.get("debug", False), f"{where}.debug"),
        target=_target(data.get("target"), f"{where}.target"),
    )


def _target(value: object, where: str) -> str | None:
    """A recorded `--target`: null (the host) or a target the harness can run (fuzz/cross.py)."""
    if value is None:
        return None
    if value not in cross.RUNNABLE:
        raise ValueError(f"{where}: expected null or one of {', '.join(cross.RUNNABLE)}, got {value!r}")
    return str(value)


def _flag(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{where}: expected true or false, got {value!r}")
    return value


@dataclass
class Report:
    """Every build of one check and what disagreed."""

    case: FuzzCase
    plan: CheckPlan
    faults: frozenset[str]
    builds: dict[str, BuildOutcome] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    checks: int = 0

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def classification(self) -> str:
        found = {f.classification for f in self.failures}
        return next((c for c in CLASSIFICATIONS if c in found), "ok")

    def summary(self) -> str:
        if self.ok:
            return f"{self.checks} checks agree"
        return "; ".join(f"{f.classification}: {f.summary}" for f in self.failures[:4]) + (
            f" (+{len(self.failures) - 4} more)" if len(self.failures) > 4 else ""
        )

    def diff_text(self) -> str:
        blocks = []
        for f in self.failures:
            blocks.append(f"== {f.classification}: {f.reference}  vs  {f.candidate}\n{f.summary}\n{f.detail}".rstrip())
        return "\n\n".join(blocks) + "\n"
