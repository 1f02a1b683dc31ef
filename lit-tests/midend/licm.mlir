// RUN: %ember-opt %s --pass-pipeline='builtin.module(loop-invariant-code-motion)' | %FileCheck %s

// A loop-invariant product is hoisted out of an scf.for body.
// CHECK-LABEL: func.func @hoist
// CHECK-SAME: (%[[A:.*]]: i64, %[[B:.*]]: i64, %[[N:.*]]: index)
// CHECK: %[[P:.*]] = arith.muli %[[A]], %[[B]]
// CHECK: scf.for
// CHECK-NOT: arith.muli
// CHECK: arith.addi %{{.*}}, %[[P]]
// CHECK: scf.yield
func.func @hoist(%a: i64, %b: i64, %n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
    %p = arith.muli %a, %b : i64
    %s = arith.addi %acc, %p : i64
    scf.yield %s : i64
  }
  return %r : i64
}
