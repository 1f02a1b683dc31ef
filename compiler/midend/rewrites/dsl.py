"""The rewrite-pattern DSL: one line per rewrite, `source => target [if precondition]`.

    add-of-add-nsw:  addi[nsw, ?nuw](addi[nsw, ?nuw](x, C0), C1)
                  => addi[nsw, ?nuw](x, C0 + C1)  if sadd_ok(C0, C1)

Names:
* lowercase (`x`, `y`, `c`): any SSA value; a name used twice is the same value.
* uppercase (`C`, `C0`): an `arith.constant`, bound to its value.
* integer literals (`0`, `1`, `-1`): a constant with that value modulo 2**width.
* `width`: the bit width of the pattern's type, as a constant.

Ops are `arith` op names without the dialect: `addi(x, y)`. Brackets hold the op's
attributes: flags (`nsw`, `nuw`, `exact`) and a cmpi predicate (`cmpi[slt](a, b)`).
In the source a flag is required (`nsw`) or optional (`?nuw`, the op may or may not
have it); an op may also carry flags the pattern does not mention (more poison in the
source only makes a rewrite easier to justify). In the target `nsw` is always set and
`?nuw` is set exactly when every source op marked `?nuw` had it.

Constant expressions (`C0 + C1`, `-C`, `~C`, `C - 1`, `log2(C)`, `C0 * C1`, `&`, `|`,
`^`, `1 << K`; one precedence level, left to right, except `*`) are computed when the
rewrite fires and materialised as `arith.constant`s; they wrap at the width. Preconditions are predicates on constants joined by `and`:
`is_pow2(C)`, `eq/ne/ult/ule/ugt/uge/slt/sle/sgt/sge(a, b)`, `sadd_ok/uadd_ok(a, b)`
(the addition does not overflow), `not(p)`.

Types: every value has the pattern's type `W` (an integer of any width, or `index`)
except where an op forces `i1` (a cmpi result, a select condition, the operand of
`extsi`/`extui`, the result of `trunci`). A pattern whose values are all forced to `i1`
is a pattern on `i1` only.

This module is pure Python (no MLIR, no Z3): the midend matches and builds with it,
`equivalence.verify` proves it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import TypeAlias

from compiler.midend.arith_ops import CMPI_PREDICATES, INT_BINARY_OPS

W = "W"  # the pattern's type
I1 = "i1"


# ----------------------------------------------------------------------------- op signatures


@dataclass(frozen=True)
class OpSig:
    """How an op of the DSL is typed: operand types and result type, as type slots."""

    name: str
    arity: int
    flags: tuple[str, ...] = ()
    commutative: bool = False
    kind: str = "binary"  # binary | cmpi | select | ext | trunc
    #: a spec-only op: it has semantics (for lowerings) but no MLIR op to match or build
    spec_only: bool = False


OPS: dict[str, OpSig] = {
    **{n: OpSig(n, 2, op.flags, op.commutative) for n, op in INT_BINARY_OPS.items()},
    "cmpi": OpSig("cmpi", 2, kind="cmpi"),
    "select": OpSig("select", 3, kind="select"),
    "extsi": OpSig("extsi", 1, kind="ext"),
    "extui": OpSig("extui", 1, kind="ext"),
    "trunci": OpSig("trunci", 1, ("nsw", "nuw"), kind="trunc"),
    # Python's `%` (the sign follows the divisor): the spec of the floor-mod lowering.
    "floormodsi": OpSig("floormodsi", 2, spec_only=True),
}

#: constant functions: name -> arity (their meaning: `const_eval` here, Z3 in equivalence)
CONST_FUNCS: dict[str, int] = {
    "add": 2, "sub": 2, "mul": 2, "and": 2, "or": 2, "xor": 2, "neg": 1, "not": 1,
    "shl": 2, "log2": 1, "width": 0,
}  # fmt: skip
#: predicates on constants: name -> arity
PREDICATES: dict[str, int] = {
    "is_pow2": 1, "eq": 2, "ne": 2, "ult": 2, "ule": 2, "ugt": 2, "uge": 2,
    "slt": 2, "sle": 2, "sgt": 2, "sge": 2, "sadd_ok": 2, "uadd_ok": 2, "not": 1,
}  # fmt: skip
_INFIX = {"+": "add", "-": "sub", "*": "mul", "&": "and", "|": "or", "^": "xor", "<<": "shl"}


# ----------------------------------------------------------------------------- syntax tree


@dataclass(frozen=True)
class Var:
    name: str
    ty: str = ""


@dataclass(frozen=True)
class Const:
    name: str
    ty: str = ""


@dataclass(frozen=True)
class Lit:
    value: int
    ty: str = ""


@dataclass(frozen=True)
class Fn:
    """A constant expression: `add(C0, C1)` (written `C0 + C1`), `log2(C)`, `width`."""

    name: str
    args: tuple[Node, ...]
    ty: str = ""


@dataclass(frozen=True)
class Op:
    """An arith op: `name[flags](args)`; `opt_flags` are the source's `?flag`s."""

    name: str
    args: tuple[Node, ...]
    flags: tuple[str, ...] = ()
    opt_flags: tuple[str, ...] = ()
    predicate: str = ""
    ty: str = ""


@dataclass(frozen=True)
class Pred:
    """A precondition: `is_pow2(C)`, `ult(C, width)`, `not(...)`."""

    name: str
    args: tuple[Node | Pred, ...]


Node: TypeAlias = Var | Const | Lit | Fn | Op


def children(node: Node) -> tuple[Node, ...]:
    return node.args if isinstance(node, (Op, Fn)) else ()


def walk(node: Node) -> Iterator[Node]:
    """Pre-order walk over a tree."""
    yield node
    for child in children(node):
        yield from walk(child)


def is_constant_expr(node: Node) -> bool:
    """True for trees made only of constants, literals and constant functions."""
    return all(not isinstance(n, (Var, Op)) for n in walk(node))


class PatternError(ValueError):
    """A malformed pattern (raised when the table or a pattern file is loaded)."""


# ----------------------------------------------------------------------------- parser

_TOKEN = re.compile(
    r"\s*(?:(?P<num>0x[0-9a-fA-F]+|\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>=>|<<|[-+*&|^~()\[\],?]))"
)


def _tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise PatternError(f"unexpected character {text[pos:].strip()[:1]!r} at column {pos + 1}")
        tokens.append(m.group(m.lastgroup or "op"))
        pos = m.end()
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokenize(text)
        self.i = 0

    def peek(self) -> str:
        return self.tokens[self.i] if self.i < len(self.tokens) else ""

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if expected is not None and tok != expected:
            raise PatternError(f"expected {expected!r}, found {tok or 'end of pattern'!r}")
        if not tok:
            raise PatternError("unexpected end of pattern")
        self.i += 1
        return tok

    # expr := term (infix term)*, left-associative, one precedence level except '*'
    def expr(self) -> Node:
        node = self.product()
        while self.peek() in ("+", "-", "&", "|", "^", "<<"):
            op = self.take()
            node = Fn(_INFIX[op], (node, self.product()))
        return node

    def product(self) -> Node:
        node = self.unary()
        while self.peek() == "*":
            self.take()
            node = Fn("mul", (node, self.unary()))
        return node

    def unary(self) -> Node:
        if self.peek() == "-":
            self.take()
            inner = self.unary()
            return Lit(-inner.value) if isinstance(inner, Lit) else Fn("neg", (inner,))
        if self.peek() == "~":
            self.take()
            return Fn("not", (self.unary(),))
        return self.atom()

    def atom(self) -> Node:
        tok = self.take()
        if tok == "(":
            node = self.expr()
            self.take(")")
            return node
        if re.fullmatch(r"0x[0-9a-fA-F]+|\d+", tok):
            return Lit(int(tok, 0))
        if not re.fullmatch(r"[A-Za-z_]\w*", tok):
            raise PatternError(f"unexpected {tok!r}")
        if tok == "width":
            return Fn("width", ())
        attrs: list[str] = []
        if self.peek() == "[":
            self.take("[")
            while True:
                optional = self.peek() == "?"
                if optional:
                    self.take()
                attrs.append(("?" if optional else "") + self.take())
                if self.peek() == "]":
                    break
                self.take(",")
            self.take("]")
        if self.peek() != "(":
            if attrs:
                raise PatternError(f"{tok}[...] needs operands")
            return Const(tok) if tok[0].isupper() else Var(tok)
        self.take("(")
        args: list[Node] = []
        if self.peek() != ")":
            args.append(self.expr())
            while self.peek() == ",":
                self.take()
                args.append(self.expr())
        self.take(")")
        return self.call(tok, attrs, tuple(args))

    def call(self, name: str, attrs: list[str], args: tuple[Node, ...]) -> Node:
        if name in OPS:
            sig = OPS[name]
            if len(args) != sig.arity:
                raise PatternError(f"{name} takes {sig.arity} operands, not {len(args)}")
            predicate = ""
            flags: list[str] = []
            opt: list[str] = []
            for a in attrs:
                bare = a.lstrip("?")
                if sig.kind == "cmpi" and bare in CMPI_PREDICATES and not a.startswith("?"):
                    predicate = bare
                elif bare in sig.flags:
                    (opt if a.startswith("?") else flags).append(bare)
                else:
                    raise PatternError(f"{name} has no attribute {bare!r}")
            if sig.kind == "cmpi" and not predicate:
                raise PatternError("cmpi needs a predicate: cmpi[slt](a, b)")
            return Op(name, args, tuple(flags), tuple(opt), predicate)
        if attrs:
            raise PatternError(f"{name} takes no attributes")
        if name in CONST_FUNCS:
            if len(args) != CONST_FUNCS[name]:
                raise PatternError(f"{name} takes {CONST_FUNCS[name]} arguments")
            return Fn(name, args)
        raise PatternError(f"unknown op or function {name!r}")

    def predicate(self) -> Pred:
        name = self.take()
        if name not in PREDICATES:
            raise PatternError(f"unknown precondition {name!r}")
        self.take("(")
        args: list[Node | Pred] = []
        if name == "not":
            args.append(self.predicate())
        else:
            args.append(self.expr())
            while self.peek() == ",":
                self.take()
                args.append(self.expr())
        self.take(")")
        if len(args) != PREDICATES[name]:
            raise PatternError(f"{name} takes {PREDICATES[name]} arguments")
        return Pred(name, tuple(args))


# ----------------------------------------------------------------------------- patterns


@dataclass(frozen=True)
class Pattern:
    """A typed rewrite: `source => target if all(pre)`."""

    name: str
    source: Op
    target: Node
    pre: tuple[Pred, ...] = ()
    phase: str = "simplify"
    doc: str = ""
    text: str = ""
    #: the pattern's values are all i1 (its type was forced by the ops it uses)
    i1_only: bool = False
    #: uses extsi/extui/trunci between i1 and W, so W must be wider than 1
    needs_wide: bool = False
    spec: bool = field(default=False)

    @property
    def benefit(self) -> int:
        """More specific sources win: source nodes, then required flags and preconditions."""
        nodes = list(walk(self.source))
        flags = sum(len(n.flags) for n in nodes if isinstance(n, Op))
        return 4 * len(nodes) + flags + len(self.pre)

    def widths(self, max_width: int = 64) -> list[int]:
        """The integer widths at which the pattern has a meaning."""
        if self.i1_only:
            return [1]
        return list(range(2 if self.needs_wide else 1, max_width + 1))

    def variables(self) -> list[Var]:
        seen: dict[str, Var] = {}
        for n in walk(self.source):
            if isinstance(n, Var):
                seen.setdefault(n.name, n)
        return list(seen.values())

    def constants(self) -> list[Const]:
        seen: dict[str, Const] = {}
        for n in walk(self.source):
            if isinstance(n, Const):
                seen.setdefault(n.name, n)
        return list(seen.values())


def parse_expr(text: str) -> Node:
    p = _Parser(text)
    node = p.expr()
    if p.peek():
        raise PatternError(f"unexpected {p.peek()!r} after expression")
    return node


#: deepest bracket nesting a pattern may have (parsing, matching and proving all recurse)
MAX_NESTING = 64


def _check_nesting(text: str) -> None:
    """Refuse a pattern nested deeper than MAX_NESTING, naming the column where it got too deep."""
    depth = 0
    for col, ch in enumerate(text, start=1):
        depth += 1 if ch in "([" else -1 if ch in ")]" else 0
        if depth > MAX_NESTING:
            raise PatternError(f"nested more than {MAX_NESTING} levels deep at column {col}")


def parse_pattern(name: str, text: str, *, phase: str = "simplify", doc: str = "", spec: bool = False) -> Pattern:
    """Parse and type-check `source => target [if pre and ...]`."""
    try:
        _check_nesting(text)
        p = _Parser(text)
        source = p.expr()
        p.take("=>")
        target = p.expr()
        pre: list[Pred] = []
        if p.peek() == "if":
            p.take()
            pre.append(p.predicate())
            while p.peek() == "and":
                p.take()
                pre.append(p.predicate())
        if p.peek():
            raise PatternError(f"unexpected {p.peek()!r}")
        return _check(name, source, target, tuple(pre), phase, doc, text, spec)
    except PatternError as exc:
        raise PatternError(f"pattern {name!r}: {exc}") from None


def _check(name: str, source: Node, target: Node, pre: tuple[Pred, ...], phase: str, doc: str,
           text: str, spec: bool) -> Pattern:
    if not isinstance(source, Op):
        raise PatternError("the source must be an op")
    for n in walk(source):
        if isinstance(n, Fn) and n.name != "width":
            raise PatternError("constant expressions are not allowed in the source")
        if isinstance(n, Op) and OPS[n.name].spec_only and not spec:
            raise PatternError(f"{n.name} exists only in specs")
    bound_vars = {n.name for n in walk(source) if isinstance(n, Var)}
    bound_consts = {n.name for n in walk(source) if isinstance(n, Const)}
    for n in walk(target):
        if isinstance(n, Var) and n.name not in bound_vars:
            raise PatternError(f"target uses unbound value {n.name!r}")
        if isinstance(n, Const) and n.name not in bound_consts:
            raise PatternError(f"target uses unbound constant {n.name!r}")
        if isinstance(n, Op) and n.opt_flags:
            src_opt = {f for m in walk(source) if isinstance(m, Op) for f in m.opt_flags}
            missing = set(n.opt_flags) - src_opt
            if missing:
                raise PatternError(f"target flag ?{sorted(missing)[0]} is not optional in the source")
        if isinstance(n, Op) and OPS[n.name].spec_only:
            raise PatternError(f"{n.name} exists only in specs")
    for pred in pre:
        for arg in _pred_nodes(pred):
            for n in walk(arg):
                if isinstance(n, (Var, Op)):
                    raise PatternError("preconditions may only use constants")
                if isinstance(n, Const) and n.name not in bound_consts:
                    raise PatternError(f"precondition uses unbound constant {n.name!r}")
    typed_source, typed_target, typed_pre, i1_only, needs_wide = _infer(source, target, pre)
    assert isinstance(typed_source, Op)
    return Pattern(name, typed_source, typed_target, typed_pre, phase, doc, text, i1_only, needs_wide, spec)


def _pred_nodes(pred: Pred) -> Iterator[Node]:
    for a in pred.args:
        if isinstance(a, Pred):
            yield from _pred_nodes(a)
        else:
            yield a


# ----------------------------------------------------------------------------- type inference


class _Types:
    """Union-find over type slots; a class is either forced to i1 or free (W)."""

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.i1: list[bool] = []
        self.distinct: list[tuple[int, int]] = []

    def fresh(self) -> int:
        self.parent.append(len(self.parent))
        self.i1.append(False)
        return len(self.parent) - 1

    def find(self, a: int) -> int:
        while self.parent[a] != a:
            self.parent[a] = self.parent[self.parent[a]]
            a = self.parent[a]
        return a

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb
            self.i1[rb] = self.i1[rb] or self.i1[ra]

    def force_i1(self, a: int) -> None:
        self.i1[self.find(a)] = True

    def resolve(self, a: int) -> str:
        return I1 if self.i1[self.find(a)] else W


def _infer(source: Node, target: Node, pre: tuple[Pred, ...]) -> tuple[Node, Node, tuple[Pred, ...], bool, bool]:
    t = _Types()
    names: dict[str, int] = {}
    slots: dict[int, int] = {}  # id(node) -> slot
    needs_wide = False

    def visit(node: Node) -> int:
        nonlocal needs_wide
        if isinstance(node, (Var, Const)):
            slot = names.setdefault(("v:" if isinstance(node, Var) else "c:") + node.name, t.fresh())
        elif isinstance(node, Lit):
            slot = t.fresh()
        elif isinstance(node, Fn):
            slot = t.fresh()
            for a in node.args:
                t.union(slot, visit(a))
        else:
            sig = OPS[node.name]
            slot = t.fresh()
            args = [visit(a) for a in node.args]
            if sig.kind == "binary":
                t.union(slot, args[0])
                t.union(slot, args[1])
            elif sig.kind == "cmpi":
                t.union(args[0], args[1])
                t.force_i1(slot)
            elif sig.kind == "select":
                t.force_i1(args[0])
                t.union(slot, args[1])
                t.union(slot, args[2])
            elif sig.kind == "ext":
                t.force_i1(args[0])
                t.distinct.append((slot, args[0]))
                needs_wide = True
            elif sig.kind == "trunc":
                t.force_i1(slot)
                t.distinct.append((slot, args[0]))
                needs_wide = True
        slots[id(node)] = slot
        return slot

    root = visit(source)
    t.union(root, visit(target))
    for pred in pre:
        _visit_pred(pred, visit, t)
    for a, b in t.distinct:
        if t.find(a) == t.find(b) or t.resolve(a) == t.resolve(b):
            raise PatternError("an extension or truncation must change the type (i1 <-> W)")

    def typed(node: Node) -> Node:
        ty = t.resolve(slots[id(node)])
        if isinstance(node, (Op, Fn)):
            return replace(node, args=tuple(typed(a) for a in node.args), ty=ty)
        return replace(node, ty=ty)

    def typed_pred(pred: Pred) -> Pred:
        return Pred(pred.name, tuple(typed_pred(a) if isinstance(a, Pred) else typed(a) for a in pred.args))

    all_i1 = all(t.resolve(s) == I1 for s in slots.values())
    return typed(source), typed(target), tuple(typed_pred(p) for p in pre), all_i1, needs_wide


def _visit_pred(pred: Pred, visit: Callable[[Node], int], t: _Types) -> None:
    """Arguments of one predicate share a type; nested predicates are typed on their own."""
    slots: list[int] = []
    for a in pred.args:
        if isinstance(a, Pred):
            _visit_pred(a, visit, t)
        else:
            slots.append(visit(a))
    for s in slots[1:]:
        t.union(slots[0], s)


# ----------------------------------------------------------------------------- constant evaluation


def signed_value(v: int, w: int) -> int:
    v %= 1 << w
    return v - (1 << w) if v >> (w - 1) else v


#: Python meaning of each constant function at width w (unsigned ints in, out mod 2**w).
CONST_EVAL: dict[str, Callable[..., int]] = {
    "add": lambda w, a, b: a + b,
    "sub": lambda w, a, b: a - b,
    "mul": lambda w, a, b: a * b,
    "and": lambda w, a, b: a & b,
    "or": lambda w, a, b: a | b,
    "xor": lambda w, a, b: a ^ b,
    "shl": lambda w, a, b: a << b if b < w else 0,
    "neg": lambda w, a: -a,
    "not": lambda w, a: ~a,
    "log2": lambda w, a: max(a.bit_length() - 1, 0),
    "width": lambda w: w,
}

#: Python meaning of each precondition at width w.
PRED_EVAL: dict[str, Callable[..., bool]] = {
    "is_pow2": lambda w, a: a != 0 and a & (a - 1) == 0,
    "eq": lambda w, a, b: a == b,
    "ne": lambda w, a, b: a != b,
    "ult": lambda w, a, b: a < b,
    "ule": lambda w, a, b: a <= b,
    "ugt": lambda w, a, b: a > b,
    "uge": lambda w, a, b: a >= b,
    "slt": lambda w, a, b: signed_value(a, w) < signed_value(b, w),
    "sle": lambda w, a, b: signed_value(a, w) <= signed_value(b, w),
    "sgt": lambda w, a, b: signed_value(a, w) > signed_value(b, w),
    "sge": lambda w, a, b: signed_value(a, w) >= signed_value(b, w),
    "sadd_ok": lambda w, a, b: -(1 << (w - 1)) <= signed_value(a, w) + signed_value(b, w) < (1 << (w - 1)),
    "uadd_ok": lambda w, a, b: a + b < (1 << w),
}


def const_eval(node: Node, width: int, consts: dict[str, int]) -> int:
    """Value (unsigned, mod 2**width) of a constant expression."""
    mask = (1 << width) - 1
    if isinstance(node, Lit):
        return node.value & mask
    if isinstance(node, Const):
        return consts[node.name] & mask
    if isinstance(node, Fn):
        args = [const_eval(a, width, consts) for a in node.args]
        return CONST_EVAL[node.name](width, *args) & mask
    raise PatternError(f"not a constant expression: {node}")


def pred_eval(pred: Pred, width: int, consts: dict[str, int]) -> bool:
    if pred.name == "not":
        inner = pred.args[0]
        assert isinstance(inner, Pred)
        return not pred_eval(inner, width, consts)
    args = [const_eval(a, width, consts) for a in pred.args if not isinstance(a, Pred)]
    return PRED_EVAL[pred.name](width, *args)


def render(node: Node | Pred) -> str:
    """Back to DSL text (used in reports)."""
    if isinstance(node, Var | Const):
        return node.name
    if isinstance(node, Lit):
        return str(node.value)
    if isinstance(node, Pred):
        return f"{node.name}({', '.join(render(a) for a in node.args)})"
    if isinstance(node, Fn):
        if node.name == "width":
            return "width"
        inv = {v: k for k, v in _INFIX.items()}
        if node.name in inv:
            return f"({render(node.args[0])} {inv[node.name]} {render(node.args[1])})"
        if node.name == "neg":
            return f"-{render(node.args[0])}"
        if node.name == "not":
            return f"~{render(node.args[0])}"
        return f"{node.name}({', '.join(render(a) for a in node.args)})"
    attrs = ([node.predicate] if node.predicate else []) + list(node.flags) + [f"?{f}" for f in node.opt_flags]
    br = f"[{', '.join(attrs)}]" if attrs else ""
    return f"{node.name}{br}({', '.join(render(a) for a in node.args)})"
