// RUN: %ember-opt %s --pass-pipeline='builtin.module(symbol-dce)' | %FileCheck %s

// Unreferenced private (internal) functions are deleted; public ones and those still
// called stay.
// CHECK-NOT: @dead
// CHECK-LABEL: func.func private @live
// CHECK-LABEL: func.func @entry
// CHECK-NOT: @dead
func.func private @dead(%x: i64) -> i64 attributes {llvm.linkage = #llvm.linkage<internal>} {
  return %x : i64
}

func.func private @live(%x: i64) -> i64 attributes {llvm.linkage = #llvm.linkage<internal>} {
  return %x : i64
}

func.func @entry(%x: i64) -> i64 {
  %0 = call @live(%x) : (i64) -> i64
  return %0 : i64
}
