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
from compiler.midend import arith_ops, pipeline
from compiler.midend.rewrites.apply import op_flags
from equivalence import semantics as sem
from equivalence.semantics import FALSE, Side, Unsupported, Val
from equivalence.solver import solve

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
    def __init__(self, index_width: int, unroll: int, side: Side, narrow: dict[int, int] | None = None) -> None:
        self.index_width = index_width
        self.unroll = unroll
        self.side = side
        #: bit-width reduction: integer width -> the width it is encoded at (i1 is kept)
        self.narrow = narrow or {}
        #: id of a `divsi`/`divui` result term -> (dividend, divisor, signed): shared division terms
        self.quotients: dict[int, tuple[z3.BitVecRef, z3.BitVecRef, bool]] = {}

    # --- types
    def kind(self, ty: ir.Type) -> tuple[str, int]:
        """('int', width) or ('float', bits) for a supported scalar type."""
        if isinstance(ty, ir.IndexType):
            return "int", self.index_width
        if isinstance(ty, ir.IntegerType):
            it = ir.IntegerType(ty)
            if not it.is_signless:
                raise Unsupported(f"type {ty}")
            return "int", self.narrow.get(int(it.width), int(it.width))
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
            product = self.product_of_quotient(args[0], args[1]) if short == "muli" and not flags else None
            r = product or sem.binop(short, args[0], args[1], flags, self.side)
            if short in ("divsi", "divui"):
                self.quotients[r.val.term.get_id()] = (args[0].term, args[1].term, short == "divsi")
        elif short == "cmpi":
            pred = arith_ops.CMPI_PREDICATES[ir.IntegerAttr(op.attributes["predicate"]).value]
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
            pred = arith_ops.CMPF_PREDICATES[ir.IntegerAttr(op.attributes["predicate"]).value]
            r = sem.cmpf(pred, args[0], args[1])
        else:
            raise Unsupported(name)
        env[op.results[0]] = r.val
        return sem.any_of(ub, r.ub)

    def product_of_quotient(self, a: Val, b: Val) -> sem.Res | None:
        """`(x / y) * y` as `x - x % y` (an identity of SMT-LIB's division, y = 0 included):
        the expansion of `ceildivsi`/`floordivsi` then shares the source's division terms
        instead of asking the solver to relate a multiplier to a divider."""
        for q, other in ((a, b), (b, a)):
            found = self.quotients.get(q.term.get_id())
            if found is not None and z3.eq(found[1], other.term):
                x, y, signed = found
                rem = sem.srem(x, y) if signed else z3.URem(x, y)
                return sem.Res(Val(x - rem, sem.any_of(a.poison, b.poison)), FALSE)
        return None

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
        return sem.any_of(ub, cond.poison, z3.If(pick, then_ub, else_ub))

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
    answer, model, reason = _prove(_obligations(src, tgt), timeout_s)
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        return FunctionResult(name, "ok", seconds)
    if answer == z3.unknown:
        detail = f"solver gave up: {reason}"
        narrower = _proven_narrower_widths(src_func, tgt_func, index_width, unroll, timeout_s)
        if narrower is not None:
            detail += f"; {narrower}"
        return FunctionResult(name, "unknown", time.perf_counter() - start, detail)
    assert model is not None
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


def _obligations(src: Encoding, tgt: Encoding) -> list[z3.BoolRef]:
    """The negated refinement as one query per check (Alive2's): the target's UB, then each
    result's poison/value; the refinement holds when every query is unsat."""
    defined = z3.Not(src.ub)
    queries = [sem.all_of(defined, tgt.ub)]
    for s, t in zip(src.results, tgt.results, strict=True):
        ok = sem.any_of(s.poison, sem.all_of(z3.Not(t.poison), sem.values_equal(s.term, t.term)))
        queries.append(sem.all_of(defined, z3.Not(tgt.ub), z3.Not(ok)))
    return queries


_DIVISION_OPS = (z3.Z3_OP_BUDIV, z3.Z3_OP_BUREM, z3.Z3_OP_BUDIV_I, z3.Z3_OP_BUREM_I)


def _division_terms(formula: z3.ExprRef) -> list[z3.ExprRef]:
    """The distinct unsigned division/remainder terms of `formula` (a DAG walk)."""
    seen: set[int] = set()
    found: list[z3.ExprRef] = []
    stack = [formula]
    while stack:
        e = stack.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_app(e) and e.decl().kind() in _DIVISION_OPS:
            found.append(e)
        stack.extend(e.children())
    return found


def abstract_division(formula: z3.BoolRef) -> tuple[z3.BoolRef, list[z3.BoolRef]] | None:
    """`formula` with each `a /u b` and `a %u b` a fresh variable, plus the cheap facts every
    real quotient and remainder satisfies (`r <=u a`, `b != 0 -> r <u b`, `b != 0 -> q <=u a`,
    equal operands give equal results); None when it has no division. Unsat with the abstraction means unsat without it."""
    terms = _division_terms(formula)
    if not terms:
        return None
    pairs: list[tuple[z3.ExprRef, z3.ExprRef]] = []
    lemmas: list[z3.BoolRef] = []
    for n, term in enumerate(terms):
        a, b = term.children()
        fresh = z3.BitVec(f"tv.div{n}", term.size())
        pairs.append((term, fresh))
        if term.decl().kind() in (z3.Z3_OP_BUREM, z3.Z3_OP_BUREM_I):
            lemmas += [z3.ULE(fresh, a), z3.Implies(b != 0, z3.ULT(fresh, b))]
        else:
            lemmas.append(z3.Implies(b != 0, z3.ULE(fresh, a)))
    lemmas += _congruence(terms, pairs)
    # the lemmas mention division terms inside their operands too: substitute there as well
    return z3.substitute(formula, *pairs), [z3.substitute(lemma, *pairs) for lemma in lemmas]


def _congruence(terms: list[z3.ExprRef], pairs: list[tuple[z3.ExprRef, z3.ExprRef]]) -> list[z3.BoolRef]:
    """Ackermann's constraints: two divisions of the same kind with equal operands are equal
    (a division of a value computed two ways, e.g. nested expanded `ceildivsi`s)."""
    out: list[z3.BoolRef] = []
    for i, t1 in enumerate(terms):
        for j in range(i + 1, len(terms)):
            t2 = terms[j]
            if t1.decl().kind() == t2.decl().kind() and t1.size() == t2.size():
                (a1, b1), (a2, b2) = t1.children(), t2.children()
                out.append(z3.Implies(z3.And(a1 == a2, b1 == b2), pairs[i][1] == pairs[j][1]))
    return out


def _prove(queries: list[z3.BoolRef], timeout_s: float) -> tuple[z3.CheckSatResult, z3.ModelRef | None, str]:
    """unsat when every query is; else the first counterexample (sat) or unknown. Each query
    is first tried with division abstracted (fast when both sides share division terms)."""
    deadline = time.perf_counter() + timeout_s
    gave_up = ""
    for query in queries:
        abstract = abstract_division(query)
        if abstract is not None:
            answer, _ = solve(z3.And(abstract[0], *abstract[1]), max(0.001, deadline - time.perf_counter()))
            if answer == z3.unsat:
                continue
        answer, solver = solve(query, max(0.001, deadline - time.perf_counter()))
        if answer == z3.sat:
            return answer, solver.model(), ""
        if answer == z3.unknown:
            gave_up = gave_up or solver.reason_unknown()
    return (z3.unknown, None, gave_up) if gave_up else (z3.unsat, None, "")


#: bit-width reduction: the narrower widths tried when the full width is not decided
NARROW_WIDTHS = tuple(range(1, 17))


def _int_widths(func: ir.Operation) -> set[int]:
    """Every integer width of the function's values other than i1 (index excluded)."""
    widths: set[int] = set()

    def visit(op: ir.Operation) -> None:
        for v in [*op.results, *(a for r in op.regions for b in r.blocks for a in b.arguments)]:
            if isinstance(v.type, ir.IntegerType) and ir.IntegerType(v.type).width != 1:
                widths.add(int(ir.IntegerType(v.type).width))
        for r in op.regions:
            for b in r.blocks:
                for inner in b.operations:
                    visit(inner.operation)

    visit(func)
    return widths


def _proven_narrower_widths(src_func: ir.Operation, tgt_func: ir.Operation, index_width: int, unroll: int,
                            timeout_s: float) -> str | None:
    """When one integer width W (besides i1) is not decided: prove the function with W
    encoded at i1, i2, ... i16 (constants wrapped) within one more `timeout_s` in all,
    stopping at the first width not decided; say which widths held."""
    widths = _int_widths(src_func) | _int_widths(tgt_func)
    if len(widths) != 1:
        return None
    (full,) = widths
    deadline = time.perf_counter() + timeout_s
    proven: list[int] = []
    stopped = ""
    for w in (n for n in NARROW_WIDTHS if n < full):
        answer = _prove_at_width(src_func, tgt_func, {full: w}, index_width, unroll, deadline - time.perf_counter())
        if answer == z3.sat:
            return (f"proven at {_widths_text(proven)}; " if proven else "") + f"WRONG at i{w}"
        if answer != z3.unsat:
            stopped = f", i{w} not decided"
            break
        proven.append(w)
    if not proven:
        return None
    return f"proven at {_widths_text(proven)}{stopped}; i{full} not decided"


def _prove_at_width(src_func: ir.Operation, tgt_func: ir.Operation, narrow: dict[int, int], index_width: int,
                    unroll: int, timeout_s: float) -> z3.CheckSatResult:
    """The refinement with the integer widths of `narrow` encoded narrower (unknown when unsupported)."""
    if timeout_s <= 0:
        return z3.unknown
    src_enc = _FuncEncoder(index_width, unroll, Side.SOURCE, narrow)
    tgt_enc = _FuncEncoder(index_width, unroll, Side.TARGET, narrow)
    try:
        args, _ = _make_args(src_enc, src_func)
        src, tgt = src_enc.function(src_func, args), tgt_enc.function(tgt_func, args)
    except Unsupported:
        return z3.unknown
    return _prove(_obligations(src, tgt), timeout_s)[0]


def _widths_text(widths: list[int]) -> str:
    """`i1..i16` for a run of widths, else a comma list."""
    if len(widths) > 2 and widths == list(range(widths[0], widths[-1] + 1)):
        return f"i{widths[0]}..i{widths[-1]}"
    return ", ".join(f"i{w}" for w in widths)


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
