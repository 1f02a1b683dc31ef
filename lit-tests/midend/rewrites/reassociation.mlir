// RUN: %ember-opt %s --split-input-file --pass-pipeline='builtin.module(ember-rewrites)' | %FileCheck %s

// Constant reassociation (add-of-add, mul-of-mul, and-of-and, shli-of-shli): two constants become one.
// CHECK-LABEL: func.func @chains
// CHECK-SAME: (%[[X:[^:]*]]: i32)
// CHECK-DAG: %[[C12:.*]] = arith.constant 12 : i32
// CHECK-DAG: %[[C15:.*]] = arith.constant 15 : i32
// CHECK: %[[M:.*]] = arith.muli %[[X]], %[[C15]] : i32
// CHECK: %[[A:.*]] = arith.addi %[[M]], %[[C12]] : i32
// CHECK: return %[[A]]
func.func @chains(%x: i32) -> i32 {
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %m = arith.muli %x, %c3 : i32
  %m2 = arith.muli %m, %c5 : i32
  %a = arith.addi %m2, %c4 : i32
  %a2 = arith.addi %a, %c8 : i32
  return %a2 : i32
}

// -----

// add-of-add-nuw keeps nuw only when both adds had it.
// CHECK-LABEL: func.func @flags
// CHECK-SAME: (%[[X:[^:]*]]: i8, %[[Y:[^:]*]]: i8)
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : i8
// CHECK-DAG: %[[C200:.*]] = arith.constant -56 : i8
// CHECK: %[[K:.*]] = arith.addi %[[X]], %[[C6]] overflow<nuw> : i8
// CHECK: %[[W:.*]] = arith.addi %[[Y]], %[[C200]] : i8
// CHECK: return %[[K]], %[[W]]
func.func @flags(%x: i8, %y: i8) -> (i8, i8) {
  %c3 = arith.constant 3 : i8
  %c100 = arith.constant 100 : i8
  %a = arith.addi %x, %c3 overflow<nuw> : i8
  %b = arith.addi %a, %c3 overflow<nuw> : i8
  %p = arith.addi %y, %c100 overflow<nuw> : i8
  %q = arith.addi %p, %c100 : i8
  return %b, %q : i8, i8
}
