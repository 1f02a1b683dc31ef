"""A failed check as an exception: its class names the headline classification, and it
carries the saved finding (written before it is raised)."""

from __future__ import annotations

from pathlib import Path

from fuzz.properties.model import Report


class DifferentialFailure(AssertionError):
    """A check failed; `finding` is the saved reproducer (written before this is raised)."""

    classification = "failure"

    def __init__(self, report: Report, finding: Path | None = None) -> None:
        self.report = report
        self.finding = finding
        where = f"\nfinding saved: {finding}" if finding else ""
        super().__init__(f"{report.classification}: {report.summary()}{where}\n\n{report.diff_text()}")


class Crash(DifferentialFailure):
    classification = "crash"


class Hang(DifferentialFailure):
    classification = "hang"


class WrongOutput(DifferentialFailure):
    classification = "wrong-output"


class SymbolDifference(DifferentialFailure):
    classification = "symbol-difference"


class Nondeterminism(DifferentialFailure):
    classification = "nondeterminism"


class DebugInfoDifference(DifferentialFailure):
    classification = "debug-info"


EXCEPTIONS: dict[str, type[DifferentialFailure]] = {
    cls.classification: cls for cls in (Crash, Hang, WrongOutput, SymbolDifference, Nondeterminism, DebugInfoDifference)
}


def failure_exception(report: Report, finding: Path | None = None) -> DifferentialFailure:
    """The exception for a failed report (its class names the headline classification)."""
    return EXCEPTIONS[report.classification](report, finding)
