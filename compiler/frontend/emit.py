"""MLIR text emission from the typed AST (func, arith, cf, memref, math).

Locals are kept in SSA form directly: control flow is emitted as `cf` blocks and every
join point (if/else, loop header, loop exit) receives the variables whose values
differ as block arguments. Every operation is total: division, shifts, float-to-int
conversions and buffer indexing are guarded so that no undefined behaviour or poison
reaches LLVM (docs/language.md, "Semantics").

Symbols: exported functions/globals keep their names (external linkage); everything
else is `ember.<name>` with internal linkage. Helpers the compiler adds have names with
two dots (`ember.ipow.i64`, `ember.str.0`), which no Ember identifier can produce.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.frontend import tast
from compiler.frontend.consts import float_bits
from compiler.frontend.types import (
    BOOL,
    INT8,
    NONE,
    BoolType,
    BufferType,
    FloatType,
    FuncType,
    IntType,
    Type,
)
from compiler.frontend.types import (
    INT as _I64,
)

#: Trap codes (ember_trap in compiler/runtime/ember_runtime.c prints their messages).
TRAP_DIV_ZERO = 1
TRAP_DIV_OVERFLOW = 2
TRAP_ASSERT = 3
TRAP_NEG_EXPONENT = 4
TRAP_RANGE_STEP = 5
TRAP_INDEX = 6
TRAP_BUFFER_SIZE = 7
TRAP_OUT_OF_MEMORY = 8
TRAP_LAUNCH = 9

#: The CPU grid emulator's context: block_idx x/y/z, thread_idx x/y/z, block_dim, grid_dim.
GPU_CTX = "@ember.gpu.ctx"
GPU_CTX_SLOT = {"ctaid": 0, "tid": 3, "ntid": 6, "nctaid": 9}
#: CUDA launch limits (grid x/y/z, block x/y/z, threads per block); see oracle/interp/semantics.py.
GRID_LIMITS = ((1 << 31) - 1, 65535, 65535)
BLOCK_LIMITS = (1024, 1024, 64)
MAX_THREADS_PER_BLOCK = 1024


def gpu_index_symbol(reg: str, axis: int) -> str:
    """`@ember.gpu.tid.x`: the helper reading one PTX special register (host: the emulator context)."""
    return f"@ember.gpu.{reg}.{'xyz'[axis]}"

#: Largest number of elements `Buffer[T](n)` accepts.
MAX_BUFFER_ELEMENTS = 1 << 32

INTERNAL = "llvm.linkage = #llvm.linkage<internal>"
TRAP_SIGNATURE = '(i64) attributes {passthrough = ["noreturn", "cold", "nounwind"]}'


def mlir_type(t: Type) -> str:
    if isinstance(t, IntType):
        return f"i{t.width}"
    if isinstance(t, FloatType):
        return f"f{t.width}"
    if isinstance(t, BoolType):
        return "i1"
    if isinstance(t, BufferType):
        return f"memref<?x{storage_type(t.elem)}>"
    if isinstance(t, FuncType):
        return f"({', '.join(mlir_type(p) for p in t.params)}) -> ({'' if t.result == NONE else mlir_type(t.result)})"
    raise AssertionError(f"no MLIR type for {t}")


def _byte_size(t: Type) -> int:
    """Bytes of a scalar in memory and as a kernel parameter (Bool: one byte)."""
    if isinstance(t, BoolType):
        return 1
    assert isinstance(t, IntType | FloatType)
    return t.width // 8


def storage_type(t: Type) -> str:
    """The element type in memory: Bool is a byte (0 or 1); memref stores of i1 do not lower."""
    return "i8" if isinstance(t, BoolType) else mlir_type(t)


def func_symbol(f: tast.FuncDecl) -> str:
    return f"@{f.name}" if f.exported else f"@ember.{f.name}"


def global_symbol(g: tast.GlobalDecl) -> str:
    return f"@{g.name}" if g.exported else f"@ember.{g.name}"


def _signed(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return value - (1 << width) if value >> (width - 1) else value


def _dense(value: int | float | bool, t: Type) -> str:
    if isinstance(t, BoolType):
        return "true" if value else "false"
    if isinstance(t, IntType):
        return str(_signed(int(value), t.width))
    assert isinstance(t, FloatType)
    return f"0x{float_bits(float(value), t):0{t.width // 4}X}"


@dataclass(eq=False)
class Block:
    label: str
    args: list[tuple[str, str]]  # (ssa name, mlir type)
    ops: list[str] = field(default_factory=list)
    terminated: bool = False
    preds: int = 0


@dataclass
class _Loop:
    break_to: Block
    continue_to: Block
    carried: list[tast.Var]
    counter: str | None = None  # the hidden counter of a for loop (passed to its latch)


class ModuleEmitter:
    """Emit a whole program; `text()` is the MLIR module."""

    def __init__(self, program: tast.Program, debug_path: str | None = None) -> None:
        self.program = program
        #: `-g`: the source path every op's `loc(...)` names (None: no locations)
        self.debug_path = debug_path
        self.decls: dict[str, str] = {}
        self.helpers: dict[str, str] = {}
        self.strings: dict[bytes, str] = {}
        self.string_defs: list[str] = []

    def declare(self, name: str, signature: str) -> str:
        self.decls.setdefault(name, f"func.func private @{name}{signature}")
        return f"@{name}"

    def string(self, text: str) -> tuple[str, int]:
        data = text.encode("utf-8")
        sym = self.strings.get(data)
        if sym is None:
            sym = f"@ember.str.{len(self.strings)}"
            self.strings[data] = sym
            values = ", ".join(str(_signed(b, 8)) for b in data)
            self.string_defs.append(
                f'memref.global "private" constant {sym} : memref<{len(data)}xi8> = dense<[{values}]>'
            )
        return sym, len(data)

    def ipow(self, t: IntType) -> str:
        name = f"@ember.ipow.{'u' if not t.signed else 'i'}{t.width}"
        if name in self.helpers:
            return name
        ty = mlir_type(t)
        lines = [f"func.func private {name}(%base: {ty}, %exp: {ty}) -> ({ty}) attributes {{{INTERNAL}}} {{"]
        lines.append(f"  %one = arith.constant 1 : {ty}")
        lines.append(f"  %zero = arith.constant 0 : {ty}")
        if t.signed:
            trap = self.declare("ember_trap", TRAP_SIGNATURE)
            lines += [
                f"  %neg = arith.cmpi slt, %exp, %zero : {ty}",
                "  cf.cond_br %neg, ^trap, ^loop(%base, %exp, %one : " + f"{ty}, {ty}, {ty})",
                "^trap:",
                f"  %code = arith.constant {TRAP_NEG_EXPONENT} : i64",
                f"  func.call {trap}(%code) : (i64) -> ()",
                f"  return %zero : {ty}",
            ]
        else:
            lines.append(f"  cf.br ^loop(%base, %exp, %one : {ty}, {ty}, {ty})")
        lines += [
            f"^loop(%b: {ty}, %e: {ty}, %acc: {ty}):",
            f"  %done = arith.cmpi eq, %e, %zero : {ty}",
            f"  cf.cond_br %done, ^exit(%acc : {ty}), ^body",
            "^body:",
            f"  %bit = arith.andi %e, %one : {ty}",
            f"  %odd = arith.cmpi ne, %bit, %zero : {ty}",
            f"  %prod = arith.muli %acc, %b : {ty}",
            f"  %acc2 = arith.select %odd, %prod, %acc : {ty}",
            f"  %b2 = arith.muli %b, %b : {ty}",
            f"  %e2 = arith.shrui %e, %one : {ty}",
            f"  cf.br ^loop(%b2, %e2, %acc2 : {ty}, {ty}, {ty})",
            f"^exit(%r: {ty}):",
            f"  return %r : {ty}",
            "}",
        ]
        self.helpers[name] = "\n".join(lines)
        return name

    def gpu_index(self, reg: str, axis: int) -> str:
        """The host definition of an index intrinsic: a load from the emulator context.

        The offload slicer (compiler/offload/slice.py) replaces these definitions with
        ones that read the PTX special registers."""
        name = gpu_index_symbol(reg, axis)
        if name not in self.helpers:
            self.gpu_context()
            slot = GPU_CTX_SLOT[reg] + axis
            self.helpers[name] = "\n".join([
                f"func.func private {name}() -> (i64) attributes {{{INTERNAL}, passthrough = [\"alwaysinline\"]}} {{",
                f"  %ctx = memref.get_global {GPU_CTX} : memref<12xi64>",
                f"  %slot = arith.constant {slot} : index",
                "  %v = memref.load %ctx[%slot] : memref<12xi64>",
                "  return %v : i64",
                "}",
            ])
        return name

    def gpu_context(self) -> str:
        if GPU_CTX not in self.helpers:
            self.helpers[GPU_CTX] = f'memref.global "private" {GPU_CTX} : memref<12xi64> = dense<0>'
        return GPU_CTX

    def location(self, loc: tast.Loc) -> str:
        """` loc("path":line:col)` for an op at `loc` under `-g`, else nothing."""
        if self.debug_path is None:
            return ""
        return f' loc("{_mlir_string(self.debug_path)}":{loc.line}:{loc.col})'

    def text(self) -> str:
        parts: list[str] = []
        for g in self.program.globals:
            vis = "" if g.exported else '"private" '
            ty = storage_type(g.type)
            init = _dense(int(g.init), INT8) if isinstance(g.type, BoolType) else _dense(g.init, g.type)
            parts.append(f"memref.global {vis}{global_symbol(g)} : memref<{ty}> = dense<{init}>")
        funcs = [FuncEmitter(self, f).emit() for f in self.program.functions]
        main = self.program.main
        if main is not None:
            if main.result == NONE:
                call = f"  func.call {func_symbol(main)}() : () -> ()\n  %r = arith.constant 0 : i32\n"
            else:
                call = f"  %v = func.call {func_symbol(main)}() : () -> (i64)\n  %r = arith.trunci %v : i64 to i32\n"
            where = self.location(main.loc)
            funcs.append(f"func.func @main() -> (i32) {{\n{call}  return %r : i32{where}\n}}{where}")
        parts += self.string_defs
        parts += [self.decls[k] for k in sorted(self.decls)]
        parts += funcs
        parts += [self.helpers[k] for k in sorted(self.helpers)]
        return "\n".join(parts) + "\n"


class FuncEmitter:
    """Emit one function as `func.func` with cf blocks."""

    def __init__(self, module: ModuleEmitter, func: tast.FuncDecl) -> None:
        self.m = module
        self.func = func
        self.counter = 0
        self.entry = Block("", [])
        self.blocks: list[Block] = [self.entry]
        self.cur: Block | None = self.entry
        self.env: dict[tast.Var, str] = {}
        self.loops: list[_Loop] = []
        self.traps: dict[int, Block] = {}
        #: `-g`: the location of the statement being emitted, appended to its ops
        self.where = module.location(func.loc)

    # ------------------------------------------------------------------ plumbing

    def fresh(self) -> str:
        self.counter += 1
        return f"%{self.counter}"

    def new_block(self, types: list[str]) -> Block:
        b = Block(f"^bb{len(self.blocks)}", [(self.fresh(), t) for t in types])
        self.blocks.append(b)
        return b

    def op(self, text: str) -> None:
        assert self.cur is not None and not self.cur.terminated
        self.cur.ops.append(text + self.where)

    def val(self, rhs: str) -> str:
        name = self.fresh()
        self.op(f"{name} = {rhs}")
        return name

    def const(self, value: int | float | bool, t: Type) -> str:
        if isinstance(t, BoolType):
            return self.val(f"arith.constant {'true' if value else 'false'}")
        if isinstance(t, IntType):
            return self.val(f"arith.constant {_signed(int(value), t.width)} : i{t.width}")
        assert isinstance(t, FloatType)
        return self.val(f"arith.constant {_dense(value, t)} : f{t.width}")

    def index_const(self, value: int) -> str:
        return self.val(f"arith.constant {value} : index")

    @staticmethod
    def _target(block: Block, values: list[str]) -> str:
        assert len(values) == len(block.args), (block.label, values, block.args)
        if not values:
            return block.label
        return f"{block.label}({', '.join(values)} : {', '.join(t for _, t in block.args)})"

    def br(self, target: Block, values: list[str]) -> None:
        self.op(f"cf.br {self._target(target, values)}")
        assert self.cur is not None
        self.cur.terminated = True
        target.preds += 1
        self.cur = None

    def cond_br(self, cond: str, t: Block, tv: list[str], f: Block, fv: list[str]) -> None:
        self.op(f"cf.cond_br {cond}, {self._target(t, tv)}, {self._target(f, fv)}")
        assert self.cur is not None
        self.cur.terminated = True
        t.preds += 1
        f.preds += 1
        self.cur = None

    def trap_if(self, cond: str, code: int) -> None:
        trap = self.traps.get(code)
        if trap is None:
            trap = self.new_block([])
            fn = self.m.declare("ember_trap", TRAP_SIGNATURE)
            c = self.fresh()
            trap.ops += [f"{c} = arith.constant {code} : i64", f"func.call {fn}({c}) : (i64) -> ()"]
            trap.ops += self._dead_return()
            trap.terminated = True
            self.traps[code] = trap
        ok = self.new_block([])
        self.cond_br(cond, trap, [], ok, [])
        self.cur = ok

    def _dead_return(self) -> list[str]:
        """A terminator for the (never reached) end of a trap block.

        ember_trap is `noreturn`, so LLVM turns this into `unreachable`. A `return` keeps
        every MLIR pass happy (`llvm.unreachable` breaks the inliner, a self-loop hangs
        it). Scalars return zero; buffers and function values, which have no constant,
        return `ub.poison` on this dead path.
        """
        t = self.func.result
        if t == NONE:
            return ["return"]
        v = self.fresh()
        ty = mlir_type(t)
        if isinstance(t, BoolType):
            init = f"{v} = arith.constant false"
        elif isinstance(t, IntType | FloatType):
            init = f"{v} = arith.constant {_dense(0, t)} : {ty}"
        else:
            init = f"{v} = ub.poison : {ty}"
        return [init, f"return {v} : {ty}"]

    def cmpi(self, pred: str, a: str, b: str, t: str) -> str:
        return self.val(f"arith.cmpi {pred}, {a}, {b} : {t}")

    def select(self, c: str, a: str, b: str, t: str) -> str:
        return self.val(f"arith.select {c}, {a}, {b} : {t}")

    def load(self, mem: str, index: str, elem: Type, memref_type: str) -> str:
        v = self.val(f"memref.load {mem}[{index}] : {memref_type}")
        if isinstance(elem, BoolType):
            return self.val(f"arith.trunci {v} : i8 to i1")
        return v

    def store(self, v: str, mem: str, index: str, elem: Type, memref_type: str) -> None:
        if isinstance(elem, BoolType):
            v = self.val(f"arith.extui {v} : i1 to i8")
        self.op(f"memref.store {v}, {mem}[{index}] : {memref_type}")

    def to_i64(self, v: str, t: Type) -> str:
        assert isinstance(t, IntType)
        if t.width == 64:
            return v
        ext = "extsi" if t.signed else "extui"
        return self.val(f"arith.{ext} {v} : i{t.width} to i64")

    # ------------------------------------------------------------------ functions

    def emit(self) -> str:
        f = self.func
        params = []
        for i, p in enumerate(f.params):
            name = f"%p{i}"
            self.env[p] = name
            params.append(f"{name}: {mlir_type(p.type)}")
        self.block(f.body)
        if self.cur is not None:
            assert f.result == NONE, f"checker let '{f.name}' fall off its end"
            self.op("return")
            self.cur.terminated = True
            self.cur = None
        attrs = []
        if not f.exported:
            attrs.append(INTERNAL)
        if f.kernel:
            attrs.append("ember.kernel")
        if f.inline == "never":
            attrs += ["no_inline", 'passthrough = ["noinline"]']
        elif f.inline == "always":
            attrs.append('passthrough = ["alwaysinline"]')
        vis = "" if f.exported else "private "
        result = "" if f.result == NONE else f" -> ({mlir_type(f.result)})"
        attr_text = f" attributes {{{', '.join(attrs)}}}" if attrs else ""
        lines = [f"func.func {vis}{func_symbol(f)}({', '.join(params)}){result}{attr_text} {{"]
        for b in self.blocks:
            if b is not self.entry:
                if b.preds == 0:
                    continue
                args = ", ".join(f"{n}: {t}" for n, t in b.args)
                lines.append(f"{b.label}({args}):" if args else f"{b.label}:")
            assert b.terminated, f"unterminated block {b.label} in {f.name}"
            lines += [f"  {o}" for o in b.ops]
        lines.append("}" + self.m.location(f.loc))
        return "\n".join(lines)

    # ------------------------------------------------------------------ statements

    def block(self, stmts: list[tast.Stmt]) -> None:
        for s in stmts:
            if self.cur is None:
                return  # the rest is unreachable
            self.stmt(s)

    def stmt(self, s: tast.Stmt) -> None:
        outer, self.where = self.where, self.m.location(s.loc)
        try:
            self._stmt(s)
        finally:
            self.where = outer

    def _stmt(self, s: tast.Stmt) -> None:
        if isinstance(s, tast.Assign):
            self.assign(s)
        elif isinstance(s, tast.AugAssign):
            self.aug_assign(s)
        elif isinstance(s, tast.If):
            self.if_stmt(s)
        elif isinstance(s, tast.While):
            self.while_stmt(s)
        elif isinstance(s, tast.For):
            self.for_stmt(s)
        elif isinstance(s, tast.Break):
            loop = self.loops[-1]
            self.br(loop.break_to, [self.env[v] for v in loop.carried])
        elif isinstance(s, tast.Continue):
            loop = self.loops[-1]
            values = [self.env[v] for v in loop.carried]
            self.br(loop.continue_to, [loop.counter, *values] if loop.counter else values)
        elif isinstance(s, tast.Return):
            if s.value is None:
                self.op("return")
            else:
                v = self.expr(s.value)
                self.op(f"return {v} : {mlir_type(s.value.type)}")
            assert self.cur is not None
            self.cur.terminated = True
            self.cur = None
        elif isinstance(s, tast.ExprStmt):
            self.expr(s.expr)
        elif isinstance(s, tast.Print):
            self.print_stmt(s)
        elif isinstance(s, tast.Assert):
            c = self.expr(s.cond)
            t = self.const(True, BOOL)
            self.trap_if(self.val(f"arith.xori {c}, {t} : i1"), TRAP_ASSERT)
        else:
            raise AssertionError(f"unknown statement {s!r}")

    def assign(self, s: tast.Assign) -> None:
        v = self.expr(s.value)
        t = s.target
        if isinstance(t, tast.LocalTarget):
            self.env[t.var] = v
        elif isinstance(t, tast.GlobalTarget):
            ty = f"memref<{storage_type(t.glob.type)}>"
            m = self.val(f"memref.get_global {global_symbol(t.glob)} : {ty}")
            self.store(v, m, "", t.glob.type, ty)
        else:
            buf, ix = self.element(t.buffer, t.index)
            bt = t.buffer.type
            assert isinstance(bt, BufferType)
            self.store(v, buf, ix, bt.elem, mlir_type(bt))

    def aug_assign(self, s: tast.AugAssign) -> None:
        t = s.target
        if isinstance(t, tast.LocalTarget):
            rhs = self.expr(s.value)
            self.env[t.var] = self.binop(s.op, t.var.type, self.env[t.var], rhs)
        elif isinstance(t, tast.GlobalTarget):
            ty = f"memref<{storage_type(t.glob.type)}>"
            m = self.val(f"memref.get_global {global_symbol(t.glob)} : {ty}")
            old = self.load(m, "", t.glob.type, ty)
            rhs = self.expr(s.value)
            new = self.binop(s.op, t.glob.type, old, rhs)
            self.store(new, m, "", t.glob.type, ty)
        else:
            buf, ix = self.element(t.buffer, t.index)
            bt = t.buffer.type
            assert isinstance(bt, BufferType)
            old = self.load(buf, ix, bt.elem, mlir_type(bt))
            rhs = self.expr(s.value)
            new = self.binop(s.op, bt.elem, old, rhs)
            self.store(new, buf, ix, bt.elem, mlir_type(bt))

    def _join(self, outs: list[tuple[Block, dict[tast.Var, str]]]) -> None:
        """Continue after a fork whose open ends are `outs` (blocks still unterminated)."""
        if not outs:
            self.cur = None
            return
        if len(outs) == 1:
            self.cur, self.env = outs[0]
            return
        keys = set(outs[0][1])
        for _, env in outs[1:]:
            keys &= set(env)
        ordered = sorted(keys, key=lambda v: v.index)
        differing = [v for v in ordered if len({env[v] for _, env in outs}) > 1]
        join = self.new_block([mlir_type(v.type) for v in differing])
        for blk, env in outs:
            self.cur = blk
            self.br(join, [env[v] for v in differing])
        self.env = {v: outs[0][1][v] for v in ordered}
        for v, (name, _) in zip(differing, join.args, strict=True):
            self.env[v] = name
        self.cur = join

    def if_stmt(self, s: tast.If) -> None:
        c = self.expr(s.cond)
        then_b, else_b = self.new_block([]), self.new_block([])
        self.cond_br(c, then_b, [], else_b, [])
        env0 = self.env
        outs = []
        for blk, body in ((then_b, s.body), (else_b, s.orelse)):
            self.cur, self.env = blk, dict(env0)
            self.block(body)
            if self.cur is not None:
                outs.append((self.cur, self.env))
        self._join(outs)

    def _carried(self, body: list[tast.Stmt], extra: tast.Var | None = None) -> list[tast.Var]:
        assigned = tast.assigned_vars(body)
        if extra is not None:
            assigned.add(extra)
        return sorted((v for v in assigned if v in self.env), key=lambda v: v.index)

    def _enter(self, block: Block, carried: list[tast.Var], env0: dict[tast.Var, str], skip: int = 0) -> None:
        self.cur = block
        self.env = dict(env0)
        for v, (name, _) in zip(carried, block.args[skip:], strict=True):
            self.env[v] = name

    def while_stmt(self, s: tast.While) -> None:
        carried = self._carried(s.body)
        types = [mlir_type(v.type) for v in carried]
        env0 = dict(self.env)
        header = self.new_block(types)
        exit_b = self.new_block(types)
        self.br(header, [env0[v] for v in carried])
        self._enter(header, carried, env0)
        if isinstance(s.cond, tast.BoolConst) and s.cond.value:
            body_b = header
        else:
            c = self.expr(s.cond)
            body_b = self.new_block([])
            self.cond_br(c, body_b, [], exit_b, [self.env[v] for v in carried])
            self.cur = body_b
        header_env = {v: self.env[v] for v in env0}
        self.loops.append(_Loop(exit_b, header, carried))
        self.env = dict(header_env)
        self.block(s.body)
        if self.cur is not None:
            self.br(header, [self.env[v] for v in carried])
        self.loops.pop()
        if exit_b.preds == 0:
            self.cur = None
        else:
            self._enter(exit_b, carried, env0)

    def for_stmt(self, s: tast.For) -> None:
        ty = s.var.type
        assert isinstance(ty, IntType)
        t = mlir_type(ty)
        start = self.expr(s.start)
        stop = self.expr(s.stop)
        step = self.expr(s.step)
        zero = self.const(0, ty)
        if not (isinstance(s.step, tast.IntConst) and s.step.value != 0):
            self.trap_if(self.cmpi("eq", step, zero, t), TRAP_RANGE_STEP)
        carried = self._carried(s.body, s.var)
        types = [mlir_type(v.type) for v in carried]
        env0 = dict(self.env)
        body_b = self.new_block([t, *types])
        latch = self.new_block([t, *types])
        exit_b = self.new_block(types)
        if ty.signed:
            up = self.cmpi("sgt", step, zero, t)
            lt = self.cmpi("slt", start, stop, t)
            gt = self.cmpi("sgt", start, stop, t)
            enter = self.select(up, lt, gt, "i1")
        else:
            up = ""
            enter = self.cmpi("ult", start, stop, t)
        vals0 = [env0[v] for v in carried]
        self.cond_br(enter, body_b, [start, *vals0], exit_b, vals0)
        self._enter(body_b, carried, env0, skip=1)
        counter = body_b.args[0][0]
        self.env[s.var] = counter
        self.loops.append(_Loop(exit_b, latch, carried, counter))
        self.block(s.body)
        if self.cur is not None:
            self.br(latch, [counter, *(self.env[v] for v in carried)])
        self.loops.pop()
        if latch.preds:
            self._enter(latch, carried, env0, skip=1)
            ctr = latch.args[0][0]
            if ty.signed:
                fwd = self.val(f"arith.subi {stop}, {ctr} : {t}")
                bwd = self.val(f"arith.subi {ctr}, {stop} : {t}")
                remaining = self.select(up, fwd, bwd, t)
                neg = self.val(f"arith.subi {zero}, {step} : {t}")
                stride = self.select(up, step, neg, t)
            else:
                remaining = self.val(f"arith.subi {stop}, {ctr} : {t}")
                stride = step
            more = self.cmpi("ugt", remaining, stride, t)
            nxt = self.val(f"arith.addi {ctr}, {step} : {t}")
            vals = [self.env[v] for v in carried]
            self.cond_br(more, body_b, [nxt, *vals], exit_b, vals)
        self._enter(exit_b, carried, env0)

    def print_stmt(self, s: tast.Print) -> None:
        for i, a in enumerate(s.args):
            if i:
                self.put_text(s.sep)
            if isinstance(a, str):
                self.put_text(a)
            else:
                self.put_value(self.expr(a), a.type)
        self.put_text(s.end)

    def put_text(self, text: str) -> None:
        data = text.encode("utf-8")
        if not data:
            return
        if len(data) == 1:
            fn = self.m.declare("ember_put_char", "(i64)")
            c = self.const(data[0], _I64)
            self.op(f"func.call {fn}({c}) : (i64) -> ()")
            return
        sym, n = self.m.string(text)
        fn = self.m.declare("ember_put_str", "(memref<?xi8>)")
        g = self.val(f"memref.get_global {sym} : memref<{n}xi8>")
        d = self.val(f"memref.cast {g} : memref<{n}xi8> to memref<?xi8>")
        self.op(f"func.call {fn}({d}) : (memref<?xi8>) -> ()")

    def put_value(self, v: str, t: Type) -> None:
        if isinstance(t, IntType):
            name = "ember_put_i64" if t.signed else "ember_put_u64"
            v = self.to_i64(v, t)
            arg = "i64"
        elif isinstance(t, BoolType):
            name, arg = "ember_put_bool", "i64"
            v = self.val(f"arith.extui {v} : i1 to i64")
        else:
            assert isinstance(t, FloatType)
            name, arg = f"ember_put_f{t.width}", f"f{t.width}"
        fn = self.m.declare(name, f"({arg})")
        self.op(f"func.call {fn}({v}) : ({arg}) -> ()")

    # ------------------------------------------------------------------ expressions

    def expr(self, e: tast.Expr) -> str:
        t = e.type
        if isinstance(e, tast.IntConst | tast.BoolConst | tast.FloatConst):
            return self.const(e.value, t)
        if isinstance(e, tast.LocalRef):
            return self.env[e.var]
        if isinstance(e, tast.GlobalRef):
            ty = f"memref<{storage_type(t)}>"
            m = self.val(f"memref.get_global {global_symbol(e.glob)} : {ty}")
            return self.load(m, "", t, ty)
        if isinstance(e, tast.FuncRef):
            return self.val(f"func.constant {func_symbol(e.func)} : {mlir_type(t)}")
        if isinstance(e, tast.Unary):
            return self.unary(e)
        if isinstance(e, tast.Binary):
            left = self.expr(e.left)
            right = self.expr(e.right)
            return self.binop(e.op, e.left.type, left, right)
        if isinstance(e, tast.Compare):
            return self.compare(e)
        if isinstance(e, tast.BoolOp):
            return self.bool_op(e)
        if isinstance(e, tast.IfExp):
            c = self.expr(e.cond)
            tb, eb = self.new_block([]), self.new_block([])
            join = self.new_block([mlir_type(t)])
            self.cond_br(c, tb, [], eb, [])
            self.cur = tb
            self.br(join, [self.expr(e.then)])
            self.cur = eb
            self.br(join, [self.expr(e.orelse)])
            self.cur = join
            return join.args[0][0]
        if isinstance(e, tast.Call):
            args = [self.expr(a) for a in e.args]
            sig = f"({', '.join(mlir_type(a.type) for a in e.args)}) -> ({'' if t == NONE else mlir_type(t)})"
            call = f"func.call {func_symbol(e.func)}({', '.join(args)}) : {sig}"
            if t == NONE:
                self.op(call)
                return ""
            return self.val(call)
        if isinstance(e, tast.CallIndirect):
            callee = self.expr(e.callee)
            args = [self.expr(a) for a in e.args]
            call = f"func.call_indirect {callee}({', '.join(args)}) : {mlir_type(e.callee.type)}"
            if t == NONE:
                self.op(call)
                return ""
            return self.val(call)
        if isinstance(e, tast.Convert):
            return self.convert(self.expr(e.operand), e.operand.type, t)
        if isinstance(e, tast.Builtin):
            return self.builtin(e)
        if isinstance(e, tast.BufferNew):
            return self.buffer_new(e)
        if isinstance(e, tast.Index):
            buf, ix = self.element(e.buffer, e.index)
            return self.load(buf, ix, t, mlir_type(e.buffer.type))
        if isinstance(e, tast.GpuIndex):
            return self.gpu_index(e)
        if isinstance(e, tast.Launch):
            self.launch(e)
            return ""
        raise AssertionError(f"unknown expression {e!r}")

    def gpu_index(self, e: tast.GpuIndex) -> str:
        if e.kind != "global_idx":
            fn = self.m.gpu_index(tast.GPU_INDEX_KINDS[e.kind], e.axis)
            return self.val(f"func.call {fn}() : () -> i64")
        bid = self.val(f"func.call {self.m.gpu_index('ctaid', e.axis)}() : () -> i64")
        dim = self.val(f"func.call {self.m.gpu_index('ntid', e.axis)}() : () -> i64")
        tid = self.val(f"func.call {self.m.gpu_index('tid', e.axis)}() : () -> i64")
        base = self.val(f"arith.muli {bid}, {dim} : i64")
        return self.val(f"arith.addi {base}, {tid} : i64")

    def launch(self, e: tast.Launch) -> None:
        """The CPU grid emulator: loops over blocks and threads (block-major, x fastest) that
        set the emulator context and call the kernel (docs/offload.md)."""
        grid = [self.expr(d) for d in e.grid]
        block = [self.expr(d) for d in e.block]
        args = [self.expr(a) for a in e.args]
        one = self.const(1, _I64)
        bad = self.const(False, BOOL)
        for dims, limits in ((grid, GRID_LIMITS), (block, BLOCK_LIMITS)):
            for d, lim in zip(dims, limits, strict=True):
                low = self.cmpi("slt", d, one, "i64")
                high = self.cmpi("sgt", d, self.const(lim, _I64), "i64")
                bad = self.val(f"arith.ori {bad}, {low} : i1")
                bad = self.val(f"arith.ori {bad}, {high} : i1")
        threads = self.val(f"arith.muli {block[0]}, {block[1]} : i64")
        threads = self.val(f"arith.muli {threads}, {block[2]} : i64")
        too_many = self.cmpi("sgt", threads, self.const(MAX_THREADS_PER_BLOCK, _I64), "i64")
        self.trap_if(self.val(f"arith.ori {bad}, {too_many} : i1"), TRAP_LAUNCH)
        on_gpu = self.offer_to_gpu(e, grid + block, args)
        ctx = self.val(f"memref.get_global {self.m.gpu_context()} : memref<12xi64>")
        slots = [self.index_const(i) for i in range(12)]
        for i, d in enumerate(block + grid):
            self.op(f"memref.store {d}, {ctx}[{slots[6 + i]}] : memref<12xi64>")
        bounds = [self.val(f"arith.index_cast {d} : i64 to index") for d in grid + block]
        c0, c1 = self.index_const(0), self.index_const(1)
        ivs = [self.fresh() for _ in range(6)]
        # loop nest: grid z, y, x, then block z, y, x; ivs[k] is the induction variable of loop k
        order = [2, 1, 0, 5, 4, 3]  # position in grid+block of each nesting level
        lines: list[str] = []
        for level, pos in enumerate(order):
            lines.append(f"{'  ' * level}scf.for {ivs[pos]} = {c0} to {bounds[pos]} step {c1} {{")
            if level in (2, 5):  # innermost grid loop / innermost block loop: publish indices
                base = 0 if level == 2 else 3
                for axis in range(3):
                    v = self.fresh()
                    ind = "  " * (level + 1)
                    lines.append(f"{ind}{v} = arith.index_cast {ivs[base + axis]} : index to i64")
                    lines.append(f"{ind}memref.store {v}, {ctx}[{slots[base + axis]}] : memref<12xi64>")
        types = ", ".join(mlir_type(a.type) for a in e.args)
        lines.append(f"{'  ' * 6}func.call {func_symbol(e.kernel)}({', '.join(args)}) : ({types}) -> ()")
        for level in reversed(range(6)):
            lines.append(f"{'  ' * level}}}")
        emulate = self.val(f"arith.xori {on_gpu}, {self.const(True, BOOL)} : i1")
        self.op("\n".join([f"scf.if {emulate} {{", *("  " + ln for ln in lines), "}"]))

    def offer_to_gpu(self, e: tast.Launch, dims: list[str], args: list[str]) -> str:
        """Queue the arguments and ask the runtime to launch the kernel's embedded PTX
        (compiler/runtime/ember_gpu.c); an i1 that is false when the CPU emulator must run it."""
        for a, v in zip(e.args, args, strict=True):
            t = a.type
            if isinstance(t, BufferType):
                fn = self.m.declare("ember_gpu_arg_buffer", "(i64, i64, i64)")
                ty = mlir_type(t)
                ptr = self.val(f"memref.extract_aligned_pointer_as_index {v} : {ty} -> index")
                count = self.val(f"memref.dim {v}, {self.index_const(0)} : {ty}")
                ptr, count = (self.val(f"arith.index_cast {x} : index to i64") for x in (ptr, count))
                elem = self.const(_byte_size(t.elem), _I64)
                self.op(f"func.call {fn}({ptr}, {count}, {elem}) : (i64, i64, i64) -> ()")
                continue
            fn = self.m.declare("ember_gpu_arg_scalar", "(i64, i64)")
            if isinstance(t, FloatType):
                v = self.val(f"arith.bitcast {v} : f{t.width} to i{t.width}")
                bits = v if t.width == 64 else self.val(f"arith.extui {v} : i{t.width} to i64")
            elif isinstance(t, BoolType):
                bits = self.val(f"arith.extui {v} : i1 to i64")
            else:
                assert isinstance(t, IntType)
                bits = self.to_i64(v, t)  # the low bytes hold the value, little-endian
            size = self.const(_byte_size(t), _I64)
            self.op(f"func.call {fn}({size}, {bits}) : (i64, i64) -> ()")
        sym, n = self.m.string(e.kernel.name)
        name = self.val(f"memref.get_global {sym} : memref<{n}xi8>")
        name = self.val(f"memref.cast {name} : memref<{n}xi8> to memref<?xi8>")
        signature = "(memref<?xi8>, i64, i64, i64, i64, i64, i64) -> i1"
        fn = self.m.declare("ember_gpu_launch", signature.replace(" -> i1", " -> (i1)"))
        return self.val(f"func.call {fn}({name}, {', '.join(dims)}) : {signature}")

    def unary(self, e: tast.Unary) -> str:
        v = self.expr(e.operand)
        t = e.type
        ty = mlir_type(t)
        if e.op == "pos":
            return v
        if e.op == "not":
            return self.val(f"arith.xori {v}, {self.const(True, BOOL)} : i1")
        if e.op == "invert":
            return self.val(f"arith.xori {v}, {self.const(-1, t)} : {ty}")
        if isinstance(t, FloatType):
            return self.val(f"arith.negf {v} : {ty}")
        return self.val(f"arith.subi {self.const(0, t)}, {v} : {ty}")

    def binop(self, op: str, t: Type, a: str, b: str) -> str:
        ty = mlir_type(t)
        if isinstance(t, FloatType):
            simple = {"add": "addf", "sub": "subf", "mul": "mulf", "truediv": "divf"}
            if op in simple:
                return self.val(f"arith.{simple[op]} {a}, {b} : {ty}")
            return self.float_divmod(op, t, a, b)
        if isinstance(t, BoolType):
            return self.val(f"arith.{op}i {a}, {b} : i1")
        assert isinstance(t, IntType)
        simple = {"add": "addi", "sub": "subi", "mul": "muli", "and": "andi", "or": "ori", "xor": "xori"}
        if op in simple:
            return self.val(f"arith.{simple[op]} {a}, {b} : {ty}")
        if op in ("floordiv", "mod"):
            return self.int_divmod(op, t, a, b)
        if op == "pow":
            fn = self.m.ipow(t)
            return self.val(f"func.call {fn}({a}, {b}) : ({ty}, {ty}) -> ({ty})")
        if op in ("lshift", "rshift"):
            return self.shift(op, t, a, b)
        raise AssertionError(f"no integer operator {op}")

    def shift(self, op: str, t: IntType, a: str, n: str) -> str:
        ty = mlir_type(t)
        width = self.const(t.width, t)
        inrange = self.cmpi("ult", n, width, ty)
        if op == "rshift" and t.signed:
            # amounts outside [0, width) shift out every bit but the sign: same as width - 1
            amount = self.select(inrange, n, self.const(t.width - 1, t), ty)
            return self.val(f"arith.shrsi {a}, {amount} : {ty}")
        zero = self.const(0, t)
        amount = self.select(inrange, n, zero, ty)
        kind = "shli" if op == "lshift" else "shrui"
        shifted = self.val(f"arith.{kind} {a}, {amount} : {ty}")
        return self.select(inrange, shifted, zero, ty)

    def int_divmod(self, op: str, t: IntType, a: str, b: str) -> str:
        ty = mlir_type(t)
        zero = self.const(0, t)
        self.trap_if(self.cmpi("eq", b, zero, ty), TRAP_DIV_ZERO)
        if not t.signed:
            kind = "divui" if op == "floordiv" else "remui"
            return self.val(f"arith.{kind} {a}, {b} : {ty}")
        minus1 = self.const(-1, t)
        is_m1 = self.cmpi("eq", b, minus1, ty)
        if op == "floordiv":
            is_min = self.cmpi("eq", a, self.const(t.min, t), ty)
            self.trap_if(self.val(f"arith.andi {is_min}, {is_m1} : i1"), TRAP_DIV_OVERFLOW)
            divisor = b
        else:
            # x % -1 == 0 for every x; a divisor of 1 gives that without INT_MIN % -1
            divisor = self.select(is_m1, self.const(1, t), b, ty)
        q = self.val(f"arith.divsi {a}, {divisor} : {ty}")
        r = self.val(f"arith.remsi {a}, {divisor} : {ty}")
        rnz = self.cmpi("ne", r, zero, ty)
        signs = self.val(f"arith.xori {r}, {b} : {ty}")
        differ = self.cmpi("slt", signs, zero, ty)
        adjust = self.val(f"arith.andi {rnz}, {differ} : i1")
        if op == "floordiv":
            one = self.val(f"arith.extui {adjust} : i1 to {ty}")
            return self.val(f"arith.subi {q}, {one} : {ty}")
        moved = self.val(f"arith.addi {r}, {b} : {ty}")
        return self.select(adjust, moved, r, ty)

    def float_divmod(self, op: str, t: FloatType, a: str, b: str) -> str:
        """Python's float `%` and `//` (floatobject.c `_float_div_mod`), without the zero check."""
        ty = mlir_type(t)
        zero = self.const(0.0, t)
        mod = self.val(f"arith.remf {a}, {b} : {ty}")
        mod_nz = self.val(f"arith.cmpf une, {mod}, {zero} : {ty}")
        b_neg = self.val(f"arith.cmpf olt, {b}, {zero} : {ty}")
        mod_neg = self.val(f"arith.cmpf olt, {mod}, {zero} : {ty}")
        differ = self.val(f"arith.xori {b_neg}, {mod_neg} : i1")
        adjust = self.val(f"arith.andi {mod_nz}, {differ} : i1")
        if op == "mod":
            moved = self.val(f"arith.addf {mod}, {b} : {ty}")
            adjusted = self.select(adjust, moved, mod, ty)
            signed_zero = self.val(f"math.copysign {zero}, {b} : {ty}")
            return self.select(mod_nz, adjusted, signed_zero, ty)
        diff = self.val(f"arith.subf {a}, {mod} : {ty}")
        div = self.val(f"arith.divf {diff}, {b} : {ty}")
        one = self.const(1.0, t)
        dec = self.val(f"arith.subf {div}, {one} : {ty}")
        div = self.select(adjust, dec, div, ty)
        div_nz = self.val(f"arith.cmpf une, {div}, {zero} : {ty}")
        fl = self.val(f"math.floor {div} : {ty}")
        frac = self.val(f"arith.subf {div}, {fl} : {ty}")
        half = self.const(0.5, t)
        up = self.val(f"arith.cmpf ogt, {frac}, {half} : {ty}")
        inc = self.val(f"arith.addf {fl}, {one} : {ty}")
        snapped = self.select(up, inc, fl, ty)
        quot = self.val(f"arith.divf {a}, {b} : {ty}")
        signed_zero = self.val(f"math.copysign {zero}, {quot} : {ty}")
        return self.select(div_nz, snapped, signed_zero, ty)

    def compare(self, e: tast.Compare) -> str:
        values = [self.expr(e.operands[0]), self.expr(e.operands[1])]
        result = self.cmp(e.ops[0], e.operands[0].type, values[0], values[1])
        if len(e.ops) == 1:
            return result
        join = self.new_block(["i1"])
        for i in range(1, len(e.ops)):
            nxt = self.new_block([])
            self.cond_br(result, nxt, [], join, [result])
            self.cur = nxt
            values.append(self.expr(e.operands[i + 1]))
            result = self.cmp(e.ops[i], e.operands[i].type, values[i], values[i + 1])
        self.br(join, [result])
        self.cur = join
        return join.args[0][0]

    def cmp(self, op: str, t: Type, a: str, b: str) -> str:
        ty = mlir_type(t)
        if isinstance(t, FloatType):
            pred = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}[op]
            return self.val(f"arith.cmpf {pred}, {a}, {b} : {ty}")
        if op in ("eq", "ne"):
            return self.cmpi(op, a, b, ty)
        sign = "s" if isinstance(t, IntType) and t.signed else "u"
        return self.cmpi(sign + op, a, b, ty)

    def bool_op(self, e: tast.BoolOp) -> str:
        v = self.expr(e.values[0])
        join = self.new_block(["i1"])
        for nxt_expr in e.values[1:]:
            nxt = self.new_block([])
            if e.op == "and":
                self.cond_br(v, nxt, [], join, [v])
            else:
                self.cond_br(v, join, [v], nxt, [])
            self.cur = nxt
            v = self.expr(nxt_expr)
        self.br(join, [v])
        self.cur = join
        return join.args[0][0]

    def convert(self, v: str, src: Type, dst: Type) -> str:
        s, d = mlir_type(src), mlir_type(dst)
        if isinstance(dst, BoolType):
            if isinstance(src, FloatType):
                return self.val(f"arith.cmpf une, {v}, {self.const(0.0, src)} : {s}")
            return self.cmpi("ne", v, self.const(0, src), s)
        if isinstance(src, BoolType):
            if isinstance(dst, FloatType):
                return self.val(f"arith.uitofp {v} : i1 to {d}")
            return self.val(f"arith.extui {v} : i1 to {d}")
        if isinstance(src, IntType) and isinstance(dst, IntType):
            if src.width == dst.width:
                return v
            if src.width > dst.width:
                return self.val(f"arith.trunci {v} : {s} to {d}")
            return self.val(f"arith.{'extsi' if src.signed else 'extui'} {v} : {s} to {d}")
        if isinstance(src, IntType) and isinstance(dst, FloatType):
            return self.val(f"arith.{'sitofp' if src.signed else 'uitofp'} {v} : {s} to {d}")
        if isinstance(src, FloatType) and isinstance(dst, FloatType):
            kind = "extf" if dst.width > src.width else "truncf"
            return self.val(f"arith.{kind} {v} : {s} to {d}")
        assert isinstance(src, FloatType) and isinstance(dst, IntType)
        return self.float_to_int(v, src, dst)

    def float_to_int(self, v: str, src: FloatType, dst: IntType) -> str:
        """Truncate toward zero, saturate out-of-range values, NaN -> 0 (LLVM's fpto*i.sat)."""
        s, d = mlir_type(src), mlir_type(dst)
        fzero = self.const(0.0, src)
        hi = self.const(float(dst.max + 1), src)
        lo = self.const(float(dst.min) if dst.signed else -1.0, src)
        above_lo = self.val(f"arith.cmpf {'oge' if dst.signed else 'ogt'}, {v}, {lo} : {s}")
        below_hi = self.val(f"arith.cmpf olt, {v}, {hi} : {s}")
        inrange = self.val(f"arith.andi {above_lo}, {below_hi} : i1")
        safe = self.select(inrange, v, fzero, s)
        t = self.val(f"arith.{'fptosi' if dst.signed else 'fptoui'} {safe} : {s} to {d}")
        big = self.val(f"arith.cmpf oge, {v}, {hi} : {s}")
        r = self.select(big, self.const(dst.max, dst), t, d)
        if dst.signed:
            small = self.val(f"arith.cmpf olt, {v}, {lo} : {s}")
            r = self.select(small, self.const(dst.min, dst), r, d)
        return r

    def builtin(self, e: tast.Builtin) -> str:
        t = e.type
        ty = mlir_type(t)
        if e.name == "len":
            b = self.expr(e.args[0])
            c0 = self.index_const(0)
            n = self.val(f"memref.dim {b}, {c0} : {mlir_type(e.args[0].type)}")
            return self.val(f"arith.index_cast {n} : index to i64")
        if e.name == "sqrt":
            return self.val(f"math.sqrt {self.expr(e.args[0])} : {ty}")
        if e.name == "abs":
            x = self.expr(e.args[0])
            if isinstance(t, FloatType):
                return self.val(f"math.absf {x} : {ty}")
            assert isinstance(t, IntType)
            if not t.signed:
                return x
            zero = self.const(0, t)
            neg = self.val(f"arith.subi {zero}, {x} : {ty}")
            return self.select(self.cmpi("slt", x, zero, ty), neg, x, ty)
        a = self.expr(e.args[0])
        b = self.expr(e.args[1])
        # min(a, b) is b only when b < a (so min(a, NaN) == a, as in Python); max likewise
        better = self.cmp("lt" if e.name == "min" else "gt", t, b, a)
        return self.select(better, b, a, ty)

    def buffer_new(self, e: tast.BufferNew) -> str:
        bt = e.type
        assert isinstance(bt, BufferType)
        mt = mlir_type(bt)
        n = self.to_i64(self.expr(e.size), e.size.type)
        limit = self.const(MAX_BUFFER_ELEMENTS, _I64)
        self.trap_if(self.cmpi("ugt", n, limit, "i64"), TRAP_BUFFER_SIZE)
        count = self.val(f"arith.index_cast {n} : i64 to index")
        buf = self.val(f"memref.alloc({count}) : {mt}")
        ptr = self.val(f"memref.extract_aligned_pointer_as_index {buf} : {mt} -> index")
        null = self.cmpi("eq", ptr, self.index_const(0), "index")
        nonempty = self.cmpi("ne", n, self.const(0, _I64), "i64")
        self.trap_if(self.val(f"arith.andi {null}, {nonempty} : i1"), TRAP_OUT_OF_MEMORY)
        zero = self.const(0, INT8) if isinstance(bt.elem, BoolType) else self.const(0, bt.elem)
        c0 = self.index_const(0)
        c1 = self.index_const(1)
        head = self.new_block(["index"])
        body = self.new_block([])
        done = self.new_block([])
        self.br(head, [c0])
        self.cur = head
        i = head.args[0][0]
        more = self.cmpi("slt", i, count, "index")
        self.cond_br(more, body, [], done, [])
        self.cur = body
        self.op(f"memref.store {zero}, {buf}[{i}] : {mt}")
        self.br(head, [self.val(f"arith.addi {i}, {c1} : index")])
        self.cur = done
        return buf

    def element(self, buffer: tast.Expr, index: tast.Expr) -> tuple[str, str]:
        """Evaluate buffer and index, trap unless 0 <= index < len; returns (memref, index)."""
        buf = self.expr(buffer)
        i = self.to_i64(self.expr(index), index.type)
        c0 = self.index_const(0)
        n = self.val(f"memref.dim {buf}, {c0} : {mlir_type(buffer.type)}")
        n64 = self.val(f"arith.index_cast {n} : index to i64")
        self.trap_if(self.cmpi("uge", i, n64, "i64"), TRAP_INDEX)
        return buf, self.val(f"arith.index_cast {i} : i64 to index")


def emit_module(program: tast.Program, debug_path: str | None = None) -> str:
    """The MLIR text of a checked program (with `debug_path`: every op of a function located
    at its statement, `loc("path":line:col)`, the function at its `def`)."""
    return ModuleEmitter(program, debug_path).text()


def _mlir_string(text: str) -> str:
    """`text` inside an MLIR string literal (quote, backslash and controls escaped as \\XX)."""
    return "".join(f"\\{ord(c):02X}" if c in '"\\' or ord(c) < 32 else c for c in text)
