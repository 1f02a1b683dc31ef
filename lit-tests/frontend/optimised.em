# RUN: %ember build %s --emit mlir -O2 -o - | %FileCheck %s
# At -O2 the midend inlines, folds and removes dead internal functions. A trap inside an
# inlined function, and a loop made dead by folding, must not hang the canonicalizer.

# CHECK-NOT: func.func private @ember.safe_div
def safe_div(a: Int, b: Int) -> Int:
    assert b != 7
    return a // b


# CHECK-NOT: @ember.ipow
def power() -> Int:
    e = -1
    return 2 ** e


# CHECK-LABEL: func.func @main() -> i32
# CHECK: call @ember_trap
# CHECK-NOT: call @ember.
def main() -> Int:
    for i in range(0):
        print(i)
    return safe_div(10, 3) + power()
