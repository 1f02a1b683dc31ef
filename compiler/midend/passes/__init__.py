"""Ember's own MLIR passes, written in Python and run next to upstream passes.

Each pass is a module with one `EmberPass` instance; `REGISTRY` maps the pass's
pipeline name to it lazily (xDSL style), so `ember-opt --pass-pipeline` can mix them
with upstream passes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from mlir import ir


@dataclass(frozen=True)
class EmberPass:
    """A named Python pass: `run(module_op)` rewrites the module in place."""

    name: str
    summary: str
    run: Callable[[ir.Operation], None]


#: pipeline name -> module that defines `PASS`
_PASS_MODULES: dict[str, str] = {
    "ember-internalize-private": "compiler.midend.passes.internalize_private",
    "ember-fold-branches": "compiler.midend.passes.fold_branches",
    "ember-rewrites": "compiler.midend.passes.ember_rewrites",
}


def names() -> list[str]:
    """All registered Ember pass names."""
    return sorted(_PASS_MODULES)


def lookup(name: str) -> EmberPass | None:
    """The Ember pass called `name`, or None when it is not one of ours."""
    module = _PASS_MODULES.get(name)
    if module is None:
        return None
    return importlib.import_module(module).PASS
