"""The MLIR stage: parse, run pass pipelines (upstream + Ember passes), translate to LLVM IR."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from mlir import ir, passmanager
from mlir.dialects import llvm as mlir_llvm

from compiler.diagnostics import (
    EmberError,
    Location,
    UsageError,
    error_from_mlir,
    location_from_mlir,
)
from compiler.midend import passes

#: Lowering from func/arith/scf/cf/memref/math to the llvm dialect.
LOWER_TO_LLVM = (
    "ember-internalize-private,"
    "convert-math-to-llvm,convert-math-to-libm,expand-strided-metadata,"
    "convert-scf-to-cf,convert-to-llvm,reconcile-unrealized-casts"
)

#: The upstream pattern that folds `cf.cond_br` on a constant (its debug name, as GCC spells it).
CONST_COND_BRANCH_PATTERN = "{anonymous}::SimplifyConstCondBranchPred"
#: `canonicalize` without constant-branch folding (why: compiler/midend/passes/fold_branches.py),
#: and with a cap on rewrites per greedy iteration (the cap counts rewrites, not folds).
CANONICALIZE = f"canonicalize{{max-num-rewrites=20000 disable-patterns={CONST_COND_BRANCH_PATTERN}}}"
#: Folds constant `cf.cond_br` between canonicalizations (compiler/midend/passes/fold_branches.py).
FOLD_BRANCHES = "ember-fold-branches"
#: One round of inlining. Upstream's default (4 rounds, canonicalizing in between) blows up
#: doubly exponentially on recursion that only becomes direct after canonicalization
#: (calls through function values): each round inlines the grown body into every call site
#: (fuzzer finding fuzz/regressions/midend_inline_hang.em). LLVM's inliner runs later anyway.
INLINE = "inline{default-pipeline=" + CANONICALIZE + " max-iterations=1}"

#: MLIR optimisation pipeline run before lowering, per optimisation level. Ember's
#: frontend keeps locals in SSA form (block arguments, no allocas), so mem2reg/sroa have
#: nothing to do and are not run.
#: No `sccp`: upstream MLIR 22's SCCP keeps a stale constant when a fold returns an existing
#: value whose lattice later widens (`x ^ g ^ g` folded to `x` while `x` was still constant
#: on a loop's first visit): fuzz/regressions/midend_sccp_stale_fold.em. LLVM's SCCP and
#: IPSCCP run after lowering.
_O2 = (
    f"{INLINE},{FOLD_BRANCHES},{CANONICALIZE},cse,ember-rewrites,{FOLD_BRANCHES},{CANONICALIZE},"
    f"symbol-dce,loop-invariant-code-motion,{FOLD_BRANCHES},{CANONICALIZE},cse"
)
MIDEND_PIPELINES: dict[int, str] = {
    0: "",
    1: f"{CANONICALIZE},{FOLD_BRANCHES},ember-rewrites,cse",
    2: _O2,
    3: _O2,
}


@contextmanager
def mlir_context() -> Iterator[ir.Context]:
    """A fresh MLIR context with every upstream dialect available and threading on."""
    with ir.Context() as ctx, ir.Location.unknown():
        ctx.enable_multithreading(True)
        yield ctx


def parse_module(text: str, path: str) -> ir.Module:
    """Parse and verify MLIR text; errors carry `path:line:col`."""
    try:
        module = ir.Module.parse(text)
    except Exception as exc:  # MLIRError is created dynamically by the bindings
        raise error_from_mlir(exc, path) from None
    try:
        module.operation.verify()
    except Exception as exc:
        raise error_from_mlir(exc, path) from None
    return module


def split_pipeline(pipeline: str) -> list[str]:
    """Split `builtin.module(a,b{x=1},func.func(c))` or `a,b` into its top-level elements."""
    text = pipeline.strip()
    if text.startswith("builtin.module(") and text.endswith(")"):
        text = text[len("builtin.module(") : -1]
    elements: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
            if depth < 0:
                raise UsageError(f"unbalanced ')' in pass pipeline '{pipeline}'")
        if ch == "," and depth == 0:
            elements.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if depth != 0:
        raise UsageError(f"unbalanced '(' in pass pipeline '{pipeline}'")
    elements.append("".join(current).strip())
    return [e for e in elements if e]


def build_pass_manager(pipeline: str, *, timing: bool = False) -> passmanager.PassManager:
    """A module pass manager running `pipeline`, with Ember's Python passes spliced in."""
    pm = passmanager.PassManager("builtin.module")
    upstream: list[str] = []

    def flush() -> None:
        if upstream:
            try:
                pm.add(",".join(upstream))
            except ValueError as exc:
                raise EmberError(_first_pipeline_error(str(exc)), Location("--pass-pipeline")) from None
            upstream.clear()

    for element in split_pipeline(pipeline):
        ember_pass = passes.lookup(element)
        if ember_pass is None:
            upstream.append(element)
            continue
        flush()
        pm.add(_as_external_pass(ember_pass), name=ember_pass.name, argument=ember_pass.name)
    flush()
    if timing:
        pm.enable_timing()
    return pm


def _as_external_pass(ember_pass: passes.EmberPass) -> Callable[[ir.Operation, object], None]:
    def run(op: ir.Operation, _pass: object) -> None:
        ember_pass.run(op)

    run.__name__ = ember_pass.name.replace("-", "_")
    return run


def _first_pipeline_error(text: str) -> str:
    for line in text.splitlines():
        if "error:" in line:
            return line.split("error:", 1)[1].strip()
    return text.strip().splitlines()[0] if text.strip() else "invalid pass pipeline"


def run_pipeline(module: ir.Module, pipeline: str, path: str, *, timing: bool = False) -> None:
    """Run a textual pipeline on `module` in place; pass failures become EmberErrors."""
    if not split_pipeline(pipeline):
        return
    pm = build_pass_manager(pipeline, timing=timing)
    try:
        pm.run(module.operation)
    except Exception as exc:
        raise error_from_mlir(exc, path) from None


def optimise(module: ir.Module, level: int, path: str, *, timing: bool = False) -> None:
    """The midend: MLIR optimisation before lowering (nothing at -O0)."""
    run_pipeline(module, MIDEND_PIPELINES[level], path, timing=timing)


def lower_to_llvm_dialect(module: ir.Module, path: str) -> None:
    """Lower func/arith/scf/cf/memref/math to the llvm dialect in place."""
    run_pipeline(module, LOWER_TO_LLVM, path)


#: `-g`: give every llvm.func a DISubprogram (file and line from its location) in one
#: compile unit, so translation turns the ops' locations into `!dbg` line info
DEBUG_INFO_SCOPE = "builtin.module(ensure-debug-info-scope-on-llvm-func{emission-kind=Full})"


def add_debug_info(module: ir.Module, path: str, *, generated: bool) -> None:
    """Attach debug-info scopes to the lowered module's functions (`ember build -g`).

    Locations are made plain first. MLIR 22's pass crashes on the `callsite(callee at
    caller)` locations the midend's inliner leaves (fixed upstream later: llvm-project
    PR 178337), so an inlined op is located at its call site in the function it now
    belongs to (the line a debugger should show for it there). An op the parser located
    in its own text (file `-`) is, for an `.mlir` input, at that line of `path`; for
    Ember's `generated` text (an op the front end gave no statement, e.g. a trap block),
    at its function's `def`.
    """
    for top in module.body.operations:
        where = _plain(top.location, path, None, generated)
        if where != top.location:
            top.location = where
        home = where

        def visit(op: ir.Operation, home: ir.Location = home) -> ir.WalkResult:
            loc = _plain(op.location, path, home, generated)
            if loc != op.location:
                op.location = loc
            return ir.WalkResult.ADVANCE

        for region in top.regions:
            for block in region.blocks:
                for op in block.operations:
                    op.operation.walk(visit)
    run_pipeline(module, DEBUG_INFO_SCOPE, path)


def _plain(loc: ir.Location, path: str, home: ir.Location | None, generated: bool) -> ir.Location:
    """`loc` without call sites (see `add_debug_info`) and without the parser's `-` file."""
    if loc.is_a_callsite():
        return _plain(loc.caller, path, home, generated)
    if loc.is_a_fused():
        parts = [_plain(part, path, home, generated) for part in loc.locations]
        # (the midend's fused locations carry no metadata; the bindings cannot read it anyway)
        return ir.Location.fused(parts) if parts != list(loc.locations) else loc
    if loc.is_a_name():
        child = _plain(loc.child_loc, path, home, generated)
        return ir.Location.name(loc.name_str, child) if child != loc.child_loc else loc
    if loc.is_a_file() and loc.filename == "-":
        if not generated:
            return ir.Location.file(path, loc.start_line, loc.start_col)
        return home if home is not None else ir.Location.file(path, 0, 0)
    return loc





def translate_to_llvm_ir(module: ir.Module, path: str) -> str:
    """Translate an llvm-dialect module to textual LLVM IR."""
    check_translatable(module, path)
    try:
        return str(mlir_llvm.translate_module_to_llvmir(module.operation))
    except Exception as exc:
        raise error_from_mlir(exc, path, "cannot translate to LLVM IR: ") from None


#: dialects whose ops MLIR translates to LLVM IR (anything else left after lowering is an error)
TRANSLATABLE_DIALECTS = frozenset(
    {"llvm", "nvvm", "rocdl", "omp", "acc", "amx", "arm_neon", "arm_sve", "arm_sme", "x86vector", "vcix", "xevm", "ptr"}
)


def check_translatable(module: ir.Module, path: str) -> None:
    """Refuse, with the op's location, a module that still holds non-llvm ops (e.g. the
    `unrealized_conversion_cast` that linalg or tensor values leave): translating one
    crashes inside MLIR instead of reporting it."""
    left: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        name = op.name
        if name != "builtin.module" and name.split(".", 1)[0] not in TRANSLATABLE_DIALECTS:
            left.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    if left:
        op = left[0]
        hint = " (a value of a type Ember cannot lower, e.g. a tensor or a linalg op's operand)" if "unrealized" in op.name else ""
        raise EmberError(
            f"cannot translate to LLVM IR: '{op.name}' is left after lowering{hint}", location_from_mlir(str(op.location), path)
        )


def count_operations(module: ir.Module) -> int:
    """Number of operations nested in `module` (the IR size the time report shows)."""
    count = 0

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal count
        count += 1
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return count - 1  # the module itself is not counted
