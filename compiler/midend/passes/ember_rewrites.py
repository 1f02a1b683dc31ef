"""Apply Ember's verified arith rewrites (compiler/midend/rewrites/table.py).

Two greedy rounds: the `simplify` patterns, then the `lower` patterns (expansions such
as Python floor division into divsi/remsi). Folding is off so the pass does exactly what
the table says; dead ops are erased by the driver.
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir
from mlir.rewrite import (
    GreedyRewriteConfig,
    PatternRewriter,
    RewritePatternSet,
    apply_patterns_and_fold_greedily,
)

from compiler.midend import rewrites
from compiler.midend.passes import EmberPass
from compiler.midend.rewrites.apply import try_rewrite
from compiler.midend.rewrites.dsl import Pattern


def _callback(pattern: Pattern) -> Callable[[ir.OpView, PatternRewriter], bool]:
    def fn(op: ir.OpView, rewriter: PatternRewriter) -> bool:
        # the binding treats a falsy return value as success
        return not try_rewrite(pattern, op.operation, rewriter)

    fn.__name__ = pattern.name.replace("-", "_")
    return fn


def run_phase(module_op: ir.Operation, phase: str) -> None:
    """Apply the patterns of one phase greedily to everything nested in `module_op`."""
    patterns = rewrites.patterns((phase,))
    if not patterns:
        return
    pset = RewritePatternSet()
    for p in patterns:
        pset.add(f"arith.{p.source.name}", _callback(p), benefit=p.benefit)
    config = GreedyRewriteConfig()
    config.enable_folding = False
    apply_patterns_and_fold_greedily(module_op, pset.freeze(), config)


def _run(module_op: ir.Operation) -> None:
    for phase in ("simplify", "lower"):
        run_phase(module_op, phase)


PASS = EmberPass(
    name="ember-rewrites",
    summary="apply Ember's Z3-verified arith rewrite patterns (`ember verify` proves them)",
    run=_run,
)
