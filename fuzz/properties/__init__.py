"""The differential properties: what split, -j, -O and candidate builds must agree on.

One *check* compares one build with its reference: behaviour (stdout and exit status of
the linked program), the symbol-table normal form (`symdiff`), or the object bytes.
`check(case, plan)` builds the reference (`--split none` at the plan's -O), then every
configuration of the plan, and returns a `Report` whose failures are classified:

- `crash`: the compiler, a worker, the assembler or the link failed (or the program
  died of a signal where the reference did not);
- `hang`: a worker or the program ran past its time limit where the reference did not;
- `wrong-output`: stdout or exit status differ from the reference;
- `symbol-difference`: a non-local symbol differs or a local leaked (contract 1);
- `nondeterminism`: the same configuration gave different bytes for another `-j`.

An Ember program (`case.is_ember`) is judged against the reference interpreter first:
every build's behaviour must equal the interpreter's (`interpreter == compiled`), and
split builds must also equal `--split none` at the symbol level.

Builds run through `driver.build` in a long-lived build server (`fuzz.buildserver`:
warm LLVM and worker pools, and a compiler that exits or hangs cannot take the harness
down); runs are cached by the object's hash, so identical objects run once. A check's
builds, links and runs go on in `lanes` threads at once (each thread on a build server
of its own), while the main thread interprets and compares; the verdicts are the same
as a sequential check's, since every comparison still happens in plan order.

The package, one job per file (`from fuzz.properties import X` works for every name below):

- `model.py`: configurations, plans (and reading a recorded plan back), outcomes, failures,
  stats, the report;
- `failures.py`: a failed report as an exception (`Crash`, `WrongOutput`, ...);
- `signature.py`: how a check failed, as the reducer preserves it;
- `build_runner.py`: `BuildRunner`, the build/run cache with its lanes;
- `exports.py`: the program's `@export` list against its object;
- `checks.py`: the property itself, `check(case, plan)`;
- `compare.py`: `compare_file`, `ember compare`'s check of an external candidate.

The Hypothesis strategy that draws plans is `fuzz.strategies.plans.check_plans`.
"""

from __future__ import annotations

from fuzz.properties.build_runner import (
    BUILD_TIMEOUT,
    EMBER_BUILD_TIMEOUT,
    MAX_LANES,
    BuildRunner,
    default_lanes,
)
from fuzz.properties.checks import check
from fuzz.properties.compare import compare_file
from fuzz.properties.exports import SOURCE_LABEL, export_failures, exported_names
from fuzz.properties.failures import (
    EXCEPTIONS,
    Crash,
    DifferentialFailure,
    Hang,
    Nondeterminism,
    SymbolDifference,
    WrongOutput,
    failure_exception,
)
from fuzz.properties.model import (
    CLASSIFICATIONS,
    INTERP_FUEL,
    INTERP_LABEL,
    PIECE_COSTS,
    REFERENCE,
    RUN_LIMITS,
    WORKER_TIMEOUT,
    BuildConfig,
    BuildOutcome,
    CheckPlan,
    Failure,
    Report,
    Stats,
)
from fuzz.properties.signature import Signature, error_cause, render_signature, signature

__all__ = [
    "BUILD_TIMEOUT", "CLASSIFICATIONS", "EMBER_BUILD_TIMEOUT", "EXCEPTIONS", "INTERP_FUEL", "INTERP_LABEL",
    "MAX_LANES", "PIECE_COSTS", "REFERENCE", "RUN_LIMITS", "SOURCE_LABEL", "WORKER_TIMEOUT",
    "BuildConfig", "BuildOutcome", "BuildRunner", "CheckPlan", "Crash", "DifferentialFailure", "Failure", "Hang",
    "Nondeterminism", "Report", "Signature", "Stats", "SymbolDifference", "WrongOutput",
    "check", "compare_file", "default_lanes", "error_cause", "export_failures", "exported_names",
    "failure_exception", "render_signature", "signature",
]  # fmt: skip
