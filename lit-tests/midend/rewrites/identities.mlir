// RUN: %ember-opt %s --split-input-file --pass-pipeline='builtin.module(ember-rewrites)' | %FileCheck %s

// Identities (add-zero, mul-one, sub-self, xor-self, and-ones, not-not, divsi-one, shli-zero):
// each function returns its argument or a constant.
// CHECK-LABEL: func.func @add_mul
// CHECK-SAME: (%[[X:[^:]*]]: i32)
// CHECK-NOT: arith.addi
// CHECK-NOT: arith.muli
// CHECK: return %[[X]] : i32
func.func @add_mul(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = arith.addi %x, %c0 : i32
  %m = arith.muli %a, %c1 : i32
  return %m : i32
}

// -----

// CHECK-LABEL: func.func @self_cancel
// CHECK: %[[Z:.*]] = arith.constant 0 : i16
// CHECK-NOT: arith.subi
// CHECK-NOT: arith.xori
// CHECK: return %[[Z]], %[[Z]] : i16, i16
func.func @self_cancel(%x: i16) -> (i16, i16) {
  %s = arith.subi %x, %x : i16
  %t = arith.xori %x, %x : i16
  return %s, %t : i16, i16
}

// -----

// CHECK-LABEL: func.func @not_not_div_one
// CHECK-SAME: (%[[X:[^:]*]]: i8)
// CHECK-NOT: arith.xori
// CHECK-NOT: arith.divsi
// CHECK-NOT: arith.shli
// CHECK: return %[[X]] : i8
func.func @not_not_div_one(%x: i8) -> i8 {
  %m1 = arith.constant -1 : i8
  %c1 = arith.constant 1 : i8
  %c0 = arith.constant 0 : i8
  %n = arith.xori %x, %m1 : i8
  %nn = arith.xori %n, %m1 : i8
  %d = arith.divsi %nn, %c1 : i8
  %s = arith.shli %d, %c0 : i8
  return %s : i8
}
