// RUN: %ember-opt %s --split-input-file --pass-pipeline='builtin.module(ember-rewrites)' | %FileCheck %s

// Strength reduction: x * 2^k -> x << k; x /u 2^k -> x >>u k; x %u 2^k -> x & (2^k - 1).
// CHECK-LABEL: func.func @pow2
// CHECK-SAME: (%[[X:[^:]*]]: i64)
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : i64
// CHECK: %[[S:.*]] = arith.shli %[[X]], %[[C4]] : i64
// CHECK: %[[D:.*]] = arith.shrui %[[S]], %[[C3]] : i64
// CHECK: %[[R:.*]] = arith.andi %[[D]], %[[C7]] : i64
// CHECK-NOT: arith.muli
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: return %[[R]]
func.func @pow2(%x: i64) -> i64 {
  %c16 = arith.constant 16 : i64
  %c8 = arith.constant 8 : i64
  %m = arith.muli %x, %c16 : i64
  %d = arith.divui %m, %c8 : i64
  %r = arith.remui %d, %c8 : i64
  return %r : i64
}

// -----

// Not a power of two: nothing changes.
// CHECK-LABEL: func.func @not_pow2
// CHECK: arith.muli
// CHECK: arith.divui
func.func @not_pow2(%x: i64) -> i64 {
  %c6 = arith.constant 6 : i64
  %m = arith.muli %x, %c6 : i64
  %d = arith.divui %m, %c6 : i64
  return %d : i64
}
