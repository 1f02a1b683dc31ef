# The -O2/-O3 MLIR midend never finishes on this program: its `inline` pass loops when a
# function with a loop calls itself twice through function values returned by another
# function (`tab`). -O0 and -O1 (no inliner) build it in a second.
# Found by the differential fuzzer (ember strategy: a recursive SCC through a function
# table); reduced by deleting lines, then by hand. OPEN (the midend owns the fix).
# Reproduce: timeout 20 ember build midend_inline_hang.em -O2   (exit 124)
#            ember interp midend_inline_hang.em                 (prints 59969536 at once)
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
