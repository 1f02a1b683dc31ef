// RUN: %ember-opt %s --lower-to-llvm | %FileCheck %s

// Ember's lowering keeps internal linkage (ember-internalize-private runs first:
// upstream would make private functions external) and turns cf/arith into llvm ops.
// CHECK-LABEL: llvm.func internal @helper
// CHECK: llvm.mul
// CHECK-LABEL: llvm.func @entry
// CHECK: llvm.icmp "slt"
// CHECK: llvm.cond_br
// CHECK: llvm.call @helper
// CHECK: llvm.return
func.func private @helper(%x: i64) -> i64 {
  %0 = arith.muli %x, %x : i64
  return %0 : i64
}

func.func @entry(%x: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %neg = arith.cmpi slt, %x, %c0 : i64
  cf.cond_br %neg, ^bb1, ^bb2
^bb1:
  return %c0 : i64
^bb2:
  %0 = call @helper(%x) : (i64) -> i64
  return %0 : i64
}
