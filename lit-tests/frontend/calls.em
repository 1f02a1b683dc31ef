# RUN: %ember build %s --emit mlir -O0 -o - | %FileCheck %s
# Function values are `func.constant` + `func.call_indirect`; decorators become
# attributes that survive to LLVM (noinline / alwaysinline).

# CHECK-LABEL: func.func private @ember.twice(%arg0: i64) -> i64
# CHECK-SAME: no_inline
# CHECK-SAME: passthrough = ["noinline"]
@noinline
def twice(x: Int) -> Int:
    return 2 * x


# CHECK-LABEL: func.func private @ember.inc(%arg0: i64) -> i64
# CHECK-SAME: passthrough = ["alwaysinline"]
@always_inline
def inc(x: Int) -> Int:
    return x + 1


# CHECK-LABEL: func.func private @ember.apply(%arg0: (i64) -> i64, %arg1: i64) -> i64
# CHECK: %[[R:.*]] = call_indirect %arg0(%arg1) : (i64) -> i64
# CHECK: return %[[R]]
def apply(f: Callable[[Int], Int], x: Int) -> Int:
    return f(x)


# CHECK-LABEL: func.func private @ember.main()
# CHECK: %[[F:.*]] = constant @ember.twice : (i64) -> i64
# CHECK: call @ember.apply(%[[F]], %{{.*}}) : ((i64) -> i64, i64) -> i64
# CHECK: %[[G:.*]] = constant @ember.inc : (i64) -> i64
# CHECK: call @ember.apply(%[[G]]
def main() -> None:
    print(apply(twice, 3), apply(inc, 3))
