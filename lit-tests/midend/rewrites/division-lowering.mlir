// RUN: %ember-opt %s --split-input-file --pass-pipeline='builtin.module(ember-rewrites)' | %FileCheck %s
// RUN: %ember verify --tv --pass-pipeline ember-rewrites %s | %FileCheck %s --check-prefix=TV

// The `lower` phase: floordivsi / ceildivsi become divsi + remsi with a sign fix-up.
// CHECK-LABEL: func.func @floor
// CHECK-SAME: (%[[A:[^:]*]]: i32, %[[B:[^:]*]]: i32)
// CHECK-DAG: %[[Q:.*]] = arith.divsi %[[A]], %[[B]] : i32
// CHECK-DAG: %[[R:.*]] = arith.remsi %[[A]], %[[B]] : i32
// CHECK: arith.select
// CHECK-NOT: arith.floordivsi
// CHECK: return
func.func @floor(%a: i32, %b: i32) -> i32 {
  %q = arith.floordivsi %a, %b : i32
  return %q : i32
}

// -----

// CHECK-LABEL: func.func @ceil
// CHECK-DAG: arith.remsi
// CHECK-DAG: arith.divsi
// CHECK-DAG: arith.addi
// CHECK-NOT: arith.ceildivsi
// CHECK: return
func.func @ceil(%a: i64, %b: i64) -> i64 {
  %q = arith.ceildivsi %a, %b : i64
  return %q : i64
}

// TV-DAG: ok       @floor
// TV-DAG: ok       @ceil
// TV: 2 functions validated
