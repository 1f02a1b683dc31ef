"""aliases: an alias or ifunc goes and its uses name the aliasee (or resolver) directly."""

from __future__ import annotations

from compiler.backend import irmodel
from fuzz.reduce.engine import DeltaPass
from fuzz.reduce.ir.common import entities, rebuild


def _aliases(text: str) -> list[irmodel.Entity]:
    return entities(text, ("alias", "ifunc"))


def _drop_aliases(text: str, keep: set[int]) -> str:
    replace: dict[str, str | None] = {}
    mapping: dict[str, str] = {}
    for i, e in enumerate(_aliases(text)):
        if i not in keep and e.refs:
            replace[f"{e.kind}:{e.name}"] = None
            mapping[e.name] = e.refs[0]  # uses go to the aliasee/resolver directly
    return irmodel.rename_refs(rebuild(text, replace), mapping) if mapping else text


PASS = DeltaPass("aliases", lambda text: [e.name for e in _aliases(text)], _drop_aliases)
