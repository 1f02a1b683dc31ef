"""Code the way clang's unoptimised IR writes it: values through allocas, lifetime markers.

The split != serial shapes (docs/fuzzing.md) hinge on a helper whose size before simplification is
several times its size after: the serial inliner judges the simplified body and inlines
it, a split build that counts the raw body neither copies nor imports it. The call-graph
and linkage generators pad helpers with these steps (`padding`) to put them on both
sides of that line.
"""

from __future__ import annotations

from hypothesis import strategies as st

#: what the padded code needs declared (LLVM 22's one-argument lifetime markers)
LIFETIME_DECLS = ("declare void @llvm.lifetime.start.p0(ptr)", "declare void @llvm.lifetime.end.p0(ptr)")
PAD_OPS = ("add", "xor", "mul", "sub", "or")
_STEP = st.tuples(st.sampled_from(PAD_OPS), st.integers(-100, 1000))
#: a few steps, or 12-40: 70-250 instructions before SROA (past the planner's COPY_COST of 60
#: for an internal callee, and up to past its IMPORT_COST of 200 for an exported one) but
#: 12-40 after, under the -O2 inliner's threshold (~45 simple instructions)
PADDING = st.one_of(st.lists(_STEP, max_size=8), st.lists(_STEP, min_size=12, max_size=40))


def padded(arg: str, padding: list[tuple[str, int]] | tuple[tuple[str, int], ...]) -> list[str]:
    """Instructions that run `arg` through one alloca per step, the way clang's unoptimised
    IR keeps locals (an alloca, lifetime markers, a store and a load each): six
    instructions per step to a size count, one after SROA. The result is in `%pad.r`;
    the names are `%pad.*`, so one function holds one padded sequence."""
    steps = len(padding)
    lines = [f"  %pad.t{n} = alloca i64, align 8" for n in range(steps + 1)]
    lines += ["  call void @llvm.lifetime.start.p0(ptr %pad.t0)", f"  store i64 {arg}, ptr %pad.t0, align 8"]
    for n, (op, c) in enumerate(padding):
        lines += [
            f"  call void @llvm.lifetime.start.p0(ptr %pad.t{n + 1})",
            f"  %pad.l{n} = load i64, ptr %pad.t{n}, align 8",
            f"  %pad.o{n} = {op} i64 %pad.l{n}, {c}",
            f"  store i64 %pad.o{n}, ptr %pad.t{n + 1}, align 8",
            f"  call void @llvm.lifetime.end.p0(ptr %pad.t{n})",
        ]
    return [*lines, f"  %pad.r = load i64, ptr %pad.t{steps}, align 8", f"  call void @llvm.lifetime.end.p0(ptr %pad.t{steps})"]
