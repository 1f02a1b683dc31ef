"""Prove DSL rewrite patterns with Z3 at every width; report Alive-style counterexamples.

For a pattern and a width the query is: is there an assignment of the inputs (values,
which may be poison; constants, which satisfy the precondition; the optional flags of
the source ops) under which the target does not refine the source? `unsat` proves the
pattern at that width, a model is a counterexample.

Constants constrained by `is_pow2` are enumerated above 8 bits (one closed query per
power of two, most of which Z3's simplifier decides without search): a division by a
symbolic power of two is otherwise slow to prove at 64 bits.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import z3

from compiler.midend.rewrites import dsl
from compiler.midend.rewrites.dsl import I1, Const, Fn, Lit, Node, Pattern, Pred, Var
from equivalence import semantics as sem
from equivalence.semantics import FALSE, Res, Side, Val
from equivalence.solver import solve

#: Width labels for `index`: the same bit-vector semantics at the two index widths.
INDEX_WIDTHS = {"index32": 32, "index64": 64}
ENUMERATE_ABOVE = 8
DEFAULT_TIMEOUT_S = 120.0
#: widths checked first; a pattern wrong there is not tried wider (see verify_patterns)
SMALL_WIDTH = 8


# ----------------------------------------------------------------------------- constants in Z3


def _log2(a: z3.BitVecRef) -> z3.BitVecRef:
    w = a.size()
    r: z3.BitVecRef = sem.bv(0, w)
    for i in range(w):  # the highest set bit wins
        r = z3.If(z3.Extract(i, i, a) == 1, sem.bv(i, w), r)
    return r


#: Z3 meaning of each constant function (must agree with dsl.CONST_EVAL; tested).
CONST_Z3: dict[str, Callable[..., z3.BitVecRef]] = {
    "add": lambda w, a, b: a + b,
    "sub": lambda w, a, b: a - b,
    "mul": lambda w, a, b: a * b,
    "and": lambda w, a, b: a & b,
    "or": lambda w, a, b: a | b,
    "xor": lambda w, a, b: a ^ b,
    "shl": lambda w, a, b: a << b,
    "neg": lambda w, a: -a,
    "not": lambda w, a: ~a,
    "log2": lambda w, a: _log2(a),
    "width": lambda w: sem.bv(w, w),
}

#: Z3 meaning of each precondition (must agree with dsl.PRED_EVAL; tested).
PRED_Z3: dict[str, Callable[..., z3.BoolRef]] = {
    "is_pow2": lambda w, a: z3.And(a != 0, a & (a - 1) == 0),
    "eq": lambda w, a, b: a == b,
    "ne": lambda w, a, b: a != b,
    "ult": lambda w, a, b: z3.ULT(a, b),
    "ule": lambda w, a, b: z3.ULE(a, b),
    "ugt": lambda w, a, b: z3.UGT(a, b),
    "uge": lambda w, a, b: z3.UGE(a, b),
    "slt": lambda w, a, b: a < b,
    "sle": lambda w, a, b: a <= b,
    "sgt": lambda w, a, b: a > b,
    "sge": lambda w, a, b: a >= b,
    "sadd_ok": lambda w, a, b: z3.SignExt(1, a) + z3.SignExt(1, b) == z3.SignExt(1, a + b),
    "uadd_ok": lambda w, a, b: z3.ZeroExt(1, a) + z3.ZeroExt(1, b) == z3.ZeroExt(1, a + b),
}


# ----------------------------------------------------------------------------- encoding


@dataclass
class Encoded:
    """A pattern at one width as Z3 terms."""

    width: int
    inputs: list[tuple[str, str, z3.BitVecRef, z3.BoolRef | None]]  # (name, type, bits, poison)
    flags: list[tuple[str, z3.BoolRef]]
    pre: z3.BoolRef
    src: Val
    src_ub: z3.BoolRef
    tgt: Val
    tgt_ub: z3.BoolRef
    src_steps: list[Step] = field(default_factory=list)
    tgt_steps: list[Step] = field(default_factory=list)

    def violation(self) -> z3.BoolRef:
        return z3.And(self.pre, z3.Not(sem.refines([self.src], self.src_ub, [self.tgt], self.tgt_ub)))


class _Encoder:
    def __init__(self, pattern: Pattern, width: int) -> None:
        self.p = pattern
        self.w = width
        self.inputs: dict[str, tuple[str, str, z3.BitVecRef, z3.BoolRef | None]] = {}
        self.flags: list[tuple[str, z3.BoolRef]] = []
        self.opt_flags: dict[str, list[z3.BoolRef]] = {}

    def width_of(self, ty: str) -> int:
        return 1 if ty == I1 else self.w

    def type_name(self, ty: str) -> str:
        return f"i{self.width_of(ty)}"

    def const(self, node: Node) -> z3.BitVecRef:
        """A constant expression as a bit-vector term."""
        w = self.width_of(node.ty)
        if isinstance(node, Lit):
            return sem.bv(node.value, w)
        if isinstance(node, Const):
            return self.leaf(node).term
        if isinstance(node, Fn):
            return CONST_Z3[node.name](w, *[self.const(a) for a in node.args])
        raise dsl.PatternError(f"not a constant expression: {dsl.render(node)}")

    def pred(self, pred: Pred) -> z3.BoolRef:
        if pred.name == "not":
            inner = pred.args[0]
            assert isinstance(inner, Pred)
            return z3.Not(self.pred(inner))
        args = [a for a in pred.args if not isinstance(a, Pred)]
        w = self.width_of(args[0].ty) if args else self.w
        return PRED_Z3[pred.name](w, *[self.const(a) for a in args])

    def leaf(self, node: Var | Const) -> Val:
        if node.name not in self.inputs:
            w = self.width_of(node.ty)
            bits = z3.BitVec(node.name, w)
            poison = z3.Bool(f"{node.name}.poison") if isinstance(node, Var) else None
            self.inputs[node.name] = (node.name, self.type_name(node.ty), bits, poison)
        _, _, bits, poison = self.inputs[node.name]
        return Val(bits, poison if poison is not None else FALSE)

    def encode(self, node: Node, side: Side, path: str, steps: list[Step],
               memo: dict[Node, tuple[Res, str]]) -> tuple[Res, str]:
        """Encode `node`; returns its result and how the report names it (`%2`, `x`, `7`)."""
        if isinstance(node, (Var, Const)):
            return Res(self.leaf(node), FALSE), node.name
        if isinstance(node, (Lit, Fn)):
            return Res(Val(self.const(node), FALSE), FALSE), dsl.render(node)
        shareable = side is Side.TARGET or not node.opt_flags
        if shareable and node in memo:
            return memo[node]
        encoded = [self.encode(a, side, f"{path}.{i}", steps, memo) for i, a in enumerate(node.args)]
        args = [r for r, _ in encoded]
        ub = sem.any_of(*[a.ub for a in args])
        flags: dict[str, z3.BoolRef | bool] = {f: True for f in node.flags}
        if side is Side.SOURCE:
            for f in node.opt_flags:
                var = z3.Bool(f"{path}:{node.name}.{f}")
                self.flags.append((f"{node.name} at {path or 'root'}: {f}", var))
                self.opt_flags.setdefault(f, []).append(var)
                flags[f] = var
        else:
            for f in node.opt_flags:
                flags[f] = z3.And(*self.opt_flags[f]) if len(self.opt_flags[f]) > 1 else self.opt_flags[f][0]
        vals = [a.val for a in args]
        sig = dsl.OPS[node.name]
        if node.name == "floormodsi":
            res = sem.floormodsi(vals[0], vals[1])
        elif sig.kind == "binary":
            res = sem.binop(node.name, vals[0], vals[1], flags, side)
        elif sig.kind == "cmpi":
            res = sem.cmpi(node.predicate, vals[0], vals[1])
        elif sig.kind == "select":
            res = sem.select(*vals)
        elif node.name == "extsi":
            res = sem.extsi(vals[0], self.width_of(node.ty))
        elif node.name == "extui":
            res = sem.extui(vals[0], self.width_of(node.ty))
        elif node.name == "trunci":
            res = sem.trunci(vals[0], self.width_of(node.ty), flags)
        else:  # pragma: no cover - the DSL's op table and this switch are kept in step
            raise sem.Unsupported(node.name)
        label = f"%{len(steps)}"
        fixed = ([node.predicate] if node.predicate else []) + list(node.flags)
        optional = [(f, flags[f]) for f in node.opt_flags]
        steps.append(Step(self.type_name(node.ty), label, node.name, fixed, optional, [n for _, n in encoded],
                          res.val, res.ub))
        out = (Res(res.val, sem.any_of(ub, res.ub)), label)
        if shareable:
            memo[node] = out
        return out


@dataclass
class Step:
    """One op of a pattern side, for reports: `%1 = addi[nsw](%0, C1)`."""

    ty: str
    label: str
    op: str
    attrs: list[str]
    optional: list[tuple[str, z3.BoolRef | bool]]
    args: list[str]
    val: Val
    ub: z3.BoolRef = FALSE

    def text(self, model: z3.ModelRef) -> str:
        attrs = list(self.attrs)
        for name, flag in self.optional:
            if flag is True or (not isinstance(flag, bool) and z3.is_true(model.eval(flag, model_completion=True))):
                attrs.append(name)
        shown = f"[{', '.join(attrs)}]" if attrs else ""
        return f"{self.label} = {self.op}{shown}({', '.join(self.args)})"


def encode(pattern: Pattern, width: int) -> Encoded:
    """The Z3 terms of `pattern` at integer width `width`."""
    enc = _Encoder(pattern, width)
    src_steps: list[Step] = []
    tgt_steps: list[Step] = []
    src, _ = enc.encode(pattern.source, Side.SOURCE, "", src_steps, {})
    tgt, _ = enc.encode(pattern.target, Side.TARGET, "", tgt_steps, {})
    pre = z3.And(*[enc.pred(p) for p in pattern.pre]) if pattern.pre else sem.TRUE
    return Encoded(width, list(enc.inputs.values()), enc.flags, pre, src.val, src.ub, tgt.val, tgt.ub,
                   src_steps, tgt_steps)


# ----------------------------------------------------------------------------- checking


@dataclass
class WidthResult:
    """The outcome at one width: `ok`, `fail` (with a counterexample) or `unknown`."""

    pattern: str
    width: str
    status: str
    seconds: float
    counterexample: str = ""
    check: str = ""  # UB | poison | value, for failures


def width_labels(pattern: Pattern, only: int | None = None, max_width: int = 64) -> list[str]:
    """Widths to verify: 1..64 (or those of an i1-only pattern) plus index32/index64."""
    widths = pattern.widths(max_width)
    if only is not None:
        widths = [w for w in widths if w == only]
    labels = [str(w) for w in widths]
    if not pattern.i1_only and not pattern.needs_wide and only in (None, 32, 64):
        labels += [k for k, v in INDEX_WIDTHS.items() if only is None or only == v]
    return labels


def _bits(label: str) -> int:
    return INDEX_WIDTHS.get(label) or int(label)


def _case_split(pattern: Pattern, enc: Encoded) -> tuple[z3.BitVecRef, list[int]] | None:
    """The one constant constrained by `is_pow2(C)`, with its values 2**k (None if there is
    not exactly one): a division by a symbolic power of two is slow to prove at 64 bits,
    one closed query per power of two is fast."""
    names = {a.name for p in pattern.pre if p.name == "is_pow2" for a in p.args if isinstance(a, Const)}
    if len(names) != 1:
        return None
    (name,) = names
    bits = next(b for n, _, b, _ in enc.inputs if n == name)
    return bits, [1 << k for k in range(enc.width)]


_CASE_BY_CASE: set[str] = set()


def _find_violation(pattern: Pattern, enc: Encoded, timeout_s: float) -> tuple[str, z3.Solver | None]:
    """('unsat', None) when the pattern holds, ('sat', solver) with a model, or ('unknown', None)."""
    violation = enc.violation()
    split = _case_split(pattern, enc) if enc.width > ENUMERATE_ABOVE else None
    if split is None:
        answer, solver = solve(violation, timeout_s)
        return str(answer), solver if answer == z3.sat else None
    bits, values = split
    cases: list[z3.BoolRef] = []
    for v in values:
        value = sem.bv(v, enc.width)
        case = z3.simplify(z3.substitute(violation, (bits, value)))
        if not z3.is_false(case):
            cases.append(z3.And(bits == value, case))
    if not cases:
        return "unsat", None
    # One query for all cases is often fastest; when it is not (it runs out of a short
    # budget), this process remembers to go case by case for that pattern.
    if pattern.name not in _CASE_BY_CASE:
        answer, solver = solve(z3.Or(*cases), min(0.25, timeout_s))
        if answer != z3.unknown:
            return str(answer), solver if answer == z3.sat else None
        _CASE_BY_CASE.add(pattern.name)
    status = "unsat"
    for case in cases:
        answer, solver = solve(case, timeout_s)
        if answer == z3.sat:
            return "sat", solver
        if answer == z3.unknown:
            status = "unknown"
    return status, None


def check_width(pattern: Pattern, label: str, timeout_s: float = DEFAULT_TIMEOUT_S) -> WidthResult:
    """Prove `pattern` at one width label ("8", "index64")."""
    start = time.perf_counter()
    enc = encode(pattern, _bits(label))
    status, solver = _find_violation(pattern, enc, timeout_s)
    if status == "unsat":
        return WidthResult(pattern.name, label, "ok", time.perf_counter() - start)
    if solver is None:
        return WidthResult(pattern.name, label, "unknown", time.perf_counter() - start)
    first = solver.model()
    model = _prefer_defined_inputs(solver, enc) or first
    failure = sem.classify(model, [enc.src], enc.src_ub, [enc.tgt], enc.tgt_ub)
    text = format_counterexample(pattern, label, enc, model, failure)
    return WidthResult(pattern.name, label, "fail", time.perf_counter() - start, text, failure.kind)


def _prefer_defined_inputs(solver: z3.Solver, enc: Encoded) -> z3.ModelRef | None:
    """A counterexample without poison inputs, when there is one (easier to read)."""
    poisons = [p for _, _, _, p in enc.inputs if p is not None]
    if not poisons:
        return None
    solver.set("timeout", 5000)
    if solver.check(*[z3.Not(p) for p in poisons]) == z3.sat:
        return solver.model()
    return None


def _value_text(model: z3.ModelRef, ty: str, val: Val, ub: z3.BoolRef | None = None) -> str:
    if ub is not None and z3.is_true(model.eval(ub, model_completion=True)):
        return "UB triggered"
    if z3.is_true(model.eval(val.poison, model_completion=True)):
        return "poison"
    bits = model.eval(val.term, model_completion=True)
    return sem.format_int(bits.as_long(), int(ty[1:]))


def format_counterexample(pattern: Pattern, label: str, enc: Encoded, model: z3.ModelRef,
                          failure: sem.Failure) -> str:
    """An Alive-style report: inputs in hex/unsigned/signed, source and target values."""
    where = f"index ({enc.width} bits)" if label in INDEX_WIDTHS else f"i{enc.width}"
    lines = [
        f"pattern '{pattern.name}' is wrong at {where}",
        f"  {pattern.text.strip()}",
        f"ERROR: {failure.message} (check failed: {failure.kind})",
        "",
        "Example:",
    ]
    for name, ty, bits, poison in enc.inputs:
        if poison is not None and z3.is_true(model.eval(poison, model_completion=True)):
            lines.append(f"  {ty} {name} = poison")
        else:
            value = model.eval(bits, model_completion=True).as_long()
            lines.append(f"  {ty} {name} = {sem.format_int(value, bits.size())}")
    for text, flag in enc.flags:
        lines.append(f"  flag {text} = {z3.is_true(model.eval(flag, model_completion=True))}")
    lines.append("Source:")
    for step in enc.src_steps:
        lines.append(f"  {step.ty} {step.text(model)} = {_value_text(model, step.ty, step.val, step.ub)}")
    if z3.is_true(model.eval(enc.src_ub, model_completion=True)):
        lines.append("  (source has undefined behavior)")
    lines.append("Target:")
    for step in enc.tgt_steps:
        lines.append(f"  {step.ty} {step.text(model)} = {_value_text(model, step.ty, step.val, step.ub)}")
    root_ty = f"i{1 if pattern.target.ty == I1 else enc.width}"
    lines.append(f"Source value: {_value_text(model, root_ty, enc.src, enc.src_ub)}")
    lines.append(f"Target value: {_value_text(model, root_ty, enc.tgt, enc.tgt_ub)}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- all patterns


@dataclass
class PatternResult:
    """All widths of one pattern."""

    pattern: Pattern
    widths: list[WidthResult]

    @property
    def holds(self) -> bool:
        return all(r.status == "ok" for r in self.widths)

    @property
    def seconds(self) -> float:
        return sum(r.seconds for r in self.widths)

    def first_failure(self) -> WidthResult | None:
        bad = [r for r in self.widths if r.status != "ok"]
        bad.sort(key=lambda r: (r.status != "fail", _bits(r.width), r.width))
        return bad[0] if bad else None


def _job(args: tuple[Pattern, str, float]) -> WidthResult:
    return check_width(*args)


def _run_tasks(tasks: list[tuple[Pattern, str, float]], jobs: int) -> list[WidthResult]:
    if jobs == 1 or len(tasks) < 8:
        return [_job(t) for t in tasks]
    # biggest widths first so the slow queries do not end up last on one worker
    tasks = sorted(tasks, key=lambda t: -_bits(t[1]))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(min(jobs, len(tasks))) as pool:
        return list(pool.imap_unordered(_job, tasks, chunksize=4))


def verify_patterns(patterns: Sequence[Pattern], *, width: int | None = None, jobs: int | None = None,
                    timeout_s: float = DEFAULT_TIMEOUT_S, all_widths: bool = False) -> list[PatternResult]:
    """Verify every pattern at every width label, in `jobs` worker processes.

    Widths up to SMALL_WIDTH go first; a pattern already wrong there is not tried at the
    wider ones (a counterexample at 64 bits can take the solver much longer to find)
    unless `all_widths`."""
    tasks = [(p, label, timeout_s) for p in patterns for label in width_labels(p, width)]
    jobs = jobs or os.cpu_count() or 1
    small = [t for t in tasks if _bits(t[1]) <= SMALL_WIDTH and t[1] not in INDEX_WIDTHS]
    results: list[WidthResult] = _run_tasks(small, jobs)
    wrong = {r.pattern for r in results if r.status == "fail"} if not all_widths else set()
    rest = [t for t in tasks if t not in small and t[0].name not in wrong]
    results += _run_tasks(rest, jobs)
    by_name: dict[str, list[WidthResult]] = {p.name: [] for p in patterns}
    for r in results:
        by_name[r.pattern].append(r)
    out = []
    for p in patterns:
        rs = sorted(by_name[p.name], key=lambda r: (_bits(r.width), r.width))
        out.append(PatternResult(p, rs))
    return out
