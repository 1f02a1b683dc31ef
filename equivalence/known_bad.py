"""Known-bad rewrites: wrong patterns (most of them real upstream bugs) that `ember verify`
must reject with a counterexample. Never applied by the midend; used by the tests and by
`ember verify --include-known-bad`.
"""

from __future__ import annotations

from compiler.midend.rewrites.table import Rewrite

KNOWN_BAD: tuple[Rewrite, ...] = (
    Rewrite(
        "bad-select-true-to-or",
        "select(c, 1, x) => ori(c, x)",
        "select folds that ignore poison: x poison, c true -> the select is true, the or poison",
    ),
    Rewrite(
        "bad-select-false-to-and",
        "select(c, x, 0) => andi(c, x)",
        "x poison, c false -> the select is false, the and poison",
    ),
    Rewrite(
        "bad-select-blend",
        "select(c, x, y) => xori(y, andi(xori(x, y), extsi(c)))",
        "a branch-free select leaks the poison of the arm it does not pick",
    ),
    Rewrite(
        "bad-add-of-add-keep-nsw",
        "addi[nsw](addi[nsw](x, C0), C1) => addi[nsw](x, C0 + C1)",
        "keeps nsw although C0 + C1 may overflow",
    ),
    Rewrite(
        "bad-mul-pow2-keep-nsw",
        "muli[nsw](x, C) => shli[nsw](x, log2(C)) if is_pow2(C)",
        "x *nsw INT_MIN is not x <<nsw (width - 1)",
    ),
    Rewrite(
        "bad-ceildivsi-add",
        "ceildivsi(a, b) => divsi(subi(addi(a, b), 1), b)",
        "the textbook (a + b - 1) / b: wrong for negative operands and overflows",
    ),
    Rewrite(
        "bad-ceildivsi-negate",
        "ceildivsi(a, b) => select(cmpi[eq](cmpi[slt](a, 0), cmpi[slt](b, 0)), "
        "select(cmpi[ne](remsi(a, b), 0), addi(divsi(a, b), 1), divsi(a, b)), subi(0, divsi(subi(0, a), b)))",
        "an expansion that negates the dividend: wrong at INT_MIN",
    ),
    Rewrite(
        "bad-floordivsi-negate",
        "floordivsi(a, b) => subi(0, ceildivsi(subi(0, a), b))",
        "floor(a / b) = -ceil(-a / b) overflows at INT_MIN",
    ),
    Rewrite(
        "bad-div-self",
        "divsi(x, select(cmpi[eq](x, 0), 1, x)) => 1",
        "x / x -> 1 under a zero guard (the frontend's safe division): 0 / 1 is 0, not 1. "
        "The bare divsi(x, x) => 1 is right: x = 0 is UB in the source",
    ),
    Rewrite(
        "bad-shift-by-width",
        "shrui(shrui(x, C0), C1) => shrui(x, C0 + C1) if ule(C0 + C1, width)",
        "two shifts that add up to the width give 0; one shift by the width is poison",
    ),
    Rewrite(
        "bad-floor-mod-remsi",
        "floormodsi(a, b) => select(andi(cmpi[ne](remsi(a, b), 0), xori(cmpi[slt](remsi(a, b), 0), cmpi[slt](b, 0))), "
        "addi(remsi(a, b), b), remsi(a, b))",
        "Python's % through remsi: INT_MIN % -1 becomes UB (LLVM's srem)",
        phase="helper",
    ),
)
