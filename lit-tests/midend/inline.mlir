// RUN: %ember-opt %s --pass-pipeline='builtin.module(inline)' | %FileCheck %s

// The inliner folds a small internal callee into its caller and, once no call is
// left, deletes the private callee itself.
// CHECK-NOT: @square
// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[X:.*]]: i64)
// CHECK-NOT: call @square
// CHECK: %[[SQ:.*]] = arith.muli %[[X]], %[[X]] : i64
// CHECK: return %[[SQ]]
func.func private @square(%x: i64) -> i64 attributes {llvm.linkage = #llvm.linkage<internal>} {
  %0 = arith.muli %x, %x : i64
  return %0 : i64
}

func.func @caller(%x: i64) -> i64 {
  %0 = call @square(%x) : (i64) -> i64
  return %0 : i64
}
