// RUN: %ember-opt %s --pass-pipeline='builtin.module(sccp)' | %FileCheck %s

// SCCP propagates a constant through a block argument that is the same on every edge.
// CHECK-LABEL: func.func @merge
// CHECK: %[[C5:.*]] = arith.constant 5 : i64
// CHECK: ^bb2:
// CHECK-NEXT: cf.br ^bb3(%[[C5]] : i64)
// CHECK: ^bb3
// CHECK-NEXT: return %[[C5]]
func.func @merge(%c: i1) -> i64 {
  %c5 = arith.constant 5 : i64
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  cf.br ^bb3(%c5 : i64)
^bb2:
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %s = arith.addi %two, %three : i64
  cf.br ^bb3(%s : i64)
^bb3(%v: i64):
  return %v : i64
}
