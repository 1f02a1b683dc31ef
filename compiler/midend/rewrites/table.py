"""Ember's own arith rewrites, declared once. The midend applies them (`ember-rewrites`),
`ember verify` proves each for every width 1..64 and for `index` at 32 and 64 bits.

Phases: `simplify` patterns run first, then `lower` patterns (expansions of ops into
cheaper ones); `helper` entries are never matched: they are the verified expansions the
frontend instantiates with `build_helper` (Python's `%`, whose spec op `floormodsi`
has no MLIR counterpart).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rewrite:
    """One table row: a name, the DSL text, the phase and a one-line description."""

    name: str
    text: str
    doc: str
    phase: str = "simplify"


# The floor-division fix-up: the truncated quotient is one too big when the remainder is
# non-zero and has the other sign than the divisor.
_FLOOR_FIXUP = "andi(cmpi[ne](remsi(a, b), 0), xori(cmpi[slt](remsi(a, b), 0), cmpi[slt](b, 0)))"
_CEIL_FIXUP = "andi(cmpi[ne](remsi(a, b), 0), cmpi[eq](cmpi[slt](remsi(a, b), 0), cmpi[slt](b, 0)))"
# Python's `%` from the unsigned remainder of the magnitudes (never UB except for a zero
# divisor: remsi INT_MIN, -1 is UB once lowered to LLVM's srem), then the sign fix-up.
_ABS_A = "select(cmpi[slt](a, 0), subi(0, a), a)"
_ABS_B = "select(cmpi[slt](b, 0), subi(0, b), b)"
_UREM = f"remui({_ABS_A}, {_ABS_B})"
_FLOOR_MOD = (
    f"select(cmpi[eq]({_UREM}, 0), {_UREM}, "
    f"select(cmpi[slt](b, 0), select(cmpi[slt](a, 0), subi(0, {_UREM}), addi({_UREM}, b)), "
    f"select(cmpi[slt](a, 0), subi(b, {_UREM}), {_UREM})))"
)

REWRITES: tuple[Rewrite, ...] = (
    # --- algebraic identities
    Rewrite("add-zero", "addi(x, 0) => x", "x + 0 -> x"),
    Rewrite("sub-zero", "subi(x, 0) => x", "x - 0 -> x"),
    Rewrite("sub-self", "subi(x, x) => 0", "x - x -> 0"),
    Rewrite("sub-const", "subi(x, C) => addi(x, -C)", "x - C -> x + (-C) (flags dropped)"),
    Rewrite("neg-neg", "subi(0, subi(0, x)) => x", "-(-x) -> x"),
    Rewrite("add-sub-cancel", "addi(subi(x, y), y) => x", "(x - y) + y -> x"),
    Rewrite("sub-add-cancel", "subi(addi(x, y), y) => x", "(x + y) - y -> x"),
    Rewrite("mul-one", "muli(x, 1) => x", "x * 1 -> x"),
    Rewrite("mul-zero", "muli(x, 0) => 0", "x * 0 -> 0"),
    Rewrite("mul-minus-one", "muli(x, -1) => subi(0, x)", "x * -1 -> 0 - x (flags dropped)"),
    Rewrite("and-self", "andi(x, x) => x", "x & x -> x"),
    Rewrite("and-zero", "andi(x, 0) => 0", "x & 0 -> 0"),
    Rewrite("and-ones", "andi(x, -1) => x", "x & -1 -> x"),
    Rewrite("or-self", "ori(x, x) => x", "x | x -> x"),
    Rewrite("or-zero", "ori(x, 0) => x", "x | 0 -> x"),
    Rewrite("or-ones", "ori(x, -1) => -1", "x | -1 -> -1"),
    Rewrite("xor-self", "xori(x, x) => 0", "x ^ x -> 0"),
    Rewrite("xor-zero", "xori(x, 0) => x", "x ^ 0 -> x"),
    Rewrite("xor-xor-cancel", "xori(xori(x, y), y) => x", "(x ^ y) ^ y -> x"),
    Rewrite("not-not", "xori(xori(x, -1), -1) => x", "~~x -> x"),
    Rewrite("divsi-one", "divsi(x, 1) => x", "x / 1 -> x (signed)"),
    Rewrite("divui-one", "divui(x, 1) => x", "x / 1 -> x (unsigned)"),
    Rewrite("floordivsi-one", "floordivsi(x, 1) => x", "x // 1 -> x"),
    Rewrite("remsi-one", "remsi(x, 1) => 0", "x % 1 -> 0 (signed)"),
    Rewrite("remui-one", "remui(x, 1) => 0", "x % 1 -> 0 (unsigned)"),
    Rewrite("shli-zero", "shli(x, 0) => x", "x << 0 -> x"),
    Rewrite("shrui-zero", "shrui(x, 0) => x", "x >>u 0 -> x"),
    Rewrite("shrsi-zero", "shrsi(x, 0) => x", "x >>s 0 -> x"),
    Rewrite("cmpi-eq-self", "cmpi[eq](x, x) => 1", "x == x -> true"),
    Rewrite("cmpi-ne-self", "cmpi[ne](x, x) => 0", "x != x -> false"),
    Rewrite("cmpi-slt-self", "cmpi[slt](x, x) => 0", "x <s x -> false"),
    Rewrite("cmpi-ule-self", "cmpi[ule](x, x) => 1", "x <=u x -> true"),
    # --- constant reassociation (flags are kept only where they provably still hold)
    Rewrite("add-of-add", "addi(addi(x, C0), C1) => addi(x, C0 + C1)", "(x + C0) + C1 -> x + (C0 + C1), flags dropped"),
    Rewrite(
        "add-of-add-nsw",
        "addi[nsw, ?nuw](addi[nsw, ?nuw](x, C0), C1) => addi[nsw, ?nuw](x, C0 + C1) if sadd_ok(C0, C1)",
        "(x +nsw C0) +nsw C1 -> x +nsw (C0 + C1) when C0 + C1 does not overflow",
    ),
    Rewrite(
        "add-of-add-nuw",
        "addi[nuw](addi[nuw](x, C0), C1) => addi[nuw](x, C0 + C1)",
        "(x +nuw C0) +nuw C1 -> x +nuw (C0 + C1)",
    ),
    Rewrite("mul-of-mul", "muli(muli(x, C0), C1) => muli(x, C0 * C1)", "(x * C0) * C1 -> x * (C0 * C1)"),
    Rewrite("and-of-and", "andi(andi(x, C0), C1) => andi(x, C0 & C1)", "(x & C0) & C1 -> x & (C0 & C1)"),
    Rewrite("or-of-or", "ori(ori(x, C0), C1) => ori(x, C0 | C1)", "(x | C0) | C1 -> x | (C0 | C1)"),
    Rewrite("xor-of-xor", "xori(xori(x, C0), C1) => xori(x, C0 ^ C1)", "(x ^ C0) ^ C1 -> x ^ (C0 ^ C1)"),
    Rewrite(
        "shli-of-shli",
        "shli(shli(x, C0), C1) => shli(x, C0 + C1) if ult(C0 + C1, width)",
        "(x << C0) << C1 -> x << (C0 + C1) when the sum is below the width",
    ),
    Rewrite(
        "shrui-of-shrui-zero",
        "shrui(shrui(x, C0), C1) => 0 if uge(C0 + C1, width)",
        "(x >>u C0) >>u C1 -> 0 when the sum reaches the width",
    ),
    # --- strength reduction
    Rewrite(
        "mul-pow2",
        "muli[?nuw](x, C) => shli[?nuw](x, log2(C)) if is_pow2(C)",
        "x * 2^k -> x << k (nuw kept, nsw dropped)",
    ),
    Rewrite(
        "mul-pow2-nsw",
        "muli[nsw, ?nuw](x, C) => shli[nsw, ?nuw](x, log2(C)) if is_pow2(C) and sgt(C, 0)",
        "x *nsw 2^k -> x <<nsw k for a positive 2^k (not for INT_MIN)",
    ),
    Rewrite(
        "divui-pow2",
        "divui[?exact](x, C) => shrui[?exact](x, log2(C)) if is_pow2(C)",
        "x /u 2^k -> x >>u k",
    ),
    Rewrite("remui-pow2", "remui(x, C) => andi(x, C - 1) if is_pow2(C)", "x %u 2^k -> x & (2^k - 1)"),
    Rewrite(
        "floordivsi-pow2",
        "floordivsi(x, C) => shrsi(x, log2(C)) if is_pow2(C) and sgt(C, 0)",
        "x // 2^k -> x >>s k (Python floor division)",
    ),
    Rewrite(
        "sub-shift-mask-signed",
        "subi(x, shli(shrsi(x, K), K)) => andi(x, (1 << K) - 1)",
        "x - ((x >>s k) << k) -> x & (2^k - 1)",
    ),
    Rewrite(
        "sub-shift-mask-unsigned",
        "subi(x, shli(shrui(x, K), K)) => andi(x, (1 << K) - 1)",
        "x - ((x >>u k) << k) -> x & (2^k - 1)",
    ),
    # --- select folds (only ones that respect the poison of the arm not picked)
    Rewrite("select-same", "select(c, x, x) => x", "c ? x : x -> x"),
    Rewrite("select-true", "select(1, x, y) => x", "true ? x : y -> x"),
    Rewrite("select-false", "select(0, x, y) => y", "false ? x : y -> y"),
    Rewrite("select-not", "select(xori(c, 1), x, y) => select(c, y, x)", "!c ? x : y -> c ? y : x"),
    Rewrite("select-bool", "select(c, 1, 0) => c", "c ? true : false -> c"),
    Rewrite("select-bool-not", "select(c, 0, 1) => xori(c, 1)", "c ? false : true -> !c"),
    Rewrite(
        "select-same-cond-true",
        "select(c, select(c, x, y), z) => select(c, x, z)",
        "c ? (c ? x : y) : z -> c ? x : z",
    ),
    Rewrite(
        "select-same-cond-false",
        "select(c, x, select(c, y, z)) => select(c, x, z)",
        "c ? x : (c ? y : z) -> c ? x : z",
    ),
    Rewrite("select-eq", "select(cmpi[eq](x, y), x, y) => y", "x == y ? x : y -> y"),
    Rewrite("select-ne", "select(cmpi[ne](x, y), x, y) => x", "x != y ? x : y -> x"),
    # --- lowerings (run after the simplifications)
    Rewrite(
        "floordivsi-expand",
        f"floordivsi(a, b) => select({_FLOOR_FIXUP}, subi(divsi(a, b), 1), divsi(a, b))",
        "Python floor division from divsi/remsi",
        phase="lower",
    ),
    Rewrite(
        "ceildivsi-expand",
        f"ceildivsi(a, b) => select({_CEIL_FIXUP}, addi(divsi(a, b), 1), divsi(a, b))",
        "ceiling division from divsi/remsi",
        phase="lower",
    ),
    # --- helpers the frontend instantiates (never matched)
    Rewrite(
        "floor-mod",
        f"floormodsi(a, b) => {_FLOOR_MOD}",
        "Python's % (sign of the divisor) from remui of the magnitudes; UB only for a zero divisor",
        phase="helper",
    ),
)
