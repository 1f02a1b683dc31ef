"""A differential fuzz campaign: Hypothesis draws programs and check plans, `properties.check` judges.

Used by `ember fuzz`, by the pytest campaign in `fuzz/test_campaign.py`, by the power
check and by the benchmark. A failing example is saved to the findings store *before*
the exception that reports it is raised: the first failure at once (nothing is lost if
shrinking is interrupted) and the shrunk one when Hypothesis replays it at the end.

Shrinking gets a time budget: once it is spent, examples not already known to fail
count as passing and Hypothesis' shrinker is stopped (by itself it gives up only after
five minutes, drawing a new program for every attempt), so the smallest failure so far
is reported within seconds.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from hypothesis import Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.control import current_build_context
from hypothesis.internal.conjecture import engine as hypothesis_engine
from hypothesis.reporting import current_reporter, with_reporter

from compiler.backend import split_mode
from fuzz import cross, determinism, findings, properties
from fuzz.profiles import SLOW_CHECKS
from fuzz.regressions import known_bug
from fuzz.strategies import FuzzCase, cases, debuginfo, known_features, plans

#: seconds between progress lines (and `on_progress` calls)
PROGRESS_SECONDS = 10.0


@dataclass(frozen=True)
class CampaignConfig:
    """What a campaign generates, which builds it compares, and where findings go."""

    strategy: str = "mixed"
    modes: tuple[str, ...] = split_mode.SPLITTING
    jobs: tuple[int, ...] = (1, 2)
    opt_levels: tuple[int, ...] = (2, 0, 1, 3)
    max_cost: int = 200
    max_functions: int = 10
    min_functions: int = 1
    opt_check: bool = True
    determinism: bool = True
    candidate: str | None = None
    faults: frozenset[str] = frozenset()
    save_findings: bool = True
    findings_root: Path | None = None
    shrink_seconds: float | None = 30.0
    time_budget: float | None = None
    report_known: bool = False
    #: builds of one program in flight at once (None: properties.default_lanes())
    lanes: int | None = None
    #: `-g` plans (debug-info property): False never, True always, None one plan in `debug_one_in`
    #: (configurations as swarm features: the default campaign's)
    debug: bool | None = None
    #: `--target` of every build (None: the host); fuzz/cross.py links and runs its programs
    target: str | None = None
    debug_one_in: int = plans.DEBUG_ONE_IN
    #: without `target`: one plan in `plans.CROSS_ONE_IN` for AArch64, where its programs can run
    #: here (the host-only strategies and a candidate never)
    cross: bool = True

    def digest(self) -> str:
        """Database key part: campaigns that check different things keep separate examples."""
        fields = asdict(self)
        for volatile in ("save_findings", "findings_root", "shrink_seconds", "time_budget", "report_known", "lanes"):
            fields.pop(volatile)
        for added, default in (("debug", False), ("target", None)):  # campaigns from before the field keep their keys
            if fields[added] is default:
                fields.pop(added)
        fields["faults"] = sorted(self.faults)
        return hashlib.sha256(json.dumps(fields, sort_keys=True, default=str).encode()).hexdigest()[:16]


@dataclass
class CampaignResult:
    """What a campaign found and how long it took."""

    findings: list[Path] = field(default_factory=list)
    #: every distinct failure Hypothesis reported (several when it found several bugs)
    failures: list[properties.DifferentialFailure] = field(default_factory=list)
    stats: properties.Stats = field(default_factory=properties.Stats)
    known: dict[str, int] = field(default_factory=dict)
    #: generator feature -> programs checked that used it (swarm testing's coverage)
    coverage: dict[str, int] = field(default_factory=dict)
    #: one line per program checked, in order: `<program and builds hash> <verdict>`
    trace: list[str] = field(default_factory=list)
    examples_to_failure: int | None = None
    seconds_to_failure: float | None = None
    seconds: float = 0.0

    @property
    def fingerprint(self) -> str:
        """What the campaign generated and judged, in 12 hex digits (equal runs, equal prints)."""
        return hashlib.sha256("\n".join(self.trace).encode()).hexdigest()[:12]

    @property
    def found(self) -> bool:
        return bool(self.failures)

    def coverage_text(self) -> str:
        """Per-feature coverage, rarest first (features the strategy knows but never drew
        included): `feature coverage (programs using it): eh 3, ...`."""
        if not self.coverage:
            return "feature coverage: (no feature information)"
        items = sorted(self.coverage.items(), key=lambda kv: (kv[1], kv[0]))
        return "feature coverage (programs using it): " + ", ".join(f"{k} {n}" for k, n in items)

    @property
    def failure(self) -> properties.DifferentialFailure | None:
        """The most important failure (crash first, as `properties.CLASSIFICATIONS` orders them)."""
        if not self.failures:
            return None
        return min(self.failures, key=lambda f: properties.CLASSIFICATIONS.index(f.classification))


class Campaign:
    """One campaign; `hypothesis_test()` is the property test, `run()` runs it outside pytest."""

    def __init__(
        self,
        config: CampaignConfig,
        *,
        seed: int | None = None,
        name: str = "ember-fuzz",
        progress: Callable[[str], None] | None = None,
        on_finding: Callable[[Path, CampaignResult], None] | None = None,
        on_progress: Callable[[CampaignResult], None] | None = None,
    ) -> None:
        self.config = config
        self.seed = seed
        self.name = name
        self.progress = progress
        #: called with each new finding directory right after it is saved (the fleet uploads it)
        self.on_finding = on_finding
        #: called with the running result every `PROGRESS_SECONDS` (the fleet's coverage picture)
        self.on_progress = on_progress
        self.result = CampaignResult(coverage=dict.fromkeys(known_features(config.strategy), 0))
        self.cases = cases(config.strategy, config.max_functions, config.min_functions)
        self.plans = plans.check_plans(
            modes=config.modes,
            jobs=config.jobs,
            opt_levels=config.opt_levels,
            max_cost=config.max_cost,
            opt_check=config.opt_check,
            determinism=config.determinism,
            candidate=config.candidate,
            debug=config.debug,
            target=config.target,
            debug_one_in=config.debug_one_in,
            swarm_target=cross.AARCH64 if swarm_cross(config) else None,
            swarm_target_runs=cross.missing() is None,
        )
        self._failing: dict[str, properties.Report] = {}
        #: keys (`_key`) of the programs and builds that passed
        self._passed: set[str] = set()
        self._start = time.perf_counter()
        self._first_failure: float | None = None
        #: examples of the generate phase not checked because the time budget was spent
        self._skipped_for_time = 0
        self._last_progress = self._start

    # ---------------------------------------------------------------- the property

    def body(self, data: st.DataObject) -> None:
        """One example: draw a program and a plan, check, save and raise on a failure."""
        now = time.perf_counter()
        stats = self.result.stats
        # draw before the time check: an example that stops drawing early on a replay is
        # "inconsistent data generation" to Hypothesis (FlakyStrategyDefinition)
        case: FuzzCase = data.draw(self.cases, label="program")
        plan: properties.CheckPlan = data.draw(self.plans, label="builds")
        case = configured(case, plan, data)
        if self._first_failure is None and self.config.time_budget is not None and now - self._start > self.config.time_budget:
            self._skipped_for_time += 1  # Hypothesis stops generating after this one (`_stopped_when_out_of_time`)
            return  # out of time: the remaining examples are not checked
        drawn = time.perf_counter() - now
        stats.generation += drawn
        stats.wall += drawn
        key = self._key(case, plan)
        report = self._failing.get(key)
        if report is None:
            if self._shrink_budget_spent():
                return  # shrinking has had its time: only already-known failures still fail
            if key in self._passed:  # the same program and builds again: not built again
                stats.examples += 1
                self._record(case, key, "ok")
                return
            report = properties.check(case, plan, faults=self.config.faults, stats=stats, lanes=self.config.lanes)
            known = None if report.ok or self.config.report_known else known_bug(report)
            self._record(case, key, _verdict(report, known))
            self._tick()
            if report.ok:
                self._passed.add(key)
                return
            if known is not None:
                self.result.known[known] = self.result.known.get(known, 0) + 1
                return
            self._failing[key] = report
            if self._first_failure is None:
                self._first_failure = time.perf_counter()
                self.result.examples_to_failure = stats.examples
                self.result.seconds_to_failure = self._first_failure - self._start
        path = None
        if self.config.save_findings and (not self.result.findings or _is_final()):
            path = findings.save(report, root=self.config.findings_root, seed=self.seed, test=self.name)
            if path not in self.result.findings:
                self.result.findings.append(path)
                if self.on_finding is not None:
                    self.on_finding(path, self.result)
        raise properties.failure_exception(report, path)

    def hypothesis_test(self, test_settings: settings | None = None) -> Callable[[], None]:
        """The campaign as a Hypothesis test (its database key depends on the config).

        Without explicit settings it runs under the loaded profile (`fuzz.profiles`): a
        derandomised profile means a fixed seed plus the example database.
        """
        if test_settings is None:
            from fuzz.profiles import campaign_settings

            test_settings, profile_seed = campaign_settings(f"{self.name}:{self.config.digest()}")
            if self.seed is None:
                self.seed = profile_seed

        def ember_campaign(data: st.DataObject) -> None:
            self.body(data)

        ember_campaign._hypothesis_internal_add_digest = self.config.digest().encode()  # type: ignore[attr-defined]
        test: Callable[..., None] = given(st.data())(ember_campaign)
        if self.seed is not None:  # before the settings: `seed` alone would switch the database off
            test = hypothesis_seed(self.seed)(test)
        if test_settings is not None:
            test = test_settings(test)
        return self._wrapped(test)

    def _wrapped(self, test: Callable[[], None]) -> Callable[[], None]:
        """`test`, drawing from the seed alone (`fuzz.determinism`), every program a fresh draw
        (`_without_span_mutations`), with Hypothesis' shrinker stopped once the campaign's shrink
        budget is spent."""
        shrink_seconds = self.config.shrink_seconds

        @functools.wraps(test)  # keeps Hypothesis' attributes: pytest still sees a Hypothesis test
        def wrapped() -> None:
            with determinism.seed_only(), _without_span_mutations(), contextlib.ExitStack() as stack:
                if shrink_seconds is not None:
                    stack.enter_context(_shrinking_limited_to(shrink_seconds))
                if self.config.time_budget is not None:
                    stack.enter_context(_stopped_when_out_of_time(self))
                test()

        return wrapped

    def run(self, *, examples: int, database: object = None, shrink: bool = True) -> CampaignResult:
        """Run the campaign outside pytest; a failure is caught and returned in the result."""
        phases = [Phase.explicit, Phase.reuse, Phase.generate] + ([Phase.shrink] if shrink else [])
        test_settings = settings(
            settings.get_profile("default"),  # not whichever profile this process loaded (Hypothesis' `ci` when $CI is set)
            max_examples=examples,
            deadline=None,
            database=database,  # type: ignore[arg-type]
            phases=phases,
            suppress_health_check=SLOW_CHECKS,
            print_blob=True,
            report_multiple_bugs=True,
        )
        self._start = time.perf_counter()
        try:
            self.hypothesis_test(test_settings)()
        except (properties.DifferentialFailure, BaseExceptionGroup) as exc:
            self.result.failures = differential_failures(exc)
            if not self.result.failures:
                raise
        self.result.seconds = time.perf_counter() - self._start
        return self.result

    # ---------------------------------------------------------------- helpers

    def _record(self, case: FuzzCase, key: str, verdict: str) -> None:
        """Count a judged program in the coverage and the trace."""
        for feature in case.features:
            self.result.coverage[feature] = self.result.coverage.get(feature, 0) + 1
        self.result.trace.append(f"{key[:16]} {verdict}")

    def _shrink_budget_spent(self) -> bool:
        if self._first_failure is None or self.config.shrink_seconds is None:
            return False
        return time.perf_counter() - self._first_failure > self.config.shrink_seconds

    def _tick(self) -> None:
        now = time.perf_counter()
        if now - self._last_progress < PROGRESS_SECONDS:
            return
        self._last_progress = now
        self.result.seconds = now - self._start
        if self.on_progress is not None:
            self.on_progress(self.result)
        if self.progress is not None:
            s = self.result.stats
            self.progress(
                f"{now - self._start:.0f}s: {s.examples} programs, {s.checks} checks, "
                f"{len(self._failing)} failing, {sum(self.result.known.values())} known"
            )

    @staticmethod
    def _key(case: FuzzCase, plan: properties.CheckPlan) -> str:
        h = hashlib.sha256(case.module.encode())
        h.update((case.support or "").encode())
        h.update(json.dumps(plan.to_json(), sort_keys=True).encode())
        return h.hexdigest()


#: strategies whose programs only run on the host (the GPU emulator, x86-64 corpus bitcode)
HOST_ONLY = ("kernels", "corpus")


def swarm_cross(config: CampaignConfig) -> bool:
    """Whether the campaign draws a share of its plans for AArch64 (`CampaignConfig.cross`)."""
    return config.cross and config.target is None and config.candidate is None and config.strategy not in HOST_ONLY


def configured(case: FuzzCase, plan: properties.CheckPlan, data: st.DataObject) -> FuzzCase:
    """`case` as the plan's configuration builds it: a `-g` plan gives an LLVM IR program debug
    info of its own (`fuzz.strategies.debuginfo`; an Ember program has the front end's, a
    corpus slice clang's: its `debug_twin`, the same slice of the program's `-g` build); the
    configuration is a feature of the program (`cfg-g`, `cfg-aarch64`, `dbg-*`)."""
    extra: tuple[str, ...] = ()
    if plan.debug:
        extra += ("cfg-g",)
        if case.debug_twin is not None:
            case = case.debug_twin()
        elif not case.is_ember and case.origin != "corpus":
            module, dbg = debuginfo.decorate(case.module, data.draw(debuginfo.debug_seeds(), label="debug info"))
            case = replace(case, module=module)
            extra += dbg
    if plan.target == cross.AARCH64:
        extra += ("cfg-aarch64",)
    return replace(case, features=case.features + extra) if extra else case


_SLOW_SHRINK_WARNING = "Hypothesis has spent more than five minutes working to shrink"


@contextmanager
def _shrinking_limited_to(seconds: float) -> Iterator[None]:
    """Stop Hypothesis' shrink phase after `seconds` (its own limit is five minutes).

    Hypothesis has no public setting for this; its engine reads the module constant
    `MAX_SHRINKING_SECONDS` when shrinking starts (pinned version; a test checks that the
    shrinking really stops). Its "more than five minutes" warning is then wrong: dropped.
    """
    outer = current_reporter()

    def report(text: object) -> None:
        if _SLOW_SHRINK_WARNING not in str(text):
            outer(text)

    saved = hypothesis_engine.MAX_SHRINKING_SECONDS
    hypothesis_engine.MAX_SHRINKING_SECONDS = seconds  # type: ignore[assignment]
    try:
        with with_reporter(report):
            yield
    finally:
        hypothesis_engine.MAX_SHRINKING_SECONDS = saved


def _verdict(report: properties.Report, known: str | None) -> str:
    """`ok`, the failure's classification, or `known:<bug>` for a known open bug."""
    return f"known:{known}" if known is not None else report.classification


@contextmanager
def _without_span_mutations() -> Iterator[None]:
    """Hypothesis' generate phase without its span-copying mutator (pinned version).

    After each fresh example Hypothesis runs up to five copies of it with one span pasted
    over another of the same label. A campaign program costs about six builds, and those
    copies kept the first program's swarm configuration: at seed 5 the 35 linkage programs
    of 200 were 5 feature sets, 7 near-identical programs each, and 25% of all programs
    were exact repeats. Without it every program is a fresh draw (190 of 200 distinct).
    """
    runner = hypothesis_engine.ConjectureRunner
    saved = runner.generate_mutations_from
    runner.generate_mutations_from = _no_mutations  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        runner.generate_mutations_from = saved  # type: ignore[method-assign]


@contextmanager
def _stopped_when_out_of_time(campaign: Campaign) -> Iterator[None]:
    """End Hypothesis' generate phase once the campaign's time budget is spent (pinned version).

    Without this, a campaign with many examples left (`--examples 100000 --time-budget 60`,
    or a pytest shard's 2,000 under `$EMBER_CAMPAIGN_SECONDS`) went on drawing every
    remaining program after its budget, unchecked, for minutes. Hypothesis has no public
    way to stop early; its engine asks `should_generate_more()` before each new example.
    After the first example the campaign skipped for time (counted from the start of the
    generate phase, so a long reuse phase does not trip the engine's own assertion) it
    answers no, unless a failure was found (then shrinking proceeds as before).
    """
    runner = hypothesis_engine.ConjectureRunner
    saved_more, saved_generate = runner.should_generate_more, runner.generate_new_test_cases

    def should_generate_more(self: hypothesis_engine.ConjectureRunner) -> bool:
        if campaign._skipped_for_time and campaign._first_failure is None:
            return False
        return saved_more(self)

    def generate_new_test_cases(self: hypothesis_engine.ConjectureRunner) -> None:
        campaign._skipped_for_time = 0
        saved_generate(self)

    runner.should_generate_more = should_generate_more  # type: ignore[method-assign]
    runner.generate_new_test_cases = generate_new_test_cases  # type: ignore[method-assign]
    try:
        yield
    finally:
        runner.should_generate_more = saved_more  # type: ignore[method-assign]
        runner.generate_new_test_cases = saved_generate  # type: ignore[method-assign]


def _no_mutations(runner: object, data: object) -> None:
    """Stands in for `ConjectureRunner.generate_mutations_from`: no copies of `data`."""


def differential_failures(exc: BaseException) -> list[properties.DifferentialFailure]:
    """The DifferentialFailures in what a Hypothesis test raised (one, or a group of distinct bugs)."""
    if isinstance(exc, properties.DifferentialFailure):
        return [exc]
    if isinstance(exc, BaseExceptionGroup):
        return [f for e in exc.exceptions for f in differential_failures(e)]
    return []


def _is_final() -> bool:
    """True while Hypothesis replays the shrunk example it is about to report."""
    try:
        return bool(current_build_context().is_final)
    except Exception:
        return False
