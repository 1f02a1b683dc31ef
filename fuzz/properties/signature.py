"""How a check failed, as the reducer preserves it: classification, both sides and the cause
of each failure, without file names or positions."""

from __future__ import annotations

import re
from collections.abc import Iterable

from fuzz.properties.model import Report

#: `file:line:col: error: ` (or `file: error: `) in front of a rendered diagnostic
_LOCATED = re.compile(r"^(?:[^:\n]*:(?:\d+:)*\s*)?(?:error|internal error):\s*")


def error_cause(error: str) -> str:
    """What a failed build's error says failed, without where: the first line's message up
    to its first colon (`object link`, `worker crashed`), so two candidates that fail
    the same way agree even though their file names and positions differ."""
    first = error.strip().splitlines()[0] if error.strip() else ""
    return _LOCATED.sub("", first).split(":")[0].strip()


Signature = frozenset[tuple[str, str, str, str]]


def signature(report: Report, classifications: Iterable[str] | None = None) -> Signature:
    """How a check failed, as the reducer preserves it: (classification, reference,
    candidate, cause) of each failure, optionally only of some classifications."""
    wanted = None if classifications is None else set(classifications)
    return frozenset(
        (f.classification, f.reference, f.candidate, f.cause)
        for f in report.failures
        if wanted is None or f.classification in wanted
    )


def render_signature(sig: Signature) -> str:
    """One line per failure: `crash: --split none -O2 vs --split two-level -j2 -O2 (object link)`."""
    return "; ".join(f"{c}: {r} vs {k}" + (f" ({why})" if why else "") for c, r, k, why in sorted(sig))
