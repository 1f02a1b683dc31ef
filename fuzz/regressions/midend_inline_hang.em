# The -O2/-O3 MLIR midend never finished on this program: upstream `inline` (4 rounds with
# canonicalize in between) turns the calls through function values into direct recursive
# calls and inlines the grown body into every call site each round (doubly exponential).
# Found by the differential fuzzer (ember strategy: a recursive SCC through a function
# table); reduced by deleting lines, then by hand. FIXED: one inlining round
# (compiler/midend/pipeline.py INLINE).
# Reproduce: timeout 20 ember build midend_inline_hang.em -O2   (exited 124 before the fix)
#            ember interp midend_inline_hang.em                 (prints 59969536)
def tab(k: Int) -> Callable[[Int, Int], Int]:
    return f0


def f0(x: Int, d: Int) -> Int:
    if d <= 0:
        return x
    j: Int = 0
    while j < 3:
        j = j + 1
    fn1: Callable[[Int, Int], Int] = tab(x)
    fn2: Callable[[Int, Int], Int] = tab(x)
    return fn1(8, d - 1) * fn2(11, d - 1)


def main() -> Int:
    print(f0(41, 3))
    return 0
