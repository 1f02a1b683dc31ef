"""A seeded generator of large, realistic LLVM IR modules for split tests and benchmarks.

Layered call DAGs (shared internal callees reached from many anchors), internal mutable
globals read and written from several anchors, constant tables, an address-taken
function table called indirectly, a global constructor, and a `main` that calls every
anchor and prints a checksum, so a miscompile shows as a different output. With
`helper_steps`, every loop also calls one small internal `@helper` written the way
clang's unoptimised IR is (the inlined-helper shape: the serial build inlines it
in every function, so a split build that calls it out of line runs more instructions).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from fuzz.strategies.unoptimised import LIFETIME_DECLS, PAD_OPS, padded


@dataclass(frozen=True)
class ModuleShape:
    """Knobs for one generated module."""

    functions: int = 200
    anchor_ratio: float = 0.2
    layers: int = 8
    max_callees: int = 2
    globals: int = 8
    table_size: int = 4
    loop_trip: int = 6
    body_ops: int = 10
    main_repeat: int = 1  # >1 makes the program compute-heavy (runtime benchmarks)
    helper_steps: int = 0  # >0: every loop calls a padded internal @helper of this many steps


def generate(seed: int, shape: ModuleShape = ModuleShape()) -> str:
    """LLVM IR text for a module of `shape.functions` functions (deterministic in `seed`)."""
    rng = random.Random(seed)
    n = max(shape.functions, 4)
    layer_of = sorted(rng.randrange(shape.layers) for _ in range(n))
    anchors = {i for i in range(n) if rng.random() < shape.anchor_ratio} | {0}
    names = [f"exp_{i}" if i in anchors else f"int_{i}" for i in range(n)]
    table = sorted(rng.sample([i for i in range(n) if i not in anchors], min(shape.table_size, n - len(anchors))))
    lines = [
        '@.fmt = private unnamed_addr constant [18 x i8] c"checksum %016llx\\0A\\00"',
        "@ctor_seed = internal global i64 0",
        "@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] "
        "[{ i32, ptr, ptr } { i32 65535, ptr @ember_gen_ctor, ptr null }]",
    ]
    for g in range(shape.globals):
        lines.append(f"@g{g} = internal global i64 {rng.randrange(1, 1000)}")
    lines.append(
        "@ctab = internal constant [8 x i64] ["
        + ", ".join(f"i64 {rng.randrange(1, 1 << 20)}" for _ in range(8))
        + "]"
    )
    if table:
        lines.append(
            f"@ftab = internal constant [{len(table)} x ptr] [" + ", ".join(f"ptr @{names[i]}" for i in table) + "]"
        )
    lines.append("declare i32 @printf(ptr, ...)")
    if shape.helper_steps > 0:
        lines.extend(LIFETIME_DECLS)
        lines.append(_helper(random.Random(seed ^ 0x5EED), shape.helper_steps))
    lines.append(
        "define internal void @ember_gen_ctor() {\n  store i64 12345, ptr @ctor_seed\n  ret void\n}"
    )
    for i in range(n):
        lines.append(_function(rng, i, names, layer_of, shape, table))
    lines.append(_main(rng, names, anchors, shape))
    return "\n".join(lines) + "\n"


def _helper(rng: random.Random, steps: int) -> str:
    """The padded helper (its own generator, so modules without it are unchanged)."""
    padding = [(rng.choice(PAD_OPS), rng.randrange(1, 1000)) for _ in range(steps)]
    return "\n".join(["define internal i64 @helper(i64 %x, i64 %k) {", "entry:", "  %s = xor i64 %x, %k",
                      *padded("%s", padding), "  ret i64 %pad.r", "}"])


def _function(
    rng: random.Random, i: int, names: list[str], layer_of: list[int], shape: ModuleShape, table: list[int]
) -> str:
    linkage = "" if names[i].startswith("exp_") else "internal "
    attrs = " noinline" if rng.random() < 0.1 else ""
    body = [f"define {linkage}i64 @{names[i]}(i64 %a, i64 %b){attrs} {{", "entry:", "  br label %loop", "loop:"]
    body.append("  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]")
    body.append("  %acc = phi i64 [ %a, %entry ], [ %acc.next, %loop ]")
    cur = "%acc"
    ops = ["add", "sub", "mul", "xor", "and", "or", "shl", "lshr"]
    for k in range(shape.body_ops):
        op = rng.choice(ops)
        operand = "%b" if rng.random() < 0.3 else "%i" if rng.random() < 0.3 else str(rng.randrange(1, 63))
        if op in ("shl", "lshr"):
            operand = str(rng.randrange(1, 13))
        body.append(f"  %v{k} = {op} i64 {cur}, {operand}")
        cur = f"%v{k}"
    if shape.helper_steps > 0:
        body.append(f"  %hc = call i64 @helper(i64 {cur}, i64 %i)")
        cur = "%hc"
    body.append(f"  %acc.next = add i64 {cur}, 7")
    body.append("  %i.next = add i64 %i, 1")
    body.append(f"  %done = icmp eq i64 %i.next, {shape.loop_trip}")
    body.append("  br i1 %done, label %exit, label %loop")
    body.append("exit:")
    result = "%acc.next"
    later = [j for j in range(i + 1, len(names)) if layer_of[j] > layer_of[i]]
    callees = rng.sample(later, min(len(later), rng.randrange(shape.max_callees + 1))) if later else []
    for c, j in enumerate(callees):
        body.append(f"  %c{c} = call i64 @{names[j]}(i64 {result}, i64 {rng.randrange(0, 100)})")
        body.append(f"  %r{c} = xor i64 {result}, %c{c}")
        result = f"%r{c}"
    if rng.random() < 0.3:
        g = rng.randrange(shape.globals)
        body.append(f"  %gl = load i64, ptr @g{g}")
        body.append(f"  %gs = add i64 %gl, {result}")
        body.append(f"  store i64 %gs, ptr @g{g}")
    if rng.random() < 0.2:
        body.append(f"  %ix = and i64 {result}, 7")
        body.append("  %cp = getelementptr [8 x i64], ptr @ctab, i64 0, i64 %ix")
        body.append("  %cv = load i64, ptr %cp")
        body.append(f"  %ct = add i64 {result}, %cv")
        result = "%ct"
    if table and rng.random() < 0.1 and all(t > i for t in table):
        body.append(f"  %fi = urem i64 {result}, {len(table)}")
        body.append(f"  %fp = getelementptr [{len(table)} x ptr], ptr @ftab, i64 0, i64 %fi")
        body.append("  %fn = load ptr, ptr %fp")
        body.append(f"  %fr = call i64 %fn(i64 {result}, i64 3)")
        body.append(f"  %ff = add i64 {result}, %fr")
        result = "%ff"
    body.append(f"  ret i64 {result}")
    body.append("}")
    return "\n".join(body)


def _main(rng: random.Random, names: list[str], anchors: set[int], shape: ModuleShape) -> str:
    body = ["define i32 @main() {", "entry:", "  %seed = load i64, ptr @ctor_seed", "  br label %rep", "rep:"]
    body.append("  %r = phi i64 [ 0, %entry ], [ %r.next, %rep ]")
    body.append("  %sum0 = phi i64 [ %seed, %entry ], [ %sumN, %rep ]")
    cur = "%sum0"
    for k, i in enumerate(sorted(anchors)):
        body.append(f"  %x{k} = call i64 @{names[i]}(i64 {cur}, i64 {rng.randrange(1, 50)})")
        body.append(f"  %s{k} = add i64 {cur}, %x{k}")
        cur = f"%s{k}"
    for g in range(shape.globals):
        body.append(f"  %gv{g} = load i64, ptr @g{g}")
        body.append(f"  %gs{g} = xor i64 {cur}, %gv{g}")
        cur = f"%gs{g}"
    body.append(f"  %sumN = add i64 {cur}, %r")
    body.append("  %r.next = add i64 %r, 1")
    body.append(f"  %again = icmp ult i64 %r.next, {max(shape.main_repeat, 1)}")
    body.append("  br i1 %again, label %rep, label %done")
    body.append("done:")
    body.append("  call i32 (ptr, ...) @printf(ptr @.fmt, i64 %sumN)")
    body.append("  ret i32 0")
    body.append("}")
    return "\n".join(body)
