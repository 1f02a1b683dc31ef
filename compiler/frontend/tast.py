"""The typed AST: the checker's output, consumed by the MLIR emitter and the reference interpreter.

Every expression carries its type; every name is resolved to a local `Var`, a
`GlobalDecl` or a `FuncDecl`. Evaluation order and semantics are those of
docs/language.md; this module only describes programs, it does not execute them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.frontend.types import Type


@dataclass(frozen=True)
class Loc:
    """1-based source position."""

    line: int
    col: int


# --------------------------------------------------------------------------- declarations


@dataclass(eq=False)
class Var:
    """A local variable or parameter; `index` is its slot in the function's frame."""

    name: str
    type: Type
    index: int
    loc: Loc


@dataclass(eq=False)
class GlobalDecl:
    """A module-level mutable variable with a constant initial value."""

    name: str
    type: Type
    init: int | float | bool
    exported: bool
    loc: Loc
    index: int = 0


@dataclass(eq=False)
class FuncDecl:
    """A function; `body` is filled in by the checker after all signatures are known."""

    name: str
    params: list[Var]
    result: Type
    exported: bool
    inline: str | None  # "always", "never" or None
    loc: Loc
    type: Type
    body: list[Stmt] = field(default_factory=list)
    locals: list[Var] = field(default_factory=list)
    kernel: bool = False  # `@kernel`: launched over a grid, never called directly


@dataclass(eq=False)
class Program:
    path: str
    globals: list[GlobalDecl]
    functions: list[FuncDecl]
    main: FuncDecl | None


# --------------------------------------------------------------------------- expressions


@dataclass(eq=False)
class Expr:
    type: Type
    loc: Loc


@dataclass(eq=False)
class IntConst(Expr):
    value: int  # already in the range of `type`


@dataclass(eq=False)
class FloatConst(Expr):
    value: float  # already rounded to `type` (Float32 values are exact binary32 values)


@dataclass(eq=False)
class BoolConst(Expr):
    value: bool


@dataclass(eq=False)
class LocalRef(Expr):
    var: Var


@dataclass(eq=False)
class GlobalRef(Expr):
    glob: GlobalDecl


@dataclass(eq=False)
class FuncRef(Expr):
    """A function used as a value (its address is taken)."""

    func: FuncDecl


@dataclass(eq=False)
class Unary(Expr):
    op: str  # "neg", "pos", "invert", "not"
    operand: Expr


#: Binary operator names, by Python AST operator class name.
BINARY_OPS = {
    "Add": "add",
    "Sub": "sub",
    "Mult": "mul",
    "Div": "truediv",
    "FloorDiv": "floordiv",
    "Mod": "mod",
    "Pow": "pow",
    "BitAnd": "and",
    "BitOr": "or",
    "BitXor": "xor",
    "LShift": "lshift",
    "RShift": "rshift",
}

#: Source spelling of each binary operator name (for diagnostics).
BINARY_SPELLING = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "truediv": "/",
    "floordiv": "//",
    "mod": "%",
    "pow": "**",
    "and": "&",
    "or": "|",
    "xor": "^",
    "lshift": "<<",
    "rshift": ">>",
}


@dataclass(eq=False)
class Binary(Expr):
    op: str  # a value of BINARY_OPS
    left: Expr
    right: Expr


#: Comparison operator names, by Python AST class name.
COMPARE_OPS = {"Eq": "eq", "NotEq": "ne", "Lt": "lt", "LtE": "le", "Gt": "gt", "GtE": "ge"}
COMPARE_SPELLING = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


@dataclass(eq=False)
class Compare(Expr):
    """`a < b <= c`: `len(ops) == len(operands) - 1`; each middle operand is evaluated once."""

    ops: list[str]
    operands: list[Expr]


@dataclass(eq=False)
class BoolOp(Expr):
    op: str  # "and" / "or", short-circuit
    values: list[Expr]


@dataclass(eq=False)
class IfExp(Expr):
    cond: Expr
    then: Expr
    orelse: Expr


@dataclass(eq=False)
class Call(Expr):
    func: FuncDecl
    args: list[Expr]


@dataclass(eq=False)
class CallIndirect(Expr):
    callee: Expr
    args: list[Expr]


@dataclass(eq=False)
class Convert(Expr):
    """`T(x)`: explicit conversion to `type` (wrap, round, saturate: see the spec)."""

    operand: Expr


@dataclass(eq=False)
class Builtin(Expr):
    name: str  # "abs", "min", "max", "sqrt", "len"
    args: list[Expr]


#: GPU index intrinsics: source prefix -> PTX special register (docs/offload.md).
GPU_INDEX_KINDS = {"thread_idx": "tid", "block_idx": "ctaid", "block_dim": "ntid", "grid_dim": "nctaid", "global_idx": ""}
GPU_AXES = ("x", "y", "z")


@dataclass(eq=False)
class GpuIndex(Expr):
    """`thread_idx_x()` ... `global_idx_z()` inside a kernel: an Int; `global_idx` = block_idx * block_dim + thread_idx."""

    kind: str  # a key of GPU_INDEX_KINDS
    axis: int  # 0, 1, 2 for x, y, z


@dataclass(eq=False)
class Launch(Expr):
    """`kernel[grid, block](args...)`: grid/block have 3 Int dimensions (missing ones are 1).

    Evaluated left to right: grid, block, then the arguments, once; then the kernel runs
    for every (block, thread), block-major and thread-minor, x fastest (the reference order).
    """

    kernel: FuncDecl
    grid: list[Expr]
    block: list[Expr]
    args: list[Expr]


@dataclass(eq=False)
class BufferNew(Expr):
    """`Buffer[T](n)`: a new zero-filled buffer of `n` elements."""

    size: Expr


@dataclass(eq=False)
class Index(Expr):
    buffer: Expr
    index: Expr


# --------------------------------------------------------------------------- statements


@dataclass(eq=False)
class Stmt:
    loc: Loc


@dataclass(eq=False)
class LocalTarget:
    var: Var


@dataclass(eq=False)
class GlobalTarget:
    glob: GlobalDecl


@dataclass(eq=False)
class IndexTarget:
    buffer: Expr
    index: Expr
    loc: Loc


Target = LocalTarget | GlobalTarget | IndexTarget


@dataclass(eq=False)
class Assign(Stmt):
    """`target = value`: the value is evaluated first, then the target's buffer and index."""

    target: Target
    value: Expr


@dataclass(eq=False)
class AugAssign(Stmt):
    """`target op= value`: target's buffer/index, then its old value, then `value`."""

    target: Target
    op: str
    value: Expr


@dataclass(eq=False)
class If(Stmt):
    cond: Expr
    body: list[Stmt]
    orelse: list[Stmt]


@dataclass(eq=False)
class While(Stmt):
    cond: Expr
    body: list[Stmt]


@dataclass(eq=False)
class For(Stmt):
    """`for var in range(start, stop, step)`: bounds evaluated once, mathematical iteration."""

    var: Var
    start: Expr
    stop: Expr
    step: Expr
    body: list[Stmt]


@dataclass(eq=False)
class Break(Stmt):
    pass


@dataclass(eq=False)
class Continue(Stmt):
    pass


@dataclass(eq=False)
class Return(Stmt):
    value: Expr | None


@dataclass(eq=False)
class ExprStmt(Stmt):
    expr: Expr


@dataclass(eq=False)
class Print(Stmt):
    """`print(a, "text", b, sep=" ", end="\\n")`: strings are literal text."""

    args: list[Expr | str]
    sep: str
    end: str


@dataclass(eq=False)
class Assert(Stmt):
    cond: Expr


def walk(node: object) -> list[object]:
    """Every expression, statement and target nested in `node` (a node or a list), preorder."""
    out: list[object] = []
    stack: list[object] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, list):
            stack.extend(reversed(cur))
            continue
        if not isinstance(cur, Expr | Stmt | LocalTarget | GlobalTarget | IndexTarget):
            continue
        out.append(cur)
        children = []
        for name in getattr(cur, "__dataclass_fields__", {}):
            if name in ("type", "loc", "var", "glob", "func", "kernel"):
                continue
            children.append(getattr(cur, name))
        stack.extend(reversed(children))
    return out


def assigned_vars(stmts: list[Stmt]) -> set[Var]:
    """Local variables assigned anywhere in `stmts` (loop variables included)."""
    out: set[Var] = set()

    def visit(body: list[Stmt]) -> None:
        for s in body:
            if isinstance(s, Assign | AugAssign) and isinstance(s.target, LocalTarget):
                out.add(s.target.var)
            elif isinstance(s, If):
                visit(s.body)
                visit(s.orelse)
            elif isinstance(s, While):
                visit(s.body)
            elif isinstance(s, For):
                out.add(s.var)
                visit(s.body)

    visit(stmts)
    return out
