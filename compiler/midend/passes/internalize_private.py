"""Give private `func.func` definitions internal LLVM linkage.

Upstream `convert-func-to-llvm` lowers `func.func private` to an *external* LLVM
function; without this pass every helper would leak into the object's symbol table.
"""

from __future__ import annotations

from mlir import ir

from compiler.midend.passes import EmberPass

_LINKAGE = "llvm.linkage"


def _run(module_op: ir.Operation) -> None:
    internal = ir.Attribute.parse("#llvm.linkage<internal>")
    for op in module_op.regions[0].blocks[0].operations:
        if op.operation.name != "func.func":
            continue
        attrs = op.operation.attributes
        if "sym_visibility" not in attrs or str(attrs["sym_visibility"]) != '"private"':
            continue
        if len(op.operation.regions[0].blocks) == 0:  # a declaration stays external
            continue
        if _LINKAGE not in attrs:
            attrs[_LINKAGE] = internal


PASS = EmberPass(
    name="ember-internalize-private",
    summary="private func.func definitions get #llvm.linkage<internal>",
    run=_run,
)
