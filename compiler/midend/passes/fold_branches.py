"""Fold `cf.cond_br` on a constant condition to `cf.br`, outside the canonicalizer.

Upstream MLIR 22's canonicalizer never terminates when, within one greedy iteration, a
folded conditional branch removes the only entry edge of a loop: the loop header then
has its latch as sole predecessor, `cf.br` canonicalization merges the two and leaves
`%next = arith.addi %next, %c` in the now unreachable loop, and folding that op never
reaches a fixed point (llvm-project PRs 221037/221152; the fuzzer's reproducer is
fuzz/regressions/midend_hang_dead_loop.em). The midend therefore runs `canonicalize`
with constant-branch folding disabled (`pipeline.CANONICALIZE`) and folds those branches
here, with no other pattern and with folding off. The rewrite driver's region
simplification then runs as in any greedy rewrite, but it erases the blocks that became
unreachable before it merges blocks, so the dead loop is gone before anything could fold
it (lit-tests/midend/fold-branches.mlir pins both).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import cf
from mlir.rewrite import (
    GreedyRewriteConfig,
    PatternRewriter,
    RewritePatternSet,
    apply_patterns_and_fold_greedily,
)

from compiler.midend.passes import EmberPass


def _constant_bool(value: ir.Value) -> bool | None:
    """The value of an `arith.constant` i1, or None."""
    if not isinstance(value, ir.OpResult) or value.owner.name != "arith.constant":
        return None
    attr = value.owner.attributes["value"]
    if isinstance(attr, ir.BoolAttr):
        return bool(ir.BoolAttr(attr).value)
    if isinstance(attr, ir.IntegerAttr):
        return ir.IntegerAttr(attr).value != 0
    return None


def _fold_cond_br(op: ir.OpView, rewriter: PatternRewriter) -> bool:
    """`cf.cond_br %true, ^a(x), ^b(y)` -> `cf.br ^a(x)`; returns False on success (the binding's convention)."""
    branch = cf.CondBranchOp(op.operation) if not isinstance(op, cf.CondBranchOp) else op
    taken = _constant_bool(branch.condition)
    if taken is None:
        return True
    dest = branch.operation.successors[0 if taken else 1]
    operands = list(branch.trueDestOperands if taken else branch.falseDestOperands)
    with rewriter.ip:
        cf.br(operands, dest)
    rewriter.erase_op(branch.operation)
    return False


def _run(module_op: ir.Operation) -> None:
    pset = RewritePatternSet()
    pset.add("cf.cond_br", _fold_cond_br)
    config = GreedyRewriteConfig()
    config.enable_folding = False
    apply_patterns_and_fold_greedily(module_op, pset.freeze(), config)


PASS = EmberPass(
    name="ember-fold-branches",
    summary="fold cf.cond_br on a constant condition to cf.br (the canonicalizer may not: see the module)",
    run=_run,
)
