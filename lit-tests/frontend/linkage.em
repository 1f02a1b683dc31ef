# RUN: %ember build %s --emit mlir -O0 -o - | %FileCheck %s
# Exported symbols keep their names (external linkage); everything else is `ember.<name>`
# with internal linkage; `main` gets a C entry point returning i32.

# CHECK-DAG: memref.global "private" @ember.counter : memref<i64> = dense<7>
counter: Int = 7
# CHECK-DAG: memref.global @total : memref<f64> = dense<1.500000e+00>
total: Export[Float64] = 1.5
# CHECK-DAG: memref.global "private" @ember.flag : memref<i8> = dense<1>
flag: Bool = True


# CHECK-LABEL: func.func private @ember.helper(%arg0: i64) -> i64
# CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
def helper(x: Int) -> Int:
    return x + counter


# CHECK-LABEL: func.func @api(%arg0: i64) -> i64
# CHECK-NOT: linkage
# CHECK: call @ember.helper(%arg0)
@export
def api(x: Int) -> Int:
    return helper(x)


# CHECK-LABEL: func.func private @ember.main() -> i64
def main() -> Int:
    return api(1)

# CHECK-LABEL: func.func @main() -> i32
# CHECK: %[[R:.*]] = call @ember.main() : () -> i64
# CHECK: arith.trunci %[[R]] : i64 to i32
