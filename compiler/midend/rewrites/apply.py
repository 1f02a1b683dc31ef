"""Match DSL patterns against MLIR `arith` ops and build their targets.

A match binds the pattern's type `W` to an integer type or `index`. Constant
expressions and preconditions are evaluated at the type's width; for `index`, whose
width depends on the target, they are evaluated at 32 and 64 bits and the rewrite
fires only when both agree (the same constant, the same precondition outcome).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from mlir import ir
from mlir.dialects import arith
from mlir.rewrite import PatternRewriter

from compiler.midend.arith_ops import CMPI_PREDICATES
from compiler.midend.rewrites import dsl
from compiler.midend.rewrites.dsl import I1, Const, Fn, Lit, Node, Op, Pattern, Var

INDEX_WIDTHS = (32, 64)
_OVERFLOW = re.compile(r"#arith\.overflow<([^>]*)>")


@dataclass
class Match:
    """Bindings of one successful match."""

    wtype: ir.Type | None = None
    values: dict[str, ir.Value] = field(default_factory=dict)
    consts: dict[str, int] = field(default_factory=dict)  # unsigned at the type's (max) width
    opt_flags: dict[str, list[bool]] = field(default_factory=dict)

    def copy(self) -> Match:
        return Match(self.wtype, dict(self.values), dict(self.consts), {k: list(v) for k, v in self.opt_flags.items()})

    def widths(self) -> tuple[int, ...]:
        """The widths constants are evaluated at: the type's, or 32 and 64 for index."""
        assert self.wtype is not None
        if isinstance(self.wtype, ir.IndexType):
            return INDEX_WIDTHS
        return (ir.IntegerType(self.wtype).width,)


def _i1() -> ir.Type:
    return ir.IntegerType.get_signless(1)


def op_flags(op: ir.Operation) -> set[str]:
    """The nsw/nuw/exact flags an arith op carries."""
    attrs = op.attributes
    flags: set[str] = set()
    if "overflowFlags" in attrs:
        m = _OVERFLOW.search(str(attrs["overflowFlags"]))
        if m:
            flags |= {f.strip() for f in m.group(1).split(",") if f.strip() and f.strip() != "none"}
    if "isExact" in attrs:
        flags.add("exact")
    return flags


def _int_type_width(ty: ir.Type) -> int | None:
    if isinstance(ty, ir.IndexType):
        return 64
    if isinstance(ty, ir.IntegerType) and ir.IntegerType(ty).is_signless:
        return int(ir.IntegerType(ty).width)
    return None


def constant_value(value: ir.Value) -> int | None:
    """The (signed) value of an integer `arith.constant`, or None."""
    if not isinstance(value, ir.OpResult):
        return None
    owner = value.owner
    if owner.name != "arith.constant":
        return None
    attr = owner.attributes["value"]
    if isinstance(attr, ir.BoolAttr):  # i1 constants print as true/false
        return -1 if ir.BoolAttr(attr).value else 0
    if not isinstance(attr, ir.IntegerAttr):
        return None
    return int(ir.IntegerAttr(attr).value)


def _type_ok(node: Node, value: ir.Value, m: Match, pattern: Pattern) -> bool:
    ty = value.type
    if _int_type_width(ty) is None:
        return False
    if node.ty == I1:
        return isinstance(ty, ir.IntegerType) and ir.IntegerType(ty).width == 1
    if m.wtype is None:
        if pattern.needs_wide and not (isinstance(ty, ir.IntegerType) and ir.IntegerType(ty).width > 1):
            return False
        m.wtype = ty
        return True
    return ty == m.wtype


def match(pattern: Pattern, node: Node, value: ir.Value, m: Match) -> Match | None:
    """Match `node` against `value`; returns the extended bindings or None."""
    m = m.copy()
    if not _type_ok(node, value, m, pattern):
        return None
    width = _int_type_width(value.type)
    assert width is not None
    mask = (1 << width) - 1
    if isinstance(node, Var):
        bound = m.values.get(node.name)
        if bound is not None:
            return m if bound == value else None
        m.values[node.name] = value
        return m
    if isinstance(node, (Const, Lit)):
        v = constant_value(value)
        if v is None:
            return None
        if isinstance(node, Lit):
            return m if (v & mask) == (node.value & mask) else None
        if node.name in m.consts:
            return m if m.consts[node.name] == (v & mask) else None
        m.consts[node.name] = v & mask
        return m
    if isinstance(node, Fn):  # only `width` may appear in a source; it never matches an SSA value
        return None
    if not isinstance(value, ir.OpResult):
        return None
    op = value.owner
    if op.name != f"arith.{node.name}" or len(op.results) != 1:
        return None
    flags = op_flags(op)
    if any(f not in flags for f in node.flags):
        return None
    if node.predicate:
        pred = ir.IntegerAttr(op.attributes["predicate"]).value
        if CMPI_PREDICATES[pred] != node.predicate:
            return None
    for f in node.opt_flags:
        m.opt_flags.setdefault(f, []).append(f in flags)
    operands = list(op.operands)
    orders = [operands]
    if dsl.OPS[node.name].commutative:
        orders.append(operands[::-1])
    for order in orders:
        current: Match | None = m
        for arg, operand in zip(node.args, order, strict=True):
            assert current is not None
            current = match(pattern, arg, operand, current)
            if current is None:
                break
        if current is not None:
            return current
    return None


def _const_at(node: Node, m: Match) -> int | None:
    """The signed value of a constant expression at the type's width. For index (an
    attribute of 64 bits that a 32-bit target truncates) the 64-bit result must truncate
    to the 32-bit result, else None."""
    widths = m.widths() if node.ty != I1 else (1,)
    results = []
    for w in widths:
        consts = {k: v & ((1 << w) - 1) for k, v in m.consts.items()}
        results.append(dsl.const_eval(node, w, consts))
    widest, top = max(widths), results[widths.index(max(widths))]
    if any(top & ((1 << w) - 1) != r for w, r in zip(widths, results, strict=True)):
        return None
    return dsl.signed_value(top, widest)


def preconditions_hold(pattern: Pattern, m: Match) -> bool:
    for w in m.widths():
        consts = {k: v & ((1 << w) - 1) for k, v in m.consts.items()}
        if not all(dsl.pred_eval(p, w, consts) for p in pattern.pre):
            return False
    return True


class _Builder:
    def __init__(self, m: Match) -> None:
        self.m = m
        self.memo: dict[Node, ir.Value] = {}
        self.constants: dict[tuple[int, str], ir.Value] = {}

    def type_of(self, node: Node) -> ir.Type:
        if node.ty == I1:
            return _i1()
        assert self.m.wtype is not None
        return self.m.wtype

    def plan(self, node: Node) -> bool:
        """Dry run: every constant of the target is computable."""
        if isinstance(node, Var):
            return True
        if dsl.is_constant_expr(node):
            return _const_at(node, self.m) is not None
        return all(self.plan(a) for a in dsl.children(node))

    def build(self, node: Node) -> ir.Value:
        if node in self.memo:
            return self.memo[node]
        if isinstance(node, Var):
            value = self.m.values[node.name]
        elif dsl.is_constant_expr(node):
            v = _const_at(node, self.m)
            assert v is not None
            ty = self.type_of(node)
            key = (v, str(ty))
            if key not in self.constants:
                self.constants[key] = arith.ConstantOp(ty, ir.IntegerAttr.get(ty, v)).result
            value = self.constants[key]
        else:
            assert isinstance(node, Op)
            operands = [self.build(a) for a in node.args]
            value = self._op(node, operands)
        self.memo[node] = value
        return value

    def _op(self, node: Op, operands: Sequence[ir.Value]) -> ir.Value:
        attrs: dict[str, ir.Attribute] = {}
        flags = list(node.flags) + [f for f in node.opt_flags if all(self.m.opt_flags.get(f, [False]))]
        overflow = [f for f in ("nsw", "nuw") if f in flags]
        if overflow:
            attrs["overflowFlags"] = ir.Attribute.parse(f"#arith.overflow<{', '.join(overflow)}>")
        if "exact" in flags:
            attrs["isExact"] = ir.UnitAttr.get()
        if node.predicate:
            attrs["predicate"] = ir.IntegerAttr.get(
                ir.IntegerType.get_signless(64), CMPI_PREDICATES.index(node.predicate)
            )
        op = ir.Operation.create(f"arith.{node.name}", results=[self.type_of(node)], operands=list(operands),
                                 attributes=attrs)
        return op.result


def try_rewrite(pattern: Pattern, op: ir.Operation, rewriter: PatternRewriter) -> bool:
    """Apply `pattern` at `op` if it matches; True when the IR changed."""
    if len(op.results) != 1:
        return False
    m = match(pattern, pattern.source, op.results[0], Match())
    if m is not None and m.wtype is None:  # an i1-only pattern
        m.wtype = _i1()
    if m is None or not preconditions_hold(pattern, m):
        return False
    builder = _Builder(m)
    if not builder.plan(pattern.target):
        return False
    with rewriter.ip:
        value = builder.build(pattern.target)
    rewriter.replace_op(op, [value])
    return True


def instantiate(pattern: Pattern, operands: Sequence[ir.Value]) -> ir.Value:
    """Build a helper's target at the current insertion point, its source's variables bound
    to `operands` in order of first use (e.g. `floor-mod`: a, b)."""
    names = [v.name for v in pattern.variables()]
    if len(names) != len(operands):
        raise ValueError(f"{pattern.name} takes {len(names)} operands, not {len(operands)}")
    wtype = operands[0].type
    if any(o.type != wtype for o in operands) or _int_type_width(wtype) is None:
        raise ValueError(f"{pattern.name}: operands must share one integer or index type")
    m = Match(wtype, dict(zip(names, operands, strict=True)))
    builder = _Builder(m)
    if not builder.plan(pattern.target):
        raise ValueError(f"{pattern.name}: constants differ between 32- and 64-bit index")
    return builder.build(pattern.target)
