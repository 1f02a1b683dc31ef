// RUN: %ember-opt %s --split-input-file --pass-pipeline='builtin.module(ember-rewrites)' | %FileCheck %s

// Select folds (select-same, select-true/false, select-not, select-bool): each keeps the
// poison of the arm not picked out of the result.
// CHECK-LABEL: func.func @same_and_const
// CHECK-SAME: (%[[C:[^:]*]]: i1, %[[X:[^:]*]]: i32, %[[Y:[^:]*]]: i32)
// CHECK-NOT: arith.select
// CHECK: return %[[X]], %[[Y]] : i32, i32
func.func @same_and_const(%c: i1, %x: i32, %y: i32) -> (i32, i32) {
  %t = arith.constant true
  %s = arith.select %c, %x, %x : i32
  %u = arith.select %t, %y, %x : i32
  return %s, %u : i32, i32
}

// -----

// select(not c, x, y) -> select(c, y, x)
// CHECK-LABEL: func.func @not_cond
// CHECK-SAME: (%[[C:[^:]*]]: i1, %[[X:[^:]*]]: i32, %[[Y:[^:]*]]: i32)
// CHECK-NOT: arith.xori
// CHECK: %[[S:.*]] = arith.select %[[C]], %[[Y]], %[[X]] : i32
// CHECK: return %[[S]]
func.func @not_cond(%c: i1, %x: i32, %y: i32) -> i32 {
  %t = arith.constant true
  %n = arith.xori %c, %t : i1
  %s = arith.select %n, %x, %y : i32
  return %s : i32
}

// -----

// select(c, true, false) -> c
// CHECK-LABEL: func.func @bool
// CHECK-SAME: (%[[C:[^:]*]]: i1)
// CHECK-NOT: arith.select
// CHECK: return %[[C]] : i1
func.func @bool(%c: i1) -> i1 {
  %t = arith.constant true
  %f = arith.constant false
  %s = arith.select %c, %t, %f : i1
  return %s : i1
}
