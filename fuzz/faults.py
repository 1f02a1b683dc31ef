"""The harness's back-end hooks: deliberate faults for the power check, and workers that crash
or hang for the crash-reporting tests.

The compiler only offers hook points (`compiler.backend.split.BackendHook`); everything
here is installed by `install()`, which harness code calls (the properties, the build
server, the power check), never the `ember` CLI. A build names the hooks it wants in
`BuildOptions.faults`.
"""

from __future__ import annotations

import os
import re
import time

from compiler.backend import mclink, planner, split

#: Deliberately broken variants of the split back end; each breaks one rule of the contract.
FAULTS = frozenset(
    {"skip-linkage-restore", "reuse-local-labels", "duplicate-internal-global", "drop-ctors", "merge-specialised-copies"}
)
#: Breaks only the line tables of `-g` builds (the debug-info property's power check; not in
#: FAULTS, whose plans build without -g)
SHIFT_LINE_ROWS = "shift-line-rows"
#: Worker hooks: a subgraph holding the marker name kills or hangs its worker.
CRASH_WORKER = "crash-worker"
HANG_WORKER = "hang-worker"
CRASH_MARKER = "ember.test.crash.worker"
HANG_MARKER = "ember.test.hang.worker"


def duplicate_internal_globals(the_plan: planner.SplitPlan) -> planner.SplitPlan:
    """Every subgraph defines its own copy of internal mutable globals."""
    for sg in the_plan.subgraphs:
        sg.text = re.sub(
            r"^@([-\w$.]+) = external hidden (?:(?:local_)?unnamed_addr )?global (.+?)(, align \d+)?$",
            lambda m: f"@{m.group(1)} = internal global {m.group(2)} zeroinitializer{m.group(3) or ''}",
            sg.text,
            flags=re.M,
        )
    return the_plan


def drop_ctors(pieces: list[mclink.AsmPiece]) -> list[mclink.AsmPiece]:
    """Constructors (in .ctors for llvmlite, or .init_array) land in a section nothing runs."""
    return [
        mclink.AsmPiece(p.key, p.asm.replace(".init_array", ".data.ember_dropped").replace(".ctors", ".data.ember_dropped"))
        for p in pieces
    ]


def shift_line_rows(pieces: list[mclink.AsmPiece]) -> list[mclink.AsmPiece]:
    """Every `.loc` row of every piece one source line further down."""
    loc = re.compile(r"^(\s*\.loc\s+\d+\s+)(\d+)", re.M)
    return [mclink.AsmPiece(p.key, loc.sub(lambda m: m.group(1) + str(int(m.group(2)) + 1), p.asm)) for p in pieces]


def merge_specialised_copies(pieces: list[mclink.AsmPiece]) -> list[mclink.AsmPiece]:
    """Every use of a per-subgraph copy `f.ember.K` goes to the home `f` instead.

    This is the wrong merge contract 2 forbids: copies that IPO specialised differently
    (constant arguments propagated, dead arguments dropped) are not interchangeable.
    """
    copy_ref = re.compile(r"(?<![\w.$])([A-Za-z_$][\w$]*)" + re.escape(planner.COPY_SUFFIX) + r"\d+(?![\w$])")

    def merge(asm: str) -> str:
        lines = asm.splitlines()
        for n, line in enumerate(lines):
            stripped = line.lstrip()
            if line[:1] in (" ", "\t") and not stripped.startswith("."):  # instructions only, not definitions
                lines[n] = copy_ref.sub(lambda m: m.group(1), line)
        return "\n".join(lines) + "\n"

    return [mclink.AsmPiece(p.key, merge(p.asm)) for p in pieces]


def crash_on_marker(text: str) -> None:
    """Worker side of CRASH_WORKER: abort the worker on a subgraph holding the marker."""
    if CRASH_MARKER in text:
        os.abort()


def hang_on_marker(text: str) -> None:
    """Worker side of HANG_WORKER: hang the worker on a subgraph holding the marker."""
    if HANG_MARKER in text:
        time.sleep(3600)


HOOKS = (
    split.BackendHook("skip-linkage-restore", link=(("keep_linkage_directives", True),)),
    split.BackendHook("reuse-local-labels", link=(("unique_labels", False),)),
    split.BackendHook("duplicate-internal-global", plan=duplicate_internal_globals),
    split.BackendHook("drop-ctors", pieces=drop_ctors),
    split.BackendHook("merge-specialised-copies", pieces=merge_specialised_copies),
    split.BackendHook(SHIFT_LINE_ROWS, pieces=shift_line_rows),
    split.BackendHook(CRASH_WORKER, worker=f"{__name__}:crash_on_marker"),
    split.BackendHook(HANG_WORKER, worker=f"{__name__}:hang_on_marker"),
)


def install() -> None:
    """Install every hook above in this process (idempotent)."""
    for hook in HOOKS:
        split.install_hook(hook)


install()
