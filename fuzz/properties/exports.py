"""The `@export` list of an Ember program, read from its source, against the non-local
symbols of its object."""

from __future__ import annotations

from compiler.offload import embed
from fuzz.properties.model import BuildOutcome, Failure

SOURCE_LABEL = "the program's @export list"


def exported_names(source: str) -> set[str]:
    """The functions an Ember program marks `@export` (decorators stacked in any order)."""
    names: set[str] = set()
    decorators: list[str] = []
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith("@"):
            decorators.append(stripped.split("(")[0])
            continue
        if stripped.startswith("def ") and "@export" in decorators:
            names.add(stripped[4:].split("(")[0].strip())
        if stripped:
            decorators = []
    return names


def export_failures(source: str, ref: BuildOutcome) -> list[Failure]:
    """An Ember object defines exactly the program's `@export` functions and `main` as
    non-local symbols: a helper that leaks (or an export that goes local) is a difference
    no split-vs-unsplit comparison can see, since both builds share the front end."""
    if ref.symbols is None:
        return []
    defined = {s.name for s in ref.symbols if not s.is_local and s.defined}
    wanted = exported_names(source) | {"main"}
    if "@kernel" in source:  # the embedded PTX table the GPU runtime looks up (docs/offload.md)
        wanted |= {embed.TABLE, embed.COUNT}
    if defined == wanted:
        return []
    extra, missing = sorted(defined - wanted), sorted(wanted - defined)
    what = ", ".join([*(f"+ {n}" for n in extra), *(f"- {n}" for n in missing)])
    return [Failure("symbol-difference", SOURCE_LABEL, ref.config.label, f"{ref.config.label}: non-local symbols {what}",
                    f"defined non-local: {sorted(defined)}\n@export and main: {sorted(wanted)}", "exports")]
