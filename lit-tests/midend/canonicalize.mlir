// RUN: %ember-opt %s --pass-pipeline='builtin.module(canonicalize)' --split-input-file | %FileCheck %s

// Constant folding and identity removal: (x + 0) * 1 is x; 6 * 7 folds to 42.
// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.*]]: i64)
// CHECK-DAG: %[[C42:.*]] = arith.constant 42 : i64
// CHECK-NOT: arith.muli
// CHECK: %[[R:.*]] = arith.addi %[[X]], %[[C42]]
// CHECK: return %[[R]]
func.func @identities(%x: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c6 = arith.constant 6 : i64
  %c7 = arith.constant 7 : i64
  %a = arith.addi %x, %c0 : i64
  %b = arith.muli %a, %c1 : i64
  %k = arith.muli %c6, %c7 : i64
  %r = arith.addi %b, %k : i64
  return %r : i64
}

// -----

// A conditional branch on a constant becomes an unconditional one; the dead block goes.
// CHECK-LABEL: func.func @const_branch
// CHECK-NOT: cf.cond_br
// CHECK: %[[C1:.*]] = arith.constant 1 : i64
// CHECK: return %[[C1]]
func.func @const_branch() -> i64 {
  %true = arith.constant true
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  cf.cond_br %true, ^bb1, ^bb2
^bb1:
  return %c1 : i64
^bb2:
  return %c2 : i64
}
