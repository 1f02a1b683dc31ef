"""Minimal reproducers of back-end bugs the harness found, and how to recognise the open ones.

Every `.ll` here is the smallest module we have for one bug (its header says what went
wrong and how to reproduce it); `tests/test_fuzz_regressions.py` checks that each builds
to the same behaviour and symbols in every split mode as with `--split none`. Every
`.em` is an Ember program: compiled at -O0 and -O2 (and split) it must behave as the
reference interpreter says.

While a bug is open, add it to `KNOWN_BUGS` with a recogniser: its test becomes a strict
xfail (it XPASSes, and so fails, once the back end is fixed: then remove the entry), and
campaigns count reports that consist only of that bug as *known* instead of saving a new
finding for every example that hits it (`ember fuzz --report-known` saves them anyway).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from fuzz import properties

HERE = Path(__file__).parent
#: every LLVM IR reproducer, fixed or open
REPRODUCERS: tuple[Path, ...] = tuple(sorted(HERE.glob("*.ll")))
#: every Ember reproducer, fixed or open
EMBER_REPRODUCERS: tuple[Path, ...] = tuple(sorted(HERE.glob("*.em")))
#: reproducers of AArch64-only back-end bugs (aarch64/): built for AArch64 at -O1..-O3 in
#: every split mode by tests/test_fuzz_cross.py (skipped without the cross tools)
AARCH64_REPRODUCERS: tuple[Path, ...] = tuple(sorted((HERE / "aarch64").glob("*.ll")))


@dataclass(frozen=True)
class KnownBug:
    """An open bug: its reproducer and a recogniser for the failures it causes."""

    name: str
    reproducer: Path
    description: str
    matches: Callable[[properties.Report, properties.Failure], bool]
    #: the -O levels at which the reproducer shows the bug (its test is a strict xfail there)
    levels: tuple[int, ...] = (0, 2)
    #: what shows the bug: `symbols`/behaviour (the fuzz properties), or `inlining` (calls left
    #: in the split object's code, `tests/test_fuzz_regressions.py`; campaigns cannot see it)
    check: str = "symbols"


#: Open bugs. Fixed ones keep their reproducer as a regression test:
#: ipsccp_dead_branch_across_subgraphs.ll (std's output capture: code only the whole module's
#: IPSCCP proves dead; fixed by the serial pipeline's prefix before the split, docs/backend.md),
#: private_name_in_string.ll (the MC link renamed inside string data; its recogniser looked
#: for `.L<private name>` text in the split object) and midend_inline_hang*.em (the -O2
#: MLIR inliner's four canonicalizing rounds blew up doubly exponentially on recursion
#: through function values; fixed by one round, see compiler/midend/pipeline.py),
#: libcall_through_helper_subgraph.ll and inlined_helper_out_of_line.ll (a helper the serial
#: build inlines stayed a call in other subgraphs; fixed by planning from the whole-module
#: summary's predicted inlining, compiler/backend/summary.py), internal_dot_l_name.ll (an
#: internal `@.Ltable` used from two pieces: the MC link took it for a piece-local label;
#: fixed by giving such names synthetic spellings while split, compiler/backend/names.py),
#: table_field_byte_offset.ll and table_passed_to_internal_callee.ll (a local pointer table
#: read through an i8 `getelementptr`, or by an internal callee through its parameter, kept
#: its unread fields' symbols split; fixed by reading the table's uses through LLVM's C API,
#: compiler/backend/deadfields.py).
def _added_undefined(failure: properties.Failure) -> list[str] | None:
    """The names of a symbol difference that only adds undefined symbols, else None."""
    if failure.classification != "symbol-difference":
        return None
    changes = [ln for ln in failure.detail.splitlines() if ln.startswith(("+ ", "- ", "~ ", "! "))]
    if not changes or not all(ln.startswith("+ ") and " UND " in ln for ln in changes):
        return None
    return [ln.split(" UND ", 1)[1].split()[0] for ln in changes]


def _only_extra_undefined(report: properties.Report, failure: properties.Failure) -> bool:
    """Every symbol difference is an undefined symbol the split build has and the reference has
    not, and each is a symbol the program itself names (`@name`, or `@llvm.name.*` for the
    libcall an intrinsic lowers to): a runtime helper that code generation adds
    (`__tls_get_addr` for a thread-local that lost its access model) is a different bug,
    and once hid the TLS-model class from every campaign."""
    names = _added_undefined(failure)
    if names is None:
        return False
    # `memcpy` counts for a module that calls `@llvm.memcpy.*` (the libcall it lowers to)
    return all(re.search(rf"@(llvm\.)?{re.escape(n)}\b", report.case.module) for n in names)


#: what LLVM's libcall simplifier turns a `printf` with a constant format into (and back)
PRINTF_FOLDS = frozenset({"printf", "puts", "putchar", "fputs", "fputc", "fwrite"})


def _only_extra_subprograms(report: properties.Report, failure: properties.Failure) -> bool:
    """A `-g` split object describing functions the serial one does not, and nothing else
    different in its subprograms (split_keeps_evaluated_ctors.ll)."""
    if failure.classification != "debug-info" or not failure.summary.endswith("subprograms differ"):
        return False
    changes = [ln for ln in failure.detail.splitlines() if ln.startswith(("+ ", "- "))]
    return bool(changes) and all(ln.startswith("+ ") for ln in changes)


#: the `dead-capture` fragment's `try_set` under any name (campaigns give functions hostile legal
#: names: `@ld2d`, `@v17.2h`), `-g` attachments allowed: an internal `(i64 %v)` function opening
#: with the fragment's test of `%v`
_CAPTURE_SHAPE = re.compile(
    r'^define internal i64 @(?:"[^"\n]*"|[^\s(]+)\(i64 %v\)[^{\n]*\{\nentry:\n  %isz = icmp eq i64 %v, 0\b', re.M)


def _dead_branch_at_o3(report: properties.Report, failure: properties.Failure) -> bool:
    """At -O3 only, extra undefined symbols the program names, in a module with the output
    capture's `try_set` (the reproducer, the `dead-capture` fragment, by name or by shape):
    -O3 split builds run no whole-module prefix (its inliner threshold is not in the printed
    pipeline, docs/backend.md), so code only the whole module's IPSCCP proves dead keeps what it
    calls there. Narrow on purpose: every extra undefined symbol at -O3 would hide the planted
    `keep-dead-exported-locals` and any other such bug from the campaigns there."""
    module = report.case.module
    capture = re.search(r"^define internal [^\n]*try_set", module, re.M) is not None or _CAPTURE_SHAPE.search(module) is not None
    return " -O3 " in f" {failure.candidate} " and capture and _only_extra_undefined(report, failure)


KNOWN_BUGS: tuple[KnownBug, ...] = (
    KnownBug(
        "split-keeps-serially-deleted-locals",
        HERE / "split_keeps_evaluated_ctors.ll",
        "the split build keeps local functions the serial pipeline deletes (constructors GlobalOpt evaluates, what "
        "only they call): locals are not compared at -O1+, so only -g plans show it, as extra subprograms",
        _only_extra_subprograms,
        levels=(),
    ),
    KnownBug(
        "ipsccp-dead-branch-across-subgraphs-O3",
        HERE / "ipsccp_dead_branch_across_subgraphs.ll",
        "at -O3 (no whole-module prefix there) code IPSCCP's whole-module solve proves never runs survives when the "
        "flag and its readers are in different subgraphs: std's output capture, the `dead-capture` linkage fragment",
        _dead_branch_at_o3,
        levels=(3,),
    ),
)
#: Recognisers by class, for registering the next open bug of a class. `extra-undefined` was
#: `dead-external-ref`'s (internal_global_dead_field_ref.ll, constant_table_fields_folded.ll:
#: an internal table used from two subgraphs kept the initialiser references, and the
#: indirect calls, the unsplit optimiser drops), fixed by whole-module facts about local
#: pointer tables (compiler/backend/deadfields.py) and by dropping local variables no piece
#: references at the link (then the MC link; now compiler/backend/objlink.py).
RECOGNISERS: dict[str, Callable[[properties.Report, properties.Failure], bool]] = {
    "extra-undefined": _only_extra_undefined,
}


def known_bug(report: properties.Report) -> str | None:
    """The known open bug(s) that explain every failure of `report`, if any."""
    if report.ok or not KNOWN_BUGS:
        return None
    names = set()
    for failure in report.failures:
        bug = next((b for b in KNOWN_BUGS if b.matches(report, failure)), None)
        if bug is None:
            return None
        names.add(bug.name)
    return ",".join(sorted(names))
