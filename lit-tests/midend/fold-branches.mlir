// RUN: %ember-opt %s --pass-pipeline='builtin.module(ember-fold-branches)' --split-input-file | %FileCheck %s

// A true condition takes the first successor and its operands.
// CHECK-LABEL: func.func @taken_true
// CHECK-SAME: (%[[X:[a-z0-9]+]]: i32, %[[Y:[a-z0-9]+]]: i32)
// CHECK-NOT: cf.cond_br
// CHECK: cf.br ^[[A:bb[0-9]+]]
// CHECK: ^[[A]]:
// CHECK-NEXT: return %[[X]] : i32
func.func @taken_true(%x: i32, %y: i32) -> i32 {
  %t = arith.constant true
  cf.cond_br %t, ^a(%x : i32), ^b(%y : i32)
^a(%p: i32):
  return %p : i32
^b(%q: i32):
  return %q : i32
}

// -----

// A false condition takes the second successor and its operands.
// CHECK-LABEL: func.func @taken_false
// CHECK-SAME: (%[[X:[a-z0-9]+]]: i32, %[[Y:[a-z0-9]+]]: i32)
// CHECK-NOT: cf.cond_br
// CHECK: cf.br ^[[B:bb[0-9]+]]
// CHECK: ^[[B]]:
// CHECK-NEXT: return %[[Y]] : i32
func.func @taken_false(%x: i32, %y: i32) -> i32 {
  %f = arith.constant false
  cf.cond_br %f, ^a(%x : i32), ^b(%y : i32)
^a(%p: i32):
  return %p : i32
^b(%q: i32):
  return %q : i32
}

// -----

// A condition that is not a constant stays a conditional branch.
// CHECK-LABEL: func.func @unknown
// CHECK: cf.cond_br %{{[a-z0-9]+}},
func.func @unknown(%c: i1) -> i32 {
  cf.cond_br %c, ^a, ^b
^a:
  %one = arith.constant 1 : i32
  return %one : i32
^b:
  %two = arith.constant 2 : i32
  return %two : i32
}

// -----

// The shape that hangs upstream canonicalize (fuzz/regressions/midend_hang_dead_loop.em):
// the folded branch was the loop's only entry. The loop becomes unreachable and the
// rewrite driver erases it; nothing folds `%next` (folding is off), so this terminates.
// CHECK-LABEL: func.func @dead_loop
// CHECK-NOT: arith.addi
// CHECK: return
func.func @dead_loop() -> i32 {
  %c = arith.constant 1 : i32
  %f = arith.constant false
  %zero = arith.constant 0 : i32
  cf.cond_br %f, ^loop(%zero : i32), ^exit
^loop(%n: i32):
  %next = arith.addi %n, %c : i32
  cf.br ^loop(%next : i32)
^exit:
  return %zero : i32
}
