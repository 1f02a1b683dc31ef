"""Random Ember programs with `@kernel` functions: race-free, trap-free, terminating.

Each program picks an element type (`Int`, `Int32` or `Float64`), 1 to 3 kernels and a
sequence of launches that ping-pong between two buffers (one launch reads what the
previous one wrote, so a launch that loses its writes shows). A kernel is 1-D (`i =
global_idx_x()`) or 2-D (`i = y * w + x`), guards its index against the element count,
reads its input buffer at `i` and at a neighbour, and writes its output at `i` only:
no two threads write one element and no thread reads what another writes. Expressions
mix the element, the thread/block indices, the scalar arguments (`Int`, `Bool`, `Int8`)
and a helper shared with the host; integer division and remainder are by positive
constants. Grids may be larger than needed (extra threads skip the guard). `main`
prints both buffers, element by element.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

ELEMENT_TYPES = ("Int", "Int32", "Float64")
_INT_OPS = ("+", "-", "*", "^", "&", "|")
_FLOAT_OPS = ("+", "-", "*")


@dataclass(frozen=True)
class Kernel:
    """One kernel: its two expressions (taken when `flag` is true / false) and its shape."""

    then_expr: str
    else_expr: str
    two_d: bool


@dataclass(frozen=True)
class LaunchStep:
    """One launch: which kernel, direction (a->b or b->a), scalar arguments, configuration."""

    kernel: int
    forward: bool
    c: int
    flag: bool
    s: int
    block: int
    extra_blocks: int


@dataclass(frozen=True)
class KernelProgram:
    elem: str
    n: int
    width: int
    kernels: tuple[Kernel, ...]
    launches: tuple[LaunchStep, ...]
    use_helper: bool

    def render(self) -> str:
        return render(self)

    def __repr__(self) -> str:  # Hypothesis prints the source of a falsifying example
        return "KernelProgram(source=\n" + self.render() + ")"


def _conv(elem: str, int_expr: str) -> str:
    """An Int expression as the element type."""
    return int_expr if elem == "Int" else f"{elem}({int_expr})"


@st.composite
def _expressions(draw: st.DrawFn, elem: str, use_helper: bool, depth: int = 2) -> str:
    """An expression of type `elem` over `v` (the element), `u` (its neighbour), the indices and scalars."""
    leaves = ["v", "u", _conv(elem, "i"), _conv(elem, "c"), _conv(elem, "Int(s)")]
    leaves += [_conv(elem, "thread_idx_x()"), _conv(elem, "block_idx_x()"), _conv(elem, "block_dim_x()")]
    if elem == "Float64":
        leaves += ["0.5", "1.25", "-2.0"]
    else:
        literal = draw(st.integers(-9, 9))
        leaves.append(str(literal) if literal >= 0 else f"({literal})")
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        leaf = draw(st.sampled_from(leaves))
        return f"({leaf})" if leaf.startswith("-") else leaf
    a = draw(_expressions(elem, use_helper, depth - 1))
    b = draw(_expressions(elem, use_helper, depth - 1))
    form = draw(st.integers(0, 5))
    if elem != "Float64" and form == 4:
        return f"(({a}) // {draw(st.integers(2, 7))})"
    if elem != "Float64" and form == 5:
        return f"(({a}) % {draw(st.integers(2, 7))})"
    if use_helper and elem == "Int" and form == 3:
        return f"h({a}, c)"
    if form == 2:
        return f"{draw(st.sampled_from(('min', 'max')))}({a}, {b})"
    op = draw(st.sampled_from(_FLOAT_OPS if elem == "Float64" else _INT_OPS))
    return f"({a} {op} {b})"


@st.composite
def kernel_programs(draw: st.DrawFn, max_kernels: int = 3) -> KernelProgram:
    """A random kernel program (shrinks towards one 1-D kernel, one launch, small buffers)."""
    elem = draw(st.sampled_from(ELEMENT_TYPES), label="element type")
    use_helper = draw(st.booleans())
    count = draw(st.integers(1, max_kernels))
    kernels = tuple(
        Kernel(draw(_expressions(elem, use_helper)), draw(_expressions(elem, use_helper)), draw(st.booleans()))
        for _ in range(count)
    )
    width = draw(st.integers(1, 5))
    n = width * draw(st.integers(1, 6))
    launches = tuple(
        LaunchStep(
            kernel=draw(st.integers(0, count - 1)),
            forward=step % 2 == 0,
            c=draw(st.integers(-50, 50)),
            flag=draw(st.booleans()),
            s=draw(st.integers(-128, 127)),
            block=draw(st.integers(1, 8)),
            extra_blocks=draw(st.integers(0, 2)),
        )
        for step in range(draw(st.integers(1, 4)))
    )
    return KernelProgram(elem, n, width, kernels, launches, use_helper)


def _render_kernel(index: int, k: Kernel, elem: str) -> list[str]:
    lines = ["@kernel", f"def k{index}(out: Buffer[{elem}], inp: Buffer[{elem}], n: Int, w: Int, c: Int, flag: Bool, s: Int8) -> None:"]
    if k.two_d:
        lines += ["    x = global_idx_x()", "    y = global_idx_y()", "    i = y * w + x", "    if x < w and i < n:"]
    else:
        lines += ["    i = global_idx_x()", "    if i < n:"]
    lines += [
        "        v = inp[i]",
        "        u = inp[(i + 1) % n]",
        "        if flag:",
        f"            out[i] = {k.then_expr}",
        "        else:",
        f"            out[i] = {k.else_expr}",
    ]
    return lines


def _configuration(step: LaunchStep, k: Kernel, n: int, width: int) -> str:
    if k.two_d:
        bx = min(step.block, width)
        gx = (width + bx - 1) // bx + step.extra_blocks
        gy = n // width
        return f"({gx}, {gy}), ({bx}, 1)"
    grid = (n + step.block - 1) // step.block + step.extra_blocks
    return f"{grid}, {step.block}"


def render(prog: KernelProgram) -> str:
    """Ember source for `prog` (deterministic)."""
    elem = prog.elem
    blocks = []
    if prog.use_helper:
        blocks.append("def h(a: Int, b: Int) -> Int:\n    return a * 3 + (b ^ 5)")
    blocks += ["\n".join(_render_kernel(i, k, elem)) for i, k in enumerate(prog.kernels)]
    init = "Float64(i) * 0.75 - 2.0" if elem == "Float64" else _conv(elem, "(i * 37) % 101 - 50")
    main = [
        "def main() -> Int:",
        f"    n: Int = {prog.n}",
        f"    a = Buffer[{elem}](n)",
        f"    b = Buffer[{elem}](n)",
        "    for i in range(n):",
        f"        a[i] = {init}",
    ]
    if prog.use_helper:
        main.append('    print("h", h(2, 3))')  # the helper runs on the host too
    for step in prog.launches:
        k = prog.kernels[step.kernel]
        out, inp = ("b", "a") if step.forward else ("a", "b")
        config = _configuration(step, k, prog.n, prog.width)
        main.append(
            f"    k{step.kernel}[{config}]({out}, {inp}, n, {prog.width}, {step.c}, {step.flag}, Int8({step.s}))"
        )
    main += ["    for i in range(n):", "        print(i, a[i], b[i])", "    return 0"]
    blocks.append("\n".join(main))
    return "\n\n\n".join(blocks) + "\n"


def kernel_sources(max_kernels: int = 3) -> st.SearchStrategy[str]:
    """Ember source text of random kernel programs."""
    return kernel_programs(max_kernels).map(render)
