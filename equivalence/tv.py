"""Translation validation: does the output of a pass pipeline refine its input?

Each `func.func` of the input is encoded in Z3 before and after the pipeline (the MLIR
is parsed with the bindings and its ops walked) and the refinement of `semantics` is
checked for all argument values, poison included. Supported: `arith` integer ops (and
the float ops of `semantics`), `arith.select`, `scf.if`, and `scf.for` with constant
bounds, unrolled up to a bound. A function using anything else is reported as skipped.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import z3
from mlir import ir

from compiler.diagnostics import EmberError, Location
from compiler.midend import pipeline
from compiler.midend.rewrites.apply import op_flags
from equivalence import semantics as sem
from equivalence.semantics import FALSE, Side, Unsupported, Val

DEFAULT_UNROLL = 64
DEFAULT_TIMEOUT_S = 60.0

_FLOAT_TYPES = {"f16": ir.F16Type, "f32": ir.F32Type, "f64": ir.F64Type}


@dataclass
class FunctionResult:
    """TV outcome for one function: ok, fail (with a counterexample), skipped or unknown."""

    name: str
    status: str
    seconds: float = 0.0
    detail: str = ""
    check: str = ""


@dataclass
class Encoding:
    results: list[Val]
    ub: z3.BoolRef
    result_types: list[str] = field(default_factory=list)


class _FuncEncoder:
    def __init__(self, index_width: int, unroll: int, side: Side) -> None:
        self.index_width = index_width
        self.unroll = unroll
        self.side = side

    # --- types
    def kind(self, ty: ir.Type) -> tuple[str, int]:
        """('int', width) or ('float', bits) for a supported scalar type."""
        if isinstance(ty, ir.IndexType):
            return "int", self.index_width
        if isinstance(ty, ir.IntegerType):
            it = ir.IntegerType(ty)
            if not it.is_signless:
                raise Unsupported(f"type {ty}")
            return "int", int(it.width)
        for name, cls in _FLOAT_TYPES.items():
            if isinstance(ty, cls):
                return "float", int(name[1:])
        raise Unsupported(f"type {ty}")

    def type_name(self, ty: ir.Type) -> str:
        k, w = self.kind(ty)
        return f"i{w}" if k == "int" else f"f{w}"

    def width(self, ty: ir.Type) -> int:
        k, w = self.kind(ty)
        if k != "int":
            raise Unsupported(f"integer op on {ty}")
        return w

    # --- regions
    def block(self, block: ir.Block, env: dict[ir.Value, Val], ub: z3.BoolRef) -> tuple[list[Val], z3.BoolRef]:
        """Encode a block's ops; returns the values its terminator passes on and the UB."""
        for op in block.operations:
            name = op.operation.name
            if name in ("func.return", "scf.yield"):
                return [env[v] for v in op.operands], ub
            ub = self.op(op.operation, env, ub)
        raise Unsupported("block without terminator")

    def op(self, op: ir.Operation, env: dict[ir.Value, Val], ub: z3.BoolRef) -> z3.BoolRef:
        name = op.name
        args = [env[v] for v in op.operands] if name not in ("scf.for",) else []
        if name == "arith.constant":
            env[op.results[0]] = self.constant(op)
            return ub
        if name == "scf.if":
            return self.scf_if(op, env, ub)
        if name == "scf.for":
            return self.scf_for(op, env, ub)
        if not name.startswith("arith."):
            raise Unsupported(name)
        short = name[len("arith."):]
        res_ty = op.results[0].type if len(op.results) == 1 else None
        if len(op.results) != 1 or res_ty is None:
            raise Unsupported(name)
        fastmath = op.attributes.get("fastmath", None)
        if fastmath is not None and "none" not in str(fastmath):
            raise Unsupported(f"{name} with fast-math flags")
        if short in sem.INT_BINOPS:
            self.width(res_ty)
            flags: dict[str, z3.BoolRef | bool] = {f: True for f in op_flags(op)}
            r = sem.binop(short, args[0], args[1], flags, self.side)
        elif short == "cmpi":
            pred = sem.CMPI_PREDICATES[ir.IntegerAttr(op.attributes["predicate"]).value]
            self.width(op.operands[0].type)
            r = sem.cmpi(pred, args[0], args[1])
        elif short == "select":
            self.kind(res_ty)
            r = sem.select(args[0], args[1], args[2])
        elif short in ("extsi", "extui"):
            fn = sem.extsi if short == "extsi" else sem.extui
            r = fn(args[0], self.width(res_ty))
        elif short == "trunci":
            r = sem.trunci(args[0], self.width(res_ty), {f: True for f in op_flags(op)})
        elif short in ("index_cast", "index_castui"):
            r = sem.index_cast(args[0], self.width(res_ty), unsigned=short == "index_castui")
        elif short in ("addf", "subf", "mulf", "divf"):
            self.kind(res_ty)
            r = sem.float_binop(short, args[0], args[1])
        elif short == "negf":
            r = sem.negf(args[0])
        elif short == "cmpf":
            pred = sem.CMPF_PREDICATES[ir.IntegerAttr(op.attributes["predicate"]).value]
            r = sem.cmpf(pred, args[0], args[1])
        else:
            raise Unsupported(name)
        env[op.results[0]] = r.val
        return sem._or(ub, r.ub)

    def constant(self, op: ir.Operation) -> Val:
        attr = op.attributes["value"]
        ty = op.results[0].type
        if isinstance(attr, ir.BoolAttr):
            return sem.constant(1 if ir.BoolAttr(attr).value else 0, 1)
        if isinstance(attr, ir.IntegerAttr):
            return sem.constant(int(ir.IntegerAttr(attr).value), self.width(ty))
        if isinstance(attr, ir.FloatAttr):
            k, bits = self.kind(ty)
            return sem.float_constant(float(ir.FloatAttr(attr).value), f"f{bits}")
        raise Unsupported(f"constant {attr}")

    def scf_if(self, op: ir.Operation, env: dict[ir.Value, Val], ub: z3.BoolRef) -> z3.BoolRef:
        cond = env[op.operands[0]]
        then_vals, then_ub = self.block(op.regions[0].blocks[0], dict(env), FALSE)
        if len(op.regions[1].blocks) > 0:
            else_vals, else_ub = self.block(op.regions[1].blocks[0], dict(env), FALSE)
        else:
            else_vals, else_ub = [], FALSE
        pick = cond.term == sem.bv(1, 1)
        for res, t, e in zip(op.results, then_vals, else_vals, strict=True):
            poison = z3.If(pick, t.poison, e.poison)
            env[res] = Val(z3.If(pick, t.term, e.term), poison)
        # branching on poison is UB (it lowers to a conditional branch)
        return sem._or(ub, cond.poison, z3.If(pick, then_ub, else_ub))

    def scf_for(self, op: ir.Operation, env: dict[ir.Value, Val], ub: z3.BoolRef) -> z3.BoolRef:
        if "unsignedCmp" in op.attributes:
            raise Unsupported("scf.for with unsignedCmp")
        operands = list(op.operands)
        bounds = []
        for v in operands[:3]:
            b = env[v]
            term = z3.simplify(b.term)
            if not z3.is_bv_value(term) or not z3.is_false(z3.simplify(b.poison)):
                raise Unsupported("scf.for with non-constant bounds")
            bounds.append(sem.to_signed(term.as_long(), term.size()))
        lb, hi, step = bounds
        if step <= 0:
            raise Unsupported("scf.for with a non-positive step")
        trips = max(0, -(-(hi - lb) // step))
        if trips > self.unroll:
            raise Unsupported(f"scf.for with {trips} iterations (unroll bound {self.unroll})")
        iter_vals = [env[v] for v in operands[3:]]
        width = self.width(operands[0].type)
        body = op.regions[0].blocks[0]
        block_args = list(body.arguments)
        for i in range(trips):
            inner = dict(env)
            inner[block_args[0]] = sem.constant(lb + i * step, width)
            for arg, val in zip(block_args[1:], iter_vals, strict=True):
                inner[arg] = val
            iter_vals, ub = self.block(body, inner, ub)
        for res, val in zip(op.results, iter_vals, strict=True):
            env[res] = val
        return ub

    def function(self, func: ir.Operation, args: Sequence[Val]) -> Encoding:
        region = func.regions[0]
        if len(region.blocks) != 1:
            raise Unsupported("function with several blocks (cf dialect)")
        block = region.blocks[0]
        env: dict[ir.Value, Val] = dict(zip(block.arguments, args, strict=True))
        results, ub = self.block(block, env, FALSE)
        return Encoding(results, ub)


def _functions(module: ir.Module) -> dict[str, ir.Operation]:
    out: dict[str, ir.Operation] = {}
    for op in module.body.operations:
        if op.operation.name == "func.func" and len(op.operation.regions[0].blocks) > 0:
            name = ir.StringAttr(op.operation.attributes["sym_name"]).value
            out[name] = op.operation
    return out


def _make_args(encoder: _FuncEncoder, func: ir.Operation) -> tuple[list[Val], list[tuple[str, str, z3.ExprRef, z3.BoolRef]]]:
    vals: list[Val] = []
    shown: list[tuple[str, str, z3.ExprRef, z3.BoolRef]] = []
    for i, arg in enumerate(func.regions[0].blocks[0].arguments):
        k, w = encoder.kind(arg.type)
        term: z3.ExprRef = z3.BitVec(f"arg{i}", w) if k == "int" else z3.FP(f"arg{i}", sem.float_sort(f"f{w}"))
        poison = z3.Bool(f"arg{i}.poison")
        vals.append(Val(term, poison))
        shown.append((f"%arg{i}", encoder.type_name(arg.type), term, poison))
    return vals, shown


def _show(model: z3.ModelRef, ty: str, val: Val, ub: z3.BoolRef | None = None) -> str:
    if ub is not None and z3.is_true(model.eval(ub, model_completion=True)):
        return "UB triggered"
    if z3.is_true(model.eval(val.poison, model_completion=True)):
        return "poison"
    v = model.eval(val.term, model_completion=True)
    if ty.startswith("i"):
        return sem.format_int(v.as_long(), int(ty[1:]))
    return str(v)


def check_function(name: str, src_func: ir.Operation, tgt_func: ir.Operation, *, index_width: int = 64,
                   unroll: int = DEFAULT_UNROLL, timeout_s: float = DEFAULT_TIMEOUT_S) -> FunctionResult:
    """Prove that `tgt_func` refines `src_func` for every argument value."""
    start = time.perf_counter()
    src_enc = _FuncEncoder(index_width, unroll, Side.SOURCE)
    tgt_enc = _FuncEncoder(index_width, unroll, Side.TARGET)
    try:
        args, shown = _make_args(src_enc, src_func)
        src = src_enc.function(src_func, args)
        tgt = tgt_enc.function(tgt_func, args)
    except Unsupported as exc:
        return FunctionResult(name, "skipped", time.perf_counter() - start, f"unsupported: {exc}")
    if len(src.results) != len(tgt.results):
        return FunctionResult(name, "fail", time.perf_counter() - start, "the pipeline changed the number of results")
    solver = z3.Solver()
    solver.set("timeout", int(timeout_s * 1000))
    solver.add(z3.Not(sem.refines(src.results, src.ub, tgt.results, tgt.ub)))
    answer = solver.check()
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        return FunctionResult(name, "ok", seconds)
    if answer == z3.unknown:
        return FunctionResult(name, "unknown", seconds, f"solver gave up: {solver.reason_unknown()}")
    model = solver.model()
    failure = sem.classify(model, src.results, src.ub, tgt.results, tgt.ub)
    result_types = [src_enc.type_name(t) for t in ir.FunctionType(ir.TypeAttr(src_func.attributes["function_type"]).value).results]
    lines = [f"function @{name}: the pipeline's output does not refine its input",
             f"ERROR: {failure.message} (check failed: {failure.kind})", "", "Example:"]
    for label, ty, term, poison in shown:
        if z3.is_true(model.eval(poison, model_completion=True)):
            lines.append(f"  {ty} {label} = poison")
        else:
            lines.append(f"  {ty} {label} = {_show(model, ty, Val(term, FALSE))}")
    for i, ty in enumerate(result_types):
        lines.append(f"Source result #{i}: {_show(model, ty, src.results[i], src.ub)}")
        lines.append(f"Target result #{i}: {_show(model, ty, tgt.results[i], tgt.ub)}")
    return FunctionResult(name, "fail", seconds, "\n".join(lines), failure.kind)


def validate_text(text: str, path: str, pass_pipeline: str, *, target_text: str | None = None,
                  target_path: str = "", index_width: int = 64, unroll: int = DEFAULT_UNROLL,
                  timeout_s: float = DEFAULT_TIMEOUT_S) -> list[FunctionResult]:
    """Validate every function of the module in `text` against its image under
    `pass_pipeline` (or, when given, against the module in `target_text`)."""
    with pipeline.mlir_context():
        source = pipeline.parse_module(text, path)
        if target_text is None:
            target = pipeline.parse_module(text, path)
            pipeline.run_pipeline(target, pass_pipeline, path)
        else:
            target = pipeline.parse_module(target_text, target_path)
        src_funcs, tgt_funcs = _functions(source), _functions(target)
        results: list[FunctionResult] = []
        for name, func in src_funcs.items():
            if name not in tgt_funcs:
                results.append(_missing(name, func))
                continue
            results.append(check_function(name, func, tgt_funcs[name], index_width=index_width,
                                          unroll=unroll, timeout_s=timeout_s))
        return results


def _missing(name: str, func: ir.Operation) -> FunctionResult:
    """A source function with no body in the target: a private one may have been inlined or
    removed (skipped); a public one vanishing is a failure, never a silent pass."""
    visibility = func.attributes.get("sym_visibility", None)
    if visibility is not None and ir.StringAttr(visibility).value == "private":
        return FunctionResult(name, "skipped", 0.0, "not in the output (private: inlined or removed)")
    return FunctionResult(name, "fail", 0.0, f"public function @{name} is missing from the output (or lost its body)", "missing")


def _read_mlir(path: str) -> str:
    from compiler import driver

    if not path.endswith(".mlir"):
        raise EmberError("translation validation needs an .mlir input", Location(path))
    text = driver.read_input(path)
    assert isinstance(text, str)
    return text


def validate_file(path: str, pass_pipeline: str, *, index_width: int = 64, unroll: int = DEFAULT_UNROLL,
                  timeout_s: float = DEFAULT_TIMEOUT_S) -> list[FunctionResult]:
    """`ember verify --tv --pass-pipeline P FILE`."""
    return validate_text(_read_mlir(path), path, pass_pipeline, index_width=index_width, unroll=unroll,
                         timeout_s=timeout_s)


def validate_files(source_path: str, target_path: str, *, index_width: int = 64, unroll: int = DEFAULT_UNROLL,
                   timeout_s: float = DEFAULT_TIMEOUT_S) -> list[FunctionResult]:
    """`ember verify --tv SOURCE --target TARGET`: does TARGET refine SOURCE, function by function?"""
    return validate_text(_read_mlir(source_path), source_path, "", target_text=_read_mlir(target_path),
                         target_path=target_path, index_width=index_width, unroll=unroll, timeout_s=timeout_s)
