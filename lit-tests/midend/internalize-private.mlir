// RUN: %ember-opt %s --pass-pipeline='builtin.module(ember-internalize-private)' --split-input-file | %FileCheck %s

// CHECK-LABEL: func.func private @defined
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
func.func private @defined() {
  return
}

// -----

// A declaration has no body: it must stay external.
// CHECK-LABEL: func.func private @declared
// CHECK-NOT: llvm.linkage
func.func private @declared()

// -----

// CHECK-LABEL: func.func @public
// CHECK-NOT: llvm.linkage
func.func @public() {
  return
}
