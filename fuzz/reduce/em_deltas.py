"""Delta passes over Ember source, one small function each (the `.em` half of the reducer's table).

Ember is Python syntax, so every pass is an `ast` transformation: `chunks(text)` lists the
nodes a pass could remove or simplify, in a fixed pre-order, and `apply(text, keep)`
re-parses, rewrites the nodes whose index is NOT in `keep`, and unparses. A candidate
that no longer type-checks is rejected by the engine's validator (`valid_source`), so
passes may be blunt (e.g. try `0` for every expression) and let the checker filter.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator

from compiler.diagnostics import EmberError
from fuzz.reduce.engine import DeltaPass

ENTRY = "main"


def normalise(text: str) -> str:
    """Source as the reducer prints it (comments dropped), so sizes compare like for like."""
    return ast.unparse(ast.parse(text)) + "\n"


def source_lines(text: str) -> int:
    """Size measure of Ember source: non-blank, non-comment lines."""
    return sum(1 for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#"))


def valid_source(text: str) -> bool:
    """A candidate must parse and type-check before the property runs."""
    from compiler.frontend.checker import check_source

    try:
        check_source(text, "<candidate>")
    except (EmberError, SyntaxError, RecursionError):
        return False
    return True


# ------------------------------------------------------------------ traversal helpers


def _bodies(tree: ast.AST) -> Iterator[list[ast.stmt]]:
    """Every statement list inside functions, outer before inner (pre-order)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Module):
            continue
        for field in ("body", "orelse"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                yield stmts


def _statements(tree: ast.Module) -> list[tuple[list[ast.stmt], ast.stmt]]:
    return [(body, s) for body in _bodies(tree) for s in list(body) if not isinstance(s, ast.Global)]


def _fill_empty(tree: ast.AST) -> None:
    """A body that lost every statement gets `pass` (an empty `else` simply goes)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.If | ast.While | ast.For) and not node.body:
            node.body = [ast.Pass()]


def _transform(
    text: str, keep: set[int], select: Callable[[ast.Module], list[ast.AST]], rewrite: Callable[[ast.Module, ast.AST], None]
) -> str:
    tree = ast.parse(text)
    targets = select(tree)
    for index, node in enumerate(targets):
        if index not in keep:
            rewrite(tree, node)
    _fill_empty(tree)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def _replace_in_parent(tree: ast.AST, old: ast.AST, new: ast.AST | list[ast.stmt] | None) -> None:
    """Put `new` where `old` is (a statement list splices; None deletes a statement)."""
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list) and any(v is old for v in value):
                i = next(i for i, v in enumerate(value) if v is old)
                if new is None:
                    del value[i]
                elif isinstance(new, list):
                    value[i : i + 1] = new
                else:
                    value[i] = new
                return


# ------------------------------------------------------------------ module level


def _functions(tree: ast.Module) -> list[ast.AST]:
    return [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name != ENTRY]


def _globals(tree: ast.Module) -> list[ast.AST]:
    return [n for n in tree.body if isinstance(n, ast.AnnAssign | ast.Assign)]


def _delete(tree: ast.Module, node: ast.AST) -> None:
    _replace_in_parent(tree, node, None)


# ------------------------------------------------------------------ statements and control flow


def _stmts(tree: ast.Module) -> list[ast.AST]:
    return [s for _body, s in _statements(tree) if not isinstance(s, ast.Pass)]


def _ifs(tree: ast.Module) -> list[ast.AST]:
    return [s for _b, s in _statements(tree) if isinstance(s, ast.If)]


def _take_then(tree: ast.Module, node: ast.AST) -> None:
    assert isinstance(node, ast.If)
    _replace_in_parent(tree, node, node.body)


def _take_else(tree: ast.Module, node: ast.AST) -> None:
    assert isinstance(node, ast.If)
    _replace_in_parent(tree, node, node.orelse or [ast.Pass()])


def _loops(tree: ast.Module) -> list[ast.AST]:
    return [s for _b, s in _statements(tree) if isinstance(s, ast.While | ast.For)]


def _unroll_once(tree: ast.Module, node: ast.AST) -> None:
    """A loop becomes its body run once (a `for` first binds its variable to the start)."""
    assert isinstance(node, ast.While | ast.For)
    body: list[ast.stmt] = list(node.body)
    if isinstance(node, ast.For) and isinstance(node.iter, ast.Call) and node.iter.args:
        start = node.iter.args[0] if len(node.iter.args) > 1 else ast.Constant(0)
        body = [ast.Assign(targets=[copy.deepcopy(node.target)], value=copy.deepcopy(start)), *body]
    _replace_in_parent(tree, node, body)


# ------------------------------------------------------------------ calls and expressions


def _single_return_functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    out = {}
    for f in tree.body:
        if isinstance(f, ast.FunctionDef) and len(f.body) == 1 and isinstance(f.body[0], ast.Return) and f.body[0].value:
            out[f.name] = f
    return out


def _inlinable_calls(tree: ast.Module) -> list[ast.AST]:
    simple = _single_return_functions(tree)
    return [
        n for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in simple and not n.keywords
    ]


def _inline_call(tree: ast.Module, node: ast.AST) -> None:
    """`f(a, b)` where `f` is `return E` becomes E with the parameters replaced by the
    arguments; `f` goes once nothing refers to it (the reducer accepts only smaller text)."""
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    fn = _single_return_functions(tree)[node.func.id]
    params = [a.arg for a in fn.args.args]
    if len(params) != len(node.args):
        return
    mapping = dict(zip(params, node.args, strict=True))
    ret = fn.body[0]
    assert isinstance(ret, ast.Return) and ret.value is not None
    body = copy.deepcopy(ret.value)

    class Substitute(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.AST:
            return copy.deepcopy(mapping[name.id]) if name.id in mapping else name

    _replace_in_parent(tree, node, Substitute().visit(body))
    if not any(isinstance(n, ast.Name) and n.id == fn.name for n in ast.walk(tree)):
        tree.body.remove(fn)  # its last call is gone: the inlined program is also shorter


def _value_expressions(tree: ast.Module) -> list[ast.AST]:
    """Expressions that compute something (not names, constants, call targets or range bounds)."""
    skip: set[int] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            skip.add(id(n.func))
            if isinstance(n.func, ast.Name) and n.func.id in ("print", "range"):
                skip.add(id(n))  # the statement/loop form stays; its arguments may still shrink
        if isinstance(n, ast.Expr):
            skip.add(id(n.value))
        if isinstance(n, ast.AnnAssign):
            skip.add(id(n.annotation))
        if isinstance(n, ast.Assign | ast.AugAssign | ast.For):
            for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                skip.add(id(t))
    found: list[ast.AST] = []
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for n in ast.walk(fn):
            if isinstance(n, ast.expr) and id(n) not in skip and not isinstance(n, ast.Constant | ast.Name):
                if fn.returns is n or any(a.annotation is n for a in fn.args.args):
                    continue
                found.append(n)
    return found


def _to_constant(value: int | float | bool) -> Callable[[ast.Module, ast.AST], None]:
    def rewrite(tree: ast.Module, node: ast.AST) -> None:
        _replace_in_parent(tree, node, ast.Constant(value))

    return rewrite


def _binary_operations(tree: ast.Module) -> list[ast.AST]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.BinOp | ast.BoolOp)]


def _to_operand(side: int) -> Callable[[ast.Module, ast.AST], None]:
    """`a OP b` becomes `a` (side 0) or `b` (side -1): same type for arithmetic, Bool for and/or
    (shifts and mixed-type operations give ill-typed candidates, which the validator drops)."""

    def rewrite(tree: ast.Module, node: ast.AST) -> None:
        if isinstance(node, ast.BinOp):
            operands = [node.left, node.right]
        elif isinstance(node, ast.BoolOp):
            operands = list(node.values)
        else:
            return
        _replace_in_parent(tree, node, operands[side])

    return rewrite


def _int_constants(tree: ast.Module) -> list[ast.AST]:
    return [
        n for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and type(n.value) is int and abs(n.value) > 1
    ]


def _halve(tree: ast.Module, node: ast.AST) -> None:
    """Shrink an integer literal towards zero (loop bounds, depths, seeds)."""
    assert isinstance(node, ast.Constant) and isinstance(node.value, int)
    node.value = int(node.value / 2)


def _pass(name: str, select: Callable[[ast.Module], list[ast.AST]], rewrite: Callable[[ast.Module, ast.AST], None]) -> DeltaPass:
    def chunks(text: str) -> list[str]:
        return [ast.dump(n)[:40] for n in select(ast.parse(text))]

    def apply(text: str, keep: set[int]) -> str:
        return _transform(text, keep, select, rewrite)

    return DeltaPass(name, chunks, apply)


#: The table, in the order the reducer tries them (big cuts first).
EM_DELTAS: list[DeltaPass] = [
    _pass("functions", _functions, _delete),
    _pass("globals", _globals, _delete),
    _pass("statements", _stmts, _delete),
    _pass("branches-then", _ifs, _take_then),
    _pass("branches-else", _ifs, _take_else),
    _pass("loops-unroll-once", _loops, _unroll_once),
    _pass("inline-calls", _inlinable_calls, _inline_call),
    _pass("operations-to-left", _binary_operations, _to_operand(0)),
    _pass("operations-to-right", _binary_operations, _to_operand(-1)),
    _pass("expressions-to-0", _value_expressions, _to_constant(0)),
    _pass("expressions-to-0.0", _value_expressions, _to_constant(0.0)),
    _pass("expressions-to-False", _value_expressions, _to_constant(False)),
    _pass("shrink-constants", _int_constants, _halve),
]
