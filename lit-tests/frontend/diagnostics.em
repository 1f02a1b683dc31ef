# RUN: not %ember build %s -o %t.o 2>&1 | %FileCheck %s
# Every error of the file is reported, in source order, as file:line:col: error: ...

# CHECK: diagnostics.em:[[# @LINE + 2]]:14: error: 'x' has type Int, but the value has type Bool
def main() -> None:
    x: Int = True
# CHECK: diagnostics.em:[[# @LINE + 1]]:9: error: 'z' is not defined
    y = z
# CHECK: diagnostics.em:[[# @LINE + 1]]:11: error: operands of '+' have different types: Int and Float64
    print(x + 1.0)
# CHECK-NOT: error
# CHECK-NOT: Traceback
