# RUN: %ember build %s --emit mlir -O0 -o - | %FileCheck %s
# Every integer operation is total: // and % check for zero (and INT_MIN // -1) before
# dividing, shifts select in-range amounts, float % is Python's floor modulo.

# CHECK-LABEL: func.func private @ember.floordiv(%arg0: i64, %arg1: i64) -> i64
# CHECK: %[[ZERO:.*]] = arith.cmpi eq, %arg1, %{{.*}} : i64
# CHECK: cf.cond_br %[[ZERO]], ^[[TRAP:bb[0-9]+]], ^[[OK:bb[0-9]+]]
# CHECK: ^[[TRAP]]:
# CHECK: %[[C1:.*]] = arith.constant 1 : i64
# CHECK: call @ember_trap(%[[C1]])
# CHECK: ^[[OK]]:
# CHECK: %[[M1:.*]] = arith.cmpi eq, %arg1, %{{.*}} : i64
# CHECK: %[[MIN:.*]] = arith.cmpi eq, %arg0, %{{.*}} : i64
# CHECK: %[[BOTH:.*]] = arith.andi %[[MIN]], %[[M1]] : i1
# CHECK: cf.cond_br %[[BOTH]], ^[[OVF:bb[0-9]+]], ^[[DIV:bb[0-9]+]]
# CHECK: ^[[OVF]]:
# CHECK: %[[C2:.*]] = arith.constant 2 : i64
# CHECK: call @ember_trap(%[[C2]])
# CHECK: ^[[DIV]]:
# CHECK: %[[Q:.*]] = arith.divsi %arg0, %arg1 : i64
# CHECK: %[[R:.*]] = arith.remsi %arg0, %arg1 : i64
# CHECK: %[[SIGNS:.*]] = arith.xori %[[R]], %arg1 : i64
# CHECK: arith.subi %[[Q]], %{{.*}} : i64
def floordiv(a: Int, b: Int) -> Int:
    return a // b


# CHECK-LABEL: func.func private @ember.unsigned_mod(%arg0: i64, %arg1: i64) -> i64
# CHECK: arith.remui
# CHECK-NOT: arith.remsi
def unsigned_mod(a: UInt64, b: UInt64) -> UInt64:
    return a % b


# CHECK-LABEL: func.func private @ember.shl(%arg0: i32, %arg1: i32) -> i32
# CHECK: %[[IN:.*]] = arith.cmpi ult, %arg1, %{{.*}} : i32
# CHECK: %[[AMT:.*]] = arith.select %[[IN]], %arg1, %{{.*}} : i32
# CHECK: %[[SH:.*]] = arith.shli %arg0, %[[AMT]] : i32
# CHECK: arith.select %[[IN]], %[[SH]], %{{.*}} : i32
def shl(a: Int32, n: Int32) -> Int32:
    return a << n


# CHECK-LABEL: func.func private @ember.fmod(%arg0: f64, %arg1: f64) -> f64
# CHECK: arith.remf %arg0, %arg1 : f64
# CHECK: math.copysign
def fmod(a: Float64, b: Float64) -> Float64:
    return a % b


# CHECK-LABEL: func.func private @ember.power(%arg0: i8, %arg1: i8) -> i8
# CHECK: call @ember.ipow.i8(%arg0, %arg1) : (i8, i8) -> i8
def power(a: Int8, b: Int8) -> Int8:
    return a ** b


# CHECK-LABEL: func.func private @ember.to_int(%arg0: f64) -> i8
# CHECK: arith.fptosi %{{.*}} : f64 to i8
# CHECK: arith.select
def to_int(x: Float64) -> Int8:
    return Int8(x)

# CHECK-LABEL: func.func private @ember.ipow.i8(
# CHECK: call @ember_trap
