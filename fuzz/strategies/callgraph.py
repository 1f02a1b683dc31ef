"""Call graphs rendered as UB-free, terminating LLVM IR modules with a checksum-printing `main`.

A program is a list of functions `i64 @fN(i64 %x, i64 %d)`. `%d` is a depth budget:
every function returns at once when it is 0 and passes `%d - 1` to every callee, so
recursion (SCCs, back edges, indirect calls through a function table) always ends;
`main` starts at the largest depth whose worst-case call count stays under
`MAX_CALLS`. Arithmetic wraps (no `nsw`/`nuw`), shifts are by constants below 64,
unsigned division is by a constant or by `x | 1`, signed division only by a constant
>= 2. `main` prints one line per anchor result and one per global, so a wrong value
points at the function that computed it.

Shapes the split back end must get right: shared internal callees reached from several
anchors (copied per subgraph), call sites with constant arguments (IPO specialises each
copy differently), address-taken functions in a function table, internal mutable
globals read and written from several anchors, recursive SCCs, deep chains, wide
fan-out, an optional `llvm.global_ctors` constructor, and an optional small `@helper`
that every function calls (inside its loop when it has one), padded the way clang's
unoptimised IR is: the serial build inlines it everywhere, and a split build must too
(docs/fuzzing.md, "Where split != serial hides").
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

from hypothesis import strategies as st

from fuzz.strategies.ir_text import cstring
from fuzz.strategies.unoptimised import LIFETIME_DECLS, PADDING, padded

#: Upper bound on calls one run of `main` makes (keeps every program well under a millisecond).
MAX_CALLS = 4000
#: Deepest start depth main passes (a chain longer than this is cut short by the budget).
MAX_DEPTH = 24

ARITH = ("add", "sub", "mul", "xor", "and", "or")
SHIFTS = ("shl", "lshr", "ashr")
DIVS = ("udiv", "urem", "sdiv", "srem", "udivx", "uremx")
#: code-shape ops: a switch of differing cases (a jump table), float and vector constants (constant pools)
CODE_SHAPES = ("switch", "fconst", "vconst")
OP_KINDS = ARITH + SHIFTS + DIVS + ("smin", "umax") + CODE_SHAPES
#: what each `switch` case does to the accumulator (different code per case: a jump table, not a lookup table)
SWITCH_CASES = (("add", 3), ("mul", 5), ("xor", 0x5A5A), ("shl", 7), ("sub", 11), ("lshr", 9))
LINKAGES = ("internal", "external", "private", "hidden")


@dataclass(frozen=True)
class Op:
    """`acc = acc <kind> operand`; operand is `%x`, `%d`, `%i` (loop counter) or a constant."""

    kind: str
    operand: str  # "x" | "d" | "i" | "c"
    value: int


@dataclass(frozen=True)
class Call:
    """A call made after the body: direct to `callee`, or through the table when `indirect`."""

    callee: int
    const_arg: int | None  # a constant first argument (IPO bait), else the accumulator
    indirect: bool = False
    combine: str = "xor"
    #: an indirect call through a `select` of two table functions instead of a table load:
    #: -O2's called-value propagation then names both in `!callees` metadata
    via_select: bool = False


@dataclass(frozen=True)
class GlobalUse:
    """`read` folds the global into the accumulator, `write` stores it, `rmw` adds to it."""

    index: int
    kind: str


@dataclass(frozen=True)
class Function:
    index: int
    linkage: str
    ops: tuple[Op, ...]
    calls: tuple[Call, ...]
    uses: tuple[GlobalUse, ...]
    loop_trip: int  # 0: straight-line body
    noinline: bool
    base: int  # what the function returns (xor %x) when the depth budget is spent

    @property
    def name(self) -> str:
        return f"f{self.index}"


@dataclass(frozen=True)
class Helper:
    """`i64 @helper(i64 %x, i64 %k)`: `x ^ k` through clang -O0 style `padding`, plus `key`;
    every function calls it with its accumulator and its loop counter (or depth)."""

    linkage: str  # "internal" | "external" | "hidden"
    padding: tuple[tuple[str, int], ...]
    key: int


@dataclass(frozen=True)
class CallGraph:
    """A whole program; `render()` gives the LLVM IR text."""

    functions: tuple[Function, ...]
    globals: tuple[int, ...]  # initial values of internal mutable i64 globals @g0..
    table: tuple[int, ...]  # address-taken functions, in @ftab order
    table_mutable: bool
    ctor: bool
    main_args: tuple[int, ...]  # constant first argument for each anchor main calls
    helper: Helper | None = None

    @property
    def anchors(self) -> list[Function]:
        return [f for f in self.functions if f.linkage in ("external", "hidden")]

    def depth(self, max_calls: int = MAX_CALLS) -> int:
        """Largest start depth (<= MAX_DEPTH) whose worst-case call count is <= `max_calls`."""
        n = len(self.functions)
        counts = [1] * n  # depth 0: the function returns at once
        best = 0
        for d in range(1, MAX_DEPTH + 1):
            table_max = max((counts[t] for t in self.table), default=0)
            new = []
            for f in self.functions:
                total = 1
                for c in f.calls:
                    total += table_max if c.indirect else counts[c.callee]
                new.append(min(total, 10 * max_calls))
            counts = new
            if sum(counts[f.index] for f in self.anchors) > max_calls:
                break
            best = d
        return max(best, 1)

    def render(self) -> str:
        return render(self)

    def __repr__(self) -> str:  # shown by Hypothesis for a falsifying example: the module itself
        return "CallGraph(module=\n" + self.render() + ")"


# ------------------------------------------------------------------ rendering


def _operand(op: Op, in_loop: bool) -> str:
    if op.operand == "x":
        return "%x"
    if op.operand == "d":
        return "%d"
    if op.operand == "i" and in_loop:
        return "%i"
    return str(op.value)


def _render_op(op: Op, acc: str, out: str, k: int, in_loop: bool) -> list[str]:
    """Instructions computing `out` from `acc`; every one is defined for every input."""
    operand = _operand(op, in_loop)
    if op.kind in ARITH:
        return [f"  {out} = {op.kind} i64 {acc}, {operand}"]
    if op.kind in SHIFTS:
        return [f"  {out} = {op.kind} i64 {acc}, {op.value % 64}"]
    if op.kind in ("udiv", "urem"):
        return [f"  {out} = {op.kind} i64 {acc}, {max(1, abs(op.value))}"]
    if op.kind in ("sdiv", "srem"):
        return [f"  {out} = {op.kind} i64 {acc}, {max(2, abs(op.value))}"]
    if op.kind in ("udivx", "uremx"):
        src = operand if op.operand != "c" else "%x"
        return [f"  %nz{k} = or i64 {src}, 1", f"  {out} = {op.kind[:-1]} i64 {acc}, %nz{k}"]
    if op.kind in CODE_SHAPES:
        return _render_shape(op, acc, out, k)
    pred = "slt" if op.kind == "smin" else "ugt"
    return [
        f"  %cmp{k} = icmp {pred} i64 {acc}, {operand}",
        f"  {out} = select i1 %cmp{k}, i64 {acc}, i64 {operand}",
    ]


def _render_shape(op: Op, acc: str, out: str, k: int) -> list[str]:
    """A switch over `acc % 7` (cases 0..5 differ), or float / vector constants folded into `acc`."""
    c = op.value & 0xFFFF
    if op.kind == "switch":
        cases = " ".join(f"i64 {j}, label %sw{k}.{j}" for j in range(len(SWITCH_CASES)))
        lines = [f"  %swk{k} = urem i64 {acc}, 7", f"  switch i64 %swk{k}, label %sw{k}.d [ {cases} ]"]
        incoming = []
        for j, (kind, v) in enumerate(SWITCH_CASES):
            lines += [f"sw{k}.{j}:", f"  %swv{k}.{j} = {kind} i64 {acc}, {v + c % 3}", f"  br label %sw{k}.j"]
            incoming.append(f"[ %swv{k}.{j}, %sw{k}.{j} ]")
        lines += [f"sw{k}.d:", f"  br label %sw{k}.j", f"sw{k}.j:"]
        return [*lines, f"  {out} = phi i64 {', '.join(incoming)}, [ {acc}, %sw{k}.d ]"]
    if op.kind == "fconst":  # |acc & 0xFFFFF| * 1.2345e-3 + c.25 fits i64: fptosi is defined
        return [
            f"  %fm{k} = and i64 {acc}, 1048575",
            f"  %ff{k} = sitofp i64 %fm{k} to double",
            f"  %fg{k} = fmul double %ff{k}, 1.234500e-03",
            f"  %fh{k} = fadd double %fg{k}, {c}.25",
            f"  %fi{k} = fptosi double %fh{k} to i64",
            f"  {out} = xor i64 {acc}, %fi{k}",
        ]
    return [  # vconst: <4 x i32> arithmetic with constant vectors, two lanes folded back
        f"  %vt{k} = trunc i64 {acc} to i32",
        f"  %vi{k} = insertelement <4 x i32> <i32 3, i32 -7, i32 {c}, i32 1000>, i32 %vt{k}, i32 0",
        f"  %vm{k} = mul <4 x i32> %vi{k}, <i32 17, i32 {c | 1}, i32 5, i32 -9>",
        f"  %va{k} = add <4 x i32> %vm{k}, <i32 {c}, i32 1, i32 -2, i32 77>",
        f"  %ve{k} = extractelement <4 x i32> %va{k}, i32 0",
        f"  %vf{k} = extractelement <4 x i32> %va{k}, i32 3",
        f"  %vs{k} = add i32 %ve{k}, %vf{k}",
        f"  %vz{k} = zext i32 %vs{k} to i64",
        f"  {out} = xor i64 {acc}, %vz{k}",
    ]


def _render_function(f: Function, graph: CallGraph) -> str:
    linkage = {"external": "", "hidden": "hidden ", "internal": "internal ", "private": "private "}[f.linkage]
    attrs = " noinline" if f.noinline else ""
    lines = [f"define {linkage}i64 @{f.name}(i64 %x, i64 %d){attrs} {{", "entry:"]
    lines += ["  %stop = icmp eq i64 %d, 0", "  br i1 %stop, label %base, label %body", "base:"]
    lines += [f"  %b = xor i64 %x, {f.base}", "  ret i64 %b", "body:", "  %d1 = sub i64 %d, 1"]
    acc = "%x"
    k = 0
    if f.loop_trip:
        lines += ["  br label %loop", "loop:", "  %i = phi i64 [ 0, %body ], [ %i.next, %latch ]"]
        lines.append("  %acc = phi i64 [ %x, %body ], [ %acc.next, %latch ]")
        acc = "%acc"
    for op in f.ops:
        out = f"%v{k}"
        lines += _render_op(op, acc, out, k, bool(f.loop_trip))
        acc, k = out, k + 1
    if graph.helper is not None:  # in the loop when there is one (the loop counter as `k`)
        lines.append(f"  %hc = call i64 @helper(i64 {acc}, i64 {'%i' if f.loop_trip else '%d'})")
        acc = "%hc"
    if f.loop_trip:
        lines += ["  br label %latch", "latch:"]  # a switch in the body ends in another block
        lines.append(f"  %acc.next = add i64 {acc}, 1")
        lines.append("  %i.next = add i64 %i, 1")
        lines.append(f"  %more = icmp ult i64 %i.next, {f.loop_trip}")
        lines += ["  br i1 %more, label %loop, label %after", "after:"]
        acc = "%acc.next"
    for n, use in enumerate(f.uses):
        g = f"@g{use.index % max(1, len(graph.globals))}"
        if use.kind == "read":
            lines += [f"  %gl{n} = load i64, ptr {g}", f"  %gr{n} = xor i64 {acc}, %gl{n}"]
            acc = f"%gr{n}"
        elif use.kind == "write":
            lines.append(f"  store i64 {acc}, ptr {g}")
        else:
            lines += [f"  %gl{n} = load i64, ptr {g}", f"  %gs{n} = add i64 %gl{n}, {acc}"]
            lines.append(f"  store i64 %gs{n}, ptr {g}")
    for n, call in enumerate(f.calls):
        arg = acc if call.const_arg is None else str(call.const_arg)
        if call.indirect and graph.table and call.via_select:
            size = len(graph.table)
            first = graph.functions[graph.table[call.callee % size]].name
            second = graph.functions[graph.table[(call.callee + 1) % size]].name
            lines.append(f"  %tb{n} = trunc i64 {acc} to i1")
            lines.append(f"  %tf{n} = select i1 %tb{n}, ptr @{first}, ptr @{second}")
            lines.append(f"  %c{n} = call i64 %tf{n}(i64 {arg}, i64 %d1)")
        elif call.indirect and graph.table:
            size = len(graph.table)
            lines.append(f"  %ti{n} = urem i64 {acc}, {size}")
            lines.append(f"  %tp{n} = getelementptr [{size} x ptr], ptr @ftab, i64 0, i64 %ti{n}")
            lines.append(f"  %tf{n} = load ptr, ptr %tp{n}")
            lines.append(f"  %c{n} = call i64 %tf{n}(i64 {arg}, i64 %d1)")
        else:
            callee = graph.functions[call.callee % len(graph.functions)].name
            lines.append(f"  %c{n} = call i64 @{callee}(i64 {arg}, i64 %d1)")
        lines.append(f"  %r{n} = {call.combine} i64 {acc}, %c{n}")
        acc = f"%r{n}"
    lines += [f"  ret i64 {acc}", "}"]
    return "\n".join(lines)


def _render_helper(helper: Helper) -> str:
    linkage = {"external": "", "hidden": "hidden ", "internal": "internal "}[helper.linkage]
    return "\n".join([
        f"define {linkage}i64 @helper(i64 %x, i64 %k) {{",
        "entry:",
        "  %s = xor i64 %x, %k",
        *padded("%s", helper.padding),
        f"  %r = add i64 %pad.r, {helper.key}",
        "  ret i64 %r",
        "}",
    ])


def render(graph: CallGraph) -> str:
    """LLVM IR text for `graph` (deterministic)."""
    fmt_f, len_f = cstring("f%lld %016llx\n")
    fmt_g, len_g = cstring("g%lld %016llx\n")
    fmt_t, len_t = cstring("table %lld\n")
    lines = [
        f"@.fmt.f = private unnamed_addr constant [{len_f} x i8] {fmt_f}",
        f"@.fmt.g = private unnamed_addr constant [{len_g} x i8] {fmt_g}",
    ]
    if graph.table:
        lines.append(f"@.fmt.t = private unnamed_addr constant [{len_t} x i8] {fmt_t}")
    for n, init in enumerate(graph.globals):
        lines.append(f"@g{n} = internal global i64 {init}")
    if graph.table:
        kind = "global" if graph.table_mutable else "constant"
        entries = ", ".join(f"ptr @{graph.functions[t].name}" for t in graph.table)
        lines.append(f"@ftab = internal {kind} [{len(graph.table)} x ptr] [{entries}]")
    if graph.ctor:
        lines.append("@ctor_ran = internal global i64 0")
        lines.append(
            "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] "
            "[{ i32, ptr, ptr } { i32 65535, ptr @ctor, ptr null }]"
        )
    lines.append("declare i32 @printf(ptr, ...)")
    if graph.helper is not None:
        lines.extend(LIFETIME_DECLS)
    blocks = ["\n".join(lines)]
    if graph.ctor:
        body = ["define internal void @ctor() {", "  store i64 1, ptr @ctor_ran"]
        if graph.globals:
            body += ["  %g = load i64, ptr @g0", "  %h = mul i64 %g, 3", "  store i64 %h, ptr @g0"]
        blocks.append("\n".join([*body, "  ret void", "}"]))
    if graph.helper is not None:
        blocks.append(_render_helper(graph.helper))
    for f in graph.functions:
        blocks.append(_render_function(f, graph))
    blocks.append(_render_main(graph))
    return "\n\n".join(blocks) + "\n"


def _render_main(graph: CallGraph) -> str:
    depth = graph.depth()
    lines = ["define i32 @main() {", "entry:"]
    for n, f in enumerate(graph.anchors):
        arg = graph.main_args[n % len(graph.main_args)] if graph.main_args else n
        lines.append(f"  %a{n} = call i64 @{f.name}(i64 {arg}, i64 {depth})")
        lines.append(f"  call i32 (ptr, ...) @printf(ptr @.fmt.f, i64 {f.index}, i64 %a{n})")
    for n in range(len(graph.globals)):
        lines.append(f"  %g{n} = load i64, ptr @g{n}")
        lines.append(f"  call i32 (ptr, ...) @printf(ptr @.fmt.g, i64 {n}, i64 %g{n})")
    if graph.table:
        # an address-taken function keeps one identity: the table entry equals the symbol
        acc = "0"
        size = len(graph.table)
        for n, t in enumerate(graph.table):
            lines.append(f"  %tp{n} = getelementptr [{size} x ptr], ptr @ftab, i64 0, i64 {n}")
            lines.append(f"  %tf{n} = load ptr, ptr %tp{n}")
            lines.append(f"  %te{n} = icmp eq ptr %tf{n}, @{graph.functions[t].name}")
            lines.append(f"  %tz{n} = zext i1 %te{n} to i64")
            lines.append(f"  %ts{n} = add i64 {acc}, %tz{n}")
            acc = f"%ts{n}"
        lines.append(f"  call i32 (ptr, ...) @printf(ptr @.fmt.t, i64 {acc})")
    if graph.ctor:
        lines.append("  %ran = load i64, ptr @ctor_ran")
        lines.append("  call i32 (ptr, ...) @printf(ptr @.fmt.g, i64 -1, i64 %ran)")
    lines += ["  ret i32 0", "}"]
    return "\n".join(lines)


# ------------------------------------------------------------------ strategies

_CONSTS = st.one_of(st.integers(-8, 64), st.integers(-(2**63), 2**63 - 1))


# Strategies are built once per parameter set: Hypothesis validates every new strategy
# object on its first draw, which tripled the drawing time when they were built inside
# each draw (15.2 -> 4.5 ms per 10-function program).


@functools.cache
def _op_lists(in_loop: bool, max_ops: int = 6, min_ops: int = 0) -> st.SearchStrategy[list[Op]]:
    operands = ["c", "x", "d"] + (["i"] if in_loop else [])
    op = st.builds(Op, st.sampled_from(OP_KINDS), st.sampled_from(operands), _CONSTS)
    return st.lists(op, min_size=min_ops, max_size=max_ops)


#: Program sizes: most programs are a handful of small functions; some have a few large
#: functions (register pressure, spills, long blocks: a level-2 piece of its own) and some
#: many tiny ones (many pieces and symbols for the link). Shrinks towards `normal`.
SIZES = ("normal", "normal", "normal", "large", "many-small")
#: ops per function body in a `large` program (at most; at least a quarter as many), and how
#: many such functions at most
LARGE_OPS, LARGE_FUNCTIONS = 48, 3
#: function count of a `many-small` program (each body at most one op)
MANY_SMALL = (24, 48)


@functools.cache
def _call_lists(max_functions: int, table: bool) -> st.SearchStrategy[list[Call]]:
    call = st.builds(
        Call,
        callee=st.integers(0, max_functions - 1),
        const_arg=st.none() | _CONSTS,
        indirect=st.booleans() if table else st.just(False),
        combine=st.sampled_from(["xor", "add", "mul"]),
        via_select=st.booleans() if table else st.just(False),
    )
    return st.lists(call, max_size=3)


@functools.cache
def _use_lists(any_globals: bool) -> st.SearchStrategy[list[GlobalUse]]:
    use = st.builds(GlobalUse, st.integers(0, 3), st.sampled_from(["rmw", "read", "write"]))
    return st.lists(use, max_size=3 if any_globals else 0)


_LOOP_TRIPS = st.sampled_from([0, 1, 3, 8])
_HELPERS = st.builds(Helper, st.sampled_from(["internal", "external", "hidden"]), PADDING.map(tuple), _CONSTS)
_LINKAGES = st.sampled_from(LINKAGES)
_BASES = st.integers(0, 255)


@st.composite
def functions(
    draw: st.DrawFn, max_functions: int, n_globals: int, table: bool, max_ops: int = 6, min_ops: int = 0
) -> Function:
    """One function; call targets and global indices are reduced modulo the final counts later."""
    loop_trip = draw(_LOOP_TRIPS)
    calls = draw(_call_lists(max_functions, table))
    uses = draw(_use_lists(bool(n_globals)))
    return Function(
        index=0,
        linkage=draw(_LINKAGES),
        ops=tuple(draw(_op_lists(bool(loop_trip), max_ops, min_ops))),
        calls=tuple(calls),
        uses=tuple(uses),
        loop_trip=loop_trip,
        noinline=draw(st.booleans()),
        base=draw(_BASES),
    )


@st.composite
def call_graphs(draw: st.DrawFn, max_functions: int = 10, min_functions: int = 1) -> CallGraph:
    """A random program over a call graph.

    The shape, global count and table size are drawn first; functions are a list, so
    shrinking deletes whole functions (call targets are taken modulo the final count),
    and everything shrinks towards internal, straight-line, call-free functions.
    `f0` is always an anchor; other functions are anchors when drawn external/hidden.
    """
    max_functions = max(min_functions, max_functions)
    shape = draw(st.sampled_from(["random", "chain", "fanout"]), label="shape")
    # a fixed function count (the throughput benchmark's 10) keeps the normal size
    size = draw(st.sampled_from(SIZES), label="size") if min_functions < max_functions else "normal"
    max_ops, min_ops = 6, 0
    if size == "large":
        max_ops, min_ops = LARGE_OPS, LARGE_OPS // 4
        max_functions = max(min_functions, min(max_functions, LARGE_FUNCTIONS))
    elif size == "many-small":
        max_ops, min_functions, max_functions = 1, max(min_functions, MANY_SMALL[0]), max(max_functions, MANY_SMALL[1])
    n_globals = draw(st.integers(0, 4), label="globals")
    table_size = draw(st.integers(0, 3), label="table size")
    drawn = draw(
        st.lists(functions(max_functions, n_globals, bool(table_size), max_ops, min_ops), min_size=min_functions, max_size=max_functions),
        label="functions",
    )
    n = len(drawn)
    table = tuple(t % n for t in draw(st.lists(st.integers(0, max_functions - 1), min_size=table_size, max_size=table_size)))
    fns = []
    for i, f in enumerate(drawn):
        calls = [replace(c, callee=c.callee % n, indirect=c.indirect and bool(table)) for c in f.calls]
        if shape == "chain":
            calls = [Call(i + 1, None)] if i + 1 < n else []
        elif shape == "fanout" and i == 0:
            calls += [Call(j, None) for j in range(1, n)]
        uses = [replace(u, index=u.index % n_globals) for u in f.uses] if n_globals else []
        linkage = "external" if i == 0 and f.linkage in ("internal", "private") else f.linkage
        fns.append(replace(f, index=i, linkage=linkage, calls=tuple(calls), uses=tuple(uses)))
    return CallGraph(
        functions=tuple(fns),
        globals=tuple(draw(st.lists(st.integers(-1000, 1000), min_size=n_globals, max_size=n_globals))),
        table=table,
        table_mutable=draw(st.booleans()),
        ctor=draw(st.booleans()),
        main_args=tuple(draw(st.lists(_CONSTS, min_size=1, max_size=3))),
        # present in 3 programs of 4; shrinks to none
        helper=draw(_HELPERS, label="helper") if draw(st.integers(0, 3), label="has helper") else None,
    )


def call_graph_modules(max_functions: int = 10, min_functions: int = 1) -> st.SearchStrategy[str]:
    """LLVM IR text of random call-graph programs."""
    return call_graphs(max_functions, min_functions).map(render)


# ------------------------------------------------------------------ swarm testing

#: Graph-level features a swarm configuration may switch off (besides every op kind).
GRAPH_FEATURES = ("calls", "loops", "globals", "table", "ctor", "helper")
#: graph features that gate others, off in only one program of this many: an indirect
#: call through a `select` needs calls and the table (at 1 in 2 it was in 4% of programs);
#: the helper is drawn in 3 call graphs of 4 (so it shrinks away)
GATES, GATE_OFF_ONE_IN = ("calls", "table", "ctor", "helper"), 4


@st.composite
def swarm_graph_off(draw: st.DrawFn) -> frozenset[str]:
    """The swarm configuration of a call-graph program: op kinds and graph features off at
    1 in 2, the `GATES` at 1 in `GATE_OFF_ONE_IN`."""
    off = draw(swarm_off(OP_KINDS + tuple(f for f in GRAPH_FEATURES if f not in GATES)))
    return off | draw(swarm_off(GATES, GATE_OFF_ONE_IN))


@st.composite
def swarm_off(draw: st.DrawFn, features: tuple[str, ...], one_in: int = 2) -> frozenset[str]:
    """Swarm testing (Groce et al., ISSTA 2012): a random subset of `features` switched off
    for one whole program, each with probability 1/`one_in`, drawn before the program;
    shrinks to none off."""
    return frozenset(f for f in features if draw(st.integers(0, one_in - 1)) == one_in - 1)


@st.composite
def swarm_on(draw: st.DrawFn, features: tuple[str, ...], one_in: int) -> tuple[str, ...]:
    """Swarm testing for features a program has one part each of: each switched on with
    probability 1/`one_in` (in `features`' order); shrinks to none on."""
    return tuple(f for f in features if draw(st.integers(0, one_in - 1)) == one_in - 1)


def swarm_choice(value: str, universe: tuple[str, ...], on: tuple[str, ...]) -> str:
    """`value` if it is in `on`, else the feature of `on[1:]` (or `on[0]` when that is
    empty) standing in for it: the draws of switched-off features go to the ones left on."""
    if value in on:
        return value
    rest = on[1:] or on
    return rest[universe.index(value) % len(rest)]


def apply_swarm(graph: CallGraph, off: frozenset[str]) -> CallGraph:
    """`graph` without the switched-off op kinds and graph features."""
    fns = tuple(
        replace(
            f,
            ops=tuple(op for op in f.ops if op.kind not in off),
            calls=() if "calls" in off else tuple(c for c in f.calls if not (c.indirect and "table" in off)),
            loop_trip=0 if "loops" in off else f.loop_trip,
            uses=() if "globals" in off else f.uses,
        )
        for f in graph.functions
    )
    return replace(
        graph,
        functions=fns,
        globals=() if "globals" in off else graph.globals,
        table=() if "table" in off else graph.table,
        ctor=graph.ctor and "ctor" not in off,
        helper=None if "helper" in off else graph.helper,
    )


def graph_features(graph: CallGraph) -> tuple[str, ...]:
    """The op kinds and graph features a program actually uses (for per-feature coverage)."""
    used = {op.kind for f in graph.functions for op in f.ops}
    used |= {"calls"} if any(f.calls for f in graph.functions) else set()
    used |= {"loops"} if any(f.loop_trip for f in graph.functions) else set()
    used |= {"globals"} if graph.globals else set()
    used |= {"table"} if graph.table and any(c.indirect for f in graph.functions for c in f.calls) else set()
    used |= {"ctor"} if graph.ctor else set()
    used |= {"helper"} if graph.helper is not None else set()
    used |= {"select-call"} if graph.table and any(c.indirect and c.via_select for f in graph.functions for c in f.calls) else set()
    used |= {"large-functions"} if any(len(f.ops) > 6 for f in graph.functions) else set()
    used |= {"many-functions"} if len(graph.functions) >= MANY_SMALL[0] else set()
    return tuple(sorted(used))
