"""LLVM IR modules that exercise what the Ember language cannot express: linkages and symbol kinds.

A module is a list of *fragments*, one per feature (internal/private/weak/… linkages,
visibility, `unnamed_addr`, comdats, aliases, TLS, constructors, private strings,
unnamed `@0` globals, blockaddress, address-taken functions, ifuncs, extern_weak, module
asm, available_externally). Each fragment defines its entities with names prefixed
`k<N>_`, at least two external *anchors* that use them (so a small split cost puts
the users in different subgraphs) and lines of `main` that call the anchors; `main`
prints every value on its own line (`k0_a=…`).

`available_externally` definitions need the real definition in another object: the
fragment puts it in the *support* module, which the harness compiles once with the
reference pipeline and links next to every build. Every program is UB-free, takes no
input and terminates at once; no result depends on an address (constants that are
`unnamed_addr` may legally be merged), nor on the order of constructors with equal
priority (the renderer makes priorities unique).
"""

from __future__ import annotations

import platform
import re
from dataclasses import dataclass, field

from hypothesis import strategies as st

from fuzz.strategies.ir_text import cstring
from fuzz.strategies.unoptimised import LIFETIME_DECLS, PADDING, padded

TLS_DECL = "declare ptr @llvm.threadlocal.address.p0(ptr)"


@dataclass(frozen=True)
class Fragment:
    """One feature's share of a module."""

    feature: str
    top: tuple[str, ...]
    main: tuple[str, ...]
    values: tuple[tuple[str, str], ...]  # (label, i64 SSA value in main)
    support: tuple[str, ...] = ()
    decls: tuple[str, ...] = ()
    ctors: tuple[tuple[int, str], ...] = ()
    dtors: tuple[tuple[int, str], ...] = ()
    module_asm: tuple[str, ...] = ()


@dataclass(frozen=True)
class LinkageModule:
    """A whole program; `render()` gives the module, `support()` the companion module (or None)."""

    fragments: tuple[Fragment, ...] = field(default_factory=tuple)

    def render(self) -> str:
        return render(self)

    def support(self) -> str | None:
        parts = [s for f in self.fragments for s in f.support]
        return "\n\n".join(parts) + "\n" if parts else None

    def __repr__(self) -> str:
        features = ", ".join(f.feature for f in self.fragments)
        return f"LinkageModule(features=[{features}], module=\n" + self.render() + ")"


# ------------------------------------------------------------------ rendering


def _structors(name: str, entries: list[tuple[int, str]]) -> str:
    items = ", ".join(f"{{ i32, ptr, ptr }} {{ i32 {prio}, ptr @{fn}, ptr null }}" for prio, fn in entries)
    return f"@{name} = appending global [{len(entries)} x {{ i32, ptr, ptr }}] [{items}]"


def _unique_priorities(entries: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Equal priorities run in an unspecified order (LangRef): make every priority distinct."""
    used: set[int] = set()
    out = []
    for prio, fn in entries:
        while prio in used:
            prio = prio + 1 if prio < 65535 else 101
        used.add(prio)
        out.append((prio, fn))
    return out


_UNNAMED = re.compile(r"@(__unnamed_[A-Za-z0-9]+_[0-9]+)\b")


def number_unnamed(text: str) -> str:
    """Turn `@__unnamed_<k>_<n>` placeholders into `@0`, `@1`, … in order of definition."""
    order: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"@(__unnamed_\w+) = |define [^@]*@(__unnamed_\w+)\(", line)
        if m:
            order.setdefault(m.group(1) or m.group(2), len(order))
    return _UNNAMED.sub(lambda m: f"@{order[m.group(1)]}" if m.group(1) in order else m.group(0), text)


def render(module: LinkageModule) -> str:
    """LLVM IR text of `module` (deterministic)."""
    comdats: list[str] = []
    globals_: list[str] = []
    functions: list[str] = []
    asm: list[str] = []
    decls: dict[str, None] = {"declare i32 @printf(ptr, ...)": None}
    ctors: list[tuple[int, str]] = []
    dtors: list[tuple[int, str]] = []
    main = ["define i32 @main() {", "entry:"]
    for frag in module.fragments:
        for block in frag.top:
            if block.startswith("$"):
                comdats.append(block)
            elif block.startswith("define "):
                functions.append(block)
            else:
                globals_.append(block)
        asm.extend(f'module asm "{line}"' for line in frag.module_asm)
        decls.update(dict.fromkeys(frag.decls))
        ctors.extend(frag.ctors)
        dtors.extend(frag.dtors)
        main.extend(frag.main)
        for label, value in frag.values:
            fmt, size = cstring(f"{label}=%016llx\n")
            name = f"@.fmt.{label}"
            globals_.append(f"{name} = private unnamed_addr constant [{size} x i8] {fmt}")
            main.append(f"  call i32 (ptr, ...) @printf(ptr {name}, i64 {value})")
    main += ["  ret i32 0", "}"]
    if ctors:
        globals_.append(_structors("llvm.global_ctors", _unique_priorities(ctors)))
    if dtors:
        globals_.append(_structors("llvm.global_dtors", _unique_priorities(dtors)))
    head = "\n".join([*asm, *comdats, *globals_, *decls])
    text = "\n\n".join([head, *functions, "\n".join(main)]) + "\n"
    return number_unnamed(text)


# ------------------------------------------------------------------ fragments

_SMALL = st.integers(-100, 1000)
_ANY = st.one_of(st.integers(-8, 64), st.integers(-(2**63), 2**63 - 1))


def _anchor(name: str, body: list[str], ret: str) -> str:
    return "\n".join([f"define i64 @{name}(i64 %x) {{", *body, f"  ret i64 {ret}", "}"])


def _two_calls(p: str, draw: st.DrawFn, what: str = "") -> tuple[list[str], list[tuple[str, str]]]:
    """main calls @<p>a and @<p>b with drawn constants."""
    xa, xb = draw(_ANY), draw(_ANY)
    lines = [f"  %{p}va = call i64 @{p}a(i64 {xa})", f"  %{p}vb = call i64 @{p}b(i64 {xb})"]
    return lines, [(f"{p}a{what}", f"%{p}va"), (f"{p}b{what}", f"%{p}vb")]


@st.composite
def internal_shared(draw: st.DrawFn, p: str) -> Fragment:
    """An internal mutable global and an internal callee shared by two anchors (constant arguments)."""
    init, k1, k2, c = draw(_SMALL), draw(_SMALL), draw(_SMALL), draw(_ANY)
    noinline = " noinline" if draw(st.booleans()) else ""
    top = (
        f"@{p}counter = internal global i64 {init}",
        "\n".join([
            f"define internal i64 @{p}helper(i64 %x, i64 %k){noinline} {{",
            f"  %c = load i64, ptr @{p}counter",
            "  %n = add i64 %c, %k",
            f"  store i64 %n, ptr @{p}counter",
            "  %m = mul i64 %x, %k",
            f"  %r = xor i64 %m, {c}",
            "  ret i64 %r",
            "}",
        ]),
        _anchor(f"{p}a", [f"  %r = call i64 @{p}helper(i64 %x, i64 {k1})"], "%r"),
        _anchor(f"{p}b", [f"  %r = call i64 @{p}helper(i64 {k2}, i64 %x)"], "%r"),
    )
    main, values = _two_calls(p, draw)
    main.append(f"  %{p}vc = load i64, ptr @{p}counter")
    return Fragment("internal", top, tuple(main), (*values, (f"{p}counter", f"%{p}vc")))


@st.composite
def specialised_copies(draw: st.DrawFn, p: str) -> Fragment:
    """An internal noinline callee that prints its second argument, called with a different
    constant from each of two anchors: in a split build each subgraph's copy is specialised
    (IPSCCP) for its own constant, so the copies must never be merged into one."""
    k1 = draw(_SMALL)
    k2 = draw(_SMALL.filter(lambda k: k != k1))
    lit, size = cstring(f"{p}spec %ld\n")
    top = (
        f"@{p}fmt = private unnamed_addr constant [{size} x i8] {lit}",
        "\n".join([
            f"define internal i64 @{p}spec(i64 %x, i64 %k) noinline {{",
            f"  call i32 (ptr, ...) @printf(ptr @{p}fmt, i64 %k)",
            "  %m = mul i64 %x, %k",
            "  ret i64 %m",
            "}",
        ]),
        _anchor(f"{p}a", [f"  %r = call i64 @{p}spec(i64 %x, i64 {k1})"], "%r"),
        _anchor(f"{p}b", [f"  %r = call i64 @{p}spec(i64 %x, i64 {k2})"], "%r"),
    )
    main, values = _two_calls(p, draw)
    return Fragment("specialised", top, tuple(main), tuple(values))


@st.composite
def private_function(draw: st.DrawFn, p: str) -> Fragment:
    """A private function reading a private string, called from two anchors."""
    text = draw(st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=1, max_size=12))
    lit, size = cstring(text)
    noinline = " noinline" if draw(st.booleans()) else ""
    top = (
        f"@{p}str = private unnamed_addr constant [{size} x i8] {lit}",
        "\n".join([
            f"define private i64 @{p}priv(i64 %x){noinline} {{",
            f"  %i = urem i64 %x, {size}",
            f"  %q = getelementptr [{size} x i8], ptr @{p}str, i64 0, i64 %i",
            "  %c = load i8, ptr %q",
            "  %z = zext i8 %c to i64",
            "  %r = add i64 %z, %x",
            "  ret i64 %r",
            "}",
        ]),
        _anchor(f"{p}a", [f"  %r = call i64 @{p}priv(i64 %x)"], "%r"),
        _anchor(f"{p}b", ["  %y = mul i64 %x, 3", f"  %r = call i64 @{p}priv(i64 %y)"], "%r"),
    )
    main, values = _two_calls(p, draw)
    return Fragment("private", top, tuple(main), tuple(values))


@st.composite
def weak_definitions(draw: st.DrawFn, p: str) -> Fragment:
    """weak / weak_odr / linkonce / linkonce_odr / external functions and globals."""
    fn_link = draw(st.sampled_from(["weak", "weak_odr", "linkonce_odr", "linkonce", "external"]))
    g_link = draw(st.sampled_from(["weak", "weak_odr", "linkonce_odr", "external", "linkonce"]))
    c, v = draw(_ANY), draw(_SMALL)
    fn_l = "" if fn_link == "external" else fn_link + " "
    g_l = "" if g_link == "external" else g_link + " "
    top = (
        f"@{p}g = {g_l}global i64 {v}",
        "\n".join([f"define {fn_l}i64 @{p}fn(i64 %x) {{", f"  %y = mul i64 %x, {c}", "  ret i64 %y", "}"]),
        _anchor(f"{p}a", [f"  %r = call i64 @{p}fn(i64 %x)", f"  %g = load i64, ptr @{p}g", "  %s = add i64 %r, %g"], "%s"),
        _anchor(
            f"{p}b",
            [f"  %r = call i64 @{p}fn(i64 %x)", f"  %g = load i64, ptr @{p}g", "  %s = xor i64 %r, %g",
             f"  store i64 %s, ptr @{p}g"],
            "%s",
        ),
    )
    main, values = _two_calls(p, draw)
    return Fragment(f"weak:{fn_link}/{g_link}", top, tuple(main), tuple(values))


@st.composite
def linkonce_definitions(draw: st.DrawFn, p: str) -> Fragment:
    """Non-ODR `linkonce`: a function (never inlined: another definition may replace it) called
    from two anchors and through a second discardable function, and a global, so each
    subgraph that reaches them needs its own copy (one owner would drop it where unused)."""
    inner_link = draw(st.sampled_from(["linkonce", "linkonce_odr"]))
    g_link = draw(st.sampled_from(["linkonce", "weak", "linkonce_odr"]))
    c, k, v = draw(_ANY), draw(_SMALL), draw(_SMALL)
    top = (
        f"@{p}lg = {g_link} global i64 {v}",
        "\n".join([f"define linkonce i64 @{p}lf(i64 %x) {{", f"  %y = mul i64 %x, {c}", f"  %z = add i64 %y, {k}",
                   "  ret i64 %z", "}"]),
        "\n".join([f"define {inner_link} i64 @{p}lf2(i64 %x) {{", f"  %y = call i64 @{p}lf(i64 %x)",
                   "  %z = xor i64 %y, 7", "  ret i64 %z", "}"]),
        _anchor(f"{p}a", [f"  %r = call i64 @{p}lf(i64 %x)", f"  %g = load i64, ptr @{p}lg", "  %s = add i64 %r, %g"], "%s"),
        _anchor(f"{p}b", [f"  %r = call i64 @{p}lf2(i64 %x)", f"  %g = load i64, ptr @{p}lg", "  %s = xor i64 %r, %g",
                          f"  store i64 %s, ptr @{p}lg"], "%s"),
    )
    main, values = _two_calls(p, draw)
    return Fragment(f"linkonce:{inner_link}/{g_link}", top, tuple(main), tuple(values))


@st.composite
def available_externally(draw: st.DrawFn, p: str) -> Fragment:
    """available_externally function and constant; the real definitions live in the support object."""
    c, d, v = draw(_ANY), draw(_SMALL), draw(_SMALL)
    kind = draw(st.sampled_from(["constant", "global"]))
    body = [f"  %y = mul i64 %x, {c}", f"  %z = add i64 %y, {d}", "  ret i64 %z", "}"]
    top = (
        f"@{p}aeg = available_externally {kind} i64 {v}",
        "\n".join([f"define available_externally i64 @{p}ae(i64 %x) {{", *body]),
        _anchor(f"{p}a", [f"  %r = call i64 @{p}ae(i64 %x)", f"  %g = load i64, ptr @{p}aeg", "  %s = add i64 %r, %g"], "%s"),
        _anchor(f"{p}b", [f"  %r = call i64 @{p}ae(i64 %x)"], "%r"),
    )
    support = (f"@{p}aeg = {kind} i64 {v}", "\n".join([f"define i64 @{p}ae(i64 %x) {{", *body]))
    main, values = _two_calls(p, draw)
    return Fragment("available_externally", top, tuple(main), tuple(values), support=support)


@st.composite
def common_global(draw: st.DrawFn, p: str) -> Fragment:
    """A `common` global written by one anchor and read by another."""
    top = (
        f"@{p}c = common global i64 0, align 8",
        _anchor(f"{p}a", [f"  store i64 %x, ptr @{p}c", "  %y = add i64 %x, 1"], "%y"),
        _anchor(f"{p}b", [f"  %c = load i64, ptr @{p}c", "  %y = mul i64 %c, %x"], "%y"),
    )
    main, values = _two_calls(p, draw)
    return Fragment("common", top, tuple(main), tuple(values))


@st.composite
def visibility(draw: st.DrawFn, p: str) -> Fragment:
    """hidden / protected / default (optionally dso_local) functions and globals."""
    vis_f = draw(st.sampled_from(["hidden", "protected", "", "dso_local", "dso_local hidden"]))
    vis_g = draw(st.sampled_from(["hidden", "protected", "", "dso_local"]))
    v, c = draw(_SMALL), draw(_ANY)
    noinline = " noinline" if draw(st.booleans()) else ""
    top = (
        f"@{p}hg = {vis_g + ' ' if vis_g else ''}global i64 {v}",
        "\n".join([
            f"define {vis_f + ' ' if vis_f else ''}i64 @{p}hf(i64 %x){noinline} {{",
            f"  %g = load i64, ptr @{p}hg",
            f"  %y = xor i64 %x, {c}",
            "  %z = add i64 %y, %g",
            f"  store i64 %z, ptr @{p}hg",
            "  ret i64 %z",
            "}",
        ]),
        _anchor(f"{p}a", [f"  %r = call i64 @{p}hf(i64 %x)"], "%r"),
        _anchor(f"{p}b", [f"  %r = call i64 @{p}hf(i64 %x)", "  %s = shl i64 %r, 1"], "%s"),
    )
    main, values = _two_calls(p, draw)
    return Fragment(f"visibility:{vis_f or 'default'}/{vis_g or 'default'}", top, tuple(main), tuple(values))


@st.composite
def unnamed_addr(draw: st.DrawFn, p: str) -> Fragment:
    """unnamed_addr / local_unnamed_addr constants and functions (never compared by address)."""
    t1 = draw(st.lists(_ANY, min_size=4, max_size=4))
    same = draw(st.booleans())
    t2 = t1 if same else draw(st.lists(_ANY, min_size=4, max_size=4))
    arr1 = ", ".join(f"i64 {x}" for x in t1)
    arr2 = ", ".join(f"i64 {x}" for x in t2)
    kind = draw(st.sampled_from(["unnamed_addr", "local_unnamed_addr"]))
    top = (
        f"@{p}k1 = private unnamed_addr constant [4 x i64] [{arr1}]",
        f"@{p}k2 = internal {kind} constant [4 x i64] [{arr2}]",
        f"@{p}k3 = local_unnamed_addr global i64 {draw(_SMALL)}",
        "\n".join([
            f"define internal i64 @{p}f(i64 %x) {kind} {{",
            "  %i = and i64 %x, 3",
            "  %j = lshr i64 %x, 2",
            "  %j3 = and i64 %j, 3",
            f"  %q1 = getelementptr [4 x i64], ptr @{p}k1, i64 0, i64 %i",
            f"  %q2 = getelementptr [4 x i64], ptr @{p}k2, i64 0, i64 %j3",
            "  %a = load i64, ptr %q1",
            "  %b = load i64, ptr %q2",
            "  %s = add i64 %a, %b",
            "  ret i64 %s",
            "}",
        ]),
        "\n".join([
            f"define i64 @{p}a(i64 %x) local_unnamed_addr {{",
            f"  %r = call i64 @{p}f(i64 %x)",
            f"  %g = load i64, ptr @{p}k3",
            "  %s = add i64 %r, %g",
            "  ret i64 %s",
            "}",
        ]),
        _anchor(f"{p}b", [f"  %r = call i64 @{p}f(i64 %x)", f"  store i64 %r, ptr @{p}k3"], "%r"),
    )
    main, values = _two_calls(p, draw)
    return Fragment(f"unnamed_addr:{kind}", top, tuple(main), tuple(values))


@st.composite
def comdats(draw: st.DrawFn, p: str) -> Fragment:
    """Comdat groups: `any` with linkonce_odr members, weak_odr keyed by itself, `nodeduplicate`."""
    v, c, w = draw(_SMALL), draw(_ANY), draw(_SMALL)
    variant = draw(st.sampled_from(["any", "self", "nodeduplicate"]))
    if variant == "any":
        top: tuple[str, ...] = (
            f"${p}cd = comdat any",
            f"@{p}cdg = linkonce_odr global i64 {v}, comdat(${p}cd)",
            "\n".join([
                f"define linkonce_odr i64 @{p}cdf(i64 %x) comdat(${p}cd) {{",
                f"  %g = load i64, ptr @{p}cdg",
                f"  %y = mul i64 %x, {c}",
                "  %z = add i64 %y, %g",
                "  ret i64 %z",
                "}",
            ]),
        )
    elif variant == "self":
        top = (
            f"${p}cdf = comdat any",
            f"@{p}cdg = weak_odr global i64 {v}, comdat(${p}cdf)",
            "\n".join([
                f"define weak_odr i64 @{p}cdf(i64 %x) comdat {{",
                f"  %g = load i64, ptr @{p}cdg",
                f"  %y = xor i64 %x, {c}",
                "  %z = add i64 %y, %g",
                "  ret i64 %z",
                "}",
            ]),
        )
    else:
        top = (
            f"${p}cdg = comdat nodeduplicate",
            f"@{p}cdg = global i64 {v}, comdat",
            "\n".join([
                f"define i64 @{p}cdf(i64 %x) {{",
                f"  %g = load i64, ptr @{p}cdg",
                f"  %y = sub i64 %x, {c}",
                "  %z = add i64 %y, %g",
                f"  store i64 %z, ptr @{p}cdg",
                "  ret i64 %z",
                "}",
            ]),
        )
    top += (
        _anchor(f"{p}a", [f"  %r = call i64 @{p}cdf(i64 %x)"], "%r"),
        _anchor(f"{p}b", [f"  %r = call i64 @{p}cdf(i64 %x)", f"  %s = add i64 %r, {w}"], "%s"),
    )
    main, values = _two_calls(p, draw)
    return Fragment(f"comdat:{variant}", top, tuple(main), tuple(values))


@st.composite
def aliases(draw: st.DrawFn, p: str) -> Fragment:
    """Aliases of an internal function and of an element inside an internal array (various linkages)."""
    link_f = draw(st.sampled_from(["", "internal ", "private ", "hidden ", "weak ", "weak_odr "]))
    link_g = draw(st.sampled_from(["", "internal ", "private ", "hidden ", "weak "]))
    arr = draw(st.lists(_SMALL, min_size=4, max_size=4))
    c = draw(_ANY)
    top = (
        f"@{p}arr = internal global [4 x i64] [" + ", ".join(f"i64 {x}" for x in arr) + "]",
        f"@{p}alg = {link_g}alias i64, getelementptr (i8, ptr @{p}arr, i64 8)",
        f"@{p}alf = {link_f}alias i64 (i64), ptr @{p}target",
        "\n".join([f"define internal i64 @{p}target(i64 %x) noinline {{", f"  %y = add i64 %x, {c}", "  ret i64 %y", "}"]),
        _anchor(f"{p}a", [f"  %r = call i64 @{p}alf(i64 %x)", f"  %g = load i64, ptr @{p}alg", "  %s = add i64 %r, %g"], "%s"),
        _anchor(f"{p}b", [f"  %r = call i64 @{p}alf(i64 %x)", f"  store i64 %r, ptr @{p}alg"], "%r"),
    )
    main, values = _two_calls(p, draw)
    main.append(f"  %{p}e0 = load i64, ptr @{p}arr")
    return Fragment(f"alias:{link_f.strip() or 'external'}/{link_g.strip() or 'external'}", top, tuple(main),
                    (*values, (f"{p}arr0", f"%{p}e0")))


@st.composite
def thread_locals(draw: st.DrawFn, p: str) -> Fragment:
    """Thread-local globals of several linkages and TLS models, read and written from two anchors."""
    link = draw(st.sampled_from(["internal ", "", "hidden ", "dso_local "]))
    model = draw(st.sampled_from(["", "(localdynamic)", "(initialexec)", "(localexec)"]))
    # the second anchor may reach it through a thread-local alias (declared in other pieces)
    alias = draw(st.sampled_from(["", "internal ", "hidden "]) | st.none())
    v = draw(_SMALL)

    def body(var: str) -> list[str]:
        return [
            f"  %t = call ptr @llvm.threadlocal.address.p0(ptr @{var})",
            "  %v = load i64, ptr %t",
            "  %n = add i64 %v, %x",
            "  store i64 %n, ptr %t",
        ]

    top = (
        f"@{p}tls = {link}thread_local{model} global i64 {v}",
        *([] if alias is None else [f"@{p}tla = {alias}thread_local{model} alias i64, ptr @{p}tls"]),
        _anchor(f"{p}a", body(f"{p}tls"), "%n"),
        _anchor(f"{p}b", [*body(f"{p}tls" if alias is None else f"{p}tla"), "  %m = mul i64 %n, 5"], "%m"),
    )
    main, values = _two_calls(p, draw)
    via = "" if alias is None else "+alias"
    return Fragment(f"tls:{link.strip() or 'external'}{model}{via}", top, tuple(main), tuple(values), decls=(TLS_DECL,))


@st.composite
def constructors(draw: st.DrawFn, p: str) -> Fragment:
    """llvm.global_ctors entries (distinct priorities) logging into a global; an optional printing dtor."""
    count = draw(st.integers(1, 3))
    prios = draw(st.lists(st.integers(101, 65535), min_size=count, max_size=count))
    top: list[str] = [f"@{p}log = internal global i64 1"]
    ctors = []
    for n, prio in enumerate(prios):
        top.append("\n".join([
            f"define internal void @{p}ctor{n}() {{",
            f"  %v = load i64, ptr @{p}log",
            "  %m = mul i64 %v, 10",
            f"  %a = add i64 %m, {n + 1}",
            f"  store i64 %a, ptr @{p}log",
            "  ret void",
            "}",
        ]))
        ctors.append((prio, f"{p}ctor{n}"))
    dtors: tuple[tuple[int, str], ...] = ()
    if draw(st.booleans()):
        lit, size = cstring(f"{p}dtor=%lld\n")
        top.append(f"@{p}dfmt = private unnamed_addr constant [{size} x i8] {lit}")
        top.append("\n".join([
            f"define internal void @{p}dtor() {{",
            f"  %v = load i64, ptr @{p}log",
            f"  call i32 (ptr, ...) @printf(ptr @{p}dfmt, i64 %v)",
            "  ret void",
            "}",
        ]))
        dtors = ((draw(st.integers(101, 65535)), f"{p}dtor"),)
    top.append(_anchor(f"{p}a", [f"  %v = load i64, ptr @{p}log", "  %s = add i64 %v, %x"], "%s"))
    top.append(_anchor(f"{p}b", [f"  %v = load i64, ptr @{p}log", "  %s = mul i64 %v, %x", f"  store i64 %s, ptr @{p}log"], "%s"))
    main, values = _two_calls(p, draw)
    return Fragment("ctors", tuple(top), tuple(main), tuple(values), ctors=tuple(ctors), dtors=dtors)


@st.composite
def private_strings(draw: st.DrawFn, p: str) -> Fragment:
    """Private string constants printed by main and handed out by an anchor."""
    text = draw(st.text(st.characters(min_codepoint=32, max_codepoint=126, exclude_characters="%"), max_size=16))
    lit, size = cstring(f"{p}msg {text}\n")
    top = (
        f"@{p}msg = private unnamed_addr constant [{size} x i8] {lit}",
        "\n".join([f"define ptr @{p}get() {{", f"  ret ptr @{p}msg", "}"]),
        _anchor(f"{p}a", [f"  %c = load i8, ptr @{p}msg", "  %z = zext i8 %c to i64", "  %s = add i64 %z, %x"], "%s"),
        _anchor(
            f"{p}b",
            [f"  %q = getelementptr i8, ptr @{p}msg, i64 1", "  %c = load i8, ptr %q", "  %z = zext i8 %c to i64", "  %s = mul i64 %z, %x"],
            "%s",
        ),
    )
    main, values = _two_calls(p, draw)
    main += [f"  %{p}m = call ptr @{p}get()", f"  call i32 (ptr, ...) @printf(ptr %{p}m)"]
    return Fragment("private-strings", top, tuple(main), tuple(values))


@st.composite
def unnamed_globals(draw: st.DrawFn, p: str) -> Fragment:
    """Unnamed (`@0`-style) globals and an unnamed internal function shared by two anchors."""
    g_kind = draw(st.sampled_from(["private global", "internal global", "private unnamed_addr constant"]))
    v, c = draw(_SMALL), draw(_ANY)
    g = f"@__unnamed_{p[:-1]}_0"
    f = f"@__unnamed_{p[:-1]}_1"
    store = [f"  store i64 %y, ptr {g}"] if "global" in g_kind else []
    top = (
        f"{g} = {g_kind} i64 {v}",
        "\n".join([f"define internal i64 {f}(i64 %x) noinline {{", f"  %g = load i64, ptr {g}",
                   "  %y = add i64 %x, %g", *store, f"  %z = xor i64 %y, {c}", "  ret i64 %z", "}"]),
        _anchor(f"{p}a", [f"  %r = call i64 {f}(i64 %x)"], "%r"),
        _anchor(f"{p}b", [f"  %r = call i64 {f}(i64 %x)", f"  %g = load i64, ptr {g}", "  %s = add i64 %r, %g"], "%s"),
    )
    main, values = _two_calls(p, draw)
    return Fragment(f"unnamed:{g_kind}", top, tuple(main), tuple(values))


@st.composite
def block_addresses(draw: st.DrawFn, p: str) -> Fragment:
    """indirectbr over blockaddress, a table of block addresses, and a user in another function."""
    v0, v1 = draw(_ANY), draw(_ANY)
    table = draw(st.booleans())
    top: list[str] = [
        "\n".join([
            f"define internal i64 @{p}ba(i64 %sel) {{",
            "entry:",
            "  %t = and i64 %sel, 1",
            "  %is0 = icmp eq i64 %t, 0",
            f"  %target = select i1 %is0, ptr blockaddress(@{p}ba, %l0), ptr blockaddress(@{p}ba, %l1)",
            "  indirectbr ptr %target, [label %l0, label %l1]",
            "l0:",
            f"  ret i64 {v0}",
            "l1:",
            f"  ret i64 {v1}",
            "}",
        ]),
        _anchor(f"{p}a", [f"  %r = call i64 @{p}ba(i64 %x)"], "%r"),
    ]
    if table:
        top.insert(0, f"@{p}bt = internal constant [2 x ptr] [ptr blockaddress(@{p}ba, %l0), ptr blockaddress(@{p}ba, %l1)]")
        top.append(_anchor(f"{p}b", [
            f"  %r = call i64 @{p}ba(i64 %x)",
            f"  %e = load ptr, ptr @{p}bt",
            f"  %same = icmp eq ptr %e, blockaddress(@{p}ba, %l0)",
            "  %z = zext i1 %same to i64",
            "  %s = add i64 %r, %z",
        ], "%s"))
    else:
        top.append(_anchor(f"{p}b", ["  %y = add i64 %x, 1", f"  %r = call i64 @{p}ba(i64 %y)"], "%r"))
    main, values = _two_calls(p, draw)
    return Fragment("blockaddress", tuple(top), tuple(main), tuple(values))


@st.composite
def address_taken(draw: st.DrawFn, p: str) -> Fragment:
    """An internal function whose address is stored in a global, returned, compared and called."""
    c = draw(_ANY)
    top = (
        "\n".join([f"define internal i64 @{p}at(i64 %x) noinline {{", f"  %y = add i64 %x, {c}", "  ret i64 %y", "}"]),
        f"@{p}slot = internal global ptr @{p}at",
        "\n".join([f"define ptr @{p}get() {{", f"  ret ptr @{p}at", "}"]),
        _anchor(f"{p}a", [f"  %f = load ptr, ptr @{p}slot", "  %r = call i64 %f(i64 %x)"], "%r"),
        _anchor(f"{p}b", [f"  %f = call ptr @{p}get()", "  %r = call i64 %f(i64 %x)"], "%r"),
    )
    main, values = _two_calls(p, draw)
    main += [
        f"  %{p}fp = call ptr @{p}get()",
        f"  %{p}fs = load ptr, ptr @{p}slot",
        f"  %{p}eq1 = icmp eq ptr %{p}fp, @{p}at",
        f"  %{p}eq2 = icmp eq ptr %{p}fp, %{p}fs",
        f"  %{p}both = and i1 %{p}eq1, %{p}eq2",
        f"  %{p}same = zext i1 %{p}both to i64",
    ]
    return Fragment("address-taken", top, tuple(main), (*values, (f"{p}same", f"%{p}same")))


@st.composite
def ifuncs(draw: st.DrawFn, p: str) -> Fragment:
    """An ifunc with an internal resolver choosing between two internal implementations."""
    c0, c1 = draw(_ANY), draw(_ANY)
    pick = draw(st.integers(0, 1))
    link = draw(st.sampled_from(["", "internal "]))
    top = (
        "\n".join([f"define internal i64 @{p}impl0(i64 %x) {{", f"  %y = mul i64 %x, {c0}", "  ret i64 %y", "}"]),
        "\n".join([f"define internal i64 @{p}impl1(i64 %x) {{", f"  %y = add i64 %x, {c1}", "  ret i64 %y", "}"]),
        "\n".join([f"define internal ptr @{p}resolver() {{", f"  ret ptr @{p}impl{pick}", "}"]),
        f"@{p}if = {link}ifunc i64 (i64), ptr @{p}resolver",
        _anchor(f"{p}a", [f"  %r = call i64 @{p}if(i64 %x)"], "%r"),
        _anchor(f"{p}b", [f"  %r = call i64 @{p}if(i64 %x)", "  %s = xor i64 %r, 77"], "%s"),
    )
    main, values = _two_calls(p, draw)
    return Fragment(f"ifunc:{link.strip() or 'external'}", top, tuple(main), tuple(values))


@st.composite
def extern_weak(draw: st.DrawFn, p: str) -> Fragment:
    """extern_weak declarations nothing defines: they resolve to null."""
    top = (
        f"@{p}missing = extern_weak global i64",
        _anchor(f"{p}a", [f"  %n = icmp eq ptr @{p}missing, null", "  %z = zext i1 %n to i64", "  %s = add i64 %z, %x"], "%s"),
        _anchor(f"{p}b", [f"  %n = icmp ne ptr @{p}missingfn, null", "  %z = zext i1 %n to i64", "  %s = mul i64 %z, %x"], "%s"),
    )
    main, values = _two_calls(p, draw)
    return Fragment("extern_weak", top, tuple(main), tuple(values), decls=(f"declare extern_weak i64 @{p}missingfn(i64)",))


@st.composite
def module_asm(draw: st.DrawFn, p: str) -> Fragment:
    """A data symbol defined by module-level inline assembly, read from two anchors."""
    v = draw(st.integers(0, 2**63 - 1))
    asm = (".pushsection .rodata", f".globl {p}asmv", ".p2align 3", f"{p}asmv:", f".quad {v}", ".popsection")
    top = (
        f"@{p}asmv = external global i64",
        _anchor(f"{p}a", [f"  %g = load i64, ptr @{p}asmv", "  %s = add i64 %g, %x"], "%s"),
        _anchor(f"{p}b", [f"  %g = load i64, ptr @{p}asmv", "  %s = xor i64 %g, %x"], "%s"),
    )
    main, values = _two_calls(p, draw)
    return Fragment("module-asm", top, tuple(main), tuple(values), module_asm=asm)


@st.composite
def exception_handling(draw: st.DrawFn, p: str) -> Fragment:
    """Anchors that `invoke` a shared internal callee with a landing pad and the module's own
    personality function (nothing throws: the EH tables, `.gcc_except_table` and `.Ltmp`
    labels, and the personality reference must survive the split)."""
    k, cleanup = draw(_SMALL), draw(st.sampled_from(["cleanup", "catch ptr null"]))

    def anchor(name: str, arg: str) -> str:
        return "\n".join([
            f"define i64 @{name}(i64 %x) personality ptr @{p}pers {{",
            "entry:",
            f"  %r = invoke i64 @{p}may(i64 {arg}) to label %ok unwind label %lp",
            "ok:",
            "  ret i64 %r",
            "lp:",
            f"  %l = landingpad {{ ptr, i32 }} {cleanup}",
            "  ret i64 -1",
            "}",
        ])

    top = (
        f"define internal i32 @{p}pers(i32 %v, i32 %a, i64 %c, ptr %e, ptr %ctx) {{\n  ret i32 0\n}}",
        f"define internal i64 @{p}may(i64 %x) noinline {{\n  %r = mul i64 %x, {k}\n  ret i64 %r\n}}",
        anchor(f"{p}a", "%x"),
        anchor(f"{p}b", f"{k + 1}"),
    )
    main, values = _two_calls(p, draw)
    return Fragment("eh", top, tuple(main), tuple(values))


# ---------------------------------------------- shapes where split != serial hides
# Each subgraph of a split build is optimised without facts only the whole module has:
# which callees the serial inliner inlines, who reads a field of an internal global, what
# a libcall's constant arguments are once a helper in another subgraph is inlined. These
# fragments put exactly those facts across subgraphs (every anchor lands alone at a small
# --split-cost); the symbol check then sees a libcall folded differently or an undefined
# symbol kept alive, and `tests/test_fuzz_regressions.py` checks inlining on the reduced ones.

def _loop_anchor(name: str, call: str, trip: int, step: int) -> str:
    """An anchor calling `call` (an instruction text using `%acc` and `%i`, result `%h`) in a loop."""
    return "\n".join([
        f"define i64 @{name}(i64 %x) {{",
        "entry:",
        "  br label %loop",
        "loop:",
        "  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]",
        "  %acc = phi i64 [ %x, %entry ], [ %acc.next, %loop ]",
        f"  {call}",
        f"  %acc.next = add i64 %h, {step}",
        "  %i.next = add i64 %i, 1",
        f"  %more = icmp ult i64 %i.next, {trip}",
        "  br i1 %more, label %loop, label %done",
        "done:",
        "  ret i64 %acc.next",
        "}",
    ])


@st.composite
def inlined_helper(draw: st.DrawFn, p: str) -> Fragment:
    """A small helper (internal, exported or hidden) called inside loops from three anchors,
    written the way clang's unoptimised IR is (each value through an alloca), so that it is
    several times larger before SROA than after: the serial build inlines it at every call
    site, and a split build must not call it out of line from the other subgraphs (the
    shape duktape's helpers have; the symbol check sees it only through what inlining folds)."""
    link = draw(st.sampled_from(["internal ", "", "hidden "]))
    padding = draw(PADDING)
    const_k = draw(st.booleans())  # a constant second argument at every call site (inline bonus)
    key = draw(_ANY)
    helper = "\n".join([
        f"define {link}i64 @{p}h(i64 %x, i64 %k) {{",
        "entry:",
        "  %k.addr = alloca i64, align 8",
        "  store i64 %k, ptr %k.addr, align 8",
        "  %k0 = load i64, ptr %k.addr, align 8",
        "  %s = xor i64 %x, %k0",
        *padded("%s", padding),
        f"  %r = add i64 %pad.r, {key}",
        "  ret i64 %r",
        "}",
    ])
    anchors = []
    for n, suffix in enumerate("abc"):
        arg = str(draw(_SMALL)) if const_k else "%i"
        trip, step = draw(st.sampled_from([2, 5, 9])), draw(_SMALL)
        anchors.append(_loop_anchor(f"{p}{suffix}", f"%h = call i64 @{p}h(i64 %acc, i64 {arg})", trip, step + n))
    main, values = _two_calls(p, draw)
    main.append(f"  %{p}vc = call i64 @{p}c(i64 {draw(_ANY)})")
    return Fragment(f"inline-helper:{link.strip() or 'external'}", (helper, *anchors), tuple(main),
                    (*values, (f"{p}c", f"%{p}vc")), decls=LIFETIME_DECLS)


#: the libc function an unread hooks field names, and its declaration
UNREAD_LIBC = {
    "realloc": "declare ptr @realloc(ptr, i64)",
    "calloc": "declare ptr @calloc(i64, i64)",
    "strdup": "declare ptr @strdup(ptr)",
    "puts": "declare i32 @puts(ptr)",
}


@st.composite
def dead_field(draw: st.DrawFn, p: str) -> Fragment:
    """An internal hooks struct `{ malloc, free, <libc fn> }` (cJSON's `global_hooks`) whose
    third field nobody reads, used from two anchors (one allocates and frees through it, one
    frees null), optionally written by a third (`InitHooks`) and passed to an internal
    callee that ignores it: unsplit, GlobalOpt drops the unread field and its undefined
    symbol; split, the global is shared across subgraphs while compiling (`dead-external-ref`)."""
    unread = draw(st.sampled_from(tuple(UNREAD_LIBC)))
    writer, escapes = draw(st.booleans()), draw(st.booleans())
    hooks = f"@{p}hooks"
    ty = "{ ptr, ptr, ptr }"
    top: list[str] = [
        f"{hooks} = internal global {ty} {{ ptr @malloc, ptr @free, ptr @{unread} }}, align 8",
        _anchor(f"{p}a", [
            f"  %m = load ptr, ptr {hooks}, align 8",
            "  %p = call ptr %m(i64 16)",
            "  store i64 %x, ptr %p, align 8",
            "  %v = load i64, ptr %p, align 8",
            f"  %fp = getelementptr inbounds {ty}, ptr {hooks}, i32 0, i32 1",
            "  %f = load ptr, ptr %fp, align 8",
            "  call void %f(ptr %p)",
            "  %r = mul i64 %v, 3",
        ], "%r"),
    ]
    b_body = [f"  %fp = getelementptr inbounds {ty}, ptr {hooks}, i32 0, i32 1", "  %f = load ptr, ptr %fp, align 8",
              "  call void %f(ptr null)", "  %r = add i64 %x, 7"]
    if escapes:
        top.append(f"define internal i64 @{p}keep(ptr %h, i64 %x) noinline {{\n  %y = xor i64 %x, 5\n  ret i64 %y\n}}")
        b_body += [f"  %e = call i64 @{p}keep(ptr {hooks}, i64 %r)"]
    top.append(_anchor(f"{p}b", b_body, "%e" if escapes else "%r"))
    main, values = _two_calls(p, draw)
    if writer:  # cJSON_InitHooks: the allocator field is no longer a constant GlobalOpt can fold
        top.append(f"define void @{p}init(ptr %m) {{\n  store ptr %m, ptr {hooks}, align 8\n  ret void\n}}")
        main.insert(0, f"  call void @{p}init(ptr @malloc)")
    decls = ("declare noalias ptr @malloc(i64)", "declare void @free(ptr)", UNREAD_LIBC[unread])
    variant = unread + ("+writer" if writer else "") + ("+escape" if escapes else "")
    return Fragment(f"dead-field:{variant}", tuple(top), tuple(main), tuple(values), decls=decls)


#: externals only a dead caller's callee names (never called: the programs never take the path)
DEAD_EXTERNALS = {
    "getppid": ("declare i32 @getppid()", "call i32 @getppid()"),
    "umask": ("declare i32 @umask(i32)", "call i32 @umask(i32 18)"),
    "getpgrp": ("declare i32 @getpgrp()", "call i32 @getpgrp()"),
    "sysconf": ("declare i64 @sysconf(i32)", "call i64 @sysconf(i32 30)"),
}
def _external_call_as_w(call: str) -> list[str]:
    """A DEAD_EXTERNALS call as `%e`, widened to the i64 `%w`."""
    ret = call.split()[1]
    return [f"  %e = {call}", f"  %w = sext {ret} %e to i64" if ret != "i64" else "  %w = add i64 %e, 0"]


#: why the gate's call dies serially: a constant argument (IPSCCP), a local fold (`and x, 0`), an
#: internal flag no store sets (GlobalOpt), or a `linkonce_odr` predicate that returns 0, which
#: only the inliner resolves (IPSCCP may not trust such a definition). The first three die in the
#: whole-module prefix before the split; `inlined` dies inside the subgraphs, where the split's own
#: dead-code step (`split.dead_definitions`) must drop `spawn`
DEAD_BECAUSE = ("argument", "local", "flag", "inlined")
DEAD_BECAUSE_DRAWN = ("argument", "local", "inlined")


@st.composite
def dead_caller(draw: st.DrawFn, p: str, because_from: tuple[str, ...] | None = None) -> Fragment:
    """A local function (`spawn`) reachable only from code that dies once the whole module is
    optimised, called from two anchors in other subgraphs, and the one function to name an
    external (`getppid`, `umask`, ...): std's process-spawning code in a fat-LTO Rust module.
    Serially the calls fold away and GlobalDCE deletes `spawn` with its undefined symbol; a
    split build exports `spawn` from its home subgraph while compiling and must still drop
    it once nothing calls it (`split.dead_definitions`). `spawn` is padded past the
    planner's COPY_COST, so it is not copied into the callers' subgraphs."""
    external = draw(st.sampled_from(tuple(DEAD_EXTERNALS)))
    because = draw(st.sampled_from(because_from or DEAD_BECAUSE_DRAWN))
    padding = draw(st.lists(st.tuples(st.sampled_from(("add", "xor", "mul")), _SMALL), min_size=12, max_size=24))
    decl, call = DEAD_EXTERNALS[external]
    spawn = "\n".join([
        f"define internal i64 @{p}spawn(i64 %x) noinline {{",
        "entry:",
        *_external_call_as_w(call),
        "  %y = xor i64 %x, %w",
        *padded("%y", padding),
        "  ret i64 %pad.r",
        "}",
    ])
    top: list[str] = [spawn]
    # the anchors call a small gate (copied into each caller's subgraph) that calls `spawn`
    # only when the test holds: anchors calling `spawn` directly would share one subgraph
    test = {
        "flag": [f"  %m = load i64, ptr @{p}mode, align 8", "  %c = icmp ne i64 %m, 0"],
        "argument": ["  %c = icmp ne i64 %mode, 0"],
        "local": ["  %z = and i64 %x, 0", "  %c = icmp ne i64 %z, 0"],
        "inlined": [f"  %m = call i64 @{p}mode_of()", "  %c = icmp ne i64 %m, 0"],
    }[because]
    if because == "flag":
        top.insert(0, f"@{p}mode = internal global i64 0, align 8")
    if because == "inlined":
        top.insert(0, f"define linkonce_odr i64 @{p}mode_of() {{\nentry:\n  ret i64 0\n}}")
    top.append("\n".join([
        f"define internal i64 @{p}gate(i64 %x, i64 %mode) {{",
        "entry:",
        *test,
        "  br i1 %c, label %dead, label %live",
        "dead:",
        f"  %s = call i64 @{p}spawn(i64 %x)",
        "  br label %live",
        "live:",
        "  %r = phi i64 [ %s, %dead ], [ %x, %entry ]",
        "  ret i64 %r",
        "}",
    ]))
    for suffix, (op, k) in zip("ab", (("mul", draw(_SMALL)), ("add", draw(_SMALL))), strict=True):
        body = [f"  %s = call i64 @{p}gate(i64 %x, i64 0)", f"  %r = {op} i64 %s, {k}"]
        top.append(_anchor(f"{p}{suffix}", body, "%r"))
    main, values = _two_calls(p, draw)
    return Fragment(f"dead-caller:{because}/{external}", tuple(top), tuple(main), tuple(values), decls=(decl, *LIFETIME_DECLS))


@st.composite
def dead_capture(draw: st.DrawFn, p: str) -> Fragment:
    """std's output capture (rust-markdown): an internal flag `used` whose only store sits on a
    branch that runs only when the flag is already set, or when `try_set` gets a non-zero value,
    which only a call after a non-zero result of `try_set` passes. The whole module's IPSCCP
    proves the branch never runs, and with it the one call of an external (`getppid`, ...);
    `try_set` is small, so the plan copies it into both anchors' subgraphs, where the flag is
    another subgraph's (or exported) and no subgraph's IPSCCP can track it. Serially the call
    goes; the split back end before its whole-module prefix kept it (`+ UND`)."""
    external = draw(st.sampled_from(tuple(DEAD_EXTERNALS)))
    decl, call = DEAD_EXTERNALS[external]
    k1, k2 = draw(_SMALL), draw(_SMALL)
    top = [
        f"@{p}used = internal global i64 0, align 8",
        "\n".join([
            f"define internal i64 @{p}try_set(i64 %v) {{",
            "entry:",
            "  %isz = icmp eq i64 %v, 0",
            "  br i1 %isz, label %check, label %set",
            "check:",
            f"  %u = load i64, ptr @{p}used, align 8",
            "  %z = icmp eq i64 %u, 0",
            "  br i1 %z, label %none, label %set",
            "none:",
            "  ret i64 0",
            "set:",
            f"  store i64 1, ptr @{p}used, align 8",
            *_external_call_as_w(call),
            "  %o = or i64 %w, 1",
            "  ret i64 %o",
            "}",
        ]),
        _anchor(f"{p}a", [f"  %r = call i64 @{p}try_set(i64 0)", f"  %s = mul i64 %x, {k1}", "  %t = add i64 %s, %r"], "%t"),
        "\n".join([
            f"define i64 @{p}b(i64 %x) {{",
            "entry:",
            f"  %r = call i64 @{p}try_set(i64 0)",
            "  %c = icmp ne i64 %r, 0",
            "  br i1 %c, label %captured, label %direct",
            "captured:",
            f"  %r2 = call i64 @{p}try_set(i64 %r)",
            "  br label %direct",
            "direct:",
            "  %m = phi i64 [ %r2, %captured ], [ 0, %entry ]",
            f"  %y = add i64 %x, {k2}",
            "  %t = xor i64 %y, %m",
            "  ret i64 %t",
            "}",
        ]),
    ]
    main, values = _two_calls(p, draw)
    return Fragment(f"dead-capture:{external}", tuple(top), tuple(main), tuple(values), decls=(decl,))


#: how a constant format reaches printf: what the serial build folds it to after inlining
LIBCALL_FORMATS = ("line", "char", "s-line")


@st.composite
def libcall_shape(draw: st.DrawFn, p: str) -> Fragment:
    """A constant format string reaching `printf` through a small helper another subgraph
    owns: `get` returns the format (the caller prints it), `say` takes it and prints it.
    Serially the helper is inlined and the call folds (`printf("x\\n")` -> `puts`, a one-char
    format -> `putchar`, `printf("%s\\n", s)` -> `puts`); split, the same must happen, or the
    object's undefined symbols differ. The helper may be padded the way clang's unoptimised
    IR is, to move it across the size where a split build stops copying or importing it."""
    role = draw(st.sampled_from(["get", "say"]))
    fmt = draw(st.sampled_from(LIBCALL_FORMATS))
    link = draw(st.sampled_from(["internal ", "", "hidden "]))
    padding = draw(PADDING)
    text = draw(st.text(st.characters(min_codepoint=32, max_codepoint=126, exclude_characters="%"), max_size=10))
    char = draw(st.characters(min_codepoint=33, max_codepoint=126, exclude_characters="%"))
    fmt_text = {"line": f"{p}{text}\n", "char": char, "s-line": "%s\n"}[fmt]
    lit, size = cstring(fmt_text)
    arg_lit, arg_size = cstring(f"{p}arg {text}")
    top: list[str] = [f"@{p}fmt = private unnamed_addr constant [{size} x i8] {lit}"]
    extra = ""
    if fmt == "s-line":
        top.append(f"@{p}arg = private unnamed_addr constant [{arg_size} x i8] {arg_lit}")
        extra = f", ptr @{p}arg"
    # the padding computes a value the helper returns too, so it is not dead code
    pad = padded("%x", padding)
    if role == "get":
        top.append("\n".join([f"define {link}ptr @{p}get(i64 %x, ptr %out) {{", "entry:", *pad,
                               "  store i64 %pad.r, ptr %out, align 8", f"  ret ptr @{p}fmt", "}"]))
        call = ["  %out = alloca i64, align 8", f"  %s = call ptr @{p}get(i64 %x, ptr %out)",
                f"  call i32 (ptr, ...) @printf(ptr %s{extra})"]
    else:
        top.append("\n".join([f"define {link}i64 @{p}say(ptr %s, i64 %x) {{", "entry:",
                               f"  call i32 (ptr, ...) @printf(ptr %s{extra})", *pad, "  ret i64 %pad.r", "}"]))
        call = [f"  %r = call i64 @{p}say(ptr @{p}fmt, i64 %x)", "  %out = alloca i64, align 8",
                "  store i64 %r, ptr %out, align 8"]
    top.append(_anchor(f"{p}a", [*call, "  %v = load i64, ptr %out, align 8", "  %w = add i64 %v, 1"], "%w"))
    top.append(_anchor(f"{p}b", [*call, "  %v = load i64, ptr %out, align 8", "  %w = mul i64 %v, 3"], "%w"))
    main, values = _two_calls(p, draw)
    return Fragment(f"libcall-shape:{role}/{fmt}/{link.strip() or 'external'}", tuple(top), tuple(main), tuple(values),
                    decls=LIFETIME_DECLS)


FEATURES = {
    "internal": internal_shared,
    "specialised": specialised_copies,
    "private": private_function,
    "weak": weak_definitions,
    "linkonce": linkonce_definitions,
    "available_externally": available_externally,
    "common": common_global,
    "visibility": visibility,
    "unnamed_addr": unnamed_addr,
    "comdat": comdats,
    "alias": aliases,
    "tls": thread_locals,
    "ctors": constructors,
    "private-strings": private_strings,
    "unnamed": unnamed_globals,
    "blockaddress": block_addresses,
    "address-taken": address_taken,
    "ifunc": ifuncs,
    "extern_weak": extern_weak,
    "eh": exception_handling,
    "inline-helper": inlined_helper,
    "dead-field": dead_field,
    "libcall-shape": libcall_shape,
    "dead-caller": dead_caller,
    "dead-capture": dead_capture,
}
if platform.machine() in ("x86_64", "AMD64", "aarch64", "arm64"):
    FEATURES["module-asm"] = module_asm


@st.composite
def linkage_modules(
    draw: st.DrawFn, max_fragments: int = 6, features: tuple[str, ...] | None = None, every: bool = False
) -> LinkageModule:
    """A module made of 1..max_fragments feature fragments (feature names drawn first); with
    `every`, one fragment of each of `features` first, then up to `max_fragments` in all."""
    pool = features or tuple(FEATURES)
    first = list(pool) if every else []
    names = first + draw(
        st.lists(st.sampled_from(pool), min_size=0 if first else 1, max_size=max(0, max_fragments - len(first))),
        label="features",
    )
    return LinkageModule(tuple(draw(FEATURES[name](f"k{n}_")) for n, name in enumerate(names)))
