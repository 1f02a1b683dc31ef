# The -O2/-O3 MLIR midend never finished on this program (over 300 s; -O0 builds in 0.7 s):
# inlining the depth-budget recursion specialises `d` down to 0, so `if d <= 0: return`
# becomes a constant branch whose folding, inside one greedy canonicalize iteration,
# removes the only entry edge of an inlined `while` loop; `cf.br` canonicalization then
# merges the loop header into its latch, leaving `%n = arith.addi %n, %c1`, which the
# folder rewrites forever (upstream MLIR 22, llvm-project PR 221037). Found by the
# differential fuzzer (ember strategy, a one-entry function table `tab`).
# FIXED: canonicalize no longer folds constant branches; `ember-fold-branches` does it
# between canonicalizations (compiler/midend/pipeline.py CANONICALIZE, FOLD_BRANCHES).
# Reproduce: timeout 60 ember build midend_hang_dead_loop.em -O2 --split none  (exited 124 before the fix)
#            ember interp midend_hang_dead_loop.em
def tab(k: Int) -> Callable[[Int, Int], Int]:
    return f7


@export
def f0(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 255
    acc: Int = x
    for i in range(1):
        acc = acc % 56
        acc = acc >> 60
        acc = Int(max(UInt64(acc), UInt64(i)))
        acc = Int(UInt64(acc) % 14)
        acc = acc >> 35
        acc = Int(UInt64(acc) >> 58)
        acc = acc + 1
    acc = acc + Int(Float64(acc & 65535) * 20.25)
    acc = acc ^ f1(acc, d - 1)
    acc = acc ^ f2(acc, d - 1)
    acc = acc ^ f3(acc, d - 1)
    acc = acc ^ f4(acc, d - 1)
    acc = acc ^ f5(acc, d - 1)
    acc = acc ^ f6(acc, d - 1)
    acc = acc ^ f7(acc, d - 1)
    acc = acc ^ f8(acc, d - 1)
    return acc


def f1(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 77
    acc: Int = x
    j: Int = 0
    while j < 8:
        acc = acc >> 57
        acc = acc + 1
        j = j + 1
    acc = acc + Int(Float64(acc & 65535) * 26.25)
    fn0: Callable[[Int, Int], Int] = tab(acc % 1)
    acc = acc * fn0(acc, d - 1)
    return acc


@export
@noinline
def f2(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 49
    acc: Int = x
    for i in range(8):
        acc = acc << 58
        acc = acc + 1
    acc = acc ^ Int(Float32(acc & 4095) * Float32(13.5))
    acc = acc + f0(21, d - 1)
    fn1: Callable[[Int, Int], Int] = tab(acc % 1)
    acc = acc + fn1(acc, d - 1)
    fn2: Callable[[Int, Int], Int] = tab(acc % 1)
    acc = acc * fn2(29, d - 1)
    return acc


@export
@noinline
def f3(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 33
    acc: Int = x
    for i in range(3):
        acc = acc & i
        acc = min(acc, 47)
        acc = acc + 1
    fn0: Callable[[Int, Int], Int] = tab(acc % 1)
    acc = acc ^ fn0(acc, d - 1)
    fn1: Callable[[Int, Int], Int] = tab(acc % 1)
    acc = acc + fn1(47, d - 1)
    return acc


def f4(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 249
    acc: Int = x
    for i in range(3):
        acc = acc >> 62
        acc = acc + d
        acc = Int(max(UInt64(acc), UInt64(x)))
        acc = acc + 1
    acc = acc ^ f6(24, d - 1)
    return acc


@export
def f5(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 11
    acc: Int = x
    acc = acc ^ d
    acc = Int(UInt64(acc) // UInt64(x | 1))
    acc = acc | d
    acc = acc - d
    acc = acc | 31
    fn0: Callable[[Int, Int], Int] = tab(acc % 1)
    acc = acc ^ fn0(acc, d - 1)
    fn1: Callable[[Int, Int], Int] = tab(acc % 1)
    acc = acc + fn1(acc, d - 1)
    fn2: Callable[[Int, Int], Int] = tab(acc % 1)
    acc = acc ^ fn2(30920, d - 1)
    return acc


def f6(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 242
    acc: Int = x
    acc = acc + f7(25, d - 1)
    acc = acc * f0(acc, d - 1)
    fn2: Callable[[Int, Int], Int] = tab(acc % 1)
    acc = acc ^ fn2(5, d - 1)
    return acc


def f7(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 149
    acc: Int = x
    for i in range(1):
        acc = Int(UInt64(acc) // 46)
        acc = Int(UInt64(acc) >> 56)
        acc = acc | 5735
        acc = acc % 3580641
        acc = acc + 1
    fn0: Callable[[Int, Int], Int] = tab(acc % 1)
    acc = acc * fn0(acc, d - 1)
    return acc


@export
def f8(x: Int, d: Int) -> Int:
    if d <= 0:
        return x ^ 203
    acc: Int = x
    for i in range(1):
        acc = Int(UInt64(acc) % UInt64(i | 1))
        acc = acc + (-586)
        acc = acc << 54
        acc = acc // 5
        acc = acc % 4
        acc = acc // 622691
        acc = acc + 1
    return acc


def main() -> Int:
    chk: Int = 0
    a0: Int = f0(30, 4)
    print("f0", a0)
    chk = chk * 1000003 ^ a0
    a1: Int = f2(30, 4)
    print("f2", a1)
    chk = chk * 1000003 ^ a1
    a2: Int = f3(30, 4)
    print("f3", a2)
    chk = chk * 1000003 ^ a2
    a3: Int = f5(30, 4)
    print("f5", a3)
    chk = chk * 1000003 ^ a3
    a4: Int = f8(30, 4)
    print("f8", a4)
    chk = chk * 1000003 ^ a4
    print("checksum", chk)
    return 0
