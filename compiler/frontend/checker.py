"""The Ember type checker: Python `ast` in, typed AST (`tast`) out, every error collected.

Names are resolved (locals are function-wide, globals and functions module-wide),
literals take their type from context, definite assignment is checked, and a
non-None function that can fall off its end is rejected. All diagnostics of a
program are reported together (`MultipleErrors`), sorted by position.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterable
from typing import NoReturn

from compiler.diagnostics import EmberError, Location, MultipleErrors
from compiler.frontend import tast
from compiler.frontend.consts import int_to_float, round_f32
from compiler.frontend.parser import SourceMap, parse
from compiler.frontend.types import (
    BOOL,
    ERROR,
    FLOAT32,
    FLOAT64,
    INT,
    NONE,
    SCALAR_TYPES,
    UINT64,
    BoolType,
    BufferType,
    ErrorType,
    FloatType,
    FuncType,
    IntType,
    Type,
)

#: Builtin functions (not first-class values).
BUILTIN_FUNCS = ("print", "range", "len", "abs", "min", "max", "sqrt")
#: GPU index intrinsics (`thread_idx_x()` ...), usable only in the body of a `@kernel`.
GPU_INTRINSICS = {f"{kind}_{axis}": (kind, i) for kind in tast.GPU_INDEX_KINDS for i, axis in enumerate(tast.GPU_AXES)}
#: Names of types and type constructors.
TYPE_NAMES = (*SCALAR_TYPES, "Buffer", "Callable", "Export")
DECORATORS = ("export", "always_inline", "noinline", "kernel")
RESERVED = frozenset((*BUILTIN_FUNCS, *GPU_INTRINSICS, *TYPE_NAMES, *DECORATORS))

#: C symbols an exported Ember function or global must not define (runtime, libc, libm).
RESERVED_SYMBOLS = frozenset(
    (
        *("main", "malloc", "free", "calloc", "realloc", "aligned_alloc", "memcpy", "memmove", "memset"),
        *("memcmp", "printf", "fprintf", "snprintf", "sprintf", "puts", "putchar", "fputs", "fputc"),
        *("fwrite", "fflush", "exit", "abort", "strtod", "fmod", "fmodf", "floor", "floorf", "ceil"),
        *("ceilf", "sqrt", "sqrtf", "copysign", "copysignf", "pow", "powf", "stdout", "stderr", "errno"),
    )
)

_MAX_ERRORS = 100


class _TooManyErrors(Exception):
    pass


_UNSUPPORTED_STMT = {
    "ClassDef": "class definitions",
    "AsyncFunctionDef": "async functions",
    "Delete": "'del' statements",
    "AsyncFor": "'async for' loops",
    "With": "'with' statements",
    "AsyncWith": "'async with' statements",
    "Match": "'match' statements",
    "Raise": "'raise' statements",
    "Try": "'try' statements",
    "TryStar": "'try' statements",
    "Import": "imports",
    "ImportFrom": "imports",
    "Nonlocal": "'nonlocal' declarations",
    "TypeAlias": "type aliases",
}

_UNSUPPORTED_EXPR = {
    "NamedExpr": "assignment expressions (':=')",
    "Lambda": "lambda expressions",
    "Dict": "dict displays",
    "Set": "set displays",
    "ListComp": "list comprehensions",
    "SetComp": "set comprehensions",
    "DictComp": "dict comprehensions",
    "GeneratorExp": "generator expressions",
    "Await": "'await' expressions",
    "Yield": "'yield' expressions",
    "YieldFrom": "'yield from' expressions",
    "FormattedValue": "f-strings",
    "JoinedStr": "f-strings",
    "Attribute": "attribute access",
    "Starred": "starred expressions",
    "List": "list displays",
    "Tuple": "tuples",
    "Slice": "slices",
}


def _describe(node: ast.AST, table: dict[str, str]) -> str:
    name = type(node).__name__
    return table.get(name, name)


class _Scope:
    """Per-function checking state."""

    def __init__(self, func: tast.FuncDecl, global_names: set[str]) -> None:
        self.func = func
        self.vars: dict[str, tast.Var] = {}
        self.global_names = global_names
        self.loop_depth = 0


DA = frozenset[tast.Var] | None  # definitely assigned locals; None: this point is unreachable


def _meet(a: DA, b: DA) -> DA:
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _is_flexible(node: ast.expr) -> bool:
    """A numeric literal expression whose type comes from its context (memoised on the node:
    asked at every level of a long sum, it would otherwise be quadratic)."""
    known = getattr(node, "_ember_flexible", None)
    if known is not None:
        return bool(known)
    if isinstance(node, ast.Constant):
        result = isinstance(node.value, int | float) and not isinstance(node.value, bool)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd | ast.Invert):
        result = _is_flexible(node.operand)
    elif isinstance(node, ast.BinOp):
        result = _is_flexible(node.left) and _is_flexible(node.right)
    else:
        result = False
    node._ember_flexible = result  # type: ignore[attr-defined]
    return result


def _literal_value(node: ast.expr) -> int | float | None:
    """The value of `5`, `-5`, `+2.5` (a constant with optional signs), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _literal_value(node.operand)
        if inner is None:
            return None
        return -inner if isinstance(node.op, ast.USub) else inner
    return None


def _has_break(body: list[ast.stmt]) -> bool:
    """Does `body` contain a `break` that leaves the loop owning `body`?"""
    for s in body:
        if isinstance(s, ast.Break):
            return True
        if isinstance(s, ast.If) and (_has_break(s.body) or _has_break(s.orelse)):
            return True
    return False


class Checker:
    """Check one module; `check()` returns the typed program or raises the collected errors."""

    def __init__(self, source: str, path: str) -> None:
        self.path = path
        self.source = source
        self.smap = SourceMap(source, path)
        self.errors: list[EmberError] = []
        self.globals: dict[str, tast.GlobalDecl] = {}
        self.functions: dict[str, tast.FuncDecl] = {}
        self.scope: _Scope | None = None

    # ------------------------------------------------------------------ diagnostics

    def loc(self, node: ast.AST) -> tast.Loc:
        where = self.smap.location(node)
        return tast.Loc(where.line or 1, where.col or 1)

    def error(self, node: ast.AST | tast.Loc, message: str) -> None:
        where = Location(self.path, node.line, node.col) if isinstance(node, tast.Loc) else self.smap.location(node)
        self.errors.append(EmberError(message, where))
        if len(self.errors) >= _MAX_ERRORS:
            raise _TooManyErrors

    def fail(self) -> NoReturn:
        errors = sorted(self.errors, key=lambda e: (e.location.line or 0, e.location.col or 0) if e.location else (0, 0))
        if len(errors) == 1:
            raise errors[0]
        raise MultipleErrors(errors)

    # ------------------------------------------------------------------ entry point

    def check(self) -> tast.Program:
        module = parse(self.source, self.path)
        try:
            self._collect(module)
            for fn_node, decl in self._fn_nodes:
                self._check_function(fn_node, decl)
        except _TooManyErrors:
            pass
        except RecursionError:
            self.errors.append(too_deep(module, self.path))
        with contextlib.suppress(_TooManyErrors):
            self._check_device_code()
        if self.errors:
            self.fail()
        main = self.functions.get("main")
        return tast.Program(self.path, list(self.globals.values()), list(self.functions.values()), main)

    # ------------------------------------------------------------------ device code

    def _check_device_code(self) -> None:
        """Kernels and every function they call (transitively) run on the GPU: no print,
        globals, allocation, function values or launches there (docs/offload.md)."""
        reason: dict[str, str] = {}  # device function -> a kernel that reaches it
        stack = [f for f in self.functions.values() if f.kernel]
        for k in stack:
            reason[k.name] = k.name
        while stack:
            f = stack.pop()
            for node in tast.walk(f.body):
                if isinstance(node, tast.Call) and node.func.name not in reason:
                    reason[node.func.name] = reason[f.name]
                    stack.append(node.func)
        for f in self.functions.values():
            if f.name not in reason:
                continue
            where = f"kernel '{f.name}'" if f.kernel else f"'{f.name}', which kernel '{reason[f.name]}' calls"
            for node in tast.walk(f.body):
                what = None
                if isinstance(node, tast.Print):
                    what = "print()"
                elif isinstance(node, tast.GlobalRef):
                    what = f"global variable '{node.glob.name}'"
                elif isinstance(node, tast.Assign | tast.AugAssign) and isinstance(node.target, tast.GlobalTarget):
                    what = f"global variable '{node.target.glob.name}'"
                elif isinstance(node, tast.BufferNew):
                    what = "allocating a buffer"
                elif isinstance(node, tast.FuncRef):
                    what = "a function value"
                elif isinstance(node, tast.CallIndirect):
                    what = "an indirect call"
                elif isinstance(node, tast.Launch):
                    what = "a kernel launch"
                if what is not None:
                    assert isinstance(node, tast.Expr | tast.Stmt)
                    self.error(node.loc, f"{what} is not allowed in device code ({where})")

    # ------------------------------------------------------------------ module level

    def _collect(self, module: ast.Module) -> None:
        self._fn_nodes: list[tuple[ast.FunctionDef, tast.FuncDecl]] = []
        for stmt in module.body:
            if isinstance(stmt, ast.FunctionDef):
                decl = self._signature(stmt)
                if decl is not None and self._define(stmt, decl.name):
                    self.functions[decl.name] = decl
                    self._fn_nodes.append((stmt, decl))
            elif isinstance(stmt, ast.AnnAssign | ast.Assign):
                glob = self._global(stmt)
                if glob is not None and self._define(stmt, glob.name):
                    glob.index = len(self.globals)
                    self.globals[glob.name] = glob
            elif isinstance(stmt, ast.Pass) or (
                isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)
            ):
                continue  # docstrings and `pass`
            elif type(stmt).__name__ in _UNSUPPORTED_STMT:
                self.error(stmt, f"{_describe(stmt, _UNSUPPORTED_STMT)} are not supported")
            else:
                self.error(stmt, "only function definitions and global variable declarations are allowed at module level")

    def _define(self, node: ast.AST, name: str) -> bool:
        if name in RESERVED:
            self.error(node, f"'{name}' is a builtin name and cannot be redefined")
            return False
        if name in self.functions or name in self.globals:
            self.error(node, f"'{name}' is already defined")
            return False
        return True

    def _global(self, stmt: ast.AnnAssign | ast.Assign) -> tast.GlobalDecl | None:
        exported = False
        if isinstance(stmt, ast.AnnAssign):
            target: ast.expr = stmt.target
            ann = stmt.annotation
            if isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name) and ann.value.id == "Export":
                exported = True
                ann = ann.slice
            ty = self.parse_type(ann)
            value = stmt.value
        else:
            if len(stmt.targets) != 1:
                self.error(stmt, "chained assignment is not supported")
                return None
            target, value, ty = stmt.targets[0], stmt.value, None
        if not isinstance(target, ast.Name):
            self.error(target, "a global declaration must assign a simple name")
            return None
        name = target.id
        if ty is not None and not isinstance(ty, ErrorType) and not ty.is_scalar():
            self.error(stmt, f"global '{name}' must have a scalar type, not {ty}")
            return None
        if value is None:
            self.error(stmt, f"global '{name}' needs an initial value")
            return None
        init: int | float | bool
        vty: Type
        if isinstance(value, ast.Constant) and isinstance(value.value, bool):
            init, vty = value.value, BOOL
        else:
            lit = _literal_value(value)
            if lit is None:
                self.error(value, f"the initial value of global '{name}' must be a literal constant")
                return None
            vty = INT if isinstance(lit, int) else FLOAT64
            init = lit
        if ty is None:
            ty = vty
        if isinstance(ty, ErrorType):
            return None
        const = self._constant(value, init, ty)
        if const is None:
            return None
        if exported and (name in RESERVED_SYMBOLS or name.startswith("ember")):
            self.error(stmt, f"'{name}' is a reserved symbol name and cannot be exported")
            return None
        return tast.GlobalDecl(name, ty, const, exported, self.loc(stmt))

    def _constant(self, node: ast.expr, value: int | float | bool, ty: Type) -> int | float | bool | None:
        """The literal `value` in type `ty`, or None after reporting a mismatch."""
        if isinstance(value, bool):
            if ty == BOOL:
                return value
        elif isinstance(value, int):
            if isinstance(ty, IntType):
                if ty.min <= value <= ty.max:
                    return value
                self.error(node, f"integer literal {value} is out of range for {ty}")
                return None
            if isinstance(ty, FloatType):
                try:
                    return int_to_float(value, ty)
                except OverflowError:
                    self.error(node, f"integer literal {value} is out of range for {ty}")
                    return None
        elif isinstance(ty, FloatType):
            return round_f32(value) if ty == FLOAT32 else float(value)
        found = "Bool" if isinstance(value, bool) else ("Int" if isinstance(value, int) else "Float64")
        self.error(node, f"expected {ty}, found {found}")
        return None

    def parse_type(self, node: ast.expr, *, allow_none: bool = False) -> Type:
        if isinstance(node, ast.Constant) and node.value is None:
            if allow_none:
                return NONE
            self.error(node, "'None' is only allowed as a result type")
            return ERROR
        if isinstance(node, ast.Name):
            ty = SCALAR_TYPES.get(node.id)
            if ty is not None:
                return ty
            if node.id in ("Buffer", "Callable"):
                self.error(node, f"'{node.id}' needs type arguments")
                return ERROR
            self.error(node, f"unknown type '{node.id}'")
            return ERROR
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            if node.value.id == "Buffer":
                elem = self.parse_type(node.slice)
                if isinstance(elem, ErrorType):
                    return ERROR
                if not elem.is_scalar():
                    self.error(node.slice, f"buffer elements must have a scalar type, not {elem}")
                    return ERROR
                return BufferType(elem)
            if node.value.id == "Callable":
                sl = node.slice
                if not (isinstance(sl, ast.Tuple) and len(sl.elts) == 2 and isinstance(sl.elts[0], ast.List)):
                    self.error(node, "a function type is written Callable[[P1, P2, ...], R]")
                    return ERROR
                params = tuple(self.parse_type(p) for p in sl.elts[0].elts)
                result = self.parse_type(sl.elts[1], allow_none=True)
                if any(isinstance(t, ErrorType) for t in (*params, result)):
                    return ERROR
                return FuncType(params, result)
            if node.value.id == "Export":
                self.error(node, "'Export[...]' is only allowed on global declarations")
                return ERROR
            self.error(node, f"unknown type '{node.value.id}'")
            return ERROR
        self.error(node, "invalid type annotation")
        return ERROR

    def _signature(self, fn: ast.FunctionDef) -> tast.FuncDecl | None:
        exported = False
        kernel = False
        inline: str | None = None
        for dec in fn.decorator_list:
            if not isinstance(dec, ast.Name) or dec.id not in DECORATORS:
                shown = dec.id if isinstance(dec, ast.Name) else ast.unparse(dec)
                self.error(dec, f"unknown decorator '{shown}'")
                continue
            if dec.id == "export":
                exported = True
            elif dec.id == "kernel":
                kernel = True
            else:
                mode = "always" if dec.id == "always_inline" else "never"
                if inline is not None and inline != mode:
                    self.error(dec, "'always_inline' and 'noinline' cannot be combined")
                inline = mode
        args = fn.args
        if args.posonlyargs or args.kwonlyargs or args.vararg or args.kwarg:
            self.error(fn, "only plain positional parameters are supported")
        if args.defaults or args.kw_defaults:
            first = (args.defaults or [d for d in args.kw_defaults if d is not None])[0]
            self.error(first, "default parameter values are not supported")
        params: list[tast.Var] = []
        for i, a in enumerate(args.args):
            if a.annotation is None:
                self.error(a, f"parameter '{a.arg}' needs a type annotation")
                ty: Type = ERROR
            else:
                ty = self.parse_type(a.annotation)
            if a.arg in RESERVED:
                self.error(a, f"'{a.arg}' is a builtin name and cannot be redefined")
            params.append(tast.Var(a.arg, ty, i, self.loc(a)))
        result = NONE if fn.returns is None else self.parse_type(fn.returns, allow_none=True)
        name = fn.name
        if name == "main":
            if exported:
                self.error(fn, "'main' is the program entry point and cannot be exported")
                exported = False
            if params or result not in (INT, NONE, ERROR):
                self.error(fn, "'main' must take no parameters and return Int or None")
        elif exported and (name in RESERVED_SYMBOLS or name.startswith("ember")):
            self.error(fn, f"'{name}' is a reserved symbol name and cannot be exported")
        if kernel:
            if name == "main":
                self.error(fn, "'main' cannot be a kernel")
            if exported:
                self.error(fn, "a kernel cannot be exported")
            if result not in (NONE, ERROR):
                self.error(fn.returns or fn, f"kernel '{name}' must not return a value")
            for p in params:
                if not (p.type.is_scalar() or isinstance(p.type, BufferType | ErrorType)):
                    self.error(p.loc, f"kernel parameters must be scalars or buffers, not {p.type}")
        ftype = FuncType(tuple(p.type for p in params), result)
        decl = tast.FuncDecl(name, params, result, exported, inline, self.loc(fn), ftype)
        decl.kernel = kernel
        return decl

    # ------------------------------------------------------------------ functions

    def _check_function(self, fn: ast.FunctionDef, decl: tast.FuncDecl) -> None:
        global_names: set[str] = set()
        for node in self._walk_body(fn.body):
            if isinstance(node, ast.Global):
                for name in node.names:
                    if name not in self.globals:
                        kind = "a function" if name in self.functions else "not defined"
                        message = (
                            f"'{name}' is {kind}, not a global variable" if kind == "a function" else f"global '{name}' is not defined"
                        )
                        self.error(node, message)
                    else:
                        global_names.add(name)
        scope = _Scope(decl, global_names)
        self.scope = scope
        for p in decl.params:
            if p.name in scope.vars:
                continue  # Python already rejects duplicate parameters
            if p.name in global_names:
                self.error(p.loc, f"'{p.name}' is both a parameter and a global")
            elif p.name in self.globals or p.name in self.functions:
                self.error(p.loc, f"parameter '{p.name}' would shadow the module-level '{p.name}'")
            scope.vars[p.name] = p
        decl.locals = list(decl.params)
        da: DA = frozenset(decl.params)
        decl.body, da = self.block(fn.body, da)
        if da is not None and decl.result not in (NONE, ERROR):
            self.error(fn, f"function '{decl.name}' can reach its end without returning a value")
        self.scope = None

    def _walk_body(self, body: list[ast.stmt]) -> Iterable[ast.AST]:
        stack: list[ast.AST] = list(body)
        while stack:
            node = stack.pop()
            yield node
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                continue
            stack.extend(ast.iter_child_nodes(node))

    def new_local(self, node: ast.AST, name: str, ty: Type) -> tast.Var:
        assert self.scope is not None
        var = tast.Var(name, ty, len(self.scope.func.locals), self.loc(node))
        self.scope.func.locals.append(var)
        self.scope.vars[name] = var
        return var

    def _check_new_name(self, node: ast.AST, name: str) -> bool:
        """May a new local called `name` be declared here? Reports why not."""
        assert self.scope is not None
        if name in RESERVED:
            self.error(node, f"'{name}' is a builtin name and cannot be redefined")
        elif name in self.scope.global_names or name in self.globals:
            self.error(node, f"'{name}' is a global; declare 'global {name}' to assign it")
        elif name in self.functions:
            self.error(node, f"'{name}' is a function and cannot be assigned")
        else:
            return True
        return False

    # ------------------------------------------------------------------ statements

    def block(self, stmts: list[ast.stmt], da: DA) -> tuple[list[tast.Stmt], DA]:
        out: list[tast.Stmt] = []
        for s in stmts:
            da = self.stmt(s, da, out)
        return out, da

    def stmt(self, s: ast.stmt, da: DA, out: list[tast.Stmt]) -> DA:
        assert self.scope is not None
        loc = self.loc(s)
        if isinstance(s, ast.Expr):
            v = s.value
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                return da  # docstring / string statement
            if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "print" and "print" not in self.scope.vars:
                out.append(self.print_stmt(v, da))
                return da
            out.append(tast.ExprStmt(loc, self.expr(v, None, da)))
            return da
        if isinstance(s, ast.Assign):
            return self.assign(s, da, out)
        if isinstance(s, ast.AnnAssign):
            return self.ann_assign(s, da, out)
        if isinstance(s, ast.AugAssign):
            return self.aug_assign(s, da, out)
        if isinstance(s, ast.If):
            cond = self.condition(s.test, da)
            body, da_t = self.block(s.body, da)
            orelse, da_e = self.block(s.orelse, da)
            out.append(tast.If(loc, cond, body, orelse))
            return _meet(da_t, da_e)
        if isinstance(s, ast.While):
            if s.orelse:
                self.error(s.orelse[0], "'else' after a loop is not supported")
            forever = isinstance(s.test, ast.Constant) and s.test.value is True
            cond = self.condition(s.test, da)
            self.scope.loop_depth += 1
            body, _ = self.block(s.body, da)
            self.scope.loop_depth -= 1
            out.append(tast.While(loc, cond, body))
            if forever and not _has_break(s.body):
                return None
            return da
        if isinstance(s, ast.For):
            return self.for_stmt(s, da, out)
        if isinstance(s, ast.Break | ast.Continue):
            word = "break" if isinstance(s, ast.Break) else "continue"
            if self.scope.loop_depth == 0:
                self.error(s, f"'{word}' outside a loop")
            out.append(tast.Break(loc) if isinstance(s, ast.Break) else tast.Continue(loc))
            return None
        if isinstance(s, ast.Return):
            out.append(self.return_stmt(s, da))
            return None
        if isinstance(s, ast.Pass):
            return da
        if isinstance(s, ast.Assert):
            if s.msg is not None and not (isinstance(s.msg, ast.Constant) and isinstance(s.msg.value, str)):
                self.error(s.msg, "an assert message must be a string literal")
            out.append(tast.Assert(loc, self.condition(s.test, da)))
            return da
        if isinstance(s, ast.Global):
            return da  # handled before the body is checked
        if isinstance(s, ast.FunctionDef):
            self.error(s, "nested functions are not supported")
            return da
        self.error(s, f"{_describe(s, _UNSUPPORTED_STMT)} are not supported")
        return da

    def _name_target(self, node: ast.Name, value: ast.expr, da: DA, loc: tast.Loc) -> tuple[tast.Stmt | None, DA]:
        assert self.scope is not None
        name = node.id
        if name in self.scope.global_names:
            g = self.globals[name]
            return tast.Assign(loc, tast.GlobalTarget(g), self.value_as(value, g.type, da, f"global '{name}'")), da
        var = self.scope.vars.get(name)
        if var is not None:
            rhs = self.value_as(value, var.type, da, f"'{name}'")
            return tast.Assign(loc, tast.LocalTarget(var), rhs), (None if da is None else da | {var})
        if not self._check_new_name(node, name):
            self.value(value, None, da)
            return None, da
        rhs = self.value(value, None, da)
        var = self.new_local(node, name, rhs.type)
        return tast.Assign(loc, tast.LocalTarget(var), rhs), (None if da is None else da | {var})

    def assign(self, s: ast.Assign, da: DA, out: list[tast.Stmt]) -> DA:
        loc = self.loc(s)
        if len(s.targets) != 1:
            self.error(s.targets[1], "chained assignment is not supported")
            return da
        target = s.targets[0]
        if isinstance(target, ast.Name):
            stmt, da = self._name_target(target, s.value, da, loc)
            if stmt is not None:
                out.append(stmt)
            return da
        if isinstance(target, ast.Subscript):
            # the value is evaluated before the buffer and the index (Python's order)
            buf, idx = self.index_parts(target, da)
            elem = buf.type.elem if isinstance(buf.type, BufferType) else ERROR
            rhs = self.value_as(s.value, elem, da, "buffer element")
            out.append(tast.Assign(loc, tast.IndexTarget(buf, idx, self.loc(target)), rhs))
            return da
        what = "tuple" if isinstance(target, ast.Tuple | ast.List) else _describe(target, _UNSUPPORTED_EXPR)
        self.error(target, f"assignment to {what} is not supported")
        return da

    def ann_assign(self, s: ast.AnnAssign, da: DA, out: list[tast.Stmt]) -> DA:
        assert self.scope is not None
        if not isinstance(s.target, ast.Name):
            self.error(s.target, "only a simple name can be declared with a type")
            return da
        name = s.target.id
        ty = self.parse_type(s.annotation)
        if name in self.scope.vars:
            self.error(s.target, f"'{name}' is already declared")
            if s.value is not None:
                self.value(s.value, None, da)
            return da
        if not self._check_new_name(s.target, name):
            return da
        if isinstance(ty, FuncType | BufferType | ErrorType) or ty.is_scalar():
            var = self.new_local(s.target, name, ty)
        else:
            self.error(s.annotation, f"a variable cannot have type {ty}")
            return da
        if s.value is None:
            return da
        rhs = self.value_as(s.value, ty, da, f"'{name}'")
        out.append(tast.Assign(self.loc(s), tast.LocalTarget(var), rhs))
        return None if da is None else da | {var}

    def aug_assign(self, s: ast.AugAssign, da: DA, out: list[tast.Stmt]) -> DA:
        assert self.scope is not None
        loc = self.loc(s)
        op = tast.BINARY_OPS[type(s.op).__name__]
        target: tast.Target
        if isinstance(s.target, ast.Name):
            name = s.target.id
            if name in self.scope.global_names:
                g = self.globals[name]
                target, ty = tast.GlobalTarget(g), g.type
            elif name in self.scope.vars:
                var = self.scope.vars[name]
                if da is not None and var not in da:
                    self.error(s.target, f"'{name}' may be used before it is assigned")
                target, ty = tast.LocalTarget(var), var.type
            elif name in self.globals:
                self.error(s.target, f"'{name}' is a global; declare 'global {name}' to assign it")
                return da
            else:
                self.error(s.target, f"'{name}' is not defined")
                return da
        elif isinstance(s.target, ast.Subscript):
            buf, idx = self.index_parts(s.target, da)
            ty = buf.type.elem if isinstance(buf.type, BufferType) else ERROR
            target = tast.IndexTarget(buf, idx, self.loc(s.target))
        else:
            self.error(s.target, "augmented assignment needs a name or a buffer element")
            return da
        rhs = self.value(s.value, ty, da)
        self.binary_type(s, op, ty, rhs.type)
        out.append(tast.AugAssign(loc, target, op, rhs))
        return da

    def for_stmt(self, s: ast.For, da: DA, out: list[tast.Stmt]) -> DA:
        assert self.scope is not None
        loc = self.loc(s)
        if s.orelse:
            self.error(s.orelse[0], "'else' after a loop is not supported")
        it = s.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"):
            self.error(it, "a for loop can only iterate over range(...)")
            return da
        if it.keywords or not 1 <= len(it.args) <= 3 or any(isinstance(a, ast.Starred) for a in it.args):
            self.error(it, "range() takes 1 to 3 positional arguments")
            return da
        if not isinstance(s.target, ast.Name):
            self.error(s.target, "the target of a for loop must be a simple name")
            return da
        name = s.target.id
        var = self.scope.vars.get(name)
        anchor: Type | None = var.type if var is not None else None
        if var is None and not self._check_new_name(s.target, name):
            return da
        if var is not None and not isinstance(var.type, IntType | ErrorType):
            self.error(s.target, f"loop variable '{name}' has type {var.type}, not an integer type")
            return da
        typed: list[tast.Expr | None] = [None] * len(it.args)
        if anchor is None:
            for i, a in enumerate(it.args):
                if not _is_flexible(a):
                    e = self.value(a, None, da)
                    typed[i] = e
                    if anchor is None and not isinstance(e.type, ErrorType):
                        anchor = e.type
        anchor = anchor or INT
        args = [t if t is not None else self.value(a, anchor, da) for t, a in zip(typed, it.args, strict=True)]
        ok = True
        for arg, node in zip(args, it.args, strict=True):
            if isinstance(arg.type, ErrorType):
                ok = False
            elif not isinstance(arg.type, IntType):
                self.error(node, f"range() arguments must be integers, found {arg.type}")
                ok = False
            elif arg.type != anchor:
                self.error(node, f"range() arguments must all have type {anchor}, found {arg.type}")
                ok = False
        if var is None:
            var = self.new_local(s.target, name, anchor if ok else ERROR)
        elif ok and var.type != anchor:
            self.error(s.target, f"loop variable '{name}' has type {var.type}")
        ity = anchor if isinstance(anchor, IntType) else INT
        start: tast.Expr
        stop: tast.Expr
        step: tast.Expr
        if len(args) == 1:
            start = tast.IntConst(ity, args[0].loc, 0)
            stop, step = args[0], tast.IntConst(ity, args[0].loc, 1)
        elif len(args) == 2:
            start, stop, step = args[0], args[1], tast.IntConst(ity, args[1].loc, 1)
        else:
            start, stop, step = args
        self.scope.loop_depth += 1
        body, _ = self.block(s.body, None if da is None else da | {var})
        self.scope.loop_depth -= 1
        out.append(tast.For(loc, var, start, stop, step, body))
        return da

    def return_stmt(self, s: ast.Return, da: DA) -> tast.Stmt:
        assert self.scope is not None
        func = self.scope.func
        loc = self.loc(s)
        value = s.value
        if value is not None and isinstance(value, ast.Constant) and value.value is None:
            value = None
        if func.result == NONE:
            if value is not None:
                self.error(value, f"function '{func.name}' does not return a value")
                self.value(value, None, da)
            return tast.Return(loc, None)
        if value is None:
            if func.result != ERROR:
                self.error(s, f"function '{func.name}' must return a value of type {func.result}")
            return tast.Return(loc, None)
        return tast.Return(loc, self.value_as(value, func.result, da, "return value"))

    def print_stmt(self, call: ast.Call, da: DA) -> tast.Print:
        args: list[tast.Expr | str] = []
        for a in call.args:
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                args.append(a.value)
                continue
            if isinstance(a, ast.Starred):
                self.error(a, "starred arguments are not supported")
                continue
            e = self.value(a, None, da)
            if not isinstance(e.type, ErrorType) and not e.type.is_scalar():
                self.error(a, f"cannot print a value of type {e.type}")
            args.append(e)
        sep, end = " ", "\n"
        for kw in call.keywords:
            if kw.arg not in ("sep", "end"):
                self.error(
                    kw, f"print() got an unexpected keyword argument '{kw.arg}'" if kw.arg else "print() does not accept '**' arguments"
                )
                continue
            if not (isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)):
                self.error(kw.value, f"print() argument '{kw.arg}' must be a string literal")
                continue
            if kw.arg == "sep":
                sep = kw.value.value
            else:
                end = kw.value.value
        return tast.Print(self.loc(call), args, sep, end)

    # ------------------------------------------------------------------ expressions

    def condition(self, node: ast.expr, da: DA) -> tast.Expr:
        e = self.value(node, BOOL, da)
        if not isinstance(e.type, BoolType | ErrorType):
            self.error(node, f"condition must be Bool, found {e.type}")
        return e

    def value(self, node: ast.expr, expected: Type | None, da: DA) -> tast.Expr:
        """An expression used as a value (a call of a None function is an error here)."""
        e = self.expr(node, expected, da)
        if e.type == NONE:
            self.error(node, "this call returns no value")
            e.type = ERROR
        return e

    def value_as(self, node: ast.expr, ty: Type, da: DA, what: str) -> tast.Expr:
        """A value that must have type `ty` (assignment, argument, return)."""
        e = self.value(node, ty, da)
        if not isinstance(e.type, ErrorType) and not isinstance(ty, ErrorType) and e.type != ty:
            self.error(node, f"{what} has type {ty}, but the value has type {e.type}")
        return e

    def err_expr(self, node: ast.AST) -> tast.Expr:
        return tast.IntConst(ERROR, self.loc(node), 0)

    def expr(self, node: ast.expr, expected: Type | None, da: DA) -> tast.Expr:
        loc = self.loc(node)
        if isinstance(node, ast.Constant):
            return self.constant(node, expected)
        if isinstance(node, ast.Name):
            return self.name(node, da)
        if isinstance(node, ast.UnaryOp):
            lit = _literal_value(node)
            if lit is not None:
                return self.literal(node, lit, expected)
            return self.unary(node, expected, da)
        if isinstance(node, ast.BinOp):
            op = tast.BINARY_OPS.get(type(node.op).__name__)
            if op is None:
                self.error(node, "the '@' operator is not supported")
                return self.err_expr(node)
            left, right = self.pair(node.left, node.right, expected, da)
            ty = self.binary_type(node, op, left.type, right.type)
            return tast.Binary(ty, loc, op, left, right)
        if isinstance(node, ast.BoolOp):
            word = "and" if isinstance(node.op, ast.And) else "or"
            values = []
            for v in node.values:
                e = self.value(v, BOOL, da)
                if not isinstance(e.type, BoolType | ErrorType):
                    self.error(v, f"operands of '{word}' must be Bool, found {e.type}")
                values.append(e)
            return tast.BoolOp(BOOL, loc, word, values)
        if isinstance(node, ast.Compare):
            return self.compare(node, da)
        if isinstance(node, ast.IfExp):
            cond = self.condition(node.test, da)
            then, orelse = self.pair(node.body, node.orelse, expected, da)
            if isinstance(then.type, ErrorType) or isinstance(orelse.type, ErrorType):
                ty = ERROR
            elif then.type != orelse.type:
                self.error(node, f"the branches of a conditional expression have different types: {then.type} and {orelse.type}")
                ty = ERROR
            else:
                ty = then.type
            return tast.IfExp(ty, loc, cond, then, orelse)
        if isinstance(node, ast.Call):
            return self.call(node, expected, da)
        if isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Name) and node.value.id in TYPE_NAMES:
                self.error(node, f"'{ast.unparse(node)}' is a type, not a value")
                return self.err_expr(node)
            buf, idx = self.index_parts(node, da)
            ty = buf.type.elem if isinstance(buf.type, BufferType) else ERROR
            return tast.Index(ty, loc, buf, idx)
        self.error(node, f"{_describe(node, _UNSUPPORTED_EXPR)} are not supported")
        return self.err_expr(node)

    def constant(self, node: ast.Constant, expected: Type | None) -> tast.Expr:
        v = node.value
        if isinstance(v, bool):
            return tast.BoolConst(BOOL, self.loc(node), v)
        if isinstance(v, int | float):
            return self.literal(node, v, expected)
        if isinstance(v, str):
            self.error(node, "string literals are only allowed as print() arguments")
        elif v is None:
            self.error(node, "'None' is not a value")
        else:
            self.error(node, f"{type(v).__name__} literals are not supported")
        return self.err_expr(node)

    def literal(self, node: ast.expr, value: int | float, expected: Type | None) -> tast.Expr:
        loc = self.loc(node)
        if isinstance(value, int):
            if isinstance(expected, FloatType):
                c = self._constant(node, value, expected)
                return tast.FloatConst(expected, loc, float(c)) if c is not None else self.err_expr(node)
            ty = expected if isinstance(expected, IntType) else INT
            if not ty.min <= value <= ty.max:
                if ty == INT and expected is None and 0 <= value <= UINT64.max:
                    self.error(node, f"integer literal {value} is out of range for Int (write UInt64({value}))")
                else:
                    self.error(node, f"integer literal {value} is out of range for {ty}")
                return self.err_expr(node)
            return tast.IntConst(ty, loc, value)
        fty = expected if isinstance(expected, FloatType) else FLOAT64
        return tast.FloatConst(fty, loc, round_f32(value) if fty == FLOAT32 else value)

    def name(self, node: ast.Name, da: DA) -> tast.Expr:
        assert self.scope is not None
        name = node.id
        loc = self.loc(node)
        if name not in self.scope.global_names:
            var = self.scope.vars.get(name)
            if var is not None:
                if da is not None and var not in da:
                    self.error(node, f"'{name}' may be used before it is assigned")
                return tast.LocalRef(var.type, loc, var)
        if name in self.globals:
            g = self.globals[name]
            return tast.GlobalRef(g.type, loc, g)
        if name in self.functions:
            f = self.functions[name]
            if f.kernel:
                self.error(node, f"kernel '{name}' cannot be used as a value")
                return self.err_expr(node)
            return tast.FuncRef(f.type, loc, f)
        if name in BUILTIN_FUNCS or name in GPU_INTRINSICS:
            self.error(node, f"builtin '{name}' cannot be used as a value")
        elif name in TYPE_NAMES:
            self.error(node, f"'{name}' is a type, not a value")
        else:
            self.error(node, f"'{name}' is not defined")
        return self.err_expr(node)

    def pair(self, a: ast.expr, b: ast.expr, expected: Type | None, da: DA) -> tuple[tast.Expr, tast.Expr]:
        """Type two operands that must agree: a literal takes the other operand's type."""
        if _is_flexible(a) and not _is_flexible(b):
            right = self.value(b, expected, da)
            left = self.value(a, None if isinstance(right.type, ErrorType) else right.type, da)
        else:
            left = self.value(a, expected, da)
            right = self.value(b, None if isinstance(left.type, ErrorType) else left.type, da)
        return left, right

    def binary_type(self, node: ast.AST, op: str, lt: Type, rt: Type) -> Type:
        sym = tast.BINARY_SPELLING[op]
        if isinstance(lt, ErrorType) or isinstance(rt, ErrorType):
            return ERROR
        if lt != rt:
            self.error(node, f"operands of '{sym}' have different types: {lt} and {rt}")
            return ERROR
        ty = lt
        if op in ("add", "sub", "mul", "floordiv", "mod"):
            ok = isinstance(ty, IntType | FloatType)
        elif op == "truediv":
            ok = isinstance(ty, FloatType)
            if isinstance(ty, IntType):
                self.error(node, f"operator '/' is not defined for {ty} (use '//' for integer division)")
                return ERROR
        elif op == "pow":
            ok = isinstance(ty, IntType)
        elif op in ("and", "or", "xor"):
            ok = isinstance(ty, IntType | BoolType)
        else:  # shifts
            ok = isinstance(ty, IntType)
        if not ok:
            self.error(node, f"operator '{sym}' is not defined for {ty}")
            return ERROR
        return ty

    def unary(self, node: ast.UnaryOp, expected: Type | None, da: DA) -> tast.Expr:
        loc = self.loc(node)
        if isinstance(node.op, ast.Not):
            e = self.value(node.operand, BOOL, da)
            if not isinstance(e.type, BoolType | ErrorType):
                self.error(node, f"operand of 'not' must be Bool, found {e.type}")
            return tast.Unary(BOOL, loc, "not", e)
        op = {"USub": "neg", "UAdd": "pos", "Invert": "invert"}[type(node.op).__name__]
        e = self.value(node.operand, expected, da)
        ty = e.type
        if isinstance(ty, ErrorType):
            return tast.Unary(ERROR, loc, op, e)
        ok = isinstance(ty, IntType) if op == "invert" else isinstance(ty, IntType | FloatType)
        if not ok:
            sym = {"neg": "-", "pos": "+", "invert": "~"}[op]
            self.error(node, f"unary '{sym}' is not defined for {ty}")
            return tast.Unary(ERROR, loc, op, e)
        return tast.Unary(ty, loc, op, e)

    def compare(self, node: ast.Compare, da: DA) -> tast.Expr:
        nodes = [node.left, *node.comparators]
        typed: list[tast.Expr | None] = [None] * len(nodes)
        anchor: Type | None = None
        for i, n in enumerate(nodes):
            if not _is_flexible(n):
                e = self.value(n, None, da)
                typed[i] = e
                if anchor is None and not isinstance(e.type, ErrorType):
                    anchor = e.type
        operands = [t if t is not None else self.value(n, anchor, da) for t, n in zip(typed, nodes, strict=True)]
        ops: list[str] = []
        for i, op_node in enumerate(node.ops):
            name = type(op_node).__name__
            if name not in tast.COMPARE_OPS:
                word = {"Is": "is", "IsNot": "is not", "In": "in", "NotIn": "not in"}[name]
                self.error(node, f"the '{word}' operator is not supported")
                ops.append("eq")
                continue
            op = tast.COMPARE_OPS[name]
            ops.append(op)
            lt, rt = operands[i].type, operands[i + 1].type
            if isinstance(lt, ErrorType) or isinstance(rt, ErrorType):
                continue
            if lt != rt:
                self.error(node, f"cannot compare {lt} and {rt}")
            elif not lt.is_scalar():
                self.error(node, f"values of type {lt} cannot be compared")
        return tast.Compare(BOOL, self.loc(node), ops, operands)

    def index_parts(self, node: ast.Subscript, da: DA) -> tuple[tast.Expr, tast.Expr]:
        buf = self.value(node.value, None, da)
        if not isinstance(buf.type, BufferType | ErrorType):
            self.error(node.value, f"a value of type {buf.type} cannot be indexed")
            buf.type = ERROR
        if isinstance(node.slice, ast.Slice):
            self.error(node.slice, "slices are not supported")
            return buf, self.err_expr(node.slice)
        idx = self.value(node.slice, INT, da)
        if not isinstance(idx.type, IntType | ErrorType):
            self.error(node.slice, f"a buffer index must be an integer, found {idx.type}")
        return buf, idx

    def args(self, call: ast.Call, what: str, params: tuple[Type, ...], da: DA) -> list[tast.Expr]:
        if call.keywords:
            self.error(call.keywords[0], "keyword arguments are not supported")
        if any(isinstance(a, ast.Starred) for a in call.args):
            self.error(call, "starred arguments are not supported")
            return []
        if len(call.args) != len(params):
            n = len(params)
            self.error(call, f"{what} expects {n} argument{'s' if n != 1 else ''}, got {len(call.args)}")
            for a in call.args:
                self.value(a, None, da)
            return []
        return [
            self.value_as(a, p, da, f"argument {i + 1} of {what}")
            for i, (a, p) in enumerate(zip(call.args, params, strict=True))
        ]

    def call(self, node: ast.Call, expected: Type | None, da: DA) -> tast.Expr:
        assert self.scope is not None
        loc = self.loc(node)
        fn = node.func
        if isinstance(fn, ast.Subscript) and isinstance(fn.value, ast.Name) and fn.value.id == "Buffer":
            bty = self.parse_type(fn)
            if len(node.args) != 1 or node.keywords:
                self.error(node, "Buffer[T](n) takes exactly one argument, the number of elements")
                return self.err_expr(node)
            size = self.value(node.args[0], INT, da)
            if not isinstance(size.type, IntType | ErrorType):
                self.error(node.args[0], f"a buffer size must be an integer, found {size.type}")
            return tast.BufferNew(bty, loc, size)
        if (
            isinstance(fn, ast.Subscript)
            and isinstance(fn.value, ast.Name)
            and fn.value.id in self.functions
            and fn.value.id not in self.scope.vars
        ):
            return self.launch(node, fn, da)
        if isinstance(fn, ast.Name) and fn.id not in self.scope.vars:
            name = fn.id
            if name in SCALAR_TYPES:
                return self.conversion(node, SCALAR_TYPES[name], da)
            if name in ("abs", "min", "max", "sqrt", "len"):
                return self.builtin(node, name, expected, da)
            if name == "print":
                self.error(node, "print() can only be used as a statement")
                return self.err_expr(node)
            if name == "range":
                self.error(node, "range() can only be used in a for loop")
                return self.err_expr(node)
            if name in GPU_INTRINSICS:
                return self.gpu_index(node, name)
            if name in self.functions and name not in self.scope.global_names:
                f = self.functions[name]
                if f.kernel:
                    self.error(node, f"kernel '{name}' cannot be called directly; launch it with {name}[grid, block](...)")
                    for a in node.args:
                        self.value(a, None, da)
                    return self.err_expr(node)
                args = self.args(node, f"'{name}'", f.type.params if isinstance(f.type, FuncType) else (), da)
                if len(args) != len(f.params):
                    return self.err_expr(node)
                return tast.Call(f.result, loc, f, args)
        callee = self.value(fn, None, da)
        if isinstance(callee.type, ErrorType):
            for a in node.args:
                self.value(a, None, da)
            return self.err_expr(node)
        if not isinstance(callee.type, FuncType):
            self.error(fn, f"a value of type {callee.type} cannot be called")
            return self.err_expr(node)
        what = f"'{fn.id}'" if isinstance(fn, ast.Name) else "the function value"
        args = self.args(node, what, callee.type.params, da)
        if len(args) != len(callee.type.params):
            return self.err_expr(node)
        return tast.CallIndirect(callee.type.result, loc, callee, args)

    def gpu_index(self, node: ast.Call, name: str) -> tast.Expr:
        """`thread_idx_x()` and friends: an Int, only in the body of a kernel."""
        assert self.scope is not None
        if node.args or node.keywords:
            self.error(node, f"{name}() takes no arguments")
            return self.err_expr(node)
        if not self.scope.func.kernel:
            self.error(node, f"{name}() can only be used in a @kernel function")
            return self.err_expr(node)
        kind, axis = GPU_INTRINSICS[name]
        return tast.GpuIndex(INT, self.loc(node), kind, axis)

    def _dims(self, node: ast.expr, what: str, da: DA) -> list[tast.Expr]:
        """A launch dimension: `n` or a tuple `(x, y)` / `(x, y, z)` of Ints; missing ones are 1."""
        elts = node.elts if isinstance(node, ast.Tuple) else [node]
        if not 1 <= len(elts) <= 3:
            self.error(node, f"{what} dimensions are 1 to 3 Int values")
            return []
        dims = []
        for e in elts:
            v = self.value(e, INT, da)
            if not isinstance(v.type, ErrorType) and v.type != INT:
                self.error(e, f"{what} dimensions must be Int, found {v.type}")
            dims.append(v)
        while len(dims) < 3:
            dims.append(tast.IntConst(INT, self.loc(node), 1))
        return dims

    def launch(self, node: ast.Call, fn: ast.Subscript, da: DA) -> tast.Expr:
        """`kernel[grid, block](args...)`: a kernel launch (a statement; it has no value)."""
        assert isinstance(fn.value, ast.Name)
        name = fn.value.id
        f = self.functions[name]
        if not f.kernel:
            self.error(fn, f"'{name}' is not a kernel; only @kernel functions can be launched")
            return self.err_expr(node)
        sl = fn.slice
        if not (isinstance(sl, ast.Tuple) and len(sl.elts) == 2):
            self.error(fn, f"a kernel launch is written {name}[grid, block](args...)")
            return self.err_expr(node)
        grid = self._dims(sl.elts[0], "grid", da)
        block = self._dims(sl.elts[1], "block", da)
        args = self.args(node, f"kernel '{name}'", f.type.params if isinstance(f.type, FuncType) else (), da)
        if len(args) != len(f.params) or not grid or not block:
            return self.err_expr(node)
        return tast.Launch(NONE, self.loc(node), f, grid, block, args)

    def conversion(self, node: ast.Call, ty: Type, da: DA) -> tast.Expr:
        if len(node.args) != 1 or node.keywords:
            self.error(node, f"{ty}(...) takes exactly one argument")
            return self.err_expr(node)
        e = self.value(node.args[0], ty, da)
        if isinstance(e.type, ErrorType):
            return e
        if not e.type.is_scalar():
            self.error(node.args[0], f"cannot convert {e.type} to {ty}")
            return self.err_expr(node)
        if e.type == ty:
            return e
        return tast.Convert(ty, self.loc(node), e)

    def builtin(self, node: ast.Call, name: str, expected: Type | None, da: DA) -> tast.Expr:
        loc = self.loc(node)
        want = 2 if name in ("min", "max") else 1
        if len(node.args) != want or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            self.error(node, f"{name}() takes exactly {want} argument{'s' if want > 1 else ''}")
            return self.err_expr(node)
        if name == "len":
            b = self.value(node.args[0], None, da)
            if not isinstance(b.type, BufferType | ErrorType):
                self.error(node.args[0], f"len() needs a buffer, found {b.type}")
            return tast.Builtin(INT, loc, "len", [b])
        if name in ("min", "max"):
            a, b = self.pair(node.args[0], node.args[1], expected, da)
            if isinstance(a.type, ErrorType) or isinstance(b.type, ErrorType):
                return tast.Builtin(ERROR, loc, name, [a, b])
            if a.type != b.type:
                self.error(node, f"the arguments of {name}() have different types: {a.type} and {b.type}")
                return tast.Builtin(ERROR, loc, name, [a, b])
            if not a.type.is_numeric():
                self.error(node, f"{name}() is not defined for {a.type}")
                return tast.Builtin(ERROR, loc, name, [a, b])
            return tast.Builtin(a.type, loc, name, [a, b])
        if name == "sqrt":
            x = self.value(node.args[0], expected if isinstance(expected, FloatType) else FLOAT64, da)
            if not isinstance(x.type, FloatType | ErrorType):
                self.error(node.args[0], f"sqrt() needs a Float64 or Float32 argument, found {x.type}")
                return tast.Builtin(ERROR, loc, name, [x])
            return tast.Builtin(x.type, loc, name, [x])
        x = self.value(node.args[0], expected, da)  # abs
        if not isinstance(x.type, IntType | FloatType | ErrorType):
            self.error(node.args[0], f"abs() is not defined for {x.type}")
            return tast.Builtin(ERROR, loc, name, [x])
        return tast.Builtin(x.type, loc, name, [x])


def too_deep(tree: ast.AST, path: str) -> EmberError:
    """The 'nested too deeply' error, located at the deepest node of `tree` (found without recursion)."""
    deepest, where = 0, (1, 1)
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > deepest and hasattr(node, "lineno"):
            deepest, where = depth, (node.lineno, getattr(node, "col_offset", 0) + 1)
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return EmberError(f"program is nested too deeply ({deepest} levels)", Location(path, *where))


def check_source(source: str, path: str) -> tast.Program:
    """Parse and type-check Ember source; raises EmberError/MultipleErrors on bad input."""
    from compiler.frontend import deep_call

    return deep_call(Checker(source, path).check)
