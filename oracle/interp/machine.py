"""Execute a typed Ember program: each node becomes a Python closure once, then runs.

Statements return 0 to continue, or BREAK / CONTINUE / RETURN (the returned value is
left in the frame's last slot). Fuel is charged per executed statement, per loop
iteration and per buffer element allocated, so every run terminates.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Protocol

from compiler.frontend import tast
from compiler.frontend.types import (
    BOOL,
    FLOAT32,
    NONE,
    BoolType,
    BufferType,
    FloatType,
    IntType,
    Type,
)
from oracle.interp import semantics as sem

BREAK, CONTINUE, RETURN = 1, 2, 3

Frame = list[Any]
ExprFn = Callable[[Frame], Any]
StmtFn = Callable[[Frame], int]


class OutOfFuel(Exception):
    """The program executed more steps than its fuel allows."""


class CallDepthExceeded(Exception):
    """The program nested calls deeper than the interpreter's limit."""


class Function:
    """A compiled Ember function (also the run-time value of a function reference)."""

    def __init__(self, decl: tast.FuncDecl) -> None:
        self.decl = decl
        self.nslots = 0
        self.body: StmtFn | None = None

    def __repr__(self) -> str:
        return f"<function {self.decl.name}>"


class PrintSink(Protocol):
    """Where print() text goes: a list (kept) or a stream (passed on)."""

    def append(self, text: str, /) -> None: ...


class Machine:
    def __init__(self, program: tast.Program, fuel: int, max_depth: int, out: PrintSink | None = None) -> None:
        self.program = program
        self.fuel = fuel
        self.max_depth = max_depth
        self.depth = 0
        self.out: PrintSink = out if out is not None else []
        self.globals: list[Any] = [g.init for g in program.globals]
        self.functions = {f: Function(f) for f in program.functions}
        #: the running kernel's indices: block_idx x/y/z, thread_idx x/y/z, block_dim, grid_dim
        self.gpu: list[int] = [0] * 12

    # ------------------------------------------------------------------ calls

    def call(self, fn: Function, args: list[Any]) -> Any:
        if fn.body is None:
            self._compile_function(fn)
        self.depth += 1
        if self.depth > self.max_depth:
            raise CallDepthExceeded
        frame: Frame = [None] * fn.nslots
        frame[: len(args)] = args
        assert fn.body is not None
        fn.body(frame)
        self.depth -= 1
        return frame[-1]

    def _compile_function(self, fn: Function) -> None:
        fn.nslots = len(fn.decl.locals) + 1
        fn.body = self.block(fn.decl.body)

    def tick(self, n: int = 1) -> None:
        self.fuel -= n
        if self.fuel < 0:
            raise OutOfFuel

    # ------------------------------------------------------------------ statements

    def block(self, stmts: list[tast.Stmt]) -> StmtFn:
        fns = [self.stmt(s) for s in stmts]
        m = self

        def run(fr: Frame) -> int:
            for f in fns:
                m.fuel -= 1
                if m.fuel < 0:
                    raise OutOfFuel
                r = f(fr)
                if r:
                    return r
            return 0

        return run

    def stmt(self, s: tast.Stmt) -> StmtFn:
        m = self
        if isinstance(s, tast.Assign):
            return self.assign(s)
        if isinstance(s, tast.AugAssign):
            return self.aug_assign(s)
        if isinstance(s, tast.If):
            cond, then, orelse = self.expr(s.cond), self.block(s.body), self.block(s.orelse)
            return lambda fr: then(fr) if cond(fr) else orelse(fr)
        if isinstance(s, tast.While):
            cond, body = self.expr(s.cond), self.block(s.body)

            def while_(fr: Frame) -> int:
                while cond(fr):
                    m.fuel -= 1
                    if m.fuel < 0:
                        raise OutOfFuel
                    r = body(fr)
                    if r == BREAK:
                        break
                    if r == RETURN:
                        return r
                return 0

            return while_
        if isinstance(s, tast.For):
            return self.for_stmt(s)
        if isinstance(s, tast.Break):
            return lambda fr: BREAK
        if isinstance(s, tast.Continue):
            return lambda fr: CONTINUE
        if isinstance(s, tast.Return):
            if s.value is None:
                return lambda fr: RETURN
            value = self.expr(s.value)

            def ret(fr: Frame) -> int:
                fr[-1] = value(fr)
                return RETURN

            return ret
        if isinstance(s, tast.ExprStmt):
            e = self.expr(s.expr)

            def expr_stmt(fr: Frame) -> int:
                e(fr)
                return 0

            return expr_stmt
        if isinstance(s, tast.Print):
            return self.print_stmt(s)
        if isinstance(s, tast.Assert):
            cond = self.expr(s.cond)

            def assert_(fr: Frame) -> int:
                if not cond(fr):
                    raise sem.Trap(sem.TRAP_ASSERT)
                return 0

            return assert_
        raise AssertionError(f"unknown statement {s!r}")

    def assign(self, s: tast.Assign) -> StmtFn:
        value = self.expr(s.value)
        t = s.target
        if isinstance(t, tast.LocalTarget):
            slot = t.var.index

            def set_local(fr: Frame) -> int:
                fr[slot] = value(fr)
                return 0

            return set_local
        if isinstance(t, tast.GlobalTarget):
            g, gi = self.globals, t.glob.index

            def set_global(fr: Frame) -> int:
                g[gi] = value(fr)
                return 0

            return set_global
        buf, idx = self.expr(t.buffer), self.expr(t.index)

        def set_elem(fr: Frame) -> int:
            v = value(fr)  # the value first, then the buffer and the index
            b = buf(fr)
            i = idx(fr)
            if not 0 <= i < len(b):
                raise sem.Trap(sem.TRAP_INDEX)
            b[i] = v
            return 0

        return set_elem

    def aug_assign(self, s: tast.AugAssign) -> StmtFn:
        value = self.expr(s.value)
        t = s.target
        if isinstance(t, tast.LocalTarget):
            slot = t.var.index
            op = self.binop(s.op, t.var.type)

            def aug_local(fr: Frame) -> int:
                old = fr[slot]
                fr[slot] = op(old, value(fr))
                return 0

            return aug_local
        if isinstance(t, tast.GlobalTarget):
            g, gi = self.globals, t.glob.index
            op = self.binop(s.op, t.glob.type)

            def aug_global(fr: Frame) -> int:
                old = g[gi]
                g[gi] = op(old, value(fr))
                return 0

            return aug_global
        bt = t.buffer.type
        assert isinstance(bt, BufferType)
        op = self.binop(s.op, bt.elem)
        buf, idx = self.expr(t.buffer), self.expr(t.index)

        def aug_elem(fr: Frame) -> int:
            b = buf(fr)
            i = idx(fr)
            if not 0 <= i < len(b):
                raise sem.Trap(sem.TRAP_INDEX)
            old = b[i]
            b[i] = op(old, value(fr))
            return 0

        return aug_elem

    def for_stmt(self, s: tast.For) -> StmtFn:
        m = self
        start, stop, step = self.expr(s.start), self.expr(s.stop), self.expr(s.step)
        body = self.block(s.body)
        slot = s.var.index

        def for_(fr: Frame) -> int:
            i, end, st = start(fr), stop(fr), step(fr)
            if st == 0:
                raise sem.Trap(sem.TRAP_RANGE_STEP)
            while (i < end) if st > 0 else (i > end):
                m.fuel -= 1
                if m.fuel < 0:
                    raise OutOfFuel
                fr[slot] = i
                r = body(fr)
                if r == BREAK:
                    break
                if r == RETURN:
                    return r
                i += st
            return 0

        return for_

    def print_stmt(self, s: tast.Print) -> StmtFn:
        parts = [self._print_part(a) for a in s.args]
        out, sep, end = self.out, s.sep, s.end

        def print_(fr: Frame) -> int:
            out.append(sep.join([p(fr) for p in parts]) + end)
            return 0

        return print_

    def _print_part(self, a: tast.Expr | str) -> Callable[[Frame], str]:
        """The text one print() argument writes (docs/language.md, "print")."""
        if isinstance(a, str):
            text = a
            return lambda fr: text
        e = self.expr(a)
        if isinstance(a.type, FloatType):
            single = a.type == FLOAT32
            return lambda fr: sem.format_float(e(fr), single)
        if isinstance(a.type, BoolType):
            return lambda fr: "True" if e(fr) else "False"
        return lambda fr: str(e(fr))

    # ------------------------------------------------------------------ expressions

    def expr(self, e: tast.Expr) -> ExprFn:
        m = self
        if isinstance(e, tast.IntConst | tast.FloatConst | tast.BoolConst):
            v = e.value
            return lambda fr: v
        if isinstance(e, tast.LocalRef):
            slot = e.var.index
            return lambda fr: fr[slot]
        if isinstance(e, tast.GlobalRef):
            g, gi = self.globals, e.glob.index
            return lambda fr: g[gi]
        if isinstance(e, tast.FuncRef):
            fn = self.functions[e.func]
            return lambda fr: fn
        if isinstance(e, tast.Unary):
            return self.unary(e)
        if isinstance(e, tast.Binary):
            op = self.binop(e.op, e.left.type)
            left, right = self.expr(e.left), self.expr(e.right)
            return lambda fr: op(left(fr), right(fr))
        if isinstance(e, tast.Compare):
            return self.compare(e)
        if isinstance(e, tast.BoolOp):
            values = [self.expr(v) for v in e.values]
            if e.op == "and":
                return lambda fr: all(v(fr) for v in values)
            return lambda fr: any(v(fr) for v in values)
        if isinstance(e, tast.IfExp):
            c, a, b = self.expr(e.cond), self.expr(e.then), self.expr(e.orelse)
            return lambda fr: a(fr) if c(fr) else b(fr)
        if isinstance(e, tast.Call):
            fn = self.functions[e.func]
            args = [self.expr(a) for a in e.args]
            return lambda fr: m.call(fn, [a(fr) for a in args])
        if isinstance(e, tast.CallIndirect):
            callee = self.expr(e.callee)
            args = [self.expr(a) for a in e.args]

            def call_indirect(fr: Frame) -> Any:
                f = callee(fr)
                return m.call(f, [a(fr) for a in args])

            return call_indirect
        if isinstance(e, tast.Convert):
            conv = self.conversion(e.operand.type, e.type)
            x = self.expr(e.operand)
            return lambda fr: conv(x(fr))
        if isinstance(e, tast.Builtin):
            return self.builtin(e)
        if isinstance(e, tast.BufferNew):
            bt = e.type
            assert isinstance(bt, BufferType)
            zero: Any = False if bt.elem == BOOL else (0.0 if isinstance(bt.elem, FloatType) else 0)
            size = self.expr(e.size)

            def new_buffer(fr: Frame) -> list[Any]:
                n = size(fr)
                if not 0 <= n <= sem.MAX_BUFFER_ELEMENTS:
                    raise sem.Trap(sem.TRAP_BUFFER_SIZE)
                m.tick(n)
                return [zero] * n

            return new_buffer
        if isinstance(e, tast.GpuIndex):
            return self.gpu_index(e)
        if isinstance(e, tast.Launch):
            return self.launch(e)
        if isinstance(e, tast.Index):
            buf, idx = self.expr(e.buffer), self.expr(e.index)

            def load(fr: Frame) -> Any:
                b = buf(fr)
                i = idx(fr)
                if not 0 <= i < len(b):
                    raise sem.Trap(sem.TRAP_INDEX)
                return b[i]

            return load
        raise AssertionError(f"unknown expression {e!r}")

    def gpu_index(self, e: tast.GpuIndex) -> ExprFn:
        ctx, a = self.gpu, e.axis
        slot = {"block_idx": 0, "thread_idx": 3, "block_dim": 6, "grid_dim": 9}.get(e.kind)
        if slot is not None:
            i = slot + a
            return lambda fr: ctx[i]
        return lambda fr: ctx[a] * ctx[6 + a] + ctx[3 + a]  # global_idx (small: no wrap needed)

    def launch(self, e: tast.Launch) -> ExprFn:
        """Run the kernel for every (block, thread): block-major, thread-minor, x fastest."""
        m, ctx = self, self.gpu
        fn = self.functions[e.kernel]
        grid = [self.expr(d) for d in e.grid]
        block = [self.expr(d) for d in e.block]
        args = [self.expr(a) for a in e.args]

        def launch(fr: Frame) -> None:
            g = [d(fr) for d in grid]
            b = [d(fr) for d in block]
            values = [a(fr) for a in args]
            if not sem.valid_launch(g, b):
                raise sem.Trap(sem.TRAP_LAUNCH)
            ctx[6:9] = b
            ctx[9:12] = g
            for bz in range(g[2]):
                for by in range(g[1]):
                    for bx in range(g[0]):
                        ctx[0:3] = [bx, by, bz]
                        for tz in range(b[2]):
                            for ty in range(b[1]):
                                for tx in range(b[0]):
                                    ctx[3:6] = [tx, ty, tz]
                                    m.call(fn, list(values))

        return launch

    def unary(self, e: tast.Unary) -> ExprFn:
        x = self.expr(e.operand)
        t = e.type
        if e.op == "pos":
            return x
        if e.op == "not":
            return lambda fr: not x(fr)
        if isinstance(t, FloatType):
            return lambda fr: -x(fr)  # exact in both formats
        assert isinstance(t, IntType)
        wrap = sem.wrapper(t.width, t.signed)
        if e.op == "invert":
            return lambda fr: wrap(~x(fr))
        return lambda fr: wrap(-x(fr))

    def binop(self, op: str, t: Type) -> Callable[[Any, Any], Any]:
        if isinstance(t, BoolType):
            return {
                "and": lambda a, b: a and b,
                "or": lambda a, b: a or b,
                "xor": lambda a, b: a != b,
            }[op]
        if isinstance(t, FloatType):
            rnd: Callable[[float], float] = sem.to_f32 if t == FLOAT32 else float
            table: dict[str, Callable[[float, float], float]] = {
                "add": lambda a, b: rnd(a + b),
                "sub": lambda a, b: rnd(a - b),
                "mul": lambda a, b: rnd(a * b),
                "truediv": lambda a, b: rnd(sem.f_div(a, b)),
                "mod": lambda a, b: sem.float_mod(a, b, rnd),
                "floordiv": lambda a, b: sem.float_floordiv(a, b, rnd),
            }
            return table[op]
        assert isinstance(t, IntType)
        w, signed = t.width, t.signed
        wrap = sem.wrapper(w, signed)
        ints: dict[str, Callable[[int, int], int]] = {
            "add": lambda a, b: wrap(a + b),
            "sub": lambda a, b: wrap(a - b),
            "mul": lambda a, b: wrap(a * b),
            "floordiv": lambda a, b: sem.int_floordiv(a, b, w, signed),
            "mod": lambda a, b: sem.int_mod(a, b),
            "pow": lambda a, b: sem.int_pow(a, b, w, signed),
            "and": lambda a, b: a & b,
            "or": lambda a, b: a | b,
            "xor": lambda a, b: a ^ b,
            "lshift": lambda a, b: sem.shift_left(a, b, w, signed),
            "rshift": lambda a, b: sem.shift_right(a, b, w, signed),
        }
        return ints[op]

    def compare(self, e: tast.Compare) -> ExprFn:
        import operator

        table = {"eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge}
        ops = [table[o] for o in e.ops]
        operands = [self.expr(o) for o in e.operands]
        if len(ops) == 1:
            op, a, b = ops[0], operands[0], operands[1]
            return lambda fr: op(a(fr), b(fr))

        def chain(fr: Frame) -> bool:
            left = operands[0](fr)
            for op, nxt in zip(ops, operands[1:], strict=True):
                right = nxt(fr)
                if not op(left, right):
                    return False
                left = right
            return True

        return chain

    def conversion(self, src: Type, dst: Type) -> Callable[[Any], Any]:
        if isinstance(dst, BoolType):
            return lambda v: v != 0
        if isinstance(src, BoolType):
            if isinstance(dst, FloatType):
                return lambda v: 1.0 if v else 0.0
            return lambda v: 1 if v else 0
        if isinstance(src, IntType) and isinstance(dst, IntType):
            return sem.wrapper(dst.width, dst.signed)
        if isinstance(src, IntType) and isinstance(dst, FloatType):
            return sem.int_to_f32 if dst == FLOAT32 else float
        if isinstance(src, FloatType) and isinstance(dst, FloatType):
            return sem.to_f32 if dst == FLOAT32 else float
        assert isinstance(src, FloatType) and isinstance(dst, IntType)
        w, signed = dst.width, dst.signed
        return lambda v: sem.float_to_int(v, w, signed)

    def builtin(self, e: tast.Builtin) -> ExprFn:
        args = [self.expr(a) for a in e.args]
        t = e.type
        if e.name == "len":
            b = args[0]
            return lambda fr: len(b(fr))
        if e.name == "sqrt":
            x = args[0]
            rnd = sem.to_f32 if t == FLOAT32 else float
            return lambda fr: rnd(sem.f_sqrt(x(fr)))
        if e.name == "abs":
            x = args[0]
            if isinstance(t, FloatType):
                return lambda fr: math.fabs(x(fr))
            assert isinstance(t, IntType)
            wrap = sem.wrapper(t.width, t.signed)
            return lambda fr: wrap(abs(x(fr)))
        a, b = args

        def minmax(fr: Frame) -> Any:
            x, y = a(fr), b(fr)
            better = y < x if e.name == "min" else y > x
            return y if better else x

        return minmax


def run_main(machine: Machine) -> int:
    """Run `main`; its Int result (mod 256) is the exit status, None gives 0."""
    main = machine.program.main
    assert main is not None
    result = machine.call(machine.functions[main], [])
    if main.result == NONE or result is None:
        return 0
    return int(result) & 0xFF
