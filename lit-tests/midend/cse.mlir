// RUN: %ember-opt %s --pass-pipeline='builtin.module(cse)' | %FileCheck %s

// Two identical pure computations become one; calls with side effects are kept.
// CHECK-LABEL: func.func @common
// CHECK-SAME: (%[[A:.*]]: i64, %[[B:.*]]: i64)
// CHECK: %[[M:.*]] = arith.muli %[[A]], %[[B]]
// CHECK-NOT: arith.muli
// CHECK: call @effect(%[[M]])
// CHECK: call @effect(%[[M]])
// CHECK: arith.addi %[[M]], %[[M]]
func.func private @effect(i64)

func.func @common(%a: i64, %b: i64) -> i64 {
  %0 = arith.muli %a, %b : i64
  call @effect(%0) : (i64) -> ()
  %1 = arith.muli %a, %b : i64
  call @effect(%1) : (i64) -> ()
  %2 = arith.addi %0, %1 : i64
  return %2 : i64
}
