"""Property: random typed expression trees print the same in the interpreter and compiled code.

One Hypothesis example is ONE program holding many expression trees (every type, every
operator, edge values 0, -1, INT_MIN, INT_MAX, NaN, ±0.0, ±inf, ...), each printed on its
own line, so one compile covers many trees. Leaves are literals (constant-folded by the
midend) or module globals (opaque to it), so both folders and generated code are tested.
Integer `//` and `%` go through helpers that avoid the traps (the traps have their own
tests in test_lang_features.py); `**` masks its exponent to [0, 63].

Default: a few examples. More: `EMBER_LANG_EXAMPLES=500 pytest tests/test_lang_property.py`.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.lang_helpers import compile_and_run, interpret

EXAMPLES = int(os.environ.get("EMBER_LANG_EXAMPLES", "8"))
EXPRESSIONS = 40

INTS = {
    "Int": [0, -1, 1, 7, -3, 63, 64, -(2**63), 2**63 - 1],
    "Int32": [0, -1, 1, 31, 32, -(2**31), 2**31 - 1, -7],
    "Int8": [0, -1, 1, 7, 8, -128, 127, -5],
    "UInt64": [0, 1, 2, 63, 64, 2**63, 2**64 - 1, 10],
}
FLOAT_LITERALS = ["0.0", "-0.0", "1.5", "-2.5", "0.1", "1e300", "-1e-300", "5e-324", "3.0"]
FLOAT_SPECIALS = {"nan": "0.0 / 0.0", "inf": "1.0 / 0.0", "ninf": "-1.0 / 0.0"}
FLOATS = ("Float64", "Float32")
TYPES = (*INTS, *FLOATS, "Bool")
SIGNED = {"Int": -(2**63), "Int32": -(2**31), "Int8": -128}


def _globals() -> tuple[list[str], list[str], dict[str, list[str]]]:
    """Module globals holding every edge value, the main() lines that set the specials, names per type."""
    decls, setup = [], []
    names: dict[str, list[str]] = {t: [] for t in TYPES}
    for t, values in INTS.items():
        for i, v in enumerate(values):
            decls.append(f"g_{t}_{i}: {t} = {v}")
            names[t].append(f"g_{t}_{i}")
    for t in FLOATS:
        for i, text in enumerate(FLOAT_LITERALS):
            decls.append(f"g_{t}_{i}: {t} = {text}")
            names[t].append(f"g_{t}_{i}")
        for key, expr in FLOAT_SPECIALS.items():
            decls.append(f"g_{t}_{key}: {t} = 0.0")
            setup.append(f"    g_{t}_{key} = {t}({expr})")
            names[t].append(f"g_{t}_{key}")
    decls += ["g_Bool_0: Bool = True", "g_Bool_1: Bool = False"]
    names["Bool"] += ["g_Bool_0", "g_Bool_1"]
    return decls, setup, names


GLOBAL_DECLS, GLOBAL_SETUP, GLOBAL_NAMES = _globals()


def _helpers() -> str:
    """Trap-free integer division helpers, one pair per integer type."""
    out = []
    for t in INTS:
        guard = f"b == 0 or (b == -1 and a == {SIGNED[t]})" if t in SIGNED else "b == 0"
        out.append(
            f"def fd_{t}(a: {t}, b: {t}) -> {t}:\n    if {guard}:\n        return a\n    return a // b\n\n"
            f"def md_{t}(a: {t}, b: {t}) -> {t}:\n    if b == 0:\n        return a\n    return a % b\n"
        )
    return "\n".join(out)


def literal(draw: st.DrawFn, t: str) -> str:
    if t in INTS:
        return f"{t}({draw(st.sampled_from(INTS[t]))})"
    if t in FLOATS:
        return f"{t}({draw(st.sampled_from(FLOAT_LITERALS))})"
    return draw(st.sampled_from(["True", "False"]))


@st.composite
def expr(draw: st.DrawFn, t: str, depth: int) -> str:
    """A well-typed expression of Ember type `t` (source text, fully parenthesised)."""
    if depth == 0 or draw(st.integers(0, 4)) == 0:
        if draw(st.booleans()):
            return draw(st.sampled_from(GLOBAL_NAMES[t]))
        return literal(draw, t)
    sub = lambda ty: draw(expr(ty, depth - 1))  # noqa: E731
    if t == "Bool":
        kind = draw(st.sampled_from(["cmp", "chain", "not", "andor", "bitop", "conv", "ifexp"]))
        if kind in ("cmp", "chain"):
            ot = draw(st.sampled_from(TYPES))
            ops = draw(st.lists(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), min_size=1, max_size=1 if kind == "cmp" else 3))
            parts = [sub(ot)]
            for op in ops:
                parts += [op, sub(ot)]
            return f"({' '.join(parts)})"
        if kind == "not":
            return f"(not {sub('Bool')})"
        if kind == "andor":
            return f"({sub('Bool')} {draw(st.sampled_from(['and', 'or']))} {sub('Bool')})"
        if kind == "bitop":
            return f"({sub('Bool')} {draw(st.sampled_from(['&', '|', '^']))} {sub('Bool')})"
        if kind == "conv":
            return f"Bool({sub(draw(st.sampled_from(TYPES)))})"
        return f"({sub('Bool')} if {sub('Bool')} else {sub('Bool')})"
    kinds = ["binop", "unary", "conv", "ifexp", "minmax", "abs"]
    if t in FLOATS:
        kinds.append("sqrt")
    kind = draw(st.sampled_from(kinds))
    if kind == "conv":
        return f"{t}({sub(draw(st.sampled_from(TYPES)))})"
    if kind == "ifexp":
        return f"({sub(t)} if {sub('Bool')} else {sub(t)})"
    if kind == "minmax":
        return f"{draw(st.sampled_from(['min', 'max']))}({sub(t)}, {sub(t)})"
    if kind in ("abs", "sqrt"):
        return f"{kind}({sub(t)})"
    if kind == "unary":
        ops = ["-", "+"] + (["~"] if t in INTS else [])
        return f"({draw(st.sampled_from(ops))}{sub(t)})"
    if t in FLOATS:
        op = draw(st.sampled_from(["+", "-", "*", "/", "//", "%"]))
        return f"({sub(t)} {op} {sub(t)})"
    op = draw(st.sampled_from(["+", "-", "*", "//", "%", "**", "&", "|", "^", "<<", ">>"]))
    a, b = sub(t), sub(t)
    if op == "//":
        return f"fd_{t}({a}, {b})"
    if op == "%":
        return f"md_{t}({a}, {b})"
    if op == "**":
        return f"({a} ** ({b} & {t}(63)))"
    return f"({a} {op} {b})"


@st.composite
def programs(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(EXPRESSIONS):
        t = draw(st.sampled_from(TYPES))
        lines.append(f"    print({draw(expr(t, 3))})")
    specials = ", ".join(f"g_{t}_{k}" for t in FLOATS for k in FLOAT_SPECIALS)
    body = "\n".join([f"    global {specials}", *GLOBAL_SETUP, *lines])
    return "\n".join(GLOBAL_DECLS) + "\n\n" + _helpers() + "\n\ndef main() -> None:\n" + body + "\n"


def _first_difference(a: str, b: str, source: str) -> str:
    exprs = [ln.strip() for ln in source.splitlines() if ln.startswith("    print(")]
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines(), strict=False)):
        if x != y:
            return f"line {i + 1}: {exprs[i] if i < len(exprs) else '?'}\n  interpreter: {x}\n  compiled:    {y}"
    return f"output lengths differ: {len(a)} vs {len(b)}"


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(programs())
def test_expressions_interpreter_equals_compiled(source: str) -> None:
    expected = interpret(source)
    assert expected.exit_status == 0, expected.stderr
    for level in (0, 2):
        got = compile_and_run(source, level)
        assert got.exit_status == expected.exit_status, (level, got.stderr)
        assert got.stdout == expected.stdout, f"-O{level}: " + _first_difference(expected.stdout, got.stdout, source)


def test_generator_covers_every_type_and_edge_value() -> None:
    """The fixed part of every generated program declares each edge value of each type."""
    decls = "\n".join(GLOBAL_DECLS + GLOBAL_SETUP)
    for t, values in INTS.items():
        for v in values:
            assert f": {t} = {v}" in decls
    for special in FLOAT_SPECIALS.values():
        assert special in decls
    assert "-0.0" in decls


@pytest.mark.parametrize(
    "expression, printed",
    [
        ("fd_Int(Int(-9223372036854775808), Int(-1))", "-9223372036854775808"),
        ("md_Int8(Int8(-128), Int8(-1))", "0"),
        ("(Int(2) ** (Int(-1) & Int(63)))", "-9223372036854775808"),
        ("min(Float64(0.0 / 0.0), Float64(1.0))", "nan"),
    ],
)
def test_helpers_by_hand(expression: str, printed: str) -> None:
    """The trap-avoiding helpers behave as written (hand-checked values, interpreter only)."""
    source = _helpers() + f"\n\ndef main() -> None:\n    print({expression})\n"
    assert interpret(source).stdout == printed + "\n"


# --------------------------------------------------------------------------- statements

VARS = ("a", "b", "c")


@st.composite
def int_expr(draw: st.DrawFn, depth: int = 2) -> str:
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from([*VARS, "0", "1", "-3", "7", "g"]))
    op = draw(st.sampled_from(["+", "-", "*", "^", "&"]))
    return f"({draw(int_expr(depth - 1))} {op} {draw(int_expr(depth - 1))})"


@st.composite
def cond_expr(draw: st.DrawFn) -> str:
    op = draw(st.sampled_from(["<", "<=", "==", "!=", ">"]))
    left = f"{draw(int_expr(1))} {op} {draw(int_expr(1))}"
    if draw(st.booleans()):
        return f"{left} {draw(st.sampled_from(['and', 'or']))} {draw(int_expr(0))} % 2 == 0"
    return left


@st.composite
def block(draw: st.DrawFn, depth: int, indent: int, in_loop: bool, loops: list[int]) -> list[str]:
    """Statements over the Int locals a, b, c and the global g; every loop is bounded."""
    pad = "    " * indent
    out: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        kinds = ["assign", "assign", "print", "global"]
        if depth > 0:
            kinds += ["if", "while", "for"]
        if in_loop:
            kinds += ["break", "continue"]
        kind = draw(st.sampled_from(kinds))
        if kind == "assign":
            var = draw(st.sampled_from(VARS))
            op = draw(st.sampled_from(["=", "+=", "-=", "^="]))
            out.append(f"{pad}{var} {op} {draw(int_expr())}")
        elif kind == "print":
            out.append(f"{pad}print({', '.join(draw(st.permutations(VARS)))}, g)")
        elif kind == "global":
            out.append(f"{pad}g = g * 3 + {draw(st.sampled_from(VARS))}")
        elif kind in ("break", "continue"):
            out.append(f"{pad}if {draw(cond_expr())}:")
            out.append(f"{pad}    {kind}")
        elif kind == "if":
            out.append(f"{pad}if {draw(cond_expr())}:")
            out += draw(block(depth - 1, indent + 1, in_loop, loops))
            if draw(st.booleans()):
                out.append(f"{pad}elif {draw(cond_expr())}:")
                out += draw(block(depth - 1, indent + 1, in_loop, loops))
            if draw(st.booleans()):
                out.append(f"{pad}else:")
                out += draw(block(depth - 1, indent + 1, in_loop, loops))
        elif kind == "while":
            k = len(loops)
            loops.append(k)
            out.append(f"{pad}k{k} = 0")
            out.append(f"{pad}while k{k} < {draw(st.integers(0, 4))}:")
            out.append(f"{pad}    k{k} += 1")
            out += draw(block(depth - 1, indent + 1, True, loops))
        else:
            k = len(loops)
            loops.append(k)
            start, stop = draw(st.integers(-3, 3)), draw(st.integers(-3, 3))
            step = draw(st.sampled_from([1, 2, -1, -2]))
            out.append(f"{pad}for k{k} in range({start}, {stop}, {step}):")
            out.append(f"{pad}    a += k{k}")
            out += draw(block(depth - 1, indent + 1, True, loops))
    return out


@st.composite
def statement_programs(draw: st.DrawFn) -> str:
    body = draw(block(3, 1, False, []))
    return (
        "g: Int = 1\n\ndef main() -> Int:\n    global g\n    a = 1\n    b = 2\n    c = 3\n"
        + "\n".join(body)
        + "\n    print(a, b, c, g)\n    return (a + b + c + g) % 256\n"
    )


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(statement_programs())
def test_statements_interpreter_equals_compiled(source: str) -> None:
    """Nested if/elif/else, while and for with break/continue: the SSA joins are right."""
    expected = interpret(source)
    for level in (0, 2):
        assert compile_and_run(source, level) == expected, f"-O{level}"


# --------------------------------------------------------------------------- float printing


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=30, max_size=30),
    st.lists(st.floats(width=32, allow_nan=False, allow_infinity=False), min_size=30, max_size=30),
)
def test_float_printing(doubles: list[float], singles: list[float]) -> None:
    """The C runtime prints floats like the interpreter; Float64 also exactly like Python's repr."""
    lines = [f"    print({x!r})" for x in doubles] + [f"    print(Float32({x!r}))" for x in singles]
    source = "def main() -> None:\n" + "\n".join(lines) + "\n"
    expected = interpret(source)
    assert expected.stdout.splitlines()[: len(doubles)] == [repr(x) for x in doubles]
    got = compile_and_run(source, 0)
    assert got == expected, _first_difference(expected.stdout, got.stdout, source)
