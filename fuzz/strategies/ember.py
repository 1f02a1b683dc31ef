"""Call graphs rendered as well-typed, terminating Ember programs that print a checksum.

The shapes are those of `fuzz.strategies.callgraph` (DAGs, recursive SCCs, shared
internal callees reached from several `@export` anchors, constant-argument call sites,
internal mutable globals read and written from several functions, deep chains, wide
fan-out); an address-taken function table becomes a selector function `tab(k)` that
returns function values, called indirectly. Every function is `fN(x: Int, d: Int) -> Int`
with the depth budget `d` (returns at once when it is spent), loops are `for ... in
range(C)` or `while j < C` with constant trip counts, divisors are nonzero by
construction, so every program type-checks, terminates within the interpreter's fuel
and never traps. Each function also gets a *flavour*: a typed lane (Int32, Int8,
UInt64, Float64, Float32 arithmetic converted back to Int), a loop form and an inline
decorator. `main` prints each anchor's result, each global and a checksum of them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from fuzz.strategies.callgraph import SWITCH_CASES, CallGraph, Function, Op, call_graphs

#: Worst-case calls one run of `main` makes: the interpreter runs every generated program.
MAX_CALLS = 300
LANES = ("Int", "Int32", "Int8", "UInt64", "Float64", "Float32", "Bool", "Widths", "FloatEdge", "Cond")
#: functions that always get a flavour (the rest may stay plain `Int`): lanes in many programs
MIN_FLAVOURED = 10
LOOPS = ("for", "while")
INLINES = ("", "noinline", "always_inline")
U64 = (1 << 64) - 1


@dataclass(frozen=True)
class Flavour:
    """Ember-only dressing of one function: a typed lane, the loop form, an inline decorator."""

    lane: str = "Int"
    lane_const: int = 3
    loop: str = "for"
    inline: str = ""


@dataclass(frozen=True)
class EmberProgram:
    """A call graph plus per-function flavours; `render()` gives the Ember source."""

    graph: CallGraph
    flavours: tuple[Flavour, ...] = ()

    def flavour(self, index: int) -> Flavour:
        return self.flavours[index] if index < len(self.flavours) else Flavour()

    def render(self) -> str:
        return render(self)

    def __repr__(self) -> str:  # what Hypothesis prints for a falsifying example: the source
        return "EmberProgram(source=\n" + self.render() + ")"


# ------------------------------------------------------------------ rendering


def _lit(value: int) -> str:
    return f"({value})" if value < 0 else str(value)


def _operand(op: Op, in_loop: bool, loop_var: str) -> str:
    if op.operand == "x":
        return "x"
    if op.operand == "d":
        return "d"
    if op.operand == "i" and in_loop:
        return loop_var
    return _lit(op.value)


def _is_literal(operand: str) -> bool:
    """`5`, `(-5)`: a rendered constant (the loop counter `i` outside a loop becomes one)."""
    return operand.strip("()").lstrip("-").isdigit()


def _u64(operand: str, op: Op) -> str:
    """`operand` as a UInt64 expression (a literal must already be in range)."""
    if op.operand == "c" or _is_literal(operand):
        return str(op.value & U64)
    return f"UInt64({operand})"


def _render_op(op: Op, in_loop: bool, loop_var: str) -> str:
    """An expression computing the new `acc`; defined (no trap) for every input."""
    v = _operand(op, in_loop, loop_var)
    k = op.kind
    binops = {"add": "+", "sub": "-", "mul": "*", "xor": "^", "and": "&", "or": "|"}
    if k in binops:
        return f"acc {binops[k]} {v}"
    if k == "shl":  # shifts by any amount: negative or >= 64 is defined (0 or the sign fill)
        return f"acc << {v}"
    if k == "ashr":
        return f"acc >> {v}"
    if k == "lshr":
        return f"Int(UInt64(acc) >> {_u64(v, op)})"
    if k in ("udiv", "urem"):
        return f"Int(UInt64(acc) {'//' if k == 'udiv' else '%'} {max(1, abs(op.value)) & U64})"
    if k in ("sdiv", "srem"):
        return _render_signed_division(k, op.value, None if op.operand == "c" else v)
    if k in ("udivx", "uremx"):
        src = "x" if _is_literal(v) else v  # `i` outside a loop is a literal: not UInt64(-7)
        return f"Int(UInt64(acc) {'//' if k == 'udivx' else '%'} UInt64({src} | 1))"
    if k == "smin":
        return f"min(acc, {v})"
    if k in ("switch", "fconst", "vconst"):
        return _render_shape(k, op.value & 0xFFFF)
    return f"Int(max(UInt64(acc), {_u64(v, op)}))"  # umax


def _render_shape(kind: str, c: int) -> str:
    """The IR generator's code shapes as one Ember expression: a case chain, float constants."""
    if kind == "switch":  # a chain of equality tests on acc % 7 (the midend may make it a switch)
        chain = "acc"
        for j, (op, v) in reversed(list(enumerate(SWITCH_CASES))):
            sym = {"add": "+", "mul": "*", "xor": "^", "shl": "<<", "sub": "-", "lshr": ">>"}[op]
            chain = f"(acc {sym} {v + c % 3}) if acc % 7 == {j} else {chain}"
        return chain
    if kind == "fconst":
        return f"acc ^ Int(Float64(acc & 1048575) * 0.0012345 + {c}.25)"
    return f"acc ^ Int(Float32(acc & 65535) * Float32(-7.5) + Float32({c}.125))"


def _render_signed_division(kind: str, value: int, operand: str | None = None) -> str:
    """`acc // c` / `acc % c` for any nonzero Int constant c (INT_MIN too), or by `(operand | 1)`."""
    divisor = value if -(2**63) <= value < 2**63 and value != 0 else 2
    text = f"({operand} | 1)" if operand is not None else _lit(divisor)
    if kind == "srem":
        return f"acc % {text}"  # INT_MIN % -1 == 0: defined
    if operand is not None or divisor == -1:  # INT_MIN // -1 traps: keep the dividend above INT_MIN
        return f"max(acc, {_lit(-(2**63) + 1)}) // {text}"
    return f"acc // {text}"


def _render_lane(fl: Flavour) -> list[str]:
    """One statement mixing a narrower or floating type into `acc` (conversions are total)."""
    c = fl.lane_const
    if fl.lane == "Int32":
        return [f"acc = acc ^ Int(Int32(acc) * Int32({c}))"]
    if fl.lane == "Int8":
        return [f"acc = acc + Int(Int8(acc) + Int8({c % 128}))"]
    if fl.lane == "UInt64":
        return [f"acc = Int(UInt64(acc) * UInt64({c}) + UInt64(x))"]
    if fl.lane == "Float64":
        return [f"acc = acc + Int(Float64(acc & 65535) * {c}.25)"]
    if fl.lane == "Float32":
        return [f"acc = acc ^ Int(Float32(acc & 4095) * Float32({c}.5))"]
    if fl.lane == "Bool":
        return [f"big: Bool = acc > x or d == {c % 4}", "if big:", f"    acc = acc - {c}"]
    return _render_edge_lane(fl)


def _render_edge_lane(fl: Flavour) -> list[str]:
    """Lanes at the language's edges: narrow compares, IEEE specials, side effects in and/or."""
    c = fl.lane_const
    if fl.lane == "Widths":  # every integer width compared (wrapped narrow adds too) and converted
        return [
            f"acc = acc + Int(Int8(acc) + Int8({c % 128}) > Int8(acc)) + Int(Int32(acc) <= Int32(x)) * 2",
            f"acc = acc + Int(UInt64(acc) < UInt64(x)) * 4 + Int(Int8(x) == Int8(acc)) * 8 + Int(Int32(acc) * Int32({c}) < Int32(0)) * 16",
            "acc = acc ^ Int(UInt64(Int8(acc))) ^ Int(Int32(UInt64(x))) ^ Int(Int8(Int32(acc)))",
            # signed overflow at each narrow width, about half the time: wraps in Ember, so a
            # compare or widening the optimiser may fold under `nsw` (x + c > x) must not fold
            f"acc = acc + Int(Int32(acc) + Int32({2147483647 - c}) > Int32(acc)) * 32 + Int(-Int8(acc & -128)) * 64"
            f" + Int(Int8(acc) * Int8({c % 128})) * 128 + Int(Int32(x) - Int32({2147483647 - c}) < Int32(x)) * 256",
            # the minimum integer % -1 (d odd) or % -2: 0 either way, and never a trap
            "acc = acc + (-9223372036854775807 - 1) % (d | -2)",
        ]
    if fl.lane == "FloatEdge":  # x & 1 == 0 divides by 0.0: +-inf, NaN (0/0); -0.0 seen through 1/z
        return [
            "fz: Float64 = Float64(acc & 3) / Float64(x & 1)",
            "nz: Float64 = -0.0 * Float64(acc & 1)",
            "acc = acc ^ Int(fz) ^ Int(fz != fz) * 2 ^ Int(fz < 1.5) * 4 ^ Int(1.0 / nz)",
            f"acc = acc + Int(Float32(fz) * Float32({c}.5)) + Int(min(fz, 2.5)) + Int(max(nz, fz))",
            # float % and // with either sign on either side (the divisor is never 0: x & 7 - 3.5)
            "fd: Float64 = Float64(x & 7) - 3.5",
            "acc = acc ^ Int(Float64(acc % 2001 - 1000) % fd * 8.0) ^ Int(Float64(acc % 97 - 48) // fd)",
        ]
    if fl.lane == "Cond":  # `tick` counts its calls (printed by main): short-circuit order shows
        return [
            f"if tick(acc) and acc > x or tick(x ^ d) and not tick(acc + {c}):",
            f"    acc = acc + {c}",
        ]
    return []


def _render_function(f: Function, prog: EmberProgram) -> str:
    graph = prog.graph
    fl = prog.flavour(f.index)
    lines: list[str] = []
    if f.linkage in ("external", "hidden"):
        lines.append("@export")
    # an always-inline function that calls anything could be recursive: keep it call-free
    inline = fl.inline if not (fl.inline == "always_inline" and f.calls) else ""
    if inline == "" and f.noinline:
        inline = "noinline"
    if inline:
        lines.append(f"@{inline}")
    lines.append(f"def {f.name}(x: Int, d: Int) -> Int:")
    body = ["if d <= 0:", f"    return x ^ {f.base}"]
    written = sorted({u.index for u in f.uses if u.kind != "read"})
    if graph.table and graph.table_mutable and any(c.indirect for c in f.calls):
        written.append(-1)
    if written:
        body.append("global " + ", ".join("tsel" if g < 0 else f"g{g}" for g in written))
    body.append("acc: Int = x")
    in_loop = bool(f.loop_trip)
    loop_var = "i" if fl.loop == "for" else "j"
    ops = [f"acc = {_render_op(op, in_loop, loop_var)}" for op in f.ops]
    if in_loop:
        if fl.loop == "for":
            body.append(f"for i in range({f.loop_trip}):")
            body += ["    " + s for s in (*ops, "acc = acc + 1")]
        else:
            body.append("j: Int = 0")
            body.append(f"while j < {f.loop_trip}:")
            body += ["    " + s for s in (*ops, "acc = acc + 1", "j = j + 1")]
    else:
        body += ops
    body += _render_lane(fl)
    for use in f.uses:
        g = f"g{use.index % max(1, len(graph.globals))}"
        if use.kind == "read":
            body.append(f"acc = acc ^ {g}")
        elif use.kind == "write":
            body.append(f"{g} = acc")
        else:
            body.append(f"{g} = {g} + acc")
    combine = {"xor": "^", "add": "+", "mul": "*"}
    for n, call in enumerate(f.calls):
        arg = "acc" if call.const_arg is None else _lit(call.const_arg)
        if call.indirect and graph.table:
            if graph.table_mutable:
                body.append("tsel = tsel + 1")
            body.append(f"fn{n}: Callable[[Int, Int], Int] = tab(acc % {len(graph.table)})")
            target = f"fn{n}"
        else:
            target = graph.functions[call.callee % len(graph.functions)].name
        body.append(f"acc = acc {combine[call.combine]} {target}({arg}, d - 1)")
    body.append("return acc")
    lines += ["    " + s for s in body]
    return "\n".join(lines)


def _render_table(prog: EmberProgram) -> str:
    graph = prog.graph
    lines = ["def tab(k: Int) -> Callable[[Int, Int], Int]:"]
    if graph.table_mutable:
        lines.append(f"    k = (k + tsel) % {len(graph.table)}")
    for n, t in enumerate(graph.table[:-1]):
        lines += [f"    if k == {n}:", f"        return {graph.functions[t].name}"]
    lines.append(f"    return {graph.functions[graph.table[-1]].name}")
    return "\n".join(lines)


#: The side effect of the `Cond` lane's conditions: counts its calls, true for odd values.
TICK = """def tick(v: Int) -> Bool:
    global ticks
    ticks = ticks + 1
    return (v & 1) == 1"""


def uses_ticks(prog: EmberProgram) -> bool:
    """Whether some function's lane calls `tick` (then the program has `tick` and prints `ticks`)."""
    return any(prog.flavour(f.index).lane == "Cond" for f in prog.graph.functions)


def render(prog: EmberProgram) -> str:
    """Ember source for `prog` (deterministic)."""
    graph = prog.graph
    blocks = []
    decls = [f"g{n}: Int = {init}" for n, init in enumerate(graph.globals)]
    if graph.table and graph.table_mutable:
        decls.append("tsel: Int = 0")
    ticks = uses_ticks(prog)
    if ticks:
        decls.append("ticks: Int = 0")
    if decls:
        blocks.append("\n".join(decls))
    if ticks:
        blocks.append(TICK)
    if graph.table:
        blocks.append(_render_table(prog))
    blocks += [_render_function(f, prog) for f in graph.functions]
    depth = graph.depth(MAX_CALLS)
    main = ["def main() -> Int:", "    chk: Int = 0"]
    for n, f in enumerate(graph.anchors):
        arg = graph.main_args[n % len(graph.main_args)] if graph.main_args else n
        main += [f"    a{n}: Int = {f.name}({_lit(arg)}, {depth})", f'    print("{f.name}", a{n})']
        main.append(f"    chk = chk * 1000003 ^ a{n}")
    for n in range(len(graph.globals)):
        main += [f'    print("g{n}", g{n})', f"    chk = chk * 1000003 ^ g{n}"]
    if ticks:
        main += ['    print("ticks", ticks)', "    chk = chk * 1000003 ^ ticks"]
    # the checksum at every width, printed as it is (a narrow value's sign or zero
    # extension on the way to the runtime's 64-bit printer is code of its own)
    main += ['    print("narrow", Int8(chk), Int32(chk), UInt64(Int8(chk)))']
    main += ['    print("checksum", chk)', "    return 0"]
    blocks.append("\n".join(main))
    return "\n\n\n".join(blocks) + "\n"


# ------------------------------------------------------------------ strategies


@st.composite
def flavours(draw: st.DrawFn) -> Flavour:
    return Flavour(
        lane=draw(st.sampled_from(LANES)),
        lane_const=draw(st.integers(3, 99)),
        loop=draw(st.sampled_from(LOOPS)),
        inline=draw(st.sampled_from(INLINES)),
    )


@st.composite
def ember_programs(
    draw: st.DrawFn, max_functions: int = 10, min_functions: int = 1
) -> EmberProgram:
    """A random Ember program over a call graph; shrinks to few, plain, call-free functions."""
    graph = draw(call_graphs(max_functions, min_functions), label="call graph")
    # the first functions always have a flavour (its lane shrinks to plain `Int`)
    n = len(graph.functions)
    extra = draw(st.lists(flavours(), min_size=min(n, MIN_FLAVOURED), max_size=n), label="flavours")
    return EmberProgram(graph, tuple(extra))


def ember_sources(max_functions: int = 10, min_functions: int = 1) -> st.SearchStrategy[str]:
    """Ember source text of random programs."""
    return ember_programs(max_functions, min_functions).map(render)
